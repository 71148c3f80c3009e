"""Abilities: paid (9.5.7: actions, icebreakers), conditional (9.6.15), play (9.7.2)
and subroutines (9.8.10)."""

from __future__ import annotations

from typing import Any

from . import installs, prevention, rig, trace, triggers  # noqa: F401  (installs: the "install" effect)
from .board import COST_TRASH
from .decision import Decision, card_ref, card_refs, locate
from .effects import damage, describe_effect, move_installed, resolve_by_hand, resolve_effect
from .encounter import sub_texts
from .machine import (
    END,
    Ctx,
    Frame,
    Handler,
    call,
    complete,
    dec,
    goto,
    handles,
    narrate,
    setv,
    wait,
)
from .turns import install, new_remote
from .windows import corp_card, mark_corp_used


def _instr(f: Frame) -> dict:
    return f.v["instructions"][f.v["i"]]


def _announce_targets(ctx: Ctx, f: Frame, d: Decision | None) -> Any:
    v = f.v
    ins = v["instructions"]
    if not ins:
        ctx.ev(f"{v['source']}: no instructions to resolve.")
        return None
    ctx.ev(
        f"{v['source']}: instruction {v['i'] + 1} of {len(ins)} becomes imminent: {describe_effect(_instr(f), v.get('controller', 'corp'))}"
    )
    return None


def _interrupt_window(ctx: Ctx, f: Frame, d: Decision | None) -> Any:
    v = f.v
    ins = v.get("instructions")
    e = ins[v["i"]] if ins and v.get("i", 0) < len(ins) else None
    if e is not None:
        ctrl = v.get("controller", "corp")
        if e["effect"].endswith("_damage"):  # the Runner's damage, from either side's card (9.9.6b)
            return prevention.window(ctx, f, d, e, "damage")
        if "interrupts" in ctx.s.kinds:  # tags, trash, expose prevention somewhere on the board
            ev = prevention.event_of(e, ctrl)
            if ev is not None:
                return prevention.window(ctx, f, d, e, ev)
    if e is not None and e["effect"] == "trace":
        return trace.window(ctx, f, d, e)
    ctx.ev(
        "Interrupt window: no interrupt in the board vocabulary applies.",
        ("rule_interrupt_definition",),
        applied=False,
    )
    return None


def _resolve_instruction(ctx: Ctx, f: Frame, d: Decision | None) -> Any:
    v = f.v
    if not v["instructions"]:
        return None
    if v.get("called") == v["i"]:  # back from the structure the instruction walked (a draw, a trace)
        del v["called"]
        res = None
    else:
        res = resolve_effect(ctx, _instr(f), v["controller"], v["source"], d, f)
    if type(res) is tuple and res[0] == "call" and res[3] is None:
        v["called"] = v["i"]  # come back here for the checkpoint once it is complete
        return res[:3] + ("stay",)
    if res is None:
        # 10.3.5: when an instruction finishes resolving, a checkpoint occurs before the next
        # instruction becomes imminent
        ctx.ev(
            f"{v['source']}: the instruction has resolved; a checkpoint occurs.",
            ("rule_checkpoint_after_instruction_resolution", "rule_checkpoints"),
        )
        return call("checkpoint", {})
    return res


def _loop(back_to: str) -> Handler:
    def h(ctx: Ctx, f: Frame, d: Decision | None) -> Any:
        v = f.v
        if v["i"] + 1 < len(v["instructions"]):
            v["i"] += 1
            ctx.ev(
                f"{v['source']}: instruction {v['i'] + 1} becomes imminent: {describe_effect(_instr(f), v.get('controller', 'corp'))}"
            )
            return goto(back_to)
        ctx.ev(f"{v['source']}: no more instructions to resolve.")
        return None

    return h


# subroutine
@handles("step_subroutine_becomes_imminent")
def _sub_imminent(ctx: Ctx, f: Frame, d: Decision | None) -> Any:
    v = f.v
    v.setdefault("controller", "corp")
    text = " ".join(describe_effect(e) for e in v["instructions"]) or "(no instructions)"
    ctx.ev(f"{v['source']} becomes imminent: {text}", ("rule_encounter_sub_resolve",))
    return None


# interrupt windows for an imminent instruction's effects (9.9.4): damage, tags, trashing and
# exposing can be prevented there (engine.prevention),
# a trace's base strength changed; a paid ability's too (9.5.7d: a Corp card's instructions)
handles(
    "step_subroutine_interrupt_subroutine_effect",
    "step_conditional_ability_interrupt_window",
    "step_play_ability_interrupt_window",
    "step_paid_ability_interrupt_window",
)(_interrupt_window)
# 9.8.10b (preventing the subroutine itself): nothing modeled
handles("step_subroutine_interrupt_subroutine_resolution")(
    narrate("Interrupt window: no interrupt in the board vocabulary applies.", "rule_interrupt_definition")
)
handles(
    "step_subroutine_target_first_instruction",
    "step_conditional_ability_target_first_instruction",
    "step_play_ability_target_first_instruction",
)(_announce_targets)
handles(
    "step_subroutine_resolution",
    "step_conditional_ability_resolution",
    "step_play_ability_interrupt_resolution",
)(_resolve_instruction)
handles("step_subroutine_loop")(_loop("step_subroutine_interrupt_subroutine_effect"))
handles("step_conditional_ability_loop")(_loop("step_conditional_ability_interrupt_window"))
handles("step_play_ability_loop")(_loop("step_play_ability_interrupt_window"))
handles("step_subroutine_complete")(complete("Resolution of {source} is complete."))
handles("step_conditional_ability_complete")(
    complete("Resolution of the conditional ability of {source} is complete.")
)


@handles("step_conditional_ability_announce")
def _cond_announce(ctx: Ctx, f: Frame, d: Decision | None) -> Any:
    v = f.v
    ctx.ev(
        f"The {v['controller'].capitalize()} triggers the pending ability of {v['source']} ({v['why']}).",
        ("rule_conditional_ability",),
    )
    return None


@handles("step_play_ability_complete")
def _playcomplete(ctx: Ctx, f: Frame, d: Decision | None) -> Any:
    v = f.v
    p = ctx.board[v["controller"]]
    ch: dict = {}
    for i in range(len(p["set_aside"]) - 1, -1, -1):
        if p["set_aside"][i]["name"] == v["card"]:
            card = p["set_aside"].pop(i)
            if v["controller"] == "corp":
                card["faceup"] = True  # it was visible to the Runner when trashed (4.4.6b)
            p["discard"].append(card)
            ch[f"{v['controller']}.discard"] = [len(p["discard"]) - 1, len(p["discard"])]
            break
    rules = ["rule_play_ability"]
    if v["controller"] == "corp":
        pile = "Archives, faceup"
        rules.append("rule_archives_faceup_facedown")
    else:
        pile = "the heap"
    ctx.ev(f"{v['card']} has resolved and is trashed to {pile}.", rules, ch, objects={"card": v["card"]})
    return END


# paid abilities: actions and icebreaking
@handles("step_paid_ability_announce")
def _pa_announce(ctx: Ctx, f: Frame, d: Decision | None) -> Any:
    v = f.v
    ctx.ev(f"The {v['player'].capitalize()} announces: {v['label']}.", ("rule_paid_ability",))
    return None


@handles("step_paid_ability_condition")
def _pa_pay(ctx: Ctx, f: Frame, d: Decision | None) -> Any:
    v = f.v
    b = ctx.board
    side = v["player"]
    p = b[side]
    ch: dict = {}
    rules: list[str] = ["rule_cost"]
    act = Decision.from_id(v["action"]) if v["kind"] == "action" else None
    k = act.kind if act is not None else None
    if k == "play" and act is not None:  # an additional cost trashing installed cards: chosen first
        waiting = _cost_trash_choice(ctx, v, act, d)
        if waiting is not None:
            return waiting
    cost = 0
    clicks = 0
    paid_counters = ""
    if act is not None and k == "ability":  # a [click] ability on a Corp card (9.5.2a)
        clicks = corp_card(b, act)["abilities"][act.index]["clicks"]
        setv(p, side, "clicks", p["clicks"] - clicks, ch)
        rules += ["rule_initiate_action", "rule_action_definition", "rule_action"]
        cost = _pay_corp_ability(ctx, v, rules, ch)
    elif act is not None and k == "use":  # a [click] ability on a Runner card: an action (5.2.1)
        cards = p["rig"][act.zone]
        i = locate(cards, act)
        card, ref = cards[i], card_ref(cards, i)
        ab = card["abilities"][act.index]
        clicks = ab["clicks"]
        setv(p, side, "clicks", p["clicks"] - clicks, ch)
        rules += ["rule_initiate_action", "rule_action_definition", "rule_action"]
        v.update(
            instructions=ab["effects"],
            i=0,
            controller="runner",
            source=card["name"],
            this_card=f"{act.zone}.{ref}",
        )
        if "once_per" in ab:  # "Once per turn →" (9.3.6g)
            mark_corp_used(ctx.s.frames[0].v, act.id)
        if "counter_cost" in ab:
            paid_counters = _pay_counters(card, f"runner.rig.{act.zone}.{ref}", ab, rules, ch)
        if ab["trash"]:
            prevention.trash_from_rig(b, act.zone, i, ch)
            rules.append("rule_trashing")
        cost = ab["cost"]
    elif v["kind"] == "action":
        clicks = 3 if k == "purge" else 1
        setv(p, side, "clicks", p["clicks"] - clicks, ch)
        rules += ["rule_initiate_action", "rule_action_definition"]
        if k in ("remove_tag", "trash_resource"):
            cost = 2
        elif k == "advance":
            cost = 1
        elif k == "install":
            where = act.server
            card = p["hand"].pop(locate(p["hand"], act))
            p["set_aside"].append(card)
            ch[f"{side}.hand"] = [len(p["hand"]) + 1, len(p["hand"])]
            v["card"] = card["name"]
            # the basic action costs only its click (5.2.6d, 5.2.7d); the install cost is paid
            # later, after like cards are trashed (8.5.16c-d: engine.turns.install)
            if side == "corp":
                v["server"] = new_remote(b) if where == "new" else where
        elif k == "play":
            card = p["hand"].pop(locate(p["hand"], act))
            cost = card.get("play_cost", 0)
            p["set_aside"].append(card)
            ch[f"{side}.hand"] = [len(p["hand"]) + 1, len(p["hand"])]
            v["card"] = card["name"]
            if "additional_cost" in card:  # paid with the rest of the cost (1.16.10b)
                paid_counters = _pay_additional(b, side, card["additional_cost"], rules, ch)
                if v.get("cost_trash"):
                    trashed = _pay_cost_trash(ctx, v.pop("cost_trash"), rules, ch)
                    paid_counters = (paid_counters + " and " if paid_counters else "") + trashed
                clicks += card["additional_cost"].get("clicks", 0)
                if card["additional_cost"].get("core_damage"):
                    v["cost_damage"] = card["additional_cost"]["core_damage"]
                    paid_counters = (paid_counters + " and " if paid_counters else "") + (
                        f"{v['cost_damage']} core damage (additional cost, below)"
                    )
    elif (
        v["kind"] == "ability"
        and v.get("zone", "programs") != "programs"
        and (p["rig"][v["zone"]][v["program"]]["abilities"][v["ability"]]["kind"] == "paid")
    ):  # a modeled paid ability on hardware or a resource ("[trash]: Gain 3[credit].", 9.2.7)
        cost = _pay_runner_paid(ctx, v, rules, ch)
        paid_counters = v.pop("paid_counters", "")
    elif v["kind"] == "ability":
        ab = p["rig"][v.get("zone", "programs")][v["program"]]["abilities"][v["ability"]]
        cost = ab.get("cost", 0)
        if "once_per" in ab:  # "use this ability only once per ...": this use counts (9.1.6)
            run = ctx.run_frame()
            rig.mark_used(ab, v["action"], run and run.v, ctx.s.frames[0].v)
        if "counter_cost" in ab:  # "Hosted virus counter: ...": removed as part of the cost (1.16)
            zone = v.get("zone", "programs")
            cards = p["rig"][zone]
            paid_counters = _pay_counters(
                cards[v["program"]], f"runner.rig.{zone}.{card_ref(cards, v['program'])}", ab, rules, ch
            )
    elif v["kind"] == "corp_ability":
        cost = _pay_corp_ability(ctx, v, rules, ch)
    else:  # break:i
        ice = b["servers"][v["server"]]["ice"][v["pos"]]
        cost = ice.get("break_cost", 1)
    if cost:
        rules += ctx.pay(side, cost, ch)
    what = "[click]" * clicks
    if cost:
        what += (" and " if what else "") + f"{cost} credit(s)"
    if v.get("paid_counters") or paid_counters:  # a hosted counter cost (a Corp card's: `_pay_corp_ability`)
        what += (" and " if what else "") + (paid_counters or v["paid_counters"])
    ctx.ev(f"The {side.capitalize()} pays {what or 'nothing'}.", rules, ch)
    if v.get("cost_damage"):  # "suffer 1 core damage" as an additional cost: not preventable (1.16)
        return damage(ctx, "core", v.pop("cost_damage"))
    return None


def _pay_additional(b: dict, side: str, ac: dict, rules: list[str], ch: dict) -> str:
    """An operation's or event's additional cost to play it (1.16.10): its extra clicks spent
    and tags removed (the offer checked they can be paid, turns.play_blocked); the words of the
    part not said with the clicks."""
    p = b[side]
    extra = ac.get("clicks", 0)
    if extra:
        setv(p, side, "clicks", p["clicks"] - extra, ch)
    rules += ["rule_additional_cost", "rule_additonal_cost_simultaenous"]
    tags = ac.get("remove_tags", 0)
    if tags:
        setv(b["runner"], "runner", "tags", b["runner"]["tags"] - tags, ch)
        return f"the removal of {tags} tag(s) (additional cost)"
    return ""


def _cost_trash_choice(ctx: Ctx, v: dict, act: Decision, d: Decision | None) -> Any:
    """ "As an additional cost to play this event, trash 1 installed resource" (1.16.10): the
    Runner chooses the installed cards as the cost is paid, one at a time while there is a
    choice (`trash:resources.CARD`); the picks wait in the frame (`cost_trash`, rig references)
    until the whole cost is paid at once (1.16.10b). The offer checked there are enough
    (turns.play_blocked). A wait, or None once every card is chosen."""
    b = ctx.board
    hand = b[v["player"]]["hand"]
    card = hand[locate(hand, act)]
    ac = card.get("additional_cost", {})
    if not any(k in ac for k in COST_TRASH):
        return None
    picks = v.setdefault("cost_trash", [])
    if d is not None and d.kind == "trash" and d.zone in COST_TRASH.values():
        picks.append(f"{d.zone}.{d.card}")
    for key, zone in COST_TRASH.items():
        cards = b["runner"]["rig"][zone]
        refs = [f"{zone}.{r}" for r in card_refs(cards)]
        need = ac.get(key, 0) - sum(1 for r in picks if r in refs)
        left = [r for r in refs if r not in picks]
        if need > 0 and len(left) > need:
            return wait(
                [
                    dec(
                        f"trash:{r}",
                        f"Trash {cards[refs.index(r)]['name']} (the additional cost to play {card['name']})",
                        "runner",
                    )
                    for r in left
                ]
            )
        if need > 0:  # no choice left: the remaining cards are the cost
            picks.extend(left)
    return None


def _pay_cost_trash(ctx: Ctx, picks: list[str], rules: list[str], ch: dict) -> str:
    """Trash the installed cards chosen as an additional cost (1.16.10), with the rest of the
    cost: a cost, so no prevention or optional interrupt applies (1.16.1a). Their words."""
    rig_now = ctx.board["runner"]["rig"]
    targets = []
    for ref in picks:
        zone, _, cref = ref.partition(".")
        refs = card_refs(rig_now[zone])
        i = refs.index(cref)
        targets.append((zone, i, rig_now[zone][i], ref))
    moved, names = move_installed(ctx, targets, "heap")
    ch.update(moved)
    rules += ["rule_trashing", "rule_cost_no_interrupt"]
    return f"trashing {', '.join(names)} (additional cost)"


def _pay_counters(card: dict, path: str, ab: dict, rules: list[str], ch: dict) -> str:
    """Remove the hosted counters an ability's `counter_cost` names from its card (1.16: paid in
    full; the offer checked the card hosts them); the words of what was paid."""
    from .effects import set_counters

    cc = ab["counter_cost"]
    have = card.get("counters", {}).get(cc["counter"], 0)
    set_counters(card, path, cc["counter"], have - cc["amount"], ch)
    rules += ["rule_counters_cards", "rule_types_of_costs"]
    return f"{cc['amount']} hosted {cc['counter']} counter(s) from {card['name']}"


def _pay_runner_paid(ctx: Ctx, v: dict, rules: list[str], ch: dict) -> int:
    """A modeled paid ability on installed hardware or a resource: note its instructions; remove
    its hosted counters; trash the card when [trash] is part of the cost (1.16, to the heap), so
    it is no longer installed when the instructions resolve. The credit cost (paid after)."""
    b = ctx.board
    zone = v["zone"]
    cards = b["runner"]["rig"][zone]
    i = v["program"]
    card, ref = cards[i], card_ref(cards, i)
    ab = card["abilities"][v["ability"]]
    v.update(
        instructions=ab["effects"], i=0, controller="runner", source=card["name"], this_card=f"{zone}.{ref}"
    )
    if "once_per" in ab:  # "Once per turn →" (9.3.6g): this use counts
        mark_corp_used(ctx.s.frames[0].v, v["action"])
    if "counter_cost" in ab:
        v["paid_counters"] = _pay_counters(card, f"runner.rig.{zone}.{ref}", ab, rules, ch)
    if ab["trash"]:
        prevention.trash_from_rig(b, zone, i, ch)
        rules.append("rule_trashing")
    return ab["cost"]


def _pay_corp_ability(ctx: Ctx, v: dict, rules: list[str], ch: dict) -> int:
    """A Corp card's paid ability: note its instructions; trash the card first when [trash] is
    part of the cost (it was rezzed, so it goes to Archives faceup, 4.4.6b). The credit cost."""
    b = ctx.board
    d = Decision.from_id(v["action"])
    card = corp_card(b, d)
    ab = card["abilities"][d.index]
    where = d.id[len("ability:") :].rpartition(".")[0]
    v.update(instructions=ab["effects"], i=0, controller="corp", source=card["name"], this_card=where)
    if "once_per" in ab:  # "Once per turn →" (9.3.6g): this use counts
        mark_corp_used(ctx.s.frames[0].v, d.id)
    if "counter_cost" in ab:
        v["paid_counters"] = _pay_counters(card, f"servers.{where}", ab, rules, ch)
    if ab["trash"]:
        rules += prevention.trash_corp_card(b, d, ch)
    return ab["cost"]


@handles("step_paid_ability_target_first_instruction")
def _pa_target(ctx: Ctx, f: Frame, d: Decision | None) -> Any:
    v = f.v
    if v["kind"] == "ability" and "instructions" not in v:  # not a paid ability with instructions
        ab = ctx.board["runner"]["rig"][v.get("zone", "programs")][v["program"]]["abilities"][v["ability"]]
        if ab["kind"] == "break":
            return _choose_break_targets(ctx, f, ab, d)
    ctx.ev(f"{v['label']}: the instruction becomes imminent.")
    return None


def _choose_break_targets(ctx: Ctx, f: Frame, ab: dict, d: Decision | None) -> Any:
    """9.8.6: the Runner chooses unbroken subroutines as targets, one at a time: exactly
    `count` (or every unbroken one if fewer remain), or up to `count` for "break up to N"."""
    v = f.v
    targets = v.setdefault("targets", [])
    run = ctx.run_frame()
    enc = run.v["enc"]
    ice = ctx.board["servers"][v["server"]]["ice"][v["pos"]]
    if d is not None and d.kind == "sub":
        targets.append(d.index)
    free = [i for i, br in enumerate(enc["broken"]) if not br and i not in targets]
    prog = ctx.board["runner"]["rig"][v.get("zone", "programs")][v["program"]]
    allow = rig.break_allowance(ctx.board, v["server"], ice, enc, prog)
    count = ab["count"] if allow is None else min(ab["count"], allow)  # the ice's break limit
    forced = 1 if ab.get("up_to") else count
    if d is None and not targets and len(free) <= forced:
        targets.extend(free)  # no choice to make: every unbroken subroutine is a target
    elif len(targets) < count and free and (d is None or d.kind != "done"):
        texts = sub_texts(ice, enc)
        opts = [
            dec(f"sub:{i}", f"Target subroutine {i + 1} of {ice['name']} ({texts[i]})", "runner")
            for i in free
        ]
        if ab.get("up_to") and targets:
            opts.append(dec("done", f"Break only the {len(targets)} chosen subroutine(s)", "runner"))
        return wait(opts)
    chosen = sorted(targets)
    ctx.ev(
        f"{v['label']}: targets subroutine(s) {', '.join([str(i + 1) for i in chosen])} of {ice['name']}.",
        ("rule_unbroken_subroutines_target_for_break_abilities", "rule_break_subroutine"),
        objects={"server": v["server"], "ice": v["pos"], "subroutines": chosen},
    )
    return None


@handles("step_paid_ability_resolution")
def _pa_resolve(ctx: Ctx, f: Frame, d: Decision | None) -> Any:
    v = f.v
    b = ctx.board
    side = v["player"]
    p = b[side]
    if "instructions" in v:  # a Corp card's paid or [click] ability: its instructions
        return _resolve_instruction(ctx, f, d)
    if v["kind"] == "ability":  # an installed program's ability (`use:`), the usual case in a run
        return _use_ability(ctx, v, d)
    act = Decision.from_id(v["action"])
    k = act.kind
    ch: dict = {}
    if k == "credit":
        setv(p, side, "credits", p["credits"] + 1, ch)
        rid = "rule_corp_basic_action_credit" if side == "corp" else "runner_basic_action_credit"
        ctx.ev(f"The {side.capitalize()} gains 1 credit.", (rid, "rule_basic_actions"), ch)
        return None
    if k == "draw":
        rid = "rule_corp_basic_action_draw" if side == "corp" else "runner_basic_action_card"
        ctx.ev(f"The {side.capitalize()} draws 1 card.", (rid, "rule_basic_actions"))
        return call("draw", {"player": side, "count": 1})
    if k == "run":
        ctx.ev(f"The Runner runs {act.server}.", ("runner_basic_action_run", "rule_basic_actions"))
        return call("run", {"server": act.server})
    if k == "purge":
        return _purge(ctx)
    if k == "trash_resource":
        r = b["runner"]
        card = r["rig"]["resources"].pop(locate(r["rig"]["resources"], act))
        r["discard"].append(card)
        ch["runner.rig.resources"] = [len(r["rig"]["resources"]) + 1, len(r["rig"]["resources"])]
        ch["runner.discard"] = [len(r["discard"]) - 1, len(r["discard"])]
        ctx.ev(
            f"The Runner is tagged: the Corp trashes {card['name']}.",
            ("corp_basic_action_trash_resource", "rule_tagged", "rule_trashing", "rule_basic_actions"),
            ch,
            objects={"card": card["name"], "zone": "resources"},
        )
        return None
    if k == "remove_tag":
        setv(p, "runner", "tags", p["tags"] - 1, ch)
        ctx.ev("The Runner removes 1 tag.", ("runner_basic_action_remove_tag", "rule_tagged_remove_tag"), ch)
        return None
    if k == "advance":
        card = b["servers"][act.server]["content"]
        rules = ["corp_basic_action_advance", "rule_basic_actions"]
        if card.get("type") == "agenda":
            old = card.get("advancements", 0)
            card["advancements"] = old + 1
            ch[f"servers.{act.server}.content.advancements"] = [old, old + 1]
        else:  # "You can advance this asset" (1.18.3): its hosted advancement counters
            from .effects import set_counters

            old = set_counters(
                card,
                f"servers.{act.server}.content",
                "advancement",
                card.get("counters", {}).get("advancement", 0) + 1,
                ch,
            )
            rules += ["rule_advance", "rule_you_can_advance"]
        ctx.ev(
            f"The Corp advances {card['name']} ({old + 1} advancement counter(s)).",
            tuple(rules),
            ch,
        )
        return None
    if k == "play":
        rid = "rule_corp_basic_action_operation" if side == "corp" else "runner_basic_action_event"
        ctx.ev(f"The {side.capitalize()} plays {v['card']}.", (rid, "rule_basic_actions"))
        card = next(c for c in reversed(p["set_aside"]) if c["name"] == v["card"])
        return call(
            "play_ability",
            {
                "instructions": card.get("effects", []),
                "i": 0,
                "controller": side,
                "source": v["card"],
                "card": v["card"],
            },
        )
    if k == "install":
        if not triggers.again(ctx, f, "installed"):
            res = install(ctx, v, d)
            if res is not None:
                return res
        placed = v.get("placed")  # a Corp card is installed unrezzed: inactive, nothing triggers
        subject = b["runner"]["rig"][placed[0]][placed[1]] if placed else None
        return None if subject is None else triggers.fire(ctx, f, d, "installed", subject)
    if k == "break":
        i = act.index
        ice, ch, fully = break_subroutines(ctx, v, [i])
        rules = ["rule_encounter_break_paw"]
        text = f"The Runner breaks subroutine {i + 1} of {ice['name']}."
        ctx.ev(text + fully, [*rules, *(["rule_fully_break"] if fully else [])], ch)
        return None
    raise AssertionError(act.id)  # pragma: no cover


def break_subroutines(ctx: Ctx, v: dict, targets: Any) -> tuple[dict, dict, str]:
    """Mark `targets` broken on the encountered ice (9.8.6); (ice, changes, and the text to add
    when this fully breaks it (6.2.2 "fully broken"), else "")."""
    enc = ctx.run_frame().v["enc"]
    ice = ctx.board["servers"][v["server"]]["ice"][v["pos"]]
    ch = {}
    if "break_limit" in ice:  # breaks the ice's limit counts (not with the excepted subtype's programs)
        prog = ctx.board["runner"]["rig"][v.get("zone", "programs")][v["program"]] if "program" in v else None
        if rig.break_allowance(ctx.board, v["server"], ice, enc, prog) is not None:
            enc["limited"] = enc.get("limited", 0) + len(targets)
    for i in sorted(targets):
        enc["broken"][i] = True
        ch[f"servers.{v['server']}.ice[{v['pos']}].subroutines[{i}].broken"] = [False, True]
    fully = ""
    if all(enc["broken"]) and not enc["fully"]:
        enc["fully"] = True
        fully = f" All its subroutines are broken: {ice['name']} is fully broken."
    return ice, ch, fully


def _use_ability(ctx: Ctx, v: dict, d: Decision | None = None) -> Any:
    b = ctx.board
    prog = b["runner"]["rig"][v.get("zone", "programs")][v["program"]]
    ab = prog["abilities"][v["ability"]]
    objs = {"program": v["program"], "card": prog["name"], "ability": v["ability"]}
    if ab.get("only_if"):
        ctx.ev(
            f"{prog['name']}: the Runner uses the ability, confirming its condition: {ab['only_if']}",
            ("rule_card_precedence",),
            objects={**objs, "only_if": ab["only_if"]},
        )
    if ab["kind"] == "text":
        # resolved by hand: the judge says so, with the state they set if anything changed
        # (`resolved:runner.credits=3`, engine.effects.resolve_by_hand)
        if d is None:
            return wait(
                [dec("resolved", f"Resolved as written (by hand): {prog['name']}: {ab['text']}", "runner")]
            )
        if d.card:
            return resolve_by_hand(ctx, {"text": ab["text"]}, prog["name"], d.card)
        ctx.ev(
            f"{prog['name']}: resolved as written by the judge, outside the engine: {ab['text']}",
            ("rule_paid_ability",),
            applied=False,
            objects=objs,
        )
        return None
    if ab["kind"] == "strength":
        old = rig.strength(prog)
        lasts = ab.get("lasts", "encounter")
        rig.add_boost(prog, ab["amount"], lasts)
        rules: tuple[str, ...] = (
            "rule_icebreaker_strength_increase_implicit",
            "rule_icebreaker_strength_increase_implicit_link",
        )
        if lasts != "encounter":  # the card says how long (3.9.5c)
            rules = ("rule_icebreaker_strength_increase_specified",)
        ctx.ev(
            f"{prog['name']} gets +{ab['amount']} strength for the remainder of the {lasts} "
            f"({old} -> {rig.strength(prog)}).",
            rules,
            {f"runner.rig.programs[{v['program']}].strength": [old, rig.strength(prog)]},
            objects=objs if lasts == "encounter" else {**objs, "lasts": lasts},
        )
        return None
    chosen = sorted(v.get("targets", ()))
    ice, ch, fully = break_subroutines(ctx, v, chosen)
    broke = ["rule_encounter_break_paw", "rule_break_subroutine", "rule_icebreaker_interface_strength"]
    if ab.get("ice_subtype"):
        broke.append("rule_icebreaker_interface_subtype")
    if fully:
        broke.append("rule_fully_break")
    subs = ", ".join([str(i + 1) for i in chosen])
    text = f"{prog['name']} (strength {rig.strength(prog)}) breaks subroutine(s) {subs} of {ice['name']} (strength {ice.get('strength', 0)})."
    objs["server"] = v["server"]
    objs["ice"] = v["pos"]
    objs["subroutines"] = chosen
    ctx.ev(text + fully, broke, ch, objects=objs)
    return None


_pa_next_instruction = _loop("step_paid_ability_interrupt_window")  # 9.5.7g: "return to (d)"


@handles("step_paid_ability_loop")
def _pa_loop(ctx: Ctx, f: Frame, d: Decision | None) -> Any:
    if "instructions" in f.v:  # a Corp card's paid ability: its instructions, one at a time
        return _pa_next_instruction(ctx, f, d)
    ctx.ev("The ability has no more instructions to resolve.")
    return None


handles("step_paid_ability_complete")(complete("Resolution of the paid ability is complete."))


def _purge(ctx: Ctx) -> Any:
    """5.2.6h, 10.1.2: every virus counter hosted on any card returns to the bank."""
    b = ctx.board
    ch: dict = {}
    purged: dict[str, int] = {}
    cards = [c for zone in b["runner"]["rig"].values() for c in zone]
    for srv in b["servers"].values():
        cards += [*srv["ice"], *srv["root"], *([srv["content"]] if srv.get("content") else [])]
    for c in cards:
        n = c.get("counters", {}).get("virus", 0)
        if n:
            del c["counters"]["virus"]
            purged[c["name"]] = purged.get(c["name"], 0) + n
    total = sum(purged.values())
    if total:
        ch["virus_counters"] = [total, 0]
        text = (
            "The Corp purges virus counters: "
            + ", ".join(f"{n} from {name}" for name, n in purged.items())
            + "."
        )
    else:
        text = "The Corp purges virus counters: there are none on any card."
    ctx.ev(
        text,
        ("corp_basic_action_purge_virus_counters", "rule_purge", "rule_basic_actions"),
        ch,
        applied=bool(total),
        objects={"cards": list(purged), "counters": total},
    )
    return None
