"""Board editor, stepper and the engine JSON API.

Sessions are never stored: a signed token (see tokens.py) carries the board, the structure and
the decisions so far, and each request replays them through the deterministic engine
(webapp.payloads.engine, which also builds every answer).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from flask import Blueprint, Response, current_app, jsonify, render_template, request, url_for

from ..board_picture import CENTRAL, board_picture, server_label, server_order
from ..caches import cache
from ..errors import BadRequest, NotConfigured, NotFound, NrrulesError, UnsupportedMediaType
from ..httputil import GZIP_MIN, accepts_gzip, gzip_bytes, local_redirect
from ..jsonprovider import dumps_bytes, loads_user
from ..library import build_id, rules
from ..payloads import cards as card_payloads
from ..payloads import engine as engine_payloads
from ..shortlinks import MAX_ENTRIES, ShareStore, ShareStoreError
from ..stepper_page import stepper_context
from ..tokens import SessionSpec, decode, encode

bp = Blueprint("engine", __name__)


def _json_body() -> dict[str, Any]:
    if request.mimetype != "application/json":
        raise UnsupportedMediaType("send the request body as JSON (Content-Type: application/json)")
    data = loads_user(request.get_data(cache=True))
    if not isinstance(data, dict):
        raise BadRequest("the request body must be a JSON object")
    return data


def _answer(key: tuple, make: Callable[[], dict[str, Any]]) -> Response:
    """A JSON answer from the "answers" cache, or made by `make` and kept there. A phone on bad
    wifi retries a decision, a judge reloads the stepper, a shared link is opened by several
    people: those are served without decoding, replaying or encoding anything. The answer to a
    token is a pure function of it (and of the build), so it cannot go stale."""
    answers = cache("answers")
    key = (build_id(), request.script_root, *key)
    entry = answers.get(key) if answers is not None else None
    if entry is None:
        body = dumps_bytes(make())
        entry = (body, gzip_bytes(body, fast=True) if len(body) >= GZIP_MIN else None)
        if answers is not None:
            answers.put(key, entry)
    resp = current_app.response_class(mimetype="application/json")
    if entry[1] is not None and accepts_gzip():
        resp.set_data(entry[1])
        resp.headers["Content-Encoding"] = "gzip"
    else:
        resp.set_data(entry[0])
    if entry[1] is not None:
        resp.vary.add("Accept-Encoding")
    return resp


def replay(
    spec: SessionSpec, token: str | None = None, undo_token: str | None = None
) -> engine_payloads.Replayed:
    return engine_payloads.replay(
        rules(),
        spec,
        encode,
        cache=cache("sessions"),
        cache_key=(build_id(),),
        max_decisions=current_app.config["MAX_DECISIONS"],
        token=token,
        undo_token=undo_token,
    )


def state_json(
    spec: SessionSpec, rebuilt: engine_payloads.Replayed, with_trace: bool = True, with_texts: bool = False
) -> dict[str, Any]:
    return engine_payloads.state(
        rules(), spec, rebuilt, request.script_root, with_trace=with_trace, with_texts=with_texts
    )


def _stepper_url(token: str) -> str:
    return f"{request.script_root}/step?s={token}"


def _flag(name: str) -> bool:
    return request.args.get(name, "").lower() in ("1", "true", "yes")


# ----- JSON API --------------------------------------------------------------------------------


@bp.get("/api/engine/structures")
def api_structures():
    return jsonify(engine_payloads.structures(rules(), request.args.get("v")))


@bp.get("/api/engine/vocabulary")
def vocabulary_api():
    """Everything a board may say (engine.vocabulary): effects with their fields, trigger
    conditions and filters, ability kinds, strength modifiers, zones, counters, limits."""
    from engine.vocabulary import vocabulary

    return jsonify(vocabulary())


@bp.get("/api/engine/examples")
def api_examples():
    return jsonify(examples=engine_payloads.examples())


@bp.post("/api/engine/validate")
def api_validate():
    data = _json_body()
    board = data.get("board", data)
    return jsonify(engine_payloads.validation(board))


@bp.post("/api/engine/sessions")
def api_start():
    spec = engine_payloads.spec_from_json(rules(), _json_body())
    rebuilt = replay(spec)
    resp = jsonify(state_json(spec, rebuilt, with_texts=_flag("texts")))
    resp.status_code = 201
    resp.headers["Location"] = url_for("engine.api_session", token=rebuilt.token)
    return resp


@bp.get("/api/engine/sessions/<token>")
def api_session(token: str):
    texts, html = _flag("texts"), _flag("html")

    def make() -> dict[str, Any]:
        spec = decode(token)
        rebuilt = replay(spec, token=token)
        answer = state_json(spec, rebuilt, with_texts=texts)
        return _with_html(answer, rebuilt, with_trace=True) if html else answer

    # the page part holds the absolute share link (the short one once made): kept per host
    where = (request.host_url, _shares().known(token)) if html else None
    return _answer(("session", token, texts, html, where), make)


@bp.post("/api/engine/sessions/<token>/decisions")
def api_decide(token: str):
    data = _json_body()
    decision = engine_payloads.check_decision(data.get("decision"))
    trace, texts, html = _flag("trace"), _flag("texts"), _flag("html")

    def make() -> dict[str, Any]:
        spec = decode(token)
        new = spec.with_decisions([*spec.decisions, decision])
        rebuilt = replay(new, undo_token=token)
        if not html:
            return state_json(new, rebuilt, with_trace=trace, with_texts=texts)
        # the page's main part needs the whole trace to draw; it is sent only if asked for
        return _with_html(state_json(new, rebuilt, with_texts=texts), rebuilt, with_trace=trace)

    return _answer(("decide", token, decision, trace, texts, html, request.host_url if html else None), make)


# ----- short links (webapp/shortlinks.py) ------------------------------------------------------


def _shares() -> ShareStore:
    """Where this server keeps short links: SHARE_DIR, else `.shares` in the build directory
    (every worker of the host sees the same files)."""
    root = current_app.config.get("SHARE_DIR") or rules().library.build_dir / ".shares"
    return ShareStore(Path(root), int(current_app.config.get("SHARE_MAX") or MAX_ENTRIES))


def _short_url(sid: str) -> str:
    return url_for("engine.short_link", sid=sid, _external=True)


def _keep(token: str) -> str:
    """Keep a session's token under its short id (only a token this server signed)."""
    decode(token)
    try:
        return _shares().put(token)
    except ShareStoreError as exc:
        raise NotConfigured(f"{exc}: the long link works as before") from None


@bp.post("/api/engine/sessions/<token>/short")
def api_short(token: str):
    """A short link (`/s/<id>`) to this session, made once per token."""
    sid = _keep(token)
    resp = jsonify(id=sid, url=_short_url(sid), long_url=url_for("engine.stepper", s=token, _external=True))
    resp.status_code = 201
    resp.headers["Location"] = url_for("engine.short_link", sid=sid)
    return resp


@bp.post("/step/short")
def stepper_short():
    """The short link without JavaScript: made, then the page shows it in its share section."""
    token = request.form.get("s", "")
    _keep(token)
    return local_redirect(_stepper_url(token) + "#share", code=303)


@bp.get("/s/<sid>")
def short_link(sid: str):
    token = _shares().get(sid.lower())
    if token is None:
        raise NotFound(
            f"the short link /s/{sid[:40]} is not known on this server: it was made on another server, "
            "or was dropped to make room for newer ones; the long link (Share, on the stepper) always works"
        )
    return local_redirect(_stepper_url(token), code=303)


# ----- HTML ------------------------------------------------------------------------------------


@bp.get("/editor")
def editor():
    v = rules().version(request.args.get("v"))
    board: Any = None
    token = request.args.get("s")
    name = request.args.get("example")
    structure, server = "run", "hq"
    if token:
        spec = decode(token)
        board = spec.board
        structure, server = spec.structure, str(spec.params.get("server") or "hq")
        if not request.args.get("v"):
            v = rules().version(spec.version)
    elif name:
        known = engine_payloads.examples()
        match = [ex for ex in known if ex["name"] == name]
        if not match:
            raise NotFound(f"no example board {name!r}; examples: {', '.join(e['name'] for e in known)}")
        board = match[0]["board"]
        remotes = server_order([k for k in board.get("servers") or {} if k not in CENTRAL])
        server = remotes[-1] if remotes else server  # the run follows the board: its last remote
    return _editor_page(v, board, [], 200, structure=structure, server=server, example=name)


EMPTY_BOARD: dict[str, Any] = {
    "format": "nrrules-board",
    "version": engine_payloads.engine.FORMAT_VERSION,
    "servers": {},
}


def _editor_page(
    v: str,
    board: Any,
    problems: list[dict[str, str]],
    status: int,
    board_text: str | None = None,
    structure: str = "run",
    server: str = "hq",
    example: str | None = None,
):
    exs = engine_payloads.examples()
    if board is None and board_text is None:
        board = {**EMPTY_BOARD, "servers": {}}  # the examples are one tap away, above the picture
    text = board_text if board_text is not None else json.dumps(board, indent=1)
    structures = engine_payloads.structures(rules(), v)["structures"]
    if board is None and board_text is not None:
        try:
            board = loads_user(board_text, "the board")
        except BadRequest:
            board = None
    given = board.get("servers") if isinstance(board, dict) else None
    keys = server_order(set(CENTRAL) | set(given if isinstance(given, dict) else ()) | {server})
    server_error = next((p["message"] for p in problems if p.get("path") == "params.server"), None)
    return (
        render_template(
            "editor.html",
            version=v,
            is_latest=rules().is_latest(v),
            vq={} if rules().is_latest(v) else {"v": v},
            board_text=text,
            examples=exs,
            example=example,
            structures=structures,
            problems=problems,
            structure=structure,
            server=server,
            servers=[(k, server_label(k)) for k in keys],
            server_error=server_error,
            picture=board_picture(board),
            cards_built=card_payloads.cards_info(rules()) is not None,  # real cards can be picked
        ),
        status,
    )


@bp.post("/editor")
def editor_submit():
    """The editor without JavaScript: the JSON board in a textarea, validated here."""
    v = rules().version(request.form.get("v"))
    text = request.form.get("board", "")
    try:
        board = loads_user(text, "the board")
    except BadRequest as exc:
        return _editor_page(
            v,
            None,
            [{"path": "", "message": exc.message}],
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
        engine_payloads.check_spec(rules(), spec)
        rebuilt = replay(spec)
    except NrrulesError as exc:
        problems = exc.fields.get("problems") or [{"path": "", "message": exc.message}]
        return _editor_page(v, None, problems, 400, text, structure=structure, server=server or "hq")
    return local_redirect(_stepper_url(rebuilt.token), code=303)


def _stepper_vars(state: dict[str, Any], rebuilt: engine_payloads.Replayed, printing: bool = False):
    """What stepper.html and its main part (_stepper_main.html) are rendered with: the page
    and the in-place update after a decision (the API's ?html=1) use the same."""
    long_url = url_for("engine.stepper", s=rebuilt.token, _external=True)
    sid = _shares().known(rebuilt.token)
    share_url = _short_url(sid) if sid else long_url
    latest = rules().is_latest(state["version"])
    return {
        "state": state,
        "view": stepper_context(
            state,
            rebuilt.session.frames,
            rebuilt.doc,
            share_url,
            engine_payloads.structures(rules(), state["version"])["structures"],
        ),
        "label": server_label,
        "printing": printing,
        "version": state["version"],
        "is_latest": latest,
        "vq": {} if latest else {"v": state["version"]},
        "share_url": share_url,
        "long_url": long_url,
        "short_id": sid,
    }


def _with_html(answer: dict[str, Any], rebuilt: engine_payloads.Replayed, with_trace: bool) -> dict[str, Any]:
    """The answer with the stepper's main part rendered (`html`) and the page's title, for
    stepper.js to show a decision in place; the trace stays out unless it was asked for."""
    page = _stepper_vars(answer, rebuilt)
    out = {**answer, "html": render_template("_stepper_main.html", **page)}
    out["title"] = page["view"]["title"]
    if not with_trace:
        out.pop("trace", None)
    return out


@bp.get("/step")
def stepper():
    token = request.args.get("s", "")
    if not token:
        return local_redirect(url_for("engine.editor"))
    spec = decode(token)
    rebuilt = replay(spec, token=token)
    state = state_json(spec, rebuilt)
    return render_template("stepper.html", **_stepper_vars(state, rebuilt, _flag("print")))


@bp.post("/step")
def stepper_decide():
    """A decision button (works without JavaScript): apply it and redirect to the new URL."""
    spec = decode(request.form.get("s", ""))
    decision = request.form.get("decision", "")
    if not decision:
        raise BadRequest("no decision chosen")
    engine_payloads.check_decision(decision)
    new = spec.with_decisions([*spec.decisions, decision])
    rebuilt = replay(new, undo_token=request.form.get("s", ""))
    return local_redirect(_stepper_url(rebuilt.token), code=303)
