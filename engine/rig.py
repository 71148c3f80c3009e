"""The Runner's rig during an encounter: icebreaker strength, interface abilities and why one
cannot be used (CR 3.9.5, 6.5.4, 9.8.5-9.8.6). Pure functions over the normalised board."""

from __future__ import annotations

from memo import memo

from .board import implicit_break_shortcut

# how long a pump lasts (3.9.5b-c). `boost` is the strength every pump still lasting adds (so
# `strength` reads two fields); the part of it that outlasts the encounter is also counted in
# `boost_run` / `boost_turn`
LONGER = {"run": "boost_run", "turn": "boost_turn"}


def strength(card: dict) -> int:
    """An icebreaker's current strength: printed plus its pumps still lasting (3.9.5b-c)."""
    return card.get("strength", 0) + card.get("boost", 0)


def ice_strength(board: dict, server: str, ice: dict) -> int:
    """A piece of ice's current strength: printed, plus its constant `strength_mods` (never
    below 0 for comparisons with an icebreaker's, 3.9.5g): +N for each hosted advancement
    counter (Ice Wall) or installed icebreaker (Hagen, -1), +N while it is the only piece of ice
    protecting its server (Scatter Field), while the Runner is tagged, while it protects a remote
    server (Palisade) or Archives (Bathynomus)."""
    base = ice.get("strength", 0)
    mods = ice.get("strength_mods")
    if not mods:
        return base
    for m in mods:
        per = m.get("per")
        if per == "icebreaker":
            progs = board["runner"]["rig"]["programs"]
            base += m["amount"] * sum(1 for p in progs if "icebreaker" in (p.get("subtypes") or ()))
            continue
        if per is not None:  # each hosted advancement / virus / power counter (Ice Wall, Sandstone)
            base += m["amount"] * ice.get("counters", {}).get(per, 0)
            continue
        if ice_condition(board, server, ice, m.get("while")):
            base += m["amount"]
    return max(0, base)


def ice_condition(board: dict, server: str, ice: dict, cond: str | None) -> bool:
    """Whether a piece of ice's "while ..." holds now (engine.board.STRENGTH_WHILE; None: always):
    it is the only ice protecting its server, the Runner is tagged, it protects a remote server,
    Archives or HQ, it hosts 3 or more advancement counters."""
    if cond is None:
        return True
    if cond == "only_ice":
        return len(board["servers"][server]["ice"]) == 1
    if cond == "tagged":
        return board["runner"]["tags"] > 0
    if cond == "protecting_remote":
        return server.startswith("remote")
    if cond == "protecting_archives":
        return server == "archives"
    if cond == "protecting_hq":
        return server == "hq"
    if cond == "advanced_3":
        return ice.get("counters", {}).get("advancement", 0) >= 3
    return False  # pragma: no cover - the validator refuses others


def break_allowance(board: dict, server: str, ice: dict, enc: dict, program: dict | None) -> int | None:
    """How many more of `ice`'s printed subroutines the Runner may break this encounter with
    `program` (None: the ice-level shortcut), or None when no limit applies: the ice's
    `break_limit` {"max", "except_subtype", "while"} ("cannot break more than 1 of its printed
    subroutines during each encounter", Hammer, Afshar, Akhet). Breaks with a program of the
    excepted subtype neither count nor are limited (Hammer: "except using killers")."""
    lim = ice.get("break_limit")
    if not lim or not ice_condition(board, server, ice, lim.get("while")):
        return None
    if program is not None and lim.get("except_subtype") in (program.get("subtypes") or ()):
        return None
    return max(0, lim["max"] - enc.get("limited", 0))


def add_boost(card: dict, amount: int, lasts: str) -> None:
    """A pump: +`amount` strength for the remainder of the encounter, run or turn."""
    card["boost"] = card.get("boost", 0) + amount
    if lasts != "encounter":
        key = LONGER[lasts]
        card[key] = card.get(key, 0) + amount


def clear_boosts(board: dict, lasts: str = "encounter") -> dict:
    """End every "for the remainder of the encounter" (or run, turn) strength change;
    {program index: True} for the programs whose strength fell."""
    gone = {}
    for i, c in enumerate(board["runner"]["rig"]["programs"]):
        if "boost" not in c:
            continue
        if lasts == "encounter":
            keep = c.get("boost_run", 0) + c.get("boost_turn", 0)
        else:
            part = c.pop(LONGER[lasts], 0)
            if not part:
                continue
            keep = c["boost"] - part
        if keep != c["boost"]:
            gone[i] = True
        if keep:
            c["boost"] = keep
        else:
            del c["boost"]
    return gone


def forget_boosts(card: dict) -> None:
    """An installed card's temporary strength changes end when it moves (8.1.7 / 3.9.5)."""
    for key in ["boost", *LONGER.values()]:
        card.pop(key, None)


def has_interface_abilities(board: dict) -> bool:
    """Does the Runner have any installed program with break or strength abilities?"""
    for c in board["runner"]["rig"]["programs"]:
        for a in c.get("abilities", ()):
            if a["kind"] in ("break", "strength"):
                return True
    return False


def break_shortcut(board: dict, ice: dict) -> bool:
    """Is the board-level `break_cost` shortcut (`break:i`: one credit-priced break per
    subroutine) offered on `ice`? When the ice names a `break_cost`; on a version 1 board also
    when the Runner has no icebreaker abilities installed (`engine.board.implicit_break_shortcut`).
    What the encounter offers and what `engine.refusals` explains both read this."""
    if "break_cost" in ice:
        return True
    return implicit_break_shortcut(board) and not has_interface_abilities(board)


def _once_holder(ability: dict, run_v: dict | None, turn_v: dict | None) -> dict | None:
    """Where a "use this ability only once per turn / run / encounter" use is recorded: the
    encounter's vars, the run frame's, or the outermost frame's (the turn; in a session that
    starts with the run, the run stands for the part of the turn the board shows)."""
    scope = ability.get("once_per")
    if scope == "encounter":
        return (run_v or {}).get("enc")
    if scope == "run":
        return run_v
    if scope == "turn":
        return turn_v
    return None


def used_up(ability: dict, use_id: str, run_v: dict | None, turn_v: dict | None) -> bool:
    """Has this once-per ability (`use_id`: its decision id, "use:corroder.0") already been used
    in its turn / run / encounter?"""
    holder = _once_holder(ability, run_v, turn_v)
    return holder is not None and use_id in holder.get("once_used", ())


def mark_used(ability: dict, use_id: str, run_v: dict | None, turn_v: dict | None) -> None:
    holder = _once_holder(ability, run_v, turn_v)
    if holder is not None:
        holder.setdefault("once_used", []).append(use_id)


def threat_level(board: dict) -> int:
    """The greatest score of any player (1.17.1a)."""
    corp, runner = board["corp"]["score_area"], board["runner"]["score_area"]
    if not corp and not runner:
        return 0
    return max(sum(c.get("agenda_points", 0) for c in area) for area in (corp, runner))


def blocked(
    program: dict,
    ability: dict,
    ice: dict,
    all_broken: bool,
    spendable: int,
    used: bool,
    threat: int,
    ice_str: int | None = None,
    allowance: int | None = None,
) -> tuple | None:
    """What stops `ability` on `program` against `ice` now, as (reason code, detail), or None.
    `ice_str`: the ice's current strength (`ice_strength`), its printed one if not given;
    `allowance`: how many more subroutines the ice lets this program break (`break_allowance`)."""
    kind = ability["kind"]
    if kind == "text":
        return None
    if kind == "prevent":
        return ("prevent",)
    if ability.get("threat", 0) > threat:
        return ("threat", ability["threat"], threat)
    if used:
        return ("once", ability["once_per"])
    cc = ability.get("counter_cost")
    if cc is not None and program.get("counters", {}).get(cc["counter"], 0) < cc["amount"]:
        return ("counters", cc["counter"], cc["amount"], program.get("counters", {}).get(cc["counter"], 0))
    cost = ability["cost"]
    if spendable < cost:
        return ("cost", cost)
    if kind == "strength":
        return None
    if all_broken:
        return ("broken",)
    if allowance is not None and allowance <= 0:
        return ("limit", ice["break_limit"]["max"])
    want = ability.get("ice_subtype")
    if want and want not in ice.get("subtypes", ()):
        return ("subtype", want)
    have = program.get("strength", 0) + program.get("boost", 0)  # strength(program)
    need = ice.get("strength", 0) if ice_str is None else ice_str
    if have < need:
        return ("strength", have, need)
    return None


def usable(
    program: dict,
    ability: dict,
    ice: dict,
    broken: list[bool],
    spendable: int,
    used: bool = False,
    threat: int = 0,
    ice_str: int | None = None,
    allowance: int | None = None,
) -> bool:
    """Can `ability` be used against `ice` now (the cheap test behind `unusable`)? `used`: a
    once-per ability already used in its turn / run / encounter (`used_up`); `threat`: the
    threat level (`threat_level`), for "Threat N →" abilities."""
    return blocked(program, ability, ice, all(broken), spendable, used, threat, ice_str, allowance) is None


def unusable(
    program: dict,
    ability: dict,
    ice: dict,
    broken: list[bool],
    spendable: int,
    used: bool = False,
    threat: int = 0,
    ice_str: int | None = None,
    allowance: int | None = None,
) -> str | None:
    """Why `ability` on `program` cannot be used against `ice` now (None when it can)."""
    why = blocked(program, ability, ice, all(broken), spendable, used, threat, ice_str, allowance)
    if why is None:
        return None
    code = why[0]
    if code == "threat":
        return (
            f"{program['name']}'s ability is active only at threat level {why[1]} or more; "
            f"the threat level is {why[2]} (9.3.6f)"
        )
    if code == "once":
        return f"{program['name']}'s ability can be used only once per {why[1]} and was already used this {why[1]}"
    if code == "prevent":
        return "a prevent ability is an interrupt: usable only while what it prevents is imminent (9.9.4d)"
    if code == "cost":
        return f"the Runner cannot pay {why[1]} credit(s)"
    if code == "counters":
        return (
            f"{program['name']}'s ability costs {why[2]} hosted {why[1]} counter(s); "
            f"it hosts {why[3]} (1.16.2: a cost must be paid in full)"
        )
    if code == "broken":
        return "every subroutine is already broken (9.8.6)"
    if code == "limit":
        return limit_reason(ice)
    if code == "subtype":
        return f"{ice['name']} is not a {why[1]} (3.9.5h)"
    return f"{program['name']} has strength {why[1]}, below {ice['name']}'s strength {why[2]} (3.9.5g)"


def limit_reason(ice: dict) -> str:
    """Why no more of `ice`'s subroutines can be broken this encounter (its `break_limit`)."""
    lim = ice["break_limit"]
    but = f" except using {lim['except_subtype']}s" if lim.get("except_subtype") else ""
    return (
        f"{ice['name']}: the Runner cannot break more than {lim['max']} of its printed subroutines "
        f"during this encounter{but}"
    )


ZONE_TYPES = ("program", "hardware", "resource")
ZONE_OF = {"program": "programs", "hardware": "hardware", "resource": "resources"}


def describe_prevention(ab: dict) -> str:
    """A prevention ability's words (10.2): its cost, then what it prevents or avoids."""
    cost = [f"{ab['cost']}[credit]"] if ab.get("cost") else []
    if ab.get("trash"):
        cost.append("[trash]")
    ev = ab.get("event", "damage")
    if ev == "damage":
        what = "any" if ab["damage"] == "any" else ab["damage"]
        it = f"prevent {ab['amount']} {what} damage"
    elif ev == "tags":
        it = f"avoid {ab['amount']} tag(s)"
    elif ev == "trash":
        types = " or ".join(ab.get("card_types", ZONE_TYPES))
        it = f"prevent {ab['amount']} installed {types} from being trashed"
    else:
        it = f"prevent {ab['amount']} card(s) from being exposed"
    if ab.get("first_each"):
        it += f" (only the first time each {ab['first_each']})"
    return f"{', '.join(cost) or 'no cost'}: {it}"


def describe_ability(ability: dict) -> str:
    """An ability's words, as its labels and events show them ("1[credit]: break 1 barrier
    subroutine"); made once per distinct ability (an ability is a small dict of scalars: its
    items are the memo's key; one holding a list is described without the memo)."""
    try:
        return _ability_text(tuple(ability.items()))
    except TypeError:  # an unhashable field (a list): not memoised
        return _describe(ability)


@memo("engine.ability_texts")
def _ability_text(items: tuple) -> str:
    return _describe(dict(items))


def _describe(ability: dict) -> str:
    kind = ability["kind"]
    if kind == "text":
        return ability["text"]
    if kind == "strength":
        lasts = ability.get("lasts", "encounter")
        until = "" if lasts == "encounter" else f" for the remainder of this {lasts}"
        return f"{cost_words(ability)}: +{ability['amount']} strength{until}" + _limits(ability)
    if kind == "prevent":
        return describe_prevention(ability)
    what = ability.get("ice_subtype", "")
    n = ability["count"]
    count = f"up to {n}" if ability.get("up_to") else str(n)
    noun = f"{what} subroutine" if what else "subroutine"
    return f"{cost_words(ability)}: break {count} {noun}{'s' if n != 1 else ''}" + _limits(ability)


def cost_words(ability: dict) -> str:
    """An icebreaker ability's cost as printed: "1[credit]", "hosted virus counter", both."""
    cc = ability.get("counter_cost")
    if cc is None:
        return f"{ability['cost']}[credit]"
    n = cc["amount"]
    hosted = f"hosted {cc['counter']} counter" if n == 1 else f"{n} hosted {cc['counter']} counters"
    return f"{ability['cost']}[credit], {hosted}" if ability["cost"] else hosted


def _limits(ability: dict) -> str:
    """The printed limits of an icebreaker ability, for its label."""
    text = f". Use this ability only once per {ability['once_per']}" if ability.get("once_per") else ""
    if ability.get("threat"):
        text += f" (threat {ability['threat']}: active if any player has {ability['threat']} or more agenda points)"
    if ability.get("only_if"):
        text += f". {ability['only_if'].rstrip('.')} (the Runner confirms by using it)"
    return text


def link(board: dict) -> tuple[int, list[tuple[str, int]]]:
    """The Runner's link value (10.7.1): base link plus the link of installed cards; with the
    cards that add to it."""
    rig = board["runner"]["rig"]
    extra = [
        (c["name"], c["link"])
        for zone in (rig["programs"], rig["hardware"], rig["resources"])
        for c in zone
        if c.get("link")
    ]
    return board["runner"]["link"] + sum(n for _, n in extra), extra
