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

# The engine's modules setup.py compiles: those where the rig board's push() runs spend their time
# (bench/engine_runs.py under cProfile, pure Python). Each earns its share of the C compile:
# its runtime share (tottime, pure rig/cards boards) against its share of the generated C, measured
# on the 24-module build (210k lines of C, 205 s to compile):
#   machine 17.5% / 4.3%, windows 7.4 / 7.5, encounter 6.5 / 3.4, abilities 6.0 / 8.6,
#   triggers 4.3 / 5.1, run 4.1 / 4.3, checkpoints 3.9 / 1.2, rig 3.8 / 3.4, session 3.5 / 6.7,
#   decision 2.9 / 4.8, access 1.6 / 4.5, recurring 1.1 / 1.6.
# Left as Python: effects (1.6% of the time for 17% of the C), locations (0.4 / 3.2), and those a run
# never enters (0.0%): turns (7.3% of the C), trace, prevention, structures, outcome, narration,
# steps, draw, restrictions, events. A module that is not compiled is called through Python.
COMPILED = (
    "abilities",
    "access",
    "checkpoints",
    "decision",
    "encounter",
    "machine",
    "recurring",
    "rig",
    "run",
    "session",
    "triggers",
    "windows",
)
GROUP = "native"  # mypyc's shared library of the group: engine/native__mypyc.*.so
HERE = Path(__file__).resolve().parent
STAMP = "native.stamp"


def source_hash(root: Path = HERE) -> str:
    """The SHA-256 of the engine's sources under `root` (names and bytes, in order): those of
    `COMPILED` and the others too, whose types mypyc read when it compiled the modules calling
    them (a changed signature there makes the build stale)."""
    h = hashlib.sha256()
    for path in sorted(root.glob("*.py")):
        h.update(path.name.encode() + b"\0")
        h.update(path.read_bytes())
        h.update(b"\0")
    return h.hexdigest()


def strays(root: Path = HERE) -> list[str]:
    """Engine modules with an extension module beside their source that `COMPILED` does not
    list (left by a build made when they were compiled): always imported from their source."""
    out = []
    for suffix in importlib.machinery.EXTENSION_SUFFIXES:
        for path in root.glob(f"*{suffix}"):
            name = path.name[: -len(suffix)]
            if name not in COMPILED and (root / f"{name}.py").is_file():
                out.append(name)
    return sorted(set(out))


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
    """Imports the modules ``names`` under `root` from their sources, never their builds."""

    def __init__(self, package: str, root: Path, names: tuple[str, ...] | list[str] = COMPILED):
        self.prefix = package + "."
        self.root = root
        self.names = frozenset(names)

    def find_spec(
        self, fullname: str, path: object = None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        if not fullname.startswith(self.prefix):
            return None
        name = fullname[len(self.prefix) :]
        if name not in self.names:
            return None
        return importlib.util.spec_from_file_location(fullname, self.root / f"{name}.py")


def activate(package: str, root: Path = HERE) -> tuple[bool, str]:
    """Decide once, before the package imports its modules: (compiled?, why)."""
    native, why = status(root)
    names = strays(root) if native else [*COMPILED, *strays(root)]
    if names and not any(isinstance(f, _Sources) and f.prefix == package + "." for f in sys.meta_path):
        sys.meta_path.insert(0, _Sources(package, root, names))
    if not native:
        if "stale" in why:
            warnings.warn(f"engine: {why}", RuntimeWarning, stacklevel=2)
    return native, why
