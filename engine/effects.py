"""The effect vocabulary (docs/board-format.md): describing and resolving instructions,
ending the run, winning, damage, and the effects with a choice (unless the Runner pays, the Corp
may pay, trash a program)."""

from __future__ import annotations

from typing import Any

from . import rig
from .board import EFFECTS
from .decision import Decision, card_ref, locate
from .events import Event  # noqa: F401
from .locations import clear_access_marks
from .machine import (
    RUN_ENDS,
    UNWOUND,
    Ctx,
    Frame,
    call,
    dec,
    max_hand,
    opponent,
    setv,
    wait,
)


def describe_effect(e: dict, controller: str = "corp") -> str:
    spec = EFFECTS.get(e.get("effect", ""), None)
    if spec is None:
        return str(e)
    fields = {k: e.get(k, 0) for k in (*spec["params"], *spec.get("optional", ()))}
    fields.update({k: e.get(k, "") for k in spec.get("strings", ())})
    if spec.get("zones"):
        fields["zones"] = " or ".join(e.get("zones", ()))
    text = spec["text"].format(**fields)
    text = text.replace("The opponent", "The Runner" if controller == "corp" else "The Corp")
    if "effects" in e:
        text += " " + " ".join(describe_effect(x, controller) for x in e["effects"])
    if e["effect"] == "trace":
        if e.get("on_success"):
            text += " If successful: " + " ".join(describe_effect(x) for x in e["on_success"])
        if e.get("on_failure"):
            text += " If unsuccessful: " + " ".join(describe_effect(x) for x in e["on_failure"])
    return text


def end_the_run(ctx: Ctx) -> Any:
    run = ctx.run_frame()
    if run is None:
        ctx.ev(
            "End the run: no run is in progress, so the instruction has no effect.",
            ("rule_end_the_run", "rule_end_run_no_run_or_encounter"),
        )
        return None
    frames = ctx.s.frames
    idx = frames.index(run)
    nested = [f.s for f in frames[idx + 1 :]]
    rules = ["rule_end_the_run"]
    if "breach" in nested or "access" in nested:
        rules.append("rule_end_run_access_or_breach_during_run")
    ctx.ev("The run ends: play moves to the Run Ends Phase.", rules, {"run.ended_by": [None, "end_the_run"]})
    del frames[idx + 1 :]
    clear_access_marks(ctx.board)
    rig.clear_boosts(ctx.board)
    run.v["ended_by"] = "end_the_run"
    present = [t for t in RUN_ENDS if t in ctx.s.next_of["run"]]
    run.at = present[0] if present else None
    return UNWOUND


def win(ctx: Ctx, winner: str | None, reason: str, rules: list[str]) -> Any:
    res = ctx.s.result
    res["winner"] = winner
    res["win_reason"] = reason
    who = "the game ends in a draw" if winner is None else f"the {winner.capitalize()} wins"
    ctx.ev(f"{reason}: {who}.", [*rules, "rule_game_end"], {"winner": [None, winner or "draw"]})
    run = ctx.run_frame()
    if run is not None:  # the game ended during a run: it never reaches the Run Ends Phase
        v = run.v
        res["runs"].append(
            {
                "server": v["server"],
                "result": "successful" if v.get("success") else "neither",
                "ended_by": "game_end",
            }
        )
    ctx.s.finished = True
    ctx.s.frames.clear()
    return UNWOUND


def damage(ctx: Ctx, kind: str, amount: int) -> Any:
    r = ctx.board["runner"]
    ch: dict = {}
    rules = ["rule_suffer_or_take_damage", "rule_core_damage" if kind == "core" else "rule_meat_net_damage"]
    if amount > 1:
        rules.append("rule_multiple_damage_taken_simultaneously")
    n = min(amount, len(r["hand"]))
    trashed = []
    before = len(r["hand"])
    for _ in range(n):
        card = r["hand"].pop(ctx.rand(len(r["hand"])))
        r["discard"].append(card)
        trashed.append(card["name"])
    if n:
        ch["runner.hand"] = [before, len(r["hand"])]
        ch["runner.discard"] = [len(r["discard"]) - n, len(r["discard"])]
    if kind == "core":
        setv(r, "runner", "core_damage", r["core_damage"] + amount, ch)
    text = f"The Runner suffers {amount} {kind} damage"
    text += f" and trashes {', '.join(trashed)} at random." if trashed else " with no cards in the grip."
    if kind == "core":
        text += f" Maximum hand size is now {max_hand(ctx.board, 'runner')}."
    ctx.ev(text, rules, ch)
    if amount > before:
        return win(
            ctx,
            "corp",
            "The Runner suffered more damage than cards in the grip and is flatlined",
            ["rule_flatline", "rule_flatline_damage_reference", "rule_win_conditions"],
        )
    return None


def _splice(f: Frame, effects: list[dict]) -> None:
    """Make `effects` the next instructions of the ability resolving in frame `f` (the inner
    effects of "unless the Runner pays" / "if the Runner is tagged" resolve as its instructions)."""
    v = f.v
    i = v["i"]
    v["instructions"] = [*v["instructions"][: i + 1], *effects, *v["instructions"][i + 1 :]]


def resolve_effect(
    ctx: Ctx, e: dict, controller: str, source: str, d: Decision | None = None, f: Frame | None = None
) -> Any:
    """Resolve one instruction. Effects that need a choice wait for it (the same handler gets
    the decision `d`); effects with inner effects splice them into frame `f`'s instructions."""
    name = e["effect"]
    b = ctx.board
    ch: dict = {}
    opp = opponent(controller)
    if name == "end_the_run":
        return end_the_run(ctx)
    if name == "trace":
        return call(
            "trace",
            {
                "strength": e["strength"],
                "on_success": e.get("on_success", []),
                "on_failure": e.get("on_failure", []),
            },
        )
    if name == "unless_pays":
        return _optional_cost(ctx, e, "unless", "runner", source, d, f)
    if name == "if_tagged":
        tags = b["runner"]["tags"]
        if tags:
            ctx.ev(
                f"{source}: the Runner is tagged ({tags} tag(s)), so the conditional instructions resolve.",
                ("rule_tagged",),
                objects={"tags": tags},
            )
            _splice(f, e["effects"])
        else:
            ctx.ev(
                f"{source}: the Runner is not tagged, so nothing happens.",
                ("rule_tagged",),
                applied=False,
                objects={"tags": 0},
            )
        return None
    if name == "trash_program":
        return _trash_program(ctx, e, source, d, f)
    if name == "may_pay":
        return _optional_cost(ctx, e, "may", controller, source, d, f)
    if name == "if_accessed_from":
        where = f.v.get("accessed_from") if f is not None else None
        zones = e["zones"]
        if where in zones:
            ctx.ev(
                f"{source} was accessed from {where}: the conditional instructions resolve.",
                ("rule_conditional_ability",),
                objects={"accessed_from": where},
            )
            _splice(f, e["effects"])
        else:
            ctx.ev(
                f"{source} was not accessed from {' or '.join(zones)} ({where or 'no access'}): nothing happens.",
                ("rule_conditional_ability",),
                applied=False,
                objects={"accessed_from": where},
            )
        return None
    if name == "text":
        if d is None:
            return wait([dec("resolved", f"Resolved as written (by hand): {e['text']}", controller)])
        ctx.ev(
            f"{source}: resolved as written by the judge, outside the engine: {e['text']}",
            (),
            applied=False,
            objects={"text": e["text"]},
        )
        return None
    if name.endswith("_damage"):
        kind = name[: -len("_damage")]
        pv = f.v.get("prevented") if f is not None else None
        gone = pv[1] if pv is not None and pv[0] == f.v.get("i") else 0
        if gone >= e["amount"]:
            ctx.ev(
                f"{source}: all {e['amount']} {kind} damage was prevented; the Runner suffers none.",
                ("rule_prevent_all", "sec_prevent_avoid"),
                applied=False,
                objects={"amount": 0, "prevented": gone},
            )
            return None
        return damage(ctx, kind, e["amount"] - gone)
    amt = e["amount"]
    if name == "gain_credits":
        setv(b[controller], controller, "credits", b[controller]["credits"] + amt, ch)
        ctx.ev(f"{source}: the {controller.capitalize()} gains {amt} credit(s).", (), ch)
    elif name == "lose_credits":
        setv(b[opp], opp, "credits", max(0, b[opp]["credits"] - amt), ch)
        ctx.ev(f"{source}: the {opp.capitalize()} loses {amt} credit(s) (as many as they have).", (), ch)
    elif name == "lose_clicks":
        setv(b[opp], opp, "clicks", max(0, b[opp]["clicks"] - amt), ch)
        ctx.ev(
            f"{source}: the {opp.capitalize()} loses {amt} [click] (as many as they have).",
            ("rule_gain_spend_lose_clicks",),
            ch,
        )
    elif name == "give_tags":
        setv(b["runner"], "runner", "tags", b["runner"]["tags"] + amt, ch)
        ctx.ev(f"{source}: the Runner takes {amt} tag(s).", ("rule_tag",), ch)
    return None


# "... unless the Runner pays N" resolves the inner instructions when the cost is not paid; "the
# Corp may pay N. If they do, ..." resolves them when it is. Texts per (mode, what happened).
_COST_TEXTS = {
    ("unless", "ask"): ("Pay {amt} credit(s) (prevents: {inner})", "Do not pay: {inner}"),
    (
        "unless",
        "cannot",
    ): "{source}: the Runner cannot pay {amt} credit(s), so the instructions resolve: {inner}",
    ("unless", "pay"): "{source}: the Runner pays {amt} credit(s); the instructions do not resolve.",
    (
        "unless",
        "dont_pay",
    ): "{source}: the Runner does not pay {amt} credit(s), so the instructions resolve: {inner}",
    ("may", "ask"): ("The {who} pays {amt} credit(s): {inner}", "The {who} does not pay"),
    ("may", "cannot"): "{source}: the {who} cannot pay {amt} credit(s); nothing happens.",
    ("may", "pay"): "{source}: the {who} pays {amt} credit(s): {inner}",
    ("may", "dont_pay"): "{source}: the {who} does not pay; nothing happens.",
}


def _optional_cost(
    ctx: Ctx, e: dict, mode: str, payer: str, source: str, d: Decision | None, f: Frame | None
) -> Any:
    """An optional credit cost with a choice (1.16.4): `mode` "unless" (the Runner may pay to
    stop the instructions) or "may" (the controller may pay to make them resolve)."""
    amt = e["amount"]
    fields = {
        "amt": amt,
        "who": payer.capitalize(),
        "source": source,
        "inner": " ".join(describe_effect(x, "corp" if mode == "unless" else payer) for x in e["effects"]),
    }
    if d is None and ctx.spendable(payer) >= amt:
        pay, dont = _COST_TEXTS[(mode, "ask")]
        return wait([dec("pay", pay.format(**fields), payer), dec("dont_pay", dont.format(**fields), payer)])
    what = "cannot" if d is None else d.kind
    paid = what == "pay"
    ch: dict = {}
    rules = ["rule_cost", *(ctx.pay(payer, amt, ch) if paid else ())]
    resolves = paid == (mode == "may")
    ctx.ev(
        _COST_TEXTS[(mode, what)].format(**fields),
        rules,
        ch,
        applied=resolves or mode == "unless",
        objects={"amount": amt, "paid": paid},
    )
    if resolves:
        _splice(f, e["effects"])
    return None


def _trash_program(ctx: Ctx, e: dict, source: str, d: Decision | None, f: Frame | None) -> Any:
    r = ctx.board["runner"]
    progs = r["rig"]["programs"]
    n = e.get("amount", 1)
    if not progs or not n:
        ctx.ev(f"{source}: the Runner has no installed program to trash.", ("rule_trashing",), applied=False)
        return None
    if d is None and len(progs) > n:
        return wait(
            [
                dec(f"trash:{card_ref(progs, i)}", f"Trash {c['name']} (installed program)", "corp")
                for i, c in enumerate(progs)
            ]
        )
    picks = [locate(progs, d)] if d is not None else list(range(len(progs)))
    ch: dict = {}
    names = []
    before = len(progs)
    for i in sorted(picks, reverse=True):
        card = progs.pop(i)
        card.pop("boost", None)
        r["discard"].append(card)
        names.append(card["name"])
    ch["runner.rig.programs"] = [before, len(progs)]
    ch["runner.discard"] = [len(r["discard"]) - len(names), len(r["discard"])]
    ctx.s.result["trashed_programs"].extend(reversed(names))
    ctx.ev(
        f"{source}: the Corp trashes {', '.join(reversed(names))} (installed program).",
        ("rule_trashing",),
        ch,
        objects={"programs": sorted(picks), "cards": list(reversed(names))},
    )
    if d is not None and n > 1 and progs:
        _splice(f, [{"effect": "trash_program", "amount": n - 1}])
    return None
