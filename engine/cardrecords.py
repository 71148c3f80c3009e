"""Per-card behaviour records (issue 33): what the engine does with each unit of a card's printed
text, stored as reviewed data in engine/cards/<card id>.json, and read back failing closed.

A record (schema: `record_problems`) holds a card's id and title, a hash of its printed text
(`text_hash`) and, per unit (one subroutine or printed paragraph, engine.cardtext.card_units):

    {"text": "[subroutine] End the run.", "kind": "subroutine", "status": "modeled", "at": null,
     "engine": {"subroutines": ["end_the_run"]},
     "review": {"by": "translator"}}

`engine` is what the unit adds to the board object (engine.cardtext.translate): subroutines,
abilities, triggers, play effects, constants (``strength_mods``, ``mu``, ``link`` ...), text shown
on the card (``unmodeled``). `review.by` is "translator" (proposed by engine.cardtext) or "hand"
(checked by a person against the printed text and the CR; ``note`` says what was corrected;
``proposed`` fingerprints what the translator said then, so a later change of the translator under
a reviewed unit is reported).

`resolve` is the one way a card becomes a board object when records are present (the card API,
the editor, card pages, coverage): the translator's current output is kept only where the record
accounts for it. A unit the record does not account for, a proposed unit the translator now
translates differently, a record that fails its schema, or a card whose text hash no longer
matches, is surfaced BY HAND (its text where it applies; constants shown on the card) and named
in `Resolved.problems`, never silently kept. `check` lists them for the card build.

Generator (`python -m engine.cardrecords --write | --check`): proposes a record for every card of
the current Standard pool (and keeps every card with a hand-reviewed unit), keeps hand reviews,
is idempotent, and prints exactly what it changed (or, with --check, what is stale; exit 1).
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
import time
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from . import board as B
from .cardtext import BY_HAND, MODELED, NOT_APPLICABLE, SHOWN, STATUSES, UNIT_KINDS, Unit, translate

__all__ = [
    "FORMAT",
    "RECORDS_DIR",
    "Records",
    "Resolved",
    "check",
    "load",
    "proposed_record",
    "record_problems",
    "resolve",
    "resolved_units",
    "text_hash",
]

FORMAT = 1
RECORDS_DIR = Path(__file__).resolve().parent / "cards"
TRANSLATOR, HAND = "translator", "hand"
KINDS = UNIT_KINDS
# the board object's fields a unit may add (engine.cardtext: what `_added` finds): any field the
# board format gives a card or the Corp's identity (engine.board, the one vocabulary), but what
# names the card itself
ENGINE_FIELDS = frozenset(
    (B._CARD_FIELDS_CORP | B._CARD_FIELDS_RUNNER | B._CORP_IDENTITY_FIELDS)
    - {"name", "card_id", "text", "type"}
)
_LIST_FIELDS = frozenset({"subroutines", "abilities", "triggers", "effects", "strength_mods", "unmodeled"})
_ADDED_FIELDS = frozenset({"mu", "link", "hand_size"})
_WHERE = {"ice": "ice", "asset": "content", "agenda": "content", "upgrade": "root"}
_WHERE.update(program="programs", hardware="hardware", resource="resources", operation="hand", event="hand")


def text_hash(card: Any) -> str:
    """16 hex digits of the SHA-256 of a card's printed text as the card data writes it (markup
    included: a formatting variant is a change the translator may read differently)."""
    get = card.get if isinstance(card, Mapping) else lambda k, d=None: getattr(card, k, d)
    return hashlib.sha256((get("text") or "").encode("utf-8")).hexdigest()[:16]


def _canon(value: Any) -> str:
    return json.dumps(value, sort_keys=True, ensure_ascii=False, separators=(",", ":"))


def fingerprint(status: str, at: str | None, engine: dict) -> str:
    """What the translator proposed for a unit, in 12 hex digits (kept under a hand review)."""
    return hashlib.sha256(_canon([status, at, engine]).encode("utf-8")).hexdigest()[:12]


# ----------------------------------------------------------------------------------------------
# Schema
# ----------------------------------------------------------------------------------------------


def record_problems(rec: Any, card_type: str | None = None) -> list[str]:
    """Every way a record breaks the format, [] when it is good. With `card_type`, each hand-
    reviewed unit's `engine` is also checked against the engine's board format for that type."""
    if not isinstance(rec, dict):
        return ["a record is a JSON object"]
    out: list[str] = []
    extra = set(rec) - {"format", "card_id", "title", "type", "text_hash", "units"}
    if extra:
        out.append(f"unknown fields {sorted(extra)}")
    if rec.get("format") != FORMAT:
        out.append(f"format must be {FORMAT}")
    for key in ("card_id", "title", "type", "text_hash"):
        if not isinstance(rec.get(key), str) or not rec.get(key):
            out.append(f"{key} must be a non-empty string")
    units = rec.get("units")
    if not isinstance(units, list):
        return [*out, "units must be a list"]
    for i, u in enumerate(units):
        where = f"units[{i}]"
        if not isinstance(u, dict):
            out.append(f"{where} must be an object")
            continue
        extra = set(u) - {"text", "kind", "status", "at", "engine", "review"}
        if extra:
            out.append(f"{where}: unknown fields {sorted(extra)}")
        if not isinstance(u.get("text"), str) or not u.get("text"):
            out.append(f"{where}.text must be a non-empty string")
        if u.get("kind") not in KINDS:
            out.append(f"{where}.kind must be one of {', '.join(KINDS)}")
        if u.get("status") not in STATUSES:
            out.append(f"{where}.status must be one of {', '.join(STATUSES)}")
        if u.get("at") is not None and not isinstance(u.get("at"), str):
            out.append(f"{where}.at must be a string or null")
        eng = u.get("engine")
        if not isinstance(eng, dict) or set(eng) - ENGINE_FIELDS:
            out.append(f"{where}.engine must be an object of {', '.join(sorted(ENGINE_FIELDS))}")
            eng = {}
        for k, v in eng.items():
            if k in _LIST_FIELDS and not isinstance(v, list):
                out.append(f"{where}.engine.{k} must be a list")
        if u.get("status") == MODELED and not eng:
            out.append(f"{where}: a modeled unit adds something to the engine")
        review = u.get("review")
        if not isinstance(review, dict) or review.get("by") not in (TRANSLATOR, HAND):
            out.append(f"{where}.review must be {{'by': 'translator' | 'hand', ...}}")
        elif review.get("by") == HAND:
            if set(review) - {"by", "note", "proposed"}:
                out.append(
                    f"{where}.review: unknown fields {sorted(set(review) - {'by', 'note', 'proposed'})}"
                )
            if not isinstance(review.get("note"), str) or not review["note"].strip():
                out.append(f"{where}.review.note: a hand review says what was checked or corrected")
            if not isinstance(review.get("proposed"), str):
                out.append(f"{where}.review.proposed: the translator's fingerprint when reviewed")
            if card_type and eng and not out:
                out.extend(f"{where}.engine: {p}" for p in _engine_problems(eng, card_type))
        elif set(review) != {"by"}:
            out.append(f"{where}.review: a translator's proposal has only 'by'")
    return out


def _engine_problems(engine: dict, card_type: str) -> list[str]:
    """The engine's own board check of a card carrying `engine` (a hand-written unit)."""
    from .board import _check_corp_identity, _check_identity, _Checker

    if card_type in ("corp_identity", "runner_identity"):  # checked as the board checks identities
        ck = _Checker()
        ident: dict[str, Any] = {"name": "record"}
        _merge(ident, engine)
        (_check_corp_identity if card_type == "corp_identity" else _check_identity)(ck, ident)
        return ck.problems
    obj: dict[str, Any] = {"name": "record", "type": card_type}
    if card_type in ("ice", "program"):
        obj["strength"] = 0
    _merge(obj, engine)
    ck = _Checker()
    side = "corp" if card_type in ("agenda", "asset", "upgrade", "ice", "operation") else "runner"
    ck.card(obj, "card", side, _WHERE.get(card_type, "hand"))
    return ck.problems


# ----------------------------------------------------------------------------------------------
# Loading
# ----------------------------------------------------------------------------------------------


@dataclass
class Records:
    """The records of a folder: card id -> record (as stored), and the files that failed."""

    folder: Path
    by_id: dict[str, dict] = field(default_factory=dict)
    broken: dict[str, str] = field(default_factory=dict)  # card id -> what is wrong

    def get(self, card_id: str) -> dict | None:
        return self.by_id.get(card_id)

    def __len__(self) -> int:
        return len(self.by_id) + len(self.broken)


_LOADED: dict[Path, tuple[tuple[int, int], Records]] = {}
_CHECKED: dict[Path, float] = {}  # when each folder's modification times were last looked at
RECHECK_SECONDS = 1.0


def load(folder: Path | None = None) -> Records:
    """Every record of `folder` (default engine/cards), schema-checked; memoised per folder
    until a file in it changes (modification times, looked at most once a second). A folder that does not exist
    has no records (the translator's output is then used as it is)."""
    folder = Path(folder or RECORDS_DIR)
    hit = _LOADED.get(folder)
    now = time.monotonic()
    if hit and now - _CHECKED.get(folder, 0.0) < RECHECK_SECONDS:
        return hit[1]
    _CHECKED[folder] = now
    try:  # the folder's and its files' modification times: a record edited in place counts
        with os.scandir(folder) as entries:
            stamp = (folder.stat().st_mtime_ns, max((e.stat().st_mtime_ns for e in entries), default=0))
    except OSError:
        return Records(folder)
    if hit and hit[0] == stamp:
        return hit[1]
    recs = Records(folder)
    for path in sorted(folder.glob("*.json")):
        cid = path.stem
        try:
            rec = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            recs.broken[cid] = f"unreadable ({type(exc).__name__})"
            continue
        problems = record_problems(rec, rec.get("type") if isinstance(rec, dict) else None)
        if not problems and rec["card_id"] != cid:
            problems = [f"card_id {rec['card_id']!r} is not the file's name"]
        if problems:
            recs.broken[cid] = "; ".join(problems[:3])
        else:
            recs.by_id[cid] = rec
    _LOADED[folder] = (stamp, recs)
    return recs


# ----------------------------------------------------------------------------------------------
# Resolving a card: the record where it accounts for the translator's output, else by hand
# ----------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Resolved:
    """A card's board object and units as the engine uses them, and what the record did not
    account for (`problems`, empty when all is accounted for). `record`: "none" (no record:
    the translator's output), "reviewed" (a unit reviewed by hand), "proposed", or "stale"
    (text changed or record broken: every unit by hand)."""

    card: dict
    units: list[Unit]
    problems: list[str]
    record: str
    reviews: tuple[str | None, ...] = ()  # per unit: the hand review's note, or None


def _merge(obj: dict, engine: Mapping[str, Any]) -> None:
    for k, v in engine.items():
        if k in _LIST_FIELDS:
            obj.setdefault(k, []).extend(v)
        elif k in _ADDED_FIELDS:
            obj[k] = obj.get(k, 0) + v
        elif k == "access_bonus":
            obj.setdefault(k, {}).update(v)
        else:
            obj[k] = v


def _base(out: dict, pieces: list[dict]) -> dict:
    """The board object without what its units added (its printed numbers, type, text ...)."""
    added = {k for p in pieces for k in p}
    return {
        k: ([] if k == "subroutines" else v) for k, v in out.items() if k not in added or k == "subroutines"
    }


def by_hand_engine(unit: Unit, card_type: str) -> tuple[str, str | None, dict]:
    """A unit nobody accounted for, surfaced by hand (status, at, engine): a subroutine or a
    trigger asks the judge where it applies, a Runner paid ability is offered in paid ability
    windows, a play ability when played; anything else is shown on the card."""
    from .triggers import WHEN

    text = unit.text
    if unit.status == NOT_APPLICABLE or unit.kind in ("identity", "deckbuilding"):
        return unit.status, unit.at, {}
    if unit.kind == "subroutine" and card_type == "ice":
        body = text.removeprefix("[subroutine]").strip() or text
        return BY_HAND, "subroutine", {"subroutines": [{"effect": "text", "text": body}]}
    if unit.kind == "play" and card_type in ("operation", "event"):
        return BY_HAND, "play", {"effects": [{"effect": "text", "text": text}]}
    if unit.kind == "ability" and card_type in ("program", "hardware", "resource"):
        if not text.startswith("[click]"):
            return BY_HAND, "paid ability window", {"abilities": [{"kind": "text", "text": text}]}
    if unit.kind == "trigger" and unit.at:
        parts = [p.strip().replace(" ", "_") for p in unit.at.split(" or ")]
        if parts == ["accessed"] and card_type in ("asset", "upgrade", "agenda"):
            return BY_HAND, "accessed", {"on_access": [{"effect": "text", "text": text}]}
        if all(p in WHEN for p in parts):
            trig = [{"when": p, "effects": [{"effect": "text", "text": text}]} for p in parts]
            return BY_HAND, unit.at, {"triggers": trig}
    return SHOWN, None, {"unmodeled": [text]}


def _cap(obj: dict) -> dict:
    if len(obj.get("unmodeled", ())) > 10:
        obj["unmodeled"] = obj["unmodeled"][:10]
    if len(obj.get("abilities", ())) > 10:
        obj["abilities"] = obj["abilities"][:10]
    if not obj.get("unmodeled", True):
        del obj["unmodeled"]
    return obj


def _all_by_hand(out: dict, units: list[Unit], pieces: list[dict], why: str) -> Resolved:
    obj = _base(out, pieces)
    ctype = out.get("type") or ""
    new = []
    for u in units:
        status, at, eng = by_hand_engine(u, ctype) if u.kind != "identity" else (u.status, u.at, {})
        _merge(obj, eng)
        new.append(Unit(u.text, u.kind, status, at))
    return Resolved(_cap(obj), new, [why], "stale", tuple(None for _ in new))


def resolve(
    card: Any, subtype_names: Mapping[str, str] | None = None, records: Records | None = None
) -> Resolved:
    """A NetrunnerDB card -> its board object and units as the engine uses them (see the module
    docstring). Raises ValueError for a card with no place on the board (engine.cardtext)."""
    out, units, pieces = translate(card, subtype_names)
    records = load() if records is None else records
    get = card.get if isinstance(card, Mapping) else lambda k, d=None: getattr(card, k, d)
    cid, title = get("id"), get("title") or get("id")
    if cid in records.broken:
        return _all_by_hand(out, units, pieces, f"{title}: its record is broken ({records.broken[cid]})")
    rec = records.get(cid)
    if rec is None:
        return Resolved(out, units, [], "none", tuple(None for _ in units))
    if rec["text_hash"] != text_hash(card):
        return _all_by_hand(
            out, units, pieces, f"{title}: its printed text changed since its record (run the generator)"
        )
    ctype = out.get("type") or ""
    obj = _base(out, pieces)
    left = list(rec["units"])
    new: list[Unit] = []
    notes: list[str | None] = []
    problems: list[str] = []
    reviewed = False
    for u, piece in zip(units, pieces, strict=True):
        match = next((r for r in left if r["text"] == u.text and r["kind"] == u.kind), None)
        if match is None:
            problems.append(f"{title}: a unit no record accounts for, by hand: {u.text[:80]!r}")
            status, at, eng = by_hand_engine(u, ctype)
            note = None
        else:
            left.remove(match)
            by_hand_review = match["review"]["by"] == HAND
            same = (
                match["status"] == u.status
                and match["at"] == u.at
                and _canon(match["engine"]) == _canon(piece)
            )
            if by_hand_review or same:
                status, at, eng = match["status"], match["at"], match["engine"]
                note = match["review"].get("note")
                reviewed = reviewed or by_hand_review
            else:
                problems.append(
                    f"{title}: the translator changed a proposed unit ({match['status']} -> {u.status}), "
                    f"by hand until the generator is rerun: {u.text[:80]!r}"
                )
                status, at, eng = by_hand_engine(u, ctype)
                note = None
        _merge(obj, json.loads(_canon(eng)))  # a copy: the record stays as loaded
        new.append(Unit(u.text, u.kind, status, at))
        notes.append(note)
    for r in left:
        problems.append(
            f"{title}: a recorded unit is no longer in the translator's units: {r['text'][:80]!r}"
        )
    kind = "reviewed" if reviewed else "proposed"
    return Resolved(_cap(obj), new, problems, kind, tuple(notes))


def resolved_units(card: Any, subtype_names: Mapping[str, str] | None = None) -> list[Unit]:
    """A card's units as `resolve` gives them (for engine.cardtext.coverage)."""
    return resolve(card, subtype_names).units


def check(
    cards: Iterable[Any],
    subtype_names: Mapping[str, str] | None,
    pool: Iterable[str],
    records: Records | None = None,
) -> list[str]:
    """The card build's check: every problem `resolve` finds on `cards`, and the cards of the
    pool (ids) without a record, and records of cards no longer in the data."""
    records = load() if records is None else records
    pool = set(pool)
    seen: set[str] = set()
    out: list[str] = []
    for c in cards:
        get = c.get if isinstance(c, Mapping) else lambda k, d=None, c=c: getattr(c, k, d)
        cid = get("id")
        seen.add(cid)
        if cid not in pool and records.get(cid) is None and cid not in records.broken:
            continue
        try:
            r = resolve(c, subtype_names, records)
        except ValueError:
            continue
        out.extend(r.problems)
        if cid in pool and r.record == "none":
            out.append(f"{get('title')}: in the Standard pool without a record (run the generator)")
    out.extend(f"{cid}: a record of a card not in the card data" for cid in sorted(set(records.by_id) - seen))
    return out


# ----------------------------------------------------------------------------------------------
# The generator
# ----------------------------------------------------------------------------------------------


def proposed_record(card: Any, subtype_names: Mapping[str, str] | None) -> dict:
    """The translator's record of a card (every unit `review.by` "translator")."""
    out, units, pieces = translate(card, subtype_names)
    get = card.get if isinstance(card, Mapping) else lambda k, d=None: getattr(card, k, d)
    return {
        "format": FORMAT,
        "card_id": get("id"),
        "title": get("title"),
        "type": out.get("type") or get("card_type_id"),
        "text_hash": text_hash(card),
        "units": [
            {
                "text": u.text,
                "kind": u.kind,
                "status": u.status,
                "at": u.at,
                "engine": json.loads(_canon(p)),
                "review": {"by": TRANSLATOR},
            }
            for u, p in zip(units, pieces, strict=True)
        ],
    }


def _hand_units(rec: dict | None) -> list[dict]:
    return [
        u
        for u in (rec or {}).get("units", ())
        if isinstance(u, dict) and (u.get("review") or {}).get("by") == HAND
    ]


def regenerate(card: Any, names: Mapping[str, str] | None, old: dict | None) -> tuple[dict | None, list[str]]:
    """The record to write for a card, given the one stored (None: none), and what changed in
    words. Hand-reviewed units are kept (their text must still be a unit of the card: else the
    stored record is left as it is, stale, and reported). None: leave the stored record."""
    new = proposed_record(card, names)
    title = new["title"]
    if old is None:
        return new, [f"added {new['card_id']} ({title}): {_counts(new)}"]
    if record_problems(old):
        return new, [f"replaced {new['card_id']} ({title}): the stored record was broken"]
    said: list[str] = []
    if old["text_hash"] != new["text_hash"]:
        said.append(f"text changed {new['card_id']} ({title})")
    hand = _hand_units(old)
    left = list(hand)
    for i, u in enumerate(new["units"]):
        h = next((x for x in left if x["text"] == u["text"] and x["kind"] == u["kind"]), None)
        if h is not None:
            left.remove(h)
            now = fingerprint(u["status"], u["at"], u["engine"])
            if h["review"].get("proposed") != now:
                said.append(
                    f"REVIEW {new['card_id']} ({title}): the translator now proposes {u['status']} for a "
                    f"hand-reviewed unit (kept as reviewed: {h['status']}): {u['text'][:70]!r}"
                )
                h = {**h, "review": {**h["review"], "proposed": now}}
            new["units"][i] = h
            continue
        was = next((x for x in old["units"] if x["text"] == u["text"] and x["kind"] == u["kind"]), None)
        if was is None:
            said.append(f"unit added {new['card_id']} ({title}): {u['status']} {u['text'][:70]!r}")
        elif was["status"] != u["status"] or was["at"] != u["at"]:
            said.append(
                f"unit changed {new['card_id']} ({title}): {was['status']} -> {u['status']} {u['text'][:70]!r}"
            )
        elif _canon(was["engine"]) != _canon(u["engine"]):
            said.append(f"unit translated differently {new['card_id']} ({title}): {u['text'][:70]!r}")
    if left:
        return None, [
            f"STALE {new['card_id']} ({title}): {len(left)} hand-reviewed unit(s) no longer in the text; "
            "record left as it is (shown by hand): review it by hand"
        ]
    for u in old["units"]:
        if (u.get("review") or {}).get("by") != HAND and not any(
            x["text"] == u["text"] and x["kind"] == u["kind"] for x in new["units"]
        ):
            said.append(f"unit removed {new['card_id']} ({title}): {u['text'][:70]!r}")
    if new == old:
        return new, []
    return new, said or [f"rewritten {new['card_id']} ({title})"]


def _counts(rec: dict) -> str:
    from collections import Counter

    c = Counter(u["status"] for u in rec["units"])
    return ", ".join(f"{c[s]} {s}" for s in STATUSES if c[s]) or "no units"


def dump(rec: dict) -> str:
    """A record as stored: a field a line, a unit a line (small files and diffs, easy review)."""
    head = [f" {json.dumps(k)}: {json.dumps(v, ensure_ascii=False)}," for k, v in rec.items() if k != "units"]
    units = ",\n".join(f"  {json.dumps(u, ensure_ascii=False)}" for u in rec["units"])
    return "{\n" + "\n".join(head) + '\n "units": [\n' + units + ("\n" if units else "") + " ]\n}\n"


def generate(
    data: Any, pool: Iterable[str], folder: Path | None = None, write: bool = False
) -> tuple[list[str], list[str]]:
    """Propose records for the `pool` (card ids) and every card with a hand-reviewed record;
    with `write`, write those that changed and remove records of cards that left. Returns what
    changed (or would change) in words, and the ids of the records written (or to write)."""
    folder = Path(folder or RECORDS_DIR)
    names = {k: v.name for k, v in data.card_subtypes.items()}
    stored: dict[str, dict | None] = {}
    for path in sorted(folder.glob("*.json")) if folder.is_dir() else ():
        try:
            stored[path.stem] = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            stored[path.stem] = None
    wanted = set(pool) | {cid for cid, rec in stored.items() if _hand_units(rec)}
    said: list[str] = []
    changed: list[str] = []
    if write:
        folder.mkdir(parents=True, exist_ok=True)
    for cid in sorted(wanted):
        card = data.cards.get(cid)
        if card is None:
            said.append(
                f"STALE {cid}: a hand-reviewed record of a card no longer in the data (left as it is)"
            )
            continue
        try:
            rec, lines = regenerate(card, names, stored.get(cid))
        except ValueError:
            continue  # no place on the board
        said.extend(lines)
        if rec is None or not lines:
            continue
        changed.append(cid)
        if write:
            (folder / f"{cid}.json").write_text(dump(rec), encoding="utf-8")
    for cid in sorted(set(stored) - wanted):
        said.append(f"removed {cid}: no longer in the pool")
        changed.append(cid)
        if write:
            (folder / f"{cid}.json").unlink()
    if write:
        _LOADED.pop(folder.resolve(), None)  # read again on next use
        _LOADED.pop(folder, None)
    return said, changed


def main(argv: list[str] | None = None) -> int:
    import argparse

    ap = argparse.ArgumentParser(prog="python -m engine.cardrecords", description=__doc__.split("\n\n")[0])
    ap.add_argument("--nrdb-dir", default=str(Path(__file__).resolve().parents[2] / "shared" / "nrdb" / "v2"))
    ap.add_argument("--dir", default=str(RECORDS_DIR), help="the records' folder (default engine/cards)")
    ap.add_argument("--write", action="store_true", help="write the records that changed")
    ap.add_argument("--check", action="store_true", help="list what is stale; exit 1 when anything is")
    ap.add_argument("--today", default=None, help="the date whose Standard pool is used (default: today)")
    args = ap.parse_args(argv)
    if not (args.write or args.check):
        ap.error("give --write or --check")
    from rules_index.cards import standard_legality
    from scraper.nrdb import load as load_nrdb

    data = load_nrdb(args.nrdb_dir)
    legality, snap = standard_legality(data, args.today)
    pool = sorted(cid for cid, leg in legality.items() if leg.legal)
    write = args.write and not args.check
    said, changed = generate(data, pool, Path(args.dir), write=write)
    for line in said:
        print(line)
    review = sum(x.startswith("REVIEW") for x in said)
    stale = sum(x.startswith("STALE") for x in said)
    print(
        f"{snap.get('restriction_name') or snap.get('snapshot')}: {len(pool)} cards in the Standard pool; "
        f"{len(changed)} records {'changed' if write else 'to change'}; {review} hand-reviewed units whose "
        f"translation changed; {stale} stale records left for a hand review"
    )
    return 1 if (args.check and said) else 0


if __name__ == "__main__":
    sys.exit(main())
