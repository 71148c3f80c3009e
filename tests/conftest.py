"""Shared fixtures: the real CR documents from ../shared/cr, parsed once per test session."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from scraper import Document, parse_html

ROOT = Path(__file__).resolve().parent.parent
CR_DIR = Path(os.environ.get("NRRULES_CR_DIR", ROOT.parent / "shared" / "cr"))
VERSIONS = ["22.12", "23.08", "24.03", "25.04", "25.08", "26.03"]
LATEST = VERSIONS[-1]


def cr_path(version: str) -> Path:
    return CR_DIR / f"cr-{version}.html"


@pytest.fixture(scope="session")
def cr_dir() -> Path:
    assert CR_DIR.is_dir(), f"CR files not found at {CR_DIR} (set NRRULES_CR_DIR)"
    return CR_DIR


_DOCS: dict[str, Document] = {}


def load_doc(version: str) -> Document:
    if version not in _DOCS:
        path = cr_path(version)
        _DOCS[version] = parse_html(path.read_bytes(), str(path))
    return _DOCS[version]


@pytest.fixture(scope="session")
def documents(cr_dir) -> dict[str, Document]:
    """All six real CR versions, parsed (version -> Document)."""
    return {v: load_doc(v) for v in VERSIONS}


@pytest.fixture(scope="session")
def doc_latest(cr_dir) -> Document:
    return load_doc(LATEST)
