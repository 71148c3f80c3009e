"""Board editor, stepper and the engine JSON API.

Sessions are never stored: a signed token (see tokens.py) carries the board, the structure and
the decisions so far, and each request replays them through the deterministic engine.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from flask import Blueprint, current_app, jsonify, redirect, render_template, request, url_for

from .. import library as lib
from ..httputil import LRU
from ..library import WebError
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


def _session_cache() -> LRU:
    cache = current_app.extensions.get("nrrules.session_cache")
    if cache is None:
        cache = current_app.extensions["nrrules.session_cache"] = LRU(
            current_app.config["SESSION_CACHE_SIZE"]
        )
    return cache


def _spec_key(spec: SessionSpec, decisions: list[str]) -> tuple:
    return (
        lib.build_id(),
        spec.version,
        spec.structure,
        json.dumps(spec.params, sort_keys=True),
        spec.seed,
        json.dumps(spec.board, sort_keys=True),
        tuple(decisions),
    )


def replay(spec: SessionSpec) -> tuple[Any, Any, list[Any]]:
    """Rebuild the session from its spec: (session, document, events of the last decision).

    A session this request starts is moved on in place (engine.push); one taken from the small
    bounded cache of rebuilt sessions is never mutated (engine.apply copies it), so a decision on
    a known position costs one engine step, not a replay."""
    eng = _engine()
    version = lib.resolve_version(spec.version)
    doc = lib.library().document(version)
    if len(spec.decisions) > current_app.config["MAX_DECISIONS"]:
        raise WebError(
            400, f"too many decisions in one session (at most {current_app.config['MAX_DECISIONS']})"
        )
    cache = _session_cache() if current_app.config["SESSION_CACHE_SIZE"] > 0 else None
    if cache is not None:
        hit = cache.get(_spec_key(spec, spec.decisions))
        if hit is not None:
            return hit[0], doc, list(hit[1])
    session = None
    done = 0
    owned = True  # a session this request made may move in place; a cached one is shared
    if cache is not None and spec.decisions:
        parent = cache.get(_spec_key(spec, spec.decisions[:-1]))
        if parent is not None:
            session, done, owned = parent[0], len(spec.decisions) - 1, False
    if session is None:
        try:
            session = eng.start(spec.board, spec.structure, doc, params=spec.params or None, seed=spec.seed)
        except eng.BoardError as exc:
            raise WebError(
                400,
                f"cannot start: {'; '.join(exc.problems)}",
                problems=[split_problem(p) for p in exc.problems],
            ) from None
        except eng.EngineError as exc:
            raise WebError(400, f"cannot start: {exc}") from None
    last: list[Any] = list(session.trace) if not spec.decisions else []
    for i in range(done, len(spec.decisions)):
        decision = spec.decisions[i]
        try:
            if owned:
                last = eng.push(session, decision)
            else:
                session, last = eng.apply(session, decision)
                owned = True
        except eng.IllegalDecision as exc:
            if i == len(spec.decisions) - 1:
                raise WebError(409, str(exc), legal=list(exc.legal)) from None
            raise WebError(400, f"session token no longer replays (decision {i + 1}): {exc}") from None
        except eng.EngineError as exc:
            raise WebError(400, f"decision {decision!r} failed: {exc}") from None
        if cache is not None and i >= len(spec.decisions) - 2:
            cache.put(_spec_key(spec, spec.decisions[: i + 1]), (session, list(last or [])))
            owned = False  # now shared: a further decision moves a copy
    if cache is not None and not spec.decisions:
        cache.put(_spec_key(spec, []), (session, last))
    return session, doc, list(last or [])


def _step_info(doc: Any, step_id: str | None, version: str) -> dict[str, Any] | None:
    if not step_id:
        return None
    node = doc.node(step_id)
    url = f"/id/{step_id}" + ("" if lib.is_latest(version) else f"?v={version}")
    if node is None:
        return {"id": step_id, "number": None, "title": None, "text": "", "url": url}
    title = node.title or next((a.title for a in reversed(doc.ancestors(node.id)) if a.title), None)
    return {"id": node.id, "number": node.number, "title": title, "text": node.text, "url": url}


def _event_json(event: Any, doc: Any, suffix: str, full: bool = True) -> dict[str, Any]:
    """An engine event for the API: numbers and links from the loaded version; with `full`, the
    step's and rules' texts too (the compact trace leaves texts out)."""
    data = event.to_dict()
    step = doc.node(event.step) if event.step else None
    data["step_number"] = step.number if step is not None else None
    nodes = [doc.node(rid) for rid in event.rules]
    data["rule_numbers"] = [n.number if n is not None else None for n in nodes]
    if full:
        data["step_text"] = step.text if step is not None else ""
        data["rule_texts"] = [n.text if n is not None else "" for n in nodes]
    data["rule_links"] = [
        {"id": rid, "number": (n.number if n is not None else None) or rid, "url": f"/id/{rid}{suffix}"}
        for rid, n in zip(event.rules, nodes, strict=True)
    ]
    if event.step:
        data["step_url"] = f"/id/{event.step}{suffix}"
    return data


def state_json(
    spec: SessionSpec,
    session: Any,
    doc: Any,
    events: list[Any] | None = None,
    undo_token: str | None = None,
    with_trace: bool = True,
) -> dict[str, Any]:
    """The API's view of a session. `undo_token`, when the caller has it (the token a decision
    was posted to), saves encoding the previous position again. Without `with_trace` the whole
    trace is left out (its length is given): a client stepping a session already holds it and
    receives the new `events`, so each step costs the same however long the session is."""
    eng = _engine()
    version = lib.resolve_version(spec.version)
    suffix = "" if lib.is_latest(version) else f"?v={version}"
    token = encode(spec)
    undo = None
    if spec.decisions:
        undo = undo_token or encode(spec.with_decisions(spec.decisions[:-1]))
    decisions = [] if session.finished else list(eng.legal_decisions(session))
    current = getattr(session, "current_step", None)
    if current is not None and not isinstance(current, str):
        current = getattr(current, "id", str(current))
    return {
        "token": token,
        "url": url_for("engine.stepper", s=token),
        "undo_token": undo,
        "undo_url": url_for("engine.stepper", s=undo) if undo else None,
        "version": version,
        "structure": spec.structure,
        "params": spec.params,
        "seed": spec.seed,
        "decisions_taken": list(spec.decisions),
        "current_step": None if session.finished else _step_info(doc, current, version),
        "decisions": decisions,
        "finished": bool(session.finished),
        "outcome": _plain(session.outcome),
        # The trace stays compact (numbers and links); "events" (new this call) also carry texts.
        "trace_length": len(session.trace),
        **({"trace": [_event_json(e, doc, suffix, full=False) for e in session.trace]} if with_trace else {}),
        "events": [_event_json(e, doc, suffix) for e in (events or [])],
        "board": _plain(session.board),
    }


def _plain(value: Any) -> Any:
    if hasattr(value, "to_dict"):
        return value.to_dict()
    return value


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
    session, doc, events = replay(spec)
    resp = jsonify(state_json(spec, session, doc, events))
    resp.status_code = 201
    resp.headers["Location"] = url_for("engine.api_session", token=encode(spec))
    return resp


@bp.get("/api/engine/sessions/<token>")
def api_session(token: str):
    spec = decode(token)
    session, doc, events = replay(spec)
    return jsonify(state_json(spec, session, doc, events))


@bp.post("/api/engine/sessions/<token>/decisions")
def api_decide(token: str):
    spec = decode(token)
    data = _json_body()
    decision = data.get("decision")
    if not isinstance(decision, str) or not decision:
        raise WebError(400, "decision is required: one of the ids in the session's decisions list")
    new = spec.with_decisions([*spec.decisions, decision])
    session, doc, events = replay(new)
    with_trace = request.args.get("trace", "") in ("1", "true", "yes")
    return jsonify(state_json(new, session, doc, events, undo_token=token, with_trace=with_trace))


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
        replay(spec)
    except WebError as exc:
        problems = exc.extra.get("problems") or [{"path": "", "message": exc.message}]
        return _editor_page(v, None, problems, 400, text, structure=structure, server=server or "hq")
    return redirect(url_for("engine.stepper", s=encode(spec)), code=303)


@bp.get("/step")
def stepper():
    token = request.args.get("s", "")
    if not token:
        return redirect(url_for("engine.editor"))
    spec = decode(token)
    session, doc, events = replay(spec)
    state = state_json(spec, session, doc, events)
    return render_template(
        "stepper.html",
        state=state,
        version=state["version"],
        is_latest=lib.is_latest(state["version"]),
        vq={} if lib.is_latest(state["version"]) else {"v": state["version"]},
        share_url=url_for("engine.stepper", s=token, _external=True),
    )


@bp.post("/step")
def stepper_decide():
    """A decision button (works without JavaScript): apply it and redirect to the new URL."""
    spec = decode(request.form.get("s", ""))
    decision = request.form.get("decision", "")
    if not decision:
        raise WebError(400, "no decision chosen")
    new = spec.with_decisions([*spec.decisions, decision])
    replay(new)
    return redirect(url_for("engine.stepper", s=encode(new)), code=303)
