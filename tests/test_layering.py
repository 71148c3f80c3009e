"""The pipeline's layering (ENGINEERING.md): each package imports only those to its left, and
the engine, which depends on the scraper's model only, never loads lxml (issue 10). Checked in a
fresh interpreter that imports every module of the package, so a transitive import counts too."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

FORBIDDEN = {
    "memo": ["scraper", "rules_index", "engine", "webapp", "lxml", "bs4", "whoosh", "networkx", "flask"],
    "scraper": ["rules_index", "engine", "webapp", "whoosh", "networkx", "flask"],
    "engine": ["webapp", "lxml", "bs4", "whoosh", "flask"],
    "rules_index": ["webapp", "flask"],
}

PROBE = """
import importlib, json, pkgutil, sys
pkg = importlib.import_module(sys.argv[1])
names = [pkg.__name__]
for info in pkgutil.walk_packages(getattr(pkg, "__path__", []), pkg.__name__ + "."):
    importlib.import_module(info.name)
    names.append(info.name)
print(json.dumps({"modules": names, "loaded": sorted(m.split(".")[0] for m in sys.modules)}))
"""


@pytest.mark.parametrize("package", sorted(FORBIDDEN))
def test_package_imports_only_what_its_layer_allows(package):
    out = subprocess.run(
        [sys.executable, "-c", PROBE, package],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    )
    seen = json.loads(out.stdout)
    assert len(seen["modules"]) >= 1
    loaded = set(seen["loaded"])
    assert package in loaded
    assert not loaded & set(FORBIDDEN[package]), f"{package} loads {sorted(loaded & set(FORBIDDEN[package]))}"


def test_the_parser_still_loads_on_first_use():
    """`from scraper import parse_html` keeps working; only then is lxml loaded."""
    probe = (
        "import sys, scraper; before = 'lxml' in sys.modules; from scraper import parse_html, verify; "
        "print(before, 'lxml' in sys.modules, callable(parse_html) and callable(verify))"
    )
    out = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["False", "True", "True"]
