"""Paid ability windows (9.2): the rez (R) and score (S) options the board offers."""

from __future__ import annotations

from collections.abc import Callable, Collection
from typing import Any

from . import recurring, rig, triggers
from .decision import Decision, card_ref, card_refs, locate
from .effects import describe_effect
from .locations import corp_ability_cards, take_card
from .machine import (
    STAY,
    Ctx,
    Frame,
    call,
    dec,
    opponent,
    score,
    wait,
)


def _rez_note(c: dict) -> str:
    """What a judge applies by hand when `c` is rezzed: its printed paragraphs about rezzing it
    that the engine does not model ("As an additional cost to rez this ice, ...", "The rez cost
    of this ice is lowered by ...", `unmodeled`), added to the rez decision's label."""
    notes = [t for t in c.get("unmodeled", ()) if "rez" in t.lower()]
    return f" (by hand: {' '.join(notes)})" if notes else ""


def _rez_options(b: dict, with_ice: dict | None, hosted: bool = True) -> list[dict]:
    """`hosted`: whether any card of the board has recurring credits (`Session.kinds`)."""
    out = []
    credits = b["corp"]["credits"] + (recurring.hosted_credits(b, "corp") if hosted else 0)
    if with_ice is not None and not with_ice["rezzed"] and with_ice.get("rez_cost", 0) <= credits:
        out.append(
            dec(
                "rez",
                f"Corp rezzes the approached ice {with_ice['name']} ({with_ice.get('rez_cost', 0)} credits)"
                + _rez_note(with_ice),
                "corp",
            )
        )
    for name, srv in b["servers"].items():
        root = srv["root"]
        for i, c in enumerate(root):
            if not c["rezzed"] and "rez_cost" in c and c["rez_cost"] <= credits:
                out.append(
                    dec(
                        f"rez:{name}.root.{card_ref(root, i)}",
                        f"Corp rezzes {c['name']} in the root of {name} ({c['rez_cost']} credits)"
                        + _rez_note(c),
                        "corp",
                    )
                )
        c = srv.get("content")
        if (
            c
            and c.get("type") == "asset"
            and not c["rezzed"]
            and "rez_cost" in c
            and c["rez_cost"] <= credits
        ):
            out.append(
                dec(
                    f"rez:{name}.content",
                    f"Corp rezzes {c['name']} in {name} ({c['rez_cost']} credits)" + _rez_note(c),
                    "corp",
                )
            )
    return out


def _score_options(b: dict) -> list[dict]:
    out = []
    for name, srv in b["servers"].items():
        c = srv.get("content")
        if (
            c
            and c.get("type") == "agenda"
            and c.get("advancements", 0) >= c.get("advancement_requirement", 0)
        ):
            out.append(
                dec(f"score:{name}", f"Corp scores {c['name']} ({c.get('agenda_points', 0)} points)", "corp")
            )
    return out


def paw(
    ctx: Ctx,
    f: Frame,
    d: Decision | None,
    *,
    rez: bool = True,
    score_ok: bool = False,
    ice: dict | None = None,
) -> Any:
    """A paid ability window (9.2.7): priority passes between the players (`exchange`); the Corp
    may rez (R) and score (S) where the window allows it, the Runner use paid abilities."""
    b = ctx.board
    if f.v.get("pending"):  # "when scored" / "when rezzed" abilities of the card just scored or rezzed
        res = triggers.reaction_window(ctx, f, d, f.v.get("pending_when", "scored"))
        if res is not None:
            return res
        f.v.pop("pending_when", None)
        d = None

    kinds = ctx.s.kinds

    def options(side: str) -> list[dict]:
        if side == "runner":
            if "text_abilities" not in kinds and "runner_paid" not in kinds:
                return []
            return runner_options(b, side, corp_used(ctx.s.frames[0].v))
        return (
            (_rez_options(b, ice, "recurring" in kinds) if rez else [])
            + (_score_options(b) if score_ok else [])
            + (corp_abilities(b, corp_used(ctx.s.frames[0].v)) if "corp_abilities" in kinds else [])
        )

    def label(side: str, closing: bool) -> str:
        if closing:
            return "Pass priority; the paid ability window closes"
        return f"Pass priority (the {opponent(side).capitalize()} receives priority)"

    how, x = exchange(ctx, f, d, options, label)
    if how == "wait":
        return x
    if how == "closed":
        if x:
            ctx.ev(
                "All players pass priority; the paid ability window closes.",
                ("rule_paid_ability_window", "rule_ability_window_priority"),
            )
        else:
            ctx.ev(
                "Paid ability window: no modeled paid ability, rez or score is available; it closes.",
                ("rule_paid_ability_window",),
                applied=False,
            )
        return None
    d = x
    if d.kind == "use":
        return use_ability(b, d)
    if d.kind == "ability":
        return use_corp_ability(b, d)
    ch: dict = {}
    if d.kind == "rez" and d.server is None:
        paid = ctx.pay("corp", ice.get("rez_cost", 0), ch)  # hosted recurring credits pay too
        ice["rezzed"] = True
        if ice.get("recurring"):
            recurring.place(ice, "ice", ch)
        ch["ice.rezzed"] = [False, True]
        ctx.ev(
            f"The Corp rezzes {ice['name']}, paying {ice.get('rez_cost', 0)} credits.",
            ("sec_rez", "rule_rez_cost", *paid),
            ch,
        )
        triggers.rezzed(ctx, f, ice)
        return STAY
    if d.kind == "rez":
        server = d.server
        srv = b["servers"][server]
        if d.zone == "content":
            where, card = "content", srv["content"]
        else:
            i = locate(srv["root"], d)
            where, card = f"root.{i}", srv["root"][i]
        paid = ctx.pay("corp", card["rez_cost"], ch)
        card["rezzed"] = True
        if card.get("recurring"):
            recurring.place(card, f"servers.{server}.{where}", ch)
        ch[f"servers.{server}.{where}.rezzed"] = [False, True]
        ctx.ev(
            f"The Corp rezzes {card['name']}, paying {card['rez_cost']} credits.",
            ("sec_rez", "rule_rez_cost", *paid),
            ch,
        )
        triggers.rezzed(ctx, f, card)
        return STAY
    if d.kind == "score":
        server = d.server
        card = take_card(b, ["content", server])
        card.pop("advancements", None)
        card["faceup"] = True
        b["corp"]["score_area"].append(card)
        ctx.s.result["scored"].append(card["name"])
        ch["corp.score"] = [score(b, "corp") - card.get("agenda_points", 0), score(b, "corp")]
        ctx.ev(
            f"The Corp scores {card['name']} from {server} ({card.get('agenda_points', 0)} points).",
            (
                "rule_score_steal",
                "rule_advancement_requirement",
                "rule_score_not_an_action",
                "rule_score_area_uninstalled",
            ),
            ch,
            objects={"card": card["name"], "server": server},
        )
        triggers.scored(ctx, f, card, server)
        return call("checkpoint", {}, "stay")
    raise AssertionError(d.id)  # pragma: no cover - legal decisions are checked before


def exchange(
    ctx: Ctx,
    f: Frame,
    d: Decision | None,
    options: Callable[[str], list[dict]],
    pass_label: Callable[[str, bool], str],
) -> tuple[str, Any]:
    """Priority in a paid ability window (9.2.7a): the active player receives priority first; the
    player with priority may use an option (and keeps priority, 9.2.4c) or pass, giving priority
    to the other player; the window closes when a player who received priority from their
    opponent passes. A player with no usable option passes at once (the engine asks nobody a
    question with one answer). Returns ("act", decision) for the caller to carry out,
    ("wait", decisions), or ("closed", whether the last pass was a player's decision)."""
    v = f.v
    pr = v.get("prio")
    if pr is None or pr[0] != ctx.step:  # [window step, holder, holder got it by a pass]
        pr = v["prio"] = [ctx.step, ctx.board["turn"], False]
    passed = d is not None and d.kind == "pass"
    if d is not None and not passed:
        pr[2] = False
        return "act", d
    if passed:
        if pr[2]:
            del v["prio"]
            return "closed", True
        pr[1], pr[2] = opponent(pr[1]), True
    for _ in range(2):
        opts = options(pr[1])
        if opts:
            if passed:
                who, other = opponent(pr[1]).capitalize(), pr[1].capitalize()
                ctx.ev(
                    f"The {who} passes priority: the {other} receives priority.",
                    ("rule_ability_window_priority", "rule_pass"),
                    objects={"priority": pr[1]},
                )
            return "wait", wait([*opts, dec("pass", pass_label(pr[1], pr[2]), pr[1])])
        if pr[2]:
            break
        pr[1], pr[2] = opponent(pr[1]), True
    del v["prio"]
    return "closed", passed


def program_abilities(
    b: dict,
    kinds: tuple[str, ...],
    keep: Callable[[dict, dict, str], bool],
    labels: dict[str, str] | None = None,
    memo: dict[str, list[dict]] | None = None,
    sig: str = "",
) -> list[dict]:
    """`use:CARD.N` decisions for the abilities of the given `kinds` on installed programs that
    `keep(program, ability, decision id)` allows: the one loop behind every window's Runner
    ability options. `labels`: a cache of labels by id and strength (an encounter keeps one).

    `memo` (an encounter keeps one): a program's decisions by its position, its strength and
    `sig`, where the caller's `sig` stands for everything else `keep` reads. A program with a
    once-per ability is never memoised (whether it was used is not in the key)."""
    out = []
    progs = b["runner"]["rig"]["programs"]
    refs = None
    for p, prog in enumerate(progs):
        abilities = prog.get("abilities")
        if not abilities:
            continue
        strength = rig.strength(prog)
        if memo is not None:
            key = f"{p}.{strength}.{sig}"
            hit = memo.get(key)
            if hit is not None:
                out += hit
                continue
            first = len(out)
        ref = None
        for a, ab in enumerate(abilities):
            if ab["kind"] not in kinds:
                continue
            if ref is None:
                if refs is None:
                    refs = card_refs(progs)
                ref = refs[p]
            use_id = f"use:{ref}.{a}"
            if not keep(prog, ab, use_id):
                continue
            if labels is None:
                label = _ability_label(prog, ab, strength)
            else:
                lkey = f"{use_id}@{strength}"
                known = labels.get(lkey)
                if known is None:
                    label = labels[lkey] = _ability_label(prog, ab, strength)
                else:
                    label = known
            out.append({"id": use_id, "label": label, "player": "runner"})
        if memo is not None and not any("once_per" in ab or "counter_cost" in ab for ab in abilities):
            memo[key] = out[first:]
    return out


def _ability_label(prog: dict, ab: dict, strength: int) -> str:
    if ab["kind"] == "text":
        return f"{prog['name']}: {ab['text']} (resolve by hand)"
    return f"{prog['name']}: {rig.describe_ability(ab)} (strength {strength})"


def text_kind(ab: dict) -> str:
    """What kind of ability a `text` ability is, by its printed cost (9.2.7b): "action" (its cost
    has [click]: 5.2.1), "interrupt" ("[interrupt] →": 9.2.9), "mid-access" ("Access →": 7.2.1b)
    or "paid" (usable in any paid ability window)."""
    t = ab["text"].lstrip().lower()
    if t.startswith("[interrupt]") or t.startswith("interrupt "):
        return "interrupt"
    if t.startswith("access →") or t.startswith("access ->"):
        return "mid-access"
    head = t.split(":", 1)[0] if ":" in t else ""
    if t.startswith("[click]") or "[click]" in head:
        return "action"
    return "paid"


def _by_hand(prog: dict, ab: dict, use_id: str) -> bool:
    """A `text` ability usable in a paid ability window: not an action, an interrupt or a
    mid-access ability (9.2.7b)."""
    return ab["kind"] == "text" and text_kind(ab) == "paid"


def mid_access_abilities(b: dict) -> list[dict]:
    """`use:` decisions for the Runner's mid-access abilities ("Access →", 7.2.1b) that the engine
    does not model: offered while a card is being accessed, resolved by hand."""
    out = []
    rig_ = b["runner"]["rig"]
    for zone in ("programs", "hardware", "resources"):
        cards = rig_[zone]
        for i, c in enumerate(cards):
            for a, ab in enumerate(c.get("abilities", ())):
                if ab["kind"] == "text" and text_kind(ab) == "mid-access":
                    ref = card_ref(cards, i)
                    use_id = f"use:{ref}.{a}" if zone == "programs" else f"use:{zone}.{ref}.{a}"
                    out.append(
                        dec(use_id, f"{c['name']}: {ab['text']} (mid-access, resolve by hand)", "runner")
                    )
    return out


def runner_options(b: dict, side: str, used: Collection[str] = ()) -> list[dict]:
    """The Runner's paid abilities usable in any paid ability window: abilities on installed
    programs, hardware and resources that the engine does not model (`text`), resolved by hand,
    and the modeled `paid` abilities of hardware and resources (`runner_paid_abilities`);
    abilities whose cost includes [click] are actions, not usable in a paid ability window
    (9.2.7b)."""
    if side != "runner":
        return []
    return program_abilities(b, ("text",), _by_hand) + rig_text_abilities(b) + runner_paid_abilities(b, used)


def rig_text_abilities(b: dict) -> list[dict]:
    """`use:ZONE.CARD.N` decisions for the `text` abilities of installed hardware and resources
    (not actions, 9.2.7b), resolved by hand in any paid ability window."""
    out = []
    rig_ = b["runner"]["rig"]
    for zone in ("hardware", "resources"):
        cards = rig_[zone]
        for i, c in enumerate(cards):
            for a, ab in enumerate(c.get("abilities", ())):
                if _by_hand(c, ab, ""):
                    use_id = f"use:{zone}.{card_ref(cards, i)}.{a}"
                    out.append(dec(use_id, f"{c['name']}: {ab['text']} (resolve by hand)", "runner"))
    return out


def use_ability(b: dict, d: Decision, extra: dict | None = None) -> Any:
    """Walk the paid ability structure (9.5.7) for `use:CARD.N`."""
    cards = b["runner"]["rig"][d.zone]
    p = locate(cards, d)
    prog = cards[p]
    ab = prog["abilities"][d.index]
    if ab["kind"] == "text":
        label = ab["text"]
    elif ab["kind"] == "paid":  # a modeled paid ability on hardware or a resource
        label = describe_corp_ability(ab)
    else:
        label = rig.describe_ability(ab)
    return call(
        "paid_ability",
        {
            "kind": "ability",
            "player": "runner",
            "action": d.id,
            "program": p,
            **({"zone": d.zone} if d.zone != "programs" else {}),
            "ability": d.index,
            "label": f"{prog['name']}: {label}",
            **(extra or {}),
        },
        "stay",
    )


def corp_card(b: dict, d: Decision) -> dict:
    """The Corp card an `ability:` decision names."""
    if d.zone == "corp_identity":
        return b["corp"]["identity"]
    srv = b["servers"][d.server]
    return srv["content"] if d.zone == "content" else srv[d.zone][locate(srv[d.zone], d)]


def describe_corp_ability(ab: dict) -> str:
    cost = ["[click]" * ab["clicks"]] if ab["kind"] == "click" else []
    cost += [f"{ab['cost']}[credit]"] if ab["cost"] else []
    cc = ab.get("counter_cost")
    if cc is not None:
        cost.append(
            f"hosted {cc['counter']} counter"
            if cc["amount"] == 1
            else f"{cc['amount']} hosted {cc['counter']} counters"
        )
    if ab["trash"]:
        cost.append("[trash]")
    if ab.get("once_per"):
        cost.insert(0, "Once per turn →")
    return f"{', '.join(cost) or 'no cost'}: " + " ".join(describe_effect(e) for e in ab["effects"])


def corp_abilities(b: dict, used: Collection[str] = ()) -> list[dict]:
    """`ability:S.ZONE.CARD.N` decisions: the paid abilities on rezzed Corp cards (assets,
    upgrades, ice) the Corp can pay for; usable in any paid ability window while the Corp has
    priority (9.2.7). `used`: the once-per-turn abilities already used this turn (`corp_used`)."""
    return _corp_abilities(b, "paid", None, used)


def corp_click_abilities(b: dict, credits: int, used: Collection[str] = ()) -> list[dict]:
    """`ability:S.ZONE.CARD.N` decisions for the [click] abilities on rezzed Corp cards: actions
    (5.2.1, 9.5.2a), offered in the Corp's action window when it has the clicks and credits."""
    return _corp_abilities(b, "click", credits, used)


def _corp_abilities(b: dict, kind: str, credits: int | None, used: Collection[str] = ()) -> list[dict]:
    out: list[dict] = []
    clicks = b["corp"]["clicks"]
    for where, c in corp_ability_cards(b):
        if credits is None:
            credits = b["corp"]["credits"] + recurring.hosted_credits(b, "corp")
        for a, ab in enumerate(c["abilities"]):
            if ab["kind"] != kind:
                continue
            aid = f"ability:{where}.{a}"
            if corp_ability_blocked(c, ab, clicks, credits, aid in used) is None:
                out.append(dec(aid, f"{c['name']}: {describe_corp_ability(ab)}", "corp"))
    return out


def corp_ability_blocked(
    card: dict, ab: dict, clicks: int, credits: int, used: bool, side: str = "corp"
) -> tuple[str, str] | None:
    """Why the Corp cannot use its paid or [click] ability `ab` on `card` now, as (reason, rule id),
    or None when it can: the one test behind what is offered (`corp_abilities`,
    `corp_click_abilities`) and what is refused (engine.refusals). The card must be rezzed
    (1.8.3c); the Corp must be able to pay every part of the cost at once (1.16.10b): clicks,
    credits, hosted counters (`counter_cost`); a "Once per turn →" ability not yet used this turn
    (9.3.6g). `side`: whose card it is; a Runner card's [click] abilities (installed: active) too
    (`runner_click_abilities`)."""
    name, who = card["name"], side.capitalize()
    # the Corp's identity (no `type` on the board) is always active (4.6.4a)
    if side == "corp" and not card.get("rezzed") and "type" in card:
        return f"{name} is unrezzed, so its abilities are inactive", "rule_corp_become_active"
    if used:
        return f"{name}'s ability can be used only once per turn and was already used this turn", (
            "rule_once_per_turn_flag"
        )
    if ab.get("clicks", 0) > clicks:
        return (
            f"{name}'s ability costs {'[click]' * ab['clicks']}; the {who} has {clicks} [click] left",
            "rule_cost",
        )
    if ab["cost"] > credits:
        return f"{name}'s ability costs {ab['cost']} credits; the {who} has {credits}", "rule_cost"
    cc = ab.get("counter_cost")
    if cc is not None:
        have = card.get("counters", {}).get(cc["counter"], 0)
        if have < cc["amount"]:
            return (
                f"{name}'s ability costs {cc['amount']} hosted {cc['counter']} counter(s); it hosts {have}",
                "rule_cost",
            )
    return None


RUNNER_CLICK_ZONES = ("programs", "hardware", "resources")


def runner_click_ability_ids(b: dict, kind: str = "click") -> list[tuple[str, dict, dict]]:
    """(decision id, card, ability) for each [click] ability (or, `kind` "paid", each modeled paid
    ability) on an installed Runner card: `use:CARD.N` on a program, `use:ZONE.CARD.N` on
    hardware and resources."""
    out = []
    for zone in RUNNER_CLICK_ZONES:
        cards = b["runner"]["rig"][zone]
        for i, c in enumerate(cards):
            for a, ab in enumerate(c.get("abilities", ())):
                if ab["kind"] == kind:
                    where = card_ref(cards, i) if zone == "programs" else f"{zone}.{card_ref(cards, i)}"
                    out.append((f"use:{where}.{a}", c, ab))
    return out


def runner_click_abilities(b: dict, credits: int, used: Collection[str] = ()) -> list[dict]:
    """The Runner's [click] abilities it can use now: actions in its action window (5.2.1), the
    same test as their refusals (`corp_ability_blocked` with side "runner")."""
    clicks = b["runner"]["clicks"]
    return [
        dec(aid, f"{c['name']}: {describe_corp_ability(ab)}", "runner")
        for aid, c, ab in runner_click_ability_ids(b)
        if corp_ability_blocked(c, ab, clicks, credits, aid in used, "runner") is None
    ]


def runner_paid_abilities(b: dict, used: Collection[str] = ()) -> list[dict]:
    """`use:ZONE.CARD.N` decisions for the modeled paid abilities of installed hardware and
    resources ("[trash]: Gain 3[credit]."): usable in any paid ability window (9.2.7) when the
    Runner can pay every part of the cost (1.16.10b), a "Once per turn →" one once a turn (9.3.6g);
    the same test as their refusals (`corp_ability_blocked` with side "runner")."""
    found = runner_click_ability_ids(b, "paid")
    if not found:
        return []
    credits = b["runner"]["credits"] + recurring.hosted_credits(b, "runner")
    return [
        dec(aid, f"{c['name']}: {describe_corp_ability(ab)}", "runner")
        for aid, c, ab in found
        if corp_ability_blocked(c, ab, 0, credits, aid in used, "runner") is None
    ]


def corp_used(turn_v: dict) -> Collection[str]:
    """The Corp's once-per-turn abilities already used this turn (`ability:` ids), kept in the
    outermost frame (the turn) beside the Runner's (engine.rig.mark_used)."""
    return turn_v.get("once_used", ())


def mark_corp_used(turn_v: dict, aid: str) -> None:
    turn_v.setdefault("once_used", []).append(aid)


def use_corp_ability(b: dict, d: Decision) -> Any:
    """Walk the paid ability structure (9.5.7) for a Corp card's `ability:` decision."""
    card = corp_card(b, d)
    return call(
        "paid_ability",
        {
            "kind": "corp_ability",
            "player": "corp",
            "action": d.id,
            "label": f"{card['name']}: {describe_corp_ability(card['abilities'][d.index])}",
        },
        "stay",
    )
