"""A board from card names: what to run against, said in card names, as an engine board.

The board editor places NetrunnerDB cards one by one (GET /api/cards/<card>/board gives each
card's engine-ready object); this does the same for a whole situation at once, for callers that
name cards rather than write board JSON (the MCP server's `engine_start`):

    board_from_cards(rules, server="remote1", ice=["Tollbooth", "Ice Wall"],
                     content="Hostile Takeover", rig=["Corroder"], runner={"credits": 8})

Each name is found as `cards.find` finds it (id, NetrunnerDB code, or name forgiving case and
punctuation; `CardNotFound` with near names otherwise) and turned into its board object by
`cards.board`. The result is checked by the engine like any board (`BadBoard` names each
problem by field path).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..errors import BadRequest
from . import cards as card_payloads
from .context import Rules

MAX_CARDS = 30  # names in one list (a server holds at most 30 pieces of ice)
RIG_ZONES = {"program": "programs", "hardware": "hardware", "resource": "resources"}
SERVERS = "hq, rd, archives or remote1..remote99"


def _board_card(rules: Rules, name: Any, where: str) -> dict[str, Any]:
    if not isinstance(name, str):
        raise BadRequest(f"{where}: a card name is a string, not {type(name).__name__}")
    card = card_payloads.find(rules, name)
    obj = card_payloads.board(rules, card)["card"]
    if obj is None:
        raise BadRequest(f"{where}: {card.title} has no place on the board")
    return obj


def _names(value: Sequence[str] | None, where: str) -> list[Any]:
    if value is None:
        return []
    if isinstance(value, str) or not isinstance(value, Sequence):
        raise BadRequest(f"{where} must be a list of card names")
    if len(value) > MAX_CARDS:
        raise BadRequest(f"{where}: at most {MAX_CARDS} cards, not {len(value)}")
    return list(value)


def _a(kind: str | None) -> str:
    word = kind or "card"
    return ("an " if word[0] in "aeiou" else "a ") + word


def _typed(rules: Rules, names: list[Any], where: str, types: set[str]) -> list[dict[str, Any]]:
    out = []
    for i, name in enumerate(names):
        obj = _board_card(rules, name, f"{where}[{i}]")
        if obj.get("type") not in types:
            raise BadRequest(
                f"{where}[{i}]: {obj['name']} is {_a(obj.get('type'))}, not {' or '.join(sorted(types))}"
            )
        out.append(obj)
    return out


def board_from_cards(
    rules: Rules,
    *,
    server: str = "hq",
    ice: Sequence[str] | None = None,
    root: Sequence[str] | None = None,
    content: str | None = None,
    rig: Sequence[str] | None = None,
    identity: str | None = None,
    corp_identity: str | None = None,
    rezzed: bool = True,
    corp: dict[str, Any] | None = None,
    runner: dict[str, Any] | None = None,
    turn: str = "runner",
) -> dict[str, Any]:
    """The board: `ice` (outermost first), `root` (upgrades) and `content` (an agenda or asset,
    remotes only) on `server`; `rig` (programs, hardware, resources, placed by type) and
    `identity` for the Runner (a Corp identity named there goes to the Corp), `corp_identity`
    for the Corp; `rezzed` for the Corp's installed cards; `corp` and `runner`
    merged over the players' defaults (e.g. ``{"credits": 8}``)."""
    server = (server or "hq").strip().lower()
    for label, value in (("corp", corp), ("runner", runner)):
        if value is not None and not isinstance(value, dict):
            raise BadRequest(f'{label} must be an object of the player\'s fields, e.g. {{"credits": 8}}')
    installed: dict[str, Any] = {}
    ice_cards = _typed(rules, _names(ice, "ice"), "ice", {"ice"})
    root_cards = _typed(rules, _names(root, "root"), "root", {"upgrade"})
    for obj in (*ice_cards, *root_cards):
        obj["rezzed"] = rezzed
    if ice_cards:
        installed["ice"] = ice_cards
    if root_cards:
        installed["root"] = root_cards
    if content is not None:
        if not server.startswith("remote"):
            raise BadRequest(f"content goes in a remote server (remote1..remote99), not {server}")
        (obj,) = _typed(rules, [content], "content", {"agenda", "asset"})
        if obj["type"] == "asset":
            obj["rezzed"] = rezzed
        installed["content"] = obj
    the_runner: dict[str, Any] = {"credits": 5, "clicks": 4, "hand": 5, "deck": 10}
    rig_cards: dict[str, list[dict[str, Any]]] = {}
    for i, name in enumerate(_names(rig, "rig")):
        obj = _board_card(rules, name, f"rig[{i}]")
        zone = RIG_ZONES.get(obj.get("type") or "")
        if zone is None:
            raise BadRequest(
                f"rig[{i}]: {obj['name']} is {_a(obj.get('type'))}, not a program, hardware or resource"
            )
        rig_cards.setdefault(zone, []).append(obj)
    if rig_cards:
        the_runner["rig"] = rig_cards
    the_corp: dict[str, Any] = {"credits": 5, "hand": 5, "deck": 30}
    for label, name in (("identity", identity), ("corp_identity", corp_identity)):
        if name is None:
            continue
        card = card_payloads.find(rules, name) if isinstance(name, str) else None
        obj = _board_card(rules, name, label)
        if "type" in obj or card is None:
            raise BadRequest(f"{label}: {obj['name']} is {_a(obj.get('type'))}, not an identity")
        side = "corp" if card.card_type_id == "corp_identity" else "runner"
        if label == "corp_identity" and side != "corp":
            raise BadRequest(f"corp_identity: {obj['name']} is the Runner's identity")
        (the_corp if side == "corp" else the_runner)["identity"] = obj
    from engine.board import FORMAT_VERSION  # the engine: only when a board is made

    board: dict[str, Any] = {
        "version": FORMAT_VERSION,
        "turn": turn,
        "corp": {**the_corp, **(corp or {})},
        "runner": {**the_runner, **(runner or {})},
        "servers": {server: installed} if installed else {},
    }
    return board
