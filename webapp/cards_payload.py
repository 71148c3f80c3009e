"""Payload builders for cards and rulings: one JSON-ready dict per answer, rendered by the card
page, returned by the JSON API and printed by the CLI, so the three cannot drift apart."""

from __future__ import annotations

import re
from typing import Any

from rules_index.cards import CardStore, cited_numbers
from rules_index.store import Library, LibraryError
from scraper.nrdb import Card, Ruling, plain_text


class CardNotFound(LookupError):
    """No card matches a name, code or id."""


def store(library: Library) -> CardStore:
    return library.cards()


def find_card(library: Library, query: str) -> tuple[Card, list[Card]]:
    """The card a query names (id, NetrunnerDB code or forgiving name), and other candidates."""
    found = store(library).find(query, limit=6)
    if not found:
        raise CardNotFound(f"no card matches {query!r}")
    return found[0], found[1:]


def _rule_brief(doc: Any, node_id: str) -> dict:
    node = doc.node(node_id)
    text = " ".join((node.text or "").split())
    return {
        "id": node.id,
        "number": node.number,
        "title": node.title,
        "text": text if len(text) <= 160 else text[:157] + "...",
    }


def ruling_payload(r: Ruling, index: int, doc: Any | None = None) -> dict:
    numbers = cited_numbers(r)
    rules = []
    if doc is not None:
        from rules_index.lookup import lookup

        for n in numbers:
            res = lookup(doc, n)
            if res.nodes:
                rules.append({"number": n, "id": res.nodes[0].id})
    return {
        "index": index,
        "date": r.date_update,
        "verified": r.verified,
        "question": _clean(r.question) if r.question else None,
        "answer": _clean(r.answer) if r.answer else None,
        "text": _clean(r.text_ruling) if r.text_ruling else None,
        "rules": rules,
    }


_HEADING = re.compile(r"^#+\s*", re.MULTILINE)


def _clean(text: str) -> str:
    """Ruling text as plain words: markup, Markdown links and headings reduced to their text."""
    return _HEADING.sub("", plain_text(text)).strip()


def card_payload(library: Library, card: Card, version: str | None = None) -> dict:
    """Everything a judge wants about one card: data, legality, rulings, rules mentioning it."""
    s = store(library)
    v = library.resolve_version(version)
    doc = library.document(v)
    names = {k: s.table(k) for k in ("card_types", "factions", "card_subtypes", "sides")}

    def name(table: str, key: str | None) -> str | None:
        row = names[table].get(key or "")
        return row["name"] if row else key

    mentions = s.mentions(doc).get(card.id, [])
    rulings = [ruling_payload(r, i, doc) for i, r in enumerate(s.rulings(card.id))]
    cited = {r["id"]: r["number"] for ru in rulings for r in ru["rules"]}
    return {
        "id": card.id,
        "title": card.title,
        "type": name("card_types", card.card_type_id),
        "type_id": card.card_type_id,
        "side": name("sides", card.side_id),
        "faction": name("factions", card.faction_id),
        "subtypes": [name("card_subtypes", x) for x in card.subtypes],
        "cost": card.cost,
        "strength": card.strength,
        "memory_cost": card.memory_cost,
        "trash_cost": card.trash_cost,
        "agenda_points": card.agenda_points,
        "advancement_requirement": card.advancement_requirement,
        "influence_cost": card.influence_cost,
        "text": plain_text(card.text),
        "codes": [p.id for p in s.printings(card.id)],
        "standard": s.legality(card.id).to_dict(),
        "rulings": rulings,
        "version": v,
        "rules": [_rule_brief(doc, rid) for rid in mentions],
        "cited_rules": [{"id": rid, "number": n} for rid, n in cited.items()],
        "netrunnerdb": f"https://netrunnerdb.com/en/card/{s.printings(card.id)[-1].id}"
        if s.printings(card.id)
        else None,
    }


def card_search_payload(library: Library, query: str, sources: tuple[str, ...], limit: int) -> dict:
    hits = store(library).search(query, sources=sources, limit=limit)
    return {"query": query, "sources": list(sources), "results": [h.to_dict() for h in hits]}


def rulings_payload(library: Library, card: Card) -> dict:
    doc = library.document()
    return {
        "id": card.id,
        "title": card.title,
        "rulings": [ruling_payload(r, i, doc) for i, r in enumerate(store(library).rulings(card.id))],
    }


def cards_info(library: Library) -> dict | None:
    """What card data is loaded and from when (None when none is built)."""
    try:
        return store(library).info.to_dict()
    except LibraryError:
        return None
