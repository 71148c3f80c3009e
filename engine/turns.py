"""Turns (5.6 Corp, 5.7 Runner): clicks, actions, installs, discard."""

from __future__ import annotations

from typing import Any

from . import recurring, rig, triggers
from .board import COST_TRASH, RIG_TYPE, memory_limit, memory_used
from .decision import Decision, card_ref, locate
from .effects import win
from .locations import advanceable
from .machine import (
    END,
    STAY,
    Ctx,
    Frame,
    Handler,
    call,
    dec,
    goto,
    handles,
    loop_back,
    max_hand,
    opponent,
    setv,
    wait,
)
from .restrictions import restriction_unmet
from .run import paw_rez_nonice
from .windows import corp_click_abilities, corp_used, paw, runner_click_abilities


def _gain_clicks(side: str) -> Handler:
    def h(ctx: Ctx, f: Frame, d: Decision | None) -> Any:
        p = ctx.board[side]
        ch: dict = {}
        if ctx.board["turn"] != side:
            ch["turn"] = [ctx.board["turn"], side]
            ctx.board["turn"] = side
        setv(p, side, "clicks", p["clicks"] + p["allotted_clicks"], ch)
        ctx.ev(
            f"The {side.capitalize()} gains {p['allotted_clicks']} allotted [click].",
            ("rule_allotted_clicks",),
            ch,
        )
        return None

    return h


handles("step_corp_turn_allotted_clicks")(_gain_clicks("corp"))
handles("step_runner_turn_allotted_clicks")(_gain_clicks("runner"))


@handles("step_corp_turn_draw_phase_paw", "step_corp_turn_action_phase_paw")
def _corp_paw_rs(ctx: Ctx, f: Frame, d: Decision | None) -> Any:
    return paw(ctx, f, d, score_ok=True)


handles(
    "step_corp_turn_discard_phase_paw",
    "step_runner_turn_action_phase_paw",
    "step_runner_turn_loop_paw",
    "step_runner_turn_discard_phase_paw",
)(paw_rez_nonice)


@handles("step_corp_turn_mandatory_draw")
def _mandatory_draw(ctx: Ctx, f: Frame, d: Decision | None) -> Any:
    ctx.ev("The Corp performs their mandatory draw.", ("rule_mandatory_draw",))
    return call("draw", {"player": "corp", "count": 1})


def play_blocked(b: dict, side: str, card: dict, credits: int) -> tuple[str, str] | None:
    """Why `side` cannot play the operation or event `card` from its hand now, as (reason, rule
    id), or None when it can: the one test behind the play action offered (`_actions`) and refused
    (engine.refusals). Every part of the cost is paid at once (1.16.10b): the action's [click]
    plus the `additional_cost` clicks, the play cost, and the tags the additional cost removes;
    a "Play only if ..." restriction not met (`restrictions.restriction_unmet`, 9.3.3b) first."""
    why = restriction_unmet(b, card)
    if why is not None:
        return why, "rule_act_restriction"
    p = b[side]
    ac = card.get("additional_cost", {})
    clicks = 1 + ac.get("clicks", 0)
    name, who = card["name"], side.capitalize()
    if p["clicks"] < clicks:
        return (
            f"playing {name} costs {'[click]' * clicks} (with its additional cost); the {who} has "
            f"{p['clicks']} [click] left",
            "rule_additional_cost",
        )
    if card.get("play_cost", 0) > credits:
        return (
            f"playing {name} costs {card.get('play_cost', 0)} credits; the {who} has {credits}",
            "rule_cost",
        )
    tags = ac.get("remove_tags", 0)
    if tags > b["runner"]["tags"]:
        return (
            f"playing {name} has the additional cost of removing {tags} tag(s); the Runner has "
            f"{b['runner']['tags']}",
            "rule_additional_cost",
        )
    for key, zone in COST_TRASH.items():  # installed cards to trash as the cost, all of them (1.16.10)
        have = len(b["runner"]["rig"][zone])
        if ac.get(key, 0) > have:
            return (
                f"playing {name} has the additional cost of trashing {ac[key]} installed "
                f"{RIG_TYPE[zone]}(s); the Runner has {have}",
                "rule_additional_cost",
            )
    return None


def _actions(ctx: Ctx, side: str) -> list[dict]:
    b = ctx.board
    p = b[side]
    credits = p["credits"] + recurring.hosted_credits(b, side)  # recurring credits pay too (1.10.3c)
    opts = [dec("credit", "[click]: Gain 1 credit", side)]
    if p["deck"]:
        opts.append(dec("draw", "[click]: Draw 1 card", side))
    ptype = "operation" if side == "corp" else "event"
    hand = p["hand"]
    for i, c in enumerate(hand):
        if c.get("type") == ptype and play_blocked(b, side, c, credits) is None:
            opts.append(
                dec(
                    f"play:{card_ref(hand, i)}",
                    f"[click]: Play {c['name']} ({c.get('play_cost', 0)} credits)",
                    side,
                )
            )
    opts += _install_options(b, side)
    if side == "corp":
        if p["clicks"] >= 3:
            opts.append(dec("purge", "[click][click][click]: Purge virus counters", side))
        if b["runner"]["tags"] and credits >= 2:
            resources = b["runner"]["rig"]["resources"]
            for i, c in enumerate(resources):
                opts.append(
                    dec(
                        f"trash_resource:{card_ref(resources, i)}",
                        f"[click], 2 credits: Trash {c['name']} (the Runner is tagged)",
                        side,
                    )
                )
        if "corp_abilities" in ctx.s.kinds:
            opts += corp_click_abilities(b, credits, corp_used(ctx.s.frames[0].v))
        if credits >= 1:
            for name, srv in b["servers"].items():
                c = srv.get("content")
                if advanceable(c):
                    opts.append(
                        dec(f"advance:{name}", f"[click], 1 credit: Advance {c['name']} in {name}", side)
                    )
    else:
        for name in b["servers"]:
            opts.append(dec(f"run:{name}", f"[click]: Run {name}", side))
        if p["tags"] and credits >= 2:
            opts.append(dec("remove_tag", "[click], 2 credits: Remove 1 tag", side))
        opts += runner_click_abilities(b, credits, corp_used(ctx.s.frames[0].v))  # 5.2.1
    return opts


def new_remote(b: dict, avoid: tuple[str, ...] = ()) -> str:
    """The name of a new remote server: the lowest number not in use (nor in `avoid`)."""
    used = {int(n[6:]) for n in (*b["servers"], *avoid) if n.startswith("remote")}
    return f"remote{next(i for i in range(1, 100) if i not in used)}"


def _install_options(b: dict, side: str) -> list[dict]:
    """The install basic actions (5.2.6d, 5.2.7d) for the cards in HQ / the grip."""
    p = b[side]
    credits = p["credits"] + recurring.hosted_credits(b, side)
    out = []
    hand = p["hand"]
    if side == "runner":
        r = p
        for i, c in enumerate(hand):
            t = c.get("type")
            if t not in ("program", "hardware", "resource"):
                continue
            cost = c.get("install_cost", 0)
            if cost > credits or (t == "program" and c.get("memory_cost", 0) > memory_limit(r)):
                continue
            out.append(
                dec(f"install:{card_ref(hand, i)}", f"[click]: Install {c['name']} ({cost} credits)", side)
            )
        return out
    for i, c in enumerate(hand):
        ref = card_ref(hand, i)
        for where, place, cost in corp_install_targets(b, c, credits):
            what = (
                f"{place} ({cost} credits: {cost} ice already protect it)"
                if c.get("type") == "ice"
                else place
            )
            out.append(dec(f"install:{ref}@{where}", f"[click]: Install {c['name']} {what}", side))
    return out


def corp_install_targets(
    b: dict, card: dict, credits: int, ignore_costs: bool = False
) -> list[tuple[str, str, int]]:
    """Where the Corp can install `card` now, as (server or "new", the words, the install cost):
    ice protecting any server or a new remote, at one credit per ice already protecting it
    (1.16.6b, 8.5.11a), only where `credits` pay it (none with `ignore_costs`, 1.16.5c); agendas
    and assets in an empty remote or a new one; upgrades in any root (8.5.16). The basic action
    (`_install_options`) and the install effect (engine.effects "install") offer the same."""
    servers = b["servers"]
    new = new_remote(b) if len([n for n in servers if n.startswith("remote")]) < 30 else None
    t = card.get("type")
    out: list[tuple[str, str, int]] = []
    if t == "ice":
        for name, srv in [*servers.items(), *([(new, {"ice": []})] if new else [])]:
            cost = 0 if ignore_costs else len(srv["ice"])
            if cost <= credits:
                out.append(
                    (
                        "new" if name == new else name,
                        f"protecting {'a new remote server' if name == new else name}",
                        cost,
                    )
                )
    elif t in ("agenda", "asset"):
        for name, srv in servers.items():
            if name.startswith("remote") and srv.get("content") is None:
                out.append((name, f"in {name}", 0))
        if new:
            out.append(("new", "in a new remote server", 0))
    elif t == "upgrade":
        for name in [*servers, *([new] if new else [])]:
            where = "the root of a new remote server" if name == new else f"the root of {name}"
            out.append(("new" if name == new else name, f"in {where}", 0))
    return out


def install(ctx: Ctx, v: dict, d: Decision | None) -> Any:
    """Resolve an install action: place the card (paid for at the cost step)."""
    b = ctx.board
    side = v["player"]
    p = b[side]
    ch: dict = {}
    if side == "runner":
        card = p["set_aside"][-1]
        t = card["type"]
        r = p
        if t == "program" and not v.get("trashed"):
            # 8.5.16c / 8.5.6c: the Runner may first trash any number of installed programs, and
            # must while the new one would exceed the memory limit
            progs = r["rig"]["programs"]
            over = memory_used(r["rig"]) + card.get("memory_cost", 0) - memory_limit(r)
            if d is not None and d.kind == "trash":
                gone = progs.pop(locate(progs, d))
                rig.forget_boosts(gone)
                r["discard"].append(gone)
                ch["runner.rig.programs"] = [len(progs) + 1, len(progs)]
                why = "To stay within the memory limit, the" if over > 0 else "Before installing, the"
                ctx.ev(
                    f"{why} Runner trashes {gone['name']}.",
                    ("rule_install_trash_programs", "rule_steps_installing_trash_like_cards")
                    + (("rule_program_install_exceed_memory_limit",) if over > 0 else ()),
                    ch,
                    objects={"card": gone["name"]},
                )
                ch = {}
                over = memory_used(r["rig"]) + card.get("memory_cost", 0) - memory_limit(r)
            elif d is not None and d.kind == "done":
                v["trashed"] = True
            if progs and not v.get("trashed"):
                opts = [
                    dec(
                        f"trash:{card_ref(progs, j)}",
                        f"Trash {c['name']} ({c.get('memory_cost', 0)} [mu])"
                        + (" to make room" if over > 0 else " before installing"),
                        "runner",
                    )
                    for j, c in enumerate(progs)
                ]
                if over <= 0:
                    opts.append(dec("done", f"Trash no (more) programs: install {card['name']}", "runner"))
                return wait(opts)
            v["trashed"] = True
        if not _pay_install(ctx, v, side, card.get("install_cost", 0), card, ch):
            return None
        zone = {"program": "programs", "hardware": "hardware", "resource": "resources"}[t]
        p["set_aside"].pop()
        r["rig"][zone].append(card)
        if card.get("recurring"):  # recurring credits are placed as the card becomes active (1.10.5b)
            recurring.place(card, f"runner.rig.{zone}[{len(r['rig'][zone]) - 1}]", ch)
        ch[f"runner.rig.{zone}"] = [len(r["rig"][zone]) - 1, len(r["rig"][zone])]
        rules = ["runner_basic_action_install", "rule_installing", "rule_install_cost"]
        text = f"The Runner installs {card['name']}."
        if t == "program":
            rules += ["rule_program_memory_cost", "rule_memory_limit"]
            text += f" Memory: {memory_used(r['rig'])} of {memory_limit(r)} [mu] used."
        ctx.ev(text, rules, ch, objects={"card": card["name"], "zone": zone})
        v["placed"] = [zone, len(r["rig"][zone]) - 1]  # for its "when installed" abilities
        return None
    card = p["set_aside"][-1]
    server = v["server"]
    srv_now = b["servers"].get(server)
    cost = len(srv_now["ice"]) if card["type"] == "ice" and srv_now else 0
    if v.get("ignore_costs"):  # "install ..., ignoring all costs" (1.16.5c)
        cost = 0
    if not _pay_install(ctx, v, side, cost, card, ch):
        return None
    p["set_aside"].pop()
    if server not in b["servers"]:
        b["servers"][server] = {"ice": [], "root": [], "content": None}
        ch["servers"] = [None, server]
    srv = b["servers"][server]
    card["rezzed"] = False
    rules = [
        *(() if v.get("by_effect") else ("rule_corp_basic_action_install",)),  # an effect's install
        "rule_installing",
        "rule_corp_install_choose_destination_server",
    ]
    if card["type"] == "ice":
        srv["ice"].insert(0, card)  # the outermost position (4.6.9d)
        card.setdefault("rez_cost", 0)
        card.setdefault("subroutines", [])
        card.setdefault("subtypes", [])
        card.setdefault("strength", 0)
        where = f"protecting {server}, outermost (ice {len(srv['ice'])} of {len(srv['ice'])} counting inward from the server: position 1 of {len(srv['ice'])})"
        rules += ["rule_ice_install_outermost", "rule_install_cost_ice", "rule_install_cost_link"]
        ch[f"servers.{server}.ice"] = [len(srv["ice"]) - 1, len(srv["ice"])]
    elif card["type"] == "upgrade":
        srv["root"].append(card)
        where = f"in the root of {server}"
        rules += ["rule_upgrade_install", "rule_no_install_cost"]
        ch[f"servers.{server}.root"] = [len(srv["root"]) - 1, len(srv["root"])]
    else:
        srv["content"] = card
        where = f"in {server}"
        rules += [
            "rule_agendas_in_roots" if card["type"] == "agenda" else "rule_asset_root_remote",
            "rule_no_install_cost",
        ]
        ch[f"servers.{server}.content"] = [None, card["name"]]
    ctx.ev(
        f"The Corp installs {card['name']} {where}, unrezzed.",
        rules,
        ch,
        objects={"card": card["name"], "server": server},
    )
    return None


def _pay_install(ctx: Ctx, v: dict, side: str, cost: int, card: dict, ch: dict) -> bool:
    """8.5.16d: pay the install cost, after like cards are trashed. A player who cannot pay it
    does not install the card (1.16.4b): it returns to where it came from. False then."""
    if v.get("paid") or not cost:
        v["paid"] = True
        return True
    p = ctx.board[side]
    have = ctx.spendable(side)
    if have < cost:
        p["set_aside"].pop()
        p["hand"].append(card)
        ctx.ev(
            f"The {side.capitalize()} cannot pay the install cost of {card['name']} ({cost} credit(s), "
            f"{have} available): it is not installed and returns to "
            + ("HQ." if side == "corp" else "the grip."),
            ("rule_steps_installing_pay_install_cost", "rule_inherent_cost_in_ability"),
            {f"{side}.hand": [len(p["hand"]) - 1, len(p["hand"])]},
            applied=False,
            objects={"card": card["name"], "cost": cost},
        )
        return False
    pay: dict = {}
    rules = ["rule_steps_installing_pay_install_cost", "rule_install_cost", *ctx.pay(side, cost, pay)]
    ctx.ev(
        f"The {side.capitalize()} pays the install cost of {card['name']}: {cost} credit(s).",
        rules,
        pay,
        objects={"card": card["name"], "cost": cost},
    )
    v["paid"] = True
    return True


def _take_action(side: str, end_ids: tuple[str, ...]) -> Handler:
    def h(ctx: Ctx, f: Frame, d: Decision | None) -> Any:
        p = ctx.board[side]
        if p["clicks"] <= 0:
            ctx.ev(
                f"The {side.capitalize()} has no unspent [click]: the action phase moves on.",
                ("rule_action_phase_duration",),
            )
            return goto(*end_ids)
        opts = _actions(ctx, side)
        if d is None:
            return wait(opts)
        label = next(o["label"] for o in opts if o["id"] == d.id)
        ctx.ev(
            f"The {side.capitalize()} takes an action: {label}.",
            ("rule_initiate_action", "rule_action")  # a [click] ability on a card (9.5.2a)
            if d.kind in ("ability", "use")
            else ("rule_initiate_action", "rule_basic_actions"),
            objects={"card": label.partition(":")[0]} if d.kind in ("ability", "use") else None,
        )
        return call("paid_ability", {"kind": "action", "player": side, "action": d.id, "label": label})

    return h


handles("step_corp_turn_action")(
    _take_action("corp", ("step_corp_turn_action_phase_end", "step_corp_turn_action_phase_complete"))
)
handles("step_runner_turn_action")(
    _take_action("runner", ("step_runner_turn_action_phase_end", "step_runner_turn_action_phase_complete"))
)


handles("step_corp_turn_action_phase_loop")(
    loop_back("Return to the action phase's paid ability window.", "step_corp_turn_action_phase_paw")
)
handles("step_runner_turn_action_loop")(
    loop_back("Return to the action phase's paid ability window.", "step_runner_turn_loop_paw")
)


def _discard(side: str) -> Handler:
    def h(ctx: Ctx, f: Frame, d: Decision | None) -> Any:
        b = ctx.board
        p = b[side]
        limit = max_hand(b, side)
        if side == "runner" and limit < 0 and d is None:
            return win(
                ctx,
                "corp",
                "The Runner's maximum hand size is below 0 at the discard step",
                ["rule_flatline", "rule_maximum_hand_size"],
            )
        if d is not None:
            card = p["hand"].pop(locate(p["hand"], d))
            p["discard"].append(card)
            ch = {f"{side}.hand": [len(p["hand"]) + 1, len(p["hand"])]}
            ctx.ev(
                f"The {side.capitalize()} discards {card['name']}.",
                ("rule_maximum_hand_size", "rule_discard_phase_discarding"),
                ch,
            )
            return STAY
        if len(p["hand"]) > limit:
            hand = p["hand"]
            return wait(
                [
                    dec(f"discard:{card_ref(hand, i)}", f"Discard {c['name']}", side)
                    for i, c in enumerate(hand)
                ]
            )
        ctx.ev(
            f"The {side.capitalize()} holds {len(p['hand'])} card(s), within the maximum hand size of {limit}.",
            ("rule_maximum_hand_size",),
        )
        return None

    return h


handles("step_corp_turn_discard")(_discard("corp"))
handles("step_runner_turn_discard")(_discard("runner"))


def _lose_clicks(side: str) -> Handler:
    def h(ctx: Ctx, f: Frame, d: Decision | None) -> Any:
        p = ctx.board[side]
        ch: dict = {}
        n = p["clicks"]
        setv(p, side, "clicks", 0, ch)
        ctx.ev(
            f"The {side.capitalize()} loses {n} unspent [click]."
            if n
            else f"The {side.capitalize()} has no unspent [click].",
            ("rule_gain_spend_lose_clicks",),
            ch,
        )
        return None

    return h


handles("step_corp_turn_lose_unspent_clicks")(_lose_clicks("corp"))
handles("step_runner_turn_lose_unspent_clicks")(_lose_clicks("runner"))


def _turn_complete(side: str) -> Handler:
    def h(ctx: Ctx, f: Frame, d: Decision | None) -> Any:
        other = opponent(side)
        ch = {"turn": [side, other]}
        ctx.board["turn"] = other
        text = (
            f"The {side.capitalize()}'s turn is complete; play proceeds to the {other.capitalize()}'s turn."
        )
        rules: tuple[str, ...] = ("rule_begin_end_turn_step",)
        ctx.s.frames[0].v.pop("once_used", None)  # once-per-turn uses (9.3.6g) end with the turn
        ctx.s.frames[0].v.pop("seen_this_turn", None)  # and "the first time each turn" (prevention)
        ctx.s.frames[0].v.pop("happened", None)  # (triggers.happened)
        if rig.clear_boosts(ctx.board, "turn"):  # "for the remainder of the turn" expires
            text += " Strength added for the remainder of the turn ends."
            rules = ("rule_begin_end_turn_step", "rule_lingering_effect")
        ctx.ev(text, rules, ch)
        return END

    return h


handles("step_corp_turn_complete")(_turn_complete("corp"))
handles("step_runner_turn_complete")(_turn_complete("runner"))


def _refill(side: str) -> Handler:
    def h(ctx: Ctx, f: Frame, d: Decision | None) -> Any:
        ch: dict = {}
        names = [
            c["name"] for path, c in recurring.active_cards(ctx.board, side) if recurring.place(c, path, ch)
        ]
        who = side.capitalize()
        if names:
            ctx.ev(
                f"The {who}'s recurring credits refill: {', '.join(names)}.",
                (
                    "rule_sec_recurring",
                    "rule_refill_recurring_credits",
                    "rule_recurring_credits_do_not_accumulate",
                ),
                ch,
                objects={"cards": names},
            )
        else:
            ctx.ev(
                f"The {who} has no recurring credits to refill.",
                ("rule_sec_recurring", "rule_refill_recurring_credits"),
                applied=False,
            )
        return None

    return h


handles("step_corp_turn_recurring_credits_refill")(_refill("corp"))
handles("step_runner_turn_recurring_credits_refill")(_refill("runner"))


def _turn_edge(text: str, when: str):
    """A turn formally beginning or ending (5.6.1d, 5.6.3d, 5.7.1d, 5.7.2d): its conditions are
    met, so the active player's "when your turn begins / ends" abilities become pending and
    resolve in a reaction window (9.6.14, engine.triggers)."""

    def h(ctx: Ctx, f: Frame, d: Decision | None) -> Any:
        if not triggers.again(ctx, f, when):
            ctx.ev(text, ("rule_begin_end_turn_step",), applied=False)
        return triggers.fire(ctx, f, d, when)

    return h


handles("step_corp_turn_turn_formal_begin")(_turn_edge("The Corp's turn formally begins.", "turn_begins"))
handles("step_runner_turn_recurring_formal_begin")(
    _turn_edge("The Runner's turn formally begins.", "turn_begins")
)
handles("step_corp_turn_formal_end")(_turn_edge("The Corp's turn formally ends.", "turn_ends"))
handles("step_runner_turn_formal_end")(_turn_edge("The Runner's turn formally ends.", "turn_ends"))
