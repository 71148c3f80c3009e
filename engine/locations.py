"""Cards and their locations on the normalised board; breach candidates (7.4)."""

from __future__ import annotations

from .decision import Decision, card_ref, find_card


def advanceable(c: dict | None) -> bool:
    """Can the Corp advance this installed card (1.18.3)? An agenda always; another card when it
    says "you can advance this ..." (`advanceable`), even while it is unrezzed."""
    return c is not None and (c.get("type") == "agenda" or bool(c.get("advanceable")))


def get_card(board: dict, ref: list) -> dict | None:
    try:
        kind = ref[0]
        if kind == "content":
            return board["servers"][ref[1]]["content"]
        if kind == "root":
            return board["servers"][ref[1]]["root"][ref[2]]
        return board["corp"][kind][ref[1]]  # hand / deck / discard
    except (KeyError, IndexError, TypeError):
        return None


def take_card(board: dict, ref: list) -> dict:
    kind = ref[0]
    if kind == "content":
        card = board["servers"][ref[1]]["content"]
        board["servers"][ref[1]]["content"] = None
        return card
    if kind == "root":
        return board["servers"][ref[1]]["root"].pop(ref[2])
    return board["corp"][kind].pop(ref[1])


def candidates(board: dict, server: str, random_left: bool) -> list[tuple[str, str, list | None]]:
    """(decision key, label, ref) for the current candidates of a breach (7.4)."""
    srv = board["servers"].get(server)
    if srv is None:
        return []
    out: list[tuple[str, str, list | None]] = []
    root = srv["root"]
    for i, c in enumerate(root):
        if not c.get("accessed"):
            out.append(
                (
                    f"root.{card_ref(root, i)}",
                    f"Access {c['name']} (upgrade in the root of {server})",
                    ["root", server, i],
                )
            )
    if srv.get("content") is not None and not srv["content"].get("accessed"):
        out.append(
            ("content", f"Access {srv['content']['name']} (installed in {server})", ["content", server])
        )
    corp = board["corp"]
    if server == "hq" and random_left and any(not c.get("accessed") for c in corp["hand"]):
        out.append(("hq", "Access a random card from HQ", None))
    if server == "rd" and random_left:
        for i, c in enumerate(corp["deck"]):
            if not c.get("accessed"):
                out.append(("rd", "Access the top card of R&D", ["deck", i]))
                break
    if server == "archives":
        pile = corp["discard"]
        for i, c in enumerate(pile):
            if not c.get("accessed"):
                out.append(
                    (f"archives.{card_ref(pile, i)}", f"Access {c['name']} in Archives", ["discard", i])
                )
    return out


def candidate_key(board: dict, server: str, key: str) -> str:
    """A candidate key as `candidates` names it: the positional keys of older sessions
    ("root.0", "archives.2") become the card-named ones; other keys are returned unchanged."""
    try:
        d = Decision.from_id(f"access:{key}")
    except ValueError:
        return key
    if d.pos is None:
        return key
    cards = board["corp"]["discard"] if d.zone == "archives" else board["servers"][server]["root"]
    if d.pos >= len(cards):
        return key
    return f"{d.zone}.{card_ref(cards, d.pos)}"


def access_key(d: Decision) -> str | None:
    """The candidate key an `access:` decision names."""
    return d.zone if d.card is None else f"{d.zone}.{d.card}"


def clear_access_marks(board: dict) -> None:
    for zone in ("hand", "deck", "discard"):
        for c in board["corp"][zone]:
            c.pop("accessed", None)
    for srv in board["servers"].values():
        for c in srv["root"]:
            c.pop("accessed", None)
        if srv.get("content"):
            srv["content"].pop("accessed", None)


def corp_ability_cards(b: dict, rezzed_only: bool = True) -> list[tuple[str, dict]]:
    """Installed Corp cards that carry abilities, each with the location that names it in a
    decision id (``hq.root.manta-grid``, ``remote1.ice.ice-wall``, ``remote1.content``): per
    server its ice, then its root, then a remote's content. Unrezzed cards only if asked
    (their abilities are inactive, 1.8.3c, but refusals explain them)."""
    found: list[tuple[str, dict]] = []
    for name, srv in b["servers"].items():
        for zone in ("ice", "root"):
            cards = srv[zone]
            for i, c in enumerate(cards):
                if "abilities" in c and (c.get("rezzed") or not rezzed_only):
                    found.append((f"{name}.{zone}.{card_ref(cards, i)}", c))
        c = srv.get("content")
        if c and "abilities" in c and (c.get("rezzed") or not rezzed_only):
            found.append((f"{name}.content", c))
    ident = b["corp"].get("identity")
    if ident and "abilities" in ident:  # the Corp's identity: always active (never rezzed)
        found.append((f"corp_identity.{card_ref([ident], 0)}", ident))
    return found


def card_at(b: dict, key: str) -> tuple[dict, str] | None:
    """The installed card or scored agenda a location key names, with the path its changes are
    recorded under: the keys of trigger instances and Corp abilities without their ability index
    (``programs.hantu``, ``hardware.lilypad``, ``hq.ice.sandstone``, ``remote1.content``,
    ``remote1.root.cold-site-server``, ``score_area.flower-sermon``). None when no card is there
    (it left play: counters placed "on this card" then go nowhere)."""
    parts = key.split(".")
    if parts[0] in ("programs", "hardware", "resources") and len(parts) == 2:
        cards = b["runner"]["rig"][parts[0]]
        i = find_card(cards, parts[1])
        return None if i is None else (cards[i], f"runner.rig.{parts[0]}.{parts[1]}")
    if parts[0] == "score_area" and len(parts) == 2:
        cards = b["corp"]["score_area"]
        i = find_card(cards, parts[1])
        return None if i is None else (cards[i], f"corp.score_area.{parts[1]}")
    srv = b["servers"].get(parts[0])
    if srv is None:
        return None
    if len(parts) == 2 and parts[1] == "content":
        return None if srv.get("content") is None else (srv["content"], f"servers.{key}")
    if len(parts) == 3 and parts[1] in ("ice", "root"):
        i = find_card(srv[parts[1]], parts[2])
        return None if i is None else (srv[parts[1]][i], f"servers.{key}")
    return None
