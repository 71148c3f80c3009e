"""The step machine: one handler per CR step id, walked in the order of the loaded document.

A frame (`Frame`: structure id, current step id (None once complete), vars) sits on a stack that
nests structures (a run calls a breach, which calls accesses, ...). A handler is called as
``handler(ctx, frame, decision)`` (the decision parsed, `engine.decision.Decision`, or None) and returns one of:

* ``None`` (NEXT): continue with the next step of the structure present in the document;
* ``("goto", step_id, ...)``: jump to the first of the given steps present in the document;
* ``("wait", decisions)``: stop; the player must choose (the same handler gets the decision);
* ``("call", structure, vars, then)``: walk another structure, then continue at ``then``
  (``None`` = the next step, ``"stay"`` = this step again);
* ``STAY``: run this handler again (a paid ability window after an action in it);
* ``END``: the structure is complete;  ``UNWOUND``: the frame stack was rewritten (end the run,
  game won), just continue.

The handlers live in modules named after the CR's timing structures (run, encounter, access,
abilities, trace, damage, turns, windows, checkpoints, draw); `engine.steps` imports them all.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from memo import ENTRY_BYTES, approx_bytes

from . import recurring
from .board import hand_size_bonus, normalise_effects
from .events import Event
from .locations import candidate_key, candidates

if TYPE_CHECKING:
    from .decision import Decision
    from .session import Session


class Signal:
    """A handler result that is not a tuple: compared by identity (`res is END`)."""

    __slots__ = ("name",)

    def __init__(self, name: str) -> None:
        self.name = name

    def __repr__(self) -> str:
        return self.name.upper()


STAY = Signal("stay")
END = Signal("end")
UNWOUND = Signal("unwound")
# The Run Ends Phase steps a run moves to when it ends early (the first present in the document).
RUN_ENDS = (
    "step_open_priority_windows_closed",
    "step_run_ends_bad_publicity",
    "step_run_declared_unsuccessful",
    "step_run_complete",
)
MAX_ITERATIONS = 100_000  # safety net against a malformed table; never reached by real boards

Handler = Callable[["Ctx", "Frame", "Decision | None"], Any]
HANDLERS: dict[str, Handler] = {}
# a narrating handler's (text, rules) (`narrate`; read by `narrated` and engine.structures.Tables)
NARRATED: dict[Handler, tuple[str, tuple[str, ...]]] = {}
# a checkpoint handler's `inputs(board)`: everything it reads (engine.checkpoints, `checkpoint`)
INPUTS: dict[Handler, Callable[[dict], Any]] = {}


def handles(*ids: str) -> Callable[[Handler], Handler]:
    def deco(fn: Handler) -> Handler:
        for i in ids:
            HANDLERS[i] = fn
        return fn

    return deco


def handler_for(step_id: str) -> Handler | None:
    h = HANDLERS.get(step_id)
    if h is None and step_id.startswith("rule_checkpoint_"):
        h = HANDLERS.get("step_checkpoint_" + step_id[len("rule_checkpoint_") :])
    return h


def modeled(step_id: str) -> bool:
    return handler_for(step_id) is not None


def narrated(step_id: str) -> bool:
    """A step the engine walks but only narrates: no board in the vocabulary makes it change
    anything (its handler is `narrate`)."""
    h = handler_for(step_id)
    return h is not None and h in NARRATED


# ----- frames and context ------------------------------------------------------------------------


@dataclass(slots=True)
class Frame:
    """One structure being walked: its id (`s`: "run", "breach", "access", "subroutine", ...), the
    step it is at (`at`: a stable id, None once complete) and its variables (`v`: plain JSON-like
    data, copied with the board when a session is cloned)."""

    s: str
    at: str | None
    v: dict[str, Any]


# ----- context ----------------------------------------------------------------------------------


# A shared plain event's own bytes beside its key's (which holds its text and rules): the Event
# object and its two empty dicts (memo.approx_bytes of one: ~330 bytes).
EVENT_BYTES = 400
_get = dict.get  # a memo read in C, without the LRU's refresh (engine.structures.MEMO_BOUNDS)


class Ctx:
    __slots__ = ("s", "doc", "board", "step", "cites", "trace", "events")

    def __init__(self, s: Session):
        self.s = s
        self.doc = s.doc
        self.board = s.board
        self.step = ""
        self.cites = s.tables.cites
        self.trace = s.trace
        self.events = s.tables.events

    def cite(self, *ids: str) -> list[str]:
        return list(self._present(ids))

    def _present(self, ids: tuple[str, ...]) -> tuple[str, ...]:
        """The cited ids the loaded document contains (memoised per document; immutable)."""
        hit = self.cites.get(ids)
        if hit is None:
            doc = self.doc
            hit = self.cites[ids] = tuple(i for i in ids if doc.node(i) is not None)
        return hit

    def has(self, step_id: str) -> bool:
        return self.doc.node(step_id) is not None

    def ev(
        self,
        text: str,
        rules: tuple[str, ...] | list[str] = (),
        changes: dict | None = None,
        applied: bool = True,
        objects: dict | None = None,
    ) -> None:
        key = rules if type(rules) is tuple else tuple(rules)
        if changes is None and objects is None:
            # a plain event (no changes, no objects) is a value: the same step, text, rules and
            # `applied` give an equal event, so one is built per document and shared, like a
            # narrated step's
            memo = (self.step, text, key, applied)
            e = _get(self.events, memo)
            if e is None:
                e = Event(self.step, self._present(key), text, {}, applied, {})
                self.events.put(memo, e, ENTRY_BYTES + approx_bytes(memo) + EVENT_BYTES)
            self.trace.append(e)
            return
        present = self.cites.get(key)
        if present is None:
            present = self._present(key)
        self.trace.append(
            Event(
                self.step,
                present,
                text,
                {} if changes is None else changes,
                applied,
                {} if objects is None else objects,
            )
        )

    def rand(self, n: int) -> int:
        """A seeded random integer in [0, n); the draw number is part of the state."""
        r = random.Random(f"{self.s.seed}:{self.s.rng_n}").randrange(n)
        self.s.rng_n += 1
        return r

    # money --------------------------------------------------------------------------------
    def spendable(self, side: str) -> int:
        p = self.board[side]
        n = p["credits"] + (p.get("bad_publicity_fund", 0) if side == "runner" else 0)
        # a board with no recurring credits anywhere never has any (Session.kinds)
        return n + recurring.hosted_credits(self.board, side) if "recurring" in self.s.kinds else n

    def pay(self, side: str, amount: int, ch: dict) -> list[str]:
        """Pay `amount`; the Runner spends bad publicity fund credits first. Returns rules cited."""
        p = self.board[side]
        rules: list[str] = []
        if side == "runner" and p["bad_publicity_fund"] and amount:
            use = min(p["bad_publicity_fund"], amount)
            ch["runner.bad_publicity_fund"] = [p["bad_publicity_fund"], p["bad_publicity_fund"] - use]
            p["bad_publicity_fund"] -= use
            amount -= use
            rules += [
                "rule_bad_publicity_fund",
                "rule_runner_can_pay_bad_publicity_costs",
                "rule_bad_publicity_beginning_run",
                "rule_bad_publicity_in_credit_pool",
            ]
        if amount and "recurring" in self.s.kinds:
            used = recurring.spend(self.board, side, amount, ch)
            if used:
                amount -= used
                rules += ["rule_recurring_credits", "rule_spend_credits"]
        if amount:
            setv(p, side, "credits", p["credits"] - amount, ch)
        return rules

    def run_frame(self) -> Frame | None:
        for f in reversed(self.s.frames):
            if f.s == "run":
                return f
        return None


def setv(obj: dict, prefix: str, key: str, value: Any, ch: dict) -> None:
    old = obj[key]
    if old != value:
        path = f"{prefix}.{key}"
        ch[path] = [ch[path][0] if path in ch else old, value]
        obj[key] = value


def goto(*ids: str) -> tuple:
    return ("goto", *ids)


def wait(decisions: list[dict]) -> tuple:
    return ("wait", decisions)


def call(structure: str, v: dict, then: str | None = None) -> tuple:
    return ("call", structure, v, then)


def dec(id_: str, label: str, player: str) -> dict:
    return {"id": id_, "label": label, "player": player}


def opponent(side: str) -> str:
    return "runner" if side == "corp" else "corp"


def score(board: dict, side: str) -> int:
    area = board[side]["score_area"]
    return sum(c.get("agenda_points", 0) for c in area) if area else 0


def max_hand(board: dict, side: str) -> int:
    p = board[side]
    if side == "corp":  # the Corp identity's "+N maximum hand size" (1.13.3b), a constant ability
        return p["max_hand_size"] + (p.get("identity") or {}).get("hand_size", 0)
    # installed cards' "+N maximum hand size" (1.13.3b), less each core damage (1.13.3a)
    return p["max_hand_size"] + hand_size_bonus(p["rig"]) - p["core_damage"]


# ----- the loop ---------------------------------------------------------------------------------


def initial_frame(structure: str, params: dict, board: dict, first: str) -> Frame:
    v = dict(params)
    if structure == "draw":
        v.setdefault("player", board["turn"])
        v.setdefault("count", 1)
    if structure in ("subroutine",):
        v = {"instructions": _as_list(params["subroutine"]), "source": "the subroutine", "i": 0}
    if structure == "trace":
        v = {
            "strength": params["strength"],
            "on_success": _as_list(params.get("on_success", [])),
            "on_failure": _as_list(params.get("on_failure", [])),
        }
    if structure == "access":
        cands = candidates(board, params["server"], random_left=True)
        key = candidate_key(board, params["server"], params["card"]) if "card" in params else cands[0][0]
        v = {"server": params["server"], "pick": key}
    return Frame(structure, first, v)


def _as_list(v: Any) -> list[dict]:
    return normalise_effects(v)  # nested effects too ("if_tagged": {"effects": ["end_the_run"]})


def advance(s: Session, decision: Decision | None) -> None:
    """Walk until a decision is needed or the structure is finished."""
    ctx = Ctx(s)
    plan = s.tables.plan
    frames = s.frames
    s.pending = []
    for _ in range(MAX_ITERATIONS):
        if s.finished:
            s.pending = []
            return
        if not frames:
            s.finished = True
            return
        f = frames[-1]
        at = f.at
        if at is None:
            frames.pop()
            if frames:
                frames[-1].v["ret"] = f.v.get("ret")
            continue
        steps = plan[f.s]
        # walk this frame's steps while each handler returns None (NEXT) and leaves the stack
        # and the game as they were: the common case, without the outer loop's checks
        while True:
            entry = steps.get(at)
            if entry is None:  # a step of another structure (never for the document's own tables)
                entry = (step_handler(at, None), None)
            h, nxt = entry
            ctx.step = at
            res = h(ctx, f, decision)
            decision = None
            if res is not None or nxt is None or s.finished or frames[-1] is not f:
                break
            f.at = at = nxt
        if res is None:
            f.at = nxt
        elif res is STAY or res is UNWOUND:
            continue
        elif res is END:
            f.at = None
        else:
            kind = res[0]
            if kind == "goto":
                for t in res[1:]:  # the first of the steps present in the document
                    if t in steps:
                        f.at = t
                        break
                else:
                    f.at = None
            elif kind == "wait":
                s.pending = res[1]
                return
            elif kind == "call":
                _, structure, v, then = res
                if then == "stay":
                    pass
                elif then is None:
                    f.at = nxt
                else:
                    f.at = then if then in steps else nxt
                if structure == "checkpoint":
                    # A checkpoint never waits for a decision: walk its steps inline (same events).
                    checkpoint(ctx)
                    continue
                first = s.steps[structure]
                frames.append(Frame(structure, first[0] if first else None, v))
            else:  # pragma: no cover - programming error
                raise AssertionError(f"bad handler result {res!r}")
    raise AssertionError("engine did not settle")  # pragma: no cover


def checkpoint(ctx: Ctx) -> None:
    """Walk the document's checkpoint steps (10.3.1) in order; stops early if the game ends.

    Most checkpoints change nothing. Each checkpoint handler declares `inputs(board)`: what it
    reads (scores, empty remote servers); when they are what a past checkpoint on this document
    saw and that one only narrated (plain events, no change, no game end), its events (shared
    values) are appended again without walking the steps (`Tables.checkpoints`, bounded)."""
    s = ctx.s
    t = s.tables
    trace = s.trace
    inputs = t.checkpoint_inputs
    key = None
    if inputs is not None:
        b = ctx.board
        key = tuple([fn(b) for fn in inputs])
        told = _get(t.checkpoints, key)
        if told is not None:
            trace.extend(told)
            ctx.step = t.checkpoint_last
            return
    before = len(trace)
    for step_id, h, told in t.checkpoint_plan:
        if told:  # a run of narrated steps: their events are the same every time (shared values)
            trace.extend(told)
            continue
        ctx.step = step_id
        if h is None:
            ctx.ev("This step is not modeled by the engine; it has no effect here.", applied=False)
            continue
        if h(ctx, Frame("checkpoint", step_id, {}), None) is UNWOUND or s.finished:
            return
    if key is not None:
        walked = trace[before:]
        if all(not e.changes and not e.objects for e in walked):
            told = tuple(walked)
            t.checkpoints.put(key, told, ENTRY_BYTES + approx_bytes(key) + 64 * len(told))


def _unmodeled(ctx: Ctx, f: Frame, d: Decision | None) -> Any:
    ctx.ev("This step is not modeled by the engine; it has no effect here.", applied=False)
    return None


def step_handler(step_id: str, told: Event | None) -> Handler:
    """What the step machine calls at a step: its handler; for a step that only narrates, one
    that appends its event (`told`: a value built once per document) without building it again;
    for a step the engine does not model, one that says so."""
    if told is not None:

        def h(ctx: Ctx, f: Frame, d: Decision | None) -> Any:
            ctx.trace.append(told)
            return None

        return h
    return handler_for(step_id) or _unmodeled


def narrate(text: str, *rules: str) -> Handler:
    """A step the engine walks but only narrates: nothing on the board makes it apply."""

    def h(ctx: Ctx, f: Frame, d: Decision | None) -> Any:
        ctx.ev(text, rules, applied=False)
        return None

    NARRATED[h] = (text, rules)
    return h


def loop_back(text: str, target: str) -> Handler:
    """A "return to ..." step of a loop: narrate it and go back to ``target``."""

    def h(ctx: Ctx, f: Frame, d: Decision | None) -> Any:
        ctx.ev(text)
        return goto(target)

    return h


def complete(text: str) -> Handler:
    """A "... is complete" step: narrate it and end the structure."""

    def h(ctx: Ctx, f: Frame, d: Decision | None) -> Any:
        ctx.ev(text.format(source=f.v.get("source", "")))
        return END

    return h
