"""nrrules engine: step a Netrunner board state through the CR's timing structures.

Pure and deterministic: a board plus a decision gives a new board plus the events that fired, each
naming the CR step and rules it applied by stable id. Which steps exist, and their order, comes
from the loaded `scraper.Document`; numbers are resolved from the document only for display.

Public API (python-chess style)::

    structures(doc) -> list[dict]
        Structures startable in this CR version: {"id", "title", "section_id", "params"}.
        ids: corp_turn, runner_turn, run, breach, access, subroutine, trace, checkpoint, draw.
    validate_board(data) -> list[str]
        Every problem with a board, field-path prefixed ("servers.remote1.ice[0].rez_cost: must be
        a non-negative integer"); [] when valid. Format: docs/board-format.md,
        engine/board.schema.json.
    start(board, structure, doc, params=None, seed=0) -> Session
        Raises BoardError (with .problems) on a bad board, structure or params.
    legal_decisions(session) -> list[dict]
        [{"id": "pass" | "rez" | "rez:remote1.root.manta-grid" | "score:remote1" | "break:0" |
          "jack_out" | "continue" | "access:hq" | "access:root.manta-grid" | "pay_trash" | "no_trash" |
          "steal" | "decline_steal" | "spend:3" | "credit" | "draw" | "run:hq" | "play:hedge-fund" |
          "advance:remote1" | "remove_tag" | "discard:sure-gamble" | "install:ice-wall@new" |
          "use:corroder.0" | "sub:0" | "purge" | "trash_resource:daily-casts" |
          "prevent:hardware.carapace.0" | "trigger:resources.kati.0" | "ability:remote1.content.0" |
          "option:1" | "draw:2" | "pay" | "dont_pay" | "resolved",
          "label":
          plain English, "player": the player who decides (in a priority window, the one with
          priority, 9.2.7a)}]
    refused_decisions(session) -> list[Refusal]
        The obvious decisions the current step does not offer, each with `id`, `player`, `reason`
        (plain English) and `rule` (the stable id of the rule that refuses it): a purge with fewer
        than 3 clicks, a resource trash when the Runner is not tagged, a breaker of the wrong
        subtype or too weak, a trash cost the Runner cannot pay, ...
        Ids name cards (slugs), not positions: see engine.decision (Decision.from_id parses one;
        the positional ids of older sessions are still accepted).
    apply(session, decision_id) -> (Session, list[Event])
        Pure: the input session is never mutated. Raises IllegalDecision (with .legal) when the
        decision is not legal now.
    push(session, decision_id) -> list[Event]
        In place, like python-chess's Board.push: the session itself moves on (no state copy).
        For callers stepping many sessions; same result as apply.
    replay(board, structure, doc, params=None, seed=0, decisions=()) -> Session
        start + the decisions in order, without copying intermediate sessions (rebuilding a
        session from a token); same result as repeated apply.
    SessionSpec: the one serialised form of a session (version, structure, board as given,
        params, seed, decisions): Session.to_json() and the web app's URL tokens (which
        `nrrules step --json` prints) hold SessionSpec.to_payload(); see docs/board-format.md.
    Session: .spec() / .to_json() / Session.from_json(text, doc) (initial board + structure + params + seed
        + decisions; replayed on load), .board (current state dict), .current_step (stable id or
        None when finished), .finished, .outcome (Outcome: typed; .to_dict() is the JSON shape), .trace (list[Event]), .decisions.
    Event: dataclass(step, rules, text, changes); .to_dict().
    describe_event(event, doc) -> dict   adds "step_number", "step_text", "rule_numbers",
        "rule_texts" from doc.
    coverage(doc, walked_step_ids) -> dict   share of the version's timing steps walked.
    scenario_coverage(doc) -> dict   coverage of the built-in scenario suite (engine.scenarios).

Errors: EngineError (base), BoardError(problems), IllegalDecision(decision, legal, step).
"""

from . import _native

# first: whether the compiled modules may run (built, and built from these very sources), else
# every one is imported from its source (engine._native; NRRULES_PURE=1 asks for pure Python)
NATIVE, NATIVE_STATUS = _native.activate(__name__)

from .board import FORMAT, FORMAT_VERSION, normalise_board, validate_board  # noqa: E402
from .coverage import coverage, scenario_coverage  # noqa: E402
from .decision import Decision  # noqa: E402
from .describe import describe_event  # noqa: E402
from .errors import BoardError, EngineError, IllegalDecision  # noqa: E402
from .events import Event  # noqa: E402
from .outcome import Outcome  # noqa: E402
from .refusals import Refusal  # noqa: E402
from .session import Session, SessionSpec, apply, legal_decisions, push, refused_decisions, replay, start  # noqa: E402
from .structures import structures  # noqa: E402

__all__ = [
    "FORMAT",
    "FORMAT_VERSION",
    "BoardError",
    "Decision",
    "EngineError",
    "Event",
    "IllegalDecision",
    "Outcome",
    "Session",
    "SessionSpec",
    "apply",
    "push",
    "Refusal",
    "refused_decisions",
    "coverage",
    "describe_event",
    "legal_decisions",
    "normalise_board",
    "replay",
    "scenario_coverage",
    "start",
    "structures",
    "validate_board",
]
