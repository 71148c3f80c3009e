"""The annotated game log: each line of an engine's log with the timing step it happens in and
the rules it exercises, in one CR version, and the cards it names.

    annotate(rules, log, version, corp, runner)    POST /api/annotate, `nrrules annotate LOG --json`

The reading itself (patterns, the game's timing position) is `rules_index.gamelog`, keyed by
stable id; this builder gives each id its number, title and page in the version asked for, and
each card name its card page when card data is built (exact names only: a log names cards in
full, and a near spelling is not linked). A line no pattern recognises is ``"unknown"`` with no
step and no rules: nothing is guessed.
"""

from __future__ import annotations

from typing import Any

from rules_index.gamelog import MAX_LINE, annotate_lines
from rules_index.store import LibraryError

from ..errors import BadRequest, PayloadTooLarge
from .context import Rules

MAX_LOG_BYTES = 128 * 1024  # about 1,500 lines of an engine's log
MAX_LINES = 2000


def check_log(log: Any) -> list[str]:
    """The lines of a log as given, or the error naming the bound it breaks."""
    if not isinstance(log, str):
        raise BadRequest(f"the log must be text (a string), not {type(log).__name__}")
    size = len(log.encode("utf-8", "surrogatepass"))
    if size > MAX_LOG_BYTES:
        raise PayloadTooLarge(f"the log is too large ({size} bytes, at most {MAX_LOG_BYTES})")
    lines = log.splitlines()
    if len(lines) > MAX_LINES:
        raise PayloadTooLarge(f"the log has too many lines ({len(lines)}, at most {MAX_LINES})")
    if not any(line.strip() for line in lines):
        raise BadRequest("the log is empty: send the lines of a game log, one event a line")
    for number, line in enumerate(lines, 1):
        if len(line) > MAX_LINE:
            raise BadRequest(f"line {number} is too long ({len(line)} characters, at most {MAX_LINE})")
    return lines


def decode_log(data: bytes) -> str:
    """A log sent as bytes (a text/plain body, a file), or BadRequest when it is not UTF-8."""
    if len(data) > MAX_LOG_BYTES:
        raise PayloadTooLarge(f"the log is too large ({len(data)} bytes, at most {MAX_LOG_BYTES})")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise BadRequest(f"the log is not UTF-8 text (byte {exc.start} cannot be read)") from None


MAX_NAME = 40


def check_players(corp: Any, runner: Any) -> tuple[str | None, str | None]:
    """The players' names a log uses for the Corp and the Runner (None: the log says "Corp" and
    "Runner"), or BadRequest."""
    out = []
    for side, name in (("corp", corp), ("runner", runner)):
        if name is None or name == "":
            out.append(None)
            continue
        if not isinstance(name, str) or not 1 <= len(name.strip()) <= MAX_NAME or "\n" in name:
            raise BadRequest(
                f"{side} must be the {side} player's name as the log prints it, 1 to {MAX_NAME} characters"
            )
        out.append(name.strip())
    if out[0] and out[1] and out[0].casefold() == out[1].casefold():
        raise BadRequest("the corp and runner players cannot have the same name")
    return out[0], out[1]


def annotate(
    rules: Rules, log: str, version: str | None = None, corp: str | None = None, runner: str | None = None
) -> dict[str, Any]:
    lines = check_log(log)
    corp, runner = check_players(corp, runner)
    v = rules.version(version)
    doc = rules.library.document(v)
    suffix = rules.suffix(v)
    try:
        store = rules.library.cards()
    except LibraryError:
        store = None

    refs: dict[str, dict[str, Any]] = {}

    def ref(rule_id: str) -> dict[str, Any]:
        out = refs.get(rule_id)
        if out is None:
            node = doc.node(rule_id)
            out = refs[rule_id] = {
                "id": rule_id,
                "number": node.number if node else None,
                "title": node.title if node else None,
                "url": f"/id/{rule_id}{suffix}" if node else None,
            }
        return out

    cards: dict[str, dict[str, Any] | None] = {}

    def card(name: str) -> dict[str, Any] | None:
        if name not in cards:
            found = store.named(name, 1, typos=False) if store is not None else []
            # exact names only: a log line names a card as printed (no typo, plural or part)
            hit = store.card(found[0].card_id) if found and found[0].how == "exact" else None
            cards[name] = (
                None
                if hit is None
                else {"name": name, "id": hit.id, "title": hit.title, "url": f"/c/{hit.id}"}
            )
        return cards[name]

    out = []
    linked = 0
    for note in annotate_lines(lines, corp, runner):
        known = note.event is not None
        linked += known
        out.append(
            {
                "line": note.line,
                "text": note.text,
                "status": "linked" if known else "unknown",
                "event": note.event,
                "step": ref(note.step) if note.step else None,
                "rules": [ref(r) for r in note.rules],
                "cards": [c for c in (card(n) for n in dict.fromkeys(note.cards)) if c is not None],
                "timing": note.timing,
            }
        )
    return {
        "version": v,
        "cards_built": store is not None,
        "counts": {"lines": len(out), "linked": linked, "unknown": len(out) - linked},
        "lines": out,
    }
