"""The compiled engine (issue 10, speed): `make native` (part of `make install`) runs
``NRRULES_NATIVE=1 python setup.py build_ext --inplace``, which compiles the modules listed in
`engine._native.COMPILED` with mypyc into extension modules beside their sources and writes
engine/native.stamp (the hash of the sources compiled; engine/_native.py runs the compiled modules
only while it matches). Without NRRULES_NATIVE=1 (a plain `pip install`) nothing is compiled and
the engine is pure Python. Project metadata lives in pyproject.toml."""

from __future__ import annotations

import importlib.machinery
import importlib.util
import os
import time
from pathlib import Path

from setuptools import setup
from setuptools.command.build_ext import build_ext

ROOT = Path(__file__).resolve().parent

# mypy checks mypyc needs switched off: narrowing of Optional values the engine guarantees
# at run time (an encounter's ice, the run frame); mypyc still checks every value it unboxes
MYPY_FLAGS = [
    "--ignore-missing-imports",
    "--follow-imports=silent",
    "--disable-error-code=union-attr",
    "--disable-error-code=index",
    "--disable-error-code=arg-type",
    "--disable-error-code=misc",
    "--disable-error-code=operator",
]


def _progress(line: str) -> None:
    """A progress line for `make native` (its file descriptor 3: the terminal, while the
    compiler's own output goes to build-native.log); nothing when fd 3 is not open."""
    try:
        os.write(3, f"native: {line}\n".encode())
    except OSError:
        pass


def _native():
    """engine/_native.py, loaded by path (importing the package would import the engine)."""
    spec = importlib.util.spec_from_file_location("_nrrules_native", ROOT / "engine" / "_native.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


class BuildNative(build_ext):
    def build_extension(self, ext) -> None:
        t0 = time.perf_counter()
        _progress(f"compiling {ext.name} ({len(ext.sources)} C file(s)) ...")
        super().build_extension(ext)
        _progress(f"  {ext.name}: {time.perf_counter() - t0:.0f} s")

    def run(self) -> None:
        if not self.extensions:  # a plain `pip install`: nothing to compile, the stamp stays
            super().run()
            return
        native = _native()
        stamp = ROOT / "engine" / native.STAMP
        stamp.unlink(missing_ok=True)
        t0 = time.perf_counter()
        super().run()
        _progress(f"C compiled and linked in {time.perf_counter() - t0:.0f} s")
        if self.inplace:
            # builds of modules no longer in COMPILED: their group library is gone
            for name in native.strays(ROOT / "engine"):
                for suffix in importlib.machinery.EXTENSION_SUFFIXES:
                    (ROOT / "engine" / f"{name}{suffix}").unlink(missing_ok=True)
                _progress(f"removed the old build of engine.{name} (no longer compiled)")
            stamp.write_text(native.source_hash(ROOT / "engine") + "\n")


ext_modules = []
if os.environ.get("NRRULES_NATIVE") == "1":
    from mypyc.build import mypycify

    native = _native()
    _progress(f"mypyc: checking types and writing C for {len(native.COMPILED)} engine modules ...")
    t0 = time.perf_counter()
    ext_modules = mypycify(
        [*MYPY_FLAGS, *(f"engine/{name}.py" for name in native.COMPILED)],
        opt_level="3",
        group_name=f"engine.{native.GROUP}",
    )
    _progress(f"mypyc: C written in {time.perf_counter() - t0:.0f} s; compiling it (the longest part)")

setup(ext_modules=ext_modules, cmdclass={"build_ext": BuildNative})
