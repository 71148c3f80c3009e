"""The compiled engine (issue 10, speed; setup.py, engine/_native.py): `make install` compiles the
engine's hot modules with mypyc beside their sources. Guards:

* the pure-Python engine (``NRRULES_PURE=1``) and the engine as this checkout runs it (compiled
  when built) give the pinned events, decisions and outcomes of the benchmark boards
  (tests/test_engine_golden.py's digests), in fresh interpreters;
* a compiled module never runs instead of an edited source: a copy of the package whose source
  changed after the build imports every compiled module from its source, and warns;
* the decision itself (`engine._native.status`): compiled only when every module is built and the
  stamp matches the sources now.
"""

from __future__ import annotations

import importlib.machinery
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

from helpers import ROOT
from test_engine_golden import GOLDEN

from engine import _native

TESTS = Path(__file__).resolve().parent

PROBE = """
import json, sys
sys.path.insert(0, sys.argv[1])
import importlib, engine
from engine import _native
from test_engine_golden import GOLDEN, _digest
files = {n: importlib.import_module("engine." + n).__file__ for n in _native.COMPILED}
digests = {f"{v}/{b}": list(_digest(v, b)) for v, b in GOLDEN}
print(json.dumps({"native": engine.NATIVE, "status": engine.NATIVE_STATUS, "files": files, "digests": digests}))
"""

IMPORT = """
import importlib, json, warnings
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    import engine
from engine import _native
files = {n: importlib.import_module("engine." + n).__file__ for n in _native.COMPILED}
print(json.dumps({"native": engine.NATIVE, "status": engine.NATIVE_STATUS, "files": files,
                  "warnings": [str(w.message) for w in caught]}))
"""


def _run(code: str, *args: str, pythonpath: str = str(ROOT), cwd: Path = ROOT, **env: str) -> dict:
    environ = {k: v for k, v in os.environ.items() if k != "NRRULES_PURE"}
    environ.update(env, PYTHONPATH=pythonpath)
    out = subprocess.run(
        [sys.executable, "-c", code, *args],
        cwd=cwd,  # `python -c` looks in its working directory first
        env=environ,
        capture_output=True,
        text=True,
        check=True,
        timeout=300,
    )
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_pure_and_compiled_engines_give_the_pinned_events():
    expected = {f"{v}/{b}": list(d) for (v, b), d in GOLDEN.items()}
    pure = _run(PROBE, str(TESTS), NRRULES_PURE="1")
    assert pure["native"] is False and "NRRULES_PURE=1" in pure["status"]
    assert all(f.endswith(".py") for f in pure["files"].values())
    assert pure["digests"] == expected
    here = _run(PROBE, str(TESTS))
    compiled = [f for f in here["files"].values() if not f.endswith(".py")]
    # compiled modules run exactly when the status says so, all of them or none
    assert len(compiled) == (len(_native.COMPILED) if here["native"] else 0), here["status"]
    assert here["digests"] == expected


def _copy_package(dst: Path) -> Path:
    """A copy of the engine package with a build beside its sources: the real one when this
    checkout is built, else stand-in extension files (never loadable) with a matching stamp."""
    pkg = dst / "engine"
    shutil.copytree(ROOT / "engine", pkg, ignore=shutil.ignore_patterns("__pycache__"))
    suffix = importlib.machinery.EXTENSION_SUFFIXES[0]
    for name in (*_native.COMPILED, f"{_native.GROUP}__mypyc"):
        if not any((pkg / f"{name}{s}").exists() for s in importlib.machinery.EXTENSION_SUFFIXES):
            (pkg / f"{name}{suffix}").write_bytes(b"not a shared object")
            (pkg / _native.STAMP).write_text(_native.source_hash(pkg) + "\n")
    return pkg


def test_the_decision_needs_every_module_built_from_the_sources_now(tmp_path, monkeypatch):
    monkeypatch.delenv("NRRULES_PURE", raising=False)
    pkg = _copy_package(tmp_path)
    assert _native.status(pkg) == (True, "compiled (mypyc)")
    monkeypatch.setenv("NRRULES_PURE", "1")
    assert _native.status(pkg)[0] is False
    monkeypatch.delenv("NRRULES_PURE")
    with (pkg / "rig.py").open("a") as f:
        f.write("\n# edited after the build\n")
    native, why = _native.status(pkg)
    assert native is False and "stale" in why
    (pkg / _native.STAMP).write_text(_native.source_hash(pkg) + "\n")
    assert _native.status(pkg)[0] is True
    next(pkg.glob("machine.*.so")).unlink()  # an incomplete build
    native, why = _native.status(pkg)
    assert native is False and "stale" in why
    for so in pkg.glob("*.so"):
        so.unlink()
    native, why = _native.status(pkg)
    assert native is False and "not built" in why


def test_an_edited_source_runs_instead_of_its_stale_build(tmp_path):
    pkg = _copy_package(tmp_path)
    with (pkg / "machine.py").open("a") as f:
        f.write("\nEDITED_AFTER_THE_BUILD = True\n")
    seen = _run(IMPORT, pythonpath=f"{tmp_path}{os.pathsep}{ROOT}", cwd=tmp_path)
    assert seen["native"] is False and "stale" in seen["status"]
    assert seen["files"] == {n: str(pkg / f"{n}.py") for n in _native.COMPILED}
    assert any("stale" in w and "make native" in w for w in seen["warnings"]), seen["warnings"]


def test_an_old_build_of_a_module_no_longer_compiled_never_runs(tmp_path):
    """A build left beside a source that `COMPILED` no longer lists (made when it was compiled)
    is imported from its source, and `strays` names it (setup.py removes such builds)."""
    pkg = _copy_package(tmp_path)
    left = next(n for n in ("turns", "effects", "trace") if n not in _native.COMPILED)
    suffix = importlib.machinery.EXTENSION_SUFFIXES[0]
    (pkg / f"{left}{suffix}").write_bytes(b"not a shared object")
    assert _native.strays(pkg) == [left]
    with (pkg / "machine.py").open("a") as f:  # stale: no compiled module may run in the copy
        f.write("\n# edited after the build\n")
    code = IMPORT.replace("for n in _native.COMPILED", f"for n in (*_native.COMPILED, {left!r})")
    seen = _run(code, pythonpath=f"{tmp_path}{os.pathsep}{ROOT}", cwd=tmp_path)
    assert seen["files"][left] == str(pkg / f"{left}.py")


def test_a_changed_module_that_is_not_compiled_makes_the_build_stale(tmp_path, monkeypatch):
    """mypyc read the types of the modules the compiled ones call: a change there is a rebuild."""
    monkeypatch.delenv("NRRULES_PURE", raising=False)
    pkg = _copy_package(tmp_path)
    other = next(
        p for p in sorted(pkg.glob("*.py")) if p.stem not in _native.COMPILED and p.stem != "_native"
    )
    assert _native.status(pkg)[0] is True
    with other.open("a") as f:
        f.write("\n# edited after the build\n")
    native, why = _native.status(pkg)
    assert native is False and "stale" in why
