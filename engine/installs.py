"""Install as an effect (issue 32): "You may install 1 card from HQ." (Scatter Field), "Install up to
2 cards from HQ." (Top-Down Solutions), "... from Archives or HQ, ignoring all costs." (Drafter).

The Corp chooses a card of the zones the text names and where it goes in one decision
(`install:CARD@SERVER`, `install:archives.CARD@new`), among the places the basic action offers
(`turns.corp_install_targets`, 8.5.16): the install itself is the basic action's
(`turns.install`: placed unrezzed, ice outermost, its install cost paid after it is placed, 8.5.16d),
without the action's click, and with no cost when the text says "ignoring all costs" (1.16.5c).
"You may" and "up to" add `done` (install no more). Ice installed outermost on the server of a run
in progress does not move the Runner: the run's position (and the resolving subroutine's ice)
stays on the same piece of ice (8.5.11a, the new ice is installed outward of it)."""

from __future__ import annotations

from typing import Any

from . import recurring
from .decision import Decision, card_refs, locate
from .effects import SERVER_WORDS, resolves
from .machine import Ctx, Frame, dec, wait
from .turns import corp_install_targets, install, new_remote

_ZONE = {"hq": "hand", "archives": "discard"}


def _options(ctx: Ctx, e: dict) -> list[dict]:
    b = ctx.board
    corp = b["corp"]
    credits = corp["credits"] + recurring.hosted_credits(b, "corp")
    types = e.get("card_types")
    free = bool(e.get("ignore_costs"))
    out = []
    for z in e.get("from", ("hq",)):
        cards = corp[_ZONE[z]]
        prefix = "archives." if z == "archives" else ""
        for c, ref in zip(cards, card_refs(cards), strict=True):
            t = c.get("type")
            if t not in ("agenda", "asset", "upgrade", "ice") or (types and t not in types):
                continue
            for where, place, cost in corp_install_targets(b, c, credits, free):
                paid = f" ({cost} credit(s))" if t == "ice" else ""
                out.append(
                    dec(
                        f"install:{prefix}{ref}@{where}",
                        f"Install {c['name']} (from {SERVER_WORDS[z]}) {place}{paid}",
                        "corp",
                    )
                )
    return out


def _shift_run(ctx: Ctx, server: str) -> None:
    """New ice outermost on the server of the run in progress: the Runner's position and every
    frame naming a piece of ice of that server by position move one inward with their ice."""
    run = ctx.run_frame()
    if run is None or run.v.get("server") != server or run.v.get("pos") is None:
        return
    for fr in ctx.s.frames:
        if fr.v.get("server") == server and isinstance(fr.v.get("pos"), int):
            fr.v["pos"] += 1
        loc = fr.v.get("ice")
        if isinstance(loc, list) and len(loc) > 1 and loc[0] == server:
            loc[1] += 1


def _place(ctx: Ctx, e: dict, d: Decision) -> None:
    b = ctx.board
    corp = b["corp"]
    zone = corp[d.zone]
    card = zone.pop(locate(zone, d))
    card.pop("faceup", None)  # from Archives: an installed card is unrezzed, facedown (8.5.16)
    corp["set_aside"].append(card)
    # a new remote never takes the name of the server of a run in progress that ceased to exist
    # (4.6.8e: the new server is another one; the breach of the old one must not see its cards)
    run = ctx.run_frame()
    server = new_remote(b, (run.v["server"],) if run is not None else ()) if d.server == "new" else d.server
    iv = {"player": "corp", "server": server, "by_effect": True, "ignore_costs": bool(e.get("ignore_costs"))}
    install(ctx, iv, None)  # never waits for the Corp: the offer checked the cost can be paid
    if card.get("type") == "ice":
        _shift_run(ctx, server)


@resolves("install")
def _install(ctx: Ctx, e: dict, controller: str, source: str, d: Decision | None, f: Frame | None) -> Any:
    v = f.v if f is not None else {}
    st = v.get("installing")
    if st is None or st[0] != v.get("i"):
        st = v["installing"] = [v.get("i"), 0]
    n = e.get("amount", 1)
    if d is not None and d.kind == "install":
        _place(ctx, e, d)
        st[1] += 1
    elif d is not None and d.kind == "done":
        ctx.ev(f"{source}: the Corp installs no more cards.", ("rule_installing",), applied=False)
        st[1] = n
    if st[1] < n:
        opts = _options(ctx, e)
        if opts:
            if e.get("optional") or e.get("up_to"):
                opts.append(dec("done", "Install no (more) cards", "corp"))
            return wait(opts)
        if st[1] == 0:
            ctx.ev(
                f"{source}: the Corp has no card it can install this way.",
                ("rule_installing",),
                applied=False,
            )
    v.pop("installing", None)
    return None
