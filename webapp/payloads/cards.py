"""Payload builders for NetrunnerDB cards and official rulings.

    card(rules, found, version)      the card page, /api/cards/<card>, `nrrules card --json`
    rulings(rules, found)            /api/cards/<card>/rulings, `nrrules rulings --json`
    board(rules, found)              /api/cards/<card>/board: the engine-ready board card object
                                     (what the engine does with card text, in words: card_engine)
    card_search(rules, q, ...)       /api/cards?q=: card and ruling hits, each with its `source`
    search_hits(rules, q, ...)       the same hits as a list, for the unified /api/search
    card_link(rules, code, name)     where a rule page links a card it mentions (with a preview)
    cards_info(rules)                what card data is built and from when (None if none)
    public_cards_info(rules)         the same with no server path in it (for /api/versions)

The card data lives in `rules_index.cards.CardStore` (built by `nrrules build --cards`); a
request that needs it when none is built gets `NoCardData` (503), a card that does not exist
`CardNotFound` (404, with near names as `suggestions`).
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable
from typing import Any

from rules_index.cards import (
    CITED_NUMBER,
    EMPHASIS,
    CardStore,
    Keyword,
    NameMatch,
    cited_numbers,
    era_note,
    find_keywords,
    ruling_text,
    subtype_rule,
)
from rules_index.store import LibraryError, public_source
from scraper.nrdb import Card, Ruling, plain_text

from ..errors import BadRequest, CardNotFound, NoCardData
from ..textfmt import SYMBOLS, glyph_html
from .context import Rules, clip

MAX_QUERY = 200
MAX_LIMIT = 50
SOURCES = ("cards", "rulings")


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
    """The card a reference names: card id, NetrunnerDB code, or name forgiving case, accents,
    punctuation, plurals, parts of identities' names and typos ("Snare", "snare!", "Sn@re!",
    "tolbooth"; `CardStore.match`, the one card-name matcher)."""
    return find_match(rules, ref)[0]


def find_match(rules: Rules, ref: str) -> tuple[Card, NameMatch]:
    """`find`, and how the card was found (``NameMatch.corrected``: under another name than
    the one typed, which the answer says: `showing`)."""
    ref = (ref or "").strip()
    if not ref or len(ref) > MAX_QUERY:
        raise BadRequest(f"a card id, NetrunnerDB code or name of 1 to {MAX_QUERY} characters is required")
    s = store(rules)
    found = s.match(ref, limit=1)
    if not found:
        near = [h.title for h in s.search(ref, sources=("cards",), limit=3)]
        raise CardNotFound(f"no card matches {ref!r}", suggestions=near)
    return s.card(found[0].card_id), found[0]


def card_named(rules: Rules, ref: str, version: str | None = None) -> dict[str, Any]:
    """`card` for the card a reference names (`find_match`), with ``showing`` when it was named
    under another name ("tolbooth"): /api/cards/<card> and `nrrules card --json`."""
    found, how = find_match(rules, ref)
    shown = showing(rules, found, ref) if how.corrected else None
    return {**card(rules, found, version), "showing": shown}


def showing(rules: Rules, card: Card, typed: str | None) -> dict[str, str] | None:
    """``{"id", "title", "typed"}`` when ``typed`` is a name the matcher reads as ``card`` under
    another name ("tolbooth" for Tollbooth), else None: what a card's answer says it shows."""
    typed = " ".join((typed or "").split())
    if not typed or len(typed) > MAX_QUERY:
        return None
    found = store(rules).match(typed, limit=1)
    if not found or found[0].card_id != card.id or not found[0].corrected:
        return None
    return {"id": card.id, "title": card.title, "typed": typed}


def _ruling(rules: Rules, r: Ruling, index: int, doc: Any, linker: _Linker) -> dict[str, Any]:
    cited = []
    for number in cited_numbers(r):
        res = rules.library.lookup(number, doc.version)
        if res.nodes:
            cited.append({"number": number, "id": res.nodes[0].id})
    words = ruling_text(r)
    marked = ruling_text(r, marked=True)
    numbers = {c["number"]: c["id"] for c in cited}
    linker.seen.clear()  # each ruling links the first use of each keyword
    return {
        "index": index,
        "date": r.date_update,
        "verified": r.verified,
        "note": era_note(r),
        "source": words.source,
        "question": words.question,
        "answer": words.answer,
        "text": words.text,
        "follow_up": words.follow_up,
        "html": {
            "question": linker.ruling_text(marked.question, numbers),
            "answer": linker.ruling_text(marked.answer, numbers),
            "text": linker.ruling_text(marked.text, numbers),
            "follow_up": linker.ruling_text(marked.follow_up, numbers),
        },
        "rules": cited,
    }


def _rule_brief(doc: Any, node_id: str) -> dict[str, Any]:
    node = doc.node(node_id)
    text = " ".join((node.text or "").split())
    return {
        "id": node.id,
        "number": node.number,
        "title": node.title,
        "text": clip(text, 160),
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
    from engine.cardrecords import resolve  # the engine: only a card's board object needs it

    s = store(rules)
    names = {k: v["name"] for k, v in s.table("card_subtypes").items()}
    try:
        r = resolve(card, names)  # the card's reviewed record where it accounts for the text
        from .card_engine import unit_dict  # each unit with its status in words (`says`)

        units = [unit_dict(u, card.side_id, note) for u, note in zip(r.units, r.reviews, strict=True)]
    except ValueError:
        return {"id": card.id, "title": card.title, "card": None, "units": [], "by_hand": 0}
    by_hand = sum(1 for u in units if u["status"] in ("by_hand", "shown"))
    return {
        "id": card.id,
        "title": card.title,
        "card": r.card,
        "units": units,
        "by_hand": by_hand,
        "record": r.record,
        "problems": r.problems,
    }


def engine_units(rules: Rules, card: Card) -> list[dict[str, Any]]:
    """What the engine does with each unit of a card's printed text (engine.cardrecords)."""
    s = store(rules)
    names = {k: v["name"] for k, v in s.table("card_subtypes").items()}
    try:
        from engine.cardrecords import resolve

        return [u.to_dict() for u in resolve(card, names).units]
    except ValueError:
        return []


def coverage(rules: Rules, standard_only: bool = True) -> dict[str, Any]:
    """How much of the card pool's printed text the engine models (the Standard pool by default,
    else every card of the data set): per card type and overall, every unit counted."""
    s = store(rules)
    names = {k: v["name"] for k, v in s.table("card_subtypes").items()}
    cards = s.cards()
    if standard_only:
        legality, _ = s.standard()
        cards = [c for c in cards if c.id in legality and legality[c.id].legal]
    from engine.cardrecords import resolved_units
    from engine.cardtext import coverage as text_coverage

    return {"pool": "standard" if standard_only else "all", **text_coverage(cards, names, resolved_units)}


# ----------------------------------------------------------------------------------------------
# Card text and rulings as HTML: symbols, keyword links, rule citations
# ----------------------------------------------------------------------------------------------

_MARKUP = re.compile(r"(</?(?:strong|em|ul|li)>)")
# Symbols with a glyph (webapp/textfmt.py SYMBOLS); others, such as faction symbols, stay as their
# bracketed text.
_SYMBOL = re.compile(r"\[([a-z][a-z-]*)\]")
# Both linear in any text (see scraper.nrdb.plain_text): a tag ends before the next "<", and the
# blanks around a list tag are matched from the start of their run only (the lookbehind), not
# again from every blank inside it.
_TAG = re.compile(r"<[^<>]+>")
_AROUND_LIST_TAG = re.compile(r"(?<!\s)\s*(</?(?:ul|li)>)\s*")

# Symbols that stand for a CR keyword: the glyph links its rule like the words would.
_SYMBOL_TERMS = {"recurring-credit": "recurring credits", "interrupt": "interrupt"}


class _Linker:
    """Turns plain text into safe HTML: symbols as glyph spans, the first use of each CR
    keyword (across every text given to one linker) as a link to its rule, and cited rule
    numbers as links."""

    def __init__(self, rules: Rules, version: str, s: CardStore, doc: Any):
        self.pattern, self.table = s.keywords(doc, rules.library.graph(version))
        self.suffix = rules.suffix(version)
        self.seen: set[str] = set()
        self.used: list[Keyword] = []

    def _symbol(self, m: re.Match) -> str:
        name = m.group(1)
        if name not in SYMBOLS:
            return m.group(0)
        glyph = glyph_html(name)
        kw = self.table.get(_SYMBOL_TERMS.get(name, ""))
        if kw is None or kw.term in self.seen:
            return glyph
        return self._link(kw) + glyph + "</a>"

    def _link(self, kw: Keyword) -> str:
        """The opening tag of a keyword's link (the keyword counts as used)."""
        self.seen.add(kw.term)
        self.used.append(kw)
        href = html.escape(f"/id/{kw.rule_id}{self.suffix}")
        tip = html.escape(f"CR {kw.number or kw.rule_id}: {kw.term}")
        return f'<a class="kw" href="{href}" title="{tip}">'

    def _plain(self, text: str, cited: dict[str, str], bold: bool = False) -> str:
        marks: list[tuple[int, int, str]] = []
        for start, end, kw in find_keywords(text, self.pattern, self.table, bold):
            if kw.term not in self.seen:
                marks.append((start, end, self._link(kw)))
        for m in CITED_NUMBER.finditer(text) if cited else ():
            rule_id = cited.get(m.group(1).lower())
            if rule_id and not any(s < m.end() and m.start() < e for s, e, _ in marks):
                href = html.escape(f"/id/{rule_id}{self.suffix}")
                marks.append((m.start(), m.end(), f'<a class="ref" href="{href}">'))
        out: list[str] = []
        at = 0
        for start, end, tag in sorted(marks):
            if start < at:
                continue
            out.append(self._escape(text[at:start]))
            out.append(tag + self._escape(text[start:end]) + "</a>")
            at = end
        out.append(self._escape(text[at:]))
        return "".join(out)

    def _escape(self, text: str) -> str:
        return _SYMBOL.sub(self._symbol, html.escape(text, quote=False))

    def card_text(self, text: str) -> str:
        """NetrunnerDB card text (with <strong>, <em>, lists and [symbols]) as safe HTML."""
        parts = []
        bold = False
        for piece in _MARKUP.split(text or ""):
            if _MARKUP.fullmatch(piece):
                parts.append(piece)
                if piece in ("<strong>", "</strong>"):
                    bold = piece == "<strong>"
            else:
                parts.append(self._plain(_TAG.sub("", piece), {}, bold))
        body = _AROUND_LIST_TAG.sub(r"\1", "".join(parts))
        return "<br>".join(line for line in body.split("\n") if line.strip())

    def ruling_text(self, text: str | None, cited: dict[str, str]) -> str | None:
        """A ruling's words (with their Markdown emphasis, `ruling_text(marked=True)`) as safe
        HTML: the emphasis as <em> and <strong>, every other character escaped."""
        if not text:
            return None
        out: list[str] = []
        at = 0
        for m in EMPHASIS.finditer(text):
            out.append(self._lines(text[at : m.start()], cited))
            tag = "strong" if m.group(1) == "**" else "em"
            out.append(f"<{tag}>{self._lines(m.group(2), cited)}</{tag}>")
            at = m.end()
        out.append(self._lines(text[at:], cited))
        return "".join(out)

    def _lines(self, text: str, cited: dict[str, str]) -> str:
        return "<br>".join(self._plain(line, cited) for line in text.split("\n") if line.strip())


def card(rules: Rules, card: Card, version: str | None = None) -> dict[str, Any]:
    """Everything a judge wants about one card: data, legality, rulings, rules mentioning it, and
    what the engine does with it (`engine`: payloads.card_engine)."""
    from .card_engine import engine_account

    s = store(rules)
    v = rules.version(version)
    doc = rules.library.document(v)
    p = _card_core(rules, s, doc, _Linker(rules, v, s, doc), card)
    p["rules"] = [_rule_brief(doc, rid) for rid in p["rules"]]
    p["engine"] = engine_account(s, card)
    return p


def _card_core(rules: Rules, s: CardStore, doc: Any, linker: _Linker, card: Card) -> dict[str, Any]:
    """`card` without the engine's account, with ``rules`` as the ids of the rules mentioning the
    card (what both the card page and the saved copy's reading pack need)."""
    linker.seen.clear()
    linker.used.clear()
    text_html = linker.card_text(card.text)
    keywords = [{"term": k.term, "kind": k.kind, "id": k.rule_id, "number": k.number} for k in linker.used]
    rulings_ = [_ruling(rules, r, i, doc, linker) for i, r in enumerate(s.rulings(card.id))]
    cited = {x["id"]: x["number"] for r in rulings_ for x in r["rules"]}
    printings = s.printings(card.id)
    names = _names(s, card)
    subtype_rules = []
    for name in names["subtypes"]:
        kw = subtype_rule(doc, linker.table, name or "", card.card_type_id)
        subtype_rules.append(None if kw is None else {"id": kw.rule_id, "number": kw.number})
    return {
        "id": card.id,
        "title": card.title,
        **names,
        "subtype_rules": subtype_rules,
        "type_id": card.card_type_id,
        "cost": card.cost,
        "strength": card.strength,
        "memory_cost": card.memory_cost,
        "trash_cost": card.trash_cost,
        "agenda_points": card.agenda_points,
        "advancement_requirement": card.advancement_requirement,
        "influence_cost": card.influence_cost,
        "text": plain_text(card.text),
        "text_html": text_html,
        "keywords": keywords,
        "codes": [p.id for p in printings],
        "standard": s.legality(card.id).to_dict(),
        "rulings": rulings_,
        "version": doc.version,
        "rules": list(s.mentions(doc).get(card.id, [])),
        "cited_rules": [{"id": rid, "number": n} for rid, n in cited.items()],
        "netrunnerdb": f"https://netrunnerdb.com/en/card/{printings[-1].id}" if printings else None,
        "url": f"/c/{card.id}",
    }


def offline_cards(rules: Rules, version: str, render: Callable[[str, dict[str, Any]], str]) -> list[list]:
    """Every card as the saved copy's reading pack holds it (webapp.views.offline), one row a
    card: ``[id, title, head, rulings, mentions, cited]``: ``head`` and ``rulings`` the card
    page's own markup (``render(template, payload)`` of _card_head.html and
    _card_rulings.html), ``mentions`` the ids of the rules of ``version`` mentioning the card
    and ``cited`` those its rulings cite (the saved rules give their numbers and text)."""
    s = store(rules)
    doc = rules.library.document(version)
    linker = _Linker(rules, version, s, doc)
    rows: list[list] = []
    for c in sorted(s.cards(), key=lambda c: c.id):
        p = _card_core(rules, s, doc, linker, c)
        rows.append(
            [
                c.id,
                c.title,
                render("_card_head.html", p),
                render("_card_rulings.html", p) if p["rulings"] else "",
                p["rules"],
                [x["id"] for x in p["cited_rules"]],
            ]
        )
    return rows


def rulings(rules: Rules, card: Card) -> dict[str, Any]:
    s = store(rules)
    doc = rules.library.document(rules.latest)
    linker = _Linker(rules, rules.latest, s, doc)
    return {
        "id": card.id,
        "title": card.title,
        "rulings": [_ruling(rules, r, i, doc, linker) for i, r in enumerate(s.rulings(card.id))],
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
            "how": h.how,
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
    first = next((h for h in hits if h["source"] == "cards"), None)
    shown = showing(rules, store(rules).card(first["id"]), query) if first and first["how"] else None
    return {"query": " ".join(query.split()), "sources": list(sources), "results": hits, "showing": shown}


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
    return {"href": f"/c/{c.id}", "preview": clip(text, 140), "local": True}


def cards_info(rules: Rules) -> dict[str, Any] | None:
    """What card data is built and from when (None when none is)."""
    try:
        store_ = rules.library.cards()
    except LibraryError:
        return None
    return {**store_.info.to_dict(), "standard": store_.standard()[1]}  # as of today (UTC)


def public_cards_info(rules: Rules) -> dict[str, Any] | None:
    """`cards_info` for answers served to anyone (/api/versions): `source` is the URL or the
    folder's name the data was built from, never a server path."""
    info = cards_info(rules)
    return None if info is None else {**info, "source": public_source(info["source"])}
