"""Judges' documents in the build: stored, searchable, and tied to the CR rules they cite.

Layout, beside the CR versions of a build directory::

    <build_dir>/judge -> .j/judge-<key12>-<rand>   (symlink, swapped atomically)
    .j/judge-.../documents.json                   (every JudgeDocument of the source)
    .j/judge-.../meta.json                        (key, sources, counts)
    .j/judge-.../search/                          (Whoosh index over the items)

The key hashes the source bytes, the card names used to find cards, and this code: building
the same source again is a no-op, any change rebuilds. CR citations are resolved when read
(against whatever CR versions are built), so rebuilding the CR never needs a judge rebuild.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import threading
import time
from collections.abc import Iterable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from whoosh.analysis import CharsetFilter, Filter, LowercaseFilter, RegexTokenizer, StemFilter, StopFilter
from whoosh.fields import STORED, TEXT, Schema
from whoosh.filedb.filestore import FileStorage
from whoosh.scoring import BM25F
from whoosh.support.charset import accent_map

from memo import memo
from scraper import Document, ScrapeError
from scraper.judge import JudgeDocument, JudgeItem, parse_judge
from scraper.schema import JUDGE_DOCUMENT
from scraper.schema import problem as record_problem
from scraper.source import resolve

from .impact import Impacts, top
from .integrity import (
    MIN_JUDGE_KEPT,
    build_lock,
    check_build_dir,
    check_build_file,
    check_counts_not_a_regression,
    manifest,
)
from .lookup import lookup
from .search import _STOP, _TOKEN, NAME_ANALYZER, _mark, _porter, clean_query, ideal_score, norm_of
from .store import publish
from .whoosh_open import open_index

if TYPE_CHECKING:
    from .store import Library

__all__ = [
    "JUDGE_LINK",
    "JudgeBuildResult",
    "JudgeDamaged",
    "JudgeHit",
    "JudgeStore",
    "build_judge",
    "map_timing",
]

JUDGE_LINK = "judge"
FORMAT = 1
MAX_LIMIT = 100

# Past forms a judge types ("drew", "took") that a suffix stemmer cannot reach.
IRREGULAR = {
    "drew": "draw",
    "drawn": "draw",
    "took": "take",
    "taken": "take",
    "gave": "give",
    "given": "give",
    "paid": "pay",
    "won": "win",
    "lost": "lose",
    "hid": "hide",
    "hidden": "hide",
    "saw": "see",
    "seen": "see",
    "chose": "choose",
    "chosen": "choose",
    "stole": "steal",
    "stolen": "steal",
    "ran": "run",
    "began": "begin",
    "begun": "begin",
    "made": "make",
    "got": "get",
    "shown": "show",
    "forgot": "forget",
    "forgotten": "forget",
    "went": "go",
    "gone": "go",
    "dealt": "deal",
}


class _Irregular(Filter):
    def __call__(self, tokens):
        for t in tokens:
            t.text = IRREGULAR.get(t.text, t.text)
            yield t


ANALYZER = (
    RegexTokenizer(_TOKEN)
    | LowercaseFilter()
    | StopFilter(stoplist=_STOP, minsize=1)
    | _Irregular()
    | CharsetFilter(accent_map)
    | StemFilter(stemfn=_porter, cachesize=None)  # bounded: the same stem cache as the CR index
)
SCHEMA = Schema(
    id=STORED(),
    title=TEXT(analyzer=ANALYZER, field_boost=2.0),
    text=TEXT(analyzer=ANALYZER),
    section=TEXT(analyzer=ANALYZER, field_boost=1.0),
    cards=TEXT(analyzer=NAME_ANALYZER, field_boost=1.5),
)
FIELDS = ("title", "text", "section")


def _stems(text: str) -> list[str]:
    return [t.text for t in ANALYZER(text)]


@memo("judge.snippet_stems")
def _stem_word(word: str) -> str | None:
    """The indexed form of one word (None for a stop word), cached: snippets ask for every
    word of every hit."""
    got = _stems(word)
    return got[0] if len(got) == 1 else None


def code_key() -> str:
    here = Path(__file__).resolve()
    h = hashlib.sha256()
    for p in (here, here.parent.parent / "scraper" / "judge.py"):
        h.update(p.read_bytes())
    return h.hexdigest()[:16]


# ----------------------------------------------------------------------------------------------
# Building
# ----------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class JudgeBuildResult:
    status: str  # "built" or "unchanged"
    sources: list[str]
    documents: int
    items: int
    seconds: float


def _read_meta(path: Path) -> dict | None:
    try:
        return json.loads((path / "meta.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None


def _unique_ids(docs: list[JudgeDocument]) -> None:
    """Item and section ids are unique across documents: a later document's clashing id gets
    its document's name in front."""
    seen: set[str] = set()
    for doc in docs:
        prefix = re.sub(r"[^a-z0-9]+", "-", doc.title.lower()).strip("-") or "doc"
        renamed: dict[str, str] = {}
        for s in doc.sections:
            if s.id in seen:
                renamed[s.id] = f"{prefix}:{s.id}"
        for s in doc.sections:
            s.id = renamed.get(s.id, s.id)
            s.parent = renamed.get(s.parent, s.parent) if s.parent else None
            seen.add(s.id)
        for i in doc.items:
            i.section = renamed.get(i.section, i.section)
            if i.id in seen:
                i.id = f"{prefix}:{i.id}"
            seen.add(i.id)


def build_judge(
    source: str,
    build_dir: Path,
    card_names: Iterable[str] = (),
    force: bool = False,
    cache_dir: Path | None = None,
) -> JudgeBuildResult:
    """Build the judges' documents at ``source`` (a file, a folder of .html files or a URL).

    Raises ScrapeError for a source that cannot be read or is not a judges' document; the
    previous good build stays in place."""
    t0 = time.perf_counter()
    build_dir = Path(build_dir)
    sources = resolve(source, cache_dir=cache_dir, regular_only=True)
    names = sorted(set(card_names))
    h = hashlib.sha256(f"{FORMAT}:{code_key()}".encode())
    for src in sources:
        h.update(hashlib.sha256(src.data).digest())
    h.update("\n".join(names).encode())
    key = h.hexdigest()
    link = build_dir / JUDGE_LINK
    meta = _read_meta(link) if link.is_dir() else None
    if not force and meta and meta.get("key") == key:
        return JudgeBuildResult(
            "unchanged", meta["sources"], meta["documents"], meta["items"], time.perf_counter() - t0
        )
    docs = [parse_judge(src.data, src.name, names) for src in sources]
    _unique_ids(docs)
    for src, doc in zip(sources, docs, strict=True):
        found = record_problem(doc.to_dict(), JUDGE_DOCUMENT)  # what the store checks when it opens
        if found:
            raise ScrapeError(src.name, f"the document makes a record that cannot be served: {found}")
    counts = {"documents": len(docs), "items": sum(len(d.items) for d in docs)}
    if not force:  # a truncated document or a folder missing one never replaces a good build
        check_counts_not_a_regression(
            counts, meta, ", ".join(s.name for s in sources), "judges'", MIN_JUDGE_KEPT
        )
    meta = {
        "judge_format": FORMAT,
        "key": key,
        "sources": [s.name for s in sources],
        "documents": len(docs),
        "items": sum(len(d.items) for d in docs),
        "built_at": time.time(),
    }

    def write(tmp: Path) -> None:
        (tmp / "documents.json").write_text(
            json.dumps([d.to_dict() for d in docs], ensure_ascii=False), encoding="utf-8"
        )
        _build_index(docs, tmp / "search")
        meta["files"] = manifest(tmp)  # checked when the build is opened (`JudgeStore`)
        (tmp / "meta.json").write_text(json.dumps(meta, indent=1), encoding="utf-8")

    with build_lock(build_dir):
        publish(build_dir, JUDGE_LINK, ".j", f"judge-{key[:12]}", write)
    return JudgeBuildResult(
        "built", meta["sources"], meta["documents"], meta["items"], time.perf_counter() - t0
    )


def _build_index(docs: list[JudgeDocument], path: Path) -> None:
    path.mkdir(parents=True)
    ix = FileStorage(str(path)).create_index(SCHEMA)
    writer = ix.writer(procs=1, multisegment=False)
    try:
        for doc in docs:
            for item in doc.items:
                sections = " ".join(s.title for s in doc.section_path(item.section))
                writer.add_document(
                    id=item.id,
                    title=item.title,
                    text=item.text,
                    section=sections,
                    cards="\n".join(item.cards),
                )
    except BaseException:
        writer.cancel()
        raise
    writer.commit()


# ----------------------------------------------------------------------------------------------
# The run timing structure of a judges' document beside the CR's
# ----------------------------------------------------------------------------------------------

_FLOW = re.compile(r"^(?:if (?:yes|no),\s*)?(?:go|return|continue)\s+to\s+\((\w+)\)\.?$", re.I)


def _norm(text: str) -> str:
    return " ".join(re.findall(r"[a-z0-9]+", text.lower()))


def _overlap(a: str, b: str) -> float:
    """Share of the judge line's words found in the CR text (stemmed, stop words left out)."""
    sa = set(_stems(a)) - {"paid", "pay"} | ({"pay"} if "paid" in a.lower() else set())
    sb = set(_stems(b))
    return len(sa & sb) / len(sa) if sa else 0.0


def map_timing(item: JudgeItem, doc: Document, section_number: str) -> list[dict]:
    """Each line of a timing-structure item matched to the CR step it summarises.

    A line labelled "4.c" is compared with step ``<section>.4c`` of ``doc``; the match is
    "clear" when the words agree (most of the line's words are in the step), when a flow line
    ("Go to (5).") names what the step continues to, or when a phase title equals the CR's.
    A branch line ("If yes, go to (2).") belongs to the step of its parent line. Anything else
    is reported with ``id: None``."""
    out: list[dict] = []
    by_label: dict[str, dict] = {}
    for line in item.lines:
        entry = {
            "label": line.label,
            "depth": line.depth,
            "text": line.text,
            "id": None,
            "number": None,
            "how": None,
        }
        label = line.label or ""
        parts = label.split(".")
        if line.depth >= 2 and ".".join(parts[:2]) in by_label:
            parent = by_label[".".join(parts[:2])]
            if parent["id"]:
                entry.update(id=parent["id"], number=parent["number"], how="branch")
        elif line.depth <= 1 and parts and parts[0].isdigit():
            number = f"{section_number}.{parts[0]}" + (parts[1] if len(parts) > 1 else "")
            found = lookup(doc, number).node
            if found is not None and found.number == number:
                how = _clear(line.text, found, section_number, line.depth)
                if how:
                    entry.update(id=found.id, number=found.number, how=how)
        by_label[label] = entry
        out.append(entry)
    return out


def _clear(text: str, node, section_number: str, depth: int) -> str | None:
    if depth == 0:
        return "title" if _norm(text) == _norm(node.title or "") else None
    m = _FLOW.match(text.strip())
    if m:
        target = m.group(1)
        body = node.text
        if target.isdigit() and f"{section_number}.{target}" in body:
            return "flow"
        if not target.isdigit() and f"({target})" in body:
            return "flow"
        return None
    return "text" if _overlap(text, node.text) >= 0.5 else None


# ----------------------------------------------------------------------------------------------
# Reading
# ----------------------------------------------------------------------------------------------


@dataclass
class JudgeHit:
    id: str
    title: str
    kind: str
    section: list[dict]  # [{"id","title"}], outermost first
    snippet: str  # safe HTML with <mark>
    score: float
    source: str = "judge"
    norm: float = 0.0  # score / the best score the query could reach here (`search.ideal_score`)
    match: str = "text"  # "text" (found by its words) or "cites" (it cites the rule searched for)

    def to_dict(self) -> dict:
        return asdict(self)


@dataclass
class _Resolved:
    refs: dict[str, list[dict]] = field(default_factory=dict)  # item id -> citations
    timing: dict[str, list[dict]] = field(default_factory=dict)  # item id -> mapped lines
    citing: dict[str, list[str]] = field(default_factory=dict)  # rule id -> item ids


class JudgeDamaged(ValueError):
    """The judges' build cannot be served (a file truncated, altered or unreadable): the message
    says what and how to rebuild it; the rules and the other sources are served without it."""


def _damaged(detail: str) -> str:
    return f"the judges' build is damaged ({detail}); rebuild it with `nrrules build --judge SOURCE --force`"


class JudgeStore:
    """Read access to the built judges' documents. Thread-safe; caches what it derives."""

    def __init__(self, path: Path) -> None:
        self.path = Path(path)
        meta = _read_meta(self.path)
        if not meta or meta.get("judge_format") != FORMAT:
            raise JudgeDamaged(_damaged("its meta.json is not a judges' build this nrrules reads"))
        self.meta = meta
        try:
            # a truncated or altered file or index is refused, never served (issue 38)
            check_build_dir(self.path, meta, "search/")
            data = check_build_file(self.path, "documents.json", meta)
        except ValueError as exc:  # what differs from what the build wrote
            raise JudgeDamaged(_damaged(str(exc))) from None
        except OSError as exc:
            raise JudgeDamaged(_damaged(f"it cannot be read: {exc.strerror or type(exc).__name__}")) from None
        try:
            raw = json.loads(data.decode("utf-8"))
        except (ValueError, RecursionError) as exc:
            raise JudgeDamaged(_damaged(f"documents.json: {type(exc).__name__}")) from None
        # every record checked field by field, as the build did (`scraper.schema`)
        if not isinstance(raw, list):
            raise JudgeDamaged(_damaged(f"documents.json: is {type(raw).__name__}, not a list"))
        for n, d in enumerate(raw):
            found = record_problem(d, JUDGE_DOCUMENT, path=f"[{n}]")
            if found:
                raise JudgeDamaged(_damaged(f"documents.json: {found}"))
        try:
            self.documents = [JudgeDocument.from_dict(d) for d in raw]
            self._items: dict[str, tuple[JudgeDocument, JudgeItem]] = {
                i.id: (d, i) for d in self.documents for i in d.items
            }
            self._ix = open_index(self.path / "search", SCHEMA)
        except Exception as exc:  # noqa: BLE001 - a build written without checksums, damaged: many ways
            raise JudgeDamaged(_damaged(type(exc).__name__)) from None
        self._local = threading.local()
        self._impacts = Impacts(lambda: self._searcher().reader())
        self._lock = threading.Lock()
        self._resolved: dict[tuple[str, ...], _Resolved] = {}
        self._item_stems: dict[str, frozenset[str]] = {
            i.id: frozenset(_stems(f"{i.title} {i.text}"))
            | frozenset(_stems(" ".join(s.title for s in d.section_path(i.section))))
            for d in self.documents
            for i in d.items
        }

    @classmethod
    def open(cls, build_dir: Path | str) -> JudgeStore | None:
        """The store of a build directory, or None when no judges' document is built there."""
        path = Path(build_dir) / JUDGE_LINK
        if not (path / "meta.json").exists():
            return None
        if _read_meta(path) is None:
            raise JudgeDamaged(_damaged("its meta.json cannot be read"))
        return cls(path)

    # ----- items ------------------------------------------------------------------------------
    def items(self) -> list[JudgeItem]:
        return [i for _, i in self._items.values()]

    def item(self, item_id: str) -> JudgeItem | None:
        found = self._items.get(item_id)
        return found[1] if found else None

    def document_of(self, item_id: str) -> JudgeDocument | None:
        found = self._items.get(item_id)
        return found[0] if found else None

    def breadcrumb(self, item_id: str) -> list[dict]:
        doc, item = self._items[item_id]
        return [{"id": s.id, "title": s.title} for s in doc.section_path(item.section)]

    # ----- search -----------------------------------------------------------------------------
    def _searcher(self):
        pid = os.getpid()
        cached = getattr(self._local, "searcher", None)
        if cached is None or cached[0] != pid:
            self._local.searcher = (pid, self._ix.searcher(weighting=BM25F()))
        return self._local.searcher[1]

    def search(self, query: str, limit: int = 10, snippets: bool = True) -> list[JudgeHit]:
        """Judge items for a query, best first: BM25F, then items with more of the query's
        distinct words first. Any string gives a list. With ``snippets`` False the hits come
        without a snippet (``""``; `with_snippets` makes them for those a caller keeps)."""
        text = clean_query(query)
        try:
            limit = max(1, min(int(limit), MAX_LIMIT))
        except (TypeError, ValueError):
            limit = 10
        stems = list(dict.fromkeys(_stems(text)))
        if not stems:
            return []
        names = [t.text for t in NAME_ANALYZER(text)]
        clauses = [(f, s, 1.0) for s in stems for f in FIELDS] + [("cards", n, 1.0) for n in names]
        searcher = self._searcher()
        ideal = ideal_score(self._impacts, clauses)
        ranked = []
        for docnum, score in top(self._impacts.scores(clauses), max(limit, 30)):
            item_id = searcher.stored_fields(docnum)["id"]
            have = self._item_stems.get(item_id, frozenset())
            share = sum(1 for s in stems if s in have) / len(stems)
            ranked.append((float(score) * share * share, item_id))
        ranked.sort(key=lambda p: -p[0])
        wanted = frozenset(stems)
        hits = []
        for score, item_id in ranked[:limit]:
            item = self.item(item_id)
            hits.append(
                JudgeHit(
                    id=item_id,
                    title=item.title,
                    kind=item.kind,
                    section=self.breadcrumb(item_id),
                    snippet=self.snippet(item, wanted) if snippets else "",
                    score=round(score, 4),
                    norm=norm_of(score, ideal),
                )
            )
        return hits

    def with_snippets(self, hits: list, query: str) -> None:
        """Give the judge hits of ``hits`` left without a snippet theirs, for ``query``."""
        wanted = frozenset(_stems(clean_query(query)))
        for hit in hits:
            if getattr(hit, "source", None) == "judge" and not hit.snippet:
                item = self.item(hit.id)
                if item is not None:
                    hit.snippet = self.snippet(item, wanted)

    def hit(self, item_id: str, match: str = "text") -> JudgeHit:
        """An item as a search hit without a query (``match`` says why it is listed)."""
        item = self.item(item_id)
        return JudgeHit(
            id=item_id,
            title=item.title,
            kind=item.kind,
            section=self.breadcrumb(item_id),
            snippet=self.snippet(item, frozenset()),
            score=0.0,
            match=match,
        )

    @staticmethod
    def snippet(item: JudgeItem, stems: frozenset[str]) -> str:
        text = item.text.replace("\n", " ")
        spans = []
        for m in re.finditer(_TOKEN, text):
            if _stem_word(m.group(0)) in stems:
                spans.append(m.span())
        return _mark(text, spans)

    # ----- CR citations -----------------------------------------------------------------------
    def resolved(self, library: Library) -> _Resolved:
        """Every item's CR citations and timing lines resolved against the built versions."""
        key = tuple(v.version + v.source_hash[:8] for v in library.versions())
        res = self._resolved.get(key)
        if res is not None:
            return res
        res = _Resolved()
        for doc in self.documents:
            for item in doc.items:
                cites: list[dict] = []
                for ref in item.refs:
                    entry = {
                        "text": ref.text,
                        "document": ref.document,
                        "number": ref.number,
                        "version": None,
                        "id": None,
                        "inherited": ref.inherited,
                    }
                    if ref.document == "CR" and library.versions():
                        sec = doc.section(item.section)
                        version = ref.version or (sec.cr_version if sec else None) or doc.cr_version
                        version = version if version and library.has_version(version) else library.latest
                        node = lookup(library.document(version), ref.number).node
                        entry["version"] = version
                        if node is not None:
                            entry["id"] = node.id
                    cites.append(entry)
                res.refs[item.id] = cites
                timing = self._timing_of(doc, item, library)
                if timing is not None:
                    res.timing[item.id] = timing
                ids = [c["id"] for c in cites if c["id"]] + [ln["id"] for ln in timing or () if ln["id"]]
                for rule_id in dict.fromkeys(ids):
                    res.citing.setdefault(rule_id, []).append(item.id)
        with self._lock:
            self._resolved = {key: res}
        return res

    def _timing_of(self, doc: JudgeDocument, item: JudgeItem, library: Library) -> list[dict] | None:
        """The item's lines mapped to CR steps, when its section cites a CR section with a
        version ("NSG CR v23.08, Section 6.9") and the item is a numbered list."""
        if item.kind != "list" or not item.lines or not (item.lines[0].label or "").isdigit():
            return None
        for sec in doc.section_path(item.section):
            for ref in sec.refs:
                if ref.document == "CR" and ref.number.count(".") == 1:
                    version = ref.version or sec.cr_version or doc.cr_version
                    if not version or not library.has_version(version):
                        version = library.latest
                    lines = map_timing(item, library.document(version), ref.number)
                    for ln in lines:
                        ln["version"] = version
                    return lines
        return None

    def citing(self, rule_id: str, library: Library) -> list[JudgeItem]:
        """Judge items that cite a rule (by its stable id), directly or through a timing line."""
        return [self.item(i) for i in self.resolved(library).citing.get(rule_id, [])]
