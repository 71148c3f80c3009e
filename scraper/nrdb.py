"""NetrunnerDB card data -> frozen records: cards, printings, rulings, types, sets, formats.

Two sources give the same records:

* a folder in NetrunnerDB's v2 layout (the public ``netrunner-cards-json`` repository's ``v2/``):
  ``cards/<card id>.json``, ``printings/<set>.json``, ``rulings/<card id>.json``,
  ``formats/``, ``card_pools/``, ``restrictions/<format>/``, and the small tables
  (``card_types.json``, ``card_subtypes.json``, ``factions.json``, ``card_sets.json`` ...);
* a URL of NetrunnerDB's public API (default `DEFAULT_URL`): ``<url>/cards``,
  ``<url>/printings``, ``<url>/rulings`` ... each answering a JSON list of records, or a
  JSON:API document (``{"data": [{"id", "attributes"}], "links": {"next"}}``) which is
  flattened and followed page by page. Fetching reuses `scraper.source.fetch_url`: the same
  cache, conditional requests, timeout and offline message as the CR.

Validation is strict: any problem is one `ScrapeError` naming the file or URL and saying what is
wrong (a folder without cards, broken JSON, a record without its id, a printing or ruling for a
card that does not exist, an API answering HTML or an HTTP error).
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from . import schema
from .errors import ScrapeError
from .source import DEFAULT_TIMEOUT, default_cache_dir, fetch_url, is_url, parse_json, read_source

DEFAULT_URL = "https://api.netrunnerdb.com/api/v3/public/"
# Without a connection: a clone of NetrunnerDB's public netrunner-cards-json repository.
OFFLINE_HINT = "`nrrules build --cards ./netrunner-cards-json/v2` (a NetrunnerDB v2 folder)"
MAX_PAGES = 200  # a paginated API answer is followed at most this far
# A folder is read within these bounds (NetrunnerDB's v2 folder: 2,781 files, 12 MB, none over 100 KB).
MAX_FILE_BYTES = 8 * 1024 * 1024
MAX_TOTAL_BYTES = 256 * 1024 * 1024
MAX_FILES = 50_000
MAX_TEXT = schema.MAX_TEXT  # characters in any one field
# Every id (cards, printings, sets, types ...) is a plain slug: ids become URLs and file names
# (/c/<id>, the static export's c/<id>/index.html), so "../x" or "a/b" must never pass.
_ID = schema.SLUG

# Folder entries (a name ending in "/" is a folder of JSON files, read recursively) and the
# matching API resource names. Cards, printings and rulings must be present; tables may be
# missing from a partial folder (the records are then empty), but never broken.
_LAYOUT: dict[str, tuple[str, bool]] = {
    "cards": ("cards/", True),
    "printings": ("printings/", True),
    "rulings": ("rulings/", False),
    "card_types": ("card_types.json", False),
    "card_subtypes": ("card_subtypes.json", False),
    "factions": ("factions.json", False),
    "sides": ("sides.json", False),
    "card_sets": ("card_sets.json", False),
    "card_cycles": ("card_cycles.json", False),
    "formats": ("formats/", False),
    "card_pools": ("card_pools/", False),
    "restrictions": ("restrictions/", False),
}
# Over a URL every resource is required except these (older API versions lack them).
_URL_OPTIONAL = frozenset({"sides", "card_cycles"})


# ----------------------------------------------------------------------------------------------
# Records
# ----------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Card:
    id: str  # "ice_wall": the key everywhere
    title: str
    stripped_title: str
    card_type_id: str
    side_id: str
    faction_id: str
    text: str = ""  # with [credit], [subroutine], <strong> ... as NetrunnerDB prints it
    stripped_text: str = ""
    subtypes: tuple[str, ...] = ()
    cost: int | None = None
    strength: int | None = None
    memory_cost: int | None = None
    trash_cost: int | None = None
    agenda_points: int | None = None
    advancement_requirement: int | None = None
    influence_cost: int | None = None
    deck_limit: int | None = None
    is_unique: bool = False
    base_link: int | None = None
    minimum_deck_size: int | None = None
    influence_limit: int | None = None


@dataclass(frozen=True)
class Printing:
    id: str  # the NetrunnerDB code, e.g. "35074" (what the CR's card links end with)
    card_id: str
    card_set_id: str
    position: int | None = None
    quantity: int | None = None
    flavor: str = ""
    illustrator: str = ""


@dataclass(frozen=True)
class Named:
    """A row of a small table: card types, subtypes, factions, sides, cycles."""

    id: str
    name: str
    side_id: str | None = None


@dataclass(frozen=True)
class CardSet:
    id: str
    name: str
    card_cycle_id: str | None = None
    date_release: str | None = None
    position: int | None = None


@dataclass(frozen=True)
class Snapshot:
    id: str
    card_pool_id: str
    date_start: str
    restriction_id: str | None = None
    active: bool = False


@dataclass(frozen=True)
class Format:
    id: str
    name: str
    snapshots: tuple[Snapshot, ...] = ()

    def latest(self) -> Snapshot | None:
        """The last snapshot listed. Which one is *in force* depends on the date: see
        `rules_index.cards.current_snapshot`."""
        return self.snapshots[-1] if self.snapshots else None


@dataclass(frozen=True)
class CardPool:
    id: str
    name: str
    format_id: str | None = None
    card_cycle_ids: frozenset[str] = frozenset()
    card_set_ids: frozenset[str] = frozenset()


@dataclass(frozen=True)
class Restriction:
    id: str
    name: str
    format_id: str | None = None
    date_start: str | None = None
    banned: frozenset[str] = frozenset()
    restricted: frozenset[str] = frozenset()
    banned_subtypes: frozenset[str] = frozenset()
    points: tuple[tuple[str, int], ...] = ()


@dataclass(frozen=True)
class Ruling:
    card_id: str
    date_update: str | None
    verified: bool  # nsg_rules_team_verified
    question: str | None = None  # question + answer, or text_ruling alone
    answer: str | None = None
    text_ruling: str | None = None
    position: int = 0  # order within the card's file


@dataclass(frozen=True)
class CardData:
    """Everything read from one source, validated."""

    source: str  # folder or URL, as given
    source_hash: str  # sha256 over every file or answer read, in a fixed order
    cards: dict[str, Card]
    printings: dict[str, Printing]  # code -> printing
    rulings: tuple[Ruling, ...]
    card_types: dict[str, Named] = field(default_factory=dict)
    card_subtypes: dict[str, Named] = field(default_factory=dict)
    factions: dict[str, Named] = field(default_factory=dict)
    sides: dict[str, Named] = field(default_factory=dict)
    card_sets: dict[str, CardSet] = field(default_factory=dict)
    card_cycles: dict[str, Named] = field(default_factory=dict)
    formats: dict[str, Format] = field(default_factory=dict)
    card_pools: dict[str, CardPool] = field(default_factory=dict)
    restrictions: dict[str, Restriction] = field(default_factory=dict)
    notes: tuple[str, ...] = ()  # e.g. "offline: using the cached copy ..."


# ----------------------------------------------------------------------------------------------
# Reading raw records
# ----------------------------------------------------------------------------------------------


def _decode(data: bytes, name: str) -> Any:
    head = data.lstrip()[:1]
    if head == b"<":
        raise ScrapeError(name, "answered HTML, not JSON: this is not NetrunnerDB card data")
    # depth, integer, string and surrogate limits (scraper.source); the longest text of a real
    # card is ~500 characters, of a ruling ~1,100: a text of MAX_TEXT is already absurd
    return parse_json(data, name, max_string=MAX_TEXT)


def _records(value: Any, name: str) -> list[dict]:
    """A file or answer -> its records: a list, one object, or a JSON:API document."""
    if isinstance(value, dict) and "data" in value and isinstance(value["data"], list | dict):
        value = value["data"]
    items = value if isinstance(value, list) else [value]
    out: list[dict] = []
    for i, item in enumerate(items):
        if not isinstance(item, dict):
            raise ScrapeError(name, f"record {i + 1} is {type(item).__name__}, not a JSON object")
        if isinstance(item.get("attributes"), dict):  # JSON:API resource object
            item = {**item["attributes"], "id": item.get("id")}
        out.append(item)
    return out


def _read_folder(path: Path) -> tuple[dict[str, list[tuple[str, dict]]], str]:
    """Raw records per resource, each with the file it came from, and the hash of all bytes."""
    if not path.is_dir():
        raise ScrapeError(str(path), "no such folder" if not path.exists() else "is a file, not a folder")
    cards_dir = path / "cards"
    if not cards_dir.is_dir() or not any(cards_dir.glob("*.json")):
        raise ScrapeError(
            str(path),
            "contains no cards/*.json: not a NetrunnerDB v2 folder (expected cards/, printings/, rulings/ ...)",
        )
    h = hashlib.sha256()
    raw: dict[str, list[tuple[str, dict]]] = {}
    total = 0
    for resource, (entry, required) in _LAYOUT.items():
        target = path / entry.rstrip("/")
        if entry.endswith("/"):
            files = sorted(target.rglob("*.json")) if target.is_dir() else []
        else:
            files = [target] if target.is_file() else []
        if required and not files:
            raise ScrapeError(str(path), f"contains no {entry}*.json")
        rows: list[tuple[str, dict]] = []
        if len(files) > MAX_FILES:
            raise ScrapeError(str(target), f"holds {len(files)} files, more than the {MAX_FILES} read")
        for f in files:
            data = read_source(f, MAX_FILE_BYTES, root=path, what="card data file")
            total += len(data)
            if total > MAX_TOTAL_BYTES:
                raise ScrapeError(
                    str(path), f"holds more than {MAX_TOTAL_BYTES} bytes of JSON, far more than any card data"
                )
            h.update(str(f.relative_to(path)).encode())
            h.update(data)
            rows.extend((str(f), r) for r in _records(_decode(data, str(f)), str(f)))
        raw[resource] = rows
    return raw, h.hexdigest()


def _read_resource(
    url: str, cache: Path, timeout: float, h: Any, notes: list[str], optional: bool = False
) -> list[tuple[str, dict]]:
    """Every record of one API resource, following JSON:API ``links.next`` page by page (at most
    `MAX_PAGES`); each page's URL and bytes go into the hash `h`, each cache note into `notes`.
    An `optional` resource that answers 404 has no records."""
    rows: list[tuple[str, dict]] = []
    next_url: str | None = url
    pages = 0
    while next_url and pages < MAX_PAGES:
        try:
            src = fetch_url(next_url, cache, timeout, offline_hint=OFFLINE_HINT)
        except ScrapeError as exc:
            if optional and pages == 0 and "HTTP 404" in exc.message:
                return []
            raise
        if src.note and src.note not in notes:
            notes.append(src.note)
        h.update(next_url.encode())
        h.update(src.data)
        value = _decode(src.data, next_url)
        rows.extend((next_url, r) for r in _records(value, next_url))
        links = value.get("links") if isinstance(value, dict) else None
        nxt = links.get("next") if isinstance(links, dict) else None
        next_url = nxt if isinstance(nxt, str) and nxt and nxt != next_url else None
        pages += 1
    return rows


def _read_url(
    base: str, cache_dir: Path | None, timeout: float
) -> tuple[dict[str, list[tuple[str, dict]]], str, list[str]]:
    base = base if base.endswith("/") else base + "/"
    cache = cache_dir or default_cache_dir()
    h = hashlib.sha256()
    raw: dict[str, list[tuple[str, dict]]] = {}
    notes: list[str] = []
    for resource in _LAYOUT:
        raw[resource] = _read_resource(base + resource, cache, timeout, h, notes, resource in _URL_OPTIONAL)
    if not raw["cards"]:
        raise ScrapeError(base + "cards", "answered no cards")
    if raw["formats"] and not any(r.get("snapshots") for _, r in raw["formats"]):
        # NetrunnerDB's v3 API serves a format's snapshots as their own resource.
        raw["snapshots"] = _read_resource(base + "snapshots", cache, timeout, h, notes, optional=True)
    return raw, h.hexdigest(), notes


# ----------------------------------------------------------------------------------------------
# Validation
# ----------------------------------------------------------------------------------------------


def _str(rec: dict, key: str, where: str, required: bool = True) -> str | None:
    v = rec.get(key)
    if v is None or v == "":
        if required:
            raise ScrapeError(where, f"a record has no {key!r}: {_short(rec)}")
        return None
    if not isinstance(v, str | int):
        raise ScrapeError(where, f"{key!r} is {type(v).__name__}, not text, in {_short(rec)}")
    return str(v)


def _int(rec: dict, key: str, where: str) -> int | None:
    v = rec.get(key)
    if v is None:
        return None
    if isinstance(v, bool) or not isinstance(v, int):
        if isinstance(v, str) and v.strip().lstrip("-").isdigit() and len(v.strip()) <= 12:
            return int(v)
        shown = repr(v) if len(repr(v)) <= 40 else repr(v)[:37] + "..."
        raise ScrapeError(
            where, f"{key!r} is {shown}, not a whole number (of at most 12 digits), in {_short(rec)}"
        )
    return v


def _short(rec: dict) -> str:
    text = json.dumps({k: rec[k] for k in list(rec)[:4]}, ensure_ascii=False)
    return text if len(text) <= 120 else text[:117] + "..."


def _names(value: Any, where: str, key: str) -> tuple[str, ...]:
    if value is None:
        return ()
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ScrapeError(where, f"{key!r} is not a list of names")
    return tuple(value)


def _card(rec: dict, where: str) -> Card:
    cid = _str(rec, "id", where)
    assert cid is not None
    title = _str(rec, "title", where) or cid
    return Card(
        id=cid,
        title=title,
        stripped_title=_str(rec, "stripped_title", where, required=False) or title,
        card_type_id=_str(rec, "card_type_id", where) or "",
        side_id=_str(rec, "side_id", where) or "",
        faction_id=_str(rec, "faction_id", where) or "",
        text=_str(rec, "text", where, required=False) or "",
        stripped_text=_str(rec, "stripped_text", where, required=False) or "",
        subtypes=_names(rec.get("subtypes"), where, "subtypes"),
        cost=_int(rec, "cost", where),
        strength=_int(rec, "strength", where),
        memory_cost=_int(rec, "memory_cost", where),
        trash_cost=_int(rec, "trash_cost", where),
        agenda_points=_int(rec, "agenda_points", where),
        advancement_requirement=_int(rec, "advancement_requirement", where),
        influence_cost=_int(rec, "influence_cost", where),
        deck_limit=_int(rec, "deck_limit", where),
        is_unique=bool(rec.get("is_unique")),
        base_link=_int(rec, "base_link", where),
        minimum_deck_size=_int(rec, "minimum_deck_size", where),
        influence_limit=_int(rec, "influence_limit", where),
    )


def _printing(rec: dict, where: str) -> Printing:
    return Printing(
        id=_str(rec, "id", where) or "",
        card_id=_str(rec, "card_id", where) or "",
        card_set_id=_str(rec, "card_set_id", where) or "",
        position=_int(rec, "position", where),
        quantity=_int(rec, "quantity", where),
        flavor=_str(rec, "flavor", where, required=False) or "",
        illustrator=_str(rec, "illustrator", where, required=False) or "",
    )


def _ruling(rec: dict, where: str, position: int) -> Ruling:
    card_id = _str(rec, "card_id", where) or ""
    question = _str(rec, "question", where, required=False)
    answer = _str(rec, "answer", where, required=False)
    text = _str(rec, "text_ruling", where, required=False)
    if not text and not (question and answer):
        raise ScrapeError(where, f"a ruling for {card_id!r} has neither question + answer nor text_ruling")
    date = _str(rec, "date_update", where, required=False) or _str(rec, "updated_at", where, required=False)
    return Ruling(
        card_id=card_id,
        date_update=date[:10] if date else None,
        verified=bool(rec.get("nsg_rules_team_verified")),
        question=question,
        answer=answer,
        text_ruling=text,
        position=position,
    )


def _named(rec: dict, where: str) -> Named:
    return Named(
        id=_str(rec, "id", where) or "",
        name=_str(rec, "name", where, required=False) or str(rec.get("id")),
        side_id=_str(rec, "side_id", where, required=False),
    )


def _card_set(rec: dict, where: str) -> CardSet:
    return CardSet(
        id=_str(rec, "id", where) or "",
        name=_str(rec, "name", where, required=False) or str(rec.get("id")),
        card_cycle_id=_str(rec, "card_cycle_id", where, required=False),
        date_release=_str(rec, "date_release", where, required=False),
        position=_int(rec, "position", where),
    )


def _snapshot(rec: dict, where: str) -> Snapshot:
    return Snapshot(
        id=_str(rec, "id", where) or "",
        card_pool_id=_str(rec, "card_pool_id", where) or "",
        date_start=_str(rec, "date_start", where) or "",
        restriction_id=_str(rec, "restriction_id", where, required=False),
        active=bool(rec.get("active")),
    )


def _format(rec: dict, where: str) -> Format:
    snaps = rec.get("snapshots") or []
    if not isinstance(snaps, list):
        raise ScrapeError(where, "'snapshots' is not a list")
    return Format(
        id=_str(rec, "id", where) or "",
        name=_str(rec, "name", where, required=False) or str(rec.get("id")),
        snapshots=tuple(_snapshot(s, where) for s in snaps if isinstance(s, dict)),
    )


def _card_pool(rec: dict, where: str) -> CardPool:
    return CardPool(
        id=_str(rec, "id", where) or "",
        name=_str(rec, "name", where, required=False) or str(rec.get("id")),
        format_id=_str(rec, "format_id", where, required=False),
        card_cycle_ids=frozenset(_names(rec.get("card_cycle_ids"), where, "card_cycle_ids")),
        card_set_ids=frozenset(_names(rec.get("card_set_ids"), where, "card_set_ids")),
    )


def _restriction(rec: dict, where: str) -> Restriction:
    verdicts = rec.get("verdicts") if isinstance(rec.get("verdicts"), dict) else rec
    subtypes = rec.get("subtypes") if isinstance(rec.get("subtypes"), dict) else {}
    points = verdicts.get("points") if isinstance(verdicts.get("points"), dict) else {}
    return Restriction(
        id=_str(rec, "id", where) or "",
        name=_str(rec, "name", where, required=False) or str(rec.get("id")),
        format_id=_str(rec, "format_id", where, required=False),
        date_start=_str(rec, "date_start", where, required=False),
        banned=frozenset(_names(verdicts.get("banned"), where, "banned")),
        restricted=frozenset(_names(verdicts.get("restricted"), where, "restricted")),
        banned_subtypes=frozenset(_names(subtypes.get("banned"), where, "subtypes.banned")),
        points=tuple(sorted((str(k), int(v)) for k, v in points.items() if isinstance(v, int))),
    )


def _table(
    rows: Iterable[tuple[str, dict]],
    make: Callable[[dict, str], Any],
    what: str,
    fields: dict[str, schema.Field] | None = None,
    known: dict[str, set[str]] | None = None,
) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for where, rec in rows:
        item = make(rec, where)
        if not _ID.fullmatch(item.id):
            raise ScrapeError(
                where, f"{what} id {item.id[:120]!r} is not a plain id (lowercase letters, digits, _ and -)"
            )
        found = schema.problem(item, fields, known) if fields else None
        if found:  # the record's schema (scraper.schema): its id and the field's path
            raise ScrapeError(where, f"{schema.record_name(what, item)}: {found}")
        if item.id in out and out[item.id] != item:
            raise ScrapeError(where, f"{what} {item.id!r} is defined twice, differently")
        out[item.id] = item
    return out


def _validate(
    raw: dict[str, list[tuple[str, dict]]], source: str, source_hash: str, notes: list[str]
) -> CardData:
    tables = {
        name: _table(raw[name], _named, what)
        for name, what in (
            ("card_types", "card type"),
            ("card_subtypes", "subtype"),
            ("factions", "faction"),
            ("sides", "side"),
            ("card_cycles", "card cycle"),
        )
    }
    card_sets = _table(raw["card_sets"], _card_set, "card set")
    # the values a card or printing may name: the source's own tables, where it has them
    known = {name: set(table) for name, table in (*tables.items(), ("card_sets", card_sets)) if table}
    cards = _table(raw["cards"], _card, "card", schema.CARD, known)
    printings = _table(raw["printings"], _printing, "printing", schema.PRINTING, known)
    for code, p in printings.items():
        if p.card_id not in cards:
            where = next(w for w, r in raw["printings"] if str(r.get("id")) == code)
            raise ScrapeError(
                where, f"printing {code} is of card {p.card_id!r}, which is not among the cards"
            )
    rulings: list[Ruling] = []
    counts: dict[str, int] = {}
    for where, rec in raw["rulings"]:
        card_id = str(rec.get("card_id") or "")
        r = _ruling(rec, where, counts.get(card_id, 0))
        if r.card_id not in cards:
            raise ScrapeError(where, f"a ruling is for card {r.card_id!r}, which is not among the cards")
        if counts.get(card_id, 0) >= schema.MAX_RULINGS_PER_CARD:
            raise ScrapeError(
                where,
                f"card {card_id!r} has more than {schema.MAX_RULINGS_PER_CARD} rulings (the most any has: 21)",
            )
        found = schema.problem(r, schema.RULING)
        if found:
            raise ScrapeError(where, f"ruling {counts.get(card_id, 0) + 1} of card {card_id!r}: {found}")
        counts[card_id] = counts.get(card_id, 0) + 1
        rulings.append(r)
    formats = _table(raw["formats"], _format, "format")
    if raw.get("snapshots"):
        by_format: dict[str, list[Snapshot]] = {}
        for where, rec in raw["snapshots"]:
            by_format.setdefault(str(rec.get("format_id")), []).append(_snapshot(rec, where))
        formats = {
            k: Format(f.id, f.name, f.snapshots or tuple(by_format.get(k, ()))) for k, f in formats.items()
        }
    return CardData(
        source=source,
        source_hash=source_hash,
        cards=dict(sorted(cards.items())),
        printings=printings,
        rulings=tuple(rulings),
        card_types=tables["card_types"],
        card_subtypes=tables["card_subtypes"],
        factions=tables["factions"],
        sides=tables["sides"],
        card_sets=card_sets,
        card_cycles=tables["card_cycles"],
        formats=formats,
        card_pools=_table(raw["card_pools"], _card_pool, "card pool"),
        restrictions=_table(raw["restrictions"], _restriction, "restriction"),
        notes=tuple(notes),
    )


# ----------------------------------------------------------------------------------------------
# Entry point
# ----------------------------------------------------------------------------------------------


def load(
    spec: str | None = None, cache_dir: Path | None = None, timeout: float = DEFAULT_TIMEOUT
) -> CardData:
    """Read card data from a v2-layout folder or a URL of NetrunnerDB's public API."""
    spec = spec or DEFAULT_URL
    if is_url(spec):
        raw, h, notes = _read_url(spec, cache_dir, timeout)
        return _validate(raw, spec, h, notes)
    path = Path(spec).expanduser()
    raw, h = _read_folder(path)
    return _validate(raw, str(path), h, [])


# Linear time in any text (a card's text is whatever the source says: 200,000 "[" or "<" must not
# make a card page hang): no part can run on past the next place a match could start, so the
# scan from each "<" or "[" stops at the next one instead of at the end of the text.
_SYMBOL = re.compile(r'<span class="icon icon-([a-z0-9_-]+)"></span>')
_TAG = re.compile(r"<[^<>]+>")
_MD_LINK = re.compile(r"\[([^\[\]\n]*)\]\([^()\[\]\s]*\)")


def plain_text(text: str) -> str:
    """Card or ruling text without markup: icons as [credit], tags dropped, Markdown links
    ("[Funhouse](/en/card/30054)" in rulings) reduced to their words."""
    text = _SYMBOL.sub(lambda m: f"[{m.group(1)}]", text or "")
    return _MD_LINK.sub(r"\1", _TAG.sub("", text))
