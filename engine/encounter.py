"""The Encounter Ice Phase (6.9.3): breaking subroutines with icebreakers or the ice's break
cost, then resolving the unbroken ones (9.8)."""

from __future__ import annotations

from typing import Any

from . import rig, triggers
from .decision import Decision, card_refs
from .effects import describe_effect
from .machine import (
    Ctx,
    Frame,
    call,
    dec,
    goto,
    handles,
    loop_back,
)
from .run import ice_at
from .windows import (
    corp_abilities,
    corp_used,
    exchange,
    program_abilities,
    rig_text_abilities,
    runner_paid_abilities,
    text_kind,
    use_ability,
    use_corp_ability,
)


@handles("step_encounter_begins")
def _encounter(ctx: Ctx, f: Frame, d: Decision | None) -> Any:
    ice = ice_at(ctx, f.v)
    if not triggers.again(ctx, f, "encountered"):
        n = len(ice["subroutines"])
        f.v["enc"] = {"broken": [False] * n, "next": 0, "fully": False}
        if ice.get("strength_mods"):
            now = rig.ice_strength(ctx.board, f.v["server"], ice)
            printed = ice.get("strength", 0)
            ctx.ev(
                f"The Runner encounters {ice['name']} ({n} subroutine(s), all unbroken); its "
                f"strength is {now} (printed {printed}, changed by its own constant abilities).",
                ("rule_encounter_ice_phase", "rule_encounter_unbroken_sub_status", "rule_ice_strength_value"),
                objects={"server": f.v["server"], "ice": f.v["pos"], "strength": now, "printed": printed},
            )
        else:
            ctx.ev(
                f"The Runner encounters {ice['name']} ({n} subroutine(s), all unbroken).",
                ("rule_encounter_ice_phase", "rule_encounter_unbroken_sub_status"),
                objects={"server": f.v["server"], "ice": f.v["pos"]},
            )
    return triggers.fire(ctx, f, d, "encountered", ice)


RIG_KINDS = ("break", "strength", "text")  # the program abilities usable in an encounter


def _rig_options(ctx: Ctx, ice: dict, enc: dict) -> list[dict]:
    """`use:CARD.N` decisions: every usable break / strength / text ability on an installed program.

    Each window of the encounter asks again after every ability used; only the programs whose
    inputs changed are looked at again (`program_abilities`' memo, kept in the encounter). The
    memo's key: the program's position and strength (by program), whether every subroutine is
    broken and the threat level (`sig`); credits are left out of it while the Runner can pay
    for every ability on the rig (else nothing is memoised). The programs only leave during an
    encounter (installing is an action): when their references change, the memo starts again."""
    b = ctx.board
    have = ctx.spendable("runner")
    broken = enc["broken"]
    run_v, turn_v = ctx.run_frame().v, ctx.s.frames[0].v
    threat = rig.threat_level(b)
    all_broken = all(broken)
    blocked = rig.blocked
    server = run_v["server"]
    ice_str = rig.ice_strength(b, server, ice)
    limited = "break_limit" in ice  # how many more it lets each program break (rig.break_allowance)

    def keep(prog: dict, ab: dict, use_id: str) -> bool:
        if ab["kind"] == "text" and text_kind(ab) != "paid":  # no actions, interrupts, mid-access (9.2.7b)
            return False
        used = "once_per" in ab and rig.used_up(ab, use_id, run_v, turn_v)
        allow = rig.break_allowance(b, server, ice, enc, prog) if ab["kind"] == "break" and limited else None
        return blocked(prog, ab, ice, all_broken, have, used, threat, ice_str, allow) is None

    progs = b["runner"]["rig"]["programs"]
    refs = list(card_refs(progs))
    memo = enc.get("memo")
    if memo is None or memo["refs"] != refs:
        costs = [ab.get("cost", 0) for prog in progs for ab in prog.get("abilities", ())]
        memo = enc["memo"] = {"refs": refs, "cost": max(costs, default=0), "options": {}}
    rich = have >= memo["cost"]
    return program_abilities(
        b,
        RIG_KINDS,
        keep,
        enc.setdefault("labels", {}),
        memo["options"] if rich else None,
        f"{all_broken:d}.{threat}.{ice_str}.{enc.get('limited', 0)}",
    )


@handles("step_encounter_paw")
def _encounter_paw(ctx: Ctx, f: Frame, d: Decision | None) -> Any:
    v = f.v
    ice = ice_at(ctx, v)
    enc = v["enc"]
    if not ice["subroutines"]:
        if not enc["fully"]:
            enc["fully"] = True
            ctx.ev(
                f"{ice['name']} has no subroutines: it is fully broken when this window closes.",
                ("rule_fully_break_no_subroutines", "rule_fully_break"),
            )
        return None
    cost = ice.get("break_cost", 1)

    def options(side: str) -> list[dict]:
        if side != "runner":
            if "corp_abilities" not in ctx.s.kinds:
                return []
            return corp_abilities(ctx.board, corp_used(ctx.s.frames[0].v))
        opts = []
        allow = rig.break_allowance(ctx.board, v["server"], ice, enc, None)
        if rig.break_shortcut(ctx.board, ice) and ctx.spendable("runner") >= cost and allow != 0:
            broken = enc["broken"]
            opts = [
                dec(f"break:{i}", _break_label(ice, i, cost, enc), "runner")
                for i in range(len(ice["subroutines"]))
                if not broken[i]
            ]
        if not all(enc["broken"]):
            opts += _rig_options(ctx, ice, enc)
        rig_ = ctx.board["runner"]["rig"]
        if rig_["hardware"] or rig_["resources"]:
            opts += rig_text_abilities(ctx.board)
            if "runner_paid" in ctx.s.kinds:
                opts += runner_paid_abilities(ctx.board, corp_used(ctx.s.frames[0].v))
        return opts

    def label(side: str, closing: bool) -> str:
        if side == "runner":
            return "Stop breaking; unbroken subroutines will resolve"
        return "Pass priority; the paid ability window closes" if closing else "Pass priority"

    how, x = exchange(ctx, f, d, options, label)
    if how == "wait":
        return x
    if how == "closed":
        if x:
            ctx.ev("The Runner breaks no more subroutines; the window closes.", ("rule_encounter_break_paw",))
        else:
            why = "all subroutines are broken" if all(enc["broken"]) else "the Runner cannot break more"
            ctx.ev(f"Paid ability window: {why}; the window closes.", ("rule_encounter_break_paw",))
        return None
    if x.kind == "use":
        return use_ability(ctx.board, x, {"server": v["server"], "pos": v["pos"]})
    if x.kind == "ability":
        return use_corp_ability(ctx.board, x)
    i = x.index  # break:i (legality was checked against the listed decisions)
    return call(
        "paid_ability",
        {
            "kind": "break",
            "player": "runner",
            "action": x.id,
            "label": _break_label(ice, i, cost, enc),
            "server": v["server"],
            "pos": v["pos"],
        },
        "stay",
    )


def sub_texts(ice: dict, enc: dict) -> list[str]:
    """The words of each subroutine of the encountered ice, made once per encounter."""
    texts = enc.get("texts")
    if texts is None:
        texts = enc["texts"] = [" ".join(describe_effect(e) for e in sub) for sub in ice["subroutines"]]
    return texts


def _break_label(ice: dict, i: int, cost: int, enc: dict) -> str:
    return f"Break subroutine {i + 1} ({sub_texts(ice, enc)[i]}) for {cost} credit(s)"


@handles("step_resolve_subroutine")
def _resolve_sub(ctx: Ctx, f: Frame, d: Decision | None) -> Any:
    v = f.v
    ice = ice_at(ctx, v)
    enc = v["enc"]
    for i in range(enc["next"], len(ice["subroutines"])):
        if not enc["broken"][i]:
            enc["next"] = i + 1
            ctx.ev(
                f"The Corp resolves unbroken subroutine {i + 1} of {ice['name']}.",
                ("rule_encounter_sub_resolve",),
            )
            return call(
                "subroutine",
                {
                    "instructions": ice["subroutines"][i],
                    "i": 0,
                    "controller": "corp",
                    "source": f"subroutine {i + 1} of {ice['name']}",
                    # "this ice" and its subroutine (engine.effects.this_ice, event objects)
                    "ice": [v["server"], v["pos"], i],
                },
                "step_resolve_subroutine_loop",
            )
    enc["next"] = len(ice["subroutines"])
    rules = ["rule_encounter_sub_resolve"]
    if enc["fully"]:
        rules.append("rule_fully_break")
        text = f"{ice['name']} was fully broken: no subroutine resolves."
    else:
        text = "No unbroken subroutines remain to resolve."
    ctx.ev(text, rules)
    return goto("step_encounter_complete")


handles("step_resolve_subroutine_loop")(
    loop_back("Return to resolving the next unbroken subroutine.", "step_resolve_subroutine")
)


@handles("step_encounter_complete")
def _encounter_complete(ctx: Ctx, f: Frame, d: Decision | None) -> Any:
    ended = rig.clear_boosts(ctx.board)
    text = "The Encounter Ice Phase is complete."
    rules = ["rule_encounter_ice_next_phase"]
    if ended:
        text += " Strength added for the encounter ends."
        rules.append("rule_icebreaker_strength_increase_implicit")
    ctx.ev(text, rules)
    return None
