"""The words a build feeds Whoosh for each field of each rule, made in one loop per text instead
of through the analyzers' chain of generators (`build_index`'s ``index`` phase).

Whoosh indexes a field's value by running its analyzer (`rules_index.search.ANALYZER`: tokens,
lowercased, stop words dropped and the positions renumbered, accents folded, irregular forms
mapped, index-time synonyms added at the same position, Porter stems; or `NAME_ANALYZER`: tokens,
lowercased, accents folded) and counting each word's positions (`whoosh.formats.Positions`) or
occurrences (`Frequency`). `word_values` gives the same tuples, in the same order, from a table of
what each surface word becomes (made once per word): about a quarter of the cost of the index
phase. tests/test_build_speed.py compares them with Whoosh's own on every field of every rule.

`fast_fields` installs it on the fields of a writer's schema for the time documents are added,
and takes it off before the schema is saved with the index: the index on disk names only the
analyzers of `rules_index.search.SCHEMA`, as before.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager

from whoosh import formats
from whoosh.support.charset import accent_map
from whoosh.system import pack_uint

__all__ = ["fast_fields", "stems"]


class _Words:
    """What an analyzer makes of each surface word: the words it indexes in its place (empty
    for a stop word), memoised per word."""

    def __init__(self, stem: bool) -> None:
        from .search import _STOP, _TOKEN, INDEX_SYNONYMS, WORD_FORMS, _porter

        self.token = re.compile(_TOKEN, re.UNICODE)
        self.stem = stem
        self.stop = _STOP if stem else frozenset()
        self.forms, self.synonyms, self.porter = WORD_FORMS, INDEX_SYNONYMS, _porter
        self.memo: dict[str, tuple[str, ...]] = {}

    def of(self, word: str) -> tuple[str, ...]:
        low = word.lower()
        if not self.stem:  # NAME_ANALYZER: lowercased, accents folded
            return (low.translate(accent_map),)
        if low in self.stop:  # ANALYZER's stop filter runs before the folding
            return ()
        text = low.translate(accent_map)
        text = self.forms.get(text, text)
        return (self.porter(text), *(self.porter(w) for w in self.synonyms.get(text, ())))

    def query(self, word: str) -> tuple[str, ...]:
        """The words the analyzer makes of ``word`` outside the index: no synonyms."""
        made = self.memo.get(word)
        if made is None:
            made = self.memo[word] = self.of(word)
        return made[:1]

    def positions(self, value: str) -> dict[str, list[int]]:
        """Word -> its positions in ``value``, in the order the analyzer yields them."""
        memo, of = self.memo, self.of
        out: dict[str, list[int]] = {}
        pos = -1
        first = True
        for i, m in enumerate(self.token.finditer(value)):
            word = m.group(0)
            made = memo.get(word)
            if made is None:
                made = memo[word] = of(word)
            if not made:
                continue
            if not self.stem:
                pos = i
            elif first:  # Whoosh's StopFilter: the first kept word keeps its place, then +1
                pos, first = i, False
            else:
                pos += 1
            for w in made:
                got = out.get(w)
                if got is None:
                    out[w] = [pos]
                else:
                    got.append(pos)
        return out


_SEARCH: _Words | None = None  # search's ANALYZER, as `stems` reads it (made on first use)


def stems(text: str) -> list[str]:
    """``[t.text for t in ANALYZER(text)]`` (`Searcher._stems`: stop words dropped, no index-time
    synonyms) in one loop; for a build, which reads every question of the bank this way."""
    global _SEARCH
    if _SEARCH is None:
        _SEARCH = _Words(stem=True)
    words = _SEARCH
    return [w for m in words.token.finditer(text) for w in words.query(m.group(0))]


def _indexer(field, words: _Words):
    """A replacement for ``field.index`` (`whoosh.fields.FieldType.index`) giving its tuples."""
    fmt = field.format
    fb = fmt.field_boost
    positional = type(fmt) is formats.Positions

    def index(value, **kwargs) -> Iterator[tuple[bytes, int, float, bytes]]:
        if not isinstance(value, str):  # Whoosh's own path for anything else
            yield from type(field).index(field, value, **kwargs)
            return
        for w, poslist in words.positions(value).items():
            n = len(poslist)
            vbytes = fmt.encode(poslist) if positional else pack_uint(n)
            # the weight Whoosh sums, a boost of 1.0 per token: n, exactly
            yield (w.encode("utf-8"), n, float(n) * fb, vbytes)

    return index


@contextmanager
def fast_fields(schema) -> Iterator[None]:
    """Within: the text fields of ``schema`` (a writer's) whose analyzer is search's ANALYZER or
    NAME_ANALYZER index through `_Words`; outside, the fields are as they were."""
    from .search import ANALYZER, NAME_ANALYZER

    kinds = {id(ANALYZER): _Words(stem=True), id(NAME_ANALYZER): _Words(stem=False)}
    by_name = {name: kinds.get(id(f.analyzer)) for name, f in _schema_fields().items()}
    done = []
    try:
        for name in schema.names():
            field = schema[name]
            words = by_name.get(name)
            if words is None or type(field.format) not in (formats.Positions, formats.Frequency):
                continue
            if field.vector or field.separate_spelling():
                continue
            field.index = _indexer(field, words)
            done.append(field)
        yield
    finally:
        for field in done:
            del field.index


def _schema_fields() -> dict:
    from .search import SCHEMA

    return {name: SCHEMA[name] for name in SCHEMA.names()}
