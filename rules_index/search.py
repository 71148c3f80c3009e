"""Full-text search over one CR version (Whoosh), behind one search box.

* Number- and id-looking queries (``6.9.4c``, ``step_jack_out_choice``, deep links) go to
  `rules_index.lookup` first: the exact rule is ranked first, followed by the rules citing it.
* Everything else is full text: BM25F over a schema declared once (`SCHEMA`), with stemming,
  field boosts, judge jargon expanded to the CR's words (`rules_index.jargon`; a query that is
  only jargon puts the table's rule first), typo correction against the document's own
  vocabulary, and card names (a card mentioned in a rule or its examples finds that rule).
  The top BM25F candidates are re-ranked: coordination (share of the distinct query words a
  rule has), a bonus when the rule text has the query's words in order (phrase match) and,
  for longer queries, a smaller one per adjacent pair of query words found adjacent in it
  (proximity), and a lower prior for the chapter 11 summaries. Everyday phrasings inside a
  question ("at the same time", "do I have to") are translated to the CR's words by the same
  table as jargon (`rules_index.jargon.PHRASINGS`), and a word such a phrase covers counts as
  matched, for coordination, by a rule having the CR's word for it ("unused" by "unspent").
* A question's framing ("how many", "what does ... mean") is taken out before its words are
  read, and its intent is named from how it begins (`rules_index.question`): "how many"
  prefers the rules stating a number, "can ..." the rules saying what a player can or must do.
* Each rule is indexed with the questions the question bank (`rules_index.bank`) says it
  answers, in a judge's words, in its ``asked`` field (not for the words of a card the query
  names: the card clause answers those).
* A timing step near the top that only narrates makes way for a candidate rule citing it.
* For a question-like query (3+ word groups, no card name, not just a term the CR defines), a
  learned linear model then orders the top candidates (`rules_index.ranker`, weights from ``bench/train_ranker.py``, chosen by
  cross-validation over judge questions that are never the held-out sets). It reads the
  query's word vector too (`rules_index.vectors`): its cosine with each candidate's text and
  questions, so meaning counts where the words differ.
* Every hit carries ``norm``, its score over the best score the query could reach in this
  index (`ideal_score`), so that `rules_index.unified` can rank rules beside judge items,
  cards and rulings.
* Scoring reads per-word score lists built once per word (`rules_index.impact`), the same
  scores and order as Whoosh's own ``Or`` of the query's terms (phrases are scored by Whoosh
  and added), without Whoosh's per-posting matcher machinery.
* Examples are folded into their rule: their text is indexed in the rule's ``examples`` field and
  example nodes are never hits.

The index is written once per Document by `build_index` and opened read-only by `Searcher`;
each thread (and each process) gets its own Whoosh searcher, so searching is safe from many
threads and processes at once. Any query string returns a list (possibly empty), never raises.
"""

from __future__ import annotations

import json
import logging
import os
import re
import threading
from array import array
from collections import Counter
from collections.abc import Callable, Container, Iterator, Mapping
from dataclasses import asdict, dataclass, field
from math import log as ln
from pathlib import Path

import numpy as np
from whoosh.analysis import CharsetFilter, Filter, LowercaseFilter, RegexTokenizer, StemFilter, StopFilter
from whoosh.analysis.filters import STOP_WORDS
from whoosh.fields import STORED, TEXT, Schema
from whoosh.filedb.filestore import FileStorage
from whoosh.lang.porter import stem as porter_stem
from whoosh.query import FuzzyTerm, Or, Phrase, Prefix, Term
from whoosh.scoring import BM25F, BM25FScorer
from whoosh.support.charset import accent_map

from memo import memo
from scraper import Document, Node

from . import bank, embeddings, ranker, translation, vectors
from .impact import Impacts, top
from .jargon import expand, find_jargon
from .lookup import lookup, number_index, parse_query
from .question import CONTROL
from .question import marks as question_marks
from .question import read as read_question
from .whoosh_open import open_index

__all__ = [
    "StaleIndexError",
    "SCHEMA",
    "SearchHit",
    "SearchResult",
    "Searcher",
    "build_index",
    "index_is_current",
    "index_words",
    "ANALYZER",
    "MAX_QUERY",
]

log = logging.getLogger(__name__)

MAX_QUERY = 200  # characters of a query that are looked at
MAX_LIMIT = 100
# A query of at least this many word groups is ranked with the rules' sentence embeddings too
# (`rules_index.embeddings`), whether the learned stage orders it or not (it names a card); a
# shorter one by its words alone ("revealed top of R&D" lost its rule from the top two with them).
MEANING_GROUPS = 5
INDEX_META = "nrrules-index.json"
INDEX_FORMAT = 5  # 5: the question bank's ``asked`` field

# Words: letters/digits, keeping "R&D" whole. Accents folded so "Melies" finds "Méliès".
_TOKEN = r"(?:[Nn][Oo][Nn]-)?[^\W_]+(?:&[^\W_]+)?"
# Stop words: English function words, and the words of a question that say nothing about the
# game ("what happens if I ...", "who", "where"), so they cannot outweigh its content words.
QUESTION_WORDS = frozenset(
    {"what", "when", "does", "do", "did", "how", "happens", "happen", "happened", "i", "me", "my"}
    | {"who", "whom", "which", "why", "where", "there", "get", "gets", "got", "s", "t"}
)
_STOP = frozenset(STOP_WORDS | QUESTION_WORDS | {"rule", "rules", "cr"})
# Irregular forms the Porter stemmer leaves apart from their base word.
WORD_FORMS = {
    "rezzed": "rez",
    "rezzing": "rez",
    "rezzes": "rez",
    "derezzed": "derez",
    "derezzing": "derez",
    "derezzes": "derez",
    "unrezzed": "unrez",
    "stolen": "steal",
    "stole": "steal",
    "ices": "ice",
}
# Index-time synonyms: a rule that names the grip also stands for the word players use for it.
# (Query words are never expanded here: "grip" in a query still means the grip.)
INDEX_SYNONYMS = {
    "grip": ("hand",),
    "stack": ("deck",),
}


@memo("search.stems")  # bounded (Whoosh's cachesize=-1 grows with every distinct word ever seen)
def _porter(word: str) -> str:
    """Porter stem of a word, through a bounded, thread-safe cache (module level: the analyzer
    is pickled with the index schema)."""
    return porter_stem(word)


class _WordFormsFilter(Filter):
    """Maps irregular word forms to their base word (``WORD_FORMS``) and, at index time only,
    adds each word's everyday synonyms (``INDEX_SYNONYMS``) at the same position, so "cards in
    hand" finds the rules about the grip. One filter: each layer costs a generator per token."""

    def __call__(self, tokens):
        forms, synonyms = WORD_FORMS, INDEX_SYNONYMS
        for t in tokens:
            text = t.text = forms.get(t.text, t.text)
            yield t
            if text in synonyms and t.mode == "index":
                for word in synonyms[text]:
                    t.text = word
                    yield t


ANALYZER = (
    RegexTokenizer(_TOKEN)
    | LowercaseFilter()
    | StopFilter(stoplist=_STOP, minsize=1)  # before folding: fewer tokens to fold
    | CharsetFilter(accent_map)
    | _WordFormsFilter()
    | StemFilter(stemfn=_porter, cachesize=None)
)
NAME_ANALYZER = RegexTokenizer(_TOKEN) | LowercaseFilter() | CharsetFilter(accent_map)
# The words of a text as the word vectors read them (`rules_index.vectors`): stems as indexed, but
# no word is dropped ("not", "can", "when" and "before" say what a question asks).
VECTOR_ANALYZER = (
    RegexTokenizer(_TOKEN)
    | LowercaseFilter()
    | CharsetFilter(accent_map)
    | _WordFormsFilter()
    | StemFilter(stemfn=_porter, cachesize=None)
)

CONTEXT_BOOST = 0.3
CONTEXT_CITES = 4  # citing rules taken into a rule's context field (reading order)
CONTEXT_CHARS = 300  # of each part of the context: the rule's own neighbourhood, not whole essays
# The question bank's field (`rules_index.bank`): as strong as the rule's own text. Measured by
# 5-fold CV MRR@10 on the training questions: first round of the bank 0.759 / 0.766 / 0.765 at
# 0.5 / 1.0 / 2.0; whole bank 0.807 / 0.811 at 0.6 / 1.0.
ASKED_BOOST = 1.0

# Declared once. Boosts: a title or a defined term is strong evidence, the section path and the
# examples are weak evidence; card names are exact.
SCHEMA = Schema(
    id=STORED(),  # the index is written once and never updated, so ids need no postings
    number=STORED(),  # numbers are found by lookup, not by full text
    kind=STORED(),
    title=TEXT(analyzer=ANALYZER, field_boost=2.0),
    text=TEXT(analyzer=ANALYZER),
    examples=TEXT(analyzer=ANALYZER, field_boost=0.5, phrase=False),
    terms=TEXT(analyzer=ANALYZER, field_boost=2.5),
    cards=TEXT(analyzer=NAME_ANALYZER, field_boost=1.5),
    # The section path, as the titles of the enclosing chapter, section and rule: "start" finds
    # 1.6.4 under "Starting the Game".
    section=TEXT(analyzer=ANALYZER, field_boost=0.4, phrase=False),
    # Document expansion from what the CR says about the rule elsewhere: the text of its parent
    # rule (a sub-rule is read under it) and of every rule citing it ("If the Runner takes more
    # damage than ... cards in their grip, they are flatlined. See rule 1.7.2b." speaks for
    # 1.7.2b). Weak evidence, and only its distinctive words select.
    context=TEXT(analyzer=ANALYZER, field_boost=CONTEXT_BOOST, phrase=False),
    # Document expansion in a judge's words: the questions the question bank says the rule
    # answers (`rules_index.bank`); stored, so the ranker reads the questions the index holds.
    asked=TEXT(analyzer=ANALYZER, field_boost=ASKED_BOOST, phrase=False, stored=True),
)
TEXT_FIELDS = ("title", "text", "examples", "terms", "section", "context", "asked")
# Stronger length normalisation and later saturation than Whoosh's defaults (0.75, 1.2): long
# rules that mention a word in passing rank below the short rule about it (measured on
# bench/relevance_set.json and relevance_tuning.json).
BM25_B, BM25_K1 = 0.9, 1.6
# Phrases matched by Whoosh (short fields); phrases in the rule text are checked in the re-rank,
# which is far cheaper than Whoosh's positional matching over common words.
PHRASE_FIELDS = (("title", 3.0),)
TEXT_PHRASE_BONUS = 1.0  # score x (1 + bonus x weight) when the rule text has the phrase
MAX_PHRASE_WORDS = 4  # longer queries get no whole-query phrase (questions are never verbatim)
# Proximity: the text phrase bonus shared among the query's adjacent word pairs (a longer query
# whose pairs all occur in a rule's text gets x1.5); measured on bench/relevance_tuning.json.
BIGRAM_BONUS = 0.5
# Kind priors: the chapter 11 appendix restates the timing structures of sections 5.6, 6.9, 7.2
# and 7.5 in a few words each; a judge wants the full rule, so the summary ranks lower.
PRIORS = {"timing_phase": 0.5, "timing_step": 0.5}
COORD_GROUPS = True
COORD = 1.0  # exponent of the share of distinct query words a hit matches
RERANK_DEPTH = 40
STEP_KINDS = ("step", "timing_step")
# A step among the first STEP_TOP hits makes way for a candidate rule citing it whose score is at
# least STEP_SHARE of the step's (`Searcher._explain_steps`; measured on relevance_tuning.json).
STEP_TOP = 3
STEP_SHARE = 0.3
# A question's intent (`rules_index.question`) prefers the rules answering it: score x (1 + bonus).
# "how many" -> rules stating a number; "can ..." -> rules saying what a player can or must do.
# Measured on bench/relevance_tuning.json. Tried there and dropped (no gain): "when ..." ->
# rules naming a step, phase or window; "what happens ..." -> rules beginning "If"/"When";
# weaker jargon expansions inside longer questions; idf-weighted coordination.
INTENT_BONUS = {"count": 1.0, "permission": 0.3}
# Examples are scenarios full of everyday rules words; only their distinctive words select.
FIELD_COMMON_SHARE = {"examples": 0.01, "context": 0.01}
COMMON_SHARE = 0.15  # a word in more than this share of rules is "common"
# A rule that only names something ("The heap is the name for the Runner's discard pile.") matches
# the name in every field, so it beat the rule a question is about ("can the corp look at the
# cards in the runner's heap"). When the query has words its text does not have, its score is
# x (share of the query's word groups in its own text) ** NAME_COORD (measured on
# bench/relevance_tuning.json). Pseudo-relevance feedback was tried there too and dropped
# (RM3-style: the most distinctive text words of the top 3-10 hits added at weight 0.05-0.3 and
# the query run once more, for queries of 3+ word groups): tuning MRR 0.764-0.804, 0.805 without.
NAME_RULE = re.compile(r"^(?:the )?[\w&' -]{1,40}? is (?:also )?the name (?:for|of)\b", re.IGNORECASE)
NAME_COORD = 1.0


# ----------------------------------------------------------------------------------------------
# Building
# ----------------------------------------------------------------------------------------------


def index_words(text: str) -> list[str]:
    """The words of a text as the index stores them (stop words out, stemmed)."""
    return [t.text for t in ANALYZER(text)]


def _searchable(doc: Document) -> list[Node]:
    return [n for n in doc.nodes if n.kind != "example"]


def translation_words(doc: Document, node: Node) -> tuple[list[str], list[str]]:
    """A rule's words as the translation table reads them (`rules_index.translation`): those of
    its title and text, and those of the titles of it and of the sections above it."""
    titles = " ".join(a.title for a in (node, *doc.ancestors(node.id)) if a.title)
    return index_words(vectors.rule_text(node)), index_words(titles)


def fit_translation(doc: Document, asked: Mapping[str, tuple[str, ...]]) -> translation.Table | None:
    """The translation table of ``doc``: each rule's questions (``asked``) paired with its title,
    text and section titles."""
    pairs = []
    for node in _searchable(doc):
        questions = asked.get(node.id, ())
        if questions:
            text, titles = translation_words(doc, node)
            pairs.extend((index_words(q), text + titles) for q in questions)
    return translation.fit(pairs)


def _context(doc: Document, expansion: Mapping[str, str] | None = None) -> dict[str, str]:
    """Rule id -> what other rules say about it: its parent rule's text and the text of the
    rules (or examples) citing it, then any ``expansion`` text given for it."""
    said: dict[str, list[str]] = {}
    for node in doc.nodes:
        for ref in node.refs:
            if ref.target != node.id:
                said.setdefault(ref.target, []).append(node.text)
    out: dict[str, str] = {}
    for node in _searchable(doc):
        parts = []
        parent = doc.node(node.parent) if node.parent else None
        if parent is not None and parent.text and parent.kind != "chapter":
            parts.append(parent.text)
        parts.extend(list(dict.fromkeys(said.get(node.id, ())))[:CONTEXT_CITES])
        parts = [part[:CONTEXT_CHARS] for part in parts]
        if expansion and expansion.get(node.id):
            parts.append(expansion[node.id])
        if parts:
            out[node.id] = "\n".join(parts)
    return out


def build_index(
    doc: Document,
    path: Path,
    expansion: Mapping[str, str] | None = None,
    asked: Mapping[str, tuple[str, ...]] | None = None,
) -> None:
    """Write the Whoosh index for ``doc`` into ``path`` (an existing, empty directory).

    ``expansion`` (rule id -> text) is indexed in the rule's ``context`` field with what the CR
    says about it. The product's builds pass the questions of official rulings and judges' FAQ
    items that cite the rule by number (`rules_index.expansion.question_log`, from
    `store._write_version`); `bench/expansion.py` measures other kinds through the same hook.
    ``asked`` (rule id -> questions) goes in the ``asked`` field: by default the question bank's
    and the ranker's training questions (`rules_index.bank.labelled`), as the product's builds
    hold them; ``{}`` builds without any."""
    path = Path(path)
    context = _context(doc, expansion)
    if asked is None:
        asked = bank.for_doc(doc, labelled=bank.labelled())
    path.mkdir(parents=True, exist_ok=True)
    storage = FileStorage(str(path))
    ix = storage.create_index(SCHEMA)
    from .indexing import fast_fields  # a build's: not imported to search

    writer = ix.writer(procs=1, limitmb=256, multisegment=False)
    try:
        with fast_fields(writer.schema):  # the same words as the analyzers', in one loop
            _add_rules(writer, doc, context, asked)
    except BaseException:
        writer.cancel()
        raise
    writer.commit()
    meta = {"format": INDEX_FORMAT, "version": doc.version, "source_hash": doc.source_hash}
    (path / INDEX_META).write_text(json.dumps(meta), encoding="utf-8")


def _add_rules(
    writer, doc: Document, context: Mapping[str, str], asked: Mapping[str, tuple[str, ...]]
) -> None:
    """Add every searchable rule of ``doc`` to the index ``writer`` (`build_index`)."""
    for fields in rule_fields(doc, context, asked):
        writer.add_document(**fields)


def rule_fields(
    doc: Document, context: Mapping[str, str], asked: Mapping[str, tuple[str, ...]]
) -> Iterator[dict[str, str]]:
    """The fields of each searchable rule of ``doc`` as `build_index` adds it to the index."""
    for node in _searchable(doc):
        examples = [doc.node(e) for e in node.examples]
        examples = [e for e in examples if e is not None]
        cards = {c.name for c in node.cards} | {c.name for e in examples for c in e.cards}
        fields = {
            "id": node.id,
            "number": node.number or "",
            "kind": node.kind,
            "title": node.title or "",
            "text": node.text,
            "examples": "\n".join(e.text for e in examples),
            "terms": "\n".join(node.terms),
            "cards": "\n".join(sorted(cards)),
            "section": " ".join(a.title for a in doc.ancestors(node.id) if a.title),
            "context": context.get(node.id, ""),
            "asked": "\n".join(asked.get(node.id, ())),
        }
        # Empty fields are left out: each field of each document has a fixed cost.
        yield {k: v for k, v in fields.items() if v or k in ("number", "kind")}


POOL_FILE = "pool.npy"  # every searchable rule's pool vector (`Searcher._pool_matrix`), by a build
POOL_META = "pool.json"  # what it was made with: the word-vector table, POOL_MIX, the rule count


def index_is_current(doc: Document, path: Path) -> bool:
    """True if ``path`` holds a complete index built from this Document."""
    try:
        meta = json.loads((Path(path) / INDEX_META).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    return meta.get("format") == INDEX_FORMAT and meta.get("source_hash") == doc.source_hash


class _FastBM25FScorer(BM25FScorer):
    """Whoosh's BM25F, reading field lengths from an in-memory table instead of the length
    column for every posting (most of the cost of scoring on an index this small)."""

    def __init__(self, searcher, fieldname, text, B, K1, lengths, qf=1):
        super().__init__(searcher, fieldname, text, B, K1, qf=qf)
        self._lengths = lengths
        # bm25(idf, tf, fl) = idf * tf * (K1 + 1) / (tf + K1 * ((1 - B) + B * fl / avgfl))
        self._a = self.idf * (K1 + 1)
        self._c = K1 * (1 - B)
        self._d = K1 * B / self.avgfl

    def score(self, matcher):
        tf = matcher.weight()
        return self._a * tf / (tf + self._c + self._d * self._lengths[matcher.id()])


class _FastBM25F(BM25F):
    """BM25F with per-field length tables, built once per open index (document numbers of a
    read-only index never change)."""

    def __init__(self, B: float = BM25_B, K1: float = BM25_K1) -> None:
        super().__init__(B=B, K1=K1)
        self._tables: dict[str, list[int]] = {}
        self._lock = threading.Lock()

    def _lengths(self, reader, fieldname: str) -> list[int]:
        table = self._tables.get(fieldname)
        if table is None:
            table = [reader.doc_field_length(d, fieldname, 0) for d in range(reader.doc_count_all())]
            with self._lock:
                self._tables.setdefault(fieldname, table)
        return table

    def scorer(self, searcher, fieldname, text, qf=1):
        if not searcher.schema[fieldname].scorable or not searcher.reader().is_atomic():
            return super().scorer(searcher, fieldname, text, qf=qf)
        lengths = self._lengths(searcher.reader(), fieldname)
        return _FastBM25FScorer(searcher, fieldname, text, self.B, self.K1, lengths, qf=qf)


# ----------------------------------------------------------------------------------------------
# Results
# ----------------------------------------------------------------------------------------------


@dataclass
class SearchHit:
    id: str
    number: str | None
    title: str | None
    kind: str
    snippet: str  # safe HTML: escaped text with <mark> around matched words
    breadcrumb: list[dict] = field(default_factory=list)  # [{"id","number","title"}], outermost first
    score: float = 0.0
    # "exact" (number/id lookup), "cites" (cites the exact hit), "jargon" (the curated table's
    # rule for a query that is only jargon), "text" (full text) or "looser" (an offer of
    # `SearchResult.looser` when the query itself found nothing)
    match: str = "text"
    source: str = "rules"
    # The score as a share of the best score this query could reach in this index
    # (`ideal_score`): comparable across sources, 1.0 for exact and jargon answers.
    norm: float = 0.0

    def to_dict(self) -> dict:
        # A flat copy (the breadcrumb's dicts copied too): `asdict`'s deep recursion was a
        # tenth of an uncached search request.
        out = dict(self.__dict__)
        out["breadcrumb"] = [dict(crumb) for crumb in self.breadcrumb]
        return out


@dataclass
class SearchResult:
    """A search's answer: its hits and, when it found nothing, what it can offer instead. The
    offers are empty whenever there are hits."""

    query: str
    hits: list[SearchHit] = field(default_factory=list)
    # A number or id naming no rule: the nearest existing rules [{"id", "number", "title"}].
    nearest: list[dict] = field(default_factory=list)
    # Words the document does not have: [{"word": typed, "suggestions": [known words]}].
    spelling: list[dict] = field(default_factory=list)
    # The query with each unknown word replaced by its first suggestion (None if no change).
    did_you_mean: str | None = None
    # Top hits of a looser query (each word fuzzily, within 2 edits, or as a word prefix).
    looser: list[SearchHit] = field(default_factory=list)
    # The stems a snippet marks for this query (for `Searcher.with_snippets`).
    terms: frozenset[str] = field(default=frozenset(), repr=False)
    # A plain-English question (the learned stage ordered it): `unified.merge` lets rules lead.
    question: bool = field(default=False, repr=False)

    def to_dict(self) -> dict:
        """The answer as JSON-ready data (``terms`` and ``question`` are for the searcher and the
        merged list, not the reader)."""
        out = asdict(self)
        del out["terms"], out["question"]
        return out


_ESCAPE = str.maketrans({"&": "&amp;", "<": "&lt;", ">": "&gt;"})


_CONTROL = CONTROL


def clean_query(query: object) -> str:
    """The part of a query that is looked at: a string, control characters removed, capped."""
    if not isinstance(query, str):
        return ""
    return " ".join(_CONTROL.sub(" ", query[: MAX_QUERY * 4]).split())[:MAX_QUERY]


# ----------------------------------------------------------------------------------------------
# Typo correction against the document's own words
# ----------------------------------------------------------------------------------------------


def _deletes(word: str) -> set[str]:
    return {word[:i] + word[i + 1 :] for i in range(len(word))}


def _distance(a: str, b: str, limit: int) -> int:
    """Optimal-string-alignment distance (Levenshtein with transpositions), capped at limit+1."""
    if abs(len(a) - len(b)) > limit:
        return limit + 1
    prev2: list[int] | None = None
    prev = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        cur = [i] + [0] * len(b)
        for j, cb in enumerate(b, 1):
            cost = 0 if ca == cb else 1
            cur[j] = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost)
            if prev2 is not None and i > 1 and j > 1 and ca == b[j - 2] and a[i - 2] == cb:
                cur[j] = min(cur[j], prev2[j - 2] + 1)
        if min(cur) > limit:
            return limit + 1
        prev2, prev = prev, cur
    return prev[-1]


class _Speller:
    """Corrects a word that is not in the document to the most frequent word within edit
    distance 1 (2 for words of 8+ letters), using a deletion index built once. A word among
    ``known`` (`Searcher.surface_words`: every word the index holds, the bank's questions
    included) is no typo either: it is neither corrected nor offered spellings ("worked" is not
    "forked", the card), though corrections never lead to it. ``known`` is called the first time
    a word is not in the document (a query of the CR's own words never builds it)."""

    def __init__(self, words: Counter, known: Callable[[], Container[str]] = frozenset) -> None:
        self.freq = words
        self.known = known
        self.by_delete: dict[str, list[str]] = {}
        for word in words:
            if len(word) >= 4:
                for d in _deletes(word):
                    self.by_delete.setdefault(d, []).append(word)

    def _candidates(self, word: str, limit: int) -> list[tuple[int, int, str]]:
        """Known words within ``limit`` edits of ``word``, as (distance, -frequency, word), best first."""
        keys = {word} | _deletes(word)
        if limit == 2:
            keys |= {d2 for d in _deletes(word) for d2 in _deletes(d)}
        candidates = set(self.by_delete.get(word, ()))
        for key in keys:
            if key in self.freq:
                candidates.add(key)
            candidates.update(self.by_delete.get(key, ()))
        found = []
        for cand in candidates:
            dist = _distance(word, cand, limit)
            if dist <= limit and cand != word:
                found.append((dist, -self.freq[cand], cand))
        return sorted(found)

    def correct(self, word: str) -> str | None:
        if word in self.freq or len(word) < 4 or not word.isalpha() or word in self.known():
            return None
        found = self._candidates(word, 2 if len(word) >= 8 else 1)
        if found:
            return found[0][2]
        # A truncated or over-long word ("uniquenes"): the longest known word it starts with.
        for end in range(len(word) - 1, 4, -1):
            if word[:end] in self.freq:
                return word[:end]
        return None

    def suggest(self, word: str, limit: int = 3) -> list[str]:
        """Up to ``limit`` known words a word not in the document may have meant (2 edits)."""
        if word in self.freq or len(word) < 3 or not word.isalpha() or word in self.known():
            return []
        found = [cand for _, _, cand in self._candidates(word, 2) if len(cand) >= 3 and cand.isalpha()]
        return found[:limit]


# ----------------------------------------------------------------------------------------------
# Searching
# ----------------------------------------------------------------------------------------------


def ideal_score(impacts: Impacts, clauses) -> float:
    """The best BM25F score a query could reach in this index: for each distinct word (grouped by
    its stem, whatever field or analyzer it came through), the most any one of its clauses can
    give, ``idf x (K1 + 1) x boost`` (BM25's limit as the term frequency grows; Whoosh applies
    field boosts to the term frequency, so they change how fast a field saturates, not the
    limit), summed. A hit's score over this is the share of the query's evidence it carries,
    which puts the scores of different indexes (rules, judge items, cards) on one scale.
    ``clauses`` are ``(field, text, boost)``; phrases and absent terms add nothing."""
    best: dict[str, float] = {}
    for fname, text, boost in clauses:
        w = impacts.ideal(fname, text, boost)
        if w:
            key = _porter(text.lower())
            best[key] = max(best.get(key, 0.0), w)
    return sum(best.values())


def norm_of(score: float, ideal: float) -> float:
    """``score / ideal`` clamped to [0, 1] (0 when nothing could match)."""
    return round(min(1.0, max(0.0, score / ideal)), 4) if ideal > 0 else 0.0


class StaleIndexError(ValueError):
    """The index on disk was not built from this Document (or by this index format)."""


class Searcher:
    """Searches one built index. Opens it read-only; safe to share between threads."""

    def __init__(
        self,
        index_path: Path,
        doc: Document,
        word_vectors: bool | str = True,
        translation_path: Path = translation.TABLE_PATH,
        sentence_embeddings: bool = True,
    ) -> None:
        """``word_vectors`` False: rank questions without the word vectors (`rules_index.vectors`),
        with the lite model (`ranker.load(lite=True)`); ``"pack"``: rank them as the offline copy
        does, with the pack's small table and model (`vectors.load(pack=True)`,
        `ranker.load(pack=True)`, `pack_vectors`, and the pack's cut-down translation table).
        ``translation_path``: the word-translation table the full and pack models read
        (`rules_index.translation`). ``sentence_embeddings`` False: questions are ranked without
        the rules' sentence embeddings (`rules_index.embeddings`), as they are when the build
        has none or the encoder's package is missing (a searcher ranking as the offline copy
        does never reads them)."""
        self.index_path = Path(index_path)
        self.doc = doc
        self.pack = word_vectors == "pack"
        self.vectors = vectors.load(pack=self.pack) if word_vectors else None
        self._vecs: dict[str, tuple] = {}
        self._pack_rules: dict[str, np.ndarray] | None = None
        self._pool: tuple[list[str], np.ndarray] | None = None
        self.translation = translation.load(translation_path, pack=self.pack)
        self._bags: dict[str, tuple] = {}
        self._use_embeddings = sentence_embeddings and not self.pack
        self._embeddings: list[embeddings.RuleEmbeddings | None] = []  # loaded on first use
        meta_path = self.index_path / INDEX_META
        if meta_path.exists() and not index_is_current(doc, self.index_path):
            raise StaleIndexError(
                f"the search index at {self.index_path} was not built from CR {doc.version} "
                f"({doc.source_hash[:12]}) by this version of nrrules; rebuild it (nrrules build --force)"
            )
        self._ix = open_index(self.index_path, SCHEMA)
        self._local = threading.local()
        self._weighting = _FastBM25F()
        self._lock = threading.Lock()
        self._speller: _Speller | None = None
        self._cards: tuple[re.Pattern, dict[str, str]] | None = None
        self._cited_by: dict[str, list[str]] | None = None
        self._stem_docs: dict[str, frozenset[int]] = {}
        self._docnums: list[tuple[str, str]] | None = None
        self._stem_seqs: dict[str, tuple[str, ...]] = {}
        self._marks: dict[str, frozenset[str]] | None = None
        self._step_rules: dict[str, tuple[str, ...]] | None = None
        self._naming: frozenset[str] | None = None
        self._infos: dict[str, ranker.NodeInfo] = {}
        self._asked: dict[str, tuple[str, ...]] | None = None
        self._terms: frozenset[str] | None = None
        self._defined: dict[str, str] | None = None
        self._surface: dict[str, None] | None = None
        self._cites: dict[str, frozenset[str]] | None = None
        self._dfs: dict[tuple[str, str], int] = {}
        self._impacts = Impacts(lambda: self._searcher().reader(), B=BM25_B, K1=BM25_K1)
        self._doc_count = self._ix.doc_count()

    # ----- resources shared lazily ----------------------------------------------------------
    def _searcher(self):
        """This thread's Whoosh searcher (reopened after a fork)."""
        pid = os.getpid()
        cached = getattr(self._local, "searcher", None)
        if cached is None or cached[0] != pid:
            self._local.searcher = (pid, self._ix.searcher(weighting=self._weighting))
        return self._local.searcher[1]

    def warm(self) -> None:
        """Build now what the first searches would otherwise build (the spelling vocabulary,
        the words that are no typos, the card-name matcher, the back links, the
        document-number table, the rules answering each kind of question, and every rule's
        ranking inputs: `_info` and `_rule_vectors`, which a question otherwise makes for each
        of its ~50 candidates not seen before), so a server's first users wait no longer than
        the rest. Measured on CR 26.03 (busy 2-core machine): about 5 s of CPU and 27 MB more;
        the first questions then take 40-60 ms instead of 260-490 ms."""
        self._words()
        self.surface_words()
        self.rule_embeddings()
        if self.vectors is not None and not self.pack:
            self._pool_matrix()  # every rule's vectors, for the pool of a question
        self._card_matcher()
        self._backlinks()
        for intent in INTENT_BONUS:
            self.answering(intent)
        for node in _searchable(self.doc):
            self._info(node.id)
            if self.vectors is not None and not self.pack:
                self._rule_vectors(node.id)
        self.search("jack out", limit=1)
        self.search("how does the corp score an agenda", limit=1)  # a question: the learned stage

    def close(self) -> None:
        cached = getattr(self._local, "searcher", None)
        if cached is not None:
            cached[1].close()
            self._local.searcher = None

    def _words(self) -> _Speller:
        if self._speller is None:
            with self._lock:
                if self._speller is None:
                    counts: Counter = Counter()
                    tokenize = re.compile(_TOKEN).findall
                    for node in self.doc.nodes:
                        counts.update(w.lower() for w in tokenize(f"{node.title or ''} {node.text}"))
                        for card in node.cards:
                            counts.update(w.lower() for w in tokenize(card.name))
                    self._speller = _Speller(counts, self.surface_words)
        return self._speller

    def _card_matcher(self) -> tuple[re.Pattern, dict[str, str]]:
        """One regex over every card name the document mentions (and each name without a
        leading "The"), longest first, and the lowercased alias -> name table."""
        if self._cards is None:
            names = {c.name for n in self.doc.nodes for c in n.cards}
            aliases: dict[str, str] = {}
            for name in names:
                aliases.setdefault(" ".join(name.lower().split()), name)
                if name.lower().startswith("the ") and len(name) > 7:
                    aliases.setdefault(" ".join(name[4:].lower().split()), name)
            keys = sorted((a for a in aliases if len(a) >= 3), key=len, reverse=True)
            body = "|".join(re.escape(k).replace(r"\ ", r"\s+") for k in keys) or r"(?!x)x"
            self._cards = (re.compile(rf"(?<!\w)(?:{body})(?!\w)", re.IGNORECASE), aliases)
        return self._cards

    def _backlinks(self) -> dict[str, list[str]]:
        if self._cited_by is None:
            back: dict[str, list[str]] = {}
            for node in self.doc.nodes:
                owner = node
                while owner.kind == "example" and owner.parent and self.doc.node(owner.parent):
                    owner = self.doc.node(owner.parent)
                for ref in node.refs:
                    sources = back.setdefault(ref.target, [])
                    if owner.id not in sources and owner.id != ref.target:
                        sources.append(owner.id)
            self._cited_by = back
        return self._cited_by

    # ----- query building -------------------------------------------------------------------
    @staticmethod
    def _stems(text: str) -> list[str]:
        return [t.text for t in ANALYZER(text)]

    def analyze(self, query: str) -> dict:
        """How a query is read: the words kept, typo corrections, jargon and cards found."""
        text = clean_query(query)
        phrases = re.findall(r'"([^"]+)"', text)
        typed = text.replace('"', " ")
        # The question's framing ("how many", "count as") is not searched (`rules_index.question`).
        question = read_question(typed)
        text_no_quotes = question.text
        # Card names first: words inside a card name ("Archives Interface") are not jargon.
        pattern, aliases = self._card_matcher()
        jargon = find_jargon(pattern.sub(" | ", text_no_quotes))
        speller = self._words()
        corrected: dict[str, str] = {}
        words = []
        # Words of recognised jargon ("paws") and card names are not typos.
        known = {w.lower() for t, _ in jargon for w in re.findall(_TOKEN, t)}
        known |= {w.lower() for m in pattern.finditer(text_no_quotes) for w in re.findall(_TOKEN, m.group(0))}
        for raw in re.findall(_TOKEN, text_no_quotes):
            low = raw.lower()
            fix = speller.correct(low) if low not in _STOP and low not in known else None
            if fix:
                corrected[low] = fix
            words.append(fix or low)
        cards: list[str] = []
        for source in (typed, " ".join(words)):
            for m in pattern.finditer(source):
                name = aliases.get(" ".join(m.group(0).lower().split()))
                if name and name not in cards and len(cards) < 5:
                    cards.append(name)
        if corrected:
            # Jargon typed with a typo ("forced encouter") is still jargon.
            seen = {entry for _, entry in jargon}
            jargon += [(t, e) for t, e in find_jargon(pattern.sub(" | ", " ".join(words))) if e not in seen]
            rest, _ = expand(" ".join(words))
        else:
            rest, _ = expand(text_no_quotes)
        return {
            "query": text,
            # A card name is never jargon: "Exile" is a card, "RFG" is not.
            "only_jargon": bool(jargon) and not cards and not self._stems(rest),
            "words": words,
            "phrases": phrases,
            "corrections": corrected,
            "jargon": [{"text": t, "expansion": j.expansion, "rule": j.rule} for t, j in jargon],
            "cards": cards,
            "intent": question.intent,
            "asks": question.asks,
        }

    def build_query(self, query: str):
        """The Whoosh query for a free-text search (None if nothing searchable is left)."""
        return self._plan(query)[0]

    def _plan(self, query: str) -> tuple[object | None, frozenset[str], dict]:
        """(Whoosh query, stems to highlight). One flat Or of weighted terms and phrases: a flat
        union is several times faster in Whoosh than nested per-word groups."""
        info = self.analyze(query)
        stems = self._stems(" ".join(info["words"]))
        weights: dict[tuple[str, str], float] = {}
        # The words of a card name are answered by the card clause below; the question bank's
        # questions say "interface" of the icebreaker rules, not of "Archives Interface".
        card_stems = {stem for name in info["cards"] for stem in self._stems(name)}

        def add(field_name: str, stem: str, boost: float) -> None:
            if field_name == "asked" and stem in card_stems:
                return
            key = (field_name, stem)
            weights[key] = max(weights.get(key, 0.0), boost)

        # Very common words ("card", "runner") only rank, they do not select: BM25 gives them
        # little weight, scoring their long posting lists is most of the cost of a query, and
        # the coordination re-rank still counts them. Kept when the query has nothing else.
        rare = [stem for stem in stems if not self._is_common(stem)]
        for stem in rare or stems:
            for fname in TEXT_FIELDS:
                # Per field too: "run" is in the section titles of every rule of chapter 6.
                if fname == "text" or not self._is_common(stem, fname):
                    add(fname, stem, 1.0)
        phrases: list[Phrase] = []
        text_phrases: list[tuple[tuple[str, ...], float]] = []
        # Phrase bonus: the words in order (quoted phrases get extra weight).
        # Whole-query phrases only for short queries: a long question is never verbatim.
        for words, weight in [(stems, 1.0)] + [(self._stems(p), 2.0) for p in info["phrases"]]:
            if 2 <= len(words) <= MAX_PHRASE_WORDS or (weight > 1 and len(words) >= 2):
                phrases.extend(Phrase(f, words, slop=1, boost=b * weight) for f, b in PHRASE_FIELDS)
                text_phrases.append((tuple(words), weight))
        # Proximity: each pair of adjacent query words found adjacent in a rule's text (a long
        # question is never verbatim, but "break subroutines" in it is).
        if len(stems) > 2:
            pairs = list(dict.fromkeys(zip(stems, stems[1:], strict=False)))
            text_phrases.extend((pair, BIGRAM_BONUS / len(pairs)) for pair in pairs if pair[0] != pair[1])
        # Jargon: the CR's words for it, as a strong alternative.
        highlight_terms = set(stems)
        for item in info["jargon"]:
            exp = self._stems(item["expansion"])
            highlight_terms.update(exp)
            for stem in exp:
                for fname in TEXT_FIELDS:
                    # Common words of a longer expansion count through its phrase only.
                    if len(exp) == 1 or not self._is_common(stem, fname):
                        add(fname, stem, 2.0 if len(exp) == 1 else 0.6)
            if len(exp) >= 2:
                phrases.extend(Phrase(f, exp, slop=1, boost=b * 2.0) for f, b in PHRASE_FIELDS)
                text_phrases.append((tuple(exp), 2.0))
                # The rule that defines the expanded term is the one a judge means.
                phrases.append(Phrase("terms", exp, slop=0, boost=6.0))
            else:
                add("terms", exp[0], 6.0)
        # Card names: a rule mentioning the card (or whose examples do) is what the judge wants.
        for name in info["cards"]:
            tokens = [t.text for t in NAME_ANALYZER(name)]
            highlight_terms.update(self._stems(name))
            if len(tokens) == 1:
                add("cards", tokens[0], 6.0)
            elif tokens:
                phrases.append(Phrase("cards", tokens, boost=6.0))
        info["text_phrases"] = text_phrases
        info["phrase_clauses"] = phrases
        info["weights"] = weights
        # Only terms the index holds: a matcher for an absent term still costs its set-up.
        clauses = [Term(f, s, boost=b) for (f, s), b in weights.items() if self._df(f, s)] + phrases
        if not clauses:
            return None, frozenset(), info
        return (Or(clauses) if len(clauses) > 1 else clauses[0]), frozenset(highlight_terms), info

    # ----- public API -----------------------------------------------------------------------
    def search(self, query: str, limit: int = 10) -> list[SearchHit]:
        """Hits for a query, best first. Never raises for any query string."""
        return self._safe_search(query, limit, True)[0]

    def _safe_search(
        self, query: str, limit: int, snippets: bool
    ) -> tuple[list[SearchHit], frozenset[str], bool]:
        """(hits, stems to mark, whether the query is a plain-English question: one the learned
        stage orders, `ranker.applies`)."""
        try:
            return self._search(query, limit, snippets)
        except Exception:  # a search box must not fail; log it and answer with nothing
            log.exception("search failed for %r", query[:MAX_QUERY] if isinstance(query, str) else query)
            return [], frozenset(), False

    def search_result(self, query: str, limit: int = 10, snippets: bool = True) -> SearchResult:
        """`search`, and when it finds nothing, what it can offer: the nearest rule numbers for a
        number naming no rule ("6.9.4z"), spelling suggestions, and the top hits of a looser
        query. Never raises for any query string. With ``snippets`` False, the hits found by
        their words come without a snippet (``""``): a caller keeping only some of them (the
        merged list of every source) makes theirs with `with_snippets`."""
        text = clean_query(query)
        hits, terms, question = self._safe_search(query, limit, snippets)
        result = SearchResult(query=text, hits=hits, terms=terms, question=question)
        if result.hits or not text:
            return result
        try:
            self._offer(result, limit)
        except Exception:  # offers are a courtesy: never fail the search for them
            log.exception("search offers failed for %r", text)
        return result

    def _offer(self, result: SearchResult, limit: int) -> None:
        text = result.query
        if parse_query(text) is not None:
            numbers = number_index(self.doc)
            for label in lookup(self.doc, text).suggestions:
                node = numbers.get(label) or self.doc.node(label)
                if node is not None:
                    result.nearest.append({"id": node.id, "number": node.number, "title": node.title})
            return
        speller = self._words()
        words = [w.lower() for w in re.findall(_TOKEN, text.replace('"', " "))]
        fixed = []
        for word in words:
            options = speller.suggest(word) if word not in _STOP else []
            if options:
                result.spelling.append({"word": word, "suggestions": options})
            fixed.append(options[0] if options else word)
        if result.spelling:
            result.did_you_mean = " ".join(fixed)
        # Looser: every word (and every suggestion) fuzzily or as a prefix, in the title and text.
        stems = dict.fromkeys(
            t
            for w in fixed + [o for item in result.spelling for o in item["suggestions"]]
            for t in self._stems(w)
        )
        clauses = []
        for stem in stems:
            if len(stem) < 3:
                continue
            for fname in ("title", "text"):
                clauses.append(FuzzyTerm(fname, stem, maxdist=2 if len(stem) >= 5 else 1, prefixlength=1))
                clauses.append(Prefix(fname, stem))
        if not clauses:
            return
        searcher = self._searcher()
        by_docnum = self._by_docnum(searcher)
        for docnum, score in searcher.search(Or(clauses), limit=limit).items():
            node_id = by_docnum[docnum][0] if by_docnum else searcher.stored_fields(docnum)["id"]
            node = self.doc.node(node_id)
            if node is not None:
                result.looser.append(self._hit(node, round(float(score), 4), frozenset(stems), "looser"))

    def with_snippets(self, hits: list, terms: frozenset[str]) -> None:
        """Give the rule hits of ``hits`` left without a snippet (``search_result(...,
        snippets=False)``) theirs, with ``terms`` (`SearchResult.terms`) marked."""
        for hit in hits:
            if getattr(hit, "source", None) == "rules" and not hit.snippet:
                node = self.doc.node(hit.id)
                if node is not None:
                    hit.snippet = self.snippet(node, terms)

    def _search(
        self, query: str, limit: int, snippets: bool = True
    ) -> tuple[list[SearchHit], frozenset[str], bool]:
        text = clean_query(query)
        try:
            limit = max(1, min(int(limit), MAX_LIMIT))
        except (TypeError, ValueError):
            limit = 10
        if not text:
            return [], frozenset(), False
        ref = parse_query(text)
        if ref is not None:
            found = lookup(self.doc, text)
            if found.node is not None:
                return self._exact_hits(found.node, text, limit), frozenset(), False
            if ref.kind == "number":
                # "6.9.9" names no rule; its digits would only match noise. `lookup` gives the
                # error and the nearest numbers.
                return [], frozenset(), False
        q, highlight_terms, info = self._plan(text)
        if q is None:
            return [], frozenset(), False
        marked = highlight_terms if snippets else None
        hits: list[SearchHit] = []
        if info["only_jargon"]:
            # The query is nothing but jargon ("PAW"): the curated table names the rule meant.
            for item in info["jargon"]:
                node = self.doc.node(item["rule"])
                if node is not None and all(h.id != node.id for h in hits):
                    hits.append(self._hit(node, 500.0, marked, "jargon", norm=1.0))
        # optimize=False: on an index this small, block-quality skipping costs more than it saves.
        query_stems = self._word_groups(info)
        terms = [(f, t, b) for (f, t), b in info["weights"].items()]
        learned = ranker.applies(
            query_stems, info["cards"], info["only_jargon"], self._names_term(info), info["asks"]
        )
        ranked = self._rank(
            terms,
            info["phrase_clauses"],
            query_stems,
            limit,
            info["text_phrases"],
            info["intent"],
            self._pairs(info) if learned else None,
            text=text,
        )
        ideal = ideal_score(self._impacts, terms)
        for node_id, score in ranked:
            node = self.doc.node(node_id)
            if node is None or any(h.id == node.id for h in hits):
                continue
            hits.append(self._hit(node, round(score, 4), marked, "text", norm=norm_of(score, ideal)))
        return hits[:limit], highlight_terms, learned

    def rank_inputs(self, query: str) -> tuple[list[str], list[list[float]]] | None:
        """The learned stage's inputs for a query (`rules_index.ranker`): the ids of the
        candidates it would order, best first by the hand-written ranking, and their feature
        vectors; None when it does not apply to the query. For ``bench/train_ranker.py``."""
        text = clean_query(query)
        if not text or parse_query(text) is not None:
            return None
        q, _, info = self._plan(text)
        if q is None:
            return None
        groups = self._word_groups(info)
        if not ranker.applies(
            groups, info["cards"], info["only_jargon"], self._names_term(info), info["asks"]
        ):
            return None
        terms = [(f, t, b) for (f, t), b in info["weights"].items()]
        inputs: list = []
        self._rank(
            terms,
            info["phrase_clauses"],
            groups,
            ranker.DEPTH,
            info["text_phrases"],
            info["intent"],
            self._pairs(info),
            inputs,
            text=text,
        )
        return inputs[0] if inputs else None

    def _names_term(self, info: dict) -> bool:
        """Whether the query's words are exactly a term some rule defines ("paid ability
        window", typos corrected)."""
        if self._terms is None:
            self._terms = frozenset(
                " ".join(self._stems(term)) for n in _searchable(self.doc) for term in n.terms
            )
        return " ".join(self._stems(" ".join(info["words"]))) in self._terms

    def defining(self, term: str) -> Node | None:
        """The rule that defines ``term`` (a term a rule's text sets in bold, `Node.terms`; the
        first in document order when several do), forgiving case and a plural ("virus
        counter", "paid abilities" find theirs); None when no rule defines it."""
        if self._defined is None:
            table: dict[str, str] = {}
            for node in _searchable(self.doc):
                for t in node.terms:
                    table.setdefault(" ".join(t.lower().split()), node.id)
            self._defined = table
        key = " ".join(term.lower().split())
        forms = [
            key,
            key + "s",
            key[:-1] if key.endswith("s") else "",
            key[:-3] + "y" if key.endswith("ies") else "",
        ]
        forms += [key[:-3] + "ies" if key.endswith("y") else ""]
        found = next((self._defined[f] for f in forms if f and f in self._defined), None)
        return self.doc.node(found) if found else None

    def defines(self, text: str) -> bool:
        """Whether ``text`` is a term some rule defines ("Checkpoint": a card and a CR term)."""
        return self._names_term({"words": [w.lower() for w in re.findall(_TOKEN, text)]})

    def _pairs(self, info: dict) -> list[tuple[str, str]]:
        """Adjacent pairs of the query's distinct stems (the ranker's proximity feature)."""
        stems = list(dict.fromkeys(self._stems(" ".join(info["words"]))))
        return [(a, b) for a, b in zip(stems, stems[1:], strict=False) if a != b]

    def _word_groups(self, info: dict) -> list[frozenset[str]]:
        """The query's distinct words for coordination, as groups of stems: a word inside a
        jargon or everyday phrase is matched by the CR's words for it too ("unused" by
        "unspent", "active" by "inactive")."""
        stems = list(dict.fromkeys(self._stems(" ".join(info["words"]))))
        if not COORD_GROUPS:
            return [frozenset((s,)) for s in stems]
        alternatives: dict[str, set[str]] = {}
        for item in info["jargon"]:
            exp = set(self._stems(item["expansion"]))
            for stem in self._stems(item["text"]):
                alternatives.setdefault(stem, set()).update(exp)
        return [frozenset({s} | alternatives.get(s, set())) for s in stems]

    def _rank(
        self,
        terms: list[tuple[str, str, float]],
        phrases: list,
        query_stems: list[frozenset[str]],
        limit: int,
        text_phrases: list[tuple[tuple[str, ...], float]] = (),
        intent: str | None = None,
        pairs: list[tuple[str, str]] | None = None,
        inputs: list | None = None,
        text: str = "",
    ) -> list[tuple[str, float]]:
        """BM25F hits, re-ranked: among the top candidates, a rule matching more of the distinct
        query words beats one matching a single word many times (coordination), a rule whose
        text has the query's words in order gets a phrase bonus, kind priors apply, and a rule
        answering the question's intent (`answering`) gets its bonus; then a timing step near
        the top makes way for the rule explaining it (`_explain_steps`). With ``pairs`` (a
        question-like query), the learned stage then orders the top candidates (`_learned`);
        with ``inputs`` too, its inputs are appended there instead (training); ``text``, the
        query as typed, gives its word vector (`rules_index.vectors`)."""
        coord = len(query_stems) >= 2 and COORD > 0
        having = (
            [frozenset().union(*(self._docs_with(s) for s in group)) for group in query_stems]
            if coord
            else []
        )
        answering = self.answering(intent) if intent is not None else frozenset()
        by_docnum = self._by_docnum(self._searcher())
        naming = self._naming_rules() if coord and NAME_COORD > 0 else frozenset()
        out = []
        raw: dict[str, float] = {}
        for docnum, raw_score in self.candidates(terms, phrases, max(limit, RERANK_DEPTH)):
            if by_docnum is not None:
                node_id, kind = by_docnum[docnum]
            else:
                fields = self._searcher().stored_fields(docnum)
                node_id, kind = fields["id"], fields.get("kind")
            score = raw_score * PRIORS.get(kind, 1.0)
            if coord:
                share = sum(1 for docs in having if docnum in docs) / len(having)
                score *= share**COORD
            if text_phrases:
                seq = self._text_stems(node_id)
                bonus = sum(w for phrase, w in text_phrases if _contains(seq, phrase))
                score *= 1.0 + TEXT_PHRASE_BONUS * bonus
            if intent is not None and node_id in answering:
                score *= 1.0 + INTENT_BONUS[intent]
            if coord and node_id in naming:
                own = set(self._text_stems(node_id))
                score *= (sum(1 for group in query_stems if group & own) / len(query_stems)) ** NAME_COORD
            out.append((node_id, score))
            raw[node_id] = raw_score
        out.sort(key=lambda pair: -pair[1])
        out = self._explain_steps(out)
        if pairs is not None and len(out) > 1:
            out = self._learned(
                out, raw, query_stems, pairs, answering if intent else frozenset(), inputs, text
            )
        by_model = pairs is not None and self._embed_model() is not None
        fuse = not by_model or embeddings.FUSE_AFTER_MODEL
        if fuse and inputs is None and text and len(out) > 1 and len(query_stems) >= MEANING_GROUPS:
            # a query of several words, a question or one naming a card: the order by meaning
            # fused in (`rules_index.embeddings`); shorter ones are left to the words
            meaning = self.rule_embeddings()
            if meaning is not None:
                out = meaning.fuse(out, text)
        return out[:limit]

    def use_embeddings(self, on: bool) -> None:
        """Rank questions with the rules' sentence embeddings or not (an ablation for
        ``bench/embedding_stages.py``); read again on next use."""
        with self._lock:
            self._use_embeddings = on and not self.pack
            self._embeddings.clear()

    def _embed_model(self) -> ranker.Model | None:
        """The learned model reading the sentence encoder's cosines too (`ranker.load(embed=True)`),
        when this searcher ranks with word vectors and its build has the rules' embeddings."""
        if self.pack or self.vectors is None or self.rule_embeddings() is None:
            return None
        return ranker.load(embed=True)

    def rule_embeddings(self) -> embeddings.RuleEmbeddings | None:
        """The build's sentence embeddings of the rules (`rules_index.embeddings`), read once;
        None without them (not built, another model, the encoder missing, or turned off)."""
        if not self._embeddings:
            with self._lock:
                if not self._embeddings:
                    found = None
                    if self._use_embeddings:
                        found = embeddings.load_rules(self.index_path, [n.id for n in _searchable(self.doc)])
                    self._embeddings.append(found)
        return self._embeddings[0]

    def _learned(
        self,
        out: list[tuple[str, float]],
        raw: dict[str, float],
        groups: list[frozenset[str]],
        pairs: list[tuple[str, str]],
        answering: frozenset[str],
        inputs: list | None,
        text: str = "",
    ) -> list[tuple[str, float]]:
        """The top `ranker.DEPTH` candidates in the learned model's order (`rules_index.ranker`),
        carrying the same score values in that order; the rest after them, unchanged."""
        model = ranker.load(lite=self.vectors is None, pack=self.pack)
        meaning = self.rule_embeddings() if text else None  # never for the pack (`use_embeddings`)
        if inputs is None and self._embed_model() is not None:
            model = self._embed_model()  # the sentence encoder's cosines too
        if model is None and self.pack:
            model = ranker.load(lite=True)  # as the pack falls back (`offline.build_pack`)
        if model is None and inputs is None:
            return out
        head = out[: ranker.DEPTH]
        query = self.query_vector(text)
        if query is not None and (inputs is not None or model.names != ranker.LITE_FEATURES):
            near = self._vector_pool(query, {i for i, _ in head}, model)
            if near:
                head = head + [(i, 0.0) for i in near]
                out = head + [pair for pair in out[ranker.DEPTH :] if pair[0] not in near]
        ids = [i for i, _ in head]
        candidates = [(self._info(i), s, raw.get(i, 0.0), i in answering) for i, s in head]
        n = max(1, self._doc_count)
        idfs = [max(ln(n / (1 + len(self._docs_with(s)))) for s in g) for g in groups]
        sims = self._similarities(query, ids) if inputs is not None or not self.pack else None
        full = inputs is not None or (
            model is not None
            and model.names in (ranker.FEATURES, ranker.PACK_FEATURES, ranker.EMBED_MODEL_FEATURES)
        )
        embedded = None
        if meaning is not None and (inputs is not None or model.names == ranker.EMBED_MODEL_FEATURES):
            embedded = meaning.cosines(text, ids)
        rows = ranker.features(
            groups, pairs, candidates, idfs, sims, self._translations(text, ids) if full else None, embedded
        )
        if inputs is not None:
            inputs.append((ids, rows))
            return out
        if self.pack and self.vectors is not None and model.names == ranker.PACK_FEATURES:
            scores = self._pack_scores(model, rows, ids, query)
        else:
            scores = [model.score(r) for r in rows]
        order = sorted(range(len(head)), key=lambda k: (-scores[k], k))
        return ranker.reorder([head[k] for k in order], [s for _, s in head]) + out[len(head) :]

    def query_vector(self, text: str) -> np.ndarray | None:
        """The query's vector by this searcher's word-vector table (`vectors.Table.embed`); None
        without a table or when it knows none of the words."""
        return self.vectors.embed(vectors.stems(text)) if self.vectors is not None else None

    def _vector_pool(self, query: np.ndarray | None, have: set[str], model: ranker.Model | None) -> list[str]:
        """The `ranker.VECTOR_POOL` rules nearest the ``query`` vector that are not in
        ``have`` (the first stage's pool), nearest first: by the text's vector and the mean of
        the rule's questions (`ranker.POOL_MIX`), or, ranking as the offline copy does, by the
        pack's rule vectors (`pack_vectors`, as offline-search.js ``vectorPool``)."""
        if query is None or ranker.VECTOR_POOL <= 0:
            return []
        if self.pack:
            if model is None or model.names != ranker.PACK_FEATURES:
                return []
            ids, matrix = self._pack_matrix(model)
        else:
            ids, matrix = self._pool_matrix()
        if not ids:
            return []
        # nearest first, ties by position (a stable sort), as the browser orders them
        order = np.argsort(-(matrix @ query), kind="stable")
        near: list[str] = []
        for k in order:
            if ids[k] not in have:
                near.append(ids[k])
                if len(near) == ranker.VECTOR_POOL:
                    break
        return near

    def _pool_key(self, ids: list[str]) -> dict:
        return {
            "vectors": self.vectors.digest,
            "mix": ranker.POOL_MIX,
            "rules": len(ids),
            "dim": self.vectors.dim,
        }

    def save_pool(self) -> None:
        """Write `_pool_matrix` beside the index (a build does: `store._write_version`), so that a searcher
        opening it reads the matrix instead of embedding every rule and its questions on its
        first question (about a second of CPU)."""
        if self.vectors is None or self.pack:
            return
        ids, matrix = self._pool_matrix()
        with open(self.index_path / POOL_FILE, "wb") as f:
            np.save(f, matrix, allow_pickle=False)
        (self.index_path / POOL_META).write_text(json.dumps(self._pool_key(ids)), encoding="utf-8")

    def _saved_pool(self, ids: list[str]) -> np.ndarray | None:
        """The matrix `save_pool` wrote, if it was made for these rules with this table."""
        try:
            if json.loads((self.index_path / POOL_META).read_text(encoding="utf-8")) != self._pool_key(ids):
                return None
            matrix = np.load(self.index_path / POOL_FILE, allow_pickle=False)
        except (OSError, ValueError):
            return None
        ok = matrix.dtype == np.float32 and matrix.shape == (len(ids), self.vectors.dim)
        return matrix if ok else None

    def _pool_matrix(self) -> tuple[list[str], np.ndarray]:
        """Every searchable rule's id and its pool vector (`_vector_pool`), read from the
        index's `POOL_FILE` or made once (a searcher ranking as the offline copy does keeps
        `_pack_matrix` there instead)."""
        if self._pool is None:
            ids = [n.id for n in _searchable(self.doc)]
            saved = self._saved_pool(ids)
            if saved is not None:
                self._pool = (ids, saved)
                return self._pool
            mix = ranker.POOL_MIX
            matrix = np.array(
                [mix * own + (1 - mix) * mean for own, _, mean in self._each_rule_vectors(ids)],
                dtype=np.float32,
            )
            self._pool = (ids, matrix.reshape(len(ids), self.vectors.dim))
        return self._pool

    def _pack_matrix(self, model: ranker.Model) -> tuple[list[str], np.ndarray]:
        """The pack's rule vectors (`pack_vectors`) decoded, as the offline copy reads them: each
        id with its vector, the pack model's two vector weights folded in; made once."""
        if self._pack_rules is None:
            made = self.pack_vectors(model)
            self._pack_rules = (
                {}
                if made is None
                else {i: c.astype(np.float32) * made[1] for i, c in zip(made[0], made[2], strict=True)}
            )
        if self._pool is None:
            ids = list(self._pack_rules)
            matrix = np.array([self._pack_rules[i] for i in ids], dtype=np.float32)
            self._pool = (ids, matrix.reshape(len(ids), self.vectors.dim))
        return self._pool

    def _pack_scores(
        self, model: ranker.Model, rows: list[list[float]], ids: list[str], query: np.ndarray | None
    ) -> list[float]:
        """The offline copy's scores (offline-search.js sums them the same way): the lite
        features' weighted sum, plus the query's vector by the pack's table dotted with the
        rule's pack vector (`pack_vectors`: the two vector features' weights folded in), plus
        the translation features' weighted sum."""
        width = len(ranker.LITE_FEATURES)
        lite = ranker.Model(model.names[:width], model.weights[:width])  # sums only the lite features
        translated = ranker.Model(
            ranker.TRANSLATION_FEATURES,
            model.weights[width + len(ranker.PACK_VECTOR_FEATURES) :],
        )
        columns = [ranker.FEATURES.index(name) for name in ranker.TRANSLATION_FEATURES]
        self._pack_matrix(model)
        zero = np.zeros(self.vectors.dim, dtype=np.float32)
        out = []
        for row, node_id in zip(rows, ids, strict=True):
            extra = float(self._pack_rules.get(node_id, zero) @ query) if query is not None else 0.0
            out.append(lite.score(row) + extra + translated.score([row[k] for k in columns]))
        return out

    def pack_vectors(
        self, model: ranker.Model | None = None
    ) -> tuple[list[str], np.ndarray, np.ndarray] | None:
        """The offline pack's rule vectors: for every searchable rule (in `_searchable` order),
        the pack model's two vector weights times the rule's text vector and its questions' mean
        vector by the small table, summed, coded int8 (`vectors.quantize`): (ids, scale, codes).
        None without the small table or the pack model."""
        model = model or ranker.load(pack=True)
        if not self.pack or self.vectors is None or model is None:
            return None
        width = len(ranker.LITE_FEATURES)
        w_text, w_mean = model.weights[width], model.weights[width + 1]
        ids = [n.id for n in _searchable(self.doc)]
        matrix = np.array(
            [w_text * own + w_mean * mean for own, _, mean in self._each_rule_vectors(ids)],
            dtype=np.float32,
        ).reshape(len(ids), self.vectors.dim)
        scale, codes = vectors.quantize(matrix)
        return ids, scale, codes

    def _similarities(
        self, query: np.ndarray | None, ids: list[str]
    ) -> list[tuple[float, float, float]] | None:
        """Each rule's cosines with the ``query`` vector (`query_vector`): with its text, its
        nearest question in the bank and the mean of its questions; None without vectors."""
        if self.vectors is None:
            return None
        if query is None:
            return [(0.0, 0.0, 0.0)] * len(ids)
        out = []
        for node_id in ids:
            own, asked, mean = self._rule_vectors(node_id)
            best = float((asked @ query).max()) if len(asked) else 0.0
            out.append((float(own @ query), best, float(mean @ query)))
        return out

    def _translations(self, text: str, ids: list[str]) -> list[tuple[float, float, float]] | None:
        """Each rule's scores by the translation table (`rules_index.translation`) for the query
        ``text``: against its title and text, its section titles, and both; None without a
        table (a missing or damaged file: search goes on without it)."""
        table = self.translation
        if table is None:
            return None
        bags = [self._translation_bags(table, i) for i in ids]
        flat = table.scores(self._stems(text), [b[k] for k in range(3) for b in bags])
        n = len(ids)
        return list(zip(flat[:n], flat[n : 2 * n], flat[2 * n :], strict=True))

    def _translation_bags(self, table: translation.Table, node_id: str) -> tuple:
        """A rule's three word bags for the table (`Table.bag`), made once."""
        got = self._bags.get(node_id)
        if got is None:
            text, titles = translation_words(self.doc, self.doc.node(node_id))
            got = (table.bag(text), table.bag(titles), table.bag(text + titles))
            self._bags[node_id] = got
        return got

    def _rule_vectors(self, node_id: str) -> tuple:
        """A rule's text vector, its questions' vectors and their normalised mean, made once."""
        got = self._vecs.get(node_id)
        if got is None:
            got = self._vecs[node_id] = self._embed_rule(node_id)
        return got

    def _each_rule_vectors(self, ids: list[str]) -> Iterator[tuple]:
        """`_rule_vectors` of each rule, those not made yet made and not kept (every rule's
        questions' vectors would hold ~8 MB; a rule's are kept when it is a candidate)."""
        return (self._vecs.get(i) or self._embed_rule(i) for i in ids)

    def _embed_rule(self, node_id: str) -> tuple:
        """A rule's text vector, its questions' vectors and their normalised mean."""
        table = self.vectors
        node = self.doc.node(node_id)
        text = table.embed_all([vectors.stems(vectors.rule_text(node))])[0]
        asked = table.embed_all(vectors.stems(q) for q in self.asked(node_id))
        mean = asked.sum(0) if len(asked) else np.zeros(table.dim, dtype=np.float32)
        norm = float(np.linalg.norm(mean))
        return text, asked, mean / norm if norm > 0 else mean

    def _info(self, node_id: str) -> ranker.NodeInfo:
        """What the ranker's features read about a rule, built once per rule."""
        info = self._infos.get(node_id)
        if info is None:
            node = self.doc.node(node_id)
            seq = self._text_stems(node_id)
            examples = [e for e in (self.doc.node(x) for x in node.examples) if e is not None]
            fields = (
                frozenset(seq),
                frozenset(self._stems(node.title or "")),
                frozenset(self._stems("\n".join(node.terms))),
                frozenset(self._stems(" ".join(a.title for a in self.doc.ancestors(node_id) if a.title))),
                frozenset(self._stems("\n".join(e.text for e in examples))),
                frozenset(self._stems(ranker.id_words(node_id))),
            )
            asked = tuple(frozenset(self._stems(q)) for q in self.asked(node_id))
            fields = (*fields, frozenset().union(*asked))
            info = ranker.NodeInfo(
                id=node_id,
                kind=node.kind,
                parent=node.parent,
                depth=ranker.number_depth(node.number),
                seq=seq,
                bigrams=frozenset(zip(seq, seq[1:], strict=False)),
                fields=fields,
                cites=self._cited_by_rule().get(node_id, frozenset()),
                indegree=len(self._backlinks().get(node_id, ())),
                naming=node_id in self._naming_rules(),
                asked=tuple(q for q in asked if q),
            )
            self._infos[node_id] = info
        return info

    def surface_words(self) -> dict[str, None]:
        """Every word (lowercased, in first-seen order) of what the index holds about the rules:
        titles, text, defined terms, examples and the question bank's questions. Such a word is
        never a typo ("worked" is not "forked", the card); the offline pack maps these words to
        their stems (`rules_index.offline`)."""
        if self._surface is None:
            tokenize = re.compile(_TOKEN).findall
            seen: dict[str, None] = {}
            for n in _searchable(self.doc):
                examples = [self.doc.node(e) for e in n.examples]
                parts = [n.title or "", n.text, *n.terms, *(e.text for e in examples if e), *self.asked(n.id)]
                for part in parts:
                    seen.update(dict.fromkeys(raw.lower() for raw in tokenize(part)))
            self._surface = seen
        return self._surface

    def asked(self, node_id: str) -> tuple[str, ...]:
        """The question bank's questions for a rule, as this index holds them (`build_index`)."""
        if self._asked is None:
            reader = self._searcher().reader()
            table: dict[str, tuple[str, ...]] = {}
            for _, stored in reader.iter_docs():
                text = stored.get("asked")
                if text:
                    table[stored["id"]] = tuple(text.split("\n"))
            self._asked = table
        return self._asked.get(node_id, ())

    def _cited_by_rule(self) -> dict[str, frozenset[str]]:
        """Rule id -> the ids it (or one of its examples) cites: the back links turned around."""
        if self._cites is None:
            forward: dict[str, set[str]] = {}
            for target, sources in self._backlinks().items():
                for source in sources:
                    forward.setdefault(source, set()).add(target)
            self._cites = {k: frozenset(v) for k, v in forward.items()}
        return self._cites

    def _explain_steps(self, out: list[tuple[str, float]]) -> list[tuple[str, float]]:
        """A timing step among the first hits only narrates; the rule that explains it (a rule
        citing the step) is what a judge reads. When such a rule is among the candidates with a
        fair share of the step's score, it goes just above the step."""
        if not out:
            return out
        scores = dict(out)
        explainers = self._explainers()
        changed = False
        for node_id, score in out[:STEP_TOP]:
            for rule_id in explainers.get(node_id, ()):
                own = scores.get(rule_id)
                if own is not None and STEP_SHARE * score <= own < score:
                    scores[rule_id] = score * 1.0001
                    changed = True
        if not changed:
            return out
        return sorted(scores.items(), key=lambda pair: -pair[1])

    def _naming_rules(self) -> frozenset[str]:
        """Ids of the rules whose text only gives something its name (`NAME_RULE`), built once."""
        if self._naming is None:
            self._naming = frozenset(n.id for n in _searchable(self.doc) if NAME_RULE.match(n.text))
        return self._naming

    def _explainers(self) -> dict[str, tuple[str, ...]]:
        """Step id -> the rules citing it (the rules that explain what the step narrates),
        built once. (Rules defining a term the step uses were tried too: no gain on
        bench/relevance_tuning.json.)"""
        if self._step_rules is None:
            back = self._backlinks()
            table: dict[str, tuple[str, ...]] = {}
            for node in _searchable(self.doc):
                if node.kind in STEP_KINDS:
                    rules = tuple(
                        r
                        for r in back.get(node.id, ())
                        if (n := self.doc.node(r)) and n.kind not in STEP_KINDS
                    )
                    if rules:
                        table[node.id] = rules
            self._step_rules = table
        return self._step_rules

    def candidates(
        self, terms: list[tuple[str, str, float]], phrases: list, depth: int
    ) -> list[tuple[int, float]]:
        """The ``depth`` best (document number, BM25F score) of the union of ``terms``
        (``(field, stem, boost)``, scored from `impact.Impacts`) and ``phrases`` (Whoosh
        ``Phrase`` queries, scored by Whoosh and added): the scores and order of Whoosh's own
        ``Or`` of the same clauses (`tests/test_search_matcher.py`)."""
        scores = self._impacts.scores(terms)
        if phrases:
            searcher = self._searcher()
            context = searcher.context()
            for phrase in phrases:
                m = phrase.matcher(searcher, context)
                while m.is_active():
                    doc = m.id()
                    scores[doc] = scores.get(doc, 0.0) + m.score()
                    m.next()
        return top(scores, depth)

    def answering(self, intent: str) -> frozenset[str]:
        """Ids of the rules whose text answers a question's intent (`question.marks`: a rule
        stating a number for "how many", a permission or duty for "can ..."), built once."""
        if self._marks is None:
            table: dict[str, set[str]] = {name: set() for name in INTENT_BONUS}
            for node in _searchable(self.doc):
                for name in question_marks(node.text):
                    table.setdefault(name, set()).add(node.id)
            self._marks = {name: frozenset(ids) for name, ids in table.items()}
        return self._marks.get(intent, frozenset())

    def _text_stems(self, node_id: str) -> tuple[str, ...]:
        """The analysed words of a rule's text, in order (cached)."""
        seq = self._stem_seqs.get(node_id)
        if seq is None:
            node = self.doc.node(node_id)
            seq = tuple(self._stems(node.text)) if node is not None else ()
            self._stem_seqs[node_id] = seq
        return seq

    def _by_docnum(self, searcher) -> list[tuple[str, str]] | None:
        """(id, kind) by document number, without reading stored fields: `build_index` adds
        the searchable nodes in document order in one segment. None if that does not hold."""
        if self._docnums is None:
            nodes = _searchable(self.doc)
            reader = searcher.reader()
            ok = reader.doc_count_all() == len(nodes) and all(
                reader.stored_fields(i)["id"] == nodes[i].id for i in (0, len(nodes) // 2, len(nodes) - 1)
            )
            self._docnums = [(n.id, n.kind) for n in nodes] if ok else []
        return self._docnums or None

    def _df(self, field_name: str, stem: str) -> int:
        """Document frequency of a stem in a field (cached: the index is read-only)."""
        key = (field_name, stem)
        df = self._dfs.get(key)
        if df is None:
            df = self._searcher().reader().doc_frequency(field_name, stem)
            if len(self._dfs) > 50000:
                self._dfs.clear()
            self._dfs[key] = df
        return df

    def _is_common(self, stem: str, field_name: str = "text") -> bool:
        share = FIELD_COMMON_SHARE.get(field_name, COMMON_SHARE)
        return self._df(field_name, stem) > share * max(1, self._doc_count)

    def _docs_with(self, stem: str) -> frozenset[int]:
        """Document numbers containing a stem in any searched field (cached: the index is
        read-only, so document numbers never change)."""
        docs = self._stem_docs.get(stem)
        if docs is None:
            docs = frozenset(d for fname in TEXT_FIELDS for d in self._impacts.docs(fname, stem))
            if len(self._stem_docs) > 20000:
                self._stem_docs.clear()
            self._stem_docs[stem] = docs
        return docs

    def _exact_hits(self, node: Node, text: str, limit: int) -> list[SearchHit]:
        hits = [self._hit(node, 1000.0, frozenset(), "exact", norm=1.0)]
        for source_id in self._backlinks().get(node.id, []):
            if len(hits) >= limit:
                break
            source = self.doc.node(source_id)
            if source is not None:
                hits.append(self._hit(source, 0.0, frozenset(), "cites"))
        return hits[:limit]

    def _hit(
        self, node: Node, score: float, terms: frozenset[str] | None, match: str, norm: float = 0.0
    ) -> SearchHit:
        """A hit; ``terms`` None: no snippet yet (`with_snippets` makes it)."""
        return SearchHit(
            id=node.id,
            number=node.number,
            title=node.title,
            kind=node.kind,
            snippet="" if terms is None else self.snippet(node, terms),
            breadcrumb=[
                {"id": a.id, "number": a.number, "title": a.title} for a in self.doc.ancestors(node.id)
            ],
            score=score,
            match=match,
            norm=norm,
        )

    def snippet(self, node: Node, terms: frozenset[str]) -> str:
        """Escaped text of the rule (or of its first example with a match), with the words
        whose stems were searched for in <mark>; long texts are cut to a window around the
        first match."""
        sources = [node.text] + [e.text for e in (self.doc.node(x) for x in node.examples) if e is not None]
        if terms:
            for source in sources:
                stems, offsets = _stems(source)
                spans = [
                    (offsets[2 * i], offsets[2 * i + 1]) for i, stem in enumerate(stems) if stem in terms
                ]
                if spans:
                    return _mark(source, spans)
        base = next((s for s in sources if s), node.title or "")
        return _mark(base, [])


def _contains(seq: tuple[str, ...], phrase: tuple[str, ...]) -> bool:
    """True if ``phrase`` occurs in ``seq`` as consecutive items."""
    n = len(phrase)
    first = phrase[0]
    for i in range(len(seq) - n + 1):
        if seq[i] == first and seq[i : i + n] == phrase:
            return True
    return False


_WORD = re.compile(_TOKEN)
SNIPPET_CHARS = 260


@memo("search.snippet_stems")
def _stem_of(word: str) -> str | None:
    """The indexed form of one word (None for a stop word), as the analyzer makes it."""
    tokens = [t.text for t in ANALYZER(word)]
    return tokens[0] if len(tokens) == 1 else None


@memo("search.text_stems")
def _stems(text: str) -> tuple[tuple[str | None, ...], array]:
    """The indexed form of each word of a rule's (or example's) text, and the words' start and
    end offsets (flat): made once per text, not once per search that shows it. About 1 KB a
    rule (a version has about 1,700 texts), so the 2,048 kept stay under 3 MB."""
    stems, offsets = [], array("i")
    for m in _WORD.finditer(text):
        stems.append(_stem_of(m.group(0)))
        offsets.extend(m.span())
    return tuple(stems), offsets


def word_window(text: str, at: int, width: int, before: int) -> tuple[int, int]:
    """The start and end of a window of at most `width` characters of `text` that begins about
    `before` characters ahead of offset `at`, both cut at word boundaries (the whole text if it
    fits): how every snippet is cut."""
    if len(text) <= width:
        return 0, len(text)
    start = max(0, at - before)
    if start:
        space = text.find(" ", start)
        start = space + 1 if 0 <= space < at else start
    end = min(len(text), start + width)
    if end < len(text):
        space = text.rfind(" ", start, end)
        end = space if space > start else end
    return start, end


def mark_words(text: str, stems: frozenset[str], width: int = SNIPPET_CHARS) -> str:
    """A snippet of any text (a card's, a ruling's) as rule snippets are made: HTML-escaped, its
    white space collapsed, cut at whole words around the first word whose indexed form is one of
    ``stems`` (`index_words` of the query), those words in <mark>."""
    text = " ".join(text.split())
    return _mark(text, [m.span() for m in _WORD.finditer(text) if _stem_of(m.group(0)) in stems], width)


def _mark(text: str, spans: list[tuple[int, int]], width: int = SNIPPET_CHARS) -> str:
    """``text`` HTML-escaped, cut to ``width`` characters around the first span, spans in <mark>."""
    start, end = word_window(text, spans[0][0] if spans else 0, width, min(70, width // 3))
    out = ["… " if start else ""]
    pos = start
    for a, b in spans:
        if a < pos or b > end:
            continue
        out.append(text[pos:a].translate(_ESCAPE))
        out.append("<mark>" + text[a:b].translate(_ESCAPE) + "</mark>")
        pos = b
    out.append(text[pos:end].translate(_ESCAPE))
    if end < len(text):
        out.append(" …")
    return "".join(out)
