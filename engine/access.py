"""Breaching a server (7.5) and accessing a card (7.2), with the candidates of 7.4."""

from __future__ import annotations

from typing import Any

from . import triggers
from .decision import Decision, card_ref, locate, slug
from .locations import access_key, candidates, clear_access_marks, get_card, take_card
from .machine import (
    END,
    Ctx,
    Frame,
    call,
    checkpoint,
    dec,
    goto,
    handles,
    loop_back,
    score,
    wait,
)
from .windows import mid_access_abilities, use_ability


def _resolve_pick(ctx: Ctx, v: dict) -> list | None:
    """Turn a candidate key into a card location (HQ picks at random, seeded)."""
    key, server = v["pick"], v["server"]
    b = ctx.board
    if key == "hq":
        idx = [i for i, c in enumerate(b["corp"]["hand"]) if not c.get("accessed")]
        return ["hand", idx[ctx.rand(len(idx))]]
    for k, _label, ref in candidates(b, server, random_left=True):
        if k == key:
            return ref
    return None


@handles("step_card_accessed")
def _access_card(ctx: Ctx, f: Frame, d: Decision | None) -> Any:
    v = f.v
    if triggers.again(ctx, f, "accessed"):  # resolving what became pending with the access
        return triggers.fire(ctx, f, d, "accessed")
    if "ref" not in v:
        v["ref"] = _resolve_pick(ctx, v)
    card = get_card(ctx.board, v["ref"])
    if card is None:
        ctx.ev("The chosen card is no longer there; nothing is accessed.", ("rule_moved_while_accessing",))
        return goto("step_access_complete")
    card["accessed"] = True
    where = {"hand": "HQ", "deck": "R&D", "discard": "Archives"}.get(v["ref"][0], v["server"])
    ctx.s.result["accessed"].append(card["name"])
    ctx.ev(
        f"The Runner accesses {card['name']} ({where}).",
        ("rule_accessing", "rule_accessing_who_can_look"),
        {"accessed": [None, card["name"]]},
    )
    origin = {"hand": "hq", "deck": "rd", "discard": "archives"}.get(v["ref"][0], "installed")
    if origin == "rd" and card.get("reveal_in_rd"):
        ctx.ev(
            f"{card['name']}: while accessing it in R&D the Runner must reveal it, showing it to both "
            "players before the access goes on.",
            ("rule_reveal", "rule_look_reveal_expose_access_distinct"),
            objects={"card": card["name"], "revealed": True},
        )
    own = []
    if card.get("on_access"):
        own.append(
            {
                "side": "corp",
                "source": card["name"],
                "effects": card["on_access"],
                "key": f"accessed.{slug(card['name'])}.0",
                "vars": {"accessed_from": origin},
            }
        )
    if "triggers" in ctx.s.kinds:
        unmet: list[str] = []
        if triggers.pending(ctx.board, "accessed", card, triggers.facts(ctx, f, "accessed", card), unmet):
            # "whenever you access a card" abilities meet their condition with the card's own
            # "when accessed" ability: all are pending together, ordered in the reaction window
            return triggers.fire(ctx, f, None, "accessed", card, own)
        triggers.not_met(ctx, "accessed", unmet)
    if own:
        return call(
            "conditional_ability",
            {
                "instructions": card["on_access"],
                "i": 0,
                "controller": "corp",
                "source": card["name"],
                "why": "when accessed",
                "accessed_from": origin,
            },
        )
    return None


@handles("step_mid_access_ability")
def _mid_access(ctx: Ctx, f: Frame, d: Decision | None) -> Any:
    v = f.v
    if triggers.again(ctx, f, "trashed"):  # resolving the trashed card's "when the Runner trashes this"
        res = triggers.fire(ctx, f, d, "trashed")
        return goto("step_access_complete") if res is None else res
    b = ctx.board
    card = get_card(b, v["ref"])
    if card is None:
        ctx.ev("The card left its location: the access ends.", ("rule_moved_while_accessing",))
        return goto("step_access_complete")
    cost = card.get("trash_cost")
    mids = mid_access_abilities(b)  # "Access →" abilities the engine does not model (by hand)
    if d is not None and d.kind == "use":
        return use_ability(b, d)
    payable = cost is not None and v["ref"][0] != "discard"
    if not payable and not mids:
        if cost is None:
            ctx.ev(
                f"{card['name']} has no trash cost; the Runner uses no mid-access ability.",
                ("rule_mid_access_ability_opportunity", "rule_paying_trash_costs"),
            )
        else:
            ctx.ev(
                f"{card['name']} is in Archives: the Runner cannot pay its trash cost.",
                ("rule_mid_access_ability_opportunity", "rule_trash_in_archives"),
            )
        return None
    if d is None:
        opts = list(mids)
        if payable and ctx.spendable("runner") >= cost:
            opts.append(dec("pay_trash", f"Pay {cost} credit(s) to trash {card['name']}", "runner"))
        opts.append(
            dec(
                "no_trash",
                f"Do not trash {card['name']}" if payable else "Use no (more) mid-access ability",
                "runner",
            )
        )
        return wait(opts)
    if d.kind == "no_trash":
        ctx.ev(f"The Runner does not pay to trash {card['name']}.", ("rule_mid_access_ability_opportunity",))
        return None
    ch: dict = {}
    rules = ctx.pay("runner", cost, ch)
    take_card(b, v["ref"])
    card.pop("accessed", None)
    card["faceup"] = True
    b["corp"]["discard"].append(card)
    ch["corp.discard"] = [len(b["corp"]["discard"]) - 1, len(b["corp"]["discard"])]
    ctx.s.result["trashed"].append(card["name"])
    ctx.ev(
        f"The Runner pays {cost} credit(s) and trashes {card['name']}.",
        ["rule_basic_trash_ability", "rule_access_trash", "rule_trashing", *rules],
        ch,
    )
    own = [
        triggers.instance("corp", card, tr, f"accessed.{slug(card['name'])}.{t}")
        for t, tr in enumerate(card.get("triggers", ()))
        if tr["when"] == "trashed"
    ]
    if not own:
        return call("checkpoint", {}, "step_access_complete")
    # "When the Runner trashes this asset, ..." (9.1.8b: active in Archives, rezzed or not):
    # pending once the card is trashed; a checkpoint, then the reaction window resolves it
    triggers.mark(ctx, f, "trashed", card, own)
    step = ctx.step
    checkpoint(ctx)
    ctx.step = step
    if ctx.s.finished:
        return None
    res = triggers.fire(ctx, f, None, "trashed")
    return goto("step_access_complete") if res is None else res


def _steal(ctx: Ctx, f: Frame, card: dict, extra: list[str]) -> Any:
    """The Runner steals `card`; "when stolen" abilities (the agenda's own and every active
    card's "whenever you steal an agenda") become pending, a checkpoint occurs (which may end the
    game), then the reaction window resolves them."""
    b = ctx.board
    take_card(b, f.v["ref"])
    card.pop("accessed", None)
    adv = card.pop("advancements", None)
    card["faceup"] = True
    b["runner"]["score_area"].append(card)
    ctx.s.result["stolen"].append(card["name"])
    pts = card.get("agenda_points", 0)
    ch = {"runner.score": [score(b, "runner") - pts, score(b, "runner")]}
    if adv:
        ch["advancements"] = [adv, 0]
    ctx.ev(
        f"The Runner steals {card['name']} ({pts} agenda point(s)).",
        [
            "rule_after_mid_access_agenda",
            "rule_score_steal",
            "rule_decline_to_steal",
            "rule_score_area_faceup",
            "rule_score_area_uninstalled",
            *extra,
        ],
        ch,
        objects={"card": card["name"]},
    )
    own, skipped = [], []
    if "triggers" in card:
        known = triggers.facts(ctx, f, "stolen", card)
        for t, tr in enumerate(card["triggers"]):
            if tr["when"] == "stolen":
                key = f"accessed.{slug(card['name'])}.{t}"
                if triggers.meets(tr, known):
                    own.append(triggers.instance("corp", card, tr, key))
                else:
                    skipped.append(key)
    if not own and "triggers" not in ctx.s.kinds:
        return call("checkpoint", {})
    marked = triggers.mark(ctx, f, "stolen", card, own, skipped)
    step = ctx.step
    checkpoint(ctx)  # before the reaction window: 7 agenda points end the game here (10.3.1c)
    ctx.step = step
    if ctx.s.finished or not marked:
        return None
    return triggers.fire(ctx, f, None, "stolen")


@handles("step_access_agenda")
def _access_agenda(ctx: Ctx, f: Frame, d: Decision | None) -> Any:
    v = f.v
    if triggers.again(ctx, f, "stolen"):  # resolving what became pending with the steal
        return triggers.fire(ctx, f, d, "stolen")
    card = get_card(ctx.board, v["ref"])
    if card is None or card.get("type") != "agenda":
        ctx.ev(
            "The accessed card is not an agenda; there is nothing to steal.",
            ("rule_after_mid_access_agenda",),
        )
        return None
    cost = card.get("steal_cost", 0)
    if not cost:
        return _steal(ctx, f, card, [])
    if d is None:
        opts = []
        if ctx.spendable("runner") >= cost:
            opts.append(dec("steal", f"Pay {cost} credit(s) to steal {card['name']}", "runner"))
        opts.append(dec("decline_steal", f"Decline to pay; do not steal {card['name']}", "runner"))
        return wait(opts)
    if d.kind == "decline_steal":
        ctx.ev(
            f"The Runner declines the additional cost and does not steal {card['name']}.",
            ("rule_decline_to_steal", "rule_agenda_additional_cost"),
        )
        return None
    ch: dict = {}
    rules = ctx.pay("runner", cost, ch)
    ctx.ev(
        f"The Runner pays the additional cost of {cost} credit(s) to steal.",
        ["rule_agenda_additional_cost", *rules],
        ch,
    )
    return _steal(ctx, f, card, ["rule_agenda_additional_cost"])


@handles("step_access_complete")
def _access_complete(ctx: Ctx, f: Frame, d: Decision | None) -> Any:
    ctx.ev("The access is complete.", ("rule_accessing",))
    if not any(fr.s == "breach" for fr in ctx.s.frames):
        clear_access_marks(ctx.board)
    return END


# ----- breaching a server (7.5) -----------------------------------------------------------------


@handles("step_breaching_begins")
def _breach_begins(ctx: Ctx, f: Frame, d: Decision | None) -> Any:
    f.v.setdefault("taken", 0)
    f.v.setdefault("limit", None)
    ctx.ev(f"The Runner begins breaching {f.v['server']}.", ("rule_breaching_servers",))
    return None


@handles("step_flip_archives")
def _flip_archives(ctx: Ctx, f: Frame, d: Decision | None) -> Any:
    if f.v["server"] != "archives":
        ctx.ev("The breached server is not Archives; no cards are turned faceup.", applied=False)
        return None
    n = 0
    for c in ctx.board["corp"]["discard"]:
        if not c.get("faceup"):
            c["faceup"] = True
            n += 1
    ctx.ev(
        f"All cards in Archives are turned faceup ({n} were facedown).",
        ("rule_breaching_archives",),
        {"corp.discard.facedown": [n, 0]} if n else {},
    )
    return None


@handles("step_determine_candidates_limit")
def _limit(ctx: Ctx, f: Frame, d: Decision | None) -> Any:
    server = f.v["server"]
    if server in ("hq", "rd"):
        extra = f.v.get("additional_access", 0)
        from_rig = [
            (c["name"], c["access_bonus"][server])
            for zone in ctx.board["runner"]["rig"].values()
            for c in zone
            if c.get("access_bonus", {}).get(server)
        ]
        limit = 1 + extra + sum(n for _, n in from_rig)
        f.v["limit"] = limit
        rules = ["rule_random_access_limit", "rule_default_random_access_limit"]
        text = f"The random access limit is {limit}"
        if limit > 1:
            rules.append("rule_increasing_random_access_limit")
            parts = ([f"{extra} from the run"] if extra else []) + [
                f"{n} from {name}" for name, n in from_rig
            ]
            text += f" (1 by default, +{', +'.join(parts)})"
        ctx.ev(text + ".", rules, objects={"server": server, "limit": limit})
    else:
        ctx.ev("The breached server is neither HQ nor R&D; there is no random access limit.", applied=False)
    return None


def corp_chooses_hq(ctx: Ctx, f: Frame) -> bool:
    """Does an effect let the Corp choose the HQ cards the Runner accesses (Dedicated Neural
    Net: the breach's or the run's `corp_chooses_hq`, rule_corp_choosing_candidates_breaching_hq)?"""
    if f.v.get("corp_chooses_hq"):
        return True
    run = ctx.run_frame()
    return run is not None and bool(run.v.get("corp_chooses_hq"))


def _corp_hq_pick(ctx: Ctx, f: Frame) -> Any:
    """The Runner chose a candidate from HQ: the Corp chooses which one, instead of at random."""
    hand = ctx.board["corp"]["hand"]
    f.v["corp_picking"] = True
    return wait(
        [
            dec(f"hq:{card_ref(hand, i)}", f"The Runner accesses {c['name']} from HQ", "corp")
            for i, c in enumerate(hand)
            if not c.get("accessed")
        ]
    )


@handles("step_choose_candidate")
def _choose(ctx: Ctx, f: Frame, d: Decision | None) -> Any:
    v = f.v
    if v.pop("corp_picking", False) and d is not None and d.kind == "hq":
        return _corp_picked(ctx, f, d)
    left = v["limit"] is None or v["taken"] < v["limit"]
    cands = candidates(ctx.board, v["server"], random_left=left)
    rules = ["rule_candidates_presented", "rule_candidates_beginning_breach"]
    if not cands:
        if not left:
            rules.append("rule_after_reaching_random_access_limit")
        ctx.ev("There are no candidates left to choose.", rules)
        return goto("step_breach_complete")
    if d is None and len(cands) > 1:
        return wait([dec(f"access:{k}", label, "runner") for k, label, _ in cands])
    key = access_key(d) if d is not None else cands[0][0]
    v.pop("ref", None)
    if key == "hq" and corp_chooses_hq(ctx, f):
        ctx.ev(
            "The Runner chooses to access a card from HQ; the Corp chooses which, instead of one at random.",
            ("rule_corp_choosing_candidates_breaching_hq", "rule_candidates_in_hq"),
            objects={"server": v["server"], "candidate": key, "chooser": "corp"},
        )
        return _corp_hq_pick(ctx, f)
    sub = {"server": v["server"], "pick": key}
    if key in ("hq", "rd"):
        v["taken"] += 1
        rules += (
            ["rule_candidates_in_hq", "rule_candidates_breaching_hq"]
            if key == "hq"
            else ["rule_candidates_in_rnd", "rule_rnd_candidates_1_at_a_time"]
        )
        rules += ["rule_random_access_limit", "rule_counting_random_access_limit"]
    elif key.startswith("archives."):
        rules.append("rule_candidates_in_archives")
    else:  # an upgrade in the root, or a remote's installed card: the Runner picks the order
        rules += ["rule_candidates_in_server_root", "rule_server_root_order"]
    label = next(lbl for k, lbl, _ in cands if k == key)
    v["next"] = sub
    objs = {"server": v["server"], "candidate": key}
    if key in ("hq", "rd"):
        objs.update(taken=v["taken"], limit=v["limit"])
    ctx.ev(f"The Runner chooses: {label}.", rules, objects=objs)
    return None


def _corp_picked(ctx: Ctx, f: Frame, d: Decision) -> Any:
    v = f.v
    hand = ctx.board["corp"]["hand"]
    i = locate(hand, d)
    v["taken"] += 1
    v["next"] = {"server": v["server"], "pick": "hq", "ref": ["hand", i]}
    ctx.ev(
        f"The Corp chooses {hand[i]['name']} from HQ; it is treated as though the Runner had chosen it.",
        (
            "rule_corp_choosing_candidates_breaching_hq",
            "rule_random_access_limit",
            "rule_counting_random_access_limit",
        ),
        objects={
            "server": v["server"],
            "candidate": "hq",
            "card": hand[i]["name"],
            "taken": v["taken"],
            "limit": v["limit"],
        },
    )
    return None


@handles("step_access_candidate")
def _access_candidate(ctx: Ctx, f: Frame, d: Decision | None) -> Any:
    sub = f.v.pop("next")
    ctx.ev("The Runner accesses the chosen card.", ("rule_candidates_already_accessed",))
    return call("access", sub)


handles("step_repeat_candidate_selection")(
    loop_back("Return to choosing a candidate.", "step_choose_candidate")
)


@handles("step_breach_complete")
def _breach_complete(ctx: Ctx, f: Frame, d: Decision | None) -> Any:
    clear_access_marks(ctx.board)
    ctx.ev(f"The breach of {f.v['server']} is complete.", ("rule_breaching_servers",))
    return END
