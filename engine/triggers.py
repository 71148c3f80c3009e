"""Conditional abilities on installed cards that meet their trigger condition together, and the
reaction window that resolves them (9.2.8, 9.6): the active player receives priority first and
triggers their pending abilities in the order they choose (9.2.8d); when they have none left the
other player does the same with theirs (9.2.8b). Every modeled trigger is mandatory, so a player
passes only once their own are resolved (9.6.9b). A card's ability whose condition is not met
never becomes pending.

Board vocabulary: `triggers` on a Runner installed card (programs, hardware, resources) or an
installed Corp card (active only when rezzed): a list of `{"when": CONDITION, "effects": [...]}`;
conditions: `successful_run` ("whenever the Runner makes a successful run", 6.9.5a). Effects
resolve with the card's controller as controller.
"""

from __future__ import annotations

from typing import Any

from .decision import Decision, card_ref
from .machine import Ctx, Frame, call, dec, opponent, wait

WHEN = {"successful_run": "when the run is successful"}


def pending(b: dict, when: str) -> list[dict]:
    """Instances that meet `when` now: [{"side", "source", "effects", "key"}], by card position."""
    out = []
    rig = b["runner"]["rig"]
    for zone in ("programs", "hardware", "resources"):
        cards = rig[zone]
        for i, c in enumerate(cards):
            for t, tr in enumerate(c.get("triggers", ())):
                if tr["when"] == when:
                    out.append(
                        {
                            "side": "runner",
                            "source": c["name"],
                            "effects": tr["effects"],
                            "key": f"{zone}.{card_ref(cards, i)}.{t}",
                        }
                    )
    for name, srv in b["servers"].items():
        ice, root = srv["ice"], srv["root"]
        cards = [(f"{name}.ice.{card_ref(ice, i)}", c) for i, c in enumerate(ice)]
        cards += [(f"{name}.root.{card_ref(root, i)}", c) for i, c in enumerate(root)]
        if srv.get("content"):
            cards.append((f"{name}.content", srv["content"]))
        for where, c in cards:
            if not c.get("rezzed"):
                continue
            for t, tr in enumerate(c.get("triggers", ())):
                if tr["when"] == when:
                    out.append(
                        {"side": "corp", "source": c["name"], "effects": tr["effects"], "key": f"{where}.{t}"}
                    )
    return out


def reaction_window(ctx: Ctx, f: Frame, d: Decision | None, when: str) -> Any:
    """Resolve the pending instances kept in `f.v["pending"]` (set when the condition was met);
    None once none is left."""
    v = f.v
    left = v.get("pending") or []
    if not left:
        v.pop("pending", None)
        v.pop("reacting", None)
        return None
    active = ctx.board["turn"]
    holder = v.get("reacting") or active
    mine = [p for p in left if p["side"] == holder]
    if not mine:
        other = opponent(holder)
        ctx.ev(
            f"The {holder.capitalize()} has no pending ability left and passes: the {other.capitalize()} receives priority.",
            ("rule_reaction_window_priority",),
            objects={"priority": other},
        )
        v["reacting"] = other
        return reaction_window(ctx, f, None, when)
    v["reacting"] = holder
    if d is None and len(mine) > 1:
        return wait(
            [
                dec(f"trigger:{p['key']}", f"Trigger {p['source']}'s ability ({WHEN[when]})", holder)
                for p in mine
            ]
        )
    pick = mine[0] if d is None else next(p for p in mine if f"trigger:{p['key']}" == d.id)
    left.remove(pick)
    rules = ["rule_trigger_conditional_ability", "rule_reaction_window_priority"]
    if len(mine) > 1:
        rules.append("rule_reaction_window_pending_abilities_unordered")
    ctx.ev(
        f"The {holder.capitalize()} triggers {pick['source']}'s pending ability ({WHEN[when]})"
        + (f"; {len(mine) - 1} more of theirs still pending." if len(mine) > 1 else "."),
        rules,
        objects={"card": pick["source"], "player": holder, "trigger": pick["key"]},
    )
    return call(
        "conditional_ability",
        {
            "instructions": pick["effects"],
            "i": 0,
            "controller": holder,
            "source": pick["source"],
            "why": WHEN[when],
        },
        "stay",
    )
