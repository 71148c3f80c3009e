"""Traces (10.8.6): base strength, both players spend credits, the result resolves as a
conditional ability."""

from __future__ import annotations

from typing import Any

from . import rig
from .decision import Decision
from .machine import (
    Ctx,
    Frame,
    Handler,
    call,
    complete,
    dec,
    handles,
    wait,
)


@handles("step_trace_initiated")
def _trace_init(ctx: Ctx, f: Frame, d: Decision | None) -> Any:
    v = f.v
    v.setdefault("corp_spent", 0)
    v.setdefault("runner_spent", 0)
    ctx.ev(
        f"Trace {v['strength']} is initiated: base trace strength {v['strength']}.",
        ("rule_trace_attempt_and_base_trace_strength",),
    )
    return None


def _spend_options(side: str, credits: int) -> list[dict]:
    what = "trace strength" if side == "corp" else "link strength"
    return [
        dec(f"spend:{n}", f"The {side.capitalize()} spends {n} credit(s) to raise {what}", side)
        for n in range(credits + 1)
    ]


def _trace_spend(side: str) -> Handler:
    key = f"{side}_spent"
    rule = "rule_trace_strength" if side == "corp" else "rule_link_strength"

    def h(ctx: Ctx, f: Frame, d: Decision | None) -> Any:
        have = ctx.spendable(side)  # the Runner may spend bad publicity credits in a run (10.6.2)
        if d is None and have > 0:
            return wait(_spend_options(side, have))
        n = d.amount if d is not None else 0
        ch: dict = {}
        extra = ctx.pay(side, n, ch) if n else []
        f.v[key] = n
        v = f.v
        if side == "corp":
            txt = f"The Corp spends {n} credit(s): trace strength {v['strength'] + n}."
        else:
            txt = f"The Runner spends {n} credit(s): link strength {rig.link(ctx.board)[0] + n}."
        ctx.ev(txt, (rule, *extra), ch, objects={"player": side, "spent": n})
        return None

    return h


handles("step_trace_corp_spend_credits")(_trace_spend("corp"))
handles("step_trace_runner_spend_credits")(_trace_spend("runner"))


@handles("step_trace_determine_success")
def _trace_result(ctx: Ctx, f: Frame, d: Decision | None) -> Any:
    v = f.v
    trace = v["strength"] + v["corp_spent"]
    base, cards = rig.link(ctx.board)
    link = base + v["runner_spent"]
    ok = trace > link
    v["ret"] = v["success"] = ok
    word = "successful" if ok else "unsuccessful"
    ctx.ev(
        f"Trace strength {trace} against link strength {link}: the trace is {word}.",
        (
            "rule_compare_trace_and_link_strength",
            "rule_trace_conditional_abilities",
            *(("rule_link_value",) if cards else ()),
        ),
        {"trace.success": [None, ok]},
    )
    effects = v["on_success"] if ok else v["on_failure"]
    if effects:
        return call(
            "conditional_ability",
            {
                "instructions": effects,
                "i": 0,
                "controller": "corp",
                "source": "the trace",
                "why": f"if {word}",
            },
        )
    return None


handles("step_trace_complete")(complete("The trace is complete."))
