"""What the engine does with card text, in words: card pages ("In the stepper"), the coverage
page and its JSON twin, the board answer's units and the CLI all take their wording from here.

    engine_account(s, card)          a card page's "In the stepper" (the card answer's `engine`)
    coverage(rules, standard_only)   /cards/coverage, /api/cards/coverage, `nrrules card-coverage`
    unit_dict(unit, side)            one unit as the API gives it, with `says`, its status in words
    unit_words(status, at, side)     "a judge resolves it by hand when the Runner encounters this ice"

The units themselves come from engine.cardtext (imported on use: a rule lookup or a search from
the command line does not load the engine).
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

from rules_index.cards import CardStore
from scraper.nrdb import Card

from ..errors import BadRequest
from .context import Rules

# engine.cardtext's statuses, as the API names them
MODELED, BY_HAND, SHOWN, NOT_APPLICABLE, ABSENT = "modeled", "by_hand", "shown", "n/a", "absent"
# ... as a card page says them (a by-hand unit adds where it is met)
STATUS_WORDS = {
    MODELED: "modeled",
    BY_HAND: "a judge resolves it by hand",
    SHOWN: "shown on the card for the judge",
    NOT_APPLICABLE: "deck-building: nothing to do in play",
    ABSENT: "not on the board: the judge reads it from the card",
}
# ... as the coverage table heads its columns
STATUS_LABELS = {
    MODELED: "Modeled",
    BY_HAND: "By hand",
    SHOWN: "Shown",
    NOT_APPLICABLE: "n/a",
    ABSENT: "Absent",
}
# Where a unit is met (engine.cardtext's `at`: a trigger condition of engine.triggers.WHEN, or
# the subroutine, paid ability window or play it belongs to): one phrase, or one per side of
# the card whose text it is ("this ice" where only the card's own encounter meets it; "an
# agenda", "a card" where the condition may watch other cards too). A value not listed here
# falls back to engine.triggers.WHEN.
AT_WORDS: dict[str, str | dict[str, str]] = {
    "encountered": {
        "corp": "when the Runner encounters this ice",
        "runner": "when the Runner encounters a piece of ice",
    },
    "passed": {"corp": "when the Runner passes this ice", "runner": "when the Runner passes a piece of ice"},
    "scored": "when the Corp scores an agenda",
    "stolen": "when the Runner steals an agenda",
    "installed": "when the Runner installs a card",
    "successful_run": {
        "corp": "when a run on this server is successful",
        "runner": "when the Runner makes a successful run",
    },
    "accessed": {"corp": "when the Runner accesses this card", "runner": "when the Runner accesses a card"},
    "turn_begins": {"corp": "when the Corp's turn begins", "runner": "when the Runner's turn begins"},
    "turn_ends": {"corp": "when the Corp's turn ends", "runner": "when the Runner's turn ends"},
    "run_ends": "when a run ends",
    "run_begins": "when a run begins",
    "subroutine": "when this subroutine resolves",
    "paid ability window": {
        "corp": "when the Corp uses it in a paid ability window",
        "runner": "when the Runner uses it in a paid ability window",
    },
    "action window": {
        "corp": "when the Corp takes it as an action",
        "runner": "when the Runner takes it as an action",
    },
    "play": {"corp": "when the Corp plays this operation", "runner": "when the Runner plays this event"},
    "rez": "when the Corp rezzes this card (on the rez decision)",
    "rezzed": "when the Corp rezzes this card",
    "trashed": "when the Runner trashes this card while accessing it",
}
POOLS = ("standard", "all")


def at_parts(at: str) -> list[str]:
    """The conditions an `at` names: one, or several ("installed or turn begins") as AT_WORDS keys."""
    return [p if p in AT_WORDS else p.replace(" ", "_") for p in at.split(" or ")]


def where_words(at: str | None, side: str | None) -> str | None:
    """Where the engine meets a unit (`at`), in words: "when the Runner encounters this ice"; an
    ability on several conditions names each ("... or when the Runner's turn begins")."""
    if not at:
        return None
    return " or ".join(_where(part, side) for part in at_parts(at))


def _where(at: str, side: str | None) -> str:
    words = AT_WORDS.get(at)
    if isinstance(words, dict):
        return words["runner" if side == "runner" else "corp"]
    if words:
        return words
    from engine.triggers import WHEN

    return WHEN.get(at) or f"where it applies ({at.replace('_', ' ')})"


def unit_words(status: str, at: str | None, side: str | None) -> str:
    """One unit's status in plain words: "modeled", "a judge resolves it by hand when the
    Runner encounters this ice", "shown on the card for the judge", "deck-building: nothing to
    do in play"; a modeled trigger says when the stepper applies it."""
    where = where_words(at, side)
    if status == BY_HAND:
        return f"{STATUS_WORDS[BY_HAND]} {where or 'where it applies'}"
    if status == MODELED and where:
        return f"modeled: the stepper applies it {where}"
    return STATUS_WORDS.get(status, status)


def unit_dict(u: Any, side: str | None, review: str | None = None) -> dict[str, Any]:
    """An engine.cardtext Unit as the API gives it: its fields and `says`, its status in words;
    `reviewed`, the hand review's note of its record (engine.cardrecords), when there is one."""
    out = {**u.to_dict(), "says": unit_words(u.status, u.at, side)}
    if review:
        out["reviewed"] = review
    return out


def left_to_judge(units: list) -> int:
    """Units a judge resolves by hand: surfaced where they apply, or shown on the card."""
    return sum(1 for u in units if u.status in (BY_HAND, SHOWN))


def statuses() -> tuple[str, ...]:
    """engine.cardtext's statuses, in its order."""
    from engine.cardtext import STATUSES

    return tuple(STATUSES)


def _subtype_names(s: CardStore) -> dict[str, str]:
    return {k: v["name"] for k, v in s.table("card_subtypes").items()}


def resolved(s: CardStore, card: Card) -> Any:
    """engine.cardrecords.resolve of a card (its units as its record keeps them, and each hand
    review's note), or None for a card with no place on the board."""
    from engine.cardrecords import resolve

    try:
        return resolve(card, _subtype_names(s))
    except ValueError:
        return None


def units(s: CardStore, card: Card) -> list | None:
    """engine.cardtext's account of a card's text as its record keeps it (engine.cardrecords),
    or None for a card with no place on the board."""
    r = resolved(s, card)
    return None if r is None else r.units


def _n(count: int, noun: str) -> str:
    return f"{count} {noun}{'' if count == 1 else 's'}"


def engine_account(s: CardStore, card: Card) -> dict[str, Any]:
    """What the engine does with a card, for its page ("In the stepper"): every unit of its text
    with its status in words, the counts, and one sentence that sums it up."""
    r = resolved(s, card)
    found = None if r is None else r.units
    if found is None:
        return {
            "place": "none",
            "summary": "This card has no place on the board: the stepper does not use it.",
            "units": [],
            "counts": dict.fromkeys(statuses(), 0),
            "by_hand": 0,
        }
    counts = {st: sum(1 for u in found if u.status == st) for st in statuses()}
    place = "identity" if card.card_type_id.endswith("identity") else "board"
    in_play = len(found) - counts[NOT_APPLICABLE]
    by_hand = left_to_judge(found)
    if place == "identity" and counts.get(ABSENT):
        summary = "An identity the board has no place for yet: the judge reads its text from the card."
    elif place == "identity" and counts[MODELED]:  # a Corp identity's abilities (`corp.identity`)
        summary = (
            f"An identity: the stepper applies {_n(counts[MODELED], 'unit')} of its text and leaves "
            f"{by_hand} of {_n(in_play, 'unit')} in play to the judge."
        )
    elif place == "identity":
        summary = (
            "An identity: the stepper shows its text on the board for the judge and applies none of it "
            f"({by_hand} by hand)."
        )
    elif not found:
        summary = "Its printed text has no abilities: the stepper uses the card's printed numbers."
    elif not in_play:
        summary = "Nothing on this card acts in play."
    elif not by_hand:
        summary = f"All modeled: the stepper applies every unit of this card's text in play ({in_play}); none is by hand."
    else:
        parts = [
            f"{counts[x]} {w}"
            for x, w in ((BY_HAND, "resolved by a judge where it applies"), (SHOWN, "shown on the card"))
            if counts[x]
        ]
        summary = (
            f"By hand: {by_hand} of {_n(in_play, 'unit')} in play ({', '.join(parts)}). "
            f"Modeled: {counts[MODELED]}."
        )
    if counts[NOT_APPLICABLE] and place == "board":
        summary += f" Deck-building, nothing to do in play: {counts[NOT_APPLICABLE]}."
    return {
        "place": place,
        "summary": summary,
        "units": [unit_dict(u, card.side_id, note) for u, note in zip(found, r.reviews, strict=True)],
        "counts": counts,
        "by_hand": by_hand,
    }


def parse_pool(value: str | None) -> bool:
    """``pool=standard|all`` (default standard) -> whether only the Standard pool is counted."""
    pool = "standard" if value is None else value
    if pool not in POOLS:
        raise BadRequest(f"pool must be 'standard' or 'all', not {pool[:20]!r}")
    return pool == "standard"


def coverage(rules: Rules, standard_only: bool = True) -> dict[str, Any]:
    """payloads.cards.coverage (per card type and overall, every unit counted) with words: each
    unit not modeled has its card's `type` and says where it is met (`says`); `types` names the
    card types; `standard`, the Standard snapshot counted (None for every card)."""
    from .cards import coverage as figures
    from .cards import store

    s = store(rules)
    p = figures(rules, standard_only)
    for u in p["not_modeled"]:
        c = s.card(u["card_id"])
        u["type"] = c.card_type_id if c else None
        u["says"] = unit_words(u["status"], u["at"], c.side_id if c else None)
    types = s.table("card_types")
    return {
        "pool": p.pop("pool"),
        "standard": s.standard()[1] if standard_only else None,
        **p,
        "types": {k: (types.get(k) or {}).get("name") or k.replace("_", " ") for k in p["by_type"]},
    }


_REVISION: list[str] = []


def engine_revision() -> str:
    """Changes whenever the engine's code changes: card pages and the coverage page say what the
    engine does with card text, so their ETags change with it (as with a template's change)."""
    if not _REVISION:
        import engine

        h = hashlib.sha256()
        for path in sorted(Path(engine.__file__).parent.rglob("*.py")):
            h.update(path.name.encode())
            h.update(path.read_bytes())
        _REVISION.append(h.hexdigest()[:12])
    return _REVISION[0]
