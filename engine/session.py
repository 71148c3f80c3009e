"""Session, Event and the public stepping API (start / legal_decisions / apply)."""

from __future__ import annotations

import json
import marshal
from dataclasses import dataclass, field
from typing import Any

from memo import ENTRY_BYTES, approx_bytes
from scraper import Document

from . import refusals as _refusals
from . import steps as _steps
from .board import normalise_board, validate_board
from .decision import Decision
from .errors import BoardError, IllegalDecision
from .events import Event
from .locations import candidate_key
from .machine import Frame
from .outcome import Outcome
from .refusals import Refusal
from .structures import BY_ID, Tables, tables

SESSION_FORMAT = 1


@dataclass
class SessionSpec:
    """What a session is made of, and its one serialised form: `Session.to_json`, the web app's
    signed URL tokens (which `nrrules step --json` prints) all hold `to_payload()`:
    ``{"f": 1, "v": "26.03", "s": "run", "p": {"server": "hq"}, "r": 0, "b": {board as given},
    "d": ["rez", "pass"]}``. Replaying the decisions rebuilds the session exactly (the engine is
    deterministic, its randomness seeded)."""

    version: str
    structure: str
    # as the caller sent them (a JSON board, params), checked when the session starts: `Any`, so
    # that the compiled class (engine._native) holds a bad one for `start` to refuse clearly
    board: Any
    params: Any = field(default_factory=dict)
    seed: int = 0
    decisions: list[str] = field(default_factory=list)

    def to_payload(self) -> dict[str, Any]:
        return {
            "f": SESSION_FORMAT,
            "v": self.version,
            "s": self.structure,
            "p": self.params,
            "r": self.seed,
            "b": self.board,
            "d": self.decisions,
        }

    def to_json(self) -> str:
        return json.dumps(self.to_payload(), separators=(",", ":"), ensure_ascii=False)

    @classmethod
    def from_payload(cls, data: Any, version: str | None = None) -> SessionSpec:
        """Check a payload; raises BoardError listing every problem. Accepts the forms written
        before the format was shared: no "f" (URL tokens) and "cr" for "v" (Session.to_json);
        `version` stands in for a payload that names none."""
        if not isinstance(data, dict):
            raise BoardError(["session: must be a JSON object"])
        problems = []
        if data.get("f", SESSION_FORMAT) != SESSION_FORMAT:
            problems.append(
                f"session.f: unsupported session format {data.get('f')!r} (supported: {SESSION_FORMAT})"
            )
        version = data.get("v", data.get("cr", version))
        if not isinstance(version, str):
            problems.append("session.v: missing or wrong type")
        for key, typ in (("b", dict), ("s", str), ("d", list)):
            if not isinstance(data.get(key), typ):
                problems.append(f"session.{key}: missing or wrong type")
        params = data.get("p") or {}
        if not isinstance(params, dict):
            problems.append("session.p: missing or wrong type")
        seed = data.get("r") or 0
        if not isinstance(seed, int) or isinstance(seed, bool):
            problems.append("session.r: seed must be an integer")
        if isinstance(data.get("d"), list) and not all(isinstance(x, str) for x in data["d"]):
            problems.append("session.d: decisions must be strings")
        if problems:
            raise BoardError(problems)
        return cls(version, data["s"], data["b"], params, seed, list(data["d"]))

    @classmethod
    def from_json(cls, text: Any, version: str | None = None) -> SessionSpec:
        try:
            data = json.loads(text)
        except (ValueError, TypeError) as e:
            raise BoardError([f"session: not valid JSON ({e})"]) from None
        return cls.from_payload(data, version)

    def with_decisions(self, decisions: list[str]) -> SessionSpec:
        return SessionSpec(self.version, self.structure, self.board, self.params, self.seed, list(decisions))


def _copy(o: Any) -> Any:
    """Fast deep copy of JSON-like data (dict / list / str / int / bool / None)."""
    return marshal.loads(marshal.dumps(o))


class Session:
    """A board stepping through one timing structure. Treat as immutable: `apply` returns a new one.

    Serialises as the initial board + structure + params + seed + decisions taken; loading
    replays the decisions, so a session resumes exactly (including seeded randomness).
    """

    __slots__ = (
        "doc",
        "_initial",
        "structure",
        "params",
        "seed",
        "decisions",
        "board",
        "frames",
        "pending",
        "finished",
        "result",
        "rng_n",
        "trace",
        "steps",
        "next_of",
        "tables",
        "kinds",
    )

    def __init__(self) -> None:
        self.doc: Document
        # the board as given: a dict, or its marshalled bytes until first read (`initial`)
        self._initial: dict | bytes = {}
        self.structure = ""
        self.params: dict = {}
        self.seed = 0
        self.decisions: list[str] = []
        self.board: dict = {}
        self.frames: list[Frame] = []
        self.pending: list[dict] = []
        self.finished = False
        self.result: dict = {}
        self.rng_n = 0
        self.trace: list[Event] = []
        self.steps: dict[str, list[str]] = {}
        self.next_of: dict[str, dict[str, str | None]] = {}
        self.tables: Tables
        # what the board holds anywhere ("triggers", "corp_abilities", "recurring" credits,
        # "text_abilities"): cards only move, so a board without them never gets them, and the
        # engine skips looking for them
        self.kinds: frozenset[str] = frozenset()

    # ----- read-only views ---------------------------------------------------------------------
    @property
    def initial(self) -> dict:
        """The board as given to `start` (a copy: the caller's board may change later)."""
        b: Any = self._initial
        if type(b) is bytes:  # decoded when first read: stepping never needs it
            b = self._initial = marshal.loads(b)
        return b

    @property
    def current_step(self) -> str | None:
        if self.finished or not self.frames:
            return None
        return self.frames[-1].at

    @property
    def outcome(self) -> Outcome:
        return Outcome.of(self.result, self.board)

    # ----- serialisation -----------------------------------------------------------------------
    def spec(self) -> SessionSpec:
        """The session's serialisable form (the board as given, not the current board)."""
        return SessionSpec(
            self.doc.version, self.structure, self.initial, self.params, self.seed, self.decisions
        )

    def to_json(self) -> str:
        return self.spec().to_json()

    @classmethod
    def from_json(cls, text: Any, doc: Document) -> Session:
        """Rebuild a session by replaying its decisions on `doc`. Raises BoardError / IllegalDecision."""
        spec = SessionSpec.from_json(text, doc.version)
        return replay(spec.board, spec.structure, doc, spec.params, spec.seed, spec.decisions)

    def _clone(self) -> Session:
        n = Session.__new__(Session)
        n.doc = self.doc
        n._initial = self._initial
        n.structure = self.structure
        n.params = self.params
        n.seed = self.seed
        n.decisions = list(self.decisions)
        frames = self.frames
        n.board, vs, n.result = marshal.loads(marshal.dumps((self.board, [f.v for f in frames], self.result)))
        n.frames = [Frame(f.s, f.at, v) for f, v in zip(frames, vs, strict=True)]
        n.pending = self.pending
        n.finished = self.finished
        n.rng_n = self.rng_n
        n.trace = list(self.trace)
        n.steps = self.steps
        n.next_of = self.next_of
        n.tables = self.tables
        n.kinds = self.kinds
        return n

    def __repr__(self) -> str:
        return (
            f"<Session {self.structure} cr={self.doc.version} at={self.current_step} "
            f"decisions={len(self.decisions)} finished={self.finished}>"
        )


# ----- public API -----------------------------------------------------------------------------


def _check_effects(v: Any, path: str) -> list[str]:
    from .board import _Checker

    ck = _Checker()
    ck.effect_list(v, path, "corp")
    return ck.problems


def _validate_params(structure: Any, params: Any, board: dict, doc: Document) -> list[str]:
    problems: list[str] = []
    s = BY_ID.get(structure) if isinstance(structure, str) else None
    if s is None or not s.startable:
        startable = [x.id for x in BY_ID.values() if x.startable]
        return [f"structure: unknown structure {structure!r} (known: {', '.join(startable)})"]
    if not isinstance(params, dict):
        return ["params: must be an object"]
    for k in params:
        if k not in s.params and k not in s.advanced:
            problems.append(
                f"params.{k}: unknown parameter for {structure!r} (known: {', '.join(s.params) or 'none'})"
            )
    servers = board["servers"]
    if structure in ("run", "breach", "access"):
        srv = params.get("server")
        if srv is None:
            problems.append(f"params.server: required for {structure!r}")
        elif not isinstance(srv, str):
            problems.append("params.server: must be a server name (hq, rd, archives or remoteN)")
        elif srv not in servers:
            problems.append(f"params.server: unknown server {srv!r} (servers: {', '.join(servers)})")
        elif structure == "access":
            cands = [c[0] for c in _steps.candidates(board, srv, random_left=True)]
            if not cands:
                problems.append(f"params.server: {srv!r} has no card to access")
            elif "card" in params and (
                not isinstance(params["card"], str) or candidate_key(board, srv, params["card"]) not in cands
            ):
                problems.append(
                    f"params.card: {params['card']!r} is not a card in {srv} (choose from {', '.join(cands)})"
                )
    if structure in ("run", "breach") and not isinstance(params.get("corp_chooses_hq", False), bool):
        problems.append("params.corp_chooses_hq: must be true or false")
    if structure in ("run", "breach") and "additional_access" in params:
        n = params["additional_access"]
        if not isinstance(n, int) or isinstance(n, bool) or n < 0 or n > 99:
            problems.append("params.additional_access: must be an integer from 0 to 99")
    if structure == "trace":
        st = params.get("strength")
        if not isinstance(st, int) or isinstance(st, bool) or st < 0 or st > 99:
            problems.append("params.strength: required: an integer from 0 to 99")
        for key in ("on_success", "on_failure"):
            if key in params:
                problems += _check_effects(params[key], f"params.{key}")
    elif structure == "subroutine":
        if "subroutine" not in params:
            problems.append("params.subroutine: required: an effect or list of effects")
        else:
            problems += _check_effects(params["subroutine"], "params.subroutine")
    elif structure == "draw":
        if params.get("player", board["turn"]) not in ("corp", "runner"):
            problems.append("params.player: must be 'corp' or 'runner'")
        c = params.get("count", 1)
        if not isinstance(c, int) or isinstance(c, bool) or c < 0 or c > 99:
            problems.append("params.count: must be an integer from 0 to 99")
    return problems


def _prepare(board: Any, t: Tables) -> tuple[list[str], dict | None, frozenset[str], bytes | None]:
    """(problems, normalised board, its `_kinds`, the board's marshalled bytes) for a board,
    memoised in the document's tables by those bytes: every step of a session replayed from its
    token starts from the same board, and validating and normalising it (70-odd card dicts) is a
    third of starting. The normalised board comes back as a fresh deep copy each time (it is the
    session's mutable state); the bytes, None for a board that is not plain JSON-like data."""
    try:
        key = marshal.dumps(board)
    except ValueError:  # not plain JSON-like data: validate it the long way
        problems = validate_board(board)
        norm = None if problems else normalise_board(board)
        return problems, norm, frozenset() if norm is None else _kinds(norm), None
    memo = t.prepared
    hit = dict.get(memo, key)
    if hit is None:
        problems = validate_board(board)
        norm = None if problems else normalise_board(board)
        hit = (
            tuple(problems),
            b"" if norm is None else marshal.dumps(norm),
            frozenset() if norm is None else _kinds(norm),
        )
        memo.put(key, hit, ENTRY_BYTES + len(key) + approx_bytes(hit))
    return list(hit[0]), marshal.loads(hit[1]) if hit[1] else None, hit[2], key


def _kinds(board: dict) -> frozenset[str]:
    """Which optional mechanisms the board's cards use anywhere (see `Session.kinds`)."""
    corp, runner = board["corp"], board["runner"]
    corp_cards = [c for k in ("hand", "deck", "discard", "set_aside", "score_area") for c in corp[k]]
    if corp.get("identity"):
        corp_cards.append(corp["identity"])
    for srv in board["servers"].values():
        corp_cards += [*srv["ice"], *srv["root"], *([srv["content"]] if srv.get("content") else [])]
    runner_cards = [c for k in ("hand", "deck", "discard", "set_aside") for c in runner[k]]
    runner_cards += [c for zone in runner["rig"].values() for c in zone]
    if runner.get("identity"):
        runner_cards.append(runner["identity"])
    kinds = set()
    if any("triggers" in c for c in corp_cards + runner_cards):
        kinds.add("triggers")
    if any("abilities" in c for c in corp_cards):
        kinds.add("corp_abilities")
    if any(c.get("recurring") for c in corp_cards + runner_cards):
        kinds.add("recurring")
    if any(
        a["kind"] == "prevent" and a.get("event", "damage") != "damage"
        for c in corp_cards + runner_cards
        for a in c.get("abilities", ())
    ):
        kinds.add("interrupts")  # tags, trash or expose prevention (`prevention.window`)
    if any(a.get("kind") == "paid" for c in runner_cards for a in c.get("abilities", ())):
        kinds.add(
            "runner_paid"
        )  # a modeled paid ability on hardware or a resource (`windows.runner_paid_abilities`)
    if any(a.get("kind") == "text" for c in runner_cards for a in c.get("abilities", ())):
        kinds.add("text_abilities")  # a Runner card's ability resolved by hand (`windows.runner_options`)
    return frozenset(kinds)


def _start_key(board: Any, structure: Any, params: Any, seed: Any) -> bytes | None:
    """The marshalled (board, structure, params, seed) a session starts from; None when they are
    not plain JSON-like data (such a start is never memoised)."""
    try:
        return marshal.dumps((board, structure, params, seed))
    except ValueError:
        return None


def _snapshot(s: Session) -> tuple:
    """A started session as a value (`start`): its state marshalled, its events (shared values,
    like every session's plain events) and what the session reads from the start."""
    state = (s.board, [(f.s, f.at, f.v) for f in s.frames], s.result, s.pending, s.finished, s.rng_n)
    return (s._initial, marshal.dumps(s.params), marshal.dumps(state), tuple(s.trace), s.kinds)


def _from_snapshot(doc: Document, t: Tables, snap: tuple, structure: str, seed: int) -> Session:
    s = Session()
    s.doc = doc
    s._initial, params, state, trace, s.kinds = snap
    s.structure = structure
    s.params = marshal.loads(params)
    s.seed = seed
    s.board, frames, s.result, s.pending, s.finished, s.rng_n = marshal.loads(state)
    s.frames = [Frame(k, at, v) for k, at, v in frames]
    s.trace = list(trace)
    s.tables = t
    s.steps = t.steps
    s.next_of = t.next_of
    return s


# The public functions take what callers send as `Any` (a board, structure, params, seed, decision
# id): they check it and raise BoardError / IllegalDecision; compiled (engine._native), a narrower
# hint would be checked first and raise a bare TypeError instead.
def start(board: Any, structure: Any, doc: Document, params: Any = None, seed: Any = 0) -> Session:
    """Start walking `structure` on `board` under the CR version `doc`. Raises BoardError.

    The engine is deterministic, so the session up to its first decision is a value of (board,
    structure, params, seed): it is memoised in the document's tables (`Tables.started`,
    bounded), and starting again from the same inputs (every request that replays a session
    token does) copies that state instead of validating the board and walking the steps again."""
    t = tables(doc)
    key = _start_key(board, structure, params, seed)
    snap = None if key is None else dict.get(t.started, key)
    if snap is not None:
        return _from_snapshot(doc, t, snap, structure, seed)
    s = _start(board, structure, doc, t, params, seed)
    if key is not None:
        snap = _snapshot(s)
        t.started.put(key, snap, ENTRY_BYTES + len(key) + approx_bytes(snap))
    return s


def _start(board: Any, structure: Any, doc: Document, t: Tables, params: Any, seed: Any) -> Session:
    problems, norm, kinds, as_given = _prepare(board, t)
    if problems or norm is None:
        raise BoardError(problems)
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise BoardError(["seed: must be an integer"])
    params = {} if params is None else params
    problems = _validate_params(structure, params, norm, doc)
    if problems:
        raise BoardError(problems)
    table = t.steps
    if not table.get(structure):
        raise BoardError([f"structure: {structure!r} has no steps in CR {doc.version}"])
    missing = [sid for sid, steps in table.items() if not steps]
    if missing:
        raise BoardError([f"document: CR {doc.version} lacks the timing structures {', '.join(missing)}"])
    s = Session()
    s.doc = doc
    s._initial = _copy(board) if as_given is None else as_given
    s.structure = structure
    s.params = _copy(params)
    s.seed = seed
    s.board = norm
    s.kinds = kinds
    s.tables = t
    s.steps = table
    s.next_of = t.next_of
    s.result = {
        "runs": [],
        "accessed": [],
        "stolen": [],
        "trashed": [],
        "trashed_programs": [],
        "scored": [],
        "winner": None,
        "win_reason": None,
    }
    s.frames = [_steps.initial_frame(structure, _copy(params), norm, table[structure][0])]
    _steps.advance(s, None)
    return s


def legal_decisions(session: Session) -> list[dict]:
    """The decisions legal now: [{"id", "label", "player"}]; [] once finished."""
    if session.finished:
        return []
    return [d.copy() for d in session.pending]


def refused_decisions(session: Session) -> list[Refusal]:
    """The obvious decisions not legal now, each with why and the rule that says so."""
    return _refusals.refused(session)


def _check_legal(session: Session, decision_id: Any) -> Decision:
    """Parse `decision_id` once (the edge: handlers get the typed `Decision`) and check it is
    legal now. The positional ids of older sessions ("use:2.0") are accepted and mapped to the
    card-named id of the card at that position now ("use:corroder.0"). Raises IllegalDecision."""
    pending = session.pending if not session.finished else []
    for p in pending:
        if p["id"] == decision_id:
            return Decision.from_id(decision_id)
    try:
        parsed: Decision | None = Decision.from_id(decision_id)
    except ValueError:
        parsed = None
    if parsed is not None and parsed.kind == "resolved" and any(p["id"] == "resolved" for p in pending):
        # resolved by hand with the judge's changes (`resolved:runner.credits=3,end_run`);
        # ending the run needs one in progress
        ends = "end_run" in (parsed.card or "").split(",")
        if not ends or any(f.s == "run" for f in session.frames):
            return parsed
    if parsed is not None and parsed.legacy and not session.finished:
        player = pending[0]["player"] if pending else session.board["turn"]
        cards = _zone_cards(session, parsed, player)
        named = None if cards is None else parsed.named(cards)
        if named is not None:
            parsed = named
            if any(p["id"] == named.id for p in pending):
                return named
    legal = [p["id"] for p in pending]
    if not isinstance(decision_id, str):
        reason = "not a string"
    else:
        reason = _steps.why_illegal(session, decision_id, parsed)
    raise IllegalDecision(str(decision_id), legal, session.current_step, reason)


def _zone_cards(session: Session, d: Decision, player: str) -> list[dict] | None:
    """The list of cards decision `d`'s card reference counts in."""
    b = session.board
    zone = d.zone
    if zone in ("programs", "hardware", "resources", "facedown") and d.server is None:
        return b["runner"]["rig"][zone]
    if zone == "hand":
        return b[player]["hand"]
    if zone == "archives":
        return b["corp"]["discard"]
    if zone in ("root", "ice"):
        server = d.server or session.frames[-1].v.get("server")  # an access: the breached server
        srv = b["servers"].get(server) if isinstance(server, str) else None
        return None if srv is None else srv[zone]
    return None


def apply(session: Session, decision_id: Any) -> tuple[Session, list[Event]]:
    """Take a decision; returns (new session, events fired). Never mutates `session`."""
    d = _check_legal(session, decision_id)
    new = session._clone()
    new.decisions.append(d.id)
    before = len(new.trace)
    _steps.advance(new, d)
    return new, new.trace[before:]


def replay(
    board: Any,
    structure: Any,
    doc: Document,
    params: Any = None,
    seed: Any = 0,
    decisions: Any = (),
) -> Session:
    """`start` then take `decisions` in order; the same result as repeated `apply`, without
    copying the intermediate sessions (how a session is rebuilt from its JSON or a URL token).
    Raises BoardError or IllegalDecision."""
    s = start(board, structure, doc, params, seed)
    for d in decisions:
        push(s, d)
    return s


def push(session: Session, decision_id: Any) -> list[Event]:
    """Take a decision *in place* (like python-chess's `Board.push`): `session` itself moves on
    and the events fired are returned. The same result as `apply` without copying the state, for
    callers that step many sessions and keep no references to earlier states.
    Raises IllegalDecision (leaving `session` unchanged) when the decision is not legal now."""
    d = _check_legal(session, decision_id)
    before = len(session.trace)
    session.decisions.append(d.id)
    _steps.advance(session, d)
    return session.trace[before:]
