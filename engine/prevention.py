"""Interrupt windows (9.2.9, 9.9.4) for the imminent instructions that abilities can prevent or
avoid (9.9.5): damage (9.9.6b), tags (9.9.6a), trashing installed Runner cards (8.2.2a) and
exposing Corp cards (1.21.4). While such an instruction is imminent, `prevent` abilities about
it are offered to the player whose cards it acts on (the Runner's installed cards for damage,
tags and trash, 9.9.4d; rezzed Corp cards for an expose); each lowers the imminent amount, and
if all of it is prevented nothing happens (9.9.7b). Priority passes as in a paid ability window,
starting with the active player (9.2.9c)."""

from __future__ import annotations

from typing import Any

from . import rig
from .decision import Decision, card_ref, locate
from .effects import NOUN, PREVENT_RULES, amount_of
from .locations import corp_ability_cards
from .machine import STAY, Ctx, Frame, dec
from .rig import ZONE_OF, ZONE_TYPES
from .windows import exchange

ZONES = ("programs", "hardware", "resources")


def event_of(e: dict, controller: str) -> str | None:
    """What of the imminent instruction `e` a `prevent` ability could prevent, or None: damage
    (the Runner's, from a Corp card or its own: "suffer 1 core damage"), tags and trashing
    installed Runner cards done by the Corp; the Runner exposing a card."""
    name = e["effect"]
    if name.endswith("_damage"):  # the Runner suffers it, whoever's card it is (9.9.6b)
        return "damage"
    if controller == "corp":
        if name == "give_tags":
            return "tags"
        if name in ("trash_program", "trash_installed"):
            return "trash"
    if name == "expose":
        return "expose"
    return None


def _trash_types(e: dict) -> tuple[str, ...]:
    if e["effect"] == "trash_program":
        return ("program",)
    return tuple(e.get("card_types") or ZONE_TYPES)


def _relevant(b: dict, ab: dict, ev: str, e: dict) -> bool:
    """Could `ab` prevent part of what `e` is expected to do (9.9.3a)?"""
    if ab.get("event", "damage") != ev:
        return False
    if ev == "damage":
        return ab["damage"] in (e["effect"][: -len("_damage")], "any")
    if ev == "trash":
        types = set(_trash_types(e)) & set(ab.get("card_types", ZONE_TYPES))
        return any(b["runner"]["rig"][ZONE_OF[t]] for t in types)
    return True


def first_this_turn(ctx: Ctx, f: Frame, e: dict, ev: str) -> bool:
    """Is the instruction imminent in frame `f` the first of its kind this turn ("the first time
    each turn you would suffer net damage": Net Shield, `first_each`)? Each kind (damage of each
    kind, tags, trash, expose) is noted in the outermost frame (the turn) when it first becomes
    imminent; the answer is kept with the instruction (`f.v["first"]`)."""
    v = f.v
    if v.get("first") is None or v["first"][0] != v["i"]:
        kind = f"{ev}:{e['effect']}"
        seen = ctx.s.frames[0].v.setdefault("seen_this_turn", [])
        v["first"] = [v["i"], kind not in seen]
        if kind not in seen:
            seen.append(kind)
    return v["first"][1]


def options(ctx: Ctx, side: str, e: dict, ev: str, left: int, first: bool = True) -> list[dict]:
    """The `prevent:` decisions of `side` for the imminent instruction `e`: relevant abilities
    whose cost it can pay; a `first_each` one only on the first such instruction of the turn."""
    if left <= 0 or side != ("corp" if ev == "expose" else "runner"):
        return []
    b = ctx.board
    have = ctx.spendable(side)
    out = []
    if side == "corp":
        for where, c in corp_ability_cards(b):
            for a, ab in enumerate(c["abilities"]):
                if ab["kind"] == "prevent" and _relevant(b, ab, ev, e) and ab["cost"] <= have:
                    out.append(
                        dec(f"prevent:{where}.{a}", f"{c['name']}: {rig.describe_prevention(ab)}", "corp")
                    )
        return out
    rig_ = b["runner"]["rig"]
    for zone in ZONES:
        cards = rig_[zone]
        for i, c in enumerate(cards):
            for a, ab in enumerate(c.get("abilities", ())):
                if ab["kind"] == "prevent" and _relevant(b, ab, ev, e) and ab.get("cost", 0) <= have:
                    if ab.get("first_each") and not first:
                        continue
                    ref = card_ref(cards, i)
                    out.append(
                        dec(
                            f"prevent:{zone}.{ref}.{a}",
                            f"{c['name']}: {rig.describe_prevention(ab)}",
                            "runner",
                        )
                    )
    return out


def trash_from_rig(b: dict, zone: str, i: int, ch: dict) -> dict:
    """Trash the installed Runner card `rig[zone][i]` (a [trash] cost) to the heap; the card."""
    r = b["runner"]
    cards = r["rig"][zone]
    card = cards.pop(i)
    rig.forget_boosts(card)
    r["discard"].append(card)
    ch[f"runner.rig.{zone}"] = [len(cards) + 1, len(cards)]
    return card


def trash_corp_card(b: dict, d: Decision, ch: dict) -> list[str]:
    """Trash the installed Corp card decision `d` names (a [trash] cost): it was rezzed, so it
    goes to Archives faceup (4.4.6b). The rules cited."""
    srv = b["servers"][d.server]
    if d.zone == "content":
        card = srv["content"]
        srv["content"] = None
    else:
        card = srv[d.zone].pop(locate(srv[d.zone], d))
    card["faceup"] = True
    card.pop("rezzed", None)
    b["corp"]["discard"].append(card)
    ch["corp.discard"] = [len(b["corp"]["discard"]) - 1, len(b["corp"]["discard"])]
    return ["rule_trashing", "rule_archives_faceup_facedown"]


def card_of(b: dict, d: Decision) -> dict:
    """The installed card a `prevent:` / `interrupt:` decision names (a Runner card, or a Corp
    card with its server)."""
    if d.server is None:
        cards = b["runner"]["rig"][d.zone]
        return cards[locate(cards, d)]
    srv = b["servers"][d.server]
    return srv["content"] if d.zone == "content" else srv[d.zone][locate(srv[d.zone], d)]


def window(ctx: Ctx, f: Frame, d: Decision | None, e: dict, ev: str) -> Any:
    """The interrupt window of the imminent instruction `e`, whose `ev` (`event_of`) abilities
    can prevent: what they prevent is kept in the resolving frame (`prevented`) and taken off the
    instruction as it resolves."""
    v = f.v
    pv = v.get("prevented")
    if pv is None or pv[0] != v["i"]:
        pv = v["prevented"] = [v["i"], 0]
    total = amount_of(e)
    what = e["effect"][: -len("_damage")] + " damage" if ev == "damage" else NOUN[ev]

    def label(side: str, closing: bool) -> str:
        return "Pass; the interrupt window closes" if closing else "Pass priority"

    first = first_this_turn(ctx, f, e, ev)
    how, x = exchange(ctx, f, d, lambda side: options(ctx, side, e, ev, total - pv[1], first), label)
    if how == "wait":
        return x
    if how == "act":
        b = ctx.board
        side = "runner" if x.server is None else "corp"
        card = card_of(b, x)
        ab = card["abilities"][x.index]
        ch: dict = {}
        rules = list(PREVENT_RULES[ev])
        if ab.get("cost"):
            rules += ["rule_cost", *ctx.pay(side, ab["cost"], ch)]
        if ab.get("trash"):
            if side == "runner":
                trash_from_rig(b, x.zone, locate(b["runner"]["rig"][x.zone], x), ch)
                rules.append("rule_trashing")
            else:
                rules += trash_corp_card(b, x, ch)
        left = total - pv[1]
        n = min(ab["amount"], left)
        pv[1] += n
        verb = "prevents" if ev != "tags" else "avoids"
        objects = {"card": card["name"], "prevented": n, "imminent": left - n}
        objects.update({"zone": x.zone} if side == "runner" else {"server": x.server, "zone": x.zone})
        if ev != "damage":
            objects["event"] = ev
        ctx.ev(
            f"{card['name']} {verb} {n} {what} ({left - n} still imminent).",
            rules,
            ch,
            objects=objects,
        )
        return STAY
    if pv[1] or x:
        ctx.ev(
            f"The interrupt window closes: {pv[1]} of {total} {what} prevented.",
            ("rule_interrupt_window", "rule_interrupt_window_priority"),
            applied=bool(pv[1]),
            objects={"prevented": pv[1], "amount": total},
        )
    else:
        no_interrupt(ctx)
    return None


def no_interrupt(ctx: Ctx) -> None:
    """An interrupt window where nothing on the board can interrupt: walked, not applied."""
    ctx.ev(
        "Interrupt window: no interrupt in the board vocabulary applies.",
        ("rule_interrupt_definition",),
        applied=False,
    )
