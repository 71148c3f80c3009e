"""Bounded in-process caches: the one LRU the project uses, and the registry of every memo a
module keeps for the life of the process.

Every cache is bounded twice: by entry count and by an estimate of the bytes it holds, weighed
once when an entry goes in (`approx_bytes`: ``sys.getsizeof`` of strings and bytes, recursing
into tuples, lists, dicts and dataclasses), so no sequence of inputs grows a process without
bound (issue 16, item 8). The web app's caches (webapp/caches.py, one set per app) are `LRU`s
too; the memos of pure functions below them (stems, word diffs, decision ids) are made with
`memo` and listed in `MEMOS` with their bounds and why they exist. A test
(tests/test_memory_bounds.py) fails if a module of the project caches with functools instead.

This package imports nothing of the project and no third-party library, so every package
(scraper, rules_index, engine, webapp) may use it.
"""

from __future__ import annotations

import dataclasses
import functools
import sys
import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

KB = 1024
MB = 1024 * KB

# Bytes an entry costs beyond its key and value: the OrderedDict's node and table slot, its
# slot in `weights` and the weight itself (measured with tracemalloc: ~130 bytes an entry).
ENTRY_BYTES = 160

F = TypeVar("F", bound=Callable[..., Any])


_MISSING = object()


class LRU(OrderedDict):
    """A thread-safe mapping bounded by entry count and by total weight: each entry's bytes
    (`weigh(value)`, or the weight given to `put`), added up in `weight`, for tests and
    monitoring. Two ways in:

    - as a cache, `get` and `put`: a hit refreshes its entry, the least recently used leaves
      first (the web app's caches, webapp/caches.py);
    - as the memo of a function (`fill`; made by `memo`): ``lru(key)`` is a plain dict lookup
      in C on a hit, cheaper than a Python function call (so a hit does not refresh: entries
      leave in the order they came), and on a miss computes ``fill(key)``, weighs it (its key
      and value with `approx_bytes`, plus ENTRY_BYTES) and stores it.

    Reads take no lock: each dict operation is atomic under the GIL, and a read that races an
    eviction is a miss. Writes go through `put` only."""

    __call__ = dict.__getitem__  # C: a hit never runs Python code; a miss calls __missing__

    def __init__(
        self,
        size: int,
        max_weight: int,
        weigh: Callable[[Any], int] = lambda v: 0,
        fill: Callable[[Any], Any] | None = None,
    ):
        super().__init__()
        self.size = max(1, size)
        self.max_weight = max_weight
        self.weigh = weigh
        self.fill = fill
        self.weight = 0
        self.weights: dict[Any, int] = {}
        self._lock = threading.Lock()

    def __missing__(self, key: Any) -> Any:
        if self.fill is None:
            raise KeyError(key)
        value = self.fill(key)
        self.put(key, value, ENTRY_BYTES + approx_bytes(key) + approx_bytes(value))
        return value

    def get(self, key: Any, default: Any = None) -> Any:
        value = dict.get(self, key, _MISSING)
        if value is _MISSING:
            return default
        try:
            self.move_to_end(key)
        except KeyError:  # evicted meanwhile
            pass
        return value

    def put(self, key: Any, value: Any, weight: int | None = None) -> None:
        w = self.weigh(value) if weight is None else weight
        weights = self.weights
        with self._lock:
            old = weights.pop(key, None)
            if old is not None:
                self.weight -= old
            OrderedDict.__setitem__(self, key, value)
            self.move_to_end(key)
            weights[key] = w
            self.weight += w
            while len(self) > self.size or (self.weight > self.max_weight and len(self) > 1):
                dropped, _ = self.popitem(last=False)
                self.weight -= weights.pop(dropped)

    def __setitem__(self, key: Any, value: Any) -> None:
        self.put(key, value)

    def __delitem__(self, key: Any) -> None:
        with self._lock:
            OrderedDict.__delitem__(self, key)
            self.weight -= self.weights.pop(key)

    def clear(self) -> None:
        with self._lock:
            OrderedDict.clear(self)
            self.weights.clear()
            self.weight = 0

    def held(self) -> int:
        """The weights of the entries held, added up now (equals `weight` unless a bug)."""
        with self._lock:
            return sum(self.weights.values())

    def __reduce__(self) -> str:
        """A memo pickles as a reference to the module attribute it is (Whoosh pickles the
        analyzers, and so the stem function, into every index it writes)."""
        name = self.__dict__.get("__qualname__")
        if name is None:
            raise TypeError("an LRU cache is not pickled")
        return name

    def __eq__(self, other: object) -> bool:  # an LRU is itself, not its contents
        return self is other

    __hash__ = object.__hash__


def approx_bytes(obj: Any) -> int:
    """An estimate of the memory `obj` holds: ``sys.getsizeof`` of strings, bytes and numbers,
    plus the items of tuples, lists, sets and dicts and the fields of dataclasses. Shared
    singletons (None, True, False) and functions cost nothing."""
    if obj is None or obj is True or obj is False or callable(obj):
        return 0  # shared singletons and functions (a key naming a function does not own it)
    if isinstance(obj, (str, bytes, int, float)):
        return sys.getsizeof(obj)
    if isinstance(obj, (tuple, list, set, frozenset)):
        total = sys.getsizeof(obj)
        for x in obj:  # strings (most items) weighed in place: a miss weighs hundreds of words
            total += sys.getsizeof(x) if type(x) is str else approx_bytes(x)
        return total
    if isinstance(obj, dict):
        return sys.getsizeof(obj) + sum(approx_bytes(k) + approx_bytes(v) for k, v in obj.items())
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        return sys.getsizeof(obj) + sum(approx_bytes(getattr(obj, f.name)) for f in dataclasses.fields(obj))
    return sys.getsizeof(obj)


@dataclass(frozen=True)
class MemoSpec:
    """A process-level memo's bounds and the reason it exists."""

    name: str
    entries: int
    max_bytes: int
    why: str


# Every memo a module keeps for the life of the process (the web app's own caches, one set per
# app, are in webapp/caches.py). A name here is used by exactly one `@memo(name)` or `shared`.
MEMOS = (
    MemoSpec(
        "search.stems",
        20_000,
        8 * MB,
        "rules_index/search.py `_porter`: the Porter stem of each word the analyzers see, at build and "
        "query time (the analyzer is pickled in the index, so the memo is module level)",
    ),
    MemoSpec(
        "search.snippet_stems",
        65_536,
        16 * MB,
        "rules_index/search.py `_stem_of`: the indexed form of each word of each snippet shown, "
        "to mark the words a query matched",
    ),
    MemoSpec(
        "search.text_stems",
        2048,
        16 * MB,
        "rules_index/search.py `_stems`: the indexed form and offsets of each word of a rule's text, "
        "made once per text, not once per search that shows it (a version has about 1,700 texts)",
    ),
    MemoSpec(
        "judge.snippet_stems",
        16_384,
        4 * MB,
        "rules_index/judge.py `_stem_word`: the same for judge items' snippets",
    ),
    MemoSpec(
        "whoosh.stems",
        20_000,
        8 * MB,
        "rules_index/whoosh_open.py: stems for the StemFilters of indexes built before the stem cache "
        "was bounded (their stored `cachesize=-1` caches every word ever seen)",
    ),
    MemoSpec(
        "history.word_diffs",
        4096,
        16 * MB,
        "rules_index/history.py `_cached_diff`: a rule's change of text recurs in every pair of "
        "versions spanning it (22.12..26.03, 23.08..26.03, ... all hold 24.03's rewording)",
    ),
    MemoSpec(
        "engine.decision_ids",
        4096,
        4 * MB,
        "engine/decision.py `_parse`: a decision id is parsed once (ids over 200 characters are "
        "refused before they reach it)",
    ),
    MemoSpec(
        "engine.card_slugs",
        4096,
        2 * MB,
        "engine/decision.py `slug`: card names as they appear in decision ids, asked for every option",
    ),
    MemoSpec(
        "question.reads",
        4096,
        4 * MB,
        "rules_index/question.py `read`: a search query's focus and intent, read once per query "
        "(as-you-type traffic repeats queries)",
    ),
    MemoSpec(
        "question.framing",
        1,
        256 * KB,
        "rules_index/question.py `_compiled`: the framing patterns, compiled once",
    ),
    MemoSpec(
        "bank.questions",
        4,
        8 * MB,
        "rules_index/bank.py `load`: the question bank (package data: 13,300 questions, about 1.5 MB "
        "held), read once per directory",
    ),
    MemoSpec(
        "bank.labelled",
        2,
        2 * MB,
        "rules_index/bank.py `labelled`: the training questions the index holds (package data: "
        "about 2,400 questions, 0.3 MB held), read once per file",
    ),
    MemoSpec(
        "vectors.table",
        2,
        4 * MB,
        "rules_index/vectors.py `load`: the word vectors (package data: about 3,300 stems of 96 "
        "numbers, 1.3 MB held), read once per file",
    ),
    MemoSpec(
        "vectors.pack",
        2,
        1 * MB,
        "rules_index/vectors.py `load(pack=True)`: the offline copy's small table (16 numbers a "
        "stem, made from the table above), once per file",
    ),
    MemoSpec(
        "translation.table",
        2,
        2 * MB,
        "rules_index/translation.py `load`: the word-translation table (package data: about 1,600 "
        "question stems, 1,400 rule stems and 40,000 probabilities), read once per file",
    ),
    MemoSpec(
        "translation.pack",
        2,
        1 * MB,
        "rules_index/translation.py `load(pack=True)`: the offline copy's table (16,000 "
        "probabilities, made from the table above), once per file",
    ),
    MemoSpec(
        "ranker.model",
        4,
        256 * KB,
        "rules_index/ranker.py `load`: the learned ranker's weights, read once per weights file",
    ),
    MemoSpec(
        "engine.card_refs",
        4096,
        4 * MB,
        "engine/decision.py `_refs`: the ids of a list of cards (a board's names), asked for every "
        "option of every step",
    ),
    MemoSpec(
        "engine.ability_texts",
        1024,
        1 * MB,
        "engine/rig.py `_ability_text`: the words of an installed card's ability (its label in "
        "every paid ability window and its announcement), by the ability's fields",
    ),
    MemoSpec(
        "unified.ruling_words",
        4096,
        4 * MB,
        "rules_index/unified.py `_ruling_words`: the plain text a ruling's snippet is cut from "
        "(rulings are few, about 2,000, and read-only)",
    ),
    MemoSpec(
        "jargon.matcher",
        1,
        1 * MB,
        "rules_index/jargon.py `_matcher`: the regex of every jargon phrase, compiled once",
    ),
)
SPECS = {spec.name: spec for spec in MEMOS}


@dataclass(frozen=True)
class Memo:
    """A memo in use: its spec and its `LRU`."""

    spec: MemoSpec
    lru: LRU

    @property
    def weight(self) -> int:
        return self.lru.weight

    def __len__(self) -> int:
        return len(self.lru)


REGISTRY: dict[str, Memo] = {}  # the memos in use (made on first use of their spec)


def shared(name: str) -> Memo:
    """The memo `name` of MEMOS, made on first use (KeyError for a name not listed there)."""
    made = REGISTRY.get(name)
    if made is None:
        spec = SPECS[name]
        made = REGISTRY.setdefault(name, Memo(spec, LRU(spec.entries, spec.max_bytes)))
    return made


def memo(name: str) -> Callable[[F], F]:
    """Decorate a pure function of hashable positional arguments with the bounded memo `name`
    (one of MEMOS). A function of one argument becomes the memo's `LRU` itself (a hit is a dict
    lookup in C); others get a small wrapper keyed by their arguments' tuple. Either keeps the
    function's name, module and docstring (so it pickles by reference, as Whoosh pickles
    analyzers) and carries the `Memo` as ``.memo``."""
    record = shared(name)

    def wrap(fn: F) -> F:
        lru = record.lru
        code = getattr(fn, "__code__", None)
        if code is not None and code.co_argcount == 1 and not code.co_flags & 0x0C:  # no *args/**kw
            lru.fill = fn
            cached: Any = lru
        else:
            lru.fill = lambda args: fn(*args)

            def cached(*args: Any) -> Any:
                return lru[args]

        functools.update_wrapper(cached, fn)
        cached.memo = record
        return cached

    return wrap


def bounded(fn: Callable[..., Any], record: Memo) -> Callable[..., Any]:
    """`fn` cached in the memo `record` (from `shared`), which other functions may share: for
    functions known only at run time, such as the stem function of a Whoosh analyzer read from
    an old index. The key is ``(fn, *args)``."""
    lru = record.lru
    lru.fill = _call_key

    def call(*args: Any) -> Any:
        return lru[(fn, *args)]

    call.memo = record  # type: ignore[attr-defined]
    return call


def _call_key(key: tuple) -> Any:
    return key[0](*key[1:])
