"""What tests share besides fixtures: where the real CR files are, and each version parsed once
per test process. Import from here (`from helpers import load_doc`), not from conftest."""

from __future__ import annotations

import os
from pathlib import Path

from scraper import Document, parse_html

ROOT = Path(__file__).resolve().parent.parent
CR_DIR = Path(os.environ.get("NRRULES_CR_DIR", ROOT.parent / "shared" / "cr"))
NRDB_DIR = Path(os.environ.get("NRRULES_NRDB_DIR", ROOT.parent / "shared" / "nrdb" / "v2"))
JUDGE_PATH = Path(
    os.environ.get("NRRULES_JUDGE_FILE", ROOT.parent / "shared" / "judge" / "judge-reference-excerpt.html")
)
JUDGE_FIXTURE = ROOT / "tests" / "fixtures" / "judge-libreoffice-floor-guide.html"
VERSIONS = ["22.12", "23.08", "24.03", "25.04", "25.08", "26.03"]
LATEST = VERSIONS[-1]


def cr_path(version: str) -> Path:
    return CR_DIR / f"cr-{version}.html"


_DOCS: dict[str, Document] = {}


def load_doc(version: str) -> Document:
    if version not in _DOCS:
        path = cr_path(version)
        _DOCS[version] = parse_html(path.read_bytes(), str(path))
    return _DOCS[version]
