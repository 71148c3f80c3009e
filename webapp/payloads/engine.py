"""Payloads for the engine: structures, example boards, board problems and session state.

A session is never stored: a `SessionSpec` (what a token carries) is replayed through the
deterministic engine (`replay`), and `state` turns the replayed session into the API's answer.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import engine

from ..errors import BadBoard, BadRequest, BadToken, IllegalDecision, UnknownStructure
from ..jsonprovider import dumps_bytes
from ..textfmt import engine_text
from ..tokens import MAX_DECISION, SessionSpec
from .context import Rules

_PATH_PREFIX = re.compile(r"^([A-Za-z0-9_.\[\]]+): (.*)$", re.S)
MAX_SEED = 2**31 - 1
EXAMPLE_FOLDERS = (
    Path(__file__).resolve().parent.parent / "examples",
    Path(engine.__file__).parent / "examples",
)


def split_problem(problem: str) -> dict[str, str]:
    """ "servers.hq.ice[0].rez_cost: must be ..." -> {"path": ..., "message": ...}."""
    m = _PATH_PREFIX.match(problem)
    if m:
        return {"path": m.group(1), "message": m.group(2)}
    return {"path": "", "message": problem}


def problems(board: Any) -> list[dict[str, str]]:
    return [split_problem(p) for p in engine.validate_board(board)]


def validation(board: Any) -> dict[str, Any]:
    found = problems(board)
    return {"valid": not found, "problems": found}


def examples(folders: Iterable[Path] = EXAMPLE_FOLDERS) -> list[dict[str, Any]]:
    """Example boards: the web app's own, then the engine's (by file name)."""
    out: dict[str, dict[str, Any]] = {}
    for folder in folders:
        for path in sorted(folder.glob("*.json")):
            name = path.stem
            if name in out:
                continue
            board = json.loads(path.read_text(encoding="utf-8"))
            if not isinstance(board, dict) or "servers" not in board:
                continue
            title = board.pop("_title", None) if isinstance(board.get("_title"), str) else None
            if not title:
                title = engine_text(re.sub(r"^\d+-", "", name).replace("-", " "))  # "hq" -> "HQ"
                title = title[:1].upper() + title[1:]
            out[name] = {
                "name": name,
                "title": title,
                "board": board,
            }
    return list(out.values())


def structures(rules: Rules, version: str | None) -> dict[str, Any]:
    v = rules.version(version)
    return {"version": v, "structures": engine.structures(rules.library.document(v))}


def check_spec(rules: Rules, spec: SessionSpec) -> None:
    """BadBoard, UnknownStructure or BadRequest for a spec the engine cannot start."""
    if not isinstance(spec.board, dict):
        raise BadBoard("board must be a JSON object", [{"path": "board", "message": "must be an object"}])
    found = problems(spec.board)
    if found:
        first = found[0]
        where = f"{first['path']}: " if first["path"] else ""
        more = f" (and {len(found) - 1} more)" if len(found) > 1 else ""
        raise BadBoard(f"the board is invalid: {where}{first['message']}{more}", found)
    known = [s["id"] for s in engine.structures(rules.document(spec.version))]
    if spec.structure not in known:
        raise UnknownStructure(spec.structure, spec.version, known)
    if not isinstance(spec.params, dict):
        raise BadRequest("params must be a JSON object")
    if isinstance(spec.seed, bool) or not isinstance(spec.seed, int) or not 0 <= spec.seed <= MAX_SEED:
        raise BadRequest(f"seed must be an integer from 0 to {MAX_SEED}")


def check_decision(decision: Any) -> str:
    """A decision id as a user sends it (JSON body, form, --decide): BadRequest when it is missing,
    not a string or longer than any id (it never reaches the engine, whose parser caches ids)."""
    if not isinstance(decision, str) or not decision:
        raise BadRequest("decision is required: one of the ids in the session's decisions list")
    if len(decision) > MAX_DECISION:
        raise BadRequest(
            f"decision is too long ({len(decision)} characters, at most {MAX_DECISION}): "
            "one of the ids in the session's decisions list"
        )
    return decision


def spec_from_json(rules: Rules, data: dict[str, Any]) -> SessionSpec:
    """A checked spec from a request body {board, structure, params, seed, v}."""
    board = data.get("board")
    if board is None:
        raise BadRequest("board is required (the JSON board format)")
    structure = data.get("structure")
    if not isinstance(structure, str) or not structure:
        raise BadRequest("structure is required: see GET /api/engine/structures")
    seed = data.get("seed", 0)
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise BadRequest(f"seed must be an integer from 0 to {MAX_SEED}")
    for key in ("v", "version"):
        if data.get(key) is not None and not isinstance(data[key], str):
            raise BadRequest(f'{key} must be a string such as "26.03" (the CR version)')
    spec = SessionSpec(
        version=rules.version(data.get("v") or data.get("version")),
        structure=structure,
        board=board,
        params=data.get("params") or {},
        seed=seed,
    )
    check_spec(rules, spec)
    return spec


class Replayed:
    """A rebuilt session: the session, its document, the events its last decision fired, and the
    tokens of this position and of the one before it (undo)."""

    __slots__ = ("session", "doc", "events", "token", "undo_token")

    def __init__(self, session: Any, doc: Any, events: list[Any], token: str, undo_token: str | None):
        self.session, self.doc, self.events = session, doc, events
        self.token, self.undo_token = token, undo_token


def _start(spec: SessionSpec, doc: Any) -> Any:
    try:
        return engine.start(spec.board, spec.structure, doc, params=spec.params or None, seed=spec.seed)
    except engine.BoardError as exc:
        raise BadBoard(
            f"cannot start: {'; '.join(exc.problems)}", [split_problem(p) for p in exc.problems]
        ) from None
    except engine.EngineError as exc:
        raise BadRequest(f"cannot start: {exc}") from None


def replay(
    rules: Rules,
    spec: SessionSpec,
    encode: Callable[[SessionSpec], str],
    *,
    cache: Any = None,
    cache_key: tuple = (),
    max_decisions: int = 400,
    token: str | None = None,
    undo_token: str | None = None,
) -> Replayed:
    """Rebuild the session from its spec. `token` and `undo_token`, when the caller already holds
    them (the token it decoded, the token a decision was posted to), save encoding them again.

    With a `cache` (an LRU), rebuilt positions are kept keyed by what the token names (version,
    structure, params, seed, board) and the decisions taken. A request starts from the nearest
    cached position among this one, the one before it and the session's start, so a decision on
    a known position costs one engine step. A session this call made moves on in place
    (engine.push); a cached one is shared, so it is never mutated (engine.apply copies it)."""
    version = rules.version(spec.version)
    doc = rules.library.document(version)
    n = len(spec.decisions)
    if n > max_decisions:
        raise BadRequest(f"too many decisions in one session (at most {max_decisions})")
    token = token or encode(spec)
    if n and undo_token is None:
        undo_token = encode(spec.with_decisions(spec.decisions[:-1]))
    decisions = tuple(spec.decisions)
    base = (*cache_key, dumps_bytes([version, spec.structure, spec.params, spec.seed, spec.board]))
    session = None
    done = 0
    if cache is not None:
        for k in sorted({n, max(n - 1, 0), 0}, reverse=True):
            hit = cache.get((*base, decisions[:k]))
            if hit is not None:
                if k == n:
                    return Replayed(hit[0], doc, list(hit[1]), token, undo_token)
                session, done = hit[0], k
                break
    owned = session is None  # a session this call made may move in place; a cached one is shared
    if session is None:
        session = _start(spec, doc)
        if cache is not None:
            cache.put((*base, ()), (session, list(session.trace), len(base[-1])))
            owned = False
    last: list[Any] = list(session.trace) if not n else []
    for i in range(done, n):
        decision = decisions[i]
        try:
            if owned:
                last = engine.push(session, decision)
            else:
                session, last = engine.apply(session, decision)
                owned = True
        except engine.IllegalDecision as exc:
            if i == n - 1:
                raise IllegalDecision(str(exc), list(exc.legal)) from None
            raise BadToken(f"session token no longer replays (decision {i + 1}): {exc}") from None
        except engine.EngineError as exc:
            raise BadRequest(f"decision {decision!r} failed: {exc}") from None
        if cache is not None and i >= n - 2:
            # keep this position and the one before it: the next decision or an undo starts there
            cache.put((*base, decisions[: i + 1]), (session, list(last or []), len(base[-1])))
            owned = False  # now shared: a further decision moves a copy
    return Replayed(session, doc, list(last or []), token, undo_token)


MAX_WALK = 5000  # decisions `walk` takes at most (a structure that never finishes stops there)


@dataclass(frozen=True, slots=True)
class Decided:
    """Where a decision was taken in a walked session: before `trace[at]`, by `player`."""

    at: int
    decision: str
    player: str | None


def walk(
    rules: Rules, spec: SessionSpec, encode: Callable[[SessionSpec], str], *, auto: bool = False
) -> tuple[SessionSpec, Replayed, list[Decided]]:
    """Start a session and take its spec's decisions in order; with `auto`, then take the first
    legal decision at every stop until the structure finishes (at most MAX_WALK). Returns the
    spec of the position reached (its token replays it), the session as `replay` gives it, and
    where each decision was taken (the command line prints the trace with them)."""
    doc = rules.library.document(rules.version(spec.version))
    session = _start(spec, doc)
    last: list[Any] = list(session.trace)
    todo, taken, marks = list(spec.decisions), [], []
    while todo or (auto and not session.finished and len(taken) < MAX_WALK):
        legal = engine.legal_decisions(session)
        decision = check_decision(todo.pop(0)) if todo else legal[0]["id"]
        player = next((d.get("player") for d in legal if d["id"] == decision), None)
        marks.append(Decided(len(session.trace), decision, player))
        try:
            last = engine.push(session, decision)
        except engine.IllegalDecision as exc:
            raise IllegalDecision(str(exc), list(exc.legal)) from None
        except engine.EngineError as exc:
            raise BadRequest(f"decision {decision!r} failed: {exc}") from None
        taken.append(decision)
    reached = spec.with_decisions(taken)
    undo = encode(reached.with_decisions(taken[:-1])) if taken else None
    return reached, Replayed(session, doc, list(last), encode(reached), undo), marks


# ----- session state ---------------------------------------------------------------------------


def _card(cards: dict[str, dict[str, Any]], doc: Any, rule_id: str, suffix: str) -> dict[str, Any]:
    """Number, title, CR text and page URL of one rule or step."""
    card = cards.get(rule_id)
    if card is None:
        node = doc.node(rule_id)
        url = f"/id/{rule_id}{suffix}"
        if node is None:
            card = {"id": rule_id, "number": None, "title": None, "text": "", "url": url}
        else:
            title = node.title or next((a.title for a in reversed(doc.ancestors(node.id)) if a.title), None)
            card = {"id": node.id, "number": node.number, "title": title, "text": node.text, "url": url}
        cards[rule_id] = card
    return card


def _link(links: dict[str, dict[str, Any]], cards: dict, doc: Any, rule_id: str, suffix: str) -> dict:
    """{id, number, url} of one rule."""
    link = links.get(rule_id)
    if link is None:
        card = _card(cards, doc, rule_id, suffix)
        link = links[rule_id] = {"id": card["id"], "number": card["number"] or card["id"], "url": card["url"]}
    return link


def _event(event: Any, doc: Any, suffix: str, cards: dict, links: dict) -> dict[str, Any]:
    """An engine event: the step and rules it fired, with their numbers in the loaded version and
    links to their pages (their texts travel once per answer, in `rules`). The event's own
    tuples and dicts are passed as they are: the answer only serialises them."""
    data: dict[str, Any] = {
        "step": event.step,
        "rules": event.rules,
        "text": event.text,
        "changes": event.changes,
        "applied": event.applied,
        "objects": event.objects,
        "step_number": _card(cards, doc, event.step, suffix)["number"] if event.step else None,
        "rule_numbers": [_card(cards, doc, rid, suffix)["number"] for rid in event.rules],
        "rule_links": [_link(links, cards, doc, rid, suffix) for rid in event.rules],
    }
    if event.step:
        data["step_url"] = f"/id/{event.step}{suffix}"
    return data


def _rules_named(events: list[Any], doc: Any, suffix: str, cards: dict) -> dict[str, dict[str, Any]]:
    """Every step and rule the events name, once each, in order of first mention."""
    out: dict[str, dict[str, Any]] = {}
    for event in events:
        for rid in (event.step, *event.rules) if event.step else event.rules:
            if rid not in out:
                out[rid] = _card(cards, doc, rid, suffix)
    return out


def _plain(value: Any) -> Any:
    return value.to_dict() if hasattr(value, "to_dict") else value


def state(
    rules: Rules,
    spec: SessionSpec,
    rebuilt: Replayed,
    script_root: str = "",
    with_trace: bool = True,
    with_texts: bool = False,
) -> dict[str, Any]:
    """The API's view of a session. Without `with_trace` the whole trace is left out (its length
    is given): a client stepping a session already holds it and receives the new `events`, so
    each step costs the same however long the session is. Events name steps and rules by id,
    number and link; `with_texts` adds `rules`, the number, title and CR text of every step and
    rule named in `events`, once each."""
    session, doc, events = rebuilt.session, rebuilt.doc, rebuilt.events
    version = rules.version(spec.version)
    suffix = rules.suffix(version)
    cards = rules.card_table(version, suffix)
    links = rules.card_table(version, suffix, "links")
    undo = rebuilt.undo_token
    decisions = [] if session.finished else list(engine.legal_decisions(session))
    current = session.current_step

    def event_list(items: list[Any]) -> list[dict[str, Any]]:
        return [_event(e, doc, suffix, cards, links) for e in items]

    out: dict[str, Any] = {
        "token": rebuilt.token,
        "url": f"{script_root}/step?s={rebuilt.token}",  # tokens are URL-safe: nothing to quote
        "undo_token": undo,
        "undo_url": f"{script_root}/step?s={undo}" if undo else None,
        "version": version,
        "structure": spec.structure,
        "params": spec.params,
        "seed": spec.seed,
        "decisions_taken": list(spec.decisions),
        "current_step": _card(cards, doc, current, suffix) if current and not session.finished else None,
        "decisions": decisions,
        "refused": [
            {**r.to_dict(), "rule_number": _card(cards, doc, r.rule, suffix)["number"]}
            for r in ([] if session.finished else engine.refused_decisions(session))
        ],
        "finished": bool(session.finished),
        "outcome": session.outcome.to_dict(),
        "trace_length": len(session.trace),
    }
    if with_trace:
        out["trace"] = event_list(session.trace)
    out["events"] = event_list(events)
    if with_texts:
        out["rules"] = _rules_named(events, doc, suffix, cards)
    out["board"] = _plain(session.board)
    return out
