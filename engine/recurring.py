"""Recurring credits (1.10.5): a card with `recurring: N` gets N credits placed on it when it
becomes active (installed by the Runner, rezzed by the Corp; 1.10.5b), refilled up to N (never
accumulating, 1.10.5d) at the start of its controller's turn (5.6.1c, 5.7.1c). The hosted
credits pay its controller's costs (1.10.3c); the engine spends them before the credit pool
(the card restrictions some recurring credits carry are not modeled)."""

from __future__ import annotations

from collections.abc import Iterator


def active_cards(b: dict, side: str) -> Iterator[tuple[str, dict]]:
    """(change path, card) of every active card of `side` that has recurring credits."""
    if side == "runner":
        for zone in ("programs", "hardware", "resources"):
            for i, c in enumerate(b["runner"]["rig"][zone]):
                if c.get("recurring"):
                    yield f"runner.rig.{zone}[{i}]", c
        return
    for name, srv in b["servers"].items():
        for where in ("ice", "root"):
            for i, c in enumerate(srv[where]):
                if c.get("recurring") and c.get("rezzed"):
                    yield f"servers.{name}.{where}[{i}]", c
        c = srv.get("content")
        if c and c.get("recurring") and c.get("rezzed"):
            yield f"servers.{name}.content", c


def hosted_credits(b: dict, side: str) -> int:
    if side == "runner":  # the common case, kept cheap: asked at every payment and offer
        n = 0
        rig = b["runner"]["rig"]
        for zone in (rig["programs"], rig["hardware"], rig["resources"]):
            for c in zone:
                if c.get("recurring"):
                    n += c.get("counters", {}).get("credits", 0)
        return n
    n = 0
    for srv in b["servers"].values():
        for c in [*srv["ice"], *srv["root"], srv.get("content") or {}]:
            if c.get("recurring") and c.get("rezzed"):
                n += c.get("counters", {}).get("credits", 0)
    return n


def place(card: dict, path: str, ch: dict) -> int:
    """Fill `card` up to its recurring credits; the number placed (1.10.5a, 1.10.5d)."""
    n = card.get("recurring", 0)
    counters = card.setdefault("counters", {})
    old = counters.get("credits", 0)
    if old >= n:
        return 0
    counters["credits"] = n
    ch[f"{path}.counters.credits"] = [old, n]
    return n - old


def spend(b: dict, side: str, amount: int, ch: dict) -> int:
    """Spend up to `amount` hosted recurring credits of `side`; returns how many were spent."""
    used = 0
    for path, c in active_cards(b, side):
        if used >= amount:
            break
        have = c.get("counters", {}).get("credits", 0)
        take = min(have, amount - used)
        if take:
            c["counters"]["credits"] = have - take
            key = f"{path}.counters.credits"
            ch[key] = [ch[key][0] if key in ch else have, have - take]
            used += take
    return used
