"""The effect vocabulary (docs/board-format.md): describing and resolving instructions,
ending the run, winning, damage, and the effects with a choice (unless the Runner pays, the Corp
may pay, trash a program)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from . import rig
from .board import EFFECTS, PER_WORDS
from .decision import Decision, card_ref, find_card, locate
from .events import Event
from .locations import card_at, clear_access_marks
from .machine import (
    RUN_ENDS,
    UNWOUND,
    Ctx,
    Frame,
    call,
    checkpoint,
    dec,
    max_hand,
    opponent,
    score,
    setv,
    wait,
)


def describe_effect(e: dict, controller: str = "corp") -> str:
    spec = EFFECTS.get(e.get("effect", ""), None)
    if spec is None:
        return str(e)
    fields = {k: e.get(k, 0) for k in [*spec["params"], *spec.get("optional", ())]}
    fields.update({k: e.get(k, "") for k in spec.get("strings", ())})
    fields.update({k: e.get(k, "") for k in spec.get("required", ())})
    if spec.get("zones"):
        fields["zones"] = " or ".join(e.get("zones", ()))
    fields.update(_described_fields(e))
    text = spec["text"].format(**fields)
    if controller == "runner" and e["effect"].endswith("_damage"):  # a Runner card: the Runner suffers it
        text = text.replace("Do ", "Suffer ", 1)
    if e.get("per") in PER_WORDS:
        text = f"{text.rstrip('.')} for each {PER_WORDS[e['per']]}."
    text = text.replace("The opponent", "The Runner" if controller == "corp" else "The Corp")
    if "effects" in e:
        text += " " + " ".join(describe_effect(x, controller) for x in e["effects"])
    if e["effect"] == "choose":
        text += " " + " / ".join(
            f"({k + 1}) " + " ".join(describe_effect(x, controller) for x in opt)
            for k, opt in enumerate(e["options"])
        )
    if e["effect"] == "run":
        if e.get("additional_access"):
            text += f" If successful, access {e['additional_access']} additional card(s) when you breach it."
        if e.get("if_successful"):
            text += (
                " If successful, instead of breaching: " if e.get("instead_of_breach") else " If successful: "
            ) + (" ".join(describe_effect(x, controller) for x in e["if_successful"]))
    if e["effect"] == "trace":
        if e.get("on_success"):
            text += " If successful: " + " ".join(describe_effect(x) for x in e["on_success"])
        if e.get("on_failure"):
            text += " If unsuccessful: " + " ".join(describe_effect(x) for x in e["on_failure"])
    return text


SERVER_WORDS = {"hq": "HQ", "rd": "R&D", "archives": "Archives", "any": "any server"}


def _described_fields(e: dict) -> dict:
    """Words of an effect's description that depend on its optional fields."""
    name = e["effect"]
    if name == "run":
        return {"server": SERVER_WORDS.get(e.get("server", ""), e.get("server", ""))}
    if name == "unless_pays":
        return {"cost": _cost_words(e["amount"], e.get("clicks", 0))}
    if name == "if_tagged":
        n = e.get("min_tags", 1)
        return {"min_tags_text": f" with at least {n} tags" if n > 1 else ""}
    if name == "draw_cards":
        return {"may": "You may d" if e.get("optional") else "D", "upto": "up to " if e.get("up_to") else ""}
    if name in ("derez", "expose"):
        return {"what": " or ".join(e.get("card_types", ())) or "Corp card"}
    if name == "install":
        return {
            "may": "You may i" if e.get("optional") else "I",
            "upto": "up to " if e.get("up_to") else "",
            "what": " or ".join(e.get("card_types", ())) + " card(s)" if e.get("card_types") else "card(s)",
            "where": " or ".join(SERVER_WORDS[z] for z in e.get("from", ("hq",))),
            "costs": ", ignoring all costs" if e.get("ignore_costs") else "",
        }
    if name == "load_counters":
        kind = e.get("counter", "")
        return {"counter_words": "credit(s)" if kind == "credits" else f"{kind} counter(s)"}
    if name in ("remove_counters", "take_credits"):
        return {"amount_text": str(e["amount"]) if e.get("amount") else "all"}
    if name == "trash_installed":
        what = " or ".join(e.get("card_types", ())) or "Runner card"
        if e.get("except_subtypes"):
            what += " that is not a " + " or ".join(e["except_subtypes"])
        if e.get("chooser") == "runner":
            what += " (the Runner chooses)"
        return {"what": what}
    return {}


def _cost_words(credits: int, clicks: int = 0) -> str:
    parts = [f"{credits} credit(s)"] if credits or not clicks else []
    if clicks:
        parts.append("[click]" * clicks)
    return " and ".join(parts)


def end_the_run(ctx: Ctx) -> Any:
    run = ctx.run_frame()
    if run is None:
        ctx.ev(
            "End the run: no run is in progress, so the instruction has no effect.",
            ("rule_end_the_run", "rule_end_run_no_run_or_encounter"),
        )
        return None
    nested = [f.s for f in ctx.s.frames[ctx.s.frames.index(run) + 1 :]]
    rules = ["rule_end_the_run"]
    if "breach" in nested or "access" in nested:
        rules.append("rule_end_run_access_or_breach_during_run")
    ctx.ev("The run ends: play moves to the Run Ends Phase.", rules, {"run.ended_by": [None, "end_the_run"]})
    return _to_run_ends(ctx, run, "end_the_run")


def _to_run_ends(ctx: Ctx, run: Frame, ended_by: str) -> Any:
    """Unwind everything nested in the run and move it to its Run Ends Phase."""
    frames = ctx.s.frames
    del frames[frames.index(run) + 1 :]
    clear_access_marks(ctx.board)
    rig.clear_boosts(ctx.board)
    run.v["ended_by"] = ended_by
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


Resolver = Callable[[Ctx, dict, str, str, "str | None", "Frame | None"], Any]
# effect name -> the function that resolves it: every name in engine.board.EFFECTS has one (a test
# checks it), so a board the validator accepts never holds an effect the engine does not run.
RESOLVERS: dict[str, Resolver] = {}


def resolves(*names: str) -> Callable[[Resolver], Resolver]:
    def deco(fn: Resolver) -> Resolver:
        for n in names:
            RESOLVERS[n] = fn
        return fn

    return deco


def resolve_effect(
    ctx: Ctx, e: dict, controller: str, source: str, d: Decision | None = None, f: Frame | None = None
) -> Any:
    """Resolve one instruction. Effects that need a choice wait for it (the same handler gets
    the decision `d`); effects with inner effects splice them into frame `f`'s instructions.
    The events it adds at this step name the ice subroutine resolving, if any (`server`, `ice`,
    `subroutine`), beside the objects they touched."""
    trace = ctx.s.trace
    n, step = len(trace), ctx.step
    if "per" in e:  # "for each": one instance of the aggregated amount, or none at all (9.12.2b)
        e = aggregated(ctx, e, controller, source)
    res = None if e is None else RESOLVERS[e["effect"]](ctx, e, controller, source, d, f)
    where = _subroutine_of(ctx)
    if where:
        for j in range(n, len(trace)):
            ev = trace[j]
            if ev.step == step:  # not a checkpoint's events
                # a copy: a plain event is a value shared by every session (machine.Ctx.ev)
                objects = dict(ev.objects)
                for k, v in where.items():
                    objects.setdefault(k, v)
                trace[j] = Event(ev.step, ev.rules, ev.text, ev.changes, ev.applied, objects)
    return res


def count_per(b: dict, per: str, controller: str) -> int:
    """What a "for each" amount counts on board `b` as the instruction resolves (PER_WORDS)."""
    if per == "runner_tag":
        return b["runner"]["tags"]
    if per == "card_in_hq":
        return len(b["corp"]["hand"])
    if per == "remaining_click":
        return b[controller]["clicks"]
    if per == "rezzed_harmonic_ice":
        return sum(
            1
            for srv in b["servers"].values()
            for ice in srv["ice"]
            if ice.get("rezzed") and "harmonic" in ice.get("subtypes", ())
        )
    raise AssertionError(per)  # pragma: no cover: the board validator knows PER


def _count(ctx: Ctx, per: str, controller: str) -> int:
    if per == "hosted_advancement":  # this card's (a trigger's or ability's own card, 1.13.1)
        here = this_card(ctx)
        if here is None:
            return 0
        # its advancement counters (as ice strength reads them), else an agenda-style `advancements`
        return here[0].get("counters", {}).get("advancement", here[0].get("advancements", 0))
    return count_per(ctx.board, per, controller)


def aggregated(ctx: Ctx, e: dict, controller: str, source: str) -> dict | None:
    """9.12.2b: an amount calculated "for each" something is counted when the instruction
    resolves and performed as a single instance of the aggregated value (Ritual with 3 [click]
    remaining draws 3 cards once); a value of 0 or less does not take place at all (None)."""
    n = _count(ctx, e["per"], controller)
    total = e["amount"] * n
    words = f"{e['amount']} for each {PER_WORDS[e['per']]} ({n})"
    if total <= 0:
        ctx.ev(
            f"{source}: {words} is 0: the instruction does not take place.",
            ("rule_calculated_quantity",),
            applied=False,
            objects={"per": e["per"], "count": n, "amount": 0},
        )
        return None
    ctx.ev(
        f"{source}: {words}: one instance of {total}.",
        ("rule_calculated_quantity",),
        objects={"per": e["per"], "count": n, "amount": total},
    )
    return {k: v for k, v in e.items() if k != "per"} | {"amount": total}


def _subroutine_of(ctx: Ctx) -> dict | None:
    """{"server", "ice", "subroutine"} of the ice subroutine resolving (the nearest frame that
    names it), or None outside one."""
    for fr in reversed(ctx.s.frames):
        loc = fr.v.get("ice")
        if loc is not None:
            return {"server": loc[0], "ice": loc[1], **({"subroutine": loc[2]} if len(loc) > 2 else {})}
    return None


# what a `prevent` ability is about (its `event`, default "damage") -> the rules its use cites
PREVENT_RULES = {
    "damage": ("sec_prevent_avoid", "rule_trigger_paid_ability_interrupt", "rule_modifiable_value_damage"),
    "tags": ("sec_prevent_avoid", "rule_trigger_paid_ability_interrupt", "rule_modifiable_value_tags"),
    "trash": ("sec_prevent_avoid", "rule_trigger_paid_ability_interrupt", "rule_cancelled_movement"),
    "expose": ("sec_prevent_avoid", "rule_trigger_paid_ability_interrupt", "rule_expose"),
}
NOUN = {"tags": "tag(s)", "trash": "card(s) trashed", "expose": "card(s) exposed"}


def amount_of(e: dict) -> int:
    """The amount of an instruction that `prevent` abilities lower (damage, tags, cards)."""
    return e.get("amount", 1)


def prevented(f: Frame | None) -> int:
    """The amount already prevented for the instruction imminent in frame `f`
    (`engine.prevention.window`)."""
    if f is None:
        return 0
    pv = f.v.get("prevented")
    return pv[1] if pv is not None and pv[0] == f.v.get("i") else 0


def after_prevention(ctx: Ctx, f: Frame | None, e: dict, source: str, ev: str) -> dict | None:
    """Instruction `e` as its interrupt window left it: `e` itself when none of it was prevented,
    a copy with the amount lowered, or None when all of it was (an event walked but not
    applied says so, 9.9.7b)."""
    gone = prevented(f)
    if not gone:
        return e
    left = amount_of(e) - gone
    if left > 0:
        return {**e, "amount": left}
    ctx.ev(
        f"{source}: all {amount_of(e)} {NOUN[ev]} prevented; nothing happens.",
        (PREVENT_RULES[ev][-1], "sec_prevent_avoid"),
        applied=False,
        objects={"amount": 0, "prevented": gone, "event": ev},
    )
    return None


@resolves("end_the_run")
def _end_the_run(ctx: Ctx, e: dict, controller: str, source: str, d: Decision | None, f: Frame | None) -> Any:
    return end_the_run(ctx)


@resolves("trace")
def _trace(ctx: Ctx, e: dict, controller: str, source: str, d: Decision | None, f: Frame | None) -> Any:
    mods = None
    if f is not None:  # trace interrupts used in its interrupt window (engine.trace.window)
        tm = f.v.get("trace_mods")
        mods = tm[1] if tm is not None and tm[0] == f.v.get("i") else None
    return call(
        "trace",
        {
            "strength": e["strength"],
            "on_success": e.get("on_success", []),
            "on_failure": e.get("on_failure", []),
            **({"mods": mods} if mods else {}),
        },
    )


@resolves("unless_pays")
def _unless_pays(ctx: Ctx, e: dict, controller: str, source: str, d: Decision | None, f: Frame | None) -> Any:
    return _optional_cost(ctx, e, "unless", "runner", source, d, f)


@resolves("must_pay")
def _must_pay(ctx: Ctx, e: dict, controller: str, source: str, d: Decision | None, f: Frame | None) -> Any:
    """ "They must pay N[credit], if able. If they do not, ..." (Tollbooth): no choice (1.2.3,
    "if able": carried out fully or not at all). A Runner who can pay the whole amount pays it;
    one who cannot pays nothing and the inner instructions resolve next."""
    amt = e["amount"]
    inner = " ".join(describe_effect(x) for x in e["effects"])
    if ctx.spendable("runner") >= amt:
        ch: dict = {}
        rules = ["rule_if_able", "rule_cost", *ctx.pay("runner", amt, ch)]
        ctx.ev(
            f"{source}: the Runner must pay {amt} credit(s) if able, and can: they pay {amt}.",
            rules,
            ch,
            objects={"amount": amt, "paid": True},
        )
        return None
    ctx.ev(
        f"{source}: the Runner must pay {amt} credit(s) if able and cannot "
        f"(they have {ctx.spendable('runner')}), so: {inner}",
        ("rule_if_able",),
        objects={"amount": amt, "paid": False},
    )
    _splice(f, e["effects"])
    return None


@resolves("may_pay")
def _may_pay(ctx: Ctx, e: dict, controller: str, source: str, d: Decision | None, f: Frame | None) -> Any:
    return _optional_cost(ctx, e, "may", controller, source, d, f)


def _condition(
    ctx: Ctx, f: Frame | None, e: dict, holds: bool, yes: str, no: str, rules: tuple, objects: dict
) -> None:
    """A conditional instruction ("if ..., do X"): the inner effects resolve only if it holds;
    otherwise the step is walked but not applied."""
    ctx.ev(yes if holds else no, rules, applied=holds, objects=objects)
    if holds:
        _splice(f, e["effects"])


@resolves("if_tagged")
def _if_tagged(ctx: Ctx, e: dict, controller: str, source: str, d: Decision | None, f: Frame | None) -> Any:
    tags = ctx.board["runner"]["tags"]
    need = e.get("min_tags", 1)
    want = "tagged" if need == 1 else f"at least {need} tags"
    _condition(
        ctx,
        f,
        e,
        tags >= need,
        f"{source}: the Runner has {tags} tag(s) ({want} needed), so the conditional instructions resolve.",
        f"{source}: the Runner has {tags} tag(s), not {want}, so nothing happens."
        if tags
        else f"{source}: the Runner is not tagged, so nothing happens.",
        ("rule_tagged",),
        {"tags": tags, "min_tags": need},
    )
    return None


@resolves("if_accessed_from")
def _if_accessed_from(
    ctx: Ctx, e: dict, controller: str, source: str, d: Decision | None, f: Frame | None
) -> Any:
    where = f.v.get("accessed_from") if f is not None else None
    zones = e["zones"]
    _condition(
        ctx,
        f,
        e,
        where in zones,
        f"{source} was accessed from {where}: the conditional instructions resolve.",
        f"{source} was not accessed from {' or '.join(zones)} ({where or 'no access'}): nothing happens.",
        ("rule_conditional_ability",),
        {"accessed_from": where},
    )
    return None


@resolves("if_ice_subtype")
def _if_ice_subtype(
    ctx: Ctx, e: dict, controller: str, source: str, d: Decision | None, f: Frame | None
) -> Any:
    loc = this_ice(ctx)
    ice = ctx.board["servers"][loc[0]]["ice"][loc[1]] if loc else None
    want = e["subtype"].lower()
    subtypes = ice.get("subtypes", []) if ice else []
    objects = {"subtype": want, "subtypes": list(subtypes)}
    if ice is not None:
        objects.update(server=loc[0], ice=loc[1], card=ice["name"])
    has = "no ice" if ice is None else f"{ice['name']} ({', '.join(subtypes) or 'no subtypes'})"
    _condition(
        ctx,
        f,
        e,
        want in subtypes,
        f"{source}: {has} is a {want}, so the conditional instructions resolve.",
        f"{source}: {has} is not a {want}, so nothing happens.",
        ("rule_subtypes",),
        objects,
    )
    return None


@resolves("if_threat_level")
def _if_threat_level(
    ctx: Ctx, e: dict, controller: str, source: str, d: Decision | None, f: Frame | None
) -> Any:
    b = ctx.board
    level = max(score(b, "corp"), score(b, "runner"))
    n = e["amount"]
    _condition(
        ctx,
        f,
        e,
        level >= n,
        f"{source}: the threat level is {level} ({n} or greater needed), so the conditional instructions resolve.",
        f"{source}: the threat level is {level}, less than {n}, so nothing happens.",
        ("rule_threat_level",),
        {"threat_level": level, "amount": n},
    )
    return None


@resolves("if_runner_credits_at_most")
def _if_runner_credits_at_most(
    ctx: Ctx, e: dict, controller: str, source: str, d: Decision | None, f: Frame | None
) -> Any:
    have = ctx.board["runner"]["credits"]
    n = e["amount"]
    _condition(
        ctx,
        f,
        e,
        have <= n,
        f"{source}: the Runner has {have} credit(s), {n} or fewer, so the conditional instructions resolve.",
        f"{source}: the Runner has {have} credit(s), more than {n}, so nothing happens.",
        ("rule_credit_pool",),
        {"credits": have, "amount": n},
    )
    return None


@resolves("choose")
def _choose(ctx: Ctx, e: dict, controller: str, source: str, d: Decision | None, f: Frame | None) -> Any:
    """9.11.4g: choosing between options ends the instruction; the chosen option's instructions
    resolve next. The Corp makes every choice of its subroutines unless the text names the
    Runner (NSG ruling on Ballista)."""
    opts = e["options"]

    def words(k: int) -> str:
        return " ".join(describe_effect(x, controller) for x in opts[k])

    if d is None:
        return wait([dec(f"option:{k}", f"Choose: {words(k)}", controller) for k in range(len(opts))])
    k = d.index
    ctx.ev(
        f"{source}: the {controller.capitalize()} chooses: {words(k)}",
        ("rule_choice_instruction",),
        objects={"option": k},
    )
    _splice(f, opts[k])
    return None


@resolves("text")
def _text(ctx: Ctx, e: dict, controller: str, source: str, d: Decision | None, f: Frame | None) -> Any:
    if d is None:
        return wait([dec("resolved", f"Resolved as written (by hand): {e['text']}", controller)])
    if d.card:  # `resolved:runner.credits=3,end_run`: the judge's changes stick (engine.decision)
        return resolve_by_hand(ctx, e, source, d.card)
    ctx.ev(
        f"{source}: resolved as written by the judge, outside the engine: {e['text']}",
        (),
        applied=False,
        objects={"text": e["text"]},
    )
    return None


def resolve_by_hand(ctx: Ctx, e: dict, source: str, spec: str) -> Any:
    """A by-hand resolution with the state the judge set: each value is set (a change recorded
    like any other), then the run ends if they said so. The decision is replayed from shared
    links like any other, so the session goes on from the state the judge made."""
    from .decision import parse_adjustments

    ch: dict = {}
    ends = False
    words = []
    for side, field, value in parse_adjustments(spec) or ():
        if side == "run":
            ends = True
            continue
        p = ctx.board[side]
        if p[field] != value:
            words.append(f"{side.capitalize()} {field.replace('_', ' ')} {p[field]} -> {value}")
        setv(p, side, field, value, ch)
    said = "; ".join(words) if words else "no change to credits, clicks or tags"
    ctx.ev(
        f"{source}: resolved by hand by the judge ({said}"
        + ("; the run ends" if ends else "")
        + f"): {e['text']}",
        (),
        ch,
        objects={"text": e["text"], "by_hand": spec},
    )
    if ends and ctx.run_frame() is not None:
        return end_the_run(ctx)
    return None


@resolves("net_damage", "meat_damage", "core_damage")
def _damage(ctx: Ctx, e: dict, controller: str, source: str, d: Decision | None, f: Frame | None) -> Any:
    kind = e["effect"][: -len("_damage")]
    gone = prevented(f)
    if gone >= e["amount"]:
        ctx.ev(
            f"{source}: all {e['amount']} {kind} damage was prevented; the Runner suffers none.",
            ("rule_prevent_all", "sec_prevent_avoid"),
            applied=False,
            objects={"amount": 0, "prevented": gone},
        )
        return None
    return damage(ctx, kind, e["amount"] - gone)


@resolves("gain_credits")
def _gain_credits(
    ctx: Ctx, e: dict, controller: str, source: str, d: Decision | None, f: Frame | None
) -> Any:
    ch: dict = {}
    p = ctx.board[controller]
    setv(p, controller, "credits", p["credits"] + e["amount"], ch)
    ctx.ev(f"{source}: the {controller.capitalize()} gains {e['amount']} credit(s).", (), ch)
    return None


@resolves("opponent_gains_credits")
def _opponent_gains(
    ctx: Ctx, e: dict, controller: str, source: str, d: Decision | None, f: Frame | None
) -> Any:
    ch: dict = {}
    opp = opponent(controller)
    p = ctx.board[opp]
    setv(p, opp, "credits", p["credits"] + e["amount"], ch)
    ctx.ev(f"{source}: the {opp.capitalize()} gains {e['amount']} credit(s).", (), ch)
    return None


@resolves("lose_credits")
def _lose_credits(
    ctx: Ctx, e: dict, controller: str, source: str, d: Decision | None, f: Frame | None
) -> Any:
    ch: dict = {}
    opp = opponent(controller)
    p = ctx.board[opp]
    setv(p, opp, "credits", max(0, p["credits"] - e["amount"]), ch)
    ctx.ev(f"{source}: the {opp.capitalize()} loses {e['amount']} credit(s) (as many as they have).", (), ch)
    return None


@resolves("lose_clicks")
def _lose_clicks(ctx: Ctx, e: dict, controller: str, source: str, d: Decision | None, f: Frame | None) -> Any:
    ch: dict = {}
    opp = opponent(controller)
    p = ctx.board[opp]
    setv(p, opp, "clicks", max(0, p["clicks"] - e["amount"]), ch)
    ctx.ev(
        f"{source}: the {opp.capitalize()} loses {e['amount']} [click] (as many as they have).",
        ("rule_gain_spend_lose_clicks",),
        ch,
    )
    return None


@resolves("give_tags")
def _give_tags(ctx: Ctx, e: dict, controller: str, source: str, d: Decision | None, f: Frame | None) -> Any:
    kept = after_prevention(ctx, f, e, source, "tags")
    if kept is None:
        return None
    e = kept
    ch: dict = {}
    r = ctx.board["runner"]
    setv(r, "runner", "tags", r["tags"] + e["amount"], ch)
    ctx.ev(f"{source}: the Runner takes {e['amount']} tag(s).", ("rule_tag",), ch)
    return None


@resolves("remove_tags")
def _remove_tags(ctx: Ctx, e: dict, controller: str, source: str, d: Decision | None, f: Frame | None) -> Any:
    """ "Remove 1 tag." on a Runner card: as many as the Runner has, up to N (1.2.3)."""
    r = ctx.board["runner"]
    n = min(e["amount"], r["tags"])
    if not n:
        ctx.ev(
            f"{source}: the Runner has no tag to remove.",
            ("rule_tagged_remove_tag",),
            applied=False,
            objects={"removed": 0},
        )
        return None
    ch: dict = {}
    setv(r, "runner", "tags", r["tags"] - n, ch)
    ctx.ev(
        f"{source}: the Runner removes {n} tag(s).", ("rule_tagged_remove_tag",), ch, objects={"removed": n}
    )
    return None


@resolves("draw_cards")
def _draw_cards(ctx: Ctx, e: dict, controller: str, source: str, d: Decision | None, f: Frame | None) -> Any:
    """The controller draws N ("You may draw": 0 or N; "You may draw 1 or 2": up to N) through
    the drawing procedure (8.4)."""
    n = e["amount"]
    counts: list[int] = list(range(n + 1)) if e.get("up_to") else [0, n] if e.get("optional") else [n]
    if d is None and len(counts) > 1:
        return wait(
            [
                dec(f"draw:{k}", f"Draw {k} card(s)" if k else "Draw no cards", controller)
                for k in reversed(counts)
            ]
        )
    k = d.amount if d is not None else n
    who = controller.capitalize()
    if not k:
        ctx.ev(
            f"{source}: the {who} draws no cards.", ("rule_card_draw",), applied=False, objects={"count": 0}
        )
        return None
    ctx.ev(f"{source}: the {who} draws {k} card(s).", ("rule_card_draw",), objects={"count": k})
    return call("draw", {"player": controller, "count": k})


# ----- installed Runner cards: trash, add to the grip ------------------------------------------

_ZONE_TYPE = {"programs": "program", "hardware": "hardware", "resources": "resource", "facedown": None}


def _installed(b: dict, e: dict) -> list[tuple[str, int, dict, str]]:
    """The installed Runner cards an effect may choose: (rig zone, index, card, "ZONE.CARD" its
    stable reference), filtered by its `card_types` and `except_subtypes` (facedown cards have
    no card type to match)."""
    types = e.get("card_types")
    unless = set(e.get("except_subtypes", ()))
    out = []
    for zone, ctype in _ZONE_TYPE.items():
        if types is not None and ctype not in types:
            continue
        cards = b["runner"]["rig"][zone]
        for i, c in enumerate(cards):
            if unless & {st.lower() for st in c.get("subtypes", ())}:
                continue
            out.append((zone, i, c, f"{zone}.{card_ref(cards, i)}"))
    return out


def _choose_installed(
    ctx: Ctx, e: dict, f: Frame | None, d: Decision | None, prefix: str, chooser: str, verb: str
) -> list[tuple[str, int, dict, str]] | tuple:
    """Targets for "trash / add N installed cards" (1.9.x distinct targets: as many as possible,
    each once): the chooser picks one at a time while there is a choice; returns the targets or
    a wait."""
    cands = _installed(ctx.board, e)
    n = e["amount"]
    v = f.v if f is not None else {}
    picks: Any = v.get("picks")
    if picks is None or picks[0] != v.get("i"):
        picks = v["picks"] = [v.get("i"), []]
    chosen = picks[1]
    if d is not None:  # cards move only once all are chosen, so references stay valid meanwhile
        chosen.append(f"{d.zone}.{d.card}")
    left = [c for c in cands if c[3] not in chosen]
    need = n - len(chosen)
    if need > 0 and len(left) > need:
        return wait(
            [
                dec(
                    f"{prefix}:{ref}",
                    f"{verb} {c['name']} (installed {_ZONE_TYPE[zone] or 'facedown card'})",
                    chooser,
                )
                for zone, _, c, ref in left
            ]
        )
    del v["picks"]
    keys = set(chosen) | ({c[3] for c in left} if need > 0 else set())
    return [c for c in cands if c[3] in keys]


def move_installed(ctx: Ctx, targets: list[tuple[str, int, dict, str]], dest: str) -> tuple[dict, list[str]]:
    """Move `targets` from the rig to the heap or the grip at once; (changes, names)."""
    r = ctx.board["runner"]
    ch: dict = {}
    for zone in _ZONE_TYPE:
        idx = sorted((i for z, i, *_ in targets if z == zone), reverse=True)
        if idx:
            ch[f"runner.rig.{zone}"] = [len(r["rig"][zone]), len(r["rig"][zone]) - len(idx)]
        for i in idx:
            card = r["rig"][zone].pop(i)
            rig.forget_boosts(card)  # an installed card's temporary effects end when it moves
            pile = r["discard"] if dest == "heap" else r["hand"]
            pile.append(card)
            if dest == "heap" and zone == "programs":
                ctx.s.result["trashed_programs"].append(card["name"])
    key = "runner.discard" if dest == "heap" else "runner.hand"
    pile = r["discard"] if dest == "heap" else r["hand"]
    if targets:
        ch[key] = [len(pile) - len(targets), len(pile)]
    return ch, [t[2]["name"] for t in targets]


@resolves("trash_installed")
def _trash_installed(
    ctx: Ctx, e: dict, controller: str, source: str, d: Decision | None, f: Frame | None
) -> Any:
    kept = after_prevention(ctx, f, e, source, "trash")
    if kept is None:
        return None
    e = kept
    chooser = e.get("chooser", "corp")
    got = _choose_installed(ctx, e, f, d, "trash", chooser, "Trash")
    if isinstance(got, tuple):
        return got
    if not got:
        ctx.ev(
            f"{source}: the Runner has no installed {_described_fields(e)['what']} to trash.",
            ("rule_trashing",),
            applied=False,
        )
        return None
    ch, names = move_installed(ctx, got, "heap")
    ctx.ev(
        f"{source}: the {chooser.capitalize()} trashes {', '.join(names)} (installed).",
        (
            "rule_trashing",
            "rule_distinct_targets",
            *(("rule_lack_of_subtype",) if e.get("except_subtypes") else ()),
        ),
        ch,
        objects={"cards": names, "targets": [t[3] for t in got], "chooser": chooser},
    )
    return None


@resolves("add_installed_to_grip")
def _add_to_grip(ctx: Ctx, e: dict, controller: str, source: str, d: Decision | None, f: Frame | None) -> Any:
    got = _choose_installed(ctx, e, f, d, "grip", "corp", "Add to the grip:")
    if isinstance(got, tuple):
        return got
    if not got:
        ctx.ev(f"{source}: the Runner has no installed card to add to the grip.", (), applied=False)
        return None
    ch, names = move_installed(ctx, got, "grip")
    ctx.ev(
        f"{source}: the Corp adds {', '.join(names)} (installed) to the Runner's grip.",
        ("rule_hand", "rule_distinct_targets"),
        ch,
        objects={"cards": names, "targets": [t[3] for t in got]},
    )
    return None


@resolves("trash_program")
def _trash_program_effect(
    ctx: Ctx, e: dict, controller: str, source: str, d: Decision | None, f: Frame | None
) -> Any:
    kept = after_prevention(ctx, f, e, source, "trash")
    return None if kept is None else _trash_program(ctx, kept, source, d, f)


def _pick_hq(f: Frame, d: Decision | None, hq: list[dict], n: int, label: Any, more: list[dict]) -> Any:
    """The Corp picks `n` cards of HQ one at a time (`hq:CARD`; references stay valid: HQ does not
    change while they choose): a wait with the cards not yet picked (`label(card, last)` their
    words) and `more`, or the list of picked references once there are `n`."""
    v = f.v
    picks: Any = v.get("picks")
    if picks is None or picks[0] != v.get("i"):
        picks = v["picks"] = [v.get("i"), []]
    chosen: list[str] = picks[1]
    if d is not None and d.kind == "hq":
        chosen.append(d.card)
    if len(chosen) < n:
        refs = [card_ref(hq, i) for i in range(len(hq))]
        opts = [
            dec(f"hq:{ref}", label(c, len(chosen) + 1 == n), "corp")
            for c, ref in zip(hq, refs, strict=True)
            if ref not in chosen
        ]
        return wait([*opts, *more])
    del v["picks"]
    return chosen


def _trash_from_hq(ctx: Ctx, chosen: list[str]) -> tuple[list[str], list[int], dict]:
    """Trash the HQ cards `chosen` (references) facedown to Archives (4.4.6b); (names, positions, changes)."""
    corp = ctx.board["corp"]
    hq = corp["hand"]
    at: list[Any] = sorted(find_card(hq, ref) for ref in chosen)
    names = []
    for i in at[::-1]:
        card = hq.pop(i)
        card["faceup"] = False  # not visible to the Runner when trashed (4.4.6b)
        corp["discard"].append(card)
        names.append(card["name"])
    n = len(at)
    ch = {
        "corp.hand": [len(hq) + n, len(hq)],
        "corp.discard": [len(corp["discard"]) - n, len(corp["discard"])],
    }
    return list(reversed(names)), at, ch


@resolves("may_trash_from_hand")
def _may_trash_from_hand(
    ctx: Ctx, e: dict, controller: str, source: str, d: Decision | None, f: Frame | None
) -> Any:
    """ "You may trash N cards from HQ to X": an optional cost (1.16.4); if paid, X resolves."""
    hq = ctx.board["corp"]["hand"]
    n = e["amount"]
    inner = " ".join(describe_effect(x) for x in e["effects"])
    v = f.v
    if len(hq) < n:
        v.pop("picks", None)
        ctx.ev(
            f"{source}: the Corp has {len(hq)} card(s) in HQ and cannot trash {n}; nothing happens.",
            ("rule_cost",),
            applied=False,
            objects={"hq": len(hq), "amount": n},
        )
        return None
    if d is not None and d.kind == "dont_trash":
        v.pop("picks", None)
        ctx.ev(
            f"{source}: the Corp does not trash cards from HQ; nothing happens.",
            ("rule_cost",),
            applied=False,
        )
        return None
    got = _pick_hq(
        f,
        d,
        hq,
        n,
        lambda c, last: f"Trash {c['name']} from HQ" + (f" to: {inner}" if last else ""),
        [dec("dont_trash", "Do not trash cards from HQ", "corp")],
    )
    if isinstance(got, tuple):
        return got
    names, at, ch = _trash_from_hq(ctx, got)
    ctx.ev(
        f"{source}: the Corp trashes {', '.join(names)} from HQ (facedown in Archives): {inner}",
        ("rule_cost", "rule_archives_faceup_facedown"),
        ch,
        objects={"cards": names, "hq": at},
    )
    _splice(f, e["effects"])
    return None


@resolves("trash_from_hq")
def _trash_from_hq_effect(
    ctx: Ctx, e: dict, controller: str, source: str, d: Decision | None, f: Frame | None
) -> Any:
    """ "If there are any cards in HQ, trash 1 of them" (Hansei Review): the Corp chooses which,
    as many as HQ holds up to `amount` (no choice when HQ holds no more than that)."""
    hq = ctx.board["corp"]["hand"]
    n = min(e["amount"], len(hq))
    if n == 0:
        ctx.ev(f"{source}: there are no cards in HQ; nothing is trashed.", ("rule_trashing",), applied=False)
        return None
    if n == len(hq):
        got: Any = [card_ref(hq, i) for i in range(len(hq))]
    else:
        got = _pick_hq(f, d, hq, n, lambda c, last: f"Trash {c['name']} from HQ", [])
        if isinstance(got, tuple):
            return got
    names, at, ch = _trash_from_hq(ctx, got)
    ctx.ev(
        f"{source}: the Corp trashes {', '.join(names)} from HQ (facedown in Archives).",
        ("rule_trashing", "rule_archives_faceup_facedown"),
        ch,
        objects={"cards": names, "hq": at},
    )
    return None


@resolves("shuffle_hq_into_rd")
def _shuffle_hq_into_rd(
    ctx: Ctx, e: dict, controller: str, source: str, d: Decision | None, f: Frame | None
) -> Any:
    """ "Shuffle 2 cards from HQ into R&D" (Sprint): the Corp chooses the cards (as many as HQ
    holds up to `amount`; no choice when it holds no more), they join R&D and R&D is shuffled
    (seeded: a shared session replays the same order)."""
    corp = ctx.board["corp"]
    hq = corp["hand"]
    n = min(e["amount"], len(hq))
    if n == 0:
        ctx.ev(f"{source}: there are no cards in HQ; nothing is shuffled into R&D.", (), applied=False)
        return None
    if n == len(hq):
        got: Any = [card_ref(hq, i) for i in range(len(hq))]
    else:
        got = _pick_hq(f, d, hq, n, lambda c, last: f"Shuffle {c['name']} from HQ into R&D", [])
        if isinstance(got, tuple):
            return got
    at: list[Any] = sorted(find_card(hq, ref) for ref in got)
    moved = [hq.pop(i) for i in at[::-1]][::-1]
    deck = corp["deck"]
    deck.extend(moved)
    for i in range(len(deck) - 1, 0, -1):  # Fisher-Yates with the session's seeded draws
        j = ctx.rand(i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    ch = {"corp.hand": [len(hq) + n, len(hq)], "corp.deck": [len(deck) - n, len(deck)]}
    names = [c["name"] for c in moved]
    ctx.ev(
        f"{source}: the Corp shuffles {', '.join(names)} from HQ into R&D ({len(deck)} cards).",
        ("sec_deck",),
        ch,
        objects={"cards": names, "hq": at},
    )
    return None


# ----- the ice and the run -----------------------------------------------------------------------


def this_ice(ctx: Ctx) -> tuple[str, int] | None:
    """(server, ice index) of the ice whose subroutine is resolving: the nearest frame that names
    it (the encounter's subroutine frame, seen through traces and choices nested in it)."""
    for f in reversed(ctx.s.frames):
        loc = f.v.get("ice")
        if loc is not None:
            srv = ctx.board["servers"].get(loc[0])
            if srv is not None and loc[1] < len(srv["ice"]):
                return loc[0], loc[1]
            return None
    return None


@resolves("trash_this_ice")
def _trash_this_ice(
    ctx: Ctx, e: dict, controller: str, source: str, d: Decision | None, f: Frame | None
) -> Any:
    """Trash the ice this subroutine is on. 8.5.10: if it is being encountered, the encounter
    ends without completing any further step (no more subroutines resolve); the Runner passes
    the position it occupied and the run continues (Movement Phase)."""
    loc = this_ice(ctx)
    if loc is None:
        ctx.ev(
            f"{source}: there is no ice this subroutine is on; nothing is trashed.",
            ("rule_trashing",),
            applied=False,
        )
        return None
    return _trash_ice_at(ctx, loc[0], loc[1], source)


def _trash_ice_at(ctx: Ctx, server: str, pos: int, source: str) -> Any:
    """Trash the ice at `pos` protecting `server` (`trash_this_ice`, `trash_this_card`)."""
    b = ctx.board
    srv = b["servers"][server]
    card = srv["ice"].pop(pos)
    card["faceup"] = bool(card.pop("rezzed", False))  # a rezzed card is visible when trashed (4.4.6b)
    b["corp"]["discard"].append(card)
    ch = {
        f"servers.{server}.ice": [len(srv["ice"]) + 1, len(srv["ice"])],
        "corp.discard": [len(b["corp"]["discard"]) - 1, len(b["corp"]["discard"])],
    }
    face = "faceup" if card["faceup"] else "facedown"
    objects = {"server": server, "ice": pos, "card": card["name"]}
    run = ctx.run_frame()
    encountered = (
        run is not None
        and run.v.get("server") == server
        and run.v.get("pos") == pos
        and run.v.get("enc") is not None
    )
    if not encountered:
        if run is not None and run.v.get("server") == server and (run.v.get("pos") or 0) > pos:
            run.v["pos"] -= 1  # the Runner's position stays at the same ice
        ctx.ev(
            f"{source}: the Corp trashes {card['name']} (to Archives {face}).",
            ("rule_trashing", "rule_archives_faceup_facedown"),
            ch,
            objects=objects,
        )
        return None
    ctx.ev(
        f"{source}: the Corp trashes {card['name']}, the ice being encountered (to Archives {face}). "
        "The encounter ends without resolving more subroutines; the Runner passes the position it "
        "occupied and the run continues.",
        ("rule_uninstall_ice_during_run", "rule_trashing", "rule_archives_faceup_facedown"),
        ch,
        objects=objects,
    )
    return end_encounter(ctx, run, source, vacated=True)


# the run's steps while its ice is being encountered (6.9.3)
ENCOUNTER_STEPS = frozenset(
    ("step_encounter_begins", "step_encounter_paw", "step_resolve_subroutine", "step_resolve_subroutine_loop")
)


def end_encounter(ctx: Ctx, run: Frame, source: str, vacated: bool = False) -> Any:
    """The encounter ends at once, mid-instruction (8.5.10 trashed, 6.2.7c derezzed, 6.5.8a
    bypassed): everything nested in the run is dropped, strength added for the encounter ends,
    and the run goes on in the Movement Phase, the Runner passing the ice (`vacated`: the
    position the trashed ice occupied). The instruction's checkpoint follows (10.3.5)."""
    frames = ctx.s.frames
    del frames[frames.index(run) + 1 :]
    rig.clear_boosts(ctx.board)
    for k in ("met", "pending", "reacting", "prio"):  # a window open at the encounter's steps
        run.v.pop(k, None)
    run.v["enc"] = None
    if vacated:
        run.v["vacated"] = True  # the position of the trashed ice: see engine.run (pass, move)
    run.at = "step_pass_ice" if "step_pass_ice" in ctx.s.next_of["run"] else None
    ctx.ev(
        f"{source}: the instruction has resolved; a checkpoint occurs.",
        ("rule_checkpoint_after_instruction_resolution", "rule_checkpoints"),
    )
    checkpoint(ctx)
    return UNWOUND


def _encountered(ctx: Ctx) -> tuple[Frame, dict] | None:
    """(run frame, ice) while the run's ice is being encountered, else None."""
    run = ctx.run_frame()
    if run is None or run.at not in ENCOUNTER_STEPS:
        return None
    ice = ctx.board["servers"][run.v["server"]]["ice"]
    pos = run.v.get("pos")
    return (run, ice[pos]) if pos is not None and pos < len(ice) else None


@resolves("corp_chooses_hq_access")
def _corp_chooses_hq(
    ctx: Ctx, e: dict, controller: str, source: str, d: Decision | None, f: Frame | None
) -> Any:
    """Dedicated Neural Net: "you choose which cards the Runner accesses from HQ for the remainder
    of this run" (a lingering effect on the run; engine.access.corp_chooses_hq)."""
    run = ctx.run_frame()
    if run is None:
        ctx.ev(
            f"{source}: no run is in progress; the Corp's choice of HQ accesses has no effect.",
            ("rule_corp_choosing_candidates_breaching_hq",),
            applied=False,
        )
        return None
    run.v["corp_chooses_hq"] = True
    ctx.ev(
        f"{source}: for the remainder of this run, the Corp chooses which cards the Runner accesses from HQ.",
        ("rule_corp_choosing_candidates_breaching_hq",),
        {"run.corp_chooses_hq": [None, True]},
        objects={"server": run.v["server"]},
    )
    return None


@resolves("bypass")
def _bypass(ctx: Ctx, e: dict, controller: str, source: str, d: Decision | None, f: Frame | None) -> Any:
    """6.5.8a: the Encounter Ice Phase is aborted and the Runner passes the ice; no subroutine
    on it resolves (6.5.8b, 6.5.8c)."""
    found = _encountered(ctx)
    if found is None:
        ctx.ev(
            f"{source}: no ice is being encountered; nothing is bypassed.", ("rule_bypass",), applied=False
        )
        return None
    run, ice = found
    ctx.ev(
        f"{source}: the Runner bypasses {ice['name']}: the encounter ends and the Runner passes it; "
        "no more of its subroutines are broken or resolve.",
        ("rule_bypass", "rule_bypass_start_of_encounter", "rule_bypass_during_encounter"),
        {"run.bypassed": [None, ice["name"]]},
        objects={"server": run.v["server"], "ice": run.v["pos"], "card": ice["name"]},
    )
    return end_encounter(ctx, run, source)


def _corp_installed(b: dict, rezzed: bool, types: tuple[str, ...]) -> list[tuple[str, dict]]:
    """("S.ZONE.CARD" / "S.content", card) of the installed Corp cards of `types` that are rezzed
    (or unrezzed), in server order."""
    out = []
    for name, srv in b["servers"].items():
        for zone in ("ice", "root"):
            cards = srv[zone]
            for i, c in enumerate(cards):
                if (
                    bool(c.get("rezzed")) == rezzed
                    and c.get("type", "ice" if zone == "ice" else "upgrade") in types
                ):
                    out.append((f"{name}.{zone}.{card_ref(cards, i)}", c))
        c = srv.get("content")
        if c and bool(c.get("rezzed")) == rezzed and c.get("type") in types:
            out.append((f"{name}.content", c))
    return out


def _pick_corp_card(
    ctx: Ctx, e: dict, f: Frame | None, d: Decision | None, kind: str, rezzed: bool, verb: str, who: str
) -> tuple:
    """The controller chooses `amount` installed Corp cards of `card_types`, one at a time while
    there is a choice (all at once when there is none). (chosen, references) or a wait."""
    types = tuple(e.get("card_types") or ("ice", "asset", "upgrade", "agenda"))
    cands = _corp_installed(ctx.board, rezzed, types)
    v = f.v if f is not None else {}
    picks: Any = v.get("picks")
    if picks is None or picks[0] != v.get("i"):
        picks = v["picks"] = [v.get("i"), []]
    chosen = picks[1]
    if d is not None:
        chosen.append(d.id.partition(":")[2])
    left = [(ref, c) for ref, c in cands if ref not in chosen]
    need = e.get("amount", 1) - len(chosen)
    if need > 0 and len(left) > need:
        return wait([dec(f"{kind}:{ref}", f"{verb} {c['name']} ({ref})", who) for ref, c in left])
    del v["picks"]
    keys = set(chosen) | ({ref for ref, _ in left} if need > 0 else set())
    return "chosen", [(ref, c) for ref, c in cands if ref in keys]


@resolves("derez")
def _derez(ctx: Ctx, e: dict, controller: str, source: str, d: Decision | None, f: Frame | None) -> Any:
    """Derez installed Corp cards (8.1.3: turn them facedown, no cost, at once); the ice being
    encountered ends the encounter (6.2.7c)."""
    got = _pick_corp_card(ctx, e, f, d, "derez", True, "Derez", controller)
    if got[0] == "wait":
        return got
    chosen = got[1]
    if not chosen:
        ctx.ev(f"{source}: no installed card can be derezzed.", ("sec_derez",), applied=False)
        return None
    ch = {}
    for ref, c in chosen:
        c["rezzed"] = False
        ch[f"servers.{ref}.rezzed"] = [True, False]
    names = [c["name"] for _, c in chosen]
    ctx.ev(
        f"{source}: {', '.join(names)} {'is' if len(names) == 1 else 'are'} derezzed.",
        ("sec_derez", "rule_derez_by_ability", "rule_derez_cost", "rule_derez_procedure"),
        ch,
        objects={"cards": names, "targets": [ref for ref, _ in chosen]},
    )
    found = _encountered(ctx)
    if found is not None and any(c is found[1] for _, c in chosen):
        ctx.ev(
            f"{found[1]['name']} was derezzed while being encountered: the encounter ends and the run "
            "continues in the Movement Phase.",
            ("rule_ice_change_encounter_uninstall_derez",),
            objects={"server": found[0].v["server"], "ice": found[0].v["pos"]},
        )
        return end_encounter(ctx, found[0], source)
    return None


@resolves("expose")
def _expose(ctx: Ctx, e: dict, controller: str, source: str, d: Decision | None, f: Frame | None) -> Any:
    """1.21.4: the Runner reveals installed unrezzed Corp cards (nothing else changes)."""
    kept = after_prevention(ctx, f, e, source, "expose")
    if kept is None:
        return None
    e = kept
    got = _pick_corp_card(ctx, e, f, d, "expose", False, "Expose", "runner")
    if got[0] == "wait":
        return got
    chosen = got[1]
    if not chosen:
        ctx.ev(f"{source}: no installed unrezzed card to expose.", ("rule_expose",), applied=False)
        return None
    names = [c["name"] for _, c in chosen]
    ctx.ev(
        f"{source}: the Runner exposes {', '.join(names)}.",
        ("rule_expose", "rule_look_reveal_expose_access_distinct"),
        objects={"cards": names, "targets": [ref for ref, _ in chosen]},
    )
    return None


@resolves("gain_clicks")
def _gain_clicks(ctx: Ctx, e: dict, controller: str, source: str, d: Decision | None, f: Frame | None) -> Any:
    p = ctx.board[controller]
    ch: dict = {}
    setv(p, controller, "clicks", p["clicks"] + e["amount"], ch)
    ctx.ev(
        f"{source}: the {controller.capitalize()} gains {e['amount']} [click].",
        ("rule_gain_clicks", "rule_gain_spend_lose_clicks"),
        ch,
    )
    return None


@resolves("lose_own_clicks")
def _lose_own_clicks(
    ctx: Ctx, e: dict, controller: str, source: str, d: Decision | None, f: Frame | None
) -> Any:
    """The controller loses [click] they have not spent, as many as they have up to `amount`
    (1.11.3; "if you have any [click] remaining": none left, nothing is lost)."""
    p = ctx.board[controller]
    lost = min(e["amount"], p["clicks"])
    who = controller.capitalize()
    if not lost:
        ctx.ev(
            f"{source}: the {who} has no [click] remaining: nothing is lost.",
            ("rule_gain_spend_lose_clicks",),
            applied=False,
            objects={"amount": 0},
        )
        return None
    ch: dict = {}
    setv(p, controller, "clicks", p["clicks"] - lost, ch)
    ctx.ev(
        f"{source}: the {who} loses {lost} [click].",
        ("rule_gain_spend_lose_clicks",),
        ch,
        objects={"amount": lost},
    )
    return None


@resolves("take_bad_publicity")
def _take_bad_publicity(
    ctx: Ctx, e: dict, controller: str, source: str, d: Decision | None, f: Frame | None
) -> Any:
    corp = ctx.board["corp"]
    ch: dict = {}
    setv(corp, "corp", "bad_publicity", corp["bad_publicity"] + e["amount"], ch)
    ctx.ev(
        f"{source}: the Corp takes {e['amount']} bad publicity.",
        ("rule_bad_publicity", "rule_bad_publicity_added_and_removed"),
        ch,
    )
    return None


@resolves("runner_may_jack_out")
def _may_jack_out(
    ctx: Ctx, e: dict, controller: str, source: str, d: Decision | None, f: Frame | None
) -> Any:
    run = ctx.run_frame()
    if run is None:
        ctx.ev(
            f"{source}: no run is in progress; the Runner cannot jack out.",
            ("rule_jacking_out",),
            applied=False,
        )
        return None
    if d is None:
        return wait(
            [
                dec("jack_out", f"Jack out now ({source} allows it): the run ends", "runner"),
                dec("continue", "Do not jack out", "runner"),
            ]
        )
    if d.kind == "continue":
        ctx.ev(f"{source}: the Runner does not jack out.", ("rule_jacking_out",), applied=False)
        return None
    ctx.ev(
        f"{source}: the Runner jacks out: play moves to the Run Ends Phase.",
        ("rule_jacking_out",),
        {"run.ended_by": [None, "jack_out"]},
    )
    return _to_run_ends(ctx, run, "jack_out")


# "... unless the Runner pays N" resolves the inner instructions when the cost is not paid; "the
# Corp may pay N. If they do, ..." resolves them when it is. Texts per (mode, what happened).
_COST_TEXTS: dict[tuple[str, str], Any] = {
    ("unless", "ask"): ("Pay {cost} (prevents: {inner})", "Do not pay: {inner}"),
    (
        "unless",
        "cannot",
    ): "{source}: the Runner cannot pay {cost}, so the instructions resolve: {inner}",
    ("unless", "pay"): "{source}: the Runner pays {cost}; the instructions do not resolve.",
    (
        "unless",
        "dont_pay",
    ): "{source}: the Runner does not pay {cost}, so the instructions resolve: {inner}",
    ("may", "ask"): ("The {who} pays {cost}: {inner}", "The {who} does not pay"),
    ("may", "cannot"): "{source}: the {who} cannot pay {cost}; nothing happens.",
    ("may", "pay"): "{source}: the {who} pays {cost}: {inner}",
    ("may", "dont_pay"): "{source}: the {who} does not pay; nothing happens.",
}


def _optional_cost(
    ctx: Ctx, e: dict, mode: str, payer: str, source: str, d: Decision | None, f: Frame | None
) -> Any:
    """An optional cost with a choice (1.16.4): `mode` "unless" (the Runner may pay to stop the
    instructions; credits and, "unless the Runner spends [click]", clicks) or "may" (the
    controller may pay to make them resolve)."""
    amt = e["amount"]
    clicks = e.get("clicks", 0)
    fields = {
        "cost": _cost_words(amt, clicks),
        "who": payer.capitalize(),
        "source": source,
        "inner": " ".join(describe_effect(x, "corp" if mode == "unless" else payer) for x in e["effects"]),
    }
    p = ctx.board[payer]
    if d is None and ctx.spendable(payer) >= amt and p["clicks"] >= clicks:
        pay, dont = _COST_TEXTS[(mode, "ask")]
        return wait([dec("pay", pay.format(**fields), payer), dec("dont_pay", dont.format(**fields), payer)])
    what = "cannot" if d is None else d.kind
    paid = what == "pay"
    ch: dict = {}
    rules = ["rule_cost"]
    if paid:
        rules += ctx.pay(payer, amt, ch)
        if clicks:
            setv(p, payer, "clicks", p["clicks"] - clicks, ch)
            rules.append("rule_gain_spend_lose_clicks")
    resolves = paid == (mode == "may")
    ctx.ev(
        _COST_TEXTS[(mode, what)].format(**fields),
        rules,
        ch,
        applied=resolves or mode == "unless",
        objects={"amount": amt, "clicks": clicks, "paid": paid},
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
        rig.forget_boosts(card)
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


@resolves("run")
def _run_event(ctx: Ctx, e: dict, controller: str, source: str, d: Decision | None, f: Frame | None) -> Any:
    """ "Run HQ. If successful, ..." (a run event's play ability): the Runner initiates a run on
    the server named ("any": the one they choose now, `run:S`), walked as a nested run; the event
    stays in the play area until it completes (the play ability resolves after it). Its "If
    successful" ability (6.7.4) becomes pending when the run is successful, with the other
    abilities meeting that condition (engine.run); "instead of breaching" replaces the breach
    (6.7.4b); "access N additional cards when you breach" adds to the breach (7.3.5b)."""
    server = e["server"]
    if server == "any":
        if d is None or d.kind != "run" or d.server not in ctx.board["servers"]:
            return wait(
                [dec(f"run:{name}", f"{source}: run {name}", "runner") for name in ctx.board["servers"]]
            )
        server = d.server
    ctx.ev(
        f"{source}: the Runner initiates a run on {server}.",
        ("rule_if_successful",) if e.get("if_successful") or e.get("additional_access") else ("rule_run",),
        objects={"server": server, "card": source},
    )
    v: dict[str, Any] = {"server": server, "event": source}
    if e.get("if_successful"):
        v["if_successful"] = e["if_successful"]
        if e.get("instead_of_breach"):
            v["instead_of_breach"] = True
    if e.get("additional_access"):
        v["additional_access"] = e["additional_access"]
    return call("run", v)


# ----- counters on cards (issue 32 set A) -----------------------------------------------------------


def this_card(ctx: Ctx) -> tuple[dict, str] | None:
    """(card, change path) of the card whose ability is resolving ("this card", "it"): the nearest
    frame naming it, a conditional or Corp card ability (`this_card`: its location key,
    `engine.locations.card_at`) or an ice subroutine (its ice). None once the card has left play
    (a [trash] cost, or trashed while its ability resolves)."""
    for f in reversed(ctx.s.frames):
        key = f.v.get("this_card")
        if key is not None:
            return card_at(ctx.board, key)
        loc = f.v.get("ice")
        if loc is not None:
            srv = ctx.board["servers"].get(loc[0])
            if srv is None or loc[1] >= len(srv["ice"]):
                return None
            return srv["ice"][loc[1]], f"servers.{loc[0]}.ice.{card_ref(srv['ice'], loc[1])}"
    return None


def set_counters(card: dict, path: str, kind: str, n: int, ch: dict) -> int:
    """Make `card` host `n` counters of `kind` (recording the change under `path`); the old count."""
    counters = card.setdefault("counters", {})
    old = counters.get(kind, 0)
    if n:
        counters[kind] = n
    else:
        counters.pop(kind, None)
    key = f"{path}.counters.{kind}"
    if old != n:
        ch[key] = [ch[key][0] if key in ch else old, n]
    return old


@resolves("place_counters")
def _place_counters(
    ctx: Ctx, e: dict, controller: str, source: str, d: Decision | None, f: Frame | None
) -> Any:
    """ "Place N power counters on this card": taken from the bank (1.9.2a) and hosted on the card
    (1.13.1); if the card has left play, nothing is placed."""
    return _put_on_this_card(ctx, e, source, loads=False)


def _put_on_this_card(ctx: Ctx, e: dict, source: str, loads: bool) -> None:
    """Counters from the bank (1.9.2a) onto this card: placed, or loaded (10.9.1, `loads`: the
    card's "When it is empty, ..." is about them); nothing when the card has left play."""
    found = this_card(ctx)
    kind, n = e["counter"], e["amount"]
    verb = "loaded onto" if loads else "placed on"
    rule = "rule_load_and_empty" if loads else "rule_placed_loaded"
    if found is None:
        gone = "nothing is loaded onto it" if loads else f"no {kind} counter is placed"
        ctx.ev(
            f"{source}: the card is no longer installed; {gone}.", (rule, "rule_bank_default"), applied=False
        )
        return None
    card, path = found
    ch: dict = {}
    old = set_counters(card, path, kind, card.get("counters", {}).get(kind, 0) + n, ch)
    what = "credit(s)" if loads and kind == "credits" else f"{kind} counter(s)"
    ctx.ev(
        f"{source}: {n} {what} {verb} {card['name']} (now {old + n}).",
        (rule, "rule_bank_default", "rule_counters_cards"),
        ch,
        objects={
            "card": card["name"],
            "counter": kind,
            ("loaded" if loads else "placed"): n,
            "hosted": old + n,
        },
    )
    return None


@resolves("remove_counters")
def _remove_counters(
    ctx: Ctx, e: dict, controller: str, source: str, d: Decision | None, f: Frame | None
) -> Any:
    """ "Remove 1 hosted power counter" / "remove all hosted power counters" from this card: as
    many as it hosts, up to the amount (1.2.5: as much as possible)."""
    found = this_card(ctx)
    kind = e["counter"]
    have = 0 if found is None else found[0].get("counters", {}).get(kind, 0)
    if found is None or not have:
        ctx.ev(
            f"{source}: no hosted {kind} counter to remove.",
            ("rule_do_as_much_as_you_can",),
            applied=False,
        )
        return None
    card, path = found
    n = have if not e.get("amount") else min(have, e["amount"])
    ch: dict = {}
    set_counters(card, path, kind, have - n, ch)
    ctx.ev(
        f"{source}: {n} {kind} counter(s) removed from {card['name']} (now {have - n}).",
        ("rule_counters_cards",),
        ch,
        objects={"card": card["name"], "counter": kind, "removed": n, "hosted": have - n},
    )
    return None


# ----- load and empty (10.9), taking credits from a card (1.10.4a) --------------------------------


@resolves("load_counters")
def _load_counters(
    ctx: Ctx, e: dict, controller: str, source: str, d: Decision | None, f: Frame | None
) -> Any:
    """ "Load 8[credit] onto it": place the counters on this card (10.9.1), from the bank (1.9.2a).
    The card's "When it is empty, ..." (`when_empty`) is about this loaded type (10.9.2)."""
    return _put_on_this_card(ctx, e, source, loads=True)


@resolves("take_credits")
def _take_credits(
    ctx: Ctx, e: dict, controller: str, source: str, d: Decision | None, f: Frame | None
) -> Any:
    """ "Take 3[credit] from this asset": the controller removes that many credits from this card
    and gains them (1.10.4a); as many as it hosts, up to the amount (1.2.5), all of them when the
    amount is 0. A card loaded with credits that this leaves empty meets its "When it is empty"
    condition (`emptied`)."""
    found = this_card(ctx)
    have = 0 if found is None else found[0].get("counters", {}).get("credits", 0)
    if found is None or not have:
        ctx.ev(
            f"{source}: no hosted credit to take.",
            ("rule_take_credits", "rule_do_as_much_as_you_can"),
            applied=False,
        )
        return None
    card, path = found
    n = have if not e.get("amount") else min(have, e["amount"])
    ch: dict = {}
    set_counters(card, path, "credits", have - n, ch)
    p = ctx.board[controller]
    setv(p, controller, "credits", p["credits"] + n, ch)
    ctx.ev(
        f"{source}: the {controller.capitalize()} takes {n} credit(s) from {card['name']} "
        f"(now {have - n} on it) and gains them.",
        ("rule_take_credits", "rule_gain_credits"),
        ch,
        objects={"card": card["name"], "taken": n, "hosted": have - n, "player": controller},
    )
    if have - n == 0:
        emptied(ctx, card, "credits", source, f)
    return None


def emptied(ctx: Ctx, card: dict, kind: str, source: str, f: Frame | None) -> None:
    """`card` no longer hosts counters of `kind`: if it was loaded with them (its `when_empty` is
    about `kind`), its "When it is empty, ..." ability meets its condition (10.9.1) and resolves
    once the ability that emptied it has resolved: its instructions follow that ability's, with
    the same card as "this card" (the engine does not open a separate reaction window for it, so
    another pending ability of its controller cannot be ordered between them)."""
    we = card.get("when_empty")
    if not we or we["counter"] != kind:
        return
    if f is None or "instructions" not in f.v:  # pragma: no cover - every ability resolves in a frame
        ctx.ev(
            f'{card["name"]} is empty: resolve its "when it is empty" ability by hand.',
            ("rule_load_and_empty", "rule_meeting_empty_condition"),
            applied=False,
            objects={"card": card["name"], "empty": kind},
        )
        return
    f.v["instructions"] = [*f.v["instructions"], *we["effects"]]
    ctx.ev(
        f"{card['name']} is empty (it no longer hosts the {kind} counters loaded onto it): its "
        f'"when it is empty" ability triggers and resolves after {source}\'s ability: '
        + " ".join(describe_effect(x, f.v.get("controller", "corp")) for x in we["effects"]),
        ("rule_load_and_empty", "rule_meeting_empty_condition", "rule_trigger_conditional_ability"),
        objects={"card": card["name"], "empty": kind},
    )


@resolves("trash_this_card")
def _trash_this_card(
    ctx: Ctx, e: dict, controller: str, source: str, d: Decision | None, f: Frame | None
) -> Any:
    """ "Trash it": the card whose ability resolves goes to its owner's discard pile (1.19.1): an
    installed Runner card to the heap; a Corp card to Archives, faceup if it was rezzed (4.4.6b).
    Nothing happens if it has already left play."""
    key = None
    for fr in reversed(ctx.s.frames):
        key = fr.v.get("this_card")
        if key is not None:
            break
    found = None if key is None else card_at(ctx.board, key)
    if found is None:
        ctx.ev(
            f"{source}: the card is no longer installed; nothing is trashed.",
            ("rule_trashing",),
            applied=False,
        )
        return None
    card = found[0]
    b = ctx.board
    parts = key.split(".")
    ch: dict = {}
    if parts[0] in ("programs", "hardware", "resources"):
        cards = b["runner"]["rig"][parts[0]]
        cards.remove(card)
        rig.forget_boosts(card)
        b["runner"]["discard"].append(card)
        ch[f"runner.rig.{parts[0]}"] = [len(cards) + 1, len(cards)]
        ch["runner.discard"] = [len(b["runner"]["discard"]) - 1, len(b["runner"]["discard"])]
        ctx.ev(
            f"{source}: the Runner trashes {card['name']} (to the heap).",
            ("rule_trashing",),
            ch,
            objects={"card": card["name"]},
        )
        return None
    if parts[0] == "score_area":
        ctx.ev(
            f"{source}: {card['name']} is in a score area, not installed; it is not trashed here.",
            ("rule_trashing",),
            applied=False,
        )
        return None
    srv = b["servers"][parts[0]]
    if parts[1] == "ice":
        return _trash_ice_at(ctx, parts[0], srv["ice"].index(card), source)
    if parts[1] == "content":
        srv["content"] = None
        ch[f"servers.{parts[0]}.content"] = [card["name"], None]
    else:
        srv["root"].remove(card)
        ch[f"servers.{parts[0]}.root"] = [len(srv["root"]) + 1, len(srv["root"])]
    card["faceup"] = bool(card.pop("rezzed", False))
    b["corp"]["discard"].append(card)
    ch["corp.discard"] = [len(b["corp"]["discard"]) - 1, len(b["corp"]["discard"])]
    face = "faceup" if card["faceup"] else "facedown"
    ctx.ev(
        f"{source}: the Corp trashes {card['name']} (to Archives {face}).",
        ("rule_trashing", "rule_archives_faceup_facedown"),
        ch,
        objects={"card": card["name"], "server": parts[0]},
    )
    return None
