"""Interrupt windows (9.2.9, 9.9.4) for damage: while a damage instruction is imminent, the
Runner may use `prevent` abilities on installed cards (9.9.4d) to lower the imminent amount
(9.9.6b); if all of it is prevented no damage is suffered (9.9.7b). Priority passes as in a paid
ability window, starting with the active player (9.2.9c)."""

from __future__ import annotations

from typing import Any

from . import rig
from .decision import Decision, card_ref, locate
from .machine import STAY, Ctx, Frame, dec
from .windows import exchange

ZONES = ("programs", "hardware", "resources")


def prevented(f: Frame) -> int:
    """Damage already prevented for the instruction imminent in frame `f`."""
    pv = f.v.get("prevented")
    return pv[1] if pv is not None and pv[0] == f.v.get("i") else 0


def describe(ab: dict) -> str:
    what = "any" if ab["damage"] == "any" else ab["damage"]
    cost = [f"{ab['cost']}[credit]"] if ab.get("cost") else []
    if ab.get("trash"):
        cost.append("[trash]")
    return f"{', '.join(cost) or 'no cost'}: prevent {ab['amount']} {what} damage"


def options(ctx: Ctx, side: str, kind: str, left: int) -> list[dict]:
    if side != "runner" or left <= 0:
        return []
    rig = ctx.board["runner"]["rig"]
    have = ctx.spendable("runner")
    out = []
    for zone in ZONES:
        cards = rig[zone]
        for i, c in enumerate(cards):
            for a, ab in enumerate(c.get("abilities", ())):
                if ab["kind"] == "prevent" and ab["damage"] in (kind, "any") and ab.get("cost", 0) <= have:
                    ref = card_ref(cards, i)
                    out.append(dec(f"prevent:{zone}.{ref}.{a}", f"{c['name']}: {describe(ab)}", "runner"))
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


def window(ctx: Ctx, f: Frame, d: Decision | None, e: dict) -> Any:
    v = f.v
    kind = e["effect"][: -len("_damage")]
    pv = v.get("prevented")
    if pv is None or pv[0] != v["i"]:
        pv = v["prevented"] = [v["i"], 0]

    def label(side: str, closing: bool) -> str:
        return "Pass; the interrupt window closes" if closing else "Pass priority"

    how, x = exchange(ctx, f, d, lambda side: options(ctx, side, kind, e["amount"] - pv[1]), label)
    if how == "wait":
        return x
    if how == "act":
        zone = x.zone
        r = ctx.board["runner"]
        cards = r["rig"][zone]
        i = locate(cards, x)
        card = cards[i]
        ab = card["abilities"][x.index]
        ch: dict = {}
        rules = ["sec_prevent_avoid", "rule_trigger_paid_ability_interrupt", "rule_modifiable_value_damage"]
        if ab.get("cost"):
            rules += ["rule_cost", *ctx.pay("runner", ab["cost"], ch)]
        if ab.get("trash"):
            trash_from_rig(ctx.board, zone, i, ch)
            rules.append("rule_trashing")
        left = e["amount"] - pv[1]
        n = min(ab["amount"], left)
        pv[1] += n
        ctx.ev(
            f"{card['name']} prevents {n} {kind} damage ({left - n} still imminent).",
            rules,
            ch,
            objects={"card": card["name"], "zone": zone, "prevented": n, "imminent": left - n},
        )
        return STAY
    if pv[1] or x:
        ctx.ev(
            f"The interrupt window closes: {pv[1]} of {e['amount']} {kind} damage prevented.",
            ("rule_interrupt_window", "rule_interrupt_window_priority"),
            applied=bool(pv[1]),
            objects={"prevented": pv[1], "amount": e["amount"]},
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
