"""The stepper offline (issue 35): what the in-browser Python (Pyodide, in a Web Worker:
static/stepper-worker.js) runs to step a session with the same engine as the server.

This module imports the engine, the CR document model and the text formatter only (no Flask,
no itsdangerous): `python -m webapp.offline_engine` packs it with them into the zip the worker
unpacks. The server stays the reference: the worker answers with `state`, the subset of the
API's session answer (webapp.payloads.engine.state) the offline page draws, built the same way.

A session token is read, not verified: the page held it from the server, and the worker runs in
the judge's own browser, so nothing it could forge is trusted by anyone but them.
"""

from __future__ import annotations

import base64
import json
import zlib
from typing import Any

import engine
from scraper import Document

from .board_picture import server_label
from .textfmt import say_plain

MAX_PAYLOAD = 256 * 1024  # as webapp.tokens: a token's JSON is at most this many bytes


class OfflineError(ValueError):
    """A token or decision the offline stepper cannot use; its message is shown to the judge."""


def token_payload(token: str) -> dict[str, Any]:
    """The session payload a token carries (itsdangerous's URL-safe form: ``payload.signature``,
    the payload base64url, zlib-compressed when it starts with a dot), unverified."""
    if not isinstance(token, str) or "." not in token.lstrip("."):
        raise OfflineError("this stepper link holds no session")
    packed = token.startswith(".")
    body = token[1:] if packed else token
    body = body.split(".", 1)[0]
    try:
        raw = base64.urlsafe_b64decode(body + "=" * (-len(body) % 4))
        if packed:
            unpack = zlib.decompressobj()
            raw = unpack.decompress(raw, MAX_PAYLOAD)
            if unpack.unconsumed_tail or not unpack.eof:
                raise OfflineError("this stepper link's session is too large")
        data = json.loads(raw)
    except (ValueError, zlib.error) as exc:
        if isinstance(exc, OfflineError):
            raise
        raise OfflineError("this stepper link is damaged (copied only in part?)") from None
    if not isinstance(data, dict) or not {"v", "s", "b", "d"} <= set(data):
        raise OfflineError("this stepper link holds no session")
    return data


class Stepper:
    """One CR version's document and the sessions stepped on it."""

    def __init__(self, document_json: str) -> None:
        self.doc = Document.from_json(document_json)
        self.version = self.doc.version

    def _card(self, rule_id: str) -> dict[str, Any]:
        node = self.doc.node(rule_id)
        if node is None:
            return {"id": rule_id, "number": None, "title": None, "text": ""}
        title = node.title or next((a.title for a in reversed(self.doc.ancestors(node.id)) if a.title), None)
        return {"id": node.id, "number": node.number, "title": title, "text": say_plain(node.text)}

    def _event(self, event: Any) -> dict[str, Any]:
        number = self._card(event.step)["number"] if event.step else None
        return {"step": event.step, "step_number": number, "text": event.text, "shown": say_plain(event.text)}

    def finished_lines(self, outcome: dict[str, Any]) -> list[str]:
        """The finished session's outcome as the stepper page words it (_stepper_main.html)."""
        lines = []
        for run in outcome.get("runs") or []:
            line = f"Run on {server_label(str(run.get('server') or ''))}: {run.get('result')}"
            if run.get("ended_by"):
                line += f" (ended by {say_plain(str(run['ended_by']).replace('_', ' '))})"
            lines.append(line + ".")
        for key, word in (
            ("accessed", "Accessed"),
            ("stolen", "Stolen"),
            ("scored", "Scored"),
            ("trashed", "Trashed"),
        ):
            if outcome.get(key):
                lines.append(f"{word}: {', '.join(map(str, outcome[key]))}.")
        if outcome.get("winner"):
            reason = f" ({say_plain(outcome['win_reason'])})" if outcome.get("win_reason") else ""
            lines.append(f"Winner: {outcome['winner']}{reason}.")
        return lines

    def state(self, payload: dict[str, Any]) -> dict[str, Any]:
        """The session a payload names, replayed: its decisions, current step, outcome, board
        and trace (each event with its text as the engine wrote it and as the page shows it)."""
        spec = engine.SessionSpec.from_payload(payload)
        if spec.version != self.version:
            raise OfflineError(
                f"this session is on CR {spec.version}; the saved stepper has CR {self.version}"
            )
        decisions = list(spec.decisions)
        try:
            session = engine.replay(
                spec.board, spec.structure, self.doc, params=spec.params or None, seed=spec.seed
            )
            events = list(session.trace)
            for decision in decisions:
                events = engine.push(session, decision)
        except engine.EngineError as exc:
            raise OfflineError(f"the engine refused this session: {exc}") from None
        finished = bool(session.finished)
        current = session.current_step
        outcome = session.outcome.to_dict()
        server = (spec.params or {}).get("server")
        title = spec.structure.replace("_", " ").capitalize()  # as stepper_page.session_title says it
        if spec.structure == "run" and isinstance(server, str):
            title = f"Run on {server_label(server)}"
        elif isinstance(server, str):
            title += f" on {server_label(server)}"
        return {
            "title": title,
            "payload": spec.to_payload(),
            "version": spec.version,
            "structure": spec.structure,
            "params": spec.params,
            "decisions_taken": decisions,
            "current_step": self._card(current) if current and not finished else None,
            "decisions": [
                {**d, "shown": say_plain(d["label"])}
                for d in ([] if finished else engine.legal_decisions(session))
            ],
            "finished": finished,
            "outcome": outcome,
            "finished_lines": self.finished_lines(outcome) if finished else [],
            "trace": [self._event(e) for e in session.trace],
            "events": len(events) if decisions else 0,
            "board": session.board,
        }

    def decide(self, payload: dict[str, Any], decision: str) -> dict[str, Any]:
        """The session after one more decision (OfflineError when it is not legal now)."""
        if not isinstance(decision, str) or not decision or len(decision) > 200:
            raise OfflineError("no decision chosen")
        return self.state({**payload, "d": [*payload.get("d", []), decision]})


def answer(stepper: Stepper, request_json: str) -> str:
    """One request from the worker ({"token"} or {"payload", "decision"?}) as a JSON answer:
    {"ok": true, "state": ...} or {"ok": false, "error": "..."}; never a traceback."""
    try:
        req = json.loads(request_json)
        payload = req["payload"] if req.get("payload") else token_payload(req.get("token", ""))
        if req.get("decision"):
            out = stepper.decide(payload, req["decision"])
        else:
            out = stepper.state(payload)
        return json.dumps({"ok": True, "state": out}, ensure_ascii=False)
    except OfflineError as exc:
        return json.dumps({"ok": False, "error": str(exc)})
    except (engine.BoardError, ValueError, TypeError, KeyError) as exc:
        return json.dumps({"ok": False, "error": f"the offline stepper cannot step this session ({exc})"})
