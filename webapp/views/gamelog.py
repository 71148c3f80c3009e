"""POST /api/annotate: a game log, line by line, linked to the rules (webapp.payloads.gamelog).

The body is the log as ``text/plain`` (the version in ``?v=``, the players' names, when the log
prints them rather than "Corp" and "Runner", in ``?corp=`` and ``?runner=``), or JSON
``{"log": "...", "version": "26.03", "corp": "alice", "runner": "bob"}``. Bounds: `payloads.gamelog.MAX_LOG_BYTES` and
`MAX_LINES` (413), `rules_index.gamelog.MAX_LINE` characters a line (400).
"""

from __future__ import annotations

from flask import Blueprint, jsonify, request

from ..errors import BadRequest, PayloadTooLarge, UnsupportedMediaType
from ..jsonprovider import loads_user
from ..library import rules
from ..payloads import gamelog as payloads

bp = Blueprint("gamelog", __name__, url_prefix="/api")


@bp.post("/annotate")
def annotate():
    if (request.content_length or 0) > payloads.MAX_LOG_BYTES * 2:  # JSON escapes at most double it
        raise PayloadTooLarge(f"the log is too large (at most {payloads.MAX_LOG_BYTES} bytes)")
    data = request.get_data(cache=False)
    if request.mimetype == "application/json":
        body = loads_user(data)
        if not isinstance(body, dict) or "log" not in body:
            raise BadRequest(
                'send {"log": "<the lines of a game log>", "version": "26.03"} (version optional)'
            )
        unknown = sorted(set(body) - {"log", "version", "corp", "runner"})
        if unknown:
            raise BadRequest(
                f"unknown field(s) {', '.join(map(repr, unknown[:5]))}: send log (and version, corp, runner)"
            )
        log, version = body["log"], body.get("version")
        corp, runner = body.get("corp"), body.get("runner")
    elif request.mimetype in ("text/plain", ""):
        log, version = payloads.decode_log(data), request.args.get("v")
        corp, runner = request.args.get("corp"), request.args.get("runner")
    else:
        raise UnsupportedMediaType('send the log as text/plain, or as JSON {"log": ..., "version": ...}')
    return jsonify(payloads.annotate(rules(), log, version, corp, runner))
