"""Checkpoints (10.3.1): the steps that change the board; the rest are narrated
(engine.narration)."""

from __future__ import annotations

from typing import Any

from .decision import Decision
from .effects import win
from .machine import (
    INPUTS,
    Ctx,
    Frame,
    call,
    handles,
    score,
)


def _scores(board: dict) -> tuple[int, int]:
    return score(board, "corp"), score(board, "runner")


def _empty_remotes(board: dict) -> tuple[str, ...]:
    return tuple(
        n
        for n, s in board["servers"].items()
        if n.startswith("remote") and not s["ice"] and not s["root"] and s.get("content") is None
    )


# A checkpoint handler's `inputs(board)` is everything it reads: when a checkpoint sees the same
# inputs as one that only narrated, its events are reused (engine.machine.checkpoint).


@handles("step_checkpoint_agenda_points")
def _cp_points(ctx: Ctx, f: Frame, d: Decision | None) -> Any:
    c, r = _scores(ctx.board)
    rules = ["rule_win_agenda_points", "rule_game_win"]
    if c >= 7 and r >= 7:
        return win(
            ctx,
            None,
            f"Both players have 7 or more agenda points ({c} and {r})",
            [*rules, "rule_simultaneous_win"],
        )
    if c >= 7 or r >= 7:
        who = "corp" if c >= 7 else "runner"
        return win(ctx, who, f"The {who.capitalize()} has {max(c, r)} agenda points", rules)
    ctx.ev(f"Scores are Corp {c}, Runner {r}: nobody has 7 agenda points.", rules)
    return None


@handles("step_checkpoint_remote_server")
def _cp_remote(ctx: Ctx, f: Frame, d: Decision | None) -> Any:
    gone = _empty_remotes(ctx.board)
    for n in gone:
        del ctx.board["servers"][n]
    if gone:
        ctx.ev(
            f"Remote server(s) with no cards cease to exist: {', '.join(gone)}.",
            ("rule_checkpoints",),
            {"servers": [sorted(gone), []]},
        )
    else:
        ctx.ev("Every remote server still has a card in it.", ("rule_checkpoints",))
    return None


INPUTS[_cp_points] = _scores
INPUTS[_cp_remote] = _empty_remotes


@handles(
    "step_draw_checkpoint",
    "step_subroutine_checkpoint",
    "step_trace_checkpoint",
    "step_paid_ability_checkpoint",
    "step_conditional_ability_checkpoint",
    "step_play_ability_checkpoint",
)
def _checkpoint(ctx: Ctx, f: Frame, d: Decision | None) -> Any:
    ctx.ev("A checkpoint occurs.", ("rule_checkpoints",))
    return call("checkpoint", {})
