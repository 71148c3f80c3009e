"""Drawing cards (8.4.5)."""

from __future__ import annotations

from typing import Any

from .decision import Decision
from .effects import win
from .machine import (
    Ctx,
    Frame,
    handles,
)


@handles("step_draw_set_aside")
def _draw_set_aside(ctx: Ctx, f: Frame, d: Decision | None) -> Any:
    side, n = f.v["player"], f.v["count"]
    p = ctx.board[side]
    k = min(n, len(p["deck"]))
    ch: dict = {}
    f.v["drawn"] = k  # the last k set-aside cards (an event being played may be set aside too)
    if k:
        ch[f"{side}.deck"] = [len(p["deck"]), len(p["deck"]) - k]
        p["set_aside"].extend(p["deck"][:k])
        del p["deck"][:k]
    deck = "R&D" if side == "corp" else "the stack"
    ctx.ev(
        f"The {side.capitalize()} sets aside {k} card(s) from the top of {deck} (drawing {n}).",
        ("rule_draw_procedure",),
        ch,
    )
    if side == "corp" and k < n:
        return win(
            ctx, "runner", "The Corp must draw from an empty R&D", ["rule_empty_rnd", "rule_win_conditions"]
        )
    return None


@handles("step_draw_add_to_hand")
def _draw_add(ctx: Ctx, f: Frame, d: Decision | None) -> Any:
    side = f.v["player"]
    p = ctx.board[side]
    k = f.v.get("drawn", len(p["set_aside"]))
    drawn = p["set_aside"][len(p["set_aside"]) - k :]
    names = [c["name"] for c in drawn]
    ch = {f"{side}.hand": [len(p["hand"]), len(p["hand"]) + len(names)]} if names else {}
    p["hand"].extend(drawn)
    del p["set_aside"][len(p["set_aside"]) - k :]
    hand = "HQ" if side == "corp" else "the grip"
    ctx.ev(
        f"The {side.capitalize()} adds {len(names)} drawn card(s) to {hand}.", ("rule_draw_procedure",), ch
    )
    return None
