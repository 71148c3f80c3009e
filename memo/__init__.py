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

# Bytes an entry costs beyond its key and value: the OrderedDict's node and table slot, the
# (value, weight) pair and the weight (measured with tracemalloc: ~147 bytes an entry).
ENTRY_BYTES = 160

F = TypeVar("F", bound=Callable[..., Any])


class LRU:
    """A thread-safe least-recently-used mapping, bounded by entry count and by total weight
    (`weigh(value)` in bytes, or the weight given to `put`). `weight` is the running total, for
    tests and monitoring. Reads take no lock: each dict operation is atomic under the GIL, and a
    read that races an eviction is a miss."""

    def __init__(self, size: int, max_weight: int, weigh: Callable[[Any], int] = lambda v: 0):
        self.size = max(1, size)
        self.max_weight = max_weight
        self.weigh = weigh
        self.weight = 0
        self._data: OrderedDict[Any, tuple[Any, int]] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: Any, default: Any = None) -> Any:
        try:
            item = self._data[key]
            self._data.move_to_end(key)
        except KeyError:
            return default
        return item[0]

    def put(self, key: Any, value: Any, weight: int | None = None) -> None:
        w = self.weigh(value) if weight is None else weight
        data = self._data
        with self._lock:
            old = data.pop(key, None)
            if old is not None:
                self.weight -= old[1]
            data[key] = (value, w)
            self.weight += w
            while len(data) > self.size or (self.weight > self.max_weight and len(data) > 1):
                _, (_, dropped) = data.popitem(last=False)
                self.weight -= dropped

    def clear(self) -> None:
        with self._lock:
            self._data.clear()
            self.weight = 0

    def held(self) -> int:
        """The weights of the entries held, added up now (equals `weight` unless a bug)."""
        with self._lock:
            return sum(w for _, w in self._data.values())

    def __len__(self) -> int:
        return len(self._data)


def approx_bytes(obj: Any) -> int:
    """An estimate of the memory `obj` holds: ``sys.getsizeof`` of strings, bytes and numbers,
    plus the items of tuples, lists, sets and dicts and the fields of dataclasses. Shared
    singletons (None, True, False) and functions cost nothing."""
    if obj is None or obj is True or obj is False or callable(obj):
        return 0  # shared singletons and functions (a key naming a function does not own it)
    if isinstance(obj, (str, bytes, int, float)):
        return sys.getsizeof(obj)
    if isinstance(obj, (tuple, list, set, frozenset)):
        return sys.getsizeof(obj) + sum(approx_bytes(x) for x in obj)
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
        "engine.card_refs",
        4096,
        4 * MB,
        "engine/decision.py `_refs`: the ids of a list of cards (a board's names), asked for every "
        "option of every step",
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
    (one of MEMOS). Each entry weighs its arguments and result (`approx_bytes`) plus ENTRY_BYTES,
    once, when it is stored. The wrapper keeps the function's name and module (so it pickles by
    reference, as Whoosh pickles analyzers), and carries the `Memo` as ``.memo``."""
    record = shared(name)

    def wrap(fn: F) -> F:
        cached = _wrapper(fn, record.lru)
        functools.update_wrapper(cached, fn)
        cached.memo = record  # type: ignore[attr-defined]
        return cached  # type: ignore[return-value]

    return wrap


def _wrapper(fn: Callable[..., Any], lru: LRU) -> Callable[..., Any]:
    """The caching function: a hit is two dict operations (no lock, no weighing)."""
    data, move, put = lru._data, lru._data.move_to_end, lru.put

    def one(arg: Any) -> Any:
        try:
            item = data[arg]
        except KeyError:
            value = fn(arg)
            put(arg, value, ENTRY_BYTES + approx_bytes(arg) + approx_bytes(value))
            return value
        try:
            move(arg)
        except KeyError:  # evicted by another thread meanwhile: still a good answer
            pass
        return item[0]

    def many(*args: Any) -> Any:
        try:
            item = data[args]
        except KeyError:
            value = fn(*args)
            put(args, value, ENTRY_BYTES + approx_bytes(args) + approx_bytes(value))
            return value
        try:
            move(args)
        except KeyError:
            pass
        return item[0]

    code = getattr(fn, "__code__", None)
    simple = code is not None and code.co_argcount == 1 and not code.co_flags & 0x0C  # no *args/**kw
    return one if simple else many


def bounded(fn: Callable[..., Any], record: Memo) -> Callable[..., Any]:
    """`fn` cached in the memo `record` (from `shared`), which other functions may share: for
    functions known only at run time, such as the stem function of a Whoosh analyzer read from
    an old index. The key is ``(fn, *args)``."""
    cached = _wrapper(lambda key: fn(*key[1:]), record.lru)

    def call(*args: Any) -> Any:
        return cached((fn, *args))

    call.memo = record  # type: ignore[attr-defined]
    return call
