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

Translation is all or nothing per line: a line with any sentence outside the formulas (a
condition, a restriction, "instead") stays whole as a ``text`` effect or ability, for the judge
to resolve by hand. Reminder text in parentheses is ignored.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

__all__ = [
    "board_card",
    "engine_accepts",
    "parse_ability",
    "parse_effects",
    "parse_subroutine",
    "plain",
    "subroutine_lines",
    "ability_lines",
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
    (re.compile(r"the runner may jack out"), lambda m: "runner_may_jack_out"),
    (
        re.compile(rf"add {_N} installed runner cards? to the grip"),
        lambda m: {"effect": "add_installed_to_grip", "amount": int(m.group(1))},
    ),
]
_KIND_NAMES = {"program": "program", "resource": "resource", "hardware": "hardware"}


def _trash_kinds(amount: int, kinds: str) -> Any:
    names = sorted({k for k in _KIND_NAMES if k in kinds}, key=list(_KIND_NAMES).index)
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
_UNLESS_CLICK = re.compile(r"(.+?),? unless the runner spends ((?:\[click\])+)")
_IF_TAGGED_AFTER = re.compile(r"(.+?) if the runner is tagged")
_IF_TAGGED_BEFORE = re.compile(r"if the runner is tagged, (.+)")
_TRACE = re.compile(
    r"trace\s*\[(\d+)\]\.?\s+if successful, (.+?)(?:\.\s+if unsuccessful, (.+?))?\.?",
)


def _clicks(text: str) -> int:
    return int(text[: -len("[click]")]) if text[0].isdigit() else text.count("[click]")


def _sentences(text: str) -> list[str]:
    """Split on sentence ends ("End the run. Gain 1[credit].")."""
    parts = re.split(r"(?<=[.!])\s+(?=[A-Z\[])", text.strip())
    return [p.strip().rstrip(".").strip() for p in parts if p.strip().rstrip(".").strip()]


def _one(sentence: str) -> Any | None:
    """One sentence -> one effect, or None when it is not exactly one of the formulas."""
    many = _many(sentence)
    return many[0] if many is not None and len(many) == 1 else None


def _many(sentence: str) -> list | None:
    """One sentence -> its effects (one, or two joined by "and"), or None when any part is
    not exactly one of the formulas."""
    s = sentence.strip().rstrip(".").strip().lower()
    for pattern, make in _SIMPLE:
        m = pattern.fullmatch(s)
        if m:
            return [make(m)]
    m = _UNLESS.fullmatch(s)
    if m:
        inner = _many(m.group(1))
        return (
            None
            if inner is None
            else [{"effect": "unless_pays", "amount": int(m.group(2)), "effects": inner}]
        )
    m = _UNLESS_CLICK.fullmatch(s)
    if m:
        inner = _many(m.group(1))
        clicks = m.group(2).count("[click]")
        return (
            None
            if inner is None
            else [{"effect": "unless_pays", "amount": 0, "clicks": clicks, "effects": inner}]
        )
    m = _IF_TAGGED_AFTER.fullmatch(s) or _IF_TAGGED_BEFORE.fullmatch(s)
    if m:
        inner = _many(m.group(1))
        return None if inner is None else [{"effect": "if_tagged", "effects": inner}]
    for pattern, make in _CONDITIONS:
        m = pattern.fullmatch(s)
        if m:
            inner = _many(m.group("inner"))
            return None if inner is None else [make(m, inner)]
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
        a, b = _many(left), _many(right)
        if a is None or b is None:
            continue
        return [{"effect": "choose", "options": [a, b]}] if make == "choose" else a + b
    return None


def parse_effects(text: str) -> list | None:
    """A whole instruction text -> its list of effects, or None unless every part is understood."""
    t = plain(text)
    if not t or len(t) > MAX_TEXT:  # longer than any formula (the parse recurses per clause)
        return None
    m = _TRACE.fullmatch(t.rstrip(".").lower() + ".") or _TRACE.fullmatch(t.lower())
    if m:
        success = parse_effects(m.group(2))
        failure = parse_effects(m.group(3)) if m.group(3) else []
        if success is None or failure is None:
            return None
        effect: dict[str, Any] = {"effect": "trace", "strength": int(m.group(1)), "on_success": success}
        if failure:
            effect["on_failure"] = failure
        return [effect]
    out = []
    for sentence in _sentences(t):
        e = _many(sentence)
        if e is None:
            return None
        out.extend(e)
    return out or None


def _text_effect(text: str) -> dict:
    return {"effect": "text", "text": plain(text)[:MAX_TEXT]}


def parse_subroutine(line: str) -> Any:
    """One "[subroutine] ..." line -> an effect, a list of effects, or a ``text`` effect."""
    body = re.sub(r"^\s*\[subroutine\]\s*", "", line)
    effects = parse_effects(body)
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
    if "[subroutine]" in line:
        return False
    if "<strong>" in line:
        return bool(re.search(r"<strong>[^<]*:\s*</strong>", line))
    m = _ABILITY.match(plain(line))
    return bool(m and (_CREDITS.fullmatch(m.group("cost").strip()) or "[click]" in m.group("cost")))


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
# Whole cards
# ----------------------------------------------------------------------------------------------

_CORP = {"agenda", "asset", "upgrade", "ice", "operation"}
_RUNNER = {"event", "program", "hardware", "resource"}
_RUNNER_EFFECTS = {"gain_credits", "lose_credits", "lose_clicks", "draw_cards", "text"}


def _subtype_name(sid: str, names: Mapping[str, str] | None) -> str:
    """Subtype names as NetrunnerDB spells them, lowercased: "code_gate" -> "code gate"."""
    name = names.get(sid) if names else None
    return (name or sid.replace("_", " ")).lower()


def board_card(card: Any, subtype_names: Mapping[str, str] | None = None) -> dict:
    """A NetrunnerDB card record (``scraper.nrdb.Card`` or a dict of its fields) -> the board
    card object. `subtype_names` maps subtype ids to names ("code_gate" -> "Code Gate")."""
    get = card.get if isinstance(card, Mapping) else lambda k, d=None: getattr(card, k, d)
    ctype = get("card_type_id") or ""
    text = get("text") or ""
    out: dict[str, Any] = {"name": (get("title") or "")[:100], "card_id": get("id")}
    if ctype.endswith("identity"):
        out["text"] = plain(text)[:MAX_TEXT]
        if get("base_link") is not None:
            out["base_link"] = get("base_link")
        return out
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
    if ctype == "ice":
        lines = subroutine_lines(text)[:20]
        out["subroutines"] = _accepted([parse_subroutine(line) for line in lines], lines, "corp")
    elif ctype == "program" and "icebreaker" in subtypes and out.get("strength") is not None:
        lines = ability_lines(text)[:10]
        out["abilities"] = _accepted([parse_ability(line) for line in lines], lines, "runner", ability=True)
    elif ctype in ("operation", "event"):
        effects = parse_effects(text)
        allowed = effects is not None and (
            ctype == "operation" or all(_name(e) in _RUNNER_EFFECTS for e in effects)
        )
        if allowed and not engine_accepts(effects[:10], "corp" if ctype == "operation" else "runner"):
            allowed = False
        out["effects"] = (effects if allowed else [_text_effect(text)])[:10]
    return out


def engine_accepts(item: Any, controller: str = "corp", ability: bool = False) -> bool:
    """Whether the engine's board format (engine.board) accepts an effect, a list of effects
    or (`ability`) an icebreaker ability as it is: effects added to the vocabulary before the
    engine implements them are turned back into text by `board_card`."""
    from .board import _Checker

    ck = _Checker()
    if ability:
        ck.abilities({"abilities": [item], "strength": 1}, "card", "program")
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
