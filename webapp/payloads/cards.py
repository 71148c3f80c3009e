"""Payload builders for NetrunnerDB cards and official rulings.

    card(rules, found, version)      the card page, /api/cards/<card>, `nrrules card --json`
    rulings(rules, found)            /api/cards/<card>/rulings, `nrrules rulings --json`
    board(rules, found)              /api/cards/<card>/board: the engine-ready board card object
    card_search(rules, q, ...)       /api/cards?q=: card and ruling hits, each with its `source`
    search_hits(rules, q, ...)       the same hits as a list, for the unified /api/search
    card_link(rules, code, name)     where a rule page links a card it mentions (with a preview)
    cards_info(rules)                what card data is built and from when (None if none)

The card data lives in `rules_index.cards.CardStore` (built by `nrrules build --cards`); a
request that needs it when none is built gets `NoCardData` (503), a card that does not exist
`CardNotFound` (404, with near names as `suggestions`).
"""

from __future__ import annotations

import re
from typing import Any

from engine.cardtext import board_card
from rules_index.cards import CardStore
from rules_index.store import LibraryError
from scraper.nrdb import Card, Ruling, plain_text

from ..errors import BadRequest, CardNotFound, NoCardData
from .context import Rules

MAX_QUERY = 200
MAX_LIMIT = 50
SOURCES = ("cards", "rulings")
_HEADING = re.compile(r"^#+\s*", re.MULTILINE)


def store(rules: Rules) -> CardStore:
    """The card build beside the rules, or `NoCardData`."""
    try:
        return rules.library.cards()
    except LibraryError as exc:
        raise NoCardData(exc.message) from None


def has_cards(rules: Rules) -> bool:
    try:
        rules.library.cards()
    except LibraryError:
        return False
    return True


def find(rules: Rules, ref: str) -> Card:
    """The card a reference names: card id, NetrunnerDB code, or name forgiving case, accents
    and punctuation ("Snare", "snare!", "Sn@re!")."""
    ref = (ref or "").strip()
    if not ref or len(ref) > MAX_QUERY:
        raise BadRequest(f"a card id, NetrunnerDB code or name of 1 to {MAX_QUERY} characters is required")
    s = store(rules)
    found = s.find(ref, limit=1)
    if not found:
        near = [h.title for h in s.search(ref, sources=("cards",), limit=3)]
        raise CardNotFound(f"no card matches {ref!r}", suggestions=near)
    return found[0]


def _clean(text: str | None) -> str | None:
    """Ruling text as plain words: markup, Markdown links and headings reduced to their text."""
    return _HEADING.sub("", plain_text(text)).strip() if text else None


def _ruling(rules: Rules, s: CardStore, r: Ruling, index: int, doc: Any) -> dict[str, Any]:
    cited = []
    for number in _cited(r):
        res = rules.library.lookup(number, doc.version)
        if res.nodes:
            cited.append({"number": number, "id": res.nodes[0].id})
    return {
        "index": index,
        "date": r.date_update,
        "verified": r.verified,
        "question": _clean(r.question),
        "answer": _clean(r.answer),
        "text": _clean(r.text_ruling),
        "rules": cited,
    }


def _cited(r: Ruling) -> list[str]:
    from rules_index.cards import cited_numbers

    return cited_numbers(r)


def _rule_brief(doc: Any, node_id: str) -> dict[str, Any]:
    node = doc.node(node_id)
    text = " ".join((node.text or "").split())
    return {
        "id": node.id,
        "number": node.number,
        "title": node.title,
        "text": text if len(text) <= 160 else text[:157] + "...",
    }


def _names(s: CardStore, card: Card) -> dict[str, Any]:
    def name(table: str, key: str | None) -> str | None:
        row = s.table(table).get(key or "")
        return row["name"] if row else key

    return {
        "type": name("card_types", card.card_type_id),
        "side": name("sides", card.side_id),
        "faction": name("factions", card.faction_id),
        "subtypes": [name("card_subtypes", x) for x in card.subtypes],
    }


def board(rules: Rules, card: Card) -> dict[str, Any]:
    """The board card object the engine takes (engine.cardtext), or None for a card that has
    no place on the board; `recognised` counts the subroutines/abilities translated."""
    s = store(rules)
    names = {k: v["name"] for k, v in s.table("card_subtypes").items()}
    try:
        obj = board_card(card, names)
    except ValueError:
        return {"id": card.id, "title": card.title, "card": None}
    return {"id": card.id, "title": card.title, "card": obj}


def card(rules: Rules, card: Card, version: str | None = None) -> dict[str, Any]:
    """Everything a judge wants about one card: data, legality, rulings, rules mentioning it."""
    s = store(rules)
    v = rules.version(version)
    doc = rules.library.document(v)
    rulings_ = [_ruling(rules, s, r, i, doc) for i, r in enumerate(s.rulings(card.id))]
    cited = {x["id"]: x["number"] for r in rulings_ for x in r["rules"]}
    printings = s.printings(card.id)
    return {
        "id": card.id,
        "title": card.title,
        **_names(s, card),
        "type_id": card.card_type_id,
        "cost": card.cost,
        "strength": card.strength,
        "memory_cost": card.memory_cost,
        "trash_cost": card.trash_cost,
        "agenda_points": card.agenda_points,
        "advancement_requirement": card.advancement_requirement,
        "influence_cost": card.influence_cost,
        "text": plain_text(card.text),
        "codes": [p.id for p in printings],
        "standard": s.legality(card.id).to_dict(),
        "rulings": rulings_,
        "version": v,
        "rules": [_rule_brief(doc, rid) for rid in s.mentions(doc).get(card.id, [])],
        "cited_rules": [{"id": rid, "number": n} for rid, n in cited.items()],
        "netrunnerdb": f"https://netrunnerdb.com/en/card/{printings[-1].id}" if printings else None,
        "url": f"/c/{card.id}",
    }


def rulings(rules: Rules, card: Card) -> dict[str, Any]:
    s = store(rules)
    doc = rules.library.document(rules.latest)
    return {
        "id": card.id,
        "title": card.title,
        "rulings": [_ruling(rules, s, r, i, doc) for i, r in enumerate(s.rulings(card.id))],
    }


def parse_sources(values: list[str]) -> tuple[str, ...]:
    """``source=cards&source=rulings`` or ``source=cards,rulings``; both when none is given."""
    wanted = [x.strip() for v in values for x in v.split(",") if x.strip()]
    bad = [x for x in wanted if x not in SOURCES]
    if bad:
        raise BadRequest(f"source must be one of {', '.join(SOURCES)}, not {bad[0][:40]!r}")
    return tuple(dict.fromkeys(wanted)) or SOURCES


def search_hits(
    rules: Rules, query: str, sources: tuple[str, ...] = SOURCES, limit: int = 10
) -> list[dict[str, Any]]:
    """Card and ruling hits, best first. Each has `source` ("cards" or "rulings"), `score`
    (a card whose whole name is the query scores 1000; the rest are BM25F scores of the card
    index), `id` (the card), `title`, `snippet`, `url`, and for cards the editor's fields:
    `type`, `subtypes`, `faction`, `cost`, `strength` and `board` (the engine-ready card
    object, None when the card has no place on the board). A ruling is found by the words of
    its question (and answer); `ruling` is its index on the card page (newest first)."""
    s = store(rules)
    query = " ".join((query or "").split())
    if not query:
        raise BadRequest("q is required: a card name or words of its text or rulings")
    if len(query) > MAX_QUERY:
        raise BadRequest(f"q is too long ({len(query)} characters, at most {MAX_QUERY})")
    out: list[dict[str, Any]] = []
    for h in s.search(query, sources=sources, limit=limit):
        c = s.card(h.card_id)
        if c is None:
            continue
        hit: dict[str, Any] = {
            "source": h.source,
            "id": c.id,
            "title": c.title,
            "score": round(h.score, 4),
            "snippet": h.snippet,
            "ruling": h.ruling,
            "url": f"/c/{c.id}" + (f"#ruling-{h.ruling}" if h.ruling is not None else ""),
        }
        if h.source == "cards":
            names = _names(s, c)
            hit.update(
                type=names["type"],
                subtypes=names["subtypes"],
                faction=names["faction"],
                cost=c.cost,
                strength=c.strength,
                board=board(rules, c)["card"],
            )
        out.append(hit)
    return out


def card_search(
    rules: Rules, query: str, sources: tuple[str, ...] = SOURCES, limit: int = 10
) -> dict[str, Any]:
    if not 1 <= limit <= MAX_LIMIT:
        raise BadRequest(f"limit must be from 1 to {MAX_LIMIT}, not {limit}")
    hits = search_hits(rules, query, sources, limit)
    return {"query": " ".join(query.split()), "sources": list(sources), "results": hits}


def card_link(rules: Rules, code: str | None, name: str) -> dict[str, Any]:
    """Where a rule page links a card the CR mentions: its card page with a preview of its text
    when card data is built, otherwise NetrunnerDB."""
    try:
        s = rules.library.cards()
    except LibraryError:
        s = None
    c = None
    if s is not None:
        c = (s.by_code(code) if code else None) or next(iter(s.find(name, limit=1)), None)
    if c is None:
        href = f"https://netrunnerdb.com/en/card/{code}" if code else None
        return {"href": href, "preview": None, "local": False}
    text = " ".join(c.stripped_text.split())
    preview = f"{text[:140]}{'...' if len(text) > 140 else ''}"
    return {"href": f"/c/{c.id}", "preview": preview, "local": True}


def cards_info(rules: Rules) -> dict[str, Any] | None:
    """What card data is built and from when (None when none is)."""
    try:
        return rules.library.cards().info.to_dict()
    except LibraryError:
        return None
