"""The CR timing structures the engine walks, as data.

Each structure is keyed by a short id and names the stable id of the CR section whose steps it
walks. Which steps exist, and in which order, always comes from the loaded `Document`.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from memo import LRU, MB
from scraper import Document


@dataclass(frozen=True)
class Structure:
    id: str
    title: str
    section_id: str
    params: dict[str, str] = field(default_factory=dict)  # name -> description
    startable: bool = True
    # accepted params not (yet) listed by `structures()` (the web editor builds a field per listed
    # param); documented in docs/board-format.md
    advanced: dict[str, str] = field(default_factory=dict)


STRUCTURES: tuple[Structure, ...] = (
    Structure("corp_turn", "The Corp's turn", "sec_steps_corp_turn"),
    Structure("runner_turn", "The Runner's turn", "sec_steps_runner_turn"),
    Structure(
        "run",
        "A run",
        "sec_steps_of_a_run",
        {"server": "required: the attacked server (hq, rd, archives or remoteN)"},
        advanced={
            "additional_access": "optional: additional cards accessed if HQ or R&D is breached (7.3.5b)",
            "corp_chooses_hq": "optional: true if the Corp chooses the cards accessed from HQ (Dedicated Neural Net)",
        },
    ),
    Structure(
        "breach",
        "Breaching a server",
        "sec_breaching_steps",
        {"server": "required: the breached server (hq, rd, archives or remoteN)"},
        advanced={
            "additional_access": "optional: additional cards accessed from HQ or R&D (7.3.5b)",
            "corp_chooses_hq": "optional: true if the Corp chooses the cards accessed from HQ (Dedicated Neural Net)",
        },
    ),
    Structure(
        "access",
        "Accessing a card",
        "sec_steps_accessing_card",
        {
            "server": "required: the server holding the card (hq, rd, archives or remoteN)",
            "card": "optional: which card: 'content', 'root.N', 'archives.N', 'hq' (random) or 'rd' "
            "(top card); default: the first candidate",
        },
    ),
    Structure(
        "subroutine",
        "Resolving a subroutine",
        "sec_steps_of_resolving_a_subroutine",
        {"subroutine": "required: an effect or list of effects from the board vocabulary"},
    ),
    Structure(
        "trace",
        "A trace",
        "rule_steps_of_resolving_trace_attempt",
        {
            "strength": "required: base trace strength (non-negative integer)",
            "on_success": "optional: effects if successful",
            "on_failure": "optional: effects if unsuccessful",
        },
    ),
    Structure("checkpoint", "A checkpoint", "rule_checkpoints"),
    Structure(
        "draw",
        "Drawing cards",
        "sec_steps_of_drawing_n_cards",
        {
            "player": "optional: 'corp' or 'runner' (default: the player whose turn it is)",
            "count": "optional: N (default 1)",
        },
    ),
    Structure("paid_ability", "Using a paid ability", "sec_steps_of_using_a_paid_ability", startable=False),
    Structure(
        "conditional_ability",
        "Triggering and resolving a conditional ability",
        "sec_steps_of_triggering_and_resolving_a_conditional_ability",
        startable=False,
    ),
    Structure(
        "play_ability", "Resolving a play ability", "sec_steps_of_resolving_a_play_ability", startable=False
    ),
)

BY_ID: dict[str, Structure] = {s.id: s for s in STRUCTURES}

# Kinds of node that count as steps of a structure. The checkpoint list was made of sub-rules
# (rule_checkpoint_*) before 24.03 and of steps (step_checkpoint_*) since.
STEP_KINDS = ("step",)
CHECKPOINT_KINDS = ("step", "subrule")


def structure_steps(doc: Document, structure_id: str) -> list[str]:
    """Stable ids of the steps of a structure in `doc`, in document order ([] if absent)."""
    s = BY_ID[structure_id]
    if doc.node(s.section_id) is None:
        return []
    kinds = CHECKPOINT_KINDS if structure_id == "checkpoint" else STEP_KINDS
    return [n.id for n in doc.descendants(s.section_id) if n.kind in kinds]


def step_table(doc: Document) -> dict[str, list[str]]:
    return {s.id: structure_steps(doc, s.id) for s in STRUCTURES}


# The per-document memos of `Tables`: (entries, bytes) each. Like every cache of the project they
# are bounded in bytes as well as entries (memo.LRU; issue 16 item 8): a board may be 256 KB
# and its card texts end up in events, so an entry bound alone does not bound memory. Reads on
# the hot paths are `dict.get(memo, key)` (C, no refresh: entries leave oldest first); writes go
# through `LRU.put` with the entry's weight. At most 18 MB per CR version loaded.
MEMO_BOUNDS: dict[str, tuple[int, int]] = {
    "events": (4096, 4 * MB),  # plain events shared by every session (engine.machine.Ctx.ev)
    "checkpoints": (1024, 2 * MB),  # quiet checkpoints' events by their inputs (machine.checkpoint)
    "prepared": (128, 4 * MB),  # validated, normalised boards (engine.session._prepare)
    "started": (128, 8 * MB),  # sessions up to their first decision (engine.session.start)
}


class Tables:
    """Per-document lookup tables derived from the document alone (never game state): the step
    lists, each step's successor, a memo of which cited rule ids the document contains, and
    bounded memos of prepared boards and started sessions. Owned by the document (`tables(doc)`)."""

    __slots__ = (
        "version",
        "source_hash",
        "steps",
        "next_of",
        "cites",
        "checkpoint_plan",
        "checkpoint_inputs",
        "checkpoint_last",
        "checkpoints",
        "prepared",
        "started",
        "handlers",
        "narrated",
        "plan",
        "events",
    )

    def __init__(self, doc: Document):
        self.version = doc.version
        self.source_hash = doc.source_hash
        self.steps = step_table(doc)
        self.next_of = {
            k: {v[i]: (v[i + 1] if i + 1 < len(v) else None) for i in range(len(v))}
            for k, v in self.steps.items()
        }
        self.cites: dict[tuple[str, ...], tuple[str, ...]] = {}
        # plain events (no changes, no objects) by (step, text, rules, applied): values shared by
        # every session on this document (engine.machine.Ctx.ev); bounded
        self.events: LRU = LRU(*MEMO_BOUNDS["events"])
        from .events import Event
        from .machine import INPUTS, NARRATED, step_handler
        from .steps import handler_for  # steps imports this module

        # every step's handler (None when the engine does not model it), looked up once
        self.handlers = {i: handler_for(i) for ids in self.steps.values() for i in ids}
        # the event of every narrated step (its handler only narrates): the same every time, so a
        # value built once that the step machine appends without calling the handler
        self.narrated: dict[str, Event] = {}
        for i, h in self.handlers.items():
            told = None if h is None else NARRATED.get(h)
            if told is not None:
                text, rules = told
                rules = tuple(r for r in rules if doc.node(r) is not None)
                self.narrated[i] = Event(i, rules, text, {}, False, {})
        # the step machine's table: structure -> step -> (what to call, the next step of the
        # structure), one lookup per step walked (`machine.step_handler`: a narrated step's call
        # appends its event, built once above)
        self.plan: dict[str, dict[str, tuple]] = {
            k: {i: (step_handler(i, self.narrated.get(i)), nxt.get(i)) for i in nxt}
            for k, nxt in self.next_of.items()
        }
        # checkpoint steps: (step id, handler, ()) for a step that is walked, ("", None, events)
        # for a run of narrated steps (their events, appended at once)
        plan: list[tuple] = []
        for i in self.steps.get("checkpoint", ()):
            event = self.narrated.get(i)
            if event is None:
                plan.append((i, handler_for(i), ()))
            elif plan and plan[-1][2]:
                plan[-1] = ("", None, (*plan[-1][2], event))
            else:
                plan.append(("", None, (event,)))
        self.checkpoint_plan = tuple(plan)
        # what the checkpoint handlers read (`inputs(board)` of each), None when one does not say
        # (then every checkpoint is walked); the last handler step (`Ctx.step` after a walk); and
        # the events of quiet checkpoints by those inputs (engine.machine.checkpoint; bounded)
        handlers = [h for _, h, told in plan if not told and h is not None]
        fns = [INPUTS.get(h) for h in handlers]
        self.checkpoint_inputs = None if None in fns else tuple(fns)
        self.checkpoint_last = next((i for i, _, told in plan[::-1] if not told), "")
        self.checkpoints: LRU = LRU(*MEMO_BOUNDS["checkpoints"])
        # boards validated and normalised for sessions on this document (engine.session._prepare):
        # marshalled board -> (problems, marshalled normalised board, its kinds); bounded
        self.prepared: LRU = LRU(*MEMO_BOUNDS["prepared"])
        # sessions started on this document up to their first decision (engine.session.start):
        # marshalled (board, structure, params, seed) -> the session's state as a value; bounded
        self.started: LRU = LRU(*MEMO_BOUNDS["started"])


def tables(doc: Document) -> Tables:
    """The engine's tables for `doc`, built once and owned by the document (`Document.derived`)."""
    return doc.derived("engine.tables", Tables)


def structures(doc: Document) -> list[dict]:
    """The structures startable in this version of the CR."""
    out = []
    for s in STRUCTURES:
        if not s.startable or not structure_steps(doc, s.id):
            continue
        out.append({"id": s.id, "title": s.title, "section_id": s.section_id, "params": dict(s.params)})
    return out
