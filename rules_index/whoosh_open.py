"""The one way the product opens a Whoosh index (the rules', the cards' and the judges'
documents'): read-only, with a single schema object whose stemming caches are bounded.

Whoosh pickles every field's analyzer into the index's table of contents and, unless it is given
a schema, unpickles a fresh copy for each reader it opens. Indexes built before the stem cache
was bounded carry ``StemFilter(cachesize=-1)``, a cache of every distinct word ever analysed:
45 -> 317 MB in one worker after 80k random queries (issue 16). `open_index` takes the schema
once (the caller's, or the stored one), bounds every stem cache in it and hands that object to
Whoosh, so no reader of an old build ever analyses with an unbounded copy.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

from whoosh.analysis import StemFilter
from whoosh.fields import Schema
from whoosh.filedb.filestore import FileStorage
from whoosh.index import FileIndex

from memo import bounded, shared

STEMS = shared("whoosh.stems")  # the memo (memo.MEMOS) every bounded stem filter shares


def stem_filters(schema: Schema) -> Iterator[StemFilter]:
    """Every StemFilter in the analyzers of `schema`'s fields."""
    for _name, field in schema.items():
        for analyzer in (
            getattr(field, "analyzer", None),
            getattr(getattr(field, "format", None), "analyzer", None),
        ):
            for item in getattr(analyzer, "items", (analyzer,)):
                if isinstance(item, StemFilter):
                    yield item


def bound_stem_caches(schema: Schema) -> int:
    """Give every StemFilter in `schema` that caches stems (Whoosh's own cache: unbounded with
    ``cachesize=-1``, else a frequency cache that is not thread-safe) the shared memo STEMS,
    bounded in entries and bytes, instead; returns how many were changed. The product's own
    analyzers (``cachesize=None`` with a stem function that is itself a bounded memo) are left
    alone."""
    changed = 0
    for f in stem_filters(schema):
        size: Any = f.cachesize
        if isinstance(size, int) and not isinstance(size, bool) and size not in (0, 1):
            f.cachesize = None
            f.clear()  # the plain stem function (the filter's, or its language's)
            f._stem = bounded(f._stem, STEMS)
            changed += 1
    return changed


def open_index(path: str | Path, schema: Schema | None = None) -> FileIndex:
    """The index at `path`, read-only, with `schema` (default: the one stored in the index, read
    once) bounded by `bound_stem_caches` and used by every reader Whoosh opens on it."""
    storage = FileStorage(str(path), readonly=True)
    if schema is None:
        schema = storage.open_index().schema
    bound_stem_caches(schema)
    return storage.open_index(schema=schema)
