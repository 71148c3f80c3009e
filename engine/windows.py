"""Paid ability windows (9.2): the rez (R) and score (S) options the board offers."""

from __future__ import annotations

from typing import Any

from .locations import take_card
from .machine import (
    STAY,
    Ctx,
    call,
    dec,
    score,
    setv,
    wait,
)


def _rez_options(b: dict, with_ice: dict | None) -> list[dict]:
    out = []
    credits = b["corp"]["credits"]
    if with_ice is not None and not with_ice["rezzed"] and with_ice.get("rez_cost", 0) <= credits:
        out.append(
            dec(
                "rez",
                f"Corp rezzes the approached ice {with_ice['name']} ({with_ice.get('rez_cost', 0)} credits)",
                "corp",
            )
        )
    for name, srv in b["servers"].items():
        for i, c in enumerate(srv["root"]):
            if not c["rezzed"] and "rez_cost" in c and c["rez_cost"] <= credits:
                out.append(
                    dec(
                        f"rez:{name}.root.{i}",
                        f"Corp rezzes {c['name']} in the root of {name} ({c['rez_cost']} credits)",
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
                    f"Corp rezzes {c['name']} in {name} ({c['rez_cost']} credits)",
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
    ctx: Ctx, f: dict, d: str | None, *, rez: bool = True, score_ok: bool = False, ice: dict | None = None
) -> Any:
    """A paid ability window. Offers the Corp's rez (R) / score (S) options modeled by the board
    vocabulary; when nobody has anything to do it closes at once."""
    b = ctx.board
    opts = (_rez_options(b, ice) if rez else []) + (_score_options(b) if score_ok else [])
    if d is None:
        if not opts:
            ctx.ev(
                "Paid ability window: no modeled paid ability, rez or score is available; it closes.",
                ("rule_paid_ability_window",),
                applied=False,
            )
            return None
        active = b["turn"]
        return wait([*opts, dec("pass", "All players pass; the paid ability window closes", active)])
    if d == "pass":
        ctx.ev("All players pass priority; the paid ability window closes.", ("rule_paid_ability_window",))
        return None
    ch: dict = {}
    if d == "rez":
        setv(b["corp"], "corp", "credits", b["corp"]["credits"] - ice.get("rez_cost", 0), ch)
        ice["rezzed"] = True
        ch["ice.rezzed"] = [False, True]
        ctx.ev(
            f"The Corp rezzes {ice['name']}, paying {ice.get('rez_cost', 0)} credits.",
            ("sec_rez", "rule_rez_cost"),
            ch,
        )
        return STAY
    if d.startswith("rez:"):
        server, _, where = d[4:].partition(".")
        srv = b["servers"][server]
        card = srv["content"] if where == "content" else srv["root"][int(where.split(".")[1])]
        setv(b["corp"], "corp", "credits", b["corp"]["credits"] - card["rez_cost"], ch)
        card["rezzed"] = True
        ch[f"servers.{server}.{where}.rezzed"] = [False, True]
        ctx.ev(
            f"The Corp rezzes {card['name']}, paying {card['rez_cost']} credits.",
            ("sec_rez", "rule_rez_cost"),
            ch,
        )
        return STAY
    if d.startswith("score:"):
        server = d[6:]
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
        )
        return call("checkpoint", {}, "stay")
    raise AssertionError(d)  # pragma: no cover - legal decisions are checked before
