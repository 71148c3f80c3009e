"""The board as a picture: a JSON-ready model the `_board.html` partial draws with HTML and CSS.

Pure functions over the board JSON (canonical or as given: a zone may be a count or a list) and
the run's position. The Corp's servers become columns with their ice outermost first, each
piece labelled by its position; the Runner's side lists credits, clicks, tags, score and the
rig. Card fields the board format may or may not carry (strength, subtypes, memory cost,
counters, abilities, an identity, a rig) are shown when present and ignored when absent.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

CENTRAL = ("hq", "rd", "archives")
SERVER_LABELS = {"hq": "HQ", "rd": "R&D", "archives": "Archives"}
_REMOTE = re.compile(r"^remote(\d+)$")
RIG_ZONES = (
    ("programs", "Programs"),
    ("hardware", "Hardware"),
    ("resources", "Resources"),
    ("facedown", "Facedown"),
)
COUNTER_NAMES = ("advancement", "agenda", "power", "virus", "credits")


@dataclass(frozen=True)
class RunPosition:
    """Where the Runner is during a run. `pos` indexes the server's ice list (0 = outermost) or is
    None (no position at a piece of ice: initiation on an iceless server, or moving to the
    server); `phase` is one of initiation, approach, encounter, movement, success, breach,
    run_ends; `broken` is the encountered ice's broken-subroutine flags."""

    server: str
    pos: int | None
    phase: str
    broken: tuple[bool, ...] = ()
    successful: bool = False
    moved: bool = False  # in the Movement Phase, already moved inward to `pos` (not yet approached)


def server_label(key: str) -> str:
    """ "hq" -> "HQ", "remote2" -> "Server 2" (the CR's name for remote servers)."""
    if key in SERVER_LABELS:
        return SERVER_LABELS[key]
    m = _REMOTE.match(key)
    return f"Server {m.group(1)}" if m else key


def server_order(keys: list[str] | tuple[str, ...] | Any) -> list[str]:
    """Centrals first (HQ, R&D, Archives), then remotes by number."""
    keys = list(keys)
    remotes = sorted((k for k in keys if k not in CENTRAL), key=lambda k: (_remote_no(k), k))
    return [k for k in CENTRAL if k in keys] + remotes


def _remote_no(key: str) -> int:
    m = _REMOTE.match(key)
    return int(m.group(1)) if m else 10**6


def _count(zone: Any) -> int:
    if isinstance(zone, bool):
        return 0
    if isinstance(zone, int):
        return max(zone, 0)
    return len(zone) if isinstance(zone, list) else 0


def _points(zone: Any) -> int:
    if not isinstance(zone, list):
        return 0
    return sum(
        c.get("agenda_points", 0)
        for c in zone
        if isinstance(c, dict) and isinstance(c.get("agenda_points"), int)
    )


def effect_label(e: Any) -> str:
    """A short label for one effect or a list of effects (a subroutine), for the picture."""
    if isinstance(e, list):
        return "; ".join(effect_label(x) for x in e) or "(nothing)"
    if isinstance(e, str):
        e = {"effect": e}
    if not isinstance(e, dict):
        return "?"
    name = str(e.get("effect", "?"))
    amount = e.get("amount")
    if name == "end_the_run":
        return "End the run"
    if name == "text":
        return str(e.get("text", ""))
    if name == "trace":
        out = f"Trace {e.get('strength', '?')}"
        if e.get("on_success"):
            out += ": " + effect_label(e["on_success"])
        if e.get("on_failure"):
            out += "; if not: " + effect_label(e["on_failure"])
        return out
    if name == "unless_pays":
        return f"{effect_label(e.get('effects', []))} unless the Runner pays {amount}¢"
    if name == "if_tagged":
        return f"If tagged: {effect_label(e.get('effects', []))}"
    if name == "must_pay":
        return f"The Runner must pay {amount}¢ if able; if not: {effect_label(e.get('effects', []))}"
    if name == "may_pay":
        return f"May pay {amount}¢: {effect_label(e.get('effects', []))}"
    words = {
        "lose_clicks": "Runner loses {n} click",
        "gain_credits": "Gain {n}¢",
        "lose_credits": "Runner loses {n}¢",
        "net_damage": "{n} net damage",
        "meat_damage": "{n} meat damage",
        "core_damage": "{n} core damage",
        "give_tags": "Give {n} tag",
        "trash_program": "Trash {n} program",
    }
    if name in words:
        n = amount if isinstance(amount, int) else 1
        label = words[name].format(n=n)
        return label + ("s" if n != 1 and label.endswith(("click", "tag", "program")) else "")
    try:  # the vocabulary's own words for the rest (engine.board.EFFECTS)
        from engine.effects import describe_effect

        return describe_effect(e).rstrip(".")
    except (KeyError, TypeError, ValueError, IndexError, AttributeError):
        return name.replace("_", " ").capitalize()


def _ability_label(a: Any) -> str:
    if not isinstance(a, dict):
        return "?"
    kind, cost = a.get("kind"), a.get("cost", 0)
    if kind == "break":
        what = f"{a['ice_subtype']} " if a.get("ice_subtype") else ""
        n = a.get("count", 1)
        up = "up to " if a.get("up_to") else ""
        return f"{cost}¢: break {up}{n} {what}subroutine{'s' if n != 1 else ''}"
    if kind == "strength":
        lasts = a.get("lasts")
        until = f" for the remainder of the {lasts}" if lasts in ("run", "turn") else ""
        return f"{cost}¢: +{a.get('amount', 0)} strength{until}"
    if kind in ("paid", "click") and isinstance(a.get("effects"), list):  # a Corp card's (9.2.7, 5.2.6a)
        clicks = a.get("clicks", 1) if kind == "click" else 0
        parts = ["[click]" * clicks if isinstance(clicks, int) else "[click]"]
        parts += [f"{cost}¢"] if cost else []
        parts += ["[trash]"] if a.get("trash") else []
        if len(a["effects"]) == 1 and _is_text(a["effects"][0]):  # by hand: the printed line, cost and all
            return str(a["effects"][0].get("text", "?"))
        words = "; ".join(effect_label(e) for e in a["effects"])
        return f"{', '.join(p for p in parts if p) or 'no cost'}: {words}"
    return str(a.get("text", kind or "?"))


def _counters(card: dict) -> list[str]:
    out = []
    counters = card.get("counters")
    if isinstance(counters, dict):
        out += [
            f"{counters[k]} {k}" for k in COUNTER_NAMES if isinstance(counters.get(k), int) and counters[k]
        ]
    adv = card.get("advancements")
    if isinstance(adv, int) and adv and not (isinstance(counters, dict) and counters.get("advancement")):
        out.append(f"{adv} advancement{'s' if adv != 1 else ''}")
    return out


def _subtypes(card: dict) -> str:
    subs = card.get("subtypes")
    if isinstance(subs, list):
        return " · ".join(str(s).title() for s in subs if isinstance(s, str))
    return ""


def card_view(card: Any, kind: str = "") -> dict[str, Any]:
    """The fields of one card the picture shows."""
    if isinstance(card, str):
        card = {"name": card}
    if not isinstance(card, dict):
        return {"name": "?", "type": kind}
    out: dict[str, Any] = {
        "name": str(card.get("name") or "Unnamed card"),
        "type": card.get("type") or kind,
        "rezzed": bool(card.get("rezzed")),
        "subtypes": _subtypes(card),
        "counters": _counters(card),
        "accessed": bool(card.get("accessed")),
    }
    for key in (
        "strength",
        "rez_cost",
        "trash_cost",
        "memory_cost",
        "agenda_points",
        "advancement_requirement",
    ):
        if isinstance(card.get(key), int) and not isinstance(card.get(key), bool):
            out[key] = card[key]
    boost = card.get("boost")
    if isinstance(boost, int) and boost and isinstance(out.get("strength"), int):
        out["boosted"] = out["strength"] + boost
    if isinstance(card.get("abilities"), list):
        out["abilities"] = [_ability_label(a) for a in card["abilities"]]
    notes, by_hand = _notes(card)
    if notes:
        out["notes"] = notes
    if by_hand:
        out["by_hand"] = by_hand
    return out


def _is_text(e: Any) -> bool:
    return isinstance(e, dict) and e.get("effect") == "text"


def _notes(card: dict) -> tuple[list[dict[str, Any]], int]:
    """What the picture says a card does beside its subroutines and abilities: its conditional
    abilities ("when encountered: ...") and the printed paragraphs the engine does not apply
    (`unmodeled`), each marked when a judge resolves it by hand; and how many are by hand
    (text subroutines and abilities included)."""
    notes: list[dict[str, Any]] = []
    by_hand = 0
    for t in card.get("triggers") or ():
        if not isinstance(t, dict):
            continue
        effects = t.get("effects") if isinstance(t.get("effects"), list) else [t.get("effects")]
        hand = any(_is_text(e) for e in effects)
        by_hand += hand
        words = "; ".join(effect_label(e) for e in effects if e is not None)
        when = str(t.get("when", "")).replace("_", " ")
        notes.append({"text": words if hand else f"When {when}: {words}", "by_hand": hand})
    for text in card.get("unmodeled") or ():
        if isinstance(text, str):
            notes.append({"text": text, "by_hand": True})
            by_hand += 1
    for sub in card.get("subroutines") or ():
        by_hand += _is_text(sub)
    for a in card.get("abilities") or ():
        # a Runner card's `text` ability, or a Corp card's ability whose effects are by hand
        by_hand += isinstance(a, dict) and (
            a.get("kind") == "text"
            or (isinstance(a.get("effects"), list) and any(_is_text(e) for e in a["effects"]))
        )
    return notes, by_hand


def _ice_strength(card: Any, n_ice: int, tags: int = 0, server: str = "") -> int | None:
    """The ice's strength with its constant `strength_mods` (engine.rig.ice_strength), or None
    when it has none (or the board is not well formed)."""
    if not isinstance(card, dict) or not isinstance(card.get("strength_mods"), list):
        return None
    base = card.get("strength", 0)
    if not isinstance(base, int):
        return None
    counters = card.get("counters") if isinstance(card.get("counters"), dict) else {}
    for m in card["strength_mods"]:
        if not isinstance(m, dict) or not isinstance(m.get("amount"), int):
            return None
        if m.get("per") == "advancement":
            adv = counters.get("advancement", 0)
            base += m["amount"] * (adv if isinstance(adv, int) else 0)
        elif (
            (m.get("while") == "only_ice" and n_ice == 1)
            or (m.get("while") == "tagged" and tags)
            or (m.get("while") == "protecting_remote" and server.startswith("remote"))
            or (m.get("while") == "protecting_archives" and server == "archives")
        ):
            base += m["amount"]
    return max(0, base)


def ice_label(i: int, n: int) -> str:
    """Position label of ice i (0 = outermost) of n."""
    if n == 1:
        return "only ice"
    if i == 0:
        return "outermost"
    if i == n - 1:
        return "innermost"
    return f"{i + 1} of {n}"


def _server_view(key: str, srv: dict, corp: dict, run: RunPosition | None, tags: int = 0) -> dict[str, Any]:
    ice_in = srv.get("ice") if isinstance(srv.get("ice"), list) else []
    n = len(ice_in)
    here = run is not None and run.server == key
    ice = []
    for i, card in enumerate(ice_in):
        view = card_view(card, "ice")
        now = _ice_strength(card, n, tags, key)
        if now is not None and isinstance(view.get("strength"), int) and now != view["strength"]:
            view["boosted"] = now
        view["pos"] = i
        view["label"] = ice_label(i, n)
        subs = card.get("subroutines") if isinstance(card, dict) else None
        broken = run.broken if here and run.phase == "encounter" and run.pos == i else ()
        view["subs"] = [
            {"text": effect_label(s), "broken": j < len(broken) and bool(broken[j])}
            for j, s in enumerate(subs if isinstance(subs, list) else [])
        ]
        view["runner"] = _ice_mark(run, i) if here else None
        ice.append(view)
    view_srv: dict[str, Any] = {
        "key": key,
        "label": server_label(key),
        "ice": ice,
        "root": [card_view(c, "upgrade") for c in (srv.get("root") or []) if c is not None],
        "remote": key not in CENTRAL,
        "attacked": here,
        "marker": _marker(run, n) if here else None,
    }
    if key in CENTRAL:
        zone = {"hq": "hand", "rd": "deck", "archives": "discard"}[key]
        view_srv["cards"] = _count(corp.get(zone, 0))
        if key == "archives" and isinstance(corp.get("discard"), list):
            view_srv["faceup"] = sum(1 for c in corp["discard"] if isinstance(c, dict) and c.get("faceup"))
    else:
        content = srv.get("content")
        view_srv["content"] = card_view(content) if content else None
    return view_srv


def _ice_mark(run: RunPosition, i: int) -> str | None:
    """How the Runner stands to ice i: approached, encountered, passed or None."""
    if run.pos is None:
        return None if run.phase == "initiation" else "passed"
    if i < run.pos:
        return "passed"
    if i == run.pos:
        if run.phase == "movement":
            return None if run.moved else "passed"
        return {"approach": "approached", "encounter": "encountered"}.get(run.phase)
    return None


def _marker(run: RunPosition, n: int) -> dict[str, Any]:
    """Where the Runner's marker goes in the column: before ice `before` (None: before the server)."""
    if run.pos is None:
        if run.phase in ("initiation",) and n:
            return {"before": 0, "text": "Runner: run begins"}
        text = {"breach": "Runner: breaching", "success": "Runner: at the server", "run_ends": "Run ends"}
        return {"before": None, "text": text.get(run.phase, "Runner: approaching the server")}
    if run.phase == "approach":
        return {"before": run.pos, "text": "Runner approaches"}
    if run.phase == "encounter":
        return {"before": run.pos, "text": "Runner encounters"}
    if run.phase == "movement":
        if run.moved:
            return {"before": run.pos, "text": "Runner moved in"}
        nxt = run.pos + 1
        return {"before": nxt if nxt < n else None, "text": "Runner passed this ice"}
    return {"before": run.pos, "text": "Runner: run begins"}


def _rig(runner: dict) -> list[dict[str, Any]]:
    rig = runner.get("rig")
    if not isinstance(rig, dict):
        return []
    out = []
    for key, title in RIG_ZONES:
        cards = rig.get(key)
        if isinstance(cards, list) and cards:
            out.append({"key": key, "title": title, "cards": [card_view(c, key.rstrip("s")) for c in cards]})
    return out


def _memory(runner: dict) -> dict[str, int] | None:
    rig = runner.get("rig")
    ident = runner.get("identity")
    limit = runner.get("memory_limit")
    if limit is None and isinstance(ident, dict):
        limit = ident.get("memory_limit")
    if not isinstance(rig, dict) and limit is None:
        return None
    programs = rig.get("programs", []) if isinstance(rig, dict) else []
    used = sum(
        c.get("memory_cost", 0)
        for c in programs
        if isinstance(c, dict) and isinstance(c.get("memory_cost"), int)
    )
    from engine.board import memory_bonus  # +N[mu] of installed cards (LilyPAD)

    return {"used": used, "limit": (limit if isinstance(limit, int) else 4) + memory_bonus(rig)}


def _corp_identity(ident: Any) -> dict[str, Any] | None:
    """The Corp's identity as the picture shows a card: its abilities, its conditional abilities
    and the paragraphs a judge applies by hand; "+N maximum hand size" as a note."""
    if ident is None:
        return None
    view = card_view(ident, "identity")
    hand = ident.get("hand_size") if isinstance(ident, dict) else None
    if isinstance(hand, int) and not isinstance(hand, bool) and hand:
        view.setdefault("notes", []).insert(0, {"text": f"+{hand} maximum hand size", "by_hand": False})
    return view


def board_picture(board: Any, run: RunPosition | None = None) -> dict[str, Any] | None:
    """The picture model of a board (None when `board` is not a board object)."""
    if not isinstance(board, dict):
        return None
    corp = board.get("corp") if isinstance(board.get("corp"), dict) else {}
    runner = board.get("runner") if isinstance(board.get("runner"), dict) else {}
    servers_in = board.get("servers") if isinstance(board.get("servers"), dict) else {}
    keys = server_order(set(servers_in) | set(CENTRAL))
    tags = runner.get("tags") if isinstance(runner.get("tags"), int) else 0
    servers = [_server_view(k, servers_in.get(k) or {}, corp, run, tags) for k in keys]
    ident = runner.get("identity")
    if isinstance(ident, str):
        ident = {"name": ident}
    return {
        "turn": board.get("turn", "runner"),
        "corp": {
            "credits": corp.get("credits", 5),
            "clicks": corp.get("clicks", 0),
            "bad_publicity": corp.get("bad_publicity", 0),
            "score": _points(corp.get("score_area")),
            "identity": _corp_identity(corp.get("identity")),
        },
        "runner": {
            "identity": ident.get("name") if isinstance(ident, dict) else None,
            # an identity picked by name carries its abilities (triggers, the paragraphs left to the
            # judge): drawn as a card, like the Corp's; a hand-written one with only its text, a note
            "identity_card": card_view(ident, "identity")
            if isinstance(ident, dict) and (ident.get("triggers") or ident.get("unmodeled"))
            else None,
            "identity_text": ident.get("text")
            if isinstance(ident, dict) and isinstance(ident.get("text"), str)
            else None,
            "credits": runner.get("credits", 5),
            "clicks": runner.get("clicks", 0),
            "tags": runner.get("tags", 0),
            "score": _points(runner.get("score_area")),
            "link": runner.get("link", 0),
            "core_damage": runner.get("core_damage", 0),
            "bad_publicity_fund": runner.get("bad_publicity_fund", 0),
            "grip": _count(runner.get("hand", 5)),
            "stack": _count(runner.get("deck", 30)),
            "heap": _count(runner.get("discard", [])),
            "memory": _memory(runner),
            "rig": _rig(runner),
        },
        "servers": servers,
        "run": None
        if run is None
        else {"server": run.server, "label": server_label(run.server), "phase": run.phase},
    }


def _get(obj: Any, key: str, default: Any = None) -> Any:
    if isinstance(obj, dict):
        return obj.get(key, default)
    return getattr(obj, key, default)


def run_position(frames: Any, phase_kind: Any) -> RunPosition | None:
    """The Runner's position from an engine session's frames (None outside a run).

    `phase_kind(step_id)` names the run phase a step belongs to ("approach", ...). Frames are
    read defensively (dicts with "s", "at", "v", or objects with those attributes), so a change
    in the engine's frame records degrades to "no marker" rather than an error."""
    run = None
    above: list[Any] = []
    for f in frames or ():
        if _get(f, "s") == "run":
            run, above = f, []
        elif run is not None:
            above.append(f)
    if run is None:
        return None
    v = _get(run, "v") or {}
    server = _get(v, "server")
    if not isinstance(server, str):
        return None
    pos = _get(v, "pos")
    pos = pos if isinstance(pos, int) and not isinstance(pos, bool) else None
    at = _get(run, "at")
    phase = phase_kind(at) if isinstance(at, str) else "initiation"
    if any(_get(f, "s") in ("breach", "access") for f in above):
        phase = "breach"
    enc = _get(v, "enc") or {}
    broken = _get(enc, "broken") or ()
    return RunPosition(
        server=server,
        pos=pos,
        phase=phase or "initiation",
        broken=tuple(bool(b) for b in broken) if isinstance(broken, (list, tuple)) else (),
        successful=bool(_get(v, "success")),
        moved=bool(_get(v, "moved")),
    )
