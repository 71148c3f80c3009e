"""The on-disk build: one directory per CR version, rebuilt only when its source changes.

Layout of a build directory::

    <build_dir>/
        26.03 -> .v/26.03-<hash12>        (symlink, swapped atomically)
        .v/26.03-<hash12>/document.json   (the scraper's Document)
        .v/26.03-<hash12>/meta.json       (version, hashes, counts)
        .v/26.03-<hash12>/search/         (Whoosh index)

A version is built completely in a temporary directory and only then made visible by
replacing the symlink, so a failed or interrupted build never damages a good one.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from scraper import Document, ScrapeError, parse_html, verify
from scraper.model import CardMention
from scraper.source import Source, atomic_write, resolve

if TYPE_CHECKING:
    from .cards import CardStore
    from .graph import RuleGraph
    from .lookup import LookupResult
    from .search import Searcher

BUILD_FORMAT = 1
# Builds are also keyed on the code that made them: a changed parser or index schema makes
# every existing build stale, so `build` redoes it instead of serving old output.
_FINGERPRINT_FILES = (
    "scraper",
    "rules_index/search.py",
    "rules_index/jargon.py",
    "rules_index/store.py",
    "rules_index/offline.py",
)


# Code that never touches a CR build (the judges' documents have their own build and key).
_NOT_CR_CODE = frozenset({"judge.py"})


def code_fingerprint() -> str:
    root = Path(__file__).resolve().parent.parent
    h = hashlib.sha256()
    for rel in _FINGERPRINT_FILES:
        p = root / rel
        files = sorted(p.rglob("*.py")) if p.is_dir() else [p]
        for f in files:
            if f.exists() and f.name not in _NOT_CR_CODE:
                h.update(f.name.encode())
                h.update(f.read_bytes())
    return h.hexdigest()[:16]


class LibraryError(Exception):
    """The build directory cannot answer (nothing built, unknown version, damaged build)."""


def default_build_dir() -> Path:
    env = os.environ.get("NRRULES_BUILD_DIR")
    if env:
        return Path(env).expanduser()
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "nrrules" / "build"


@dataclass(frozen=True)
class VersionInfo:
    version: str
    effective_date: str | None
    node_count: int
    source: str
    source_hash: str
    layout: str
    built_at: float

    def to_dict(self) -> dict:
        return {
            "version": self.version,
            "effective_date": self.effective_date,
            "node_count": self.node_count,
            "source": self.source,
            "source_hash": self.source_hash,
            "layout": self.layout,
        }


@dataclass(frozen=True)
class BuildResult:
    version: str
    status: str  # "built" or "unchanged"
    source: str
    node_count: int
    seconds: float
    note: str | None = None


# ----------------------------------------------------------------------------------------------
# Building
# ----------------------------------------------------------------------------------------------


def _read_meta(vdir: Path) -> dict | None:
    try:
        return json.loads((vdir / "meta.json").read_text())
    except (OSError, ValueError):
        return None


def _built_hashes(build_dir: Path) -> dict[str, str]:
    """source hash -> version, for every complete build present."""
    out: dict[str, str] = {}
    if not build_dir.is_dir():
        return out
    fingerprint = code_fingerprint()
    for entry in build_dir.iterdir():
        if entry.name.startswith(".") or not entry.is_dir():
            continue
        meta = _read_meta(entry)
        if meta and meta.get("format") == BUILD_FORMAT and meta.get("code") == fingerprint:
            out[meta["source_hash"]] = meta["version"]
    return out


def _fill_card_codes(docs: list[Document], known: dict[str, str]) -> None:
    """Versions before 25.08 name cards without NetrunnerDB codes; borrow codes by name."""
    for doc in docs:
        for n in doc.nodes:
            for c in n.cards:
                if c.code:
                    known.setdefault(c.name.lower(), c.code)
    for doc in docs:
        for n in doc.nodes:
            if any(c.code is None for c in n.cards):
                n.cards = [CardMention(c.name, c.code or known.get(c.name.lower())) for c in n.cards]


def _known_codes(build_dir: Path) -> dict[str, str]:
    known: dict[str, str] = {}
    path = build_dir / ".cards.json"
    try:
        known.update(json.loads(path.read_text()))
    except (OSError, ValueError):
        pass
    return known


def _write_offline_pack(doc: Document, vdir: Path) -> None:
    """The browser's offline pack (rules + compact search index), from the index just built."""
    from .offline import OFFLINE_FILE, write_pack
    from .search import Searcher

    searcher = Searcher(vdir / "search", doc)
    try:
        write_pack(doc, searcher, vdir / OFFLINE_FILE)
    finally:
        searcher.close()


def _write_version(doc: Document, build_dir: Path) -> None:
    from .search import build_index

    build_dir.mkdir(parents=True, exist_ok=True)
    store = build_dir / ".v"
    store.mkdir(exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".tmp-{doc.version}-", dir=build_dir))
    try:
        (tmp / "document.json").write_text(doc.to_json(), encoding="utf-8")
        search_dir = tmp / "search"
        search_dir.mkdir()
        build_index(doc, search_dir)
        _write_offline_pack(doc, tmp)
        meta = {
            "format": BUILD_FORMAT,
            "code": code_fingerprint(),
            "version": doc.version,
            "effective_date": doc.effective_date,
            "source": doc.source,
            "source_hash": doc.source_hash,
            "layout": doc.layout,
            "node_count": len(doc.nodes),
            "built_at": time.time(),
        }
        (tmp / "meta.json").write_text(json.dumps(meta, indent=1), encoding="utf-8")
        final = store / f"{doc.version}-{doc.source_hash[:12]}-{tmp.name[-8:]}"
        os.replace(tmp, final)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    link = build_dir / doc.version
    old_target = link.resolve() if link.is_symlink() else None
    tmp_link = build_dir / f".link-{doc.version}-{os.getpid()}-{threading.get_ident()}"
    if tmp_link.is_symlink():
        tmp_link.unlink()
    os.symlink(os.path.relpath(final, build_dir), tmp_link)
    if link.exists() and not link.is_symlink():
        shutil.rmtree(link)  # a plain directory from elsewhere: replace it
    os.replace(tmp_link, link)
    if old_target is not None and old_target != final.resolve() and old_target.parent == store.resolve():
        shutil.rmtree(old_target, ignore_errors=True)


def parse_source(src: Source, version: str | None = None) -> Document:
    """Parse and self-check one source; any disagreement is an error."""
    doc = parse_html(src.data, src.name, version=version)
    problems = verify(doc)
    if problems:
        raise ScrapeError(
            src.name,
            f"{len(problems)} disagreement(s) between computed numbers and the document's own "
            "numbers or links; the build was not written",
            problems,
        )
    return doc


def build(
    source: str | None = None,
    build_dir: Path | None = None,
    version: str | None = None,
    progress: bool = False,
    force: bool = False,
    cache_dir: Path | None = None,
) -> list[BuildResult]:
    """Build every CR version found at `source` (file, folder or URL) into `build_dir`.

    Raises ScrapeError for the first source that cannot be built; versions built before it
    stay built, and the failing one keeps its previous good build (if any)."""
    build_dir = Path(build_dir) if build_dir else default_build_dir()
    sources = resolve(source, cache_dir=cache_dir)
    if version is not None and len(sources) > 1:
        raise ScrapeError(str(source), "--version can only be given for a single file or URL")
    built = {} if force else _built_hashes(build_dir)
    results: list[BuildResult] = []
    pending: list[tuple[Source, Document, float]] = []
    iterator = sources
    bar = None
    if progress and len(sources) > 1:
        from tqdm import tqdm

        bar = tqdm(sources, desc="parsing", unit="file", leave=False)
        iterator = bar
    seen_versions: dict[str, str] = {}
    for src in iterator:
        t0 = time.perf_counter()
        h = hashlib.sha256(src.data).hexdigest()
        if h in built and (version is None or built[h] == version):
            v = built[h]
            meta = _read_meta(build_dir / v) or {}
            results.append(
                BuildResult(
                    v, "unchanged", src.name, meta.get("node_count", 0), time.perf_counter() - t0, src.note
                )
            )
            seen_versions[v] = src.name
            continue
        doc = parse_source(src, version)
        if doc.version in seen_versions:
            raise ScrapeError(
                src.name, f"CR version {doc.version} was already read from {seen_versions[doc.version]}"
            )
        seen_versions[doc.version] = src.name
        pending.append((src, doc, time.perf_counter() - t0))
    if bar is not None:
        bar.close()
    if pending:
        known = _known_codes(build_dir)
        _fill_card_codes([d for _, d, _ in pending], known)
        items = pending
        if progress and len(pending) > 1:
            from tqdm import tqdm

            items = tqdm(pending, desc="indexing", unit="version", leave=False)
        for src, doc, parse_s in items:
            t0 = time.perf_counter()
            _write_version(doc, build_dir)
            results.append(
                BuildResult(
                    doc.version,
                    "built",
                    src.name,
                    len(doc.nodes),
                    parse_s + time.perf_counter() - t0,
                    src.note,
                )
            )
        try:
            atomic_write(build_dir / ".cards.json", json.dumps(known, sort_keys=True).encode())
        except OSError:
            pass
    results.sort(key=lambda r: r.version)
    return results


# ----------------------------------------------------------------------------------------------
# Reading
# ----------------------------------------------------------------------------------------------


class Library:
    """Read access to every version in a build directory. Thread-safe; caches loaded data."""

    def __init__(self, build_dir: Path):
        self.build_dir = Path(build_dir)
        self._lock = threading.Lock()
        self._docs: dict[str, Document] = {}
        self._graphs: dict[str, RuleGraph] = {}
        self._searchers: dict[str, Searcher] = {}
        self._cards: CardStore | None = None
        self._infos = self._scan()
        if not self._infos:
            raise LibraryError(
                f"no CR versions are built in {self.build_dir}: run `nrrules build` "
                "(or `nrrules build --source path/to/cr.html` offline) first"
            )

    @classmethod
    def open(cls, build_dir: Path | str | None = None) -> Library:
        return cls(Path(build_dir) if build_dir else default_build_dir())

    def _scan(self) -> dict[str, VersionInfo]:
        infos: dict[str, VersionInfo] = {}
        if not self.build_dir.is_dir():
            return infos
        for entry in sorted(self.build_dir.iterdir()):
            if entry.name.startswith(".") or not entry.is_dir():
                continue
            meta = _read_meta(entry)
            if not meta or meta.get("format") != BUILD_FORMAT:
                continue
            infos[meta["version"]] = VersionInfo(
                version=meta["version"],
                effective_date=meta.get("effective_date"),
                node_count=meta.get("node_count", 0),
                source=meta.get("source", ""),
                source_hash=meta["source_hash"],
                layout=meta.get("layout", ""),
                built_at=meta.get("built_at", 0.0),
            )
        return dict(sorted(infos.items()))

    def versions(self) -> list[VersionInfo]:
        return list(self._infos.values())

    @property
    def latest(self) -> str:
        return next(reversed(self._infos))

    def has_version(self, version: str) -> bool:
        return version in self._infos

    def info(self, version: str | None = None) -> VersionInfo:
        return self._infos[self.resolve_version(version)]

    def resolve_version(self, version: str | None) -> str:
        if version is None or version == "" or version == "latest":
            return self.latest
        v = version.strip().lstrip("vV")
        if v not in self._infos:
            raise LibraryError(
                f"CR version {version!r} is not built; built versions: {', '.join(self._infos)}"
            )
        return v

    def version_dir(self, version: str | None = None) -> Path:
        return self.build_dir / self.resolve_version(version)

    def document(self, version: str | None = None) -> Document:
        v = self.resolve_version(version)
        doc = self._docs.get(v)
        if doc is None:
            path = self.build_dir / v / "document.json"
            try:
                doc = Document.from_json(path.read_text(encoding="utf-8"))
            except (OSError, ValueError, KeyError, TypeError) as exc:
                raise LibraryError(f"the build of CR {v} at {path} is damaged ({exc}); rebuild it") from None
            with self._lock:
                doc = self._docs.setdefault(v, doc)
        return doc

    def documents(self) -> dict[str, Document]:
        return {v: self.document(v) for v in self._infos}

    def graph(self, version: str | None = None) -> RuleGraph:
        from .graph import RuleGraph

        v = self.resolve_version(version)
        g = self._graphs.get(v)
        if g is None:
            g = RuleGraph(self.document(v))
            with self._lock:
                g = self._graphs.setdefault(v, g)
        return g

    def searcher(self, version: str | None = None) -> Searcher:
        from .search import Searcher

        v = self.resolve_version(version)
        s = self._searchers.get(v)
        if s is None:
            from .search import StaleIndexError

            try:
                s = Searcher(self.build_dir / v / "search", self.document(v))
            except StaleIndexError as exc:
                raise LibraryError(
                    f"the search index of CR {v} is out of date ({exc}): run `nrrules build`"
                ) from None
            with self._lock:
                s = self._searchers.setdefault(v, s)
        return s

    def cards(self) -> CardStore:
        """The NetrunnerDB card build beside the rules (`nrrules build --cards`)."""
        if self._cards is None:
            from .cards import CardsNotBuilt, CardStore

            try:
                store = CardStore.open(self.build_dir)
            except CardsNotBuilt as exc:
                raise LibraryError(str(exc)) from None
            with self._lock:
                if self._cards is None:
                    self._cards = store
        return self._cards

    def lookup(self, query: str, version: str | None = None, with_children: bool = False) -> LookupResult:
        from .lookup import lookup

        return lookup(self.document(version), query, with_children=with_children)


def load_document(version: str | None = None, build_dir: Path | str | None = None) -> Document:
    return Library.open(build_dir).document(version)
