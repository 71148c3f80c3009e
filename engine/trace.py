"""Traces (10.8.6): base strength, both players spend credits, the result resolves as a
conditional ability.

The base trace strength is a value (9.9.6d) that cards change in a trace's windows:

* while the trace instruction is imminent, its interrupt window (9.9.4, 9.9.3b) offers `trace`
  abilities (paid ability interrupts, 9.9.4d) to the player with priority: a Corp card's
  `{"kind": "trace", "cost", "trash", "amount": N}` raises it by N, a Runner card's
  `{"kind": "trace", "set": 0, "trash": true}` (Disrupter) makes it 0 (`interrupt:...` ids);
* the constant `trace_bonus` of an active Corp card (`{"amount": N, "only": ...}`, Rutherford
  Grid, Improved Tracers) raises every trace it covers as the trace initiates (10.8.6a);
* "when a trace is initiated" conditional abilities (`triggers` `trace_initiated`) become
  pending at 10.8.6a and resolve in the reaction window that follows (engine.triggers).

The CR's trace steps have no paid ability window of their own (10.8.6c-d are spending steps),
so no other window offers these abilities. Interrupts apply in the order used (`set` replaces
the value, the ruling on Disrupter: the trace re-initiates at 0); constant bonuses apply to the
resulting value.
"""

from __future__ import annotations

from typing import Any

from . import prevention, rig, triggers
from .decision import Decision, card_ref, locate
from .effects import _subroutine_of
from .locations import corp_ability_cards
from .machine import (
    STAY,
    Ctx,
    Frame,
    Handler,
    call,
    complete,
    dec,
    handles,
    wait,
)
from .windows import exchange

RIG = ("programs", "hardware", "resources")


def bonuses(ctx: Ctx) -> list[tuple[str, int]]:
    """(card name, amount) of every active Corp card's `trace_bonus` covering the trace about to
    initiate: installed rezzed cards (`only: run_on_server`: during a run on their server) and
    agendas in the Corp's score area (`only: subroutine`: a trace an ice subroutine initiates)."""
    b = ctx.board
    out: list[tuple[str, int]] = []
    run = None
    for name, srv in b["servers"].items():
        content = srv.get("content")
        for c in [*srv["ice"], *srv["root"], *([content] if content else [])]:
            tb = c.get("trace_bonus")
            if tb is None or not c.get("rezzed"):
                continue
            if tb.get("only") == "run_on_server":
                run = run or ctx.run_frame() or Frame("", None, {})
                if run.v.get("server") != name:
                    continue
            if tb.get("only") == "subroutine" and _subroutine_of(ctx) is None:
                continue
            out.append((c["name"], tb["amount"]))
    for c in b["corp"]["score_area"]:
        tb = c.get("trace_bonus")
        if tb is not None and tb.get("only") != "run_on_server":
            if tb.get("only") == "subroutine" and _subroutine_of(ctx) is None:
                continue
            out.append((c["name"], tb["amount"]))
    return out


def base_strength(printed: int, mods: list[dict], bonus: list[tuple[str, int]]) -> int:
    """The base trace strength: the printed value, the interrupts used in order, then the
    constant bonuses."""
    base = printed
    for m in mods:
        base = m["set"] if "set" in m else base + m["amount"]
    return max(0, base + sum(n for _, n in bonus))


def _describe(ab: dict) -> str:
    cost = [f"{ab['cost']}[credit]"] if ab["cost"] else []
    if ab["trash"]:
        cost.append("[trash]")
    what = (
        f"the base trace strength becomes {ab['set']}"
        if "set" in ab
        else f"+{ab['amount']} base trace strength"
    )
    return f"[interrupt] {', '.join(cost) or 'no cost'}: {what}"


def _abilities(b: dict, side: str) -> list[tuple[str, dict, dict]]:
    """(decision id, card, ability) of the active cards' `trace` abilities of `side`."""
    out = []
    if side == "runner":
        rig_ = b["runner"]["rig"]
        for zone in RIG:
            cards = rig_[zone]
            for i, c in enumerate(cards):
                for a, ab in enumerate(c.get("abilities", ())):
                    if ab["kind"] == "trace":
                        out.append((f"interrupt:{zone}.{card_ref(cards, i)}.{a}", c, ab))
        return out
    for where, c in corp_ability_cards(b):
        for a, ab in enumerate(c["abilities"]):
            if ab["kind"] == "trace":
                out.append((f"interrupt:{where}.{a}", c, ab))
    return out


def window(ctx: Ctx, f: Frame, d: Decision | None, e: dict) -> Any:
    """The interrupt window of an imminent trace instruction (9.9.4): trace abilities relevant to
    it (9.9.3b: they could change its base strength) are offered to the player with priority,
    which passes as in a paid ability window (9.2.9c). What they do is kept for the trace
    (`trace_mods` in the resolving frame) and applied as it initiates."""
    v = f.v
    tm = v.get("trace_mods")
    if tm is None or tm[0] != v["i"]:
        tm = v["trace_mods"] = [v["i"], []]
    b = ctx.board
    bonus = bonuses(ctx)

    def options(side: str) -> list[dict]:
        now = base_strength(e["strength"], tm[1], bonus)
        have = None
        out = []
        for id_, c, ab in _abilities(b, side):
            if "set" in ab and base_strength(e["strength"], [*tm[1], ab], bonus) == now:
                continue  # would not change the value: not relevant (9.9.3b)
            if ab["cost"]:
                have = ctx.spendable(side) if have is None else have
                if ab["cost"] > have:
                    continue
            out.append(dec(id_, f"{c['name']}: {_describe(ab)} (base trace strength now {now})", side))
        return out

    def label(side: str, closing: bool) -> str:
        return "Pass; the interrupt window closes" if closing else "Pass priority"

    how, x = exchange(ctx, f, d, options, label)
    if how == "wait":
        return x
    if how == "act":
        side = "runner" if x.server is None else "corp"
        card = prevention.card_of(b, x)
        ab = card["abilities"][x.index]
        old = base_strength(e["strength"], tm[1], bonus)
        ch: dict = {}
        rules = [
            "rule_trigger_paid_ability_interrupt",
            "rule_modify_value_relevant",
            "rule_modifiable_value_base_trace_strength",
        ]
        if ab["cost"]:
            rules += ["rule_cost", *ctx.pay(side, ab["cost"], ch)]
        if ab["trash"]:
            if side == "runner":
                prevention.trash_from_rig(b, x.zone, locate(b["runner"]["rig"][x.zone], x), ch)
                rules.append("rule_trashing")
            else:
                rules += prevention.trash_corp_card(b, x, ch)
        mod = {"card": card["name"], "player": side}
        mod.update({"set": ab["set"]} if "set" in ab else {"amount": ab["amount"]})
        tm[1].append(mod)
        new = base_strength(e["strength"], tm[1], bonus)
        ctx.ev(
            f"{card['name']}: the base trace strength of the imminent trace goes from {old} to {new}.",
            rules,
            ch,
            objects={"card": card["name"], "player": side, "ability": x.index, "was": old, "base": new},
        )
        return STAY
    if tm[1] or x:
        ctx.ev(
            f"The interrupt window closes: base trace strength {base_strength(e['strength'], tm[1], bonus)}.",
            ("rule_interrupt_window", "rule_interrupt_window_priority"),
            applied=bool(tm[1]),
            objects={"cards": [m["card"] for m in tm[1]]},
        )
    else:
        prevention.no_interrupt(ctx)
    return None


@handles("step_trace_initiated")
def _trace_init(ctx: Ctx, f: Frame, d: Decision | None) -> Any:
    v = f.v
    if not triggers.again(ctx, f, "trace_initiated"):
        v.setdefault("corp_spent", 0)
        v.setdefault("runner_spent", 0)
        printed = v.setdefault("printed", v["strength"])
        mods = v.get("mods", [])
        bonus = bonuses(ctx)
        v["strength"] = base = base_strength(printed, mods, bonus)
        how = [
            f"{m['card']} made it {m['set']}" if "set" in m else f"+{m['amount']} {m['card']}" for m in mods
        ]
        how += [f"+{n} {name}" for name, n in bonus]
        rules = ["rule_trace_attempt_and_base_trace_strength"]
        if how:
            rules.append("rule_modifiable_value_base_trace_strength")
        ctx.ev(
            f"Trace {printed} is initiated: base trace strength {base}"
            + (f" ({printed} printed, {', '.join(how)})." if how else "."),
            tuple(rules),
            {"trace.base_strength": [printed, base]} if base != printed else None,
            objects={
                "printed": printed,
                "base": base,
                **({"cards": [m["card"] for m in mods] + [n for n, _ in bonus]} if how else {}),
            },
        )
    return triggers.fire(ctx, f, d, "trace_initiated")


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
