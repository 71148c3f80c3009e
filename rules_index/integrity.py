"""Keeping a build directory honest: checksums of what a build wrote, checks that a new build
is a plausible CR before it replaces an old one, and clean-up after interrupted builds.

A build records the size and sha256 of every file it wrote (its *manifest*, kept in
``meta.json``). Readers check sizes when they list versions (a ``stat`` per file) and the full
checksum when they load a file, so a truncated or altered file is reported as damaged instead
of being served, or worse, silently answering differently.
"""

from __future__ import annotations

import fcntl
import hashlib
import os
import re
import shutil
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from scraper import Document, ScrapeError

# Files a build writes but never reads back as content (Whoosh's lock file) stay out of the manifest.
_UNCHECKED_SUFFIXES = ("LOCK",)
META_FILE = "meta.json"
LOCK_FILE = ".build.lock"
# Chapters every CR since 22.12 has, under these titles; a document without them is not a CR.
CR_CHAPTERS = ("game concepts", "card types", "turns", "runs", "abilities")
MIN_NODES = 300  # every published CR has over 1,700 nodes
MIN_KEPT = 0.5  # a rebuild must keep at least half of the previous build's rule ids
DIR_MODE = 0o755  # builds are read by the service user, often not the builder (docs/deploy.md)


def sha256_file(path: Path) -> tuple[int, str]:
    data = path.read_bytes()
    return len(data), hashlib.sha256(data).hexdigest()


def manifest(vdir: Path) -> dict[str, list]:
    """``{relative path: [size, sha256]}`` for every file of a version directory but meta.json."""
    out: dict[str, list] = {}
    for path in sorted(vdir.rglob("*")):
        if not path.is_file() or path.name == META_FILE or path.name.endswith(_UNCHECKED_SUFFIXES):
            continue
        size, digest = sha256_file(path)
        out[path.relative_to(vdir).as_posix()] = [size, digest]
    return out


def check_files(
    vdir: Path, files: dict, prefix: str = "", deep: bool = True, skip: tuple[str, ...] = ()
) -> str | None:
    """The first difference between a version directory and its manifest (None if none).

    Only files under `prefix` and not in `skip` are checked; `deep` compares checksums,
    otherwise sizes only."""
    if not isinstance(files, dict) or not files:
        return "it has no checksums (built by an older nrrules)"
    for rel, entry in files.items():
        if (prefix and not rel.startswith(prefix)) or rel in skip:
            continue
        try:
            size, digest = entry
            path = vdir / rel
            if deep:
                real_size, real_digest = sha256_file(path)
            else:
                real_size, real_digest = path.stat().st_size, digest
        except FileNotFoundError:
            return f"{rel} is missing"
        except OSError as exc:
            return f"{rel} cannot be read ({exc.strerror or type(exc).__name__})"
        except (TypeError, ValueError):
            return "its checksum list is damaged"
        if real_size != size:
            return f"{rel} has {real_size} bytes where the build wrote {size}"
        if real_digest != digest:
            return f"{rel} differs from what the build wrote (checksum mismatch)"
    return None


def check_bytes(data: bytes, rel: str, files: dict) -> str | None:
    """Whether bytes read from `rel` are those the build wrote."""
    entry = files.get(rel) if isinstance(files, dict) else None
    if not entry:
        return f"{rel} is not in the build's checksum list"
    try:
        size, digest = entry
    except (TypeError, ValueError):
        return "its checksum list is damaged"
    if len(data) != size:
        return f"{rel} has {len(data)} bytes where the build wrote {size}"
    if hashlib.sha256(data).hexdigest() != digest:
        return f"{rel} differs from what the build wrote (checksum mismatch)"
    return None


# ----------------------------------------------------------------------------------------------
# Refusing implausible builds
# ----------------------------------------------------------------------------------------------


_UTF7_SHIFT = re.compile(rb"\+[A-Za-z0-9/]{3,}-")


def check_encoding(data: bytes, source: str) -> None:
    """Refuse a UTF-7 file: pure ASCII, it decodes as UTF-8 without error, but every typographic
    quote or dash of the CR has become a ``+IBk-`` sequence in the text."""
    if not data.isascii():
        return
    shifted = 0
    for seq in _UTF7_SHIFT.findall(data[:4_000_000]):
        try:
            shifted += not seq.decode("utf-7").isascii()
        except UnicodeDecodeError:
            continue
        if shifted >= 3:
            raise ScrapeError(
                source,
                "the file is UTF-7 encoded (it has UTF-7 sequences such as "
                f"{seq.decode('ascii')!r}); CR documents are published in UTF-8: re-download it "
                "or re-save it as UTF-8",
            )


def check_looks_like_cr(doc: Document, source: str) -> None:
    """Refuse a parse that is not a whole CR (a nested-tag bomb, a fragment, a mis-encoded file)."""
    titles = {(c.title or "").strip().lower() for c in doc.chapters()}
    missing = [t for t in CR_CHAPTERS if t not in titles]
    if missing:
        raise ScrapeError(
            source,
            f"the document lacks the CR's chapters ({', '.join(missing)}): it is not a whole "
            "Comprehensive Rules document; the build was not written",
        )
    if len(doc.nodes) < MIN_NODES:
        raise ScrapeError(
            source,
            f"the document has only {len(doc.nodes)} rules (every CR has over 1,700): "
            "it is not a whole Comprehensive Rules document; the build was not written",
        )


def previous_ids(build_dir: Path, version: str) -> set[str] | None:
    """The rule ids of the current build of `version` (None if there is none or it is damaged)."""
    import json

    try:
        data = json.loads((build_dir / version / "document.json").read_bytes())
        return {n["id"] for n in data["nodes"]}
    except (OSError, ValueError, KeyError, TypeError, RecursionError):
        return None


def check_not_a_regression(doc: Document, build_dir: Path, source: str) -> None:
    """Refuse a build that loses most of the current build's rules for the same version."""
    old = previous_ids(build_dir, doc.version)
    if not old:
        return
    kept = len(old & {n.id for n in doc.nodes})
    if kept < MIN_KEPT * len(old):
        raise ScrapeError(
            source,
            f"the new build of CR {doc.version} keeps only {kept} of the {len(old)} rules of the "
            "current build; it was not written (pass --force to replace it anyway)",
        )


MIN_CARDS_KEPT = 0.9  # NetrunnerDB never drops cards or rulings: a card build keeps 90% of either
# A judges' document is edited, not cut: a rebuild keeps 90% of its items and every document.
MIN_JUDGE_KEPT = 0.9


def check_counts_not_a_regression(
    counts: dict[str, int], previous: dict | None, source: str, build: str, kept: float
) -> None:
    """Refuse a build whose counts (``{"cards": 2000, ...}``) fall below ``kept`` of the current
    build's (``previous``, its meta.json): a partial folder, a folder without rulings/, a
    truncated download or document. The CR build's guard (`check_not_a_regression`) for the
    card and judges' builds; ``build`` names it in the message ("card", "judges'")."""
    if not isinstance(previous, dict):
        return
    for what, now in counts.items():
        had = previous.get(what)
        if not isinstance(had, int) or isinstance(had, bool) or had <= 0:
            continue
        if now < kept * had:
            raise ScrapeError(
                source,
                f"the new {build} build has {now} {what}, the current one {had}; it was not written "
                "(pass --force to replace it anyway)",
            )


def check_cards_not_a_regression(counts: dict[str, int], previous: dict | None, source: str) -> None:
    """Refuse a card build with far fewer cards or rulings than the current build (a partial
    folder, a folder without rulings/, a truncated download)."""
    wanted = {k: v for k, v in counts.items() if k in ("cards", "rulings")}
    check_counts_not_a_regression(wanted, previous, source, "card", MIN_CARDS_KEPT)


def check_build_file(path: Path, rel: str, meta: dict) -> bytes:
    """The bytes of ``rel`` in the build at ``path``, checked against the checksums its build
    wrote (``meta["files"]``, `manifest`); a build written before it kept checksums is read as
    it is. Raises ValueError naming what differs (a truncated or altered file)."""
    data = (path / rel).read_bytes()
    files = meta.get("files")
    if files is not None:
        damage = check_bytes(data, rel, files)
        if damage:
            raise ValueError(damage)
    return data


def check_build_dir(path: Path, meta: dict, prefix: str) -> None:
    """Every file under ``prefix`` of the build at ``path`` against its checksums (see
    `check_build_file`). Raises ValueError naming the first difference."""
    files = meta.get("files")
    if files is not None:
        damage = check_files(path, files, prefix=prefix)
        if damage:
            raise ValueError(damage)


# ----------------------------------------------------------------------------------------------
# One builder at a time, and clean-up after interrupted ones
# ----------------------------------------------------------------------------------------------


@contextmanager
def build_lock(build_dir: Path) -> Iterator[None]:
    """Hold the build directory's lock (builds wait for each other; readers never lock)."""
    build_dir.mkdir(parents=True, exist_ok=True)
    fd = os.open(build_dir / LOCK_FILE, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)  # closing releases the lock


SHELVES = (".v", ".j")  # where `store.publish` keeps builds: the CR's and the cards' (.v), the judges'
LEFTOVER_AGE = 600.0  # seconds; no build takes this long, so an older temporary is a leftover


def _old(path: Path, min_age: float) -> bool:
    try:
        return time.time() - path.lstat().st_mtime >= min_age
    except OSError:
        return False


def clean_leftovers(build_dir: Path, min_age: float = LEFTOVER_AGE) -> list[str]:
    """Remove what interrupted builds left (temporary directories and links) and the builds
    that newer ones replaced (no name points to them) once older than `min_age` seconds (every writer takes `build_lock` and
    publishes through `store.publish`; the age is a second guard). Call while holding `build_lock`."""
    removed: list[str] = []
    live = set()
    for entry in build_dir.iterdir():
        if entry.is_symlink():
            try:
                live.add(entry.resolve())
            except OSError:
                pass
    for entry in build_dir.iterdir():
        if entry.name.startswith((".tmp-", ".link-")) and _old(entry, min_age):
            if entry.is_dir() and not entry.is_symlink():
                shutil.rmtree(entry, ignore_errors=True)
            else:
                entry.unlink(missing_ok=True)
            removed.append(entry.name)
    for shelf in SHELVES:
        store = build_dir / shelf
        if store.is_dir():
            for entry in store.iterdir():
                if entry.resolve() not in live and _old(entry, min_age):
                    shutil.rmtree(entry, ignore_errors=True)
                    removed.append(f"{shelf}/{entry.name}")
    return removed


def make_readable(vdir: Path) -> None:
    """Directories 0755 and files 0644, whatever mkdtemp or the index writer chose."""
    os.chmod(vdir, DIR_MODE)
    for root, dirs, files in os.walk(vdir):
        for d in dirs:
            os.chmod(os.path.join(root, d), DIR_MODE)
        for f in files:
            os.chmod(os.path.join(root, f), 0o644)
