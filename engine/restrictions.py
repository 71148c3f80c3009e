"""Play restrictions (CR 9.3.3, 9.3.3b): "Play only if ..." on an operation or event, as its
`play_if` (engine.board.PLAY_IF). `restriction_unmet` says whether the restriction is met now and
why not; `engine.turns.play_blocked`, the one evaluation of a play with its costs, reads it: the
action window offers `play:CARD` only when that says nothing and the refusals give its reason
(engine.refusals), so the two cannot disagree.
A restriction is active while its card is in the hand (9.1.8c)."""

from __future__ import annotations

from .rig import threat_level

_LAST_TURN_WORDS = {
    "successful_run": "made a successful run",
    "stole_agenda": "stole an agenda",
    "trashed_corp_card": "trashed a Corp card",
    "stole_or_trashed": "stole or trashed a Corp card",
}


def _last_turn(board: dict, want: str) -> bool:
    facts = board["runner"].get("last_turn") or ()
    if want == "stole_or_trashed":
        return "stole_agenda" in facts or "trashed_corp_card" in facts
    return want in facts


def restriction_unmet(board: dict, card: dict) -> str | None:
    """Why `card` (an operation or event with a `play_if`) cannot be played now, or None."""
    cond = card.get("play_if")
    if not cond:
        return None
    name = card["name"]
    runner = board["runner"]
    tags = runner["tags"]
    if "runner_tagged" in cond and bool(tags) != cond["runner_tagged"]:
        if cond["runner_tagged"]:
            return f"{name}: play only if the Runner is tagged; the Runner has no tags"
        return f"{name}: play only if the Runner is not tagged; the Runner has {tags} tag(s)"
    if tags < cond.get("runner_min_tags", 0):
        return (
            f"{name}: play only if the Runner has at least {cond['runner_min_tags']} tags; they have {tags}"
        )
    if "threat_level" in cond and threat_level(board) < cond["threat_level"]:
        return (
            f"{name}: play only if the threat level is {cond['threat_level']} or greater; "
            f"it is {threat_level(board)}"
        )
    points = sum(c.get("agenda_points", 0) for c in runner["score_area"])
    if points < cond.get("runner_agenda_points", 0):
        return (
            f"{name}: play only if the Runner has {cond['runner_agenda_points']} or more agenda points; "
            f"they have {points}"
        )
    want = cond.get("runner_last_turn")
    if want and not _last_turn(board, want):
        return (
            f"{name}: play only if the Runner {_LAST_TURN_WORDS[want]} during their last turn "
            "(the board's runner.last_turn says they did not)"
        )
    return None
