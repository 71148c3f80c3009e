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
import logging
import os
import re
import shutil
import tempfile
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING

import orjson

from scraper import Document, ScrapeError
from scraper.model import CardMention
from scraper.source import Source, atomic_write, is_url, resolve

from . import bank, integrity
from .expansion import Asked, built_questions, question_log, questions_key

if TYPE_CHECKING:
    from .cards import CardStore
    from .graph import RuleGraph
    from .history import HistoryStore
    from .judge import JudgeStore
    from .lookup import LookupResult
    from .search import Searcher

BUILD_FORMAT = 2  # 2: meta.json carries the checksums of every file of the build
# Builds are also keyed on the code that made them: a changed parser or index schema makes
# every existing build stale, so `build` redoes it instead of serving old output.
_FINGERPRINT_FILES = (
    "scraper",
    "rules_index/search.py",
    "rules_index/indexing.py",  # the words the index holds (`search.build_index`)
    "rules_index/expansion.py",
    "rules_index/jargon.py",
    "rules_index/store.py",
    "rules_index/offline.py",
    "rules_index/steplinks.py",
    "rules_index/bank.py",
    "rules_index/embeddings.py",  # the rules' sentence embeddings a build writes
    "rules_index/encoder.py",
    "rules_index/asked",  # the question bank's data (`rules_index.bank`)
    "rules_index/labelled.json",  # the training questions the index holds (`bank.labelled`)
    # what ranks a version's questions and is baked into its offline pack (issue 34, "Reproducible
    # models"): a retrain-only change (new weights, a new translation or word-vector table)
    # rebuilds every version instead of leaving `nrrules build` saying "unchanged"
    "rules_index/ranker.py",
    "rules_index/ranker_weights.json",
    "rules_index/translation.py",
    "rules_index/translation.json",
    "rules_index/vectors.py",
    "rules_index/word_vectors.json",
    "rules_index/question.py",
    "rules_index/impact.py",
)


# Code that never touches a CR build (the judges' documents have their own build and key).
_NOT_CR_CODE = frozenset({"judge.py"})


def code_fingerprint(root: Path | None = None) -> str:
    """A digest of every input of a CR build other than its source: the code and package data of
    `_FINGERPRINT_FILES` (under ``root``, the project's by default) and the sentence encoder's
    identity (`encoder.identity`: the model the build's embeddings are made with, or none)."""
    from .encoder import identity  # numpy only; the model itself is not loaded

    root = Path(__file__).resolve().parent.parent if root is None else Path(root)
    h = hashlib.sha256()
    h.update(identity().encode())
    for rel in _FINGERPRINT_FILES:
        p = root / rel
        files = sorted([*p.rglob("*.py"), *p.rglob("*.json")]) if p.is_dir() else [p]
        for f in files:
            if f.exists() and f.name not in _NOT_CR_CODE:
                h.update(f.name.encode())
                h.update(f.read_bytes())
    return h.hexdigest()[:16]


log = logging.getLogger("nrrules.build")
_VERSION_NAME = re.compile(r"^\d{2}\.\d{2}$")

# The status of a built version, as `Library.versions()` reports it.
OK, DAMAGED, MISSING, STALE = "ok", "damaged", "missing", "stale"


class LibraryError(Exception):
    """The build directory cannot answer (nothing built, unknown version, damaged build).

    `message` never names a server path (it may be shown to anyone); `path`, when given, is
    added by `str()` for the command line and logs."""

    def __init__(self, message: str, path: Path | str | None = None):
        super().__init__(message)
        self.message = message
        self.path = str(path) if path is not None else None

    def __str__(self) -> str:
        return f"{self.message} ({self.path})" if self.path else self.message


class VersionUnavailable(LibraryError):
    """One built version cannot be served (damaged, missing or stale); the others still can."""

    def __init__(self, version: str, status: str, problem: str):
        super().__init__(f"CR {version} is unavailable: {problem}")
        self.version = version
        self.status = status
        self.problem = problem


def public_source(source: str) -> str:
    """What may be shown of a build's source: a URL, or a file's name (never a server path)."""
    if not source or is_url(source):
        return source
    return source.replace("\\", "/").rstrip("/").rsplit("/", 1)[-1]


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
    source: str  # as given to the build (a path or URL): use `to_dict()` for anything shown
    source_hash: str
    layout: str | None
    built_at: float
    status: str = OK  # ok | damaged | missing | stale
    problem: str | None = None  # why it cannot be served, with the remedy

    @property
    def available(self) -> bool:
        return self.status == OK

    def to_dict(self) -> dict:
        out = {
            "version": self.version,
            "effective_date": self.effective_date,
            "node_count": self.node_count,
            "source": public_source(self.source),
            "source_hash": self.source_hash,
            "layout": self.layout,
            "status": self.status,
        }
        if self.problem:
            out["problem"] = self.problem
        return out


ROWS_FILE = "rows.json"  # node id -> [number, title, text]: a version read without its document


@dataclass(frozen=True)
class Row:
    """What `Library.summaries` reads of a node: its number, title and text."""

    number: str | None
    title: str | None
    text: str


@dataclass(frozen=True)
class Rows:
    """A version read from its `ROWS_FILE`: ``version`` and ``node(id)``, as a Document's."""

    version: str
    rows: dict[str, list]  # as the file holds them; a Row is made when asked for

    def node(self, node_id: str) -> Row | None:
        row = self.rows.get(node_id)
        return Row(*row) if row is not None else None


@dataclass(frozen=True)
class BuildResult:
    version: str
    status: str  # "built" or "unchanged"
    source: str
    node_count: int
    seconds: float
    note: str | None = None
    phases: dict[str, float] = field(default_factory=dict)  # seconds of parse, index, ... (built only)


def phase_line(phases: dict[str, float]) -> str:
    """The seconds of a build's phases, as `nrrules build` prints them: "parse 1.20 s, ..."."""
    return ", ".join(f"{name} {seconds:.2f} s" for name, seconds in phases.items())


# ----------------------------------------------------------------------------------------------
# Building
# ----------------------------------------------------------------------------------------------


def _read_meta(vdir: Path) -> dict | None:
    try:
        return json.loads((vdir / "meta.json").read_text())
    except (OSError, ValueError):
        return None


def _built_hashes(build_dir: Path, questions: str = "") -> dict[str, str]:
    """source hash -> version, for every complete build present that indexed the questions
    with key ``questions`` (`rules_index.expansion.questions_key`)."""
    out: dict[str, str] = {}
    if not build_dir.is_dir():
        return out
    fingerprint = code_fingerprint()
    for entry in build_dir.iterdir():
        if entry.name.startswith(".") or not entry.is_dir():
            continue
        meta = _read_meta(entry)
        if (
            isinstance(meta, dict)
            and meta.get("format") == BUILD_FORMAT
            and meta.get("code") == fingerprint
            and meta.get("questions", "") == questions
            and integrity.check_files(entry, meta.get("files")) is None  # a damaged build is redone
        ):
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


class Phases(dict):
    """The seconds of a build's phases, by name in the order they ran; `phase` times one and
    tells `on_phase` (a progress line) as it starts. A new phase of a build is one more
    ``with phases.phase("name"):`` block."""

    def __init__(self, on_phase: Callable[[str], None] | None = None):
        super().__init__()
        self.on_phase = on_phase

    @contextmanager
    def phase(self, name: str) -> Iterator[None]:
        if self.on_phase is not None:
            self.on_phase(name)
        t = time.perf_counter()
        try:
            yield
        finally:
            self[name] = self.get(name, 0.0) + time.perf_counter() - t


def _write_offline_pack(doc: Document, vdir: Path, phases: Phases | None = None) -> None:
    """The index's vector-pool matrix (`Searcher.save_pool`) and the browser's offline pack
    (rules + compact search index), from the index just built; their seconds go in `phases`
    ("vectors", "offline")."""
    from .offline import OFFLINE_FILE, write_pack
    from .search import Searcher
    from .vectors import stems_once

    phases = Phases() if phases is None else phases
    searcher = Searcher(vdir / "search", doc)
    try:
        with stems_once():  # the pool and the pack embed the same texts: analysed once
            with phases.phase("vectors"):
                searcher.save_pool()
            with phases.phase("offline"):
                write_pack(doc, searcher, vdir / OFFLINE_FILE)
    finally:
        searcher.close()


def publish(build_dir: Path, name: str, store: str, label: str, write: Callable[[Path], None]) -> Path:
    """Write a build and make it visible atomically; the one way every build is swapped in.

    `write(tmp)` fills a fresh temporary directory inside `build_dir`. The directory is then
    made readable by other users, renamed to ``<build_dir>/<store>/<label>-<rand>``, and the
    symlink ``<build_dir>/<name>`` is replaced by one pointing at it in a single rename; the
    build it replaces is kept for servers still reading it and removed by a later build
    (`integrity.clean_leftovers`). If `write` fails, the temporary directory is removed and the
    previous build stays in place. Call while holding `integrity.build_lock(build_dir)`."""
    build_dir.mkdir(parents=True, exist_ok=True)
    removed = integrity.clean_leftovers(build_dir)
    if removed:
        log.info("removed leftovers of interrupted or replaced builds: %s", ", ".join(removed))
    shelf = build_dir / store
    shelf.mkdir(exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".tmp-{name}-", dir=build_dir))
    try:
        write(tmp)
        integrity.make_readable(tmp)
        final = shelf / f"{label}-{tmp.name[-8:]}"
        os.replace(tmp, final)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    link = build_dir / name
    old_target = link.resolve() if link.is_symlink() else None
    tmp_link = build_dir / f".link-{name}-{os.getpid()}-{threading.get_ident()}"
    if tmp_link.is_symlink():
        tmp_link.unlink()
    os.symlink(os.path.relpath(final, build_dir), tmp_link)
    if link.exists() and not link.is_symlink():
        shutil.rmtree(link)  # a plain directory from elsewhere: replace it
    os.replace(tmp_link, link)
    if old_target is not None and old_target != final.resolve() and old_target.parent == shelf.resolve():
        # Not removed now: a running server may still read it until it notices the new build
        # (`Library.follow`). Its time says when it was retired; `integrity.clean_leftovers`
        # removes it at a build `integrity.LEFTOVER_AGE` seconds later.
        try:
            os.utime(old_target)
        except OSError:
            shutil.rmtree(old_target, ignore_errors=True)
    return final


def asked_key(questions: dict[str, tuple[str, ...]]) -> str:
    """What a version's ``asked`` field holds, as a key: its index is rebuilt only when this
    changes (`refresh_questions`)."""
    h = hashlib.sha256()
    for rule_id in sorted(questions):
        h.update(rule_id.encode())
        for q in questions[rule_id]:
            h.update(b"\x00" + q.encode())
        h.update(b"\x01")
    return h.hexdigest()[:16]


def _questions(doc: Document, asked: Sequence[Asked]) -> dict[str, tuple[str, ...]]:
    """Rule id -> the questions its index entry holds: the bank's, those of the card and
    judges' builds citing it (`expansion.question_log`) and the labelled ones."""
    from .search import index_words

    return bank.for_doc(doc, question_log(doc, asked, index_words), labelled=bank.labelled())


def _write_version(
    doc: Document,
    build_dir: Path,
    asked: Sequence[Asked] = (),
    on_phase: Callable[[str], None] | None = None,
) -> Phases:
    """Write one version's build; ``asked`` are the questions citing rules that its index is
    expanded with (`rules_index.expansion`). Returns the seconds of each phase: document,
    questions, index, vectors, offline, embed (the rules' sentence embeddings,
    `rules_index.embeddings`), publish (the manifest and the swap); `on_phase` is told each
    phase's name as it starts."""
    from . import embeddings  # numpy and the encoder: only a build writes embeddings
    from .search import build_index

    phases = Phases(on_phase)

    def write(tmp: Path) -> None:
        with phases.phase("document"):
            (tmp / "document.json").write_text(doc.to_json(), encoding="utf-8")
            rows = {n.id: [n.number, n.title, n.text] for n in doc.nodes}
            (tmp / ROWS_FILE).write_bytes(orjson.dumps(rows))
            search_dir = tmp / "search"
            search_dir.mkdir()
        with phases.phase("questions"):
            questions = _questions(doc, asked)
        with phases.phase("index"):
            build_index(doc, search_dir, asked=questions)
        _write_offline_pack(doc, tmp, phases)
        with phases.phase("embed"):
            embeddings.write_rules(doc, search_dir, embeddings.cache_dir(build_dir), questions)
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
            "questions": questions_key(asked),
            "asked": asked_key(questions),
        }
        meta["files"] = integrity.manifest(tmp)
        (tmp / "meta.json").write_text(json.dumps(meta, indent=1), encoding="utf-8")

    t = time.perf_counter()
    if on_phase is not None:
        on_phase("publish")
    publish(build_dir, doc.version, ".v", f"{doc.version}-{doc.source_hash[:12]}", write)
    phases["publish"] = time.perf_counter() - t - sum(phases.values())
    return phases


def parse_source(src: Source, version: str | None = None) -> Document:
    """Parse and self-check one source; any disagreement is an error, and so is a document
    that is not a whole CR (see `integrity`)."""
    integrity.check_encoding(src.data, src.name)
    from scraper import parse_html, verify  # lxml: only a build parses

    doc = parse_html(src.data, src.name, version=version)
    problems = verify(doc)
    if problems:
        raise ScrapeError(
            src.name,
            f"{len(problems)} disagreement(s) between computed numbers and the document's own "
            "numbers or links; the build was not written",
            problems,
        )
    integrity.check_looks_like_cr(doc, src.name)
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

    Raises ScrapeError for the first source that cannot be built, or that would replace a
    version's build with one that lost most of its rules (unless `force`); versions built
    before it stay built, and the failing one keeps its previous good build (if any).
    Raises LibraryError when the build directory cannot be written."""
    build_dir = Path(build_dir) if build_dir else default_build_dir()
    sources = resolve(source, cache_dir=cache_dir)
    if version is not None and len(sources) > 1:
        raise ScrapeError(str(source), "--version can only be given for a single file or URL")
    try:
        # The questions of the card and judges' builds already here expand the rules index.
        asked = built_questions(build_dir) if build_dir.is_dir() else []
        results, pending = _parse_sources(sources, build_dir, version, progress, force, questions_key(asked))
        if pending or build_dir.is_dir():
            with integrity.build_lock(build_dir):
                removed = integrity.clean_leftovers(build_dir)
                if removed:
                    log.info("removed leftovers of interrupted builds: %s", ", ".join(removed))
                results += _write_pending(pending, build_dir, progress, force, asked)
    except OSError as exc:
        raise LibraryError(
            f"cannot write the build directory ({exc.strerror or type(exc).__name__})",
            path=getattr(exc, "filename", None) or build_dir,
        ) from None
    results.sort(key=lambda r: r.version)
    return results


def refresh_questions(
    build_dir: Path | None = None,
    progress: Callable[[str, dict[str, float]], None] | None = None,
    on_phase: Callable[[str, str], None] | None = None,
) -> list[str]:
    """Re-index the built CR versions whose index was expanded with other questions than the
    card and judges' builds now hold (`rules_index.expansion`): run after building either.
    A version whose rules get the same questions as before (`asked_key`: the new questions
    cite no rule of it) only has its meta.json brought up to date; the others are rebuilt from
    their stored Document, written and swapped in as any build (atomically, under the build
    lock). Returns the versions re-indexed; a version that cannot be read is left as it is
    (`nrrules versions` reports it). `progress` is called after each version with it and the
    seconds of its phases (load, then `_write_version`'s); `on_phase` with the version and
    each phase's name as it starts."""
    build_dir = Path(build_dir) if build_dir else default_build_dir()
    if not build_dir.is_dir():
        return []
    asked = built_questions(build_dir)
    key = questions_key(asked)
    fingerprint = code_fingerprint()
    done: list[str] = []
    try:
        with integrity.build_lock(build_dir):
            for entry in sorted(build_dir.iterdir()):
                if not _VERSION_NAME.match(entry.name) or not entry.is_dir():
                    continue
                meta = _read_meta(entry)
                if not isinstance(meta, dict) or meta.get("code") != fingerprint:
                    continue  # damaged or from other code: `nrrules build` redoes it from its source
                if meta.get("questions", "") == key:
                    continue
                v = entry.name
                tell = (lambda name, v=v: on_phase(v, name)) if on_phase is not None else None
                phases = Phases(tell)
                with phases.phase("load"):
                    try:
                        doc = Document.from_json((entry / "document.json").read_text(encoding="utf-8"))
                    except (OSError, ValueError, KeyError, TypeError):
                        continue
                with phases.phase("questions"):
                    same = meta.get("asked") == asked_key(_questions(doc, asked))
                if same:  # nothing its index holds changes: the build stays, its key follows
                    atomic_write(
                        entry / integrity.META_FILE, json.dumps({**meta, "questions": key}, indent=1).encode()
                    )
                    continue
                phases.update(_write_version(doc, build_dir, asked, on_phase=tell))
                done.append(v)
                if progress is not None:
                    progress(v, phases)
    except OSError as exc:
        raise LibraryError(
            f"cannot write the build directory ({exc.strerror or type(exc).__name__})",
            path=getattr(exc, "filename", None) or build_dir,
        ) from None
    return done


def _parse_sources(
    sources: list[Source],
    build_dir: Path,
    version: str | None,
    progress: bool,
    force: bool,
    questions: str = "",
) -> tuple[list[BuildResult], list[tuple[Source, Document, float]]]:
    """Parse every source whose build is missing or stale (or indexed other questions than
    those with key ``questions``); the others are "unchanged"."""
    built = {} if force else _built_hashes(build_dir, questions)
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
    return results, pending


def _write_pending(
    pending: list[tuple[Source, Document, float]],
    build_dir: Path,
    progress: bool,
    force: bool,
    asked: Sequence[Asked] = (),
) -> list[BuildResult]:
    """Write parsed versions (under the build lock). A version whose new build would lose most
    of its current build's rules is refused unless `force`; versions before it stay written."""
    if not pending:
        return []
    results: list[BuildResult] = []
    known = _known_codes(build_dir)
    _fill_card_codes([d for _, d, _ in pending], known)
    items = pending
    bar = None
    if progress:
        from tqdm import tqdm

        items = bar = tqdm(pending, desc="indexing", unit="version", leave=False)
    for src, doc, parse_s in items:
        on_phase = None
        if bar is not None:  # the version and the phase it is in, beside the bar

            def on_phase(name: str, v: str = doc.version) -> None:
                bar.set_postfix_str(f"{v}: {name}")

        t0 = time.perf_counter()
        if not force:
            integrity.check_not_a_regression(doc, build_dir, src.name)
        phases = {"parse": parse_s, **_write_version(doc, build_dir, asked, on_phase)}
        results.append(
            BuildResult(
                doc.version,
                "built",
                src.name,
                len(doc.nodes),
                parse_s + time.perf_counter() - t0,
                src.note,
                phases,
            )
        )
    try:
        atomic_write(build_dir / ".cards.json", json.dumps(known, sort_keys=True).encode())
    except OSError:
        pass
    if results:
        from .history import refresh  # a no-op when the stored history is current

        refresh(build_dir, [doc for _, doc, _ in pending])
    results.sort(key=lambda r: r.version)
    return results


# ----------------------------------------------------------------------------------------------
# Reading
# ----------------------------------------------------------------------------------------------


def _damage_problem(damage: str) -> str:
    what = (
        "its search index is damaged or out of date"
        if damage.startswith("search/")
        else "its build is damaged"
    )
    return f"{what} ({damage}); run `nrrules build` to rebuild it"


# Files of a version that only one route serves, checked by it (`Library.build_file`): a damaged
# one answers 503 there, and the version's rules and search stay served.
_CHECKED_WHEN_SERVED = ("offline.json",)
FOLLOW_INTERVAL = 1.0  # seconds between a library's looks for new builds (`Library.follow`)


def _link_target(link: Path) -> Path | None:
    """Where a build's name points now (None: nothing there)."""
    try:
        return link.resolve() if link.exists() else None
    except OSError:
        return None


@dataclass(frozen=True)
class _Entry:
    """Where one version's files are (the resolved build directory) and what its build wrote."""

    target: Path | None
    meta: dict


class Library:
    """Read access to every version in a build directory. Thread-safe; caches loaded data.

    A version that cannot be served (its files damaged, missing or from an older nrrules) is
    reported by `versions()` with its status and problem, and loading it raises
    `VersionUnavailable`; every other version keeps working. Files are checked against the
    checksums the build wrote: sizes when listing, full checksums when loading."""

    def __init__(self, build_dir: Path):
        self.build_dir = Path(build_dir)
        self._lock = threading.Lock()
        self._docs: dict[str, Document] = {}
        self._graphs: dict[str, RuleGraph] = {}
        self._searchers: dict[str, Searcher] = {}
        self._entries: dict[str, _Entry] = {}
        self._history: HistoryStore | None = None
        self._judge: list[JudgeStore | None] = []  # [] until looked for
        self._cards: CardStore | None = None
        # what the card and judges' links pointed to when their stores were opened, and why a
        # built one cannot be served (None: sound or not built)
        self._source_targets: dict[str, Path | None] = {}
        self.source_problems: dict[str, str] = {}
        self.generation = 0  # counts the builds noticed since opening (`follow`)
        self._looked = time.monotonic()
        self._passed: set[Path] = set()  # new builds that could not be served (`follow`)
        self._infos = self._scan()
        if not self._infos:
            raise LibraryError(
                "no CR versions are built: run `nrrules build` "
                "(or `nrrules build --source path/to/cr.html` offline) first",
                path=self.build_dir,
            )
        for info in self._infos.values():
            if not info.available:
                log.warning("CR %s is unavailable: %s", info.version, info.problem)

    @classmethod
    def open(cls, build_dir: Path | str | None = None) -> Library:
        return cls(Path(build_dir) if build_dir else default_build_dir())

    # ----- listing and checking ---------------------------------------------------------------
    def _scan(self) -> dict[str, VersionInfo]:
        infos: dict[str, VersionInfo] = {}
        try:
            names = sorted(e.name for e in self.build_dir.iterdir()) if self.build_dir.is_dir() else []
        except OSError:
            names = []
        for name in names:
            if not _VERSION_NAME.match(name):
                continue
            entry, info = self._scan_one(name)
            if info is not None:
                self._entries[name] = entry
                infos[name] = info
        return dict(sorted(infos.items()))

    def _scan_one(self, name: str) -> tuple[_Entry, VersionInfo | None]:
        """The state of one version name in the build directory, checked cheaply (sizes)."""
        link = self.build_dir / name
        blank = VersionInfo(name, None, 0, "", "", None, 0.0)
        try:
            if not link.is_dir():
                if link.is_symlink():
                    problem = "its build directory is gone; run `nrrules build`"
                    return _Entry(None, {}), replace(blank, status=MISSING, problem=problem)
                return _Entry(None, {}), None  # a stray file, not a version
            target = link.resolve()
        except OSError as exc:
            problem = f"its build cannot be read ({exc.strerror or type(exc).__name__}); run `nrrules build`"
            return _Entry(None, {}), replace(blank, status=DAMAGED, problem=problem)
        meta = _read_meta(target)
        if not isinstance(meta, dict):
            problem = "its meta.json is missing or unreadable; run `nrrules build` to rebuild it"
            return _Entry(target, {}), replace(blank, status=DAMAGED, problem=problem)
        try:
            info = VersionInfo(
                version=name,
                effective_date=meta.get("effective_date"),
                node_count=int(meta.get("node_count", 0)),
                source=str(meta.get("source", "")),
                source_hash=str(meta["source_hash"]),
                layout=meta.get("layout"),
                built_at=float(meta.get("built_at", 0.0)),
            )
        except (KeyError, TypeError, ValueError):
            problem = "its meta.json is damaged; run `nrrules build` to rebuild it"
            return _Entry(target, {}), replace(blank, status=DAMAGED, problem=problem)
        entry = _Entry(target, meta)
        if meta.get("format") != BUILD_FORMAT:
            problem = (
                f"it was built by another nrrules (build format {meta.get('format')!r}, this one reads "
                f"{BUILD_FORMAT}); run `nrrules build` to rebuild it"
            )
            return entry, replace(info, status=STALE, problem=problem)
        if meta.get("version") != name:
            problem = f"its directory holds CR {meta.get('version')!r}; run `nrrules build` to rebuild it"
            return entry, replace(info, status=DAMAGED, problem=problem)
        damage = integrity.check_files(target, meta.get("files"), deep=False, skip=_CHECKED_WHEN_SERVED)
        if damage:
            return entry, replace(info, status=DAMAGED, problem=_damage_problem(damage))
        return entry, info

    def _fail(self, version: str, status: str, problem: str) -> VersionUnavailable:
        """Record that a version cannot be served (logged once) and return the error to raise."""
        with self._lock:
            info = self._infos[version]
            if info.status != status or info.problem != problem:
                log.error("CR %s is unavailable: %s", version, problem)
            self._infos[version] = replace(info, status=status, problem=problem)
        return VersionUnavailable(version, status, problem)

    def _require(self, version: str) -> _Entry:
        """The version's entry if it can be served; a rebuilt version is looked at again."""
        info = self._infos[version]
        entry = self._entries[version]
        if not info.available:
            self._refresh(version)
            info, entry = self._infos[version], self._entries[version]
            if not info.available:
                raise VersionUnavailable(version, info.status, info.problem or "")
        return entry

    def _refresh(self, version: str) -> bool:
        """Re-read a version whose name now points to another build (a rebuild since we
        listed it). True if it changed; cached data of the old build is dropped."""
        link = self.build_dir / version
        try:
            target = link.resolve() if link.exists() else None
        except OSError:
            target = None
        if target == self._entries[version].target and self._infos[version].status != MISSING:
            return False
        entry, info = self._scan_one(version)
        if info is None:
            info = VersionInfo(
                version, None, 0, "", "", None, 0.0, MISSING, "its build is gone; run `nrrules build`"
            )
        with self._lock:
            self._entries[version] = entry
            self._infos[version] = info
            self._docs.pop(version, None)
            self._graphs.pop(version, None)
            self._searchers.pop(version, None)
        return True

    def follow(self, now: bool = False) -> bool:
        """Notice builds published since the last look (at most once every `FOLLOW_INTERVAL`
        seconds, or `now`): a version whose name now points to
        another build is read from it (its cached document, graph and searcher dropped; requests
        holding them finish on the old build, which `publish` leaves in place), a new version is
        listed, and a rebuilt card or judges' build is opened on its next use. True when
        anything changed (`generation` counts it)."""
        t = time.monotonic()
        if not now and t - self._looked < FOLLOW_INTERVAL:
            return False
        self._looked = t
        try:
            names = sorted(e.name for e in self.build_dir.iterdir() if _VERSION_NAME.match(e.name))
        except OSError:
            return False
        changed = False
        for name in names:
            if name in self._entries:
                target = _link_target(self.build_dir / name)
                if target is None or target == self._entries[name].target:
                    continue  # unchanged, or removed: what is loaded is served (`_require` reports it)
                _, info = self._scan_one(name)
                if (info is None or not info.available) and self._infos[name].available:
                    if target not in self._passed:  # the old build stays served, said once
                        self._passed.add(target)
                        log.error(
                            "CR %s: the new build cannot be served (%s); serving the previous one",
                            name,
                            info.problem if info else "no build",
                        )
                    continue
                changed |= self._refresh(name)
                continue
            entry, info = self._scan_one(name)
            if info is not None:
                with self._lock:
                    self._entries[name] = entry
                    self._infos = dict(sorted({**self._infos, name: info}.items()))
                changed = True
        for name in ("cards", "judge"):
            target = _link_target(self.build_dir / name)
            if name in self._source_targets and self._source_targets[name] != target:
                swapped = self._swap_source(name, target) if target is not None else None
                if swapped is not None:  # opened and served, or refused and the old one kept
                    changed |= swapped
                    continue
                with self._lock:
                    if name == "cards":
                        self._cards = None
                    else:
                        self._judge = []
                    self._source_targets.pop(name, None)
                    self.source_problems.pop(name, None)
                changed = True
        if changed:
            with self._lock:
                self._history = None
                self.generation += 1
            log.info("build directory changed: serving the new builds")
        return changed

    def versions(self) -> list[VersionInfo]:
        """Every built version, with its status (`available` or a `problem`)."""
        self.follow()
        return list(self._infos.values())

    def available_versions(self) -> list[str]:
        return [v for v, info in self._infos.items() if info.available]

    @property
    def latest(self) -> str:
        """The newest version that can be served."""
        for v in reversed(self._infos):
            if self._infos[v].available:
                return v
        problems = "; ".join(f"{i.version}: {i.problem}" for i in self._infos.values())
        raise LibraryError(f"no CR version can be served ({problems})")

    def has_version(self, version: str) -> bool:
        self.follow()
        return version in self._infos

    def info(self, version: str | None = None) -> VersionInfo:
        return self._infos[self.resolve_version(version)]

    def resolve_version(self, version: str | None) -> str:
        """The built version named (None, "" or "latest": the newest available). A version that
        is built but cannot be served resolves; loading it raises `VersionUnavailable`."""
        self.follow()
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

    # ----- loading ----------------------------------------------------------------------------
    def document(self, version: str | None = None) -> Document:
        v = self.resolve_version(version)
        doc = self._docs.get(v)
        if doc is None:
            doc = self._load_document(v)
            with self._lock:
                doc = self._docs.setdefault(v, doc)
        return doc

    def _document_bytes(self, v: str, retry: bool = True) -> tuple[_Entry, bytes]:
        """A version's document.json as the build wrote it (checked against its manifest)."""
        entry = self._require(v)
        try:
            data = (entry.target / "document.json").read_bytes()  # type: ignore[operator]
        except OSError as exc:
            if retry and self._refresh(v):
                return self._document_bytes(v, retry=False)
            status = MISSING if isinstance(exc, FileNotFoundError) else DAMAGED
            raise self._fail(
                v, status, f"its document.json cannot be read ({exc.strerror}); run `nrrules build`"
            ) from None
        damage = integrity.check_bytes(data, "document.json", entry.meta.get("files"))
        if damage:
            if retry and self._refresh(v):
                return self._document_bytes(v, retry=False)
            raise self._fail(v, DAMAGED, _damage_problem(damage))
        return entry, data

    def build_file(self, version: str, rel: str) -> bytes:
        """A file of a version's build as the build wrote it (checked against its checksums):
        ValueError says what differs (truncated, altered), OSError when it cannot be read."""
        entry = self._require(self.resolve_version(version))
        data = (entry.target / rel).read_bytes()  # type: ignore[operator]
        damage = integrity.check_bytes(data, rel, entry.meta.get("files"))
        if damage:
            raise ValueError(damage)
        return data

    def _load_document(self, v: str) -> Document:
        _, data = self._document_bytes(v)
        try:
            doc = Document.from_json(data.decode("utf-8"))
        except (ValueError, KeyError, TypeError, RecursionError) as exc:
            raise self._fail(
                v, DAMAGED, f"its document.json is damaged ({type(exc).__name__}); run `nrrules build`"
            ) from None
        if doc.version != v:
            raise self._fail(v, DAMAGED, f"its document.json holds CR {doc.version}; run `nrrules build`")
        return doc

    def summaries(self) -> dict[str, Document | Rows]:
        """Every version that can be served, as `documents` gives them, except that a version
        not loaded yet is read from its compact `ROWS_FILE` (each node's number, title and
        text: what `mapping.across_versions` reads), not parsed whole. Its document.json is
        still checked against the build's manifest, so a damaged version is skipped as
        `documents` skips it. `nrrules rule` reads five versions this way."""
        out: dict[str, Document | Rows] = {}
        for v in list(self._infos):
            try:
                out[v] = self._docs.get(v) or self._rows(v) or self.document(v)
            except VersionUnavailable:
                continue
        return out

    def _rows(self, v: str) -> Rows | None:
        """The version's `ROWS_FILE`, if it is the one the build wrote (None: read the document)."""
        entry, _ = self._document_bytes(v)
        try:
            data = (entry.target / ROWS_FILE).read_bytes()  # type: ignore[operator]
            if integrity.check_bytes(data, ROWS_FILE, entry.meta.get("files")):
                return None
            table = orjson.loads(data)
            return Rows(v, table) if isinstance(table, dict) else None
        except (OSError, ValueError, TypeError, AttributeError):
            return None

    def documents(self) -> dict[str, Document]:
        """Every version that can be served (the others are skipped, and reported by
        `versions()`)."""
        out: dict[str, Document] = {}
        for v in list(self._infos):
            try:
                out[v] = self.document(v)
            except VersionUnavailable:
                continue
        return out

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
        v = self.resolve_version(version)
        s = self._searchers.get(v)
        if s is None:
            s = self._open_searcher(v)
            with self._lock:
                s = self._searchers.setdefault(v, s)
        return s

    def _open_searcher(self, v: str) -> Searcher:
        from .search import Searcher

        doc = self.document(v)
        entry = self._require(v)
        hint = "; run `nrrules build` to rebuild it"
        damage = integrity.check_files(entry.target, entry.meta.get("files"), prefix="search/")  # type: ignore[arg-type]
        if damage:
            raise self._fail(v, DAMAGED, _damage_problem(damage))
        try:
            return Searcher(entry.target / "search", doc)  # type: ignore[operator]
        except Exception as exc:  # noqa: BLE001 - Whoosh reading files it did not write fails in many ways
            raise self._fail(
                v, DAMAGED, f"its search index is damaged or out of date ({type(exc).__name__}){hint}"
            ) from None

    def preload(self) -> list[VersionUnavailable]:
        """Load every version's document and rule graph (its networkx form too) now. A version
        that cannot be loaded is reported (logged, and by `versions()`) and skipped: the others
        still load."""
        problems: list[VersionUnavailable] = []
        for v in list(self._infos):
            try:
                _ = self.graph(v).g
            except VersionUnavailable as exc:
                problems.append(exc)
        return problems

    def history(self) -> HistoryStore:
        """Rule histories and changes between versions (consecutive pairs stored at build)."""
        if self._history is None:
            from .history import HISTORY_FILE, HistoryStore

            store = HistoryStore(self.documents(), self.build_dir / HISTORY_FILE)
            with self._lock:
                self._history = self._history or store
        return self._history

    def _swap_source(self, name: str, target: Path) -> bool | None:
        """A rebuilt card or judges' build while a sound one is served: the new one is opened
        now and swapped in when it can be served (True); when it cannot (a damaged record, a
        checksum), the one served stays, said once in the log, and the new one is not tried
        again until the name points elsewhere (False). None when no sound store is loaded: the
        caller drops what is, and the next use opens the new build."""
        loaded = self._cards if name == "cards" else (self._judge[0] if self._judge else None)
        if loaded is None:
            return None
        from .cards import CardsNotBuilt, CardStore
        from .judge import JudgeStore

        try:
            store = CardStore.open(self.build_dir) if name == "cards" else JudgeStore.open(self.build_dir)
        except (CardsNotBuilt, ValueError) as exc:  # JudgeDamaged is a ValueError
            with self._lock:
                self._source_targets[name] = target
            log.error("the new %s build cannot be served (%s); serving the previous one", name, exc)
            return False
        with self._lock:
            if name == "cards":
                self._cards = store
            else:
                self._judge = [store]
            self._source_targets[name] = target
            self.source_problems.pop(name, None)
        return True

    def judge(self) -> JudgeStore | None:
        """The judges' documents built beside the CR (None when there are none, or when their
        build is damaged: `source_problems` says why, and the rules are served without them)."""
        self.follow()
        if not self._judge:
            from .judge import JudgeStore

            target = _link_target(self.build_dir / "judge")
            try:
                store = JudgeStore.open(self.build_dir)
            except ValueError as exc:  # JudgeDamaged: says what and how to rebuild it
                store = None
                self.report_source_problem("judge", str(exc))
            with self._lock:
                if not self._judge:
                    self._judge.append(store)
                    self._source_targets["judge"] = target
        return self._judge[0]

    def cards(self) -> CardStore:
        """The NetrunnerDB card build beside the rules (`nrrules build --cards`). LibraryError
        when there is none or it is damaged (`source_problems` says why for a damaged one)."""
        self.follow()
        if self._cards is None:
            from .cards import CardsNotBuilt, CardStore

            target = _link_target(self.build_dir / "cards")
            try:
                store = CardStore.open(self.build_dir)
            except CardsNotBuilt as exc:
                if target is not None:  # built, but it cannot be served
                    self.report_source_problem("cards", str(exc))
                raise LibraryError(str(exc), path=self.build_dir) from None
            with self._lock:
                if self._cards is None:
                    self._cards = store
                    self._source_targets["cards"] = target
        return self._cards

    def report_source_problem(self, name: str, problem: str) -> None:
        """Record (and log once) that the card or judges' build cannot be served."""
        with self._lock:
            if self.source_problems.get(name) != problem:
                log.error("the %s build is unavailable: %s", name, problem)
            self.source_problems[name] = problem

    def lookup(self, query: str, version: str | None = None, with_children: bool = False) -> LookupResult:
        from .lookup import lookup

        return lookup(self.document(version), query, with_children=with_children)


def load_document(version: str | None = None, build_dir: Path | str | None = None) -> Document:
    return Library.open(build_dir).document(version)
