"""Per-record schemas: every card, printing, ruling and judges' document record is checked field
by field (type, range, length, id form, known values, counts) when a build is made from a source
AND when a build is opened, so a damaged record is refused with its id and the field's path
("card 'ice_wall': strength: -5 is below 0") and never served (issue 38).

A schema is a dict of field name -> `Field`; `problem` walks a record (a dict as read from JSON,
or a dataclass as made by a reader) and answers the first problem as ``"path: what"``, or None.
Fields not in the schema are not looked at (the record's constructor refuses unknown ones). The
bounds are generous beyond the real data (NetrunnerDB v2: cost 0-18, strength 0-11, texts under
500 characters, rulings under 1,200, at most 21 rulings on a card; the judges' excerpt: items
under 1,000 characters) and tight enough that no value can make a page, an index or the engine
do unbounded work.
"""

from __future__ import annotations

import re
from collections.abc import Container, Mapping
from dataclasses import dataclass, fields, is_dataclass
from typing import Any

# Every id that becomes a URL or a file name (cards, printings, sets, types ...): a plain slug.
SLUG = re.compile(r"[a-z0-9][a-z0-9_-]{0,99}")
# A judges' section or item id: a heading path ("repairing-board-states.take-backs"), any letters;
# a clash between documents is prefixed with the document's name ("floor-guide:timing").
PATH_ID = re.compile(r"\w[\w.:-]{0,999}")
DATE = re.compile(r"\d{4}-\d{2}-\d{2}")
VERSION = re.compile(r"\d{1,3}\.\d{1,3}")
MAX_TEXT = 20_000  # characters of a card's or ruling's text (real: under 1,200)
MAX_NAME = 300  # characters of a title, a name, a label
MAX_RULINGS_PER_CARD = 500  # real: 21 at most
MAX_JUDGE_TEXT = 200_000  # characters of a judges' item's text or HTML
MAX_JUDGE_ITEMS = 100_000  # the flattener's element bound (scraper.judge) allows no more

# What the game defines: known even when a partial source has no tables to say so.
SIDES = frozenset({"corp", "runner"})
CARD_TYPES = frozenset(
    {
        "agenda",
        "asset",
        "corp_identity",
        "event",
        "hardware",
        "ice",
        "operation",
        "program",
        "resource",
        "runner_identity",
        "upgrade",
    }
)


@dataclass(frozen=True)
class Field:
    """One field's constraints. ``kind``: "str", "int", "bool", "list" or "record" (a nested
    record checked with ``schema``). ``known``: the name of a set of allowed values given to
    `problem` (a source's own tables) or a fixed set."""

    kind: str
    required: bool = False
    lo: int | None = None
    hi: int | None = None
    max_len: int | None = None  # characters of a string, entries of a list
    pattern: re.Pattern | None = None
    known: str | frozenset | None = None
    items: Field | None = None  # a list's entries
    schema: Mapping[str, Field] | None = None  # a record's fields


def _text(n: int = MAX_TEXT, required: bool = False, pattern: re.Pattern | None = None, known=None) -> Field:
    return Field("str", required=required, max_len=n, pattern=pattern, known=known)


def _num(lo: int, hi: int, required: bool = False) -> Field:
    return Field("int", required=required, lo=lo, hi=hi)


CARD: dict[str, Field] = {
    "id": _text(100, True, SLUG),
    "title": _text(MAX_NAME, True),
    "stripped_title": _text(MAX_NAME),
    "card_type_id": _text(100, True, SLUG, "card_types"),
    "side_id": _text(100, True, SLUG, "sides"),
    "faction_id": _text(100, True, SLUG, "factions"),
    "text": _text(),
    "stripped_text": _text(),
    "subtypes": Field("list", max_len=30, items=_text(100, True, SLUG, "card_subtypes")),
    "cost": _num(0, 99),
    "strength": _num(0, 99),
    "memory_cost": _num(0, 99),
    "trash_cost": _num(0, 99),
    "agenda_points": _num(-99, 99),
    "advancement_requirement": _num(0, 99),
    "influence_cost": _num(0, 99),
    "deck_limit": _num(0, 99),
    "is_unique": Field("bool"),
    "base_link": _num(0, 99),
    "minimum_deck_size": _num(0, 999),
    "influence_limit": _num(0, 999),
}
PRINTING: dict[str, Field] = {
    "id": _text(100, True, SLUG),
    "card_id": _text(100, True, SLUG),
    "card_set_id": _text(100, True, SLUG, "card_sets"),
    "position": _num(0, 99_999),
    "quantity": _num(0, 99),
    "flavor": _text(),
    "illustrator": _text(MAX_NAME),
}
RULING: dict[str, Field] = {
    "card_id": _text(100, True, SLUG),
    "date_update": _text(10, pattern=DATE),
    "verified": Field("bool"),
    "question": _text(),
    "answer": _text(),
    "text_ruling": _text(),
    "position": _num(0, MAX_RULINGS_PER_CARD),
}

_JUDGE_REF: dict[str, Field] = {
    "text": _text(MAX_NAME, True),
    "document": _text(100, True),
    "number": _text(100),
    "version": _text(20, pattern=VERSION),
    "inherited": Field("bool"),
}
_REFS = Field("list", max_len=1_000, items=Field("record", schema=_JUDGE_REF))
JUDGE_SECTION: dict[str, Field] = {
    "id": _text(1000, True, PATH_ID),
    "title": _text(MAX_JUDGE_TEXT),
    "heading": _text(MAX_JUDGE_TEXT),
    "level": _num(1, 200, True),
    "parent": _text(1000, pattern=PATH_ID),
    "order": _num(0, MAX_JUDGE_ITEMS, True),
    "refs": _REFS,
    "cr_version": _text(20, pattern=VERSION),
}
_JUDGE_LINE: dict[str, Field] = {
    "label": _text(100),
    "depth": _num(0, 200, True),
    "text": _text(MAX_JUDGE_TEXT),
    "html": _text(MAX_JUDGE_TEXT),
}
JUDGE_ITEM: dict[str, Field] = {
    "id": _text(1000, True, PATH_ID),
    "section": _text(1000, True, PATH_ID),
    "kind": _text(20, True, known=frozenset({"list", "paragraph", "faq"})),
    "order": _num(0, MAX_JUDGE_ITEMS, True),
    "title": _text(MAX_JUDGE_TEXT),
    "text": _text(MAX_JUDGE_TEXT),
    "html": _text(MAX_JUDGE_TEXT),
    "lines": Field("list", max_len=MAX_JUDGE_ITEMS, items=Field("record", schema=_JUDGE_LINE)),
    "refs": _REFS,
    "cards": Field("list", max_len=10_000, items=_text(MAX_NAME, True)),
    "question": _text(MAX_JUDGE_TEXT),
    "answer": _text(MAX_JUDGE_TEXT),
}
JUDGE_DOCUMENT: dict[str, Field] = {
    "title": _text(MAX_NAME * 4, True),
    "source": _text(4096, True),
    "source_hash": _text(64, True, re.compile(r"[0-9a-f]{64}")),
    "generator": _text(20, True, known=frozenset({"google-docs", "libreoffice", "html"})),
    "cr_version": _text(20, pattern=VERSION),
    "sections": Field("list", max_len=MAX_JUDGE_ITEMS, items=Field("record", schema=JUDGE_SECTION)),
    "items": Field("list", max_len=MAX_JUDGE_ITEMS, items=Field("record", schema=JUDGE_ITEM)),
}


def _values(record: Any) -> Mapping[str, Any] | None:
    if isinstance(record, Mapping):
        return record
    if is_dataclass(record) and not isinstance(record, type):
        return {f.name: getattr(record, f.name) for f in fields(record)}
    return None


def _shown(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _value_problem(value: Any, spec: Field, known: Mapping[str, Container[str]], path: str) -> str | None:
    if spec.kind == "record":
        return problem(value, spec.schema or {}, known, path)
    if spec.kind == "list":
        if not isinstance(value, list | tuple):
            return f"{path}: is {type(value).__name__}, not a list"
        if spec.max_len is not None and len(value) > spec.max_len:
            return f"{path}: has {len(value)} entries, more than {spec.max_len}"
        for i, item in enumerate(value):
            ident = item.get("id") if isinstance(item, Mapping) else None
            sub = f"{path}[{i}]" + (f"(id {_shown(ident)})" if isinstance(ident, str) else "")
            found = _value_problem(item, spec.items or Field("str"), known, sub)
            if found:
                return found
        return None
    if spec.kind == "bool":
        return None if isinstance(value, bool) else f"{path}: is {_shown(value)}, not true or false"
    if spec.kind == "int":
        if isinstance(value, bool) or not isinstance(value, int):
            return f"{path}: is {_shown(value)}, not a whole number"
        if spec.lo is not None and value < spec.lo:
            return f"{path}: {_shown(value)} is below {spec.lo}"
        if spec.hi is not None and value > spec.hi:
            return f"{path}: {_shown(value)} is above {spec.hi}"
        return None
    if not isinstance(value, str):
        return f"{path}: is {type(value).__name__}, not text"
    if spec.max_len is not None and len(value) > spec.max_len:
        return f"{path}: is {len(value)} characters, more than {spec.max_len}"
    if spec.pattern is not None and not spec.pattern.fullmatch(value):
        return f"{path}: {_shown(value)} is not of the form {spec.pattern.pattern}"
    allowed = known.get(spec.known) if isinstance(spec.known, str) else spec.known
    if allowed is not None and value not in allowed:
        return f"{path}: {_shown(value)} is not a known value"
    return None


def problem(
    record: Any,
    schema: Mapping[str, Field],
    known: Mapping[str, Container[str]] | None = None,
    path: str = "",
) -> str | None:
    """The first problem of ``record`` against ``schema`` as ``"field.path: what"``, or None.
    ``known``: sets of allowed values by name (``"card_types"``...); a name not given is not
    checked (a partial source without its tables), `SIDES` and `CARD_TYPES` stand in for theirs."""
    values = _values(record)
    where = path or "record"
    if values is None:
        return f"{where}: is {type(record).__name__}, not a record"
    known = {"sides": SIDES, "card_types": CARD_TYPES, **(known or {})}
    for name, spec in schema.items():
        value = values.get(name)
        sub = f"{path}.{name}" if path else name
        if value is None:
            if spec.required:
                return f"{sub}: is missing"
            continue
        found = _value_problem(value, spec, known, sub)
        if found:
            return found
    return None


def record_name(kind: str, record: Any, key: str = "id") -> str:
    """How an error names a record: "card 'ice_wall'" (its id shown safely, whatever it holds)."""
    values = _values(record) or {}
    ident = values.get(key)
    return f"{kind} {_shown(ident)}" if ident is not None else kind
