"""The in-browser engine's files (issue 35): Pyodide, vendored from the npm registry, and the
engine packed as a zip, both under webapp/static/vendor/pyodide/ (git-ignored, made by
`make install` through `make offline-engine`, which runs ``python -m webapp.offline_engine``).

* Pyodide: the pinned version's package (``npm pack pyodide@VERSION``), of which only the files
  a module worker needs to start Python are kept (`FILES`), each checked against its pinned
  SHA-256 before it is written; a mismatch stops the build and writes nothing.
* engine.zip: engine/*.py with the in-repo modules they import (memo, the scraper's document
  model), the text formatter the pages use (webapp.textfmt and what it imports) with MarkupSafe's
  pure-Python code from this virtualenv, the offline glue (webapp.offline_step) and a few lines
  standing in for orjson (the document model parses its JSON with it; the standard library's
  json gives the same objects).

The folder is served as /static/vendor/pyodide/... (files named by version, so cacheable);
`manifest.json` there lists each file with its size and SHA-256 for the page and the saved copy.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import shutil
import subprocess
import sys
import tarfile
import tempfile
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DEST = ROOT / "webapp" / "static" / "vendor" / "pyodide"
VERSION = "314.0.7"
# the files of npm's pyodide@VERSION the worker loads, with their SHA-256
FILES: dict[str, str] = {
    "pyodide.mjs": "6f1d60f7bf529beb300f0f47983c921d3982363640ba20af0e38efdddbc66109",
    "pyodide.asm.mjs": "f7cdc8ece80678ceb712f8e65ebe6d3a83203a180c399865f49612a051693635",
    "pyodide.asm.wasm": "cc36e3cab04fdfc9a63ff13eb52eae2b911bf46c025cc7b281f394bd3de1d5e6",
    "python_stdlib.zip": "fa1957e5777068fc4f7437f96d860ae2fbe9c19732ba06c84e004ec16dd7dd7a",
    "pyodide-lock.json": "5dc2fc119108bc148c7457dc86e7675b5c87e1cafd420b9c34c1eaef7b36c010",
}
ENGINE_ZIP = "engine.zip"
MANIFEST = "manifest.json"
# in-repo modules the packed engine imports, beside engine/*.py (paths relative to the repo)
MODULES = (
    "memo/__init__.py",
    "scraper/__init__.py",
    "scraper/errors.py",
    "scraper/model.py",
    "webapp/__init__.py",
    "webapp/board_picture.py",
    "webapp/textfmt.py",
    "webapp/offline_step.py",
)
ORJSON_STANDIN = '''"""orjson's loads for the in-browser engine (webapp.offline_engine): the standard json."""
import json

JSONDecodeError = json.JSONDecodeError
loads = json.loads
'''


class FetchError(RuntimeError):
    """The pinned files could not be fetched or did not match their digests."""


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def have_pyodide(dest: Path = DEST) -> bool:
    """Whether every pinned file is in `dest` with its pinned digest."""
    for name, digest in FILES.items():
        path = dest / name
        if not path.is_file() or sha256(path.read_bytes()) != digest:
            return False
    return True


def fetch_pyodide(dest: Path = DEST) -> None:
    """The pinned Pyodide files from the npm registry (`npm pack`), checked, into `dest`."""
    if have_pyodide(dest):
        return
    npm = shutil.which("npm")
    if npm is None:
        raise FetchError("npm is not installed: it fetches Pyodide from the npm registry")
    with tempfile.TemporaryDirectory(prefix="nrrules-pyodide-") as tmp:
        done = subprocess.run(
            [npm, "pack", f"pyodide@{VERSION}", "--silent", "--pack-destination", tmp],
            capture_output=True,
            text=True,
            timeout=600,
        )
        tgz = next(Path(tmp).glob("pyodide-*.tgz"), None)
        if done.returncode != 0 or tgz is None:
            raise FetchError(f"npm pack pyodide@{VERSION} failed: {done.stderr.strip()[-500:]}")
        found: dict[str, bytes] = {}
        with tarfile.open(tgz) as tar:
            for name in FILES:
                member = tar.extractfile(f"package/{name}")
                if member is None:
                    raise FetchError(f"pyodide@{VERSION} has no {name}")
                found[name] = member.read()
    for name, data in found.items():
        if sha256(data) != FILES[name]:
            raise FetchError(f"{name} of pyodide@{VERSION} does not match its pinned SHA-256: not installed")
    dest.mkdir(parents=True, exist_ok=True)
    for name, data in found.items():
        (dest / name).write_bytes(data)


def engine_sources() -> list[tuple[str, bytes]]:
    """(path in the zip, bytes) of every file the in-browser engine imports."""
    import markupsafe

    out = [(f"engine/{p.name}", p.read_bytes()) for p in sorted((ROOT / "engine").glob("*.py"))]
    out += [(rel, (ROOT / rel).read_bytes()) for rel in MODULES]
    ms = Path(markupsafe.__file__).parent
    out += [(f"markupsafe/{n}", (ms / n).read_bytes()) for n in ("__init__.py", "_native.py")]
    out.append(("orjson.py", ORJSON_STANDIN.encode()))
    return out


def pack_engine(dest: Path = DEST) -> Path:
    """engine.zip in `dest`: the same bytes for the same sources (fixed dates, sorted names)."""
    dest.mkdir(parents=True, exist_ok=True)
    target = dest / ENGINE_ZIP
    tmp = target.with_suffix(".tmp")
    with zipfile.ZipFile(tmp, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as zf:
        for name, data in sorted(engine_sources()):
            info = zipfile.ZipInfo(name, date_time=(2020, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            zf.writestr(info, data)
    tmp.replace(target)
    return target


def write_manifest(dest: Path = DEST) -> dict:
    """manifest.json: the Pyodide version and each file's size and SHA-256 (the engine zip's
    digest names its version, so a saved copy knows when it is stale)."""
    files = {}
    for name in [*FILES, ENGINE_ZIP]:
        data = (dest / name).read_bytes()
        files[name] = {"bytes": len(data), "sha256": sha256(data)}
    manifest = {"pyodide": VERSION, "files": files, "bytes": sum(f["bytes"] for f in files.values())}
    (dest / MANIFEST).write_text(json.dumps(manifest, indent=1) + "\n", encoding="utf-8")
    return manifest


def read_manifest(dest: Path = DEST) -> dict | None:
    """The manifest when the in-browser engine is installed and whole, else None."""
    try:
        manifest = json.loads((dest / MANIFEST).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not all((dest / name).is_file() for name in manifest.get("files", {})):
        return None
    return manifest


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="Fetch Pyodide and pack the engine for the offline stepper.")
    ap.add_argument("--dest", default=str(DEST), help="the folder (default webapp/static/vendor/pyodide)")
    args = ap.parse_args(argv)
    dest = Path(args.dest)
    try:
        fetch_pyodide(dest)
    except (FetchError, OSError, subprocess.SubprocessError) as exc:
        print(f"offline engine: {exc}", file=sys.stderr)
        return 1
    pack_engine(dest)
    manifest = write_manifest(dest)
    print(f"offline engine: pyodide {VERSION} + engine.zip, {manifest['bytes'] / 1e6:.1f} MB in {dest}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
