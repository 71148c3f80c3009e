"""A run (6.9): initiation, approach, movement, success and run-ends phases. The Encounter
Ice Phase is in engine.encounter."""

from __future__ import annotations

from typing import Any

from . import rig, triggers
from .decision import Decision, card_ref
from .machine import (
    END,
    RUN_ENDS,
    Ctx,
    Frame,
    Handler,
    call,
    dec,
    goto,
    handles,
    setv,
    wait,
)
from .windows import paw

HANDLERS: dict[str, Handler] = {}


def ice_at(ctx: Ctx, v: dict) -> dict | None:
    pos = v.get("pos")
    if pos is None or v.get("vacated"):
        return None
    srv = ctx.board["servers"].get(v["server"])
    if srv is None:
        return None
    ice = srv["ice"]
    return ice[pos] if pos < len(ice) else None


@handles("step_initiation_announce")
def _announce(ctx: Ctx, f: Frame, d: Decision | None) -> Any:
    v = f.v
    v.update(pos=None, moved=False, success=False, ended_by=None, enc=None)
    alone = ctx.s.frames[0] is f
    ctx.ev(
        (
            "A stand-alone run: the run is already initiated, and what initiated it (the run "
            "action's [click], 5.2.7f, or a card's ability) is not part of this session. "
            if alone
            else ""
        )
        + f"The Runner announces a run on {v['server']}.",
        ("rule_announce_attacked_server", "rule_attacked_server")
        + (("runner_basic_action_run",) if alone else ()),
        {"run.server": [None, v["server"]]},
        objects={"standalone": True} if alone else None,
    )
    return None


@handles("step_initiation_bad_publicity")
def _run_bp(ctx: Ctx, f: Frame, d: Decision | None) -> Any:
    bp = ctx.board["corp"]["bad_publicity"]
    r = ctx.board["runner"]
    ch: dict = {}
    rules = ["rule_bad_publicity", "rule_bad_publicity_beginning_run", "rule_bad_publicity_fund"]
    if bp:
        setv(r, "runner", "bad_publicity_fund", r["bad_publicity_fund"] + bp, ch)
        ctx.ev(
            f"The Corp has {bp} bad publicity: {bp} credit(s) go to the Runner's bad publicity fund for this run.",
            rules,
            ch,
        )
    else:
        ctx.ev("The Corp has no bad publicity: no bad publicity credits this run.", rules, applied=False)
    return None


@handles("step_initiation_formal_begin")
def _run_begins(ctx: Ctx, f: Frame, d: Decision | None) -> Any:
    if not triggers.again(ctx, f, "run_begins"):
        ctx.ev("The run formally begins.", ("rule_run",))
    # 6.9.1c: conditions related to the run beginning are met ("whenever a run begins")
    return triggers.fire(ctx, f, d, "run_begins")


def _set_position(ctx: Ctx, f: Frame) -> str:
    v = f.v
    ice = ctx.board["servers"][v["server"]]["ice"]
    v["pos"] = 0 if ice else None
    v["pos_set"] = True
    if ice:
        return f"The Runner's position is set at the outermost ice, {ice[0]['name']} (1 of {len(ice)})."
    return "The server has no ice: the Runner has no position at a piece of ice."


@handles("step_runner_position")
def _position(ctx: Ctx, f: Frame, d: Decision | None) -> Any:
    ctx.ev(_set_position(ctx, f), ("rule_position",))
    return None


@handles("step_initiation_paw", "step_after_jack_out_paw")
def paw_rez_nonice(ctx: Ctx, f: Frame, d: Decision | None) -> Any:
    return paw(ctx, f, d)


@handles("step_initiation_complete")
def _init_complete(ctx: Ctx, f: Frame, d: Decision | None) -> Any:
    v = f.v
    text = "" if v.get("pos_set") else _set_position(ctx, f) + " "
    if ice_at(ctx, v) is not None:
        ctx.ev(text + "The Initiation Phase is complete: on to the Approach Ice Phase.", ("rule_position",))
        return None
    ctx.ev(
        text + "The Initiation Phase is complete: no ice, on to the Movement Phase.",
        ("rule_position", "rule_jack_out_before_approach"),
    )
    return goto("step_pass_ice")


@handles("step_approach_begins")
def _approach(ctx: Ctx, f: Frame, d: Decision | None) -> Any:
    v = f.v
    ice = ice_at(ctx, v)
    n = len(ctx.board["servers"][v["server"]]["ice"])
    state = "rezzed" if ice["rezzed"] else "unrezzed"
    ctx.ev(
        f"The Runner approaches {ice['name']} ({state}; ice {v['pos'] + 1} of {n}, outermost first).",
        ("rule_approach_ice_phase",),
    )
    return None


@handles("step_approach_paw")
def _approach_paw(ctx: Ctx, f: Frame, d: Decision | None) -> Any:
    return paw(ctx, f, d, ice=ice_at(ctx, f.v))


@handles("step_approach_complete")
def _approach_complete(ctx: Ctx, f: Frame, d: Decision | None) -> Any:
    ice = ice_at(ctx, f.v)
    if ice["rezzed"]:
        ctx.ev(f"{ice['name']} is rezzed: on to the Encounter Ice Phase.", ("rule_approach_ice_phase",))
        return None
    ctx.ev(
        f"{ice['name']} is unrezzed: it is not encountered; on to the Movement Phase.",
        ("rule_approach_ice_phase",),
    )
    return goto("step_pass_ice")


@handles("step_pass_ice")
def _passice_at(ctx: Ctx, f: Frame, d: Decision | None) -> Any:
    v = f.v
    if v.get("vacated"):  # the encountered ice was trashed (8.5.10)
        ctx.ev(
            "The Runner passes the position the trashed ice occupied.",
            ("rule_uninstall_ice_during_run", "rule_movement_phase"),
            objects={"server": v["server"], "ice": v["pos"]},
        )
        return None
    ice = ice_at(ctx, v)
    if ice is None:
        ctx.ev("The Runner's position is not at a piece of ice: nothing is passed.", ("rule_movement_phase",))
        return None
    if not triggers.again(ctx, f, "passed"):
        n = len(ctx.board["servers"][v["server"]]["ice"])
        text = f"The Runner passes {ice['name']}."
        if v["pos"] == n - 1:
            text += " It was the innermost ice: the Runner has passed all ice protecting the server."
        ctx.ev(text, ("rule_movement_phase",), objects={"server": v["server"], "ice": v["pos"]})
    return triggers.fire(ctx, f, d, "passed", ice)


@handles("step_before_jack_out_paw")
def _paw_p_only(ctx: Ctx, f: Frame, d: Decision | None) -> Any:
    return paw(ctx, f, d, rez=False)


@handles("step_jack_out_choice")
def _jack_out(ctx: Ctx, f: Frame, d: Decision | None) -> Any:
    if d is None:
        return wait(
            [
                dec("continue", "Continue the run", "runner"),
                dec("jack_out", "Jack out (end the run)", "runner"),
            ]
        )
    if d.kind == "continue":
        ctx.ev("The Runner does not jack out.", ("rule_jacking_out",))
        return None
    f.v["ended_by"] = "jack_out"
    ctx.ev(
        "The Runner jacks out: play moves to the Run Ends Phase.",
        ("rule_jacking_out", "rule_jack_out_after_passing_ice"),
        {"run.ended_by": [None, "jack_out"]},
    )
    return goto(*RUN_ENDS)


@handles("step_move_position")
def _move(ctx: Ctx, f: Frame, d: Decision | None) -> Any:
    v = f.v
    n = len(ctx.board["servers"][v["server"]]["ice"])
    step = 0 if v.pop("vacated", False) else 1  # the next inward ice took the trashed one's index
    if v["pos"] is not None and v["pos"] + step < n:
        v["pos"] += step
        v["moved"] = True
        ice = ctx.board["servers"][v["server"]]["ice"][v["pos"]]
        ctx.ev(
            f"The Runner moves inward to {ice['name']} (ice {v['pos'] + 1} of {n}).",
            ("rule_position",),
            {"run.position": [v["pos"] - 1, v["pos"]]},
        )
    else:
        v["moved"] = False
        old = v["pos"]
        v["pos"] = None
        ctx.ev(
            "There is no position further inward: the Runner moves on toward the server.",
            ("rule_position",),
            {"run.position": [old, None]} if old is not None else {},
        )
    return None


@handles("step_approach_new_ice")
def _approach_new(ctx: Ctx, f: Frame, d: Decision | None) -> Any:
    if f.v["moved"]:
        ctx.ev(
            "The Runner moved to a new position: return to the Approach Ice Phase.", ("rule_movement_phase",)
        )
        f.v["moved"] = False
        return goto("step_approach_begins")
    ctx.ev(
        "The Runner did not move to a new position: continue to approach the server.",
        ("rule_movement_phase",),
    )
    return None


@handles("step_approach_server")
def _approach_server(ctx: Ctx, f: Frame, d: Decision | None) -> Any:
    ctx.ev(f"The Runner approaches {f.v['server']}.", ("rule_movement_phase",))
    return None


@handles("step_movement_complete")
def _movement_complete(ctx: Ctx, f: Frame, d: Decision | None) -> Any:
    ctx.ev("The Movement Phase is complete: on to the Success Phase.", ("rule_movement_phase",))
    return None


@handles("step_run_declared_successful")
def _success(ctx: Ctx, f: Frame, d: Decision | None) -> Any:
    if not f.v.get("success"):
        f.v["success"] = True
        ctx.ev(
            "The run is declared successful.",
            ("rule_success_phase", "rule_successful_run"),
            {"run.successful": [False, True]},
        )
    return triggers.fire(ctx, f, d, "successful_run", extra=if_successful(f.v))


def if_successful(v: dict) -> list[dict]:
    """The run event's "If successful" ability (6.7.4: "after the run created this way becomes
    successful"), pending with the other abilities that meet that condition (the Runner orders
    them, 9.2.8d). Its key names the event in the play area, where it is while the run lasts."""
    effects = v.get("if_successful")
    if not effects:
        return []
    key = f"play_area.{card_ref([{'name': v['event']}], 0)}.0"
    return [{"side": "runner", "source": v["event"], "effects": effects, "key": key}]


@handles("step_breach")
def _breach(ctx: Ctx, f: Frame, d: Decision | None) -> Any:
    srv = f.v["server"]
    if srv not in ctx.board["servers"]:
        ctx.ev(f"{srv} no longer exists: there is nothing to breach.")
        return None
    if f.v.get("instead_of_breach"):
        ctx.ev(
            f'{f.v["event"]}\'s "If successful" ability replaced breaching {srv}: the Runner does not breach it.',
            ("rule_if_successful_lingering_effect", "rule_breaching_servers"),
            applied=False,
            objects={"server": srv, "card": f.v["event"]},
        )
        return None
    ctx.ev(f"The Runner breaches {srv}.", ("rule_breaching_servers",), objects={"server": srv})
    return call("breach", {"server": srv, "additional_access": f.v.get("additional_access", 0)})


@handles("step_success_complete")
def _success_complete(ctx: Ctx, f: Frame, d: Decision | None) -> Any:
    ctx.ev("The Success Phase is complete.", ("rule_success_phase",))
    return None


@handles("step_open_priority_windows_closed")
def _windows_closed(ctx: Ctx, f: Frame, d: Decision | None) -> Any:
    rules = ["rule_run_ends_phase", "rule_run_ends_process_priority_windows"]
    if f.v["ended_by"] == "end_the_run":
        rules.append("rule_run_ends_close_paws")
    ctx.ev("Any priority windows open when the run moved to this phase are closed.", rules)
    return None


@handles("step_run_ends_bad_publicity")
def _run_ends_bp(ctx: Ctx, f: Frame, d: Decision | None) -> Any:
    r = ctx.board["runner"]
    ch: dict = {}
    n = r["bad_publicity_fund"]
    setv(r, "runner", "bad_publicity_fund", 0, ch)
    rules = [
        "rule_run_ends_lose_bad_pub_credits",
        "rule_bad_publicity_gone_in_run_ends_phase",
        "rule_bad_publicity_fund",
        "rule_bad_publicity_beginning_run",
    ]
    ctx.ev(
        f"{n} unspent bad publicity credit(s) return to the bank."
        if n
        else "No bad publicity credits are left.",
        rules,
        ch,
    )
    return None


@handles("step_run_declared_unsuccessful")
def _unsuccessful(ctx: Ctx, f: Frame, d: Decision | None) -> Any:
    v = f.v
    if v["success"]:
        v["result"] = "successful"
        ctx.ev(
            "The Success Phase was reached: the run is not unsuccessful.",
            ("rule_unsuccessful_run", "rule_not_unsuccessful_when_reached_success_phase"),
        )
    elif v["server"] not in ctx.board["servers"]:
        v["result"] = "neither"
        ctx.ev(
            "The attacked server no longer exists: the run is neither successful nor unsuccessful.",
            ("rule_unsuccessful_run", "rule_server_cease_to_exist_unsuccesful_exception"),
        )
    else:
        v["result"] = "unsuccessful"
        ctx.ev("The run becomes unsuccessful.", ("rule_unsuccessful_run",), {"run.successful": [None, False]})
    return None


@handles("step_run_complete")
def _run_complete(ctx: Ctx, f: Frame, d: Decision | None) -> Any:
    v = f.v
    if not triggers.again(ctx, f, "run_ends"):
        ctx.s.result["runs"].append(
            {"server": v["server"], "result": v.get("result", "neither"), "ended_by": v["ended_by"]}
        )
        text = f"The run on {v['server']} is complete ({v.get('result', 'neither')})."
        rules: tuple[str, ...] = ("rule_run_ends_phase",)
        if rig.clear_boosts(ctx.board, "run"):  # durations until the end of the run expire (6.9.6d)
            text += " Strength added for the remainder of the run ends."
            rules = (
                "rule_run_ends_phase",
                "rule_run_ends_condition",
                "rule_icebreaker_strength_increase_specified",
            )
        ctx.ev(text, rules)
    res = triggers.fire(ctx, f, d, "run_ends")  # "when the run ends" is met now (6.8.5)
    return END if res is None else res
