"""Which engine runs: the compiled one or the pure-Python one (issue 10, speed).

`make install` compiles the hot modules of the engine (`COMPILED`) with mypyc (setup.py) into
extension modules beside their sources, and writes `native.stamp`: the SHA-256 of those sources
when they were compiled. Python imports an extension module before the source of the same name,
so an edited source would silently lose to its stale compiled copy; `activate` (run by
engine/__init__.py before any other engine module is imported) prevents that. The compiled
modules run only when every one of them is built and the stamp matches the sources now;
otherwise every module of `COMPILED` is imported from its source (a finder placed first on
`sys.meta_path`), with a warning when the compiled copy is stale. ``NRRULES_PURE=1`` asks for
the pure-Python engine. Both give the same events, byte for byte (tests/test_engine_native.py).

This module is never compiled, imports no other engine module, and has no state but the finder.
"""

from __future__ import annotations

import hashlib
import importlib.abc
import importlib.machinery
import importlib.util
import os
import sys
import warnings
from pathlib import Path
from types import ModuleType

# the engine's modules setup.py compiles: the step machine and everything a session walks
COMPILED = (
    "abilities",
    "access",
    "checkpoints",
    "decision",
    "draw",
    "effects",
    "encounter",
    "events",
    "installs",
    "locations",
    "machine",
    "narration",
    "outcome",
    "prevention",
    "recurring",
    "restrictions",
    "rig",
    "run",
    "session",
    "steps",
    "structures",
    "trace",
    "triggers",
    "turns",
    "windows",
)
GROUP = "native"  # mypyc's shared library of the group: engine/native__mypyc.*.so
HERE = Path(__file__).resolve().parent
STAMP = "native.stamp"


def source_hash(root: Path = HERE) -> str:
    """The SHA-256 of the sources of `COMPILED` (names and bytes, in order) under `root`."""
    h = hashlib.sha256()
    for name in COMPILED:
        h.update(name.encode() + b"\0")
        h.update((root / f"{name}.py").read_bytes())
        h.update(b"\0")
    return h.hexdigest()


def _built(root: Path, name: str) -> bool:
    return any((root / f"{name}{suffix}").is_file() for suffix in importlib.machinery.EXTENSION_SUFFIXES)


def status(root: Path = HERE) -> tuple[bool, str]:
    """(whether the compiled modules under `root` may run, why)."""
    if os.environ.get("NRRULES_PURE") == "1":
        return False, "pure Python (NRRULES_PURE=1)"
    missing = [n for n in (*COMPILED, f"{GROUP}__mypyc") if not _built(root, n)]
    if len(missing) == len(COMPILED) + 1:
        return False, "pure Python (the compiled engine is not built: `make native`)"
    stamp = root / STAMP
    built_from = stamp.read_text().strip() if stamp.is_file() else ""
    if missing or built_from != source_hash(root):
        return False, (
            "pure Python: the compiled engine is stale (engine sources changed since it was built, "
            "or the build is incomplete); run `make native` to rebuild it"
        )
    return True, "compiled (mypyc)"


class _Sources(importlib.abc.MetaPathFinder):
    """Imports the modules of `COMPILED` under `root` from their sources, never their builds."""

    def __init__(self, package: str, root: Path):
        self.prefix = package + "."
        self.root = root

    def find_spec(
        self, fullname: str, path: object = None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        if not fullname.startswith(self.prefix):
            return None
        name = fullname[len(self.prefix) :]
        if name not in COMPILED:
            return None
        return importlib.util.spec_from_file_location(fullname, self.root / f"{name}.py")


def activate(package: str, root: Path = HERE) -> tuple[bool, str]:
    """Decide once, before the package imports its modules: (compiled?, why)."""
    native, why = status(root)
    if not native:
        if not any(isinstance(f, _Sources) and f.prefix == package + "." for f in sys.meta_path):
            sys.meta_path.insert(0, _Sources(package, root))
        if "stale" in why:
            warnings.warn(f"engine: {why}", RuntimeWarning, stacklevel=2)
    return native, why
