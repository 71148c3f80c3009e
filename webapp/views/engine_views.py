"""Board editor, stepper and the engine JSON API.

Sessions are never stored: a signed token (see tokens.py) carries the board, the structure and
the decisions so far, and each request replays them through the deterministic engine.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from flask import Blueprint, Response, current_app, jsonify, redirect, render_template, request, url_for

from .. import library as lib
from ..board_picture import CENTRAL, board_picture, server_label, server_order
from ..httputil import GZIP_MIN, LRU, accepts_gzip, gzip_bytes
from ..jsonprovider import dumps_bytes
from ..library import WebError
from ..stepper_page import stepper_context
from ..tokens import SessionSpec, decode, encode

bp = Blueprint("engine", __name__)

_PATH_PREFIX = re.compile(r"^([A-Za-z0-9_.\[\]]+): (.*)$", re.S)
MAX_SEED = 2**31 - 1


# ----- helpers ---------------------------------------------------------------------------------


def _engine():
    import engine

    return engine


def split_problem(problem: str) -> dict[str, str]:
    """ "servers.hq.ice[0].rez_cost: must be ..." -> {"path": ..., "message": ...}."""
    m = _PATH_PREFIX.match(problem)
    if m:
        return {"path": m.group(1), "message": m.group(2)}
    return {"path": "", "message": problem}


def _board_problems(board: Any) -> list[dict[str, str]]:
    return [split_problem(p) for p in _engine().validate_board(board)]


def examples() -> list[dict[str, Any]]:
    """Example boards: the web app's own, then the engine's (by file name)."""
    out: dict[str, dict[str, Any]] = {}
    folders = [Path(current_app.root_path) / "examples"]
    try:
        import engine

        folders.append(Path(engine.__file__).parent / "examples")
    except ImportError:
        pass
    for folder in folders:
        for path in sorted(folder.glob("*.json")):
            name = path.stem
            if name in out:
                continue
            try:
                board = json.loads(path.read_text(encoding="utf-8"))
            except (OSError, ValueError):
                continue
            if not isinstance(board, dict) or "servers" not in board:
                continue
            title = board.pop("_title", None) if isinstance(board.get("_title"), str) else None
            out[name] = {
                "name": name,
                "title": title or re.sub(r"^\d+-", "", name).replace("-", " "),
                "board": board,
            }
    return list(out.values())


def _structures(version: str) -> list[dict[str, Any]]:
    return _engine().structures(lib.library().document(version))


def _json_body() -> dict[str, Any]:
    if request.mimetype != "application/json":
        raise WebError(415, "send the request body as JSON (Content-Type: application/json)")
    data = request.get_json(silent=True)
    if not isinstance(data, dict):
        raise WebError(400, "the request body must be a JSON object")
    return data


def _check_spec(spec: SessionSpec) -> None:
    if not isinstance(spec.board, dict):
        raise WebError(
            400, "board must be a JSON object", problems=[{"path": "board", "message": "must be an object"}]
        )
    problems = _board_problems(spec.board)
    if problems:
        first = problems[0]
        where = f"{first['path']}: " if first["path"] else ""
        more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
        raise WebError(400, f"the board is invalid: {where}{first['message']}{more}", problems=problems)
    known = [s["id"] for s in _structures(spec.version)]
    if spec.structure not in known:
        raise WebError(
            400,
            f"unknown structure {spec.structure!r} for CR {spec.version}; known: {', '.join(known)}",
            structures=known,
        )
    if not isinstance(spec.params, dict):
        raise WebError(400, "params must be a JSON object")
    if not isinstance(spec.seed, int) or not 0 <= spec.seed <= MAX_SEED:
        raise WebError(400, f"seed must be an integer from 0 to {MAX_SEED}")


def _answer_cache() -> LRU | None:
    """Engine answers already sent, as bytes (plain and gzipped), keyed by the exact request. A
    phone on bad wifi retries a decision, a judge reloads the stepper, a shared link is opened by
    several people: those are served without decoding, replaying or encoding anything. The
    answer to a token is a pure function of it (and of the build), so it cannot go stale."""
    size = current_app.config["SESSION_CACHE_SIZE"]
    if size <= 0:
        return None
    cache = current_app.extensions.get("nrrules.answer_cache")
    if cache is None:
        cache = current_app.extensions["nrrules.answer_cache"] = LRU(
            size, max_weight=16 * 1024 * 1024, weigh=lambda e: len(e[0]) + len(e[1] or b"")
        )
    return cache


def _answer(key: tuple, make: Callable[[], dict[str, Any]]) -> Response:
    """A JSON answer from the answer cache, or made by `make` and kept there."""
    cache = _answer_cache()
    key = (lib.build_id(), request.script_root, *key)
    entry = cache.get(key) if cache is not None else None
    if entry is None:
        body = dumps_bytes(make())
        entry = (body, gzip_bytes(body, fast=True) if len(body) >= GZIP_MIN else None)
        if cache is not None:
            cache.put(key, entry)
    resp = current_app.response_class(mimetype="application/json")
    if entry[1] is not None and accepts_gzip():
        resp.set_data(entry[1])
        resp.headers["Content-Encoding"] = "gzip"
    else:
        resp.set_data(entry[0])
    if entry[1] is not None:
        resp.vary.add("Accept-Encoding")
    return resp


def _session_cache() -> LRU:
    cache = current_app.extensions.get("nrrules.session_cache")
    if cache is None:
        cache = current_app.extensions["nrrules.session_cache"] = LRU(
            current_app.config["SESSION_CACHE_SIZE"]
        )
    return cache


class Replayed:
    """A rebuilt session: the session, its document, the events its last decision fired, and the
    tokens of this position and of the one before it (undo)."""

    __slots__ = ("session", "doc", "events", "token", "undo_token")

    def __init__(self, session: Any, doc: Any, events: list[Any], token: str, undo_token: str | None):
        self.session, self.doc, self.events = session, doc, events
        self.token, self.undo_token = token, undo_token


def _start(spec: SessionSpec, doc: Any) -> Any:
    eng = _engine()
    try:
        return eng.start(spec.board, spec.structure, doc, params=spec.params or None, seed=spec.seed)
    except eng.BoardError as exc:
        raise WebError(
            400,
            f"cannot start: {'; '.join(exc.problems)}",
            problems=[split_problem(p) for p in exc.problems],
        ) from None
    except eng.EngineError as exc:
        raise WebError(400, f"cannot start: {exc}") from None


def replay(spec: SessionSpec, token: str | None = None, undo_token: str | None = None) -> Replayed:
    """Rebuild the session from its spec. `token` and `undo_token`, when the caller already holds
    them (the token it decoded, the token a decision was posted to), save encoding them again.

    Rebuilt positions are kept in a small bounded cache keyed by what the token names (version,
    structure, params, seed, board) and the decisions taken. A request starts from the nearest
    cached position among this one, the one before it and the session's start, so a decision on
    a known position costs one engine step and a session this worker has seen never starts from
    scratch. A session this request made moves on in place (engine.push); a cached one is shared,
    so it is never mutated (engine.apply copies it)."""
    eng = _engine()
    version = lib.resolve_version(spec.version)
    doc = lib.library().document(version)
    n = len(spec.decisions)
    if n > current_app.config["MAX_DECISIONS"]:
        raise WebError(
            400, f"too many decisions in one session (at most {current_app.config['MAX_DECISIONS']})"
        )
    token = token or encode(spec)
    if n and undo_token is None:
        undo_token = encode(spec.with_decisions(spec.decisions[:-1]))
    cache = _session_cache() if current_app.config["SESSION_CACHE_SIZE"] > 0 else None
    decisions = tuple(spec.decisions)
    base = (lib.build_id(), dumps_bytes([version, spec.structure, spec.params, spec.seed, spec.board]))
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
    owned = session is None  # a session this request made may move in place; a cached one is shared
    if session is None:
        session = _start(spec, doc)
        if cache is not None:
            cache.put((*base, ()), (session, list(session.trace)))
            owned = False
    last: list[Any] = list(session.trace) if not n else []
    for i in range(done, n):
        decision = decisions[i]
        try:
            if owned:
                last = eng.push(session, decision)
            else:
                session, last = eng.apply(session, decision)
                owned = True
        except eng.IllegalDecision as exc:
            if i == n - 1:
                raise WebError(409, str(exc), legal=list(exc.legal)) from None
            raise WebError(400, f"session token no longer replays (decision {i + 1}): {exc}") from None
        except eng.EngineError as exc:
            raise WebError(400, f"decision {decision!r} failed: {exc}") from None
        if cache is not None and i >= n - 2:
            # keep this position and the one before it: the next decision or an undo starts there
            cache.put((*base, decisions[: i + 1]), (session, list(last or [])))
            owned = False  # now shared: a further decision moves a copy
    return Replayed(session, doc, list(last or []), token, undo_token)


_CARD_TABLES = LRU(64)


class _Cards(dict):
    """The rule cards of one document and link suffix (rule id -> card), filled as rules are
    named (bounded by the document's size), with each rule's {id, number, url} link in `links`.
    Cards and links are shared by every answer that names their rule: read-only."""

    def __init__(self) -> None:
        super().__init__()
        self.links: dict[str, dict[str, Any]] = {}


def _cards(doc: Any, suffix: str) -> _Cards:
    key = (doc.source_hash, doc.version, suffix)
    table = _CARD_TABLES.get(key)
    if table is None:
        table = _Cards()
        _CARD_TABLES.put(key, table)
    return table


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


def _link(cards: _Cards, doc: Any, rule_id: str, suffix: str) -> dict[str, Any]:
    """{id, number, url} of one rule."""
    link = cards.links.get(rule_id)
    if link is None:
        card = _card(cards, doc, rule_id, suffix)
        link = {"id": card["id"], "number": card["number"] or card["id"], "url": card["url"]}
        cards.links[rule_id] = link
    return link


def _event_json(event: Any, doc: Any, suffix: str, cards: _Cards) -> dict[str, Any]:
    """An engine event for the API: the step and rules it fired, with their numbers in the loaded
    version and links to their pages (their texts travel once per answer, in `rules`). The
    event's own tuples and dicts are passed as they are: the answer only serialises them."""
    links = [_link(cards, doc, rid, suffix) for rid in event.rules]
    data: dict[str, Any] = {
        "step": event.step,
        "rules": event.rules,
        "text": event.text,
        "changes": event.changes,
        "step_number": _card(cards, doc, event.step, suffix)["number"] if event.step else None,
        "rule_numbers": [cards[rid]["number"] for rid in event.rules],
        "rule_links": links,
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


def _stepper_url(token: str) -> str:
    # Tokens are URL-safe base64 with dots: nothing in them needs quoting.
    return f"{request.script_root}/step?s={token}"


def state_json(
    spec: SessionSpec, rebuilt: Replayed, with_trace: bool = True, with_texts: bool = False
) -> dict[str, Any]:
    """The API's view of a session. Without `with_trace` the whole trace is left out (its length
    is given): a client stepping a session already holds it and receives the new `events`, so
    each step costs the same however long the session is. Events name steps and rules by id,
    number and link; `with_texts` adds `rules`, the number, title and CR text of every step and
    rule named in `events`, once each (most clients link or preview them instead)."""
    eng = _engine()
    session, doc, events = rebuilt.session, rebuilt.doc, rebuilt.events
    version = lib.resolve_version(spec.version)
    suffix = "" if lib.is_latest(version) else f"?v={version}"
    cards = _cards(doc, suffix)
    undo = rebuilt.undo_token
    decisions = [] if session.finished else list(eng.legal_decisions(session))
    current = getattr(session, "current_step", None)
    if current is not None and not isinstance(current, str):
        current = getattr(current, "id", str(current))
    return {
        "token": rebuilt.token,
        "url": _stepper_url(rebuilt.token),
        "undo_token": undo,
        "undo_url": _stepper_url(undo) if undo else None,
        "version": version,
        "structure": spec.structure,
        "params": spec.params,
        "seed": spec.seed,
        "decisions_taken": list(spec.decisions),
        "current_step": _card(cards, doc, current, suffix) if current and not session.finished else None,
        "decisions": decisions,
        "finished": bool(session.finished),
        "outcome": _plain(session.outcome),
        "trace_length": len(session.trace),
        **({"trace": [_event_json(e, doc, suffix, cards) for e in session.trace]} if with_trace else {}),
        "events": [_event_json(e, doc, suffix, cards) for e in events],
        **({"rules": _rules_named(events, doc, suffix, cards)} if with_texts else {}),
        "board": _plain(session.board),
    }


def _plain(value: Any) -> Any:
    if hasattr(value, "to_dict"):
        return value.to_dict()
    return value


def _flag(name: str) -> bool:
    return request.args.get(name, "").lower() in ("1", "true", "yes")


def _spec_from_request(data: dict[str, Any]) -> SessionSpec:
    board = data.get("board")
    if board is None:
        raise WebError(400, "board is required (the JSON board format)")
    structure = data.get("structure")
    if not isinstance(structure, str) or not structure:
        raise WebError(400, "structure is required: see GET /api/engine/structures")
    seed = data.get("seed", 0)
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise WebError(400, f"seed must be an integer from 0 to {MAX_SEED}")
    spec = SessionSpec(
        version=lib.resolve_version(data.get("v") or data.get("version")),
        structure=structure,
        board=board,
        params=data.get("params") or {},
        seed=seed,
    )
    _check_spec(spec)
    return spec


# ----- JSON API --------------------------------------------------------------------------------


@bp.get("/api/engine/structures")
def api_structures():
    v = lib.resolve_version(request.args.get("v"))
    return jsonify(version=v, structures=_structures(v))


@bp.get("/api/engine/examples")
def api_examples():
    return jsonify(examples=examples())


@bp.post("/api/engine/validate")
def api_validate():
    data = _json_body()
    board = data.get("board", data)
    problems = _board_problems(board)
    return jsonify(valid=not problems, problems=problems)


@bp.post("/api/engine/sessions")
def api_start():
    spec = _spec_from_request(_json_body())
    rebuilt = replay(spec)
    resp = jsonify(state_json(spec, rebuilt, with_texts=_flag("texts")))
    resp.status_code = 201
    resp.headers["Location"] = url_for("engine.api_session", token=rebuilt.token)
    return resp


@bp.get("/api/engine/sessions/<token>")
def api_session(token: str):
    texts = _flag("texts")

    def make() -> dict[str, Any]:
        spec = decode(token)
        return state_json(spec, replay(spec, token=token), with_texts=texts)

    return _answer(("session", token, texts), make)


@bp.post("/api/engine/sessions/<token>/decisions")
def api_decide(token: str):
    data = _json_body()
    decision = data.get("decision")
    if not isinstance(decision, str) or not decision:
        raise WebError(400, "decision is required: one of the ids in the session's decisions list")
    trace, texts = _flag("trace"), _flag("texts")

    def make() -> dict[str, Any]:
        spec = decode(token)
        new = spec.with_decisions([*spec.decisions, decision])
        return state_json(new, replay(new, undo_token=token), with_trace=trace, with_texts=texts)

    return _answer(("decide", token, decision, trace, texts), make)


# ----- HTML ------------------------------------------------------------------------------------


@bp.get("/editor")
def editor():
    v = lib.resolve_version(request.args.get("v"))
    board: Any = None
    token = request.args.get("s")
    name = request.args.get("example")
    structure, server = "run", "hq"
    if token:
        spec = decode(token)
        board = spec.board
        structure, server = spec.structure, str(spec.params.get("server") or "hq")
        if not request.args.get("v"):
            v = lib.resolve_version(spec.version)
    elif name:
        match = [ex for ex in examples() if ex["name"] == name]
        if not match:
            raise WebError(
                404, f"no example board {name!r}; examples: {', '.join(e['name'] for e in examples())}"
            )
        board = match[0]["board"]
    return _editor_page(v, board, [], 200, structure=structure, server=server)


def _editor_page(
    v: str,
    board: Any,
    problems: list[dict[str, str]],
    status: int,
    board_text: str | None = None,
    structure: str = "run",
    server: str = "hq",
):
    exs = examples()
    if board is None and board_text is None:
        board = exs[0]["board"] if exs else {"format": "nrrules-board", "version": 1, "servers": {}}
    text = board_text if board_text is not None else json.dumps(board, indent=1)
    structures = _structures(v)
    if board is None and board_text is not None:
        try:
            board = json.loads(board_text)
        except ValueError:
            board = None
    given = board.get("servers") if isinstance(board, dict) else None
    keys = server_order(set(CENTRAL) | set(given if isinstance(given, dict) else ()) | {server})
    server_error = next((p["message"] for p in problems if p.get("path") == "params.server"), None)
    return (
        render_template(
            "editor.html",
            version=v,
            is_latest=lib.is_latest(v),
            vq={} if lib.is_latest(v) else {"v": v},
            board_text=text,
            examples=exs,
            structures=structures,
            problems=problems,
            structure=structure,
            server=server,
            servers=[(k, server_label(k)) for k in keys],
            server_error=server_error,
            picture=board_picture(board),
        ),
        status,
    )


@bp.post("/editor")
def editor_submit():
    """The editor without JavaScript: the JSON board in a textarea, validated here."""
    v = lib.resolve_version(request.form.get("v"))
    text = request.form.get("board", "")
    try:
        board = json.loads(text)
    except ValueError as exc:
        return _editor_page(
            v,
            None,
            [{"path": "", "message": f"the board is not valid JSON: {exc}"}],
            400,
            text,
            structure=request.form.get("structure") or "run",
            server=request.form.get("server") or "hq",
        )
    structure = request.form.get("structure") or "run"
    params: dict[str, Any] = {}
    server = (request.form.get("server") or "").strip()
    if server:
        params["server"] = server
    try:
        spec = SessionSpec(version=v, structure=structure, board=board, params=params)
        _check_spec(spec)
        rebuilt = replay(spec)
    except WebError as exc:
        problems = exc.extra.get("problems") or [{"path": "", "message": exc.message}]
        return _editor_page(v, None, problems, 400, text, structure=structure, server=server or "hq")
    return redirect(_stepper_url(rebuilt.token), code=303)


@bp.get("/step")
def stepper():
    token = request.args.get("s", "")
    if not token:
        return redirect(url_for("engine.editor"))
    spec = decode(token)
    rebuilt = replay(spec, token=token)
    state = state_json(spec, rebuilt)
    share_url = url_for("engine.stepper", s=token, _external=True)
    return render_template(
        "stepper.html",
        state=state,
        view=stepper_context(
            state, rebuilt.session.frames, rebuilt.doc, share_url, _structures(state["version"])
        ),
        label=server_label,
        printing=_flag("print"),
        version=state["version"],
        is_latest=lib.is_latest(state["version"]),
        vq={} if lib.is_latest(state["version"]) else {"v": state["version"]},
        share_url=share_url,
    )


@bp.post("/step")
def stepper_decide():
    """A decision button (works without JavaScript): apply it and redirect to the new URL."""
    spec = decode(request.form.get("s", ""))
    decision = request.form.get("decision", "")
    if not decision:
        raise WebError(400, "no decision chosen")
    new = spec.with_decisions([*spec.decisions, decision])
    rebuilt = replay(new, undo_token=request.form.get("s", ""))
    return redirect(_stepper_url(rebuilt.token), code=303)
