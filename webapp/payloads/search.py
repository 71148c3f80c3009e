"""The search payload: one ranked list over rules, cards, rulings and judge items for a query in
one version (a number or id names its rule first, then what cites it), each hit labelled with
its ``source`` and linked to its page; when nothing is found, what the search can offer instead
(the nearest rule numbers, spelling suggestions, a did-you-mean and the hits of a looser query).

Sources: ``rules`` (the CR version asked for), ``cards`` and ``rulings`` (NetrunnerDB data, when
built with ``nrrules build --cards``), ``judge`` (judges' documents, ``nrrules build --judge``).
By default every built source is searched: a judge types into one box and expects the answer
wherever it is; the ranking (`rules_index.unified`) keeps rule numbers, card names and judge
jargon first. Naming a source that is not built is a 404 that says how to build it.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from rules_index.question import LONG_QUERY
from rules_index.unified import SOURCES, available_sources, search_sources, unavailable_sources

__all__ = [
    "MAX_LIMIT",
    "MAX_QUERY",
    "MAX_WORD",
    "SOURCES",
    "available_sources",
    "check_query",
    "parse_sources",
    "search",
]

from ..errors import BadRequest, BuildUnavailable, NotFound
from ..textfmt import symbols_snippet
from .context import Rules

MAX_QUERY = LONG_QUERY  # a whole forum post; its question is what is searched (`question.focus`)
MAX_LIMIT = 50
# The longest word of any source is 22 characters (a hex string in a printing's flavour text;
# "Counterintelligence" is 19). A longer run of letters and digits is no word of any index, yet the
# fuzzy stages (spelling, the looser query's Levenshtein automata) cost in proportion to its
# length: 0.13 s of CPU for one 200-character word. Only its first MAX_WORD characters are searched.
MAX_WORD = 32
_LONG_WORD = re.compile(rf"[^\W_]{{{MAX_WORD + 1},}}")
BUILD_HINT = {
    "cards": "no card data is built: run `nrrules build --cards DIR|URL`",
    "rulings": "no card data is built: run `nrrules build --cards DIR|URL`",
    "judge": "no judges' document is built: run `nrrules build --judge FILE|DIR|URL`",
}


def check_query(q: str | None) -> str:
    """The query as searched (a word longer than `MAX_WORD` cut to its first `MAX_WORD`
    characters); BadRequest when it is empty or too long."""
    q = (q or "").strip()
    if not q:
        raise BadRequest("q is required: words, a rule number, an id or a card name")
    if len(q) > MAX_QUERY:
        raise BadRequest(
            f"q is too long ({len(q)} characters, at most {MAX_QUERY}): ask the question in fewer words"
        )
    return _LONG_WORD.sub(lambda m: m.group(0)[:MAX_WORD], q)


def parse_sources(values: Iterable[str] | None) -> tuple[str, ...]:
    """``source`` values as given (repeated and/or comma-separated) -> the sources named, in
    `SOURCES` order; () means "every built source". BadRequest for an unknown name."""
    named: set[str] = set()
    for value in values or ():
        for part in str(value).split(","):
            name = part.strip().lower()
            if not name or name == "all":
                continue
            if name not in SOURCES:
                raise BadRequest(
                    f"unknown source {part.strip()[:40]!r}: use {', '.join(SOURCES)} (several allowed)"
                )
            named.add(name)
    return tuple(s for s in SOURCES if s in named)


def _sources(rules: Rules, wanted: tuple[str, ...]) -> list[str]:
    available = available_sources(rules.library)
    if not wanted:
        return available
    damaged = unavailable_sources(rules.library)
    for name in wanted:
        if name in damaged:
            raise BuildUnavailable(damaged[name])
        if name not in available:
            raise NotFound(BUILD_HINT.get(name, f"source {name} is not built"))
    return list(wanted)


def _rule_hit(rules: Rules, hit, v: str) -> dict[str, Any]:
    item = hit.to_dict()
    item["url"] = rules.url(hit.id, v)
    return item


def _hit(rules: Rules, hit, v: str) -> dict[str, Any]:
    """Any source's hit in the one shape of `SearchHit` (openapi.yaml), with its page's URL and
    its snippet as a reader sees it (symbols as glyphs: "1¢", not "1[credit]")."""
    item = _source_hit(rules, hit, v)
    item["snippet"] = symbols_snippet(item.get("snippet"))
    return item


def _source_hit(rules: Rules, hit, v: str) -> dict[str, Any]:
    if hit.source == "rules":
        return _rule_hit(rules, hit, v)
    common = {"source": hit.source, "score": hit.score, "norm": hit.norm, "match": hit.match, "number": None}
    if hit.source == "judge":
        return {
            "id": hit.id,
            "title": hit.title,
            "kind": hit.kind,
            "snippet": hit.snippet,
            "breadcrumb": [{"id": s["id"], "number": None, "title": s["title"]} for s in hit.section],
            "url": f"/j/{hit.id}",
            **common,
        }
    # cards and rulings (`unified.card_snippets`: escaped, words in <mark>)
    ruling = hit.source == "rulings"
    out = {
        "id": hit.id,
        "title": f"{hit.title}: ruling" if ruling else hit.title,
        "kind": "ruling" if ruling else "card",
        "snippet": hit.snippet,
        "breadcrumb": [],
        "url": f"/c/{hit.id}" + (f"#ruling-{hit.ruling}" if ruling else ""),
        **common,
    }
    if ruling:  # the answer's first sentence beside the question, and the ruling's era
        out.update(answer=hit.answer, note=hit.note)
    return out


def _changes(pair: tuple[str, str] | None) -> dict[str, str] | None:
    """A question about what changed between two versions: the changes page to offer first."""
    if pair is None:
        return None
    old, new = pair
    return {"from": old, "to": new, "url": f"/changes/{old}..{new}", "api": f"/api/changes/{old}..{new}"}


def search(
    rules: Rules,
    q: str,
    version: str | None = None,
    limit: int = 10,
    sources: Iterable[str] | None = None,
) -> dict[str, Any]:
    q = check_query(q)
    if not 1 <= limit <= MAX_LIMIT:
        raise BadRequest(f"limit must be from 1 to {MAX_LIMIT}, not {limit}")
    v = rules.version(version)
    wanted = _sources(rules, parse_sources(sources))
    found = search_sources(rules.library, q, v, wanted, limit)
    offer = found.offer
    return {
        "query": q,
        "searched": found.searched,
        "showing": found.showing,
        "changes": _changes(found.changes),
        "version": v,
        "sources": wanted,
        "results": [_hit(rules, hit, v) for hit in found.hits],
        "nearest": [{**n, "url": rules.url(n["id"], v)} for n in (offer.nearest if offer else [])],
        "spelling": list(offer.spelling) if offer else [],
        "did_you_mean": offer.did_you_mean if offer else None,
        "looser": [_hit(rules, h, v) for h in (offer.looser if offer else [])],
        # sources built but damaged: searched without, and said (issue 38)
        "unavailable": [{"source": k, "problem": p} for k, p in found.unavailable.items()],
    }
