"""Printed card text -> the engine's board vocabulary (see coord EFFECTS.md, docs/board-format.md).

Pure functions, no I/O. A NetrunnerDB card record becomes a board card object: what the card
data states (type, subtypes, costs, strength, memory, agenda points ...) plus its subroutines
and icebreaker abilities translated from the common formulas of card text:

* subroutines: "End the run.", "Do N net/meat/core damage.", "Give the Runner N tag(s).",
  "Trash N installed program(s).", "The Runner loses N[credit]" / "[click]", "Gain N[credit].",
  "... unless the Runner pays N[credit]." ("unless they pay"), "... if the Runner is tagged." /
  "If the Runner is tagged, ...", "Trace[N]. If successful, ... [If unsuccessful, ...]", and
  sentences of these in a row;
* icebreaker paid abilities: "N[credit]: Break N <subtype> subroutine(s).", "Break up to N ...",
  "Break any number of ..." (up to 20, the board's limit of subroutines on one ice),
  "Break N subroutine(s)." (any ice), "N[credit]: +N strength.".

The cards helper added (EFFECTS.md "Added by cards"): trashing installed Runner cards by type
("trash_installed"), "X or end the run" ("choose"), "The Runner gains N[credit]", drawing, "Trash
this ice.", "The Runner may jack out.", conditions on the ice's subtype, the threat level, the
Runner's credits and tags, "You may trash 1 card from HQ to ...", and on icebreaker abilities
"Use this ability only once per run" / "only if ..." (``once_per`` / ``only_if``). `board_card`
keeps only what the engine's board format accepts today (`engine_accepts`); the rest goes on
the board as text until the engine implements it.

Whole cards (`card_units`, `board_card`) also read: Corp paid and [click] abilities on assets,
upgrades and ice ("[click], 1[credit], [trash]: ..."; effects modeled, or one by-hand ``text``
effect with the cost modeled), the Runner's "[interrupt] → [trash]: Prevent ..." (``prevent``)
and "Reduce the base trace strength of a trace to 0" (``trace``) interrupts, trace bonuses, one
ability on two trigger conditions ("scored or stolen"), "Threat N → When ..." triggers, and the
older wording that names the card itself. Formulas naming a player ("The Corp gains",
"give them") are read for the side whose card it is (`parse_effects(text, side)`).

Translation is all or nothing per line: a line with any sentence outside the formulas (a
condition, a restriction, "instead") stays whole as a ``text`` effect or ability, for the judge
to resolve by hand. Reminder text in parentheses is ignored.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

__all__ = [
    "Unit",
    "board_card",
    "card_units",
    "engine_accepts",
    "parse_ability",
    "parse_effects",
    "parse_subroutine",
    "plain",
    "subroutine_lines",
    "ability_lines",
    "translate",
]

MAX_TEXT = 1000  # the board format's limit for a text field

# Linear in any text: blanks are matched from the start of their run only (the lookbehinds),
# and a tag ends before the next "<" (card text is whatever the card source says).
_REMINDER = re.compile(
    r"(?<![ \t])[ \t]*<em>\s*\([^<]*\)\s*</em>|(?<![ \t])[ \t]*\([^()\n]*\)[ \t]*$", re.MULTILINE
)
_TAG = re.compile(r"<[^<>]+>")
_SPACE = re.compile(r"[ \t\r\f\v]+")


def plain(text: str) -> str:
    """Card text without markup or reminder text, one paragraph a line; symbols stay as
    NetrunnerDB writes them ([credit], [click])."""
    text = _TAG.sub("", _REMINDER.sub("", text or "")).replace("’", "'").replace("ʼ", "'")
    return "\n".join(_SPACE.sub(" ", line).strip() for line in text.split("\n") if line.strip())


# ----------------------------------------------------------------------------------------------
# Effects
# ----------------------------------------------------------------------------------------------

_N = r"(\d+)"
_KIND = r"(?:programs?|resources?|pieces? of hardware|hardware)"
_KINDS = rf"{_KIND}(?:(?:,|,? or) {_KIND})*"
_CLICKS = r"((?:\[click\])+|\d+\[click\])"
_COUNTER = r"(power|virus|agenda|advancement)"
# "this card" as card text names it; "it" is read as this card only where the condition names
# this card ("When you install this program, place 2 virus counters on it": `_it_is_this`)
_THIS_CARD = r"this (?:program|hardware|resource|ice|agenda|asset|upgrade|card)"
_SIMPLE: list[tuple[re.Pattern, Any]] = [
    (re.compile(r"end the run"), lambda m: "end_the_run"),
    (
        re.compile(rf"do {_N} (net|meat|core) damage"),
        lambda m: {"effect": f"{m.group(2)}_damage", "amount": int(m.group(1))},
    ),
    (
        re.compile(rf"give the runner {_N} tags?"),
        lambda m: {"effect": "give_tags", "amount": int(m.group(1))},
    ),
    (
        re.compile(rf"trash {_N} installed programs?"),
        lambda m: {"effect": "trash_program", "amount": int(m.group(1))},
    ),
    (
        re.compile(rf"the runner loses {_N}\[credit\]"),
        lambda m: {"effect": "lose_credits", "amount": int(m.group(1))},
    ),
    (
        re.compile(r"the runner loses ((?:\[click\])+|\d+\[click\])"),
        lambda m: {"effect": "lose_clicks", "amount": _clicks(m.group(1))},
    ),
    (re.compile(rf"gain {_N}\[credit\]"), lambda m: {"effect": "gain_credits", "amount": int(m.group(1))}),
    # ----- added by the cards helper (EFFECTS.md "Added by cards") ------------------------------
    (
        re.compile(rf"trash {_N} installed runner cards?"),
        lambda m: {"effect": "trash_installed", "amount": int(m.group(1))},
    ),
    (
        re.compile(rf"trash {_N} installed ({_KIND}(?:(?:,|,? or) {_KIND})*)"),
        lambda m: _trash_kinds(int(m.group(1)), m.group(2)),
    ),
    (
        re.compile(rf"trash {_N} installed programs? that (?:is|are) not an? (.+)"),
        lambda m: {
            "effect": "trash_installed",
            "amount": int(m.group(1)),
            "card_types": ["program"],
            "except_subtypes": [x for x in re.split(r",? or |, ", m.group(2)) if x],
        },
    ),
    (
        re.compile(rf"the runner trashes {_N} of their installed cards?"),
        lambda m: {"effect": "trash_installed", "amount": int(m.group(1)), "chooser": "runner"},
    ),
    (
        re.compile(rf"the runner gains {_N}\[credit\]"),
        lambda m: {"effect": "opponent_gains_credits", "amount": int(m.group(1))},
    ),
    (
        re.compile(rf"(you may )?draw {_N}(?: or {_N})? cards?"),
        lambda m: {
            "effect": "draw_cards",
            "amount": int(m.group(3) or m.group(2)),
            **({"optional": True} if m.group(1) else {}),
            **({"up_to": True} if m.group(3) else {}),
        },
    ),
    (re.compile(r"trash this ice"), lambda m: "trash_this_ice"),
    # the older wording: "Trash 1 program." (an installed one: only installed cards can be)
    (re.compile(rf"trash {_N} ({_KINDS})"), lambda m: _trash_kinds(int(m.group(1)), m.group(2))),
    # "Gain [click][click]." (as printed: a click symbol per click)
    (
        re.compile(r"gain ((?:\[click\])+)"),
        lambda m: {"effect": "gain_clicks", "amount": _clicks(m.group(1))},
    ),
    # the controller's own unspent clicks (Creative Commission, VRcation)
    (
        re.compile(r"if you have any \[click\] remaining, lose ((?:\[click\])+)"),
        lambda m: {"effect": "lose_own_clicks", "amount": _clicks(m.group(1))},
    ),
    (
        re.compile(rf"take {_N} bad publicity"),
        lambda m: {"effect": "take_bad_publicity", "amount": int(m.group(1))},
    ),
    (re.compile(r"the runner may jack out"), lambda m: "runner_may_jack_out"),
    (
        re.compile(rf"add {_N} installed runner cards? to the grip"),
        lambda m: {"effect": "add_installed_to_grip", "amount": int(m.group(1))},
    ),
    # ----- counters on this card (issue 32 set A): "place 2 virus counters on this program" ----------
    (
        re.compile(rf"place {_N} {_COUNTER} counters? on {_THIS_CARD}"),
        lambda m: {"effect": "place_counters", "counter": m.group(2), "amount": int(m.group(1))},
    ),
    # ----- load and take (10.9.1, 1.10.4a): "load 8[credit] onto it", "take 3[credit] from this asset" --
    (
        re.compile(rf"load {_N}\[credit\] onto (?:it|{_THIS_CARD})"),
        lambda m: {"effect": "load_counters", "counter": "credits", "amount": int(m.group(1))},
    ),
    (
        re.compile(rf"load {_N} {_COUNTER} counters? onto (?:it|{_THIS_CARD})"),
        lambda m: {"effect": "load_counters", "counter": m.group(2), "amount": int(m.group(1))},
    ),
    (
        re.compile(rf"take {_N}\[credit\] from {_THIS_CARD}"),
        lambda m: {"effect": "take_credits", "amount": int(m.group(1))},
    ),
    (re.compile(rf"take all credits from {_THIS_CARD}"), lambda m: {"effect": "take_credits"}),
    (
        re.compile(rf"remove (\d+|all) hosted {_COUNTER} counters?"),
        lambda m: {
            "effect": "remove_counters",
            "counter": m.group(2),
            **({"amount": int(m.group(1))} if m.group(1) != "all" else {}),
        },
    ),
]
_KIND_NAMES = {"program": "program", "resource": "resource", "hardware": "hardware"}
# ----- the Runner's own card ----------------------------------------------------------------------
# "Suffer 1 core damage." / "Remove 1 tag." on a Runner card: the Runner suffers the damage (damage
# is always the Runner's; preventable, 9.9.6b) and removes as many tags as it has, up to N
_RUNNER_SIMPLE: list[tuple[re.Pattern, Any]] = [
    (
        re.compile(rf"suffer {_N} (net|meat|core) damage"),
        lambda m: [{"effect": f"{m.group(2)}_damage", "amount": int(m.group(1))}],
    ),
    (re.compile(rf"remove {_N} tags?"), lambda m: [{"effect": "remove_tags", "amount": int(m.group(1))}]),
]
# Formulas that name a player: what they mean depends on whose card it is (`side`), the Corp's
# (ice subroutines, operations, Corp card abilities and triggers) or the Runner's.
_SIDED: list[tuple[re.Pattern, frozenset[str], Any]] = [
    (
        re.compile(rf"the corp gains {_N}\[credit\]"),
        frozenset({"corp"}),
        lambda m: [{"effect": "gain_credits", "amount": int(m.group(1))}],
    ),
    (
        re.compile(rf"the corp gains {_N}\[credit\] or draws {_N} cards?"),
        frozenset({"corp"}),
        lambda m: [
            {
                "effect": "choose",
                "options": [
                    [{"effect": "gain_credits", "amount": int(m.group(1))}],
                    [{"effect": "draw_cards", "amount": int(m.group(2))}],
                ],
            }
        ],
    ),
    (
        re.compile(rf"each player gains {_N}\[credit\]"),
        frozenset({"corp"}),
        lambda m: [
            {"effect": "gain_credits", "amount": int(m.group(1))},
            {"effect": "opponent_gains_credits", "amount": int(m.group(1))},
        ],
    ),
    # "If there are any cards in HQ, trash 1 of them." (Hansei Review): the Corp chooses
    (
        re.compile(r"if there are any cards in hq, trash (\d+) of them"),
        frozenset({"corp"}),
        lambda m: [{"effect": "trash_from_hq", "amount": int(m.group(1))}],
    ),
    # "Shuffle 2 cards from HQ into R&D." (Sprint): the Corp chooses
    (
        re.compile(r"shuffle (\d+) cards? from hq into r&d"),
        frozenset({"corp"}),
        lambda m: [{"effect": "shuffle_hq_into_rd", "amount": int(m.group(1))}],
    ),
    # install as an effect (engine.installs): "You may install 1 card from HQ", "Install up to 2
    # cards from HQ", "... 1 piece of ice from Archives, ignoring all costs"
    (
        re.compile(
            r"(?P<may>you may )?install (?P<upto>up to )?(?P<n>\d+) (?P<what>cards?|pieces? of ice|non-agenda cards?)"
            r" from (?P<a>hq|archives)(?: or (?P<b>hq|archives))?(?P<free>, ignoring all costs)?"
        ),
        frozenset({"corp"}),
        lambda m: [_install_effect(m)],
    ),
    # "they" / "them": the Runner, on a Corp card ("When the Runner steals this agenda, give them
    # 1 tag.")
    (
        re.compile(rf"give them {_N} tags?"),
        frozenset({"corp"}),
        lambda m: [{"effect": "give_tags", "amount": int(m.group(1))}],
    ),
    (
        re.compile(rf"they gain {_N}\[credit\]"),
        frozenset({"corp"}),
        lambda m: [{"effect": "opponent_gains_credits", "amount": int(m.group(1))}],
    ),
    (
        re.compile(rf"they lose {_N}\[credit\]"),
        frozenset({"corp"}),
        lambda m: [{"effect": "lose_credits", "amount": int(m.group(1))}],
    ),
    # "..., if able": the Runner loses what they have, up to N (the engine's lose_*, 1.2.3)
    (
        re.compile(rf"the runner loses {_CLICKS}, if able"),
        frozenset({"corp"}),
        lambda m: [{"effect": "lose_clicks", "amount": _clicks(m.group(1))}],
    ),
    (
        re.compile(rf"the runner loses {_N}\[credit\], if able"),
        frozenset({"corp"}),
        lambda m: [{"effect": "lose_credits", "amount": int(m.group(1))}],
    ),
    (
        re.compile(rf"the runner trashes (\d+|an) installed ({_KINDS})"),
        frozenset({"corp"}),
        lambda m: [
            {
                "effect": "trash_installed",
                "amount": 1 if m.group(1) == "an" else int(m.group(1)),
                "card_types": _kind_names(m.group(2)),
                "chooser": "runner",
            }
        ],
    ),
]


def _install_effect(m: re.Match) -> dict:
    e: dict[str, Any] = {"effect": "install", "amount": int(m.group("n"))}
    zones = [z for z in ("hq", "archives") if z in (m.group("a"), m.group("b"))]
    if zones != ["hq"]:
        e["from"] = zones
    if m.group("what").startswith("piece"):
        e["card_types"] = ["ice"]
    elif m.group("what").startswith("non-agenda"):
        e["card_types"] = ["asset", "upgrade", "ice"]
    for flag, group in (("optional", "may"), ("up_to", "upto"), ("ignore_costs", "free")):
        if m.group(group):
            e[flag] = True
    return e


def _kind_names(kinds: str) -> list[str]:
    return sorted({k for k in _KIND_NAMES if k in kinds}, key=list(_KIND_NAMES).index)


def _trash_kinds(amount: int, kinds: str) -> Any:
    names = _kind_names(kinds)
    if names == ["program"]:
        return {"effect": "trash_program", "amount": amount}
    return {"effect": "trash_installed", "amount": amount, "card_types": names}


# A sentence that joins two formulas: "X or end the run" (the Corp chooses, as it makes every
# choice of a subroutine unless the Runner is named), "X and Y", and conditions before or after.
_CONDITIONS: list[tuple[re.Pattern, Any]] = [
    (
        re.compile(r"if this ice is an? ([a-z][a-z ]*?), (?P<inner>.+)"),
        lambda m, inner: {"effect": "if_ice_subtype", "subtype": m.group(1), "effects": inner},
    ),
    (
        re.compile(rf"if the threat level is {_N} or greater, (?P<inner>.+)"),
        lambda m, inner: {"effect": "if_threat_level", "amount": int(m.group(1)), "effects": inner},
    ),
    (
        re.compile(rf"if the runner has {_N}\[credit\] or less, (?P<inner>.+)"),
        lambda m, inner: {"effect": "if_runner_credits_at_most", "amount": int(m.group(1)), "effects": inner},
    ),
    (
        re.compile(r"(?P<inner>.+) if the runner has at least (?P<n>\d+) tags?"),
        lambda m, inner: {"effect": "if_tagged", "min_tags": int(m.group("n")), "effects": inner},
    ),
    (
        re.compile(rf"you may trash {_N} cards? from hq to (?P<inner>.+)"),
        lambda m, inner: {"effect": "may_trash_from_hand", "amount": int(m.group(1)), "effects": inner},
    ),
]
_UNLESS = re.compile(rf"(.+?),? unless (?:the runner pays|they pay) {_N}\[credit\]")
_UNLESS_CLICK = re.compile(r"(.+?),? unless (?:the runner spends|they spend) ((?:\[click\])+)")
_UNLESS_BOTH = re.compile(
    rf"(.+?),? unless (?:the runner spends|they spend) ((?:\[click\])+) and {_N}\[credit\]"
)
_IF_TAGGED_AFTER = re.compile(r"(.+?) if the runner is tagged")
_IF_TAGGED_BEFORE = re.compile(r"if the runner is tagged, (.+)")
_TRACE = re.compile(
    r"trace\s*\[(\d+)\]\.?\s+if successful, (.+?)(?:\.\s+if unsuccessful, (.+?))?\.?",
)


# "... for each X": an amount counted as the instruction resolves (engine.board.PER, 9.12.2b);
# the words after "for each" -> (the `per` key, the sides whose cards say it so)
_FOR_EACH = re.compile(r"(.+?) for each (.+)")
_PER_WORDS = {
    "tag the runner has": ("runner_tag", frozenset({"corp"})),
    "tag you have": ("runner_tag", frozenset({"runner"})),
    "card in hq": ("card_in_hq", frozenset({"corp", "runner"})),
    "[click] you have remaining": ("remaining_click", frozenset({"corp", "runner"})),
    "rezzed piece of harmonic ice": ("rezzed_harmonic_ice", frozenset({"corp", "runner"})),
    # this card's own counters (a trigger of an installed Corp card: Ubiquitous Vig)
    "hosted advancement counter": ("hosted_advancement", frozenset({"corp"})),
}
_PER_EFFECTS = frozenset({"gain_credits", "lose_credits", "draw_cards"})


def _for_each(s: str, side: str | None) -> list | None:
    """ "Gain 1[credit] for each tag the Runner has": one gain, draw or loss with its `per`."""
    m = _FOR_EACH.fullmatch(s)
    per = _PER_WORDS.get(m.group(2)) if m else None
    if per is None or side not in per[1]:
        return None
    inner = _many(m.group(1), side)
    if not inner or len(inner) != 1 or not isinstance(inner[0], dict) or _name(inner[0]) not in _PER_EFFECTS:
        return None
    if inner[0].get("optional") or inner[0].get("up_to"):
        return None
    return [{**inner[0], "per": per[0]}]


def _clicks(text: str) -> int:
    return int(text[: -len("[click]")]) if text[0].isdigit() else text.count("[click]")


def _sentences(text: str) -> list[str]:
    """Split on sentence ends ("End the run. Gain 1[credit].")."""
    parts = re.split(r"(?<=[.!])\s+(?=[A-Z\[])", text.strip())
    return [p.strip().rstrip(".").strip() for p in parts if p.strip().rstrip(".").strip()]


def _one(sentence: str, side: str | None = None) -> Any | None:
    """One sentence -> one effect, or None when it is not exactly one of the formulas."""
    many = _many(sentence, side)
    return many[0] if many is not None and len(many) == 1 else None


def _many(sentence: str, side: str | None = None) -> list | None:
    """One sentence -> its effects (one, or two joined by "and"), or None when any part is
    not exactly one of the formulas."""
    s = sentence.strip().rstrip(".").strip().lower()
    for pattern, sides, make in _SIDED:
        m = pattern.fullmatch(s) if side in sides else None
        if m:
            return make(m)
    for pattern, make in _SIMPLE:
        m = pattern.fullmatch(s)
        if m:
            return [make(m)]
    for pattern, make in _RUNNER_SIMPLE if side == "runner" else ():
        m = pattern.fullmatch(s)
        if m:
            return make(m)
    each = _for_each(s, side)
    if each is not None:
        return each
    m = _UNLESS.fullmatch(s)
    if m:
        inner = _many(m.group(1), side)
        return (
            None
            if inner is None
            else [{"effect": "unless_pays", "amount": int(m.group(2)), "effects": inner}]
        )
    m = _UNLESS_CLICK.fullmatch(s)
    if m:
        inner = _many(m.group(1), side)
        clicks = m.group(2).count("[click]")
        return (
            None
            if inner is None
            else [{"effect": "unless_pays", "amount": 0, "clicks": clicks, "effects": inner}]
        )
    m = _UNLESS_BOTH.fullmatch(s)
    if m:  # "... unless they spend [click] and 2[credit]" (Thule Subsea)
        inner = _many(m.group(1), side)
        clicks = m.group(2).count("[click]")
        return (
            None
            if inner is None
            else [{"effect": "unless_pays", "amount": int(m.group(3)), "clicks": clicks, "effects": inner}]
        )
    m = re.fullmatch(r"(.+?) if you are tagged", s) if side == "runner" else None
    if m:  # a Runner card: "place 1 power counter on this hardware if you are tagged" (Amanuensis)
        inner = _many(m.group(1), side)
        return None if inner is None else [{"effect": "if_tagged", "effects": inner}]
    m = _IF_TAGGED_AFTER.fullmatch(s) or _IF_TAGGED_BEFORE.fullmatch(s)
    if m:
        inner = _many(m.group(1), side)
        return None if inner is None else [{"effect": "if_tagged", "effects": inner}]
    for pattern, make in _CONDITIONS:
        m = pattern.fullmatch(s)
        if m:
            inner = _many(m.group("inner"), side)
            return None if inner is None else [make(m, inner)]
    m = re.fullmatch(r"trash this (?:asset|upgrade) to (.+)", s) if side == "corp" else None
    if m:  # "you may trash this asset to do 2 net damage" (Reaper Function): the trash, then the rest
        inner = _many(m.group(1), side)
        return None if inner is None else [{"effect": "trash_this_card"}, *inner]
    m = re.fullmatch(r"the runner loses ((?:\[click\])+|\d+\[click\]) and (\d+)\[credit\]", s)
    if m:
        return [
            {"effect": "lose_clicks", "amount": _clicks(m.group(1))},
            {"effect": "lose_credits", "amount": int(m.group(2))},
        ]
    for joint, make in ((" or ", "choose"), (" and ", "both")):
        left, sep, right = s.rpartition(joint)
        if not sep:
            continue
        a, b = _many(left, side), _many(right, side)
        if a is None or b is None:
            continue
        return [{"effect": "choose", "options": [a, b]}] if make == "choose" else a + b
    return None


def parse_effects(text: str, side: str | None = None) -> list | None:
    """A whole instruction text -> its list of effects, or None unless every part is understood.
    `side`: whose card it is ("corp", "runner"), for the formulas that name a player
    ("The Corp gains 2[credit]" is the controller's gain only on a Corp card)."""
    t = plain(text)
    if not t or len(t) > MAX_TEXT:  # longer than any formula (the parse recurses per clause)
        return None
    m = _TRACE.fullmatch(t.rstrip(".").lower() + ".") or _TRACE.fullmatch(t.lower())
    if m:
        success = parse_effects(m.group(2), side)
        failure = parse_effects(m.group(3), side) if m.group(3) else []
        if success is None or failure is None:
            return None
        effect: dict[str, Any] = {"effect": "trace", "strength": int(m.group(1)), "on_success": success}
        if failure:
            effect["on_failure"] = failure
        return [effect]
    out = []
    for sentence in _sentences(t):
        e = _many(sentence, side)
        if e is None:
            return None
        out.extend(e)
    return out or None


def _text_effect(text: str) -> dict:
    return {"effect": "text", "text": plain(text)[:MAX_TEXT]}


def parse_subroutine(line: str) -> Any:
    """One "[subroutine] ..." line -> an effect, a list of effects, or a ``text`` effect."""
    body = re.sub(r"^\s*\[subroutine\]\s*", "", line)
    effects = parse_effects(body, "corp")
    if effects is None:
        return _text_effect(body)
    return effects[0] if len(effects) == 1 else effects


# ----------------------------------------------------------------------------------------------
# Icebreaker abilities
# ----------------------------------------------------------------------------------------------

# "Interface → <strong>1[credit]:</strong> Break ..." or "1[credit]: +1 strength."
_ABILITY = re.compile(
    r"^(?:threat (?P<threat>\d+)\s*(?:→|->)\s*|(?P<once>once per turn)\s*(?:→|->)\s*)?"
    r"(?:interface\s*(?:→|->)\s*)?(?P<cost>[^:]{1,80}?):\s*(?P<effect>.+)$",
    re.IGNORECASE,
)
_CREDITS = re.compile(r"(\d+)\[credit\]")
_BREAK = re.compile(r"break (up to |any number of )?(\d+ )?(?:([a-z][a-z -]*?) )?subroutines?")
MAX_SUBROUTINES = 20  # the board format's limit per ice: "any number" is "up to 20"
_PUMP = re.compile(r"\+(\d+) strength")


def ability_lines(text: str) -> list[str]:
    """The lines of a card's text that are paid abilities ("cost: effect")."""
    return [line for line in (text or "").split("\n") if _is_ability(line)]


def _is_ability(line: str) -> bool:
    if "[subroutine]" in line and not re.search(r"<strong>[^<]*:\s*</strong>", line):
        return False
    if re.search(r"<strong>[^<]*:\s*</strong>", line):
        return True
    m = _ABILITY.match(plain(line))
    # a cost of credits, or one with [click] or [trash] ("[trash]: ...", "[trash], 2[credit]: ...")
    return bool(
        m
        and (
            _CREDITS.fullmatch(m.group("cost").strip()) or re.search(r"\[(?:click|trash)\]", m.group("cost"))
        )
    )


def parse_ability(line: str, subtypes: Mapping[str, str] | None = None) -> dict:
    """One paid-ability line -> a ``break`` or ``strength`` ability, or a ``text`` ability."""
    text = plain(line)
    m = _ABILITY.match(text) if len(text) <= MAX_TEXT else None  # longer than any formula: text
    if m:
        cost = _CREDITS.fullmatch(m.group("cost").strip().lower())
        effect, limits = _limits(m.group("effect"))
        if m.group("threat"):  # "Threat 4 → ...": active only at threat level 4 or more (9.3.6f)
            limits["threat"] = int(m.group("threat"))
        if m.group("once") and "once_per" not in limits:  # "Once per turn → ..." (9.3.6g)
            limits["once_per"] = "turn"
        if cost and "." not in effect:
            amount = int(cost.group(1))
            b = _BREAK.fullmatch(effect)
            any_number = b is not None and b.group(1) == "any number of "
            if b and (b.group(2) is None) == any_number:
                ability: dict[str, Any] = {
                    "kind": "break",
                    "cost": amount,
                    "count": MAX_SUBROUTINES if any_number else int(b.group(2)),
                    "up_to": bool(b.group(1)),
                }
                if b.group(3):
                    if " or " in b.group(3):  # "sentry or barrier" (Adept): not one subtype
                        return {"kind": "text", "text": text[:MAX_TEXT]}
                    ability["ice_subtype"] = b.group(3)
                if ability["count"] >= 1:
                    return {**ability, **limits}
            p = _PUMP.fullmatch(effect)
            if p:
                return {"kind": "strength", "cost": amount, "amount": int(p.group(1)), **limits}
    return {"kind": "text", "text": text[:MAX_TEXT]}


_ONCE_PER = re.compile(r"use this ability only once per (turn|run|encounter)")


def _limits(effect: str) -> tuple[str, dict]:
    """An ability's effect and what limits its use: "Use this ability only once per run."
    (``once_per``) or "Use this ability only if/by ..." (``only_if``, the sentence as printed,
    for the Runner and the judge to confirm). Any other second sentence stays in the effect
    (which is then not one of the formulas)."""
    sentences = _sentences(effect)
    if len(sentences) != 2:
        return effect.strip().rstrip(".").strip().lower(), {}
    first, rest = sentences[0].lower(), sentences[1]
    once = _ONCE_PER.fullmatch(rest.lower())
    if once:
        return first, {"once_per": once.group(1)}
    if rest.lower().startswith("use this ability only "):
        return first, {"only_if": rest + "."}
    return effect.strip().rstrip(".").strip().lower(), {}


def subroutine_lines(text: str) -> list[str]:
    return [line for line in (text or "").split("\n") if line.lstrip().startswith("[subroutine]")]


# ----------------------------------------------------------------------------------------------
# Whole cards: every paragraph of the printed text is one unit, accounted for
# ----------------------------------------------------------------------------------------------

_CORP = {"agenda", "asset", "upgrade", "ice", "operation"}
_RUNNER = {"event", "program", "hardware", "resource"}
_RUNNER_EFFECTS = {
    "gain_credits",
    "gain_clicks",
    "lose_credits",
    "lose_clicks",
    "lose_own_clicks",
    "draw_cards",
    "text",
    "remove_tags",
}
# what a Runner card's conditional ability may do: the above, bypass, and counters on itself
_RUNNER_TRIGGER_EFFECTS = _RUNNER_EFFECTS | {
    "bypass",
    "place_counters",
    "remove_counters",
    "net_damage",  # "When you install this hardware, suffer 1 core damage." (the Runner suffers it)
    "meat_damage",
    "core_damage",
    "load_counters",
    "take_credits",
    "trash_this_card",
}

# How the engine treats one unit (a subroutine, or one printed paragraph) of a card's text:
MODELED = "modeled"  # the engine applies it (an effect, ability, trigger, constant it runs)
BY_HAND = "by_hand"  # surfaced where it applies as a decision the judge resolves by hand
SHOWN = "shown"  # a constant or permission the engine does not apply: shown on the card
NOT_APPLICABLE = "n/a"  # deck-building, uniqueness, reminder: nothing to do in play
ABSENT = "absent"  # the board has no place for it yet (the Corp's identity): not on the board
STATUSES = (MODELED, BY_HAND, SHOWN, NOT_APPLICABLE, ABSENT)
# what a unit is (`Unit.kind`; engine.cardrecords checks stored records against this)
UNIT_KINDS = (
    "subroutine",
    "ability",
    "trigger",
    "constant",
    "play",
    "restriction",
    "deckbuilding",
    "identity",
)


@dataclass(frozen=True)
class Unit:
    """One ability unit of a card's printed text and what the engine does with it. `at`: where a
    by-hand unit is surfaced (the trigger condition or window), None otherwise."""

    text: str
    kind: str  # "subroutine", "ability", "trigger", "constant", "play", "deckbuilding"
    status: str
    at: str | None = None

    def to_dict(self) -> dict:
        return {"text": self.text, "kind": self.kind, "status": self.status, "at": self.at}


# Deck-building and other text with nothing to do on a board in play.
_NOT_IN_PLAY = re.compile(
    r"^(limit \d+ (?:per deck|[a-z ]+ per (?:player|server|deck))|"
    r"(?:remote|central) server only|"
    r"ignore this card's influence|"
    r"you cannot (?:include|use) .* in your deck|"
    r"(?:this|these) cards? (?:does|do) not count|"
    r"install only on .+|"
    r"remove this (?:event|operation) from the game)\.?$",
    re.IGNORECASE,
)

# A paragraph opening with a trigger condition the engine has (engine.triggers.WHEN): the card
# types it may open, the condition and its filter. The rest of the sentence is its effects.
_SERVER_WORDS = {
    "hq": "hq",
    "r&d": "rd",
    "archives": "archives",
    "a central server": "central",
    "a remote server": "remote",
}
_TRIGGERS: list[tuple[re.Pattern, frozenset[str], str, Any]] = [
    (
        re.compile(r"when the runner encounters this ice, (?P<body>.+)"),
        frozenset({"ice"}),
        "encountered",
        None,
    ),
    (re.compile(r"when the runner passes this ice, (?P<body>.+)"), frozenset({"ice"}), "passed", None),
    (re.compile(r"when you score this agenda, (?P<body>.+)"), frozenset({"agenda"}), "scored", None),
    (
        re.compile(r"when (?:the runner steals|you steal) this agenda, (?P<body>.+)"),
        frozenset({"agenda"}),
        "stolen",
        None,
    ),
    (
        re.compile(r"when you install this (?:program|hardware|resource|card), (?P<body>.+)"),
        frozenset({"program", "hardware", "resource"}),
        "installed",
        None,
    ),
    (
        re.compile(
            r"whenever you make a successful run(?: on (?P<server>hq|r&d|archives|a central server|a remote server))?, (?P<body>.+)"
        ),
        frozenset({"program", "hardware", "resource"}),
        "successful_run",
        "server",
    ),
    (
        re.compile(
            r"whenever you encounter an? (?P<subtype>sentry|barrier|code gate|piece of ice), (?P<body>.+)"
        ),
        frozenset({"program", "hardware", "resource"}),
        "encountered",
        "subtype",
    ),
    (
        # "When you rez this asset, ..." (8.1.2e); "... during a run against this server" is not this
        re.compile(r"when you rez this (?:asset|upgrade|ice), (?P<body>.+)"),
        frozenset({"asset", "upgrade", "ice"}),
        "rezzed",
        None,
    ),
    (
        re.compile(r"when the runner trashes this (?:asset|upgrade), (?P<body>.+)"),
        frozenset({"asset", "upgrade"}),
        "trashed",
        None,
    ),
    (
        re.compile(r"when your turn begins, (?P<body>.+)"),
        frozenset({"asset", "upgrade", "ice", "agenda", "program", "hardware", "resource"}),
        "turn_begins",
        None,
    ),
    (
        re.compile(r"when your turn ends, (?P<body>.+)"),
        frozenset({"asset", "upgrade", "ice", "agenda", "program", "hardware", "resource"}),
        "turn_ends",
        None,
    ),
    (
        re.compile(r"whenever (?:the runner makes|there is) a successful run on this server, (?P<body>.+)"),
        frozenset({"upgrade", "asset"}),
        "successful_run",
        "this",
    ),
    (
        re.compile(
            r"whenever a successful run on (?P<server>hq|r&d|archives|a central server|a remote server) ends, (?P<body>.+)"
        ),
        frozenset({"program", "hardware", "resource"}),
        "run_ends",
        "successful_server",
    ),
    (
        re.compile(r"whenever you access an? (?P<card_type>agenda|asset|upgrade|card), (?P<body>.+)"),
        frozenset({"program", "hardware", "resource"}),
        "accessed",
        "card_type",
    ),
]
_THREAT = re.compile(r"threat (\d+) → ")
_WHERE = r"(?: on (?P<server>hq|r&d|archives|a central server|a remote server))?"
_INSTALL_KIND = {"program": "program", "piece of hardware": "hardware", "resource": "resource"}
# "The first time each turn ..." on an installed Runner card: the engine has the condition but no
# once-per-turn limit on triggers, so the ability is surfaced by hand each time the condition is
# met (the judge resolves it when it is the first time); "whenever you install a virus program"
# likewise when its body is not modeled.
_ONCE_A_TURN_TRIGGERS: list[tuple[re.Pattern, str, Any]] = [
    (
        re.compile(
            rf"the first time (?:each turn you make a successful run{_WHERE}|you make a successful run{_WHERE.replace('server>', 'server2>')} each turn), (?P<body>.+)"
        ),
        "successful_run",
        lambda m: (
            {"server": _SERVER_WORDS[m.group("server") or m.group("server2")]}
            if (m.group("server") or m.group("server2"))
            else None
        ),
    ),
    (
        re.compile(
            r"(?:the first time each turn|whenever) you install an? (?:(?P<subtype>virus|icebreaker|connection|console) )?"
            r"(?P<kind>program|piece of hardware|resource), (?P<body>.+)"
        ),
        "installed",
        lambda m: {
            "card_type": _INSTALL_KIND[m.group("kind")],
            **({"subtype": m.group("subtype")} if m.group("subtype") else {}),
        },
    ),
]
_ONCE_A_TURN_TRIGGERS.append(
    (  # "Whenever a run begins, ..." / "The first time each turn a run begins, ..." (6.9.1c)
        re.compile(
            r"(?:the first time each turn|whenever) a run(?: on (?P<server>hq|r&d|archives|a central server|a remote server))? begins, (?P<body>.+)"
        ),
        "run_begins",
        lambda m: {"server": _SERVER_WORDS[m.group("server")]} if m.group("server") else None,
    )
)
_INSTALLED = frozenset({"program", "hardware", "resource"})
_CORP_ACTIVE = frozenset({"asset", "upgrade", "ice", "agenda"})
# One ability, several trigger conditions: a trigger on each (engine.triggers), same effects.
_AGENDA = {"card_type": "agenda"}
_TWO_WAY_TRIGGERS: list[tuple[re.Pattern, frozenset[str], tuple[tuple[str, dict | None], ...]]] = [
    (
        re.compile(r"when this agenda is scored or stolen, (?P<body>.+)"),
        frozenset({"agenda"}),
        (("scored", None), ("stolen", None)),
    ),
    (
        re.compile(r"whenever an agenda is scored or stolen, (?P<body>.+)"),
        _INSTALLED | _CORP_ACTIVE,
        (("scored", _AGENDA), ("stolen", None)),
    ),
    (
        re.compile(r"whenever you score an agenda, (?P<body>.+)"),
        _CORP_ACTIVE,
        (("scored", _AGENDA),),
    ),
    (
        re.compile(r"whenever you score an agenda from the root of this server, (?P<body>.+)"),
        frozenset({"upgrade"}),
        (("scored", {**_AGENDA, "server": "this"}),),
    ),
    (
        re.compile(r"when your turn begins and whenever you steal an agenda, (?P<body>.+)"),
        _INSTALLED,
        (("turn_begins", None), ("stolen", None)),
    ),
    (
        re.compile(
            r"when you install this (?:program|hardware|resource) and when your turn begins, (?P<body>.+)"
        ),
        _INSTALLED,
        (("installed", None), ("turn_begins", None)),
    ),
    (
        re.compile(
            r"when you install this (?:program|hardware|resource) and whenever a run begins, (?P<body>.+)"
        ),
        _INSTALLED,
        (("installed", None), ("run_begins", None)),
    ),
]
WHEN_WORDS = {
    "turn_begins": "turn begins",
    "scored": "scored",
    "stolen": "stolen",
    "installed": "installed",
    "run_begins": "run begins",
    "rezzed": "rezzed",
    "trashed": "trashed",
}
# "When you rez/install this ..., load N[credit] onto it. When it is empty, trash it[ and ...]." (10.9):
# the load is the trigger's effects, the empty ability the card's `when_empty`
_EMPTY = re.compile(r"(?P<head>.+?)\. when it is empty, (?P<body>.+)")
_EMPTY_TRASH = re.compile(r"trash it(?: and (?P<rest>.+))?")
# "When the Runner accesses this asset/upgrade/agenda[ anywhere except in Archives]": `on_access`
_ON_ACCESS = re.compile(
    r"when the runner accesses this (?:asset|upgrade|agenda|card)(?P<where> anywhere except in archives| while it is installed)?, (?P<body>.+)"
)
_ON_ACCESS_ZONES = {
    " anywhere except in archives": ["hq", "rd", "installed"],
    " while it is installed": ["installed"],
}
# Constant abilities the engine applies
_ADVANCE_STRENGTH = re.compile(r"(?:it|this ice) gets \+(\d+) strength for each hosted advancement counter")
_COUNTER_STRENGTH = re.compile(
    r"(?:it|this ice) gets ([+−-])(\d+) strength for each hosted (virus|power) counter"
)
_ONLY_ICE_STRENGTH = re.compile(
    r"while this ice is the only piece of ice protecting this server, it gets \+(\d+) strength"
)
_REVEAL_IN_RD = re.compile(
    r"while the runner is accessing this (?:asset|upgrade|agenda|ice|operation|card) in r&d, they must reveal it"
)
_TAGGED_STRENGTH = re.compile(r"while the runner is tagged, this ice gets \+(\d+) strength")
# "they must pay 3[credit], if able. If they do not, end the run." (Tollbooth) and "you may pay
# 4[credit]. If you do, ..." (Snare!): the inner instructions are the rest
_MUST_PAY = re.compile(
    r"(?:they|the runner) must pay (\d+)\[credit\], if able\. if they do not, (?P<rest>.+)"
)
_MAY_PAY = re.compile(r"you may pay (\d+)\[credit\]\. if you do, (?P<rest>.+)")
_ACCESS_MORE = re.compile(r"whenever you breach (hq|r&d), access (\d+) additional cards?")
_MU = re.compile(r"\+(\d+)\[mu\]")
_LINK = re.compile(r"\+(\d+)\[link\]")
_RECURRING = re.compile(r"(\d+)\[recurring-credit\]")
# "The base trace strength of each trace during a run on this server is increased by 2."
# (Rutherford Grid) / "... of each subroutine is increased by 1." (Improved Tracers): trace_bonus
_TRACE_BONUS = re.compile(
    r"the base trace strength of each (?P<which>trace during a run on this server|subroutine) is increased by (?P<n>\d+)"
)
_PUMP_LASTS = re.compile(r"\+(\d+) strength for the remainder of (?:this|the) (run|turn)")


def _runner_trigger_ok(effects: list) -> bool:
    """Effects a Runner card's conditional ability may have as translated: `_RUNNER_TRIGGER_EFFECTS`,
    and "... if you are tagged" (`if_tagged`) around them."""
    for e in effects:
        if _name(e) == "if_tagged":
            if not _runner_trigger_ok(e["effects"]):
                return False
        elif _name(e) not in _RUNNER_TRIGGER_EFFECTS:
            return False
    return True


def _it_is_this(condition: str, body: str) -> str:
    """A trigger's effects with "on it" read as "on this card" when its condition names this
    card ("When you install this program, place 2 virus counters on it."); else as printed
    ("Whenever you install a virus program, ... on it" is about the other card: not a formula)."""
    if not re.search(r"\bthis (?:program|hardware|resource|ice|agenda|asset|upgrade|card)\b", condition):
        return body
    return re.sub(r"\bon it\b(?=[ .,]|$)", "on this card", body)


def _touches_counters(effects: list) -> bool:
    """Do `effects` (or effects nested in them) place or remove counters on "this card"?"""
    for e in effects:
        if _name(e) in ("place_counters", "remove_counters"):
            return True
        if isinstance(e, dict):
            nested = [*e.get("effects", ()), *[x for opt in e.get("options", ()) for x in opt]]
            if nested and _touches_counters(nested):
                return True
    return False


def _subtype_name(sid: str, names: Mapping[str, str] | None) -> str:
    """Subtype names as NetrunnerDB spells them, lowercased: "code_gate" -> "code gate"."""
    name = names.get(sid) if names else None
    return (name or sid.replace("_", " ")).lower()


def _sentence_list(line: str) -> list[str]:
    return [x.lower() for x in _sentences(line)]


def _shape(out: dict) -> dict:
    """What `_added` compares: each list's length, each other value as it is (copied)."""
    return {
        k: len(v) if isinstance(v, list) else (dict(v) if isinstance(v, dict) else v) for k, v in out.items()
    }


def _added(before: dict, out: dict) -> dict:
    """The board object's fields a unit added: new list items (kept as the same objects, so a
    later change to one shows), numbers added (``mu`` +1), and any other field set or changed."""
    piece: dict[str, Any] = {}
    for k, v in out.items():
        was = before.get(k)
        if isinstance(v, list):
            if len(v) > (was or 0):
                piece[k] = v[was or 0 :]
        elif isinstance(v, bool) or not isinstance(v, int):
            if v != was:
                piece[k] = v
        elif v != (was or 0):
            piece[k] = v - (was or 0)
    return piece


class _Card:
    """Builds one board card and the account of its units together, so that what the card does
    on the board and what the coverage says it does cannot disagree."""

    def __init__(self, ctype: str, controller: str, out: dict):
        self.ctype = ctype
        self.controller = controller
        self.out = out
        self.units: list[Unit] = []
        # what each unit added to the board object (`pieces`), for the card records
        # (engine.cardrecords): the board object as it was before the unit
        self.pieces: list[dict] = []
        self._before = _shape(out)
        self._before_unit = self._before
        self.loads = False
        self.load_unit: int | None = (
            None  # the unit whose trigger loads the card (`_loads`)  # the card is loaded with counters and has an "empty" ability (10.9)
        )
        self.restricted = False  # "Use this hardware only ...": a limit the engine does not check

    def unit(self, text: str, kind: str, status: str, at: str | None = None) -> None:
        self.units.append(Unit(text[:MAX_TEXT], kind, status, at))
        self.pieces.append(_added(self._before, self.out))
        self._before_unit = self._before
        self._before = _shape(self.out)

    def shown(self, text: str, kind: str = "constant") -> None:
        self.out.setdefault("unmodeled", [])
        if len(self.out["unmodeled"]) < 10:
            self.out["unmodeled"].append(text[:MAX_TEXT])
        self.unit(text, kind, SHOWN)

    # ----- paragraphs ----------------------------------------------------------------------
    def trigger(self, line: str, low: str, src: str | None = None) -> bool:
        """`src`: the paragraph as matched (`low` is its lowercase), when it differs from the
        printed `line` (the card's own name read as "this agenda"); effects are read from it."""
        src = line if src is None else src
        e = _EMPTY.fullmatch(low) if self.ctype in _CORP_ACTIVE | _INSTALLED else None
        if e:
            return self._loads(line, low, src, e)
        t = _THREAT.match(low)
        if t and self.ctype in _CORP_ACTIVE:  # "Threat 4 → When ...": active at threat 4 or more
            mark = len(self.out.get("triggers", []))
            if not self.trigger(line, low[t.end() :], src[t.end() :]):
                return False
            tr = self.out["triggers"][mark]
            if tr["effects"] and _name(tr["effects"][0]) != "text":
                gated = [{"effect": "if_threat_level", "amount": int(t.group(1)), "effects": tr["effects"]}]
                if engine_accepts(gated, "corp"):
                    tr["effects"] = gated
                else:  # not expressible gated: the whole paragraph by hand
                    tr["effects"] = [_text_effect(line)]
                    tr.pop("optional", None)
                    u = self.units[-1]
                    self.units[-1] = Unit(u.text, u.kind, BY_HAND, u.at)
            return True
        for pattern, when, make in _ONCE_A_TURN_TRIGGERS:
            m = pattern.fullmatch(low) if self.ctype in _INSTALLED else None
            if m:
                tr = {"when": when, "effects": [_text_effect(line)]}
                flt = make(m)
                if flt:
                    tr["filter"] = flt
                # "The first time each turn ...": met by the turn's first such event only
                # (`first_each`, engine.triggers.happened); its effects modeled when understood
                body = src[m.start("body") :].strip()
                effects = self._effects(body)
                if effects is not None:
                    tr["effects"] = effects
                    if body.lower().startswith("you may "):
                        tr["optional"] = True
                    if "each turn" in low[: m.start("body")]:
                        tr["first_each"] = "turn"
                self.out.setdefault("triggers", []).append(tr)
                self.unit(line, "trigger", BY_HAND if effects is None else MODELED, when)
                return True
        for pattern, types, conditions in _TWO_WAY_TRIGGERS:
            m = pattern.fullmatch(low) if self.ctype in types else None
            if m:
                body = _it_is_this(low[: m.start("body")], src[m.start("body") :].strip())
                self._add_triggers(conditions, body, line)
                return True
        for pattern, types, when, flt in _TRIGGERS:
            if self.ctype not in types:
                continue
            m = pattern.fullmatch(low)
            if not m:
                continue
            tr: dict[str, Any] = {"when": when}
            if flt == "this":
                tr["filter"] = {"server": "this"}
            elif flt == "server" and m.group("server"):
                tr["filter"] = {"server": _SERVER_WORDS[m.group("server")]}
            elif flt == "successful_server":  # "whenever a successful run on R&D ends"
                tr["filter"] = {"successful": True, "server": _SERVER_WORDS[m.group("server")]}
            elif flt == "subtype" and m.group("subtype") != "piece of ice":
                tr["filter"] = {"subtype": m.group("subtype")}
            elif flt == "card_type" and m.group("card_type") != "card":
                tr["filter"] = {"card_type": m.group("card_type")}
            body = _it_is_this(low[: m.start("body")], src[m.start("body") :].strip())
            self._add_trigger(tr, body, line, when)
            return True
        m = _ON_ACCESS.fullmatch(low) if self.controller == "corp" else None
        if m:
            body = src[m.start("body") :].strip()
            effects = self._effects(body)
            if effects is not None and _touches_counters(effects):
                effects = None  # the accessed card is not "this card" of an installed ability: by hand
            where = _ON_ACCESS_ZONES.get(m.group("where") or "")
            if effects is None:
                effects, status = [_text_effect(line)], BY_HAND
            else:
                status = MODELED
            if where:
                effects = [{"effect": "if_accessed_from", "zones": where, "effects": effects}]
                if not engine_accepts(effects, "corp"):
                    effects, status = [_text_effect(line)], BY_HAND
            self.out["on_access"] = effects
            self.unit(line, "trigger", status, "accessed")
            return True
        return False

    def _loads(self, line: str, low: str, src: str, m: re.Match) -> bool:
        """ "When you rez this asset, load 9[credit] onto it. When it is empty, trash it and draw 1
        card." (10.9): the trigger loads the card, its `when_empty` is the rest. Modeled when the
        trigger is and the card is loaded with credits, which the engine's effects take from it
        (`take_credits`) and so notice when it is empty; counters of other types are removed by
        abilities the engine leaves by hand, so there the whole paragraph is by hand."""
        mark = len(self.units)
        if not self.trigger(line, low[: m.end("head")], src[: m.end("head")]) or len(self.units) != mark + 1:
            return False
        tr = self.out["triggers"][-1]
        loads = [x for x in tr["effects"] if _name(x) == "load_counters"]
        empty = None
        t = _EMPTY_TRASH.fullmatch(low[m.start("body") :])
        if t and loads and loads[0]["counter"] == "credits" and self.units[-1].status == MODELED:
            rest = (
                parse_effects(src[m.start("body") + t.start("rest") :], self.controller)
                if t.group("rest")
                else []
            )
            if rest is not None:
                empty = [{"effect": "trash_this_card"}, *rest]
                if not engine_accepts(empty, self.controller) or (
                    self.controller == "runner" and not _runner_trigger_ok(empty)
                ):
                    empty = None
        if empty is None:  # the load modeled alone would leave the card loaded forever: by hand
            tr["effects"] = [_text_effect(line)]
            tr.pop("optional", None)
            u = self.units[-1]
            self.units[-1] = Unit(u.text, u.kind, BY_HAND, u.at)
        else:
            self.out["when_empty"] = {"counter": "credits", "effects": empty}
            self.load_unit = len(self.units) - 1
        self.pieces[-1] = _added(self._before_unit, self.out)
        self._before = _shape(self.out)
        return True

    def finish_loads(self) -> None:
        """A card loaded with credits that none of its modeled abilities takes from ("You can spend
        hosted credits during runs", a by-hand run ability): the credits leave it only by hand, where
        the engine would not see it empty, so its load paragraph is by hand too."""
        if self.load_unit is None:
            return
        takes = [
            e
            for holder in (*self.out.get("triggers", ()), *self.out.get("abilities", ()))
            for e in holder.get("effects", ())
            if _name(e) == "take_credits"
        ]
        if takes:
            return
        u = self.units[self.load_unit]
        for tr in self.out.get("triggers", ()):
            if any(_name(x) == "load_counters" for x in tr["effects"]):
                tr["effects"] = [_text_effect(u.text)]
        del self.out["when_empty"]
        self.units[self.load_unit] = Unit(u.text, u.kind, BY_HAND, u.at)
        piece = self.pieces[self.load_unit]
        piece.pop("when_empty", None)
        self.load_unit = None

    def _effects(self, body: str) -> list | None:
        """A paragraph's effects if every part is understood and the engine runs them."""
        low = body.lower().rstrip(".")
        for pattern, name in ((_MUST_PAY, "must_pay"), (_MAY_PAY, "may_pay")):
            m = pattern.fullmatch(low)
            if m:
                inner = parse_effects(body[m.start("rest") :], self.controller)
                if inner is None:
                    return None
                effects = [{"effect": name, "amount": int(m.group(1)), "effects": inner}]
                return effects if engine_accepts(effects, self.controller) else None
        optional = body.lower().startswith("you may ")
        effects = parse_effects(body[len("you may ") :] if optional else body, self.controller)
        if effects is None or not engine_accepts(effects[:10], self.controller):
            return None
        if self.controller == "runner" and not _runner_trigger_ok(effects):
            return None
        return effects[:10]

    def _add_triggers(self, conditions: tuple[tuple[str, dict | None], ...], body: str, line: str) -> None:
        """One printed ability met under several conditions ("when this agenda is scored or
        stolen"): a trigger on each, with the same effects; one unit."""
        effects = self._effects(body)
        if effects is not None and any(w == "stolen" for w, _ in conditions) and _touches_counters(effects):
            # counters "on it" when stolen: the stolen agenda is in the Runner's score area, where
            # the engine does not locate "this card" (effects.this_card): by hand
            effects = None
        for when, flt in conditions:
            tr: dict[str, Any] = {"when": when}
            if flt:
                tr["filter"] = dict(flt)
            if effects is not None:
                tr["effects"] = effects
                if body.lower().startswith("you may "):
                    tr["optional"] = True
            else:
                tr["effects"] = [_text_effect(line)]
            self.out.setdefault("triggers", []).append(tr)
        at = " or ".join(WHEN_WORDS.get(w, w) for w, _ in conditions)
        self.unit(line, "trigger", MODELED if effects is not None else BY_HAND, at)

    def _add_trigger(self, tr: dict, body: str, line: str, when: str) -> None:
        effects = self._effects(body)
        if effects is not None and when == "stolen" and _touches_counters(effects):
            effects = None  # see _add_triggers
        if effects is not None:
            if body.lower().startswith("you may "):
                tr["optional"] = True
            tr["effects"] = effects
            status = MODELED
        else:
            tr["effects"] = [_text_effect(line)]
            status = BY_HAND
        self.out.setdefault("triggers", []).append(tr)
        self.unit(line, "trigger", status, when)

    def by_hand_at(self, when: str, line: str) -> None:
        """A paragraph the engine does not model, asked of the judge where it applies."""
        self.out.setdefault("triggers", []).append({"when": when, "effects": [_text_effect(line)]})
        self.unit(line, "trigger", BY_HAND, when)

    def constant(self, line: str, low: str) -> bool:
        """Constant abilities the engine applies; True when the whole paragraph is one."""
        sentences = _sentence_list(line)
        done = []
        for sent in sentences:
            if self.controller == "corp" and _REVEAL_IN_RD.fullmatch(sent):
                self.out["reveal_in_rd"] = True
                done.append(True)
                continue
            if sent in ("you can advance this ice", "you can advance this asset"):
                done.append("advance")
                continue
            m = _ADVANCE_STRENGTH.fullmatch(sent)
            if m and self.ctype == "ice":
                self.out.setdefault("strength_mods", []).append(
                    {"amount": int(m.group(1)), "per": "advancement"}
                )
                done.append(True)
                continue
            m = _COUNTER_STRENGTH.fullmatch(sent)
            if m and self.ctype == "ice":  # "This ice gets −1 strength for each hosted virus counter."
                sign = 1 if m.group(1) == "+" else -1
                self.out.setdefault("strength_mods", []).append(
                    {"amount": sign * int(m.group(2)), "per": m.group(3)}
                )
                done.append(True)
                continue
            m = _ONLY_ICE_STRENGTH.fullmatch(sent) or _TAGGED_STRENGTH.fullmatch(sent)
            if m and self.ctype == "ice":
                cond = "only_ice" if "only piece" in sent else "tagged"
                self.out.setdefault("strength_mods", []).append({"amount": int(m.group(1)), "while": cond})
                done.append(True)
                continue
            m = _MU.fullmatch(sent)
            if m and self.controller == "runner" and self.ctype != "event":
                self.out["mu"] = self.out.get("mu", 0) + int(m.group(1))
                done.append(True)
                continue
            m = _IDENTITY_HAND_SIZE.fullmatch(sent)
            if m and self.ctype in _INSTALLED:  # "You get +1 maximum hand size." (1.13.3b)
                self.out["hand_size"] = self.out.get("hand_size", 0) + int(m.group(1))
                done.append(True)
                continue
            m = _LINK.fullmatch(sent)
            if m and self.ctype in ("hardware", "resource", "program"):
                self.out["link"] = self.out.get("link", 0) + int(m.group(1))
                done.append(True)
                continue
            m = _ACCESS_MORE.fullmatch(sent)
            if m and self.controller == "runner" and self.ctype != "event":
                key = "hq" if m.group(1) == "hq" else "rd"
                self.out.setdefault("access_bonus", {})[key] = int(m.group(2))
                done.append(True)
                continue
            m = _TRACE_BONUS.fullmatch(sent)
            if m and self.ctype in ("asset", "upgrade", "ice", "agenda") and "trace_bonus" not in self.out:
                only = "subroutine" if m.group("which") == "subroutine" else "run_on_server"
                if only == "subroutine" or self.ctype != "agenda":  # a scored agenda is on no server
                    self.out["trace_bonus"] = {"amount": int(m.group("n")), "only": only}
                    done.append(True)
                    continue
            m = _RECURRING.fullmatch(sent)
            if m and self.ctype != "event" and self.ctype != "operation":
                self.out["recurring"] = int(m.group(1))
                done.append(True)
                continue
            return False if not done else self._partial(line, sentences, done)
        if "advance" in done and self.ctype == "asset":
            # "You can advance this asset" (1.18.3): the advance action is offered for it
            self.out["advanceable"] = True
            self.unit(line, "constant", MODELED)
            return True
        if "advance" in done:
            # "You can advance this ice" alone is a permission the engine does not offer (its
            # advance action is for agendas and assets): shown, with the rest modeled
            if all(d == "advance" for d in done):
                self.shown(line)
            else:
                self.out.setdefault("unmodeled", []).append("You can advance this card.")
                self.unit(line, "constant", MODELED)
            return True
        self.unit(line, "constant", MODELED)
        return True

    def _partial(self, line: str, sentences: list[str], done: list) -> bool:
        # some sentences modeled, one not: the paragraph is shown for the judge (what the
        # engine applies stays applied; a judge reads the rest)
        self.shown(line)
        return True


# "... the Runner cannot break more than 1 of its printed subroutines ..." (Hammer, Afshar, Akhet):
# the ice's `break_limit` (engine.rig.break_allowance), with its condition and exception
_BREAK_LIMIT = re.compile(
    r"(?:during each encounter with this ice, )?"
    r"(?:while (?P<cond>this ice is protecting hq|there are 3 or more hosted advancement counters), )?"
    r"(?:this ice gets \+(?P<str>\d+) strength and )?"
    r"the runner cannot break more than (?P<n>\d+) of its printed subroutines"
    r"(?: during each encounter)?(?: except using (?P<sub>[a-z]+)s)?"
)
_BREAK_LIMIT_WHILE = {
    "this ice is protecting hq": "protecting_hq",
    "there are 3 or more hosted advancement counters": "advanced_3",
}


def _break_limit(b: _Card, line: str, low: str) -> bool:
    """Ice text limiting how many of its subroutines the Runner breaks during each encounter; True
    when the paragraph is exactly one (modeled). "During each encounter" is required unless the
    ice's condition is one the engine knows (it always reads "during each encounter" there)."""
    m = _BREAK_LIMIT.fullmatch(low)
    if m is None or ("during each encounter" not in low) or (m.group("str") and not m.group("cond")):
        return False
    lim: dict[str, Any] = {"max": int(m.group("n"))}
    if m.group("sub"):
        lim["except_subtype"] = m.group("sub")
    cond = _BREAK_LIMIT_WHILE.get(m.group("cond") or "")
    if cond:
        lim["while"] = cond
    if m.group("str"):
        b.out.setdefault("strength_mods", []).append({"amount": int(m.group("str")), "while": cond})
    b.out["break_limit"] = lim
    b.unit(line, "constant", MODELED)
    return True


def card_units(card: Any, subtype_names: Mapping[str, str] | None = None) -> list[Unit]:
    """Every unit of a card's printed text and what the engine does with it (`board_card`)."""
    return _build(card, subtype_names)[1]


def board_card(card: Any, subtype_names: Mapping[str, str] | None = None) -> dict:
    """A NetrunnerDB card record (``scraper.nrdb.Card`` or a dict of its fields) -> the board
    card object. `subtype_names` maps subtype ids to names ("code_gate" -> "Code Gate")."""
    return _build(card, subtype_names)[0]


def translate(
    card: Any, subtype_names: Mapping[str, str] | None = None
) -> tuple[dict, list[Unit], list[dict]]:
    """`board_card` and `card_units` at once, with what each unit added to the board object
    (its engine vocabulary: subroutines, abilities, triggers, effects, constants ...; {} for a
    unit that adds nothing): what engine.cardrecords stores and checks per unit."""
    return _build(card, subtype_names)


def _build(card: Any, subtype_names: Mapping[str, str] | None) -> tuple[dict, list[Unit], list[dict]]:
    get = card.get if isinstance(card, Mapping) else lambda k, d=None: getattr(card, k, d)
    ctype = get("card_type_id") or ""
    text = get("text") or ""
    out: dict[str, Any] = {"name": (get("title") or "")[:100], "card_id": get("id")}
    if ctype.endswith("identity"):
        out["text"] = plain(text)[:MAX_TEXT]
        if get("base_link") is not None:
            out["base_link"] = get("base_link")
        if ctype == "corp_identity":
            units, pieces = _corp_identity(out, text)
            return out, units, pieces
        units, pieces = _runner_identity(out, text)
        return out, units, pieces
    if ctype not in _CORP | _RUNNER:
        raise ValueError(f"a {ctype or 'typeless'} card has no place on the board")
    out["type"] = ctype
    subtypes = [_subtype_name(s, subtype_names) for s in get("subtypes") or ()]
    cost = get("cost")
    if ctype in ("ice", "asset", "upgrade") and cost is not None:
        out["rez_cost"] = cost
    if ctype in ("operation", "event") and cost is not None:
        out["play_cost"] = cost
    if ctype in ("program", "hardware", "resource") and cost is not None:
        out["install_cost"] = cost
    for key in ("trash_cost", "agenda_points", "advancement_requirement", "memory_cost"):
        if get(key) is not None:
            out[key] = get(key)
    if ctype in ("ice", "program") and get("strength") is not None:
        out["strength"] = max(0, min(99, get("strength")))
    if subtypes and ctype in ("ice", "program", "hardware", "resource", "asset", "upgrade", "agenda"):
        out["subtypes"] = subtypes[:10]
    if text:
        out["text"] = plain(text)[:MAX_TEXT]
    controller = "corp" if ctype in _CORP else "runner"
    b = _Card(ctype, controller, out)
    # "load N counters onto it. When it is empty, trash it." (10.9): emptiness is not modeled, so
    # no ability of the card spends its counters in the engine (`_spends_loaded`)
    b.loads = "when it is empty" in plain(text).lower()
    if ctype in ("operation", "event"):
        _play(b, text)
        return out, b.units, b.pieces
    if ctype == "ice":
        out["subroutines"] = []
    icebreaker = ctype == "program" and "icebreaker" in subtypes and out.get("strength") is not None
    # "Use this hardware only during your turn." (Flip Switch): a restriction the engine does not
    # check, so none of the card's interrupts is modeled (they stay by hand)
    restricted = _USE_ONLY.search(plain(text).lower()) is not None
    b.restricted = restricted
    for raw in text.split("\n"):
        line = plain(raw)
        if not line:
            continue  # reminder text only
        low = line.rstrip(".").lower()
        if raw.lstrip().startswith("[subroutine]") and ctype == "ice":
            if len(out["subroutines"]) >= 20:
                continue
            sub = _accepted([_subroutine(raw, get("title") or "")], [raw], "corp")[0]
            out["subroutines"].append(sub)
            by_hand = not isinstance(sub, list) and _name(sub) == "text"
            b.unit(line, "subroutine", BY_HAND if by_hand else MODELED, "subroutine" if by_hand else None)
            continue
        if ctype == "agenda" and re.fullmatch(r"dividends \d+", low):
            # 10.13.1: "When you score this agenda, place N agenda counters on it for each hosted
            # advancement counter past its advancement requirement": an ability in play, not
            # deck-building; asked of the judge when it is scored (the count is not modeled)
            n = low.split()[1]
            meaning = (
                f"{line} (10.13.1: when you score this agenda, place {n} agenda counter(s) on it for each "
                "hosted advancement counter past its advancement requirement)"
            )
            b.out.setdefault("triggers", []).append({"when": "scored", "effects": [_text_effect(meaning)]})
            b.unit(line, "trigger", BY_HAND, "scored")
            continue
        if _NOT_IN_PLAY.fullmatch(line):
            b.unit(line, "deckbuilding", NOT_APPLICABLE)
            continue
        if controller == "runner" and not restricted and _interrupt_ability(b, line):
            continue
        if icebreaker and _is_ability(raw):
            _icebreaker_ability(b, raw, line)
            continue
        if ctype == "ice" and _break_limit(b, line, low):
            continue
        own = _own_name(line, get("title") or "", ctype)
        if b.trigger(line, own.rstrip(".").lower(), own):
            continue
        if b.constant(line, low):
            continue
        if ctype in _CORP_ABILITY_TYPES and _corp_ability(b, line):
            continue
        if _is_ability(raw) and controller == "runner" and _runner_click_ability(b, line):
            continue
        if _is_ability(raw) and controller == "runner":
            # a paid ability the engine does not model: offered by hand in paid ability windows
            # ([click] ones are actions: shown on the card)
            if line.lstrip().startswith("[click]"):
                b.shown(line, "ability")
                continue
            abl = out.setdefault("abilities", [])
            if len(abl) < 10:
                abl.append({"kind": "text", "text": line[:MAX_TEXT]})
            b.unit(line, "ability", BY_HAND, "paid ability window")
            continue
        if ctype == "ice" and _ENCOUNTER_WORDS.search(low) and not _REZ_WORDS.match(low):
            # a constant or an ability that changes what happens in an encounter with this ice
            # ("gains [subroutine] ...", "cannot break more than ...", "while protecting HQ"):
            # asked of the judge at the encounter, where it applies, not only shown
            b.by_hand_at("encountered", line)
            continue
        b.shown(line, "ability" if _is_ability(raw) else "constant")
    b.finish_loads()
    return out, b.units, b.pieces


# an ice paragraph that matters during an encounter with it, and one about rezzing it
_ENCOUNTER_WORDS = re.compile(r"subroutine|encounter|break|strength|\bgains?\b")
_REZ_WORDS = re.compile(r"(?:as an additional cost to rez|the rez cost|when you rez|rez only)")


_CORP_ABILITY_TYPES = frozenset({"asset", "upgrade", "ice"})
_USE_ONLY = re.compile(r"use this (?:hardware|program|resource|card) only")
_COST_AND_EFFECT = re.compile(r"(?P<cost>[^:→]{1,80}?):\s*(?P<effect>.+)")
# what a Corp ability's effect may not say for the engine to offer it as printed: a restriction on
# when or by whom it is used, which the engine would not check
_CORP_RESTRICTION = re.compile(r"use this ability|can use this ability|only the runner|any player can")


def _costs(cost: str) -> tuple[int, int, bool] | None:
    """A printed cost of [click]s, N[credit] and [trash] -> (clicks, credits, trash), or None
    when any part of it is something else (hosted counters, forfeiting, X, ...)."""
    clicks, credits, trash = 0, 0, False
    for part in (p.strip() for p in cost.lower().split(",")):
        if re.fullmatch(r"(?:\[click\])+", part):
            clicks += part.count("[click]")
        elif re.fullmatch(r"\d+\[credit\]", part):
            credits += int(part[: -len("[credit]")])
        elif part == "[trash]" and not trash:
            trash = True
        else:
            return None
    return clicks, credits, trash


_HOSTED_COST = re.compile(r"(?:(\d+) )?hosted (power|virus|agenda) counters?")  # engine.board.COST_COUNTERS
_ONCE_FLAG = re.compile(r"once per turn\s*→\s*", re.IGNORECASE)


def _costs_and_counters(cost: str) -> tuple[int, int, bool, dict | None] | None:
    """`_costs`, where one part may also be hosted counters of this card ("hosted power counter",
    "5 hosted power counters": `counter_cost`); None when any part is something else."""
    parts = [x.strip() for x in cost.lower().split(",")]
    counter = None
    rest = []
    for part in parts:
        m = _HOSTED_COST.fullmatch(part)
        if m and counter is None:
            counter = {"counter": m.group(2), "amount": int(m.group(1) or 1)}
        else:
            rest.append(part)
    if not rest:
        return 0, 0, False, counter
    costs = _costs(", ".join(rest))
    return None if costs is None else (*costs, counter)


_RUNNER_ACTION_EFFECTS = frozenset(
    {
        "gain_credits",
        "gain_clicks",
        "draw_cards",
        "place_counters",
        "remove_counters",
        "remove_tags",
        "take_credits",
    }
)


def _runner_click_ability(b: _Card, line: str) -> bool:
    """ "[click]: Gain 2[credit]." / "Once per turn → [click]: Draw 2 cards." / "[click][click][click],
    [trash]: Gain 9[credit]." on an installed Runner card: a `click` ability (an action, 5.2.1)
    with its costs, limit and effects, when every part is understood. True when the line is one."""
    if b.ctype not in _INSTALLED:
        return False
    once = _ONCE_FLAG.match(line)
    m = _COST_AND_EFFECT.fullmatch(line[once.end() :] if once else line)
    costs = _costs_and_counters(m.group("cost")) if m else None
    if costs is None or costs[0] > 3 or (costs[3] and b.loads):
        return False
    if not costs[0] and (b.ctype not in ("hardware", "resource") or b.restricted):
        # a paid ability without [click] (9.2.7): on hardware and resources (a program's are
        # icebreaker abilities or by hand); not when a "use this card only ..." limit applies
        return False
    effects = parse_effects(m.group("effect"), "runner")
    if effects is None or len(effects) > 10 or not all(_name(e) in _RUNNER_ACTION_EFFECTS for e in effects):
        return False
    ab: dict[str, Any] = {"kind": "click" if costs[0] else "paid"}
    if costs[0]:
        ab["clicks"] = costs[0]
    ab.update(cost=costs[1], trash=costs[2], effects=effects)
    if costs[3]:
        ab["counter_cost"] = costs[3]
    if once:
        ab["once_per"] = "turn"
    abl = b.out.setdefault("abilities", [])
    if len(abl) >= 10 or not engine_accepts(ab, "runner", ability=True, card_type=b.ctype):
        return False
    abl.append(ab)
    b.unit(line, "ability", MODELED)
    return True


def _corp_ability(b: _Card, line: str, as_type: str | None = None) -> bool:
    """ "[click], 1[credit], [trash]: effects" on an asset, upgrade or piece of ice: a Corp `click`
    ability (an action, 5.2.6a) or a `paid` ability (9.2.7), offered while the card is rezzed;
    its effects modeled when every part is understood, else one by-hand `text` effect the judge
    resolves when the Corp uses it (the cost is paid either way). True when the line is one."""
    once = _ONCE_FLAG.match(line)  # "Once per turn → [click], 4[credit]: ..." (9.3.6g)
    m = _COST_AND_EFFECT.fullmatch(line[once.end() :] if once else line)
    costs = _costs_and_counters(m.group("cost")) if m else None
    if costs is None or _CORP_RESTRICTION.search(m.group("effect").lower()):
        return False
    clicks, credits, trash, counter = costs
    if clicks > 3 or (counter and b.loads):  # spending loaded counters: "when it is empty" (10.9)
        return False
    ab: dict[str, Any] = {"kind": "click" if clicks else "paid", "cost": credits, "trash": trash}
    if clicks:
        ab["clicks"] = clicks
    if counter:
        ab["counter_cost"] = counter
    if once:
        ab["once_per"] = "turn"
    effects = parse_effects(m.group("effect"), "corp")
    if effects is not None and len(effects) <= 10 and engine_accepts(effects, "corp"):
        ab["effects"], status = effects, MODELED
    else:
        ab["effects"], status = [_text_effect(line)], BY_HAND
    abl = b.out.setdefault("abilities", [])
    if len(abl) >= 10 or not engine_accepts(ab, "corp", ability=True, card_type=as_type or b.ctype):
        return False
    abl.append(ab)
    b.unit(
        line,
        "ability",
        status,
        None if status == MODELED else ("action window" if clicks else "paid ability window"),
    )
    return True


_INTERRUPT = re.compile(r"\[interrupt\] → (?P<cost>[^:→]{1,40}?):\s*(?P<effect>.+)")
_PREVENT_DAMAGE = re.compile(
    r"prevent (?:up to )?(?P<n>\d+|any amount of) (?:(?P<kind>net|meat|core) )?damage"
)
_PREVENT_TAGS = re.compile(r"prevent (?P<n>\d+) tags?")
_PREVENT_TRASH = re.compile(
    rf"prevent a player from trashing (?P<n>\d+) installed (?P<kinds>{_KIND}(?:,? or {_KIND})*)"
)
# "[interrupt] → The first time each turn you would suffer net damage, you may pay 1[credit] to
# prevent 1 net damage." (Net Shield): `first_each: "turn"` (engine.prevention.first_this_turn)
_FIRST_DAMAGE = re.compile(
    r"\[interrupt\] → the first time each turn you would suffer (net|meat|core) damage, "
    r"you may pay (\d+)\[credit\] to prevent (\d+) \1 damage"
)
_TRACE_SET = re.compile(r"reduce the base trace strength of a trace to (?P<n>\d+)")


def _interrupt_ability(b: _Card, line: str) -> bool:
    """ "[interrupt] → [trash]: Prevent 1 tag." and the like on an installed Runner card: a
    `prevent` ability (9.9: damage of a kind, tags, or trashing programs / hardware /
    resources) or a `trace` interrupt ("Reduce the base trace strength of a trace to 0.",
    9.9.6d). The cost is [trash] and/or N[credit]. True when the line is one, modeled."""
    first = _FIRST_DAMAGE.fullmatch(line.rstrip(".").lower())
    if first:  # Net Shield: a damage prevention usable on the turn's first such damage only
        ab = {
            "kind": "prevent",
            "damage": first.group(1),
            "amount": int(first.group(3)),
            "cost": int(first.group(2)),
            "trash": False,
            "first_each": "turn",
        }
        return _modeled_runner_ability(b, line, ab)
    m = _INTERRUPT.fullmatch(line)
    costs = _costs(m.group("cost")) if m else None
    if costs is None or costs[0]:
        return False
    _, credits, trash = costs
    effect = m.group("effect").strip().rstrip(".").lower()
    ab: dict[str, Any]
    if d := _PREVENT_DAMAGE.fullmatch(effect):
        amount = 99 if d.group("n") == "any amount of" else int(d.group("n"))
        ab = {"kind": "prevent", "damage": d.group("kind") or "any", "amount": amount}
    elif t := _PREVENT_TAGS.fullmatch(effect):
        ab = {"kind": "prevent", "event": "tags", "amount": int(t.group("n"))}
    elif t := _PREVENT_TRASH.fullmatch(effect):
        ab = {
            "kind": "prevent",
            "event": "trash",
            "amount": int(t.group("n")),
            "card_types": _kind_names(t.group("kinds")),
        }
    elif t := _TRACE_SET.fullmatch(effect):
        ab = {"kind": "trace", "set": int(t.group("n"))}
    else:
        return False
    ab.update(cost=credits, trash=trash)
    return _modeled_runner_ability(b, line, ab)


def _modeled_runner_ability(b: _Card, line: str, ab: dict) -> bool:
    """`ab` added to the Runner card's abilities, its line modeled, when the engine takes it
    (at most 10 abilities a card); False otherwise."""
    abl = b.out.setdefault("abilities", [])
    if len(abl) >= 10 or not engine_accepts(ab, "runner", ability=True):
        return False
    abl.append(ab)
    b.unit(line, "ability", MODELED)
    return True


def _own_name(line: str, title: str, ctype: str) -> str:
    """The older wording names the card itself ("When you score Fly on the Wall, ..."): the
    paragraph with that name read as "this agenda" / "this ice" ..., when the name is in the
    opening condition only (before the first comma); else the paragraph as printed."""
    opener, sep, rest = line.partition(",")
    if not title or not sep or title.lower() not in opener.lower() or title.lower() in rest.lower():
        return line
    return re.sub(re.escape(title), f"this {ctype}", opener, flags=re.IGNORECASE) + sep + rest


def _subroutine(raw: str, title: str) -> Any:
    """`parse_subroutine`, where "Trash Data Mine." on Data Mine (the older wording of "Trash this
    ice.") is read as "Trash this ice."; a line left by hand keeps its printed words."""
    sub = parse_subroutine(raw)
    if title and not isinstance(sub, list) and _name(sub) == "text":
        own = re.sub(rf"\btrash {re.escape(title)}(?=\.|$)", "Trash this ice", raw, flags=re.IGNORECASE)
        if own != raw:
            again = parse_subroutine(own)
            if isinstance(again, list) or _name(again) != "text":
                return again
    return sub


def _icebreaker_ability(b: _Card, raw: str, line: str) -> None:
    ab = parse_ability(raw)
    if ab["kind"] == "text":
        # "+N strength for the remainder of this run/turn" (3.9.5c)
        m = _ABILITY.match(line)
        cost = _CREDITS.fullmatch(m.group("cost").strip().lower()) if m else None
        effect = m.group("effect").strip().rstrip(".").lower() if m else ""
        lasts = _PUMP_LASTS.fullmatch(effect)
        if cost and lasts:
            ab = {
                "kind": "strength",
                "cost": int(cost.group(1)),
                "amount": int(lasts.group(1)),
                "lasts": lasts.group(2),
            }
    if ab["kind"] == "text" and not b.loads:
        ab = _counter_cost_ability(line) or ab
    if ab["kind"] != "text" and not engine_accepts(ab, "runner", ability=True):
        ab = {"kind": "text", "text": line[:MAX_TEXT]}
    abl = b.out.setdefault("abilities", [])
    if len(abl) < 10:
        abl.append(ab)
    if ab["kind"] == "text":
        b.unit(line, "ability", BY_HAND, "paid ability window")
    else:
        b.unit(line, "ability", MODELED)


def _counter_cost_ability(line: str) -> dict | None:
    """ "Hosted virus counter: +2 strength." / "Interface → Hosted virus counter: Break up to 2
    subroutines." (with or without credits beside the counters): the icebreaker formula with a
    `counter_cost` removing the counters from this program (1.16); None when it is not one."""
    m = _ABILITY.match(line)
    costs = _costs_and_counters(m.group("cost").strip()) if m else None
    if costs is None or costs[3] is None or costs[0] or costs[2]:
        return None
    prefix = line[: m.start("cost")]
    ab = parse_ability(f"{prefix}{costs[1]}[credit]: {m.group('effect')}")
    if ab["kind"] == "text":
        return None
    return {**ab, "counter_cost": costs[3]}


# A paragraph of an operation or event that is not part of its play ability: an ability that
# works while the card is in the grip or stack (Strike Fund), which no trigger of the engine meets
_OFF_PLAY = re.compile(
    r"when this (?:event|operation) is trashed from your (?:grip|hq)(?: or (?:stack|r&d))?, .+"
)


_PLAY_COST = re.compile(
    r"as an additional cost to play this (?:operation|event), "
    r"(?:spend (?P<clicks>(?:\[click\]){1,3})|remove (?P<tags>\d+) tags?|suffer (?P<core>\d+) core damage"
    r"|trash (?P<trash>\d+) installed (?P<kind>programs?|resources?))"
)


def _play(b: _Card, text: str) -> None:
    """An operation's or event's whole text is its play ability (9.7): modeled when every part
    is understood, else one by-hand effect the judge resolves when it is played. A paragraph
    that works off the board ("When this event is trashed from your grip or stack, ...") is not
    part of it: shown on the card."""
    ctype = b.ctype
    side = "corp" if ctype == "operation" else "runner"
    lines = [plain(x) for x in text.split("\n") if plain(x)]
    for ln in list(lines):  # "As an additional cost to play this event, spend [click]." (1.16.10)
        m = _PLAY_COST.fullmatch(ln.rstrip(".").lower())
        if m and m.group("trash") and ctype != "event":
            m = None  # the Corp trashing the Runner's installed cards as a cost is not modeled
        if m and "additional_cost" not in b.out:
            clicks = m.group("clicks")
            if clicks:
                b.out["additional_cost"] = {"clicks": clicks.count("[click]")}
            elif m.group("tags"):
                b.out["additional_cost"] = {"remove_tags": int(m.group("tags"))}
            elif m.group("trash"):  # an event's: the Runner's installed cards, chosen as it is paid
                key = "trash_program" if m.group("kind").startswith("program") else "trash_resource"
                b.out["additional_cost"] = {key: int(m.group("trash"))}
            else:  # an event's: the Runner suffers it as part of the cost
                b.out["additional_cost"] = {"core_damage": int(m.group("core"))}
            b.unit(ln, "constant", MODELED)
            lines.remove(ln)
    keep = [ln for ln in lines if not _NOT_IN_PLAY.fullmatch(ln)]
    for ln in list(keep):  # "Play only if ...": the card's `play_if` (engine.restrictions)
        cond = play_restriction(ln, side)
        if cond is not None and "play_if" not in b.out:
            b.out["play_if"] = cond
            b.unit(ln, "restriction", MODELED)
            keep.remove(ln)
            lines.remove(ln)
    play = [ln for ln in keep if not _OFF_PLAY.fullmatch(ln.rstrip(".").lower())]
    for ln in lines:
        if ln not in keep:
            b.unit(ln, "deckbuilding", NOT_APPLICABLE)
    effects = parse_effects("\n".join(play), side) if play else None
    if effects is None and ctype == "event" and len(play) == 1:
        effects = run_event(play[0])  # "Run HQ. If successful, ..." (engine.effects "run")
    allowed = (
        effects is not None
        and len(effects) <= 10
        and (ctype == "operation" or all(_name(e) in _RUNNER_EFFECTS | {"run"} for e in effects))
        and engine_accepts(effects, side)
    )
    if allowed:
        b.out["effects"] = effects
        for ln in keep:
            if ln in play:
                b.unit(ln, "play", MODELED)
            else:
                b.shown(ln)
    else:
        b.out["effects"] = [_text_effect("\n".join(keep) or text)]
        for ln in keep:
            b.unit(ln, "play", BY_HAND, "play")


def engine_accepts(
    item: Any, controller: str = "corp", ability: bool = False, card_type: str = "program"
) -> bool:
    """Whether the engine's board format (engine.board) accepts an effect, a list of effects
    or (`ability`) an ability of a card of `card_type` (an icebreaker's by default) as it is:
    effects added to the vocabulary before the engine implements them are turned back into
    text by `board_card`."""
    from .board import _Checker

    ck = _Checker()
    if ability:
        ck.abilities({"abilities": [item], "strength": 1}, "card", card_type)
    elif isinstance(item, list):
        ck.effect_list(item, "effects", controller)
    else:
        ck.effect(item, "effect", controller)
    return not ck.problems


def _accepted(items: list, texts: list[str], controller: str, ability: bool = False) -> list:
    out = []
    for item, text in zip(items, texts, strict=True):
        if engine_accepts(item, controller, ability):
            out.append(item)
        elif ability:
            out.append({"kind": "text", "text": plain(text)[:MAX_TEXT]})
        else:
            out.append(_text_effect(re.sub(r"^\s*\[subroutine\]\s*", "", text)))
    return out


def _name(effect: Any) -> str:
    return effect if isinstance(effect, str) else effect.get("effect", "")


def coverage(cards: Any, subtype_names: Mapping[str, str] | None = None, units_of: Any = None) -> dict:
    """What the engine does with the printed text of `cards` (NetrunnerDB records): per card type
    and overall, cards whose every unit is modeled (or not applicable), and units modeled / by
    hand (surfaced at a trigger point or window) / shown on the card / not applicable, with the
    list of the units not modeled. The figure counts every unit of every card. `units_of(card,
    subtype_names)`: a card's units (default `card_units`; engine.cardrecords.resolved_units
    for the units as the card records keep them)."""
    from collections import Counter, defaultdict

    by_type: dict[str, Counter] = defaultdict(Counter)
    total: Counter = Counter()
    open_units: list[dict] = []
    for c in cards:
        get = c.get if isinstance(c, Mapping) else lambda k, d=None, c=c: getattr(c, k, d)
        ctype = get("card_type_id") or ""
        try:
            units = (units_of or card_units)(c, subtype_names)
        except ValueError:
            continue
        counts = Counter(u.status for u in units)
        full = all(u.status in (MODELED, NOT_APPLICABLE) for u in units)
        for bucket in (by_type[ctype], total):
            bucket["cards"] += 1
            bucket["fully_modeled"] += full
            bucket["units"] += len(units)
            for st in STATUSES:
                bucket[st] += counts[st]
        for u in units:
            if u.status in (BY_HAND, SHOWN, ABSENT):
                open_units.append({"card_id": get("id"), "title": get("title"), **u.to_dict()})

    def shape(b: Counter) -> dict:
        in_play = b["units"] - b[NOT_APPLICABLE]
        return {
            "cards": b["cards"],
            "fully_modeled": b["fully_modeled"],
            "units": b["units"],
            **{st: b[st] for st in STATUSES},
            "modeled_share": round(b[MODELED] / in_play, 4) if in_play else 1.0,
            "surfaced_share": round((b[MODELED] + b[BY_HAND]) / in_play, 4) if in_play else 1.0,
        }

    return {
        "total": shape(total),
        "by_type": {k: shape(v) for k, v in sorted(by_type.items())},
        "not_modeled": open_units,
    }


# ----- the Corp's identity (board `corp.identity`) -----------------------------------------------
# Deck-building text printed on identities: nothing to do on a board in play.
_IDENTITY_DECK = re.compile(r"your deck (?:cannot|may|must) .+|starter game only")
_IDENTITY_HAND_SIZE = re.compile(r"you get \+(\d+) maximum hand size")
# An identity paragraph opening with a trigger condition the engine has (engine.triggers.WHEN):
# the condition, its filter, and whether the opener says more than the condition meets (then the
# ability is surfaced by hand where the condition is met, and the judge checks the rest: "the
# first time each turn ..." too, the engine keeping no once-per-turn limit on triggers).
_IDENTITY_TRIGGERS: list[tuple[re.Pattern, str, dict | None]] = [
    (
        re.compile(
            r"whenever (?:the runner steals an agenda|an agenda is stolen)(?P<extra>[^,]*), (?P<body>.+)"
        ),
        "stolen",
        None,
    ),
    (re.compile(r"whenever you score an agenda(?P<extra>[^,]*), (?P<body>.+)"), "scored", _AGENDA),
    (
        re.compile(r"(?P<extra>the first time each turn )?the runner makes a successful run, (?P<body>.+)"),
        "successful_run",
        None,
    ),
    (
        re.compile(r"whenever the runner makes a successful run(?P<extra>[^,]*), (?P<body>.+)"),
        "successful_run",
        None,
    ),
    (re.compile(r"when your turn begins(?P<extra>[^,]*), (?P<body>.+)"), "turn_begins", None),
    (re.compile(r"when your turn ends(?P<extra>[^,]*), (?P<body>.+)"), "turn_ends", None),
    (
        re.compile(r"whenever the runner accesses an? (?P<extra>[^,]*?)agenda, (?P<body>.+)"),
        "accessed",
        _AGENDA,
    ),
]


def _corp_identity(out: dict, text: str) -> tuple[list[Unit], list[dict]]:
    """The Corp identity's paragraphs as board abilities (`corp.identity`, engine.board): a
    trigger the engine has (`_IDENTITY_TRIGGERS`), modeled when its effects are understood and
    its condition is exactly the engine's, else surfaced by hand where the condition is met;
    "[click]: ..." / "N[credit]: ..." abilities as on a rezzed asset (`_corp_ability`); "+N
    maximum hand size"; deck-building text not applicable; anything else shown on the board."""
    b = _Card("corp_identity", "corp", out)
    for raw in text.split("\n"):
        line = plain(raw)
        if not line:
            continue
        low = line.rstrip(".").lower()
        if _NOT_IN_PLAY.fullmatch(line) or _IDENTITY_DECK.fullmatch(low):
            b.unit(line, "deckbuilding", NOT_APPLICABLE)
            continue
        if _identity_trigger(b, line, low):
            continue
        m = _IDENTITY_HAND_SIZE.fullmatch(low)
        if m and "hand_size" not in out:
            out["hand_size"] = int(m.group(1))
            b.unit(line, "constant", MODELED)
            continue
        if _corp_ability(b, line, "asset"):
            continue
        b.shown(line)
    return b.units, b.pieces


# The Runner's identity: the trigger conditions it opens with, as `_IDENTITY_TRIGGERS`
_RUNNER_IDENTITY_TRIGGERS: list[tuple[re.Pattern, str, dict | None]] = [
    (re.compile(r"when your turn begins(?P<extra>[^,]*), (?P<body>.+)"), "turn_begins", None),
    (re.compile(r"when your turn ends(?P<extra>[^,]*), (?P<body>.+)"), "turn_ends", None),
    (
        re.compile(
            r"(?:whenever|(?P<extra0>the first time each turn)) you make a successful run(?P<extra>[^,]*), (?P<body>.+)"
        ),
        "successful_run",
        None,
    ),
    (
        re.compile(
            r"(?:whenever|(?P<extra0>the first time each turn)) a run(?P<extra> on [^,]*)? begins, (?P<body>.+)"
        ),
        "run_begins",
        None,
    ),
    (
        re.compile(r"(?P<extra0>once per turn → )?when a run(?P<extra> on [^,]*) ends, (?P<body>.+)"),
        "run_ends",
        None,
    ),
]


def _runner_identity(out: dict, text: str) -> tuple[list[Unit], list[dict]]:
    """The Runner identity's paragraphs on the board (`runner.identity`, engine.board): always
    active (4.6.4a); a trigger the engine has (`_RUNNER_IDENTITY_TRIGGERS`, "whenever an agenda is
    scored or stolen") modeled when its effects are understood and its condition is exactly the
    engine's, else surfaced by hand where the condition is met; deck-building text not
    applicable; anything else shown on the board (`unmodeled`)."""
    b = _Card("runner_identity", "runner", out)
    for raw in text.split("\n"):
        line = plain(raw)
        if not line:
            continue
        low = line.rstrip(".").lower()
        if _NOT_IN_PLAY.fullmatch(line) or _IDENTITY_DECK.fullmatch(low):
            b.unit(line, "deckbuilding", NOT_APPLICABLE)
            continue
        if _identity_trigger(b, line, low, _RUNNER_IDENTITY_TRIGGERS):
            continue
        b.shown(line, "identity")
    return b.units, b.pieces


def _identity_trigger(
    b: _Card, line: str, low: str, patterns: list[tuple[re.Pattern, str, dict | None]] | None = None
) -> bool:
    for pattern, types, conditions in _TWO_WAY_TRIGGERS:  # "whenever an agenda is scored or stolen"
        m = pattern.fullmatch(low) if "asset" in types else None  # the ones an active Corp card has
        if m and len(b.out.get("triggers", ())) + len(conditions) <= 10:
            b._add_triggers(conditions, line[m.start("body") :].strip(), line)
            return True
    for pattern, when, flt in _IDENTITY_TRIGGERS if patterns is None else patterns:
        m = pattern.fullmatch(low)
        if not m:
            continue
        if len(b.out.get("triggers", ())) >= 10:
            return False
        tr: dict[str, Any] = {"when": when}
        if flt:
            tr["filter"] = dict(flt)
        extra0 = m.groupdict().get("extra0")
        if (m.group("extra") or "").strip() or extra0:
            b.by_hand_at(when, line)  # a condition narrower than the engine's: the judge checks it
            b.out["triggers"][-1].update({k: v for k, v in tr.items() if k != "when"})
        else:
            b._add_trigger(tr, line[m.start("body") :].strip(), line, when)
        return True
    return False


# ----- play restrictions ("Play only if ...", 9.3.3b) -> `play_if` (engine.board.PLAY_IF) ---------
_LAST_TURN = {
    "made a successful run": "successful_run",
    "stole an agenda": "stole_agenda",
    "stole or trashed a corp card": "stole_or_trashed",
}
_LAST = r"(?:the runner |they )?(?P<last>made a successful run|stole an agenda|stole or trashed a corp card) during their last turn"
_PLAY_ONLY: list[tuple[re.Pattern, str, Any]] = [
    (re.compile(r"play only if the runner is tagged"), "operation", lambda m: {"runner_tagged": True}),
    (re.compile(r"play only if you are not tagged"), "event", lambda m: {"runner_tagged": False}),
    (
        re.compile(r"play only if the runner has at least (\d+) tags"),
        "operation",
        lambda m: {"runner_min_tags": int(m.group(1))},
    ),
    (
        re.compile(rf"play only if {_LAST}"),
        "operation",
        lambda m: {"runner_last_turn": _LAST_TURN[m.group("last")]},
    ),
    (
        re.compile(rf"play only if the threat level is (\d+) or greater, and only if {_LAST}"),
        "operation",
        lambda m: {"threat_level": int(m.group(1)), "runner_last_turn": _LAST_TURN[m.group("last")]},
    ),
    (
        re.compile(rf"play only if the runner has (\d+) or more agenda points and {_LAST}"),
        "operation",
        lambda m: {"runner_agenda_points": int(m.group(1)), "runner_last_turn": _LAST_TURN[m.group("last")]},
    ),
]


def play_restriction(line: str, side: str) -> dict | None:
    """A paragraph that is exactly a "Play only if ..." restriction the engine checks -> its
    `play_if`; None otherwise (other restrictions stay part of the by-hand play text)."""
    low = plain(line).rstrip(".").lower()
    ctype = "operation" if side == "corp" else "event"
    for pattern, on, make in _PLAY_ONLY:
        m = pattern.fullmatch(low)
        if m and on == ctype:
            return make(m)
    return None


# ----- run events ("Run HQ. If successful, ...", 6.7.4) -> the "run" effect ------------------------
_RUN_SERVERS = {"hq": "hq", "r&d": "rd", "archives": "archives", "any server": "any"}
_RUN_EVENT = re.compile(r"run (?P<server>hq|r&d|archives|any server)(?:\. if successful, (?P<rest>.+))?")
_INSTEAD = re.compile(r"instead of breaching (?P<server>hq|r&d|archives|the attacked server), (?P<inner>.+)")
_MORE_ACCESS = re.compile(
    r"access (?P<n>\d+) additional cards? when you breach (?P<server>hq|r&d|the attacked server)"
)


def run_event(line: str) -> list | None:
    """A run event's whole play text -> one "run" effect, or None unless every part is one the
    engine runs: the server (HQ, R&D, Archives, any server), and an "If successful" ability of
    Runner effects (gain credits, draw cards, ...), "instead of breaching" the attacked server,
    or "access N additional cards when you breach" it."""
    low = plain(line).rstrip(".").lower()
    m = _RUN_EVENT.fullmatch(low)
    if m is None:
        return None
    server = _RUN_SERVERS[m.group("server")]
    e: dict[str, Any] = {"effect": "run", "server": server}
    rest = m.group("rest")
    if rest:
        inst, more = _INSTEAD.fullmatch(rest), _MORE_ACCESS.fullmatch(rest)
        named = (inst or more).group("server") if (inst or more) else None
        if named is not None and named != "the attacked server" and _RUN_SERVERS[named] != server:
            return None  # breaching another server than the one run (Maintenance Access and the like)
        if more:
            if server not in ("hq", "rd") and named == "the attacked server":
                return None  # additional accesses are from HQ or R&D only (7.3.5b)
            e["additional_access"] = int(more.group("n"))
        else:
            start = m.start("rest") + (inst.start("inner") if inst else 0)
            inner = parse_effects(plain(line).rstrip(".")[start:], "runner")
            if inner is None or not all(_name(x) in _RUNNER_EFFECTS - {"text"} for x in inner):
                return None
            e["if_successful"] = inner
            if inst:
                e["instead_of_breach"] = True
    return [e] if engine_accepts([e], "runner") else None
