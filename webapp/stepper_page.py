"""What the stepper page shows beyond the session's API payload: the board picture, the trace
grouped by phase, the last decision's effects and a short summary of the ruling for sharing.

The payload (`state`) is the API's answer for the session (events serialised with their rule
links); this module only arranges it, so the page and its JSON twin cannot disagree."""

from __future__ import annotations

from typing import Any

from scraper import Document

from .board_picture import board_picture, run_position, server_label
from .trace_groups import Group, PhaseTable, decision_brief, group_trace, ruling_summary


def session_title(state: dict[str, Any], structures: list[dict[str, Any]] | None = None) -> str:
    """ "Run on Server 1", "The Corp's turn", "Breaching a server on HQ"."""
    sid = state.get("structure") or ""
    server = (state.get("params") or {}).get("server")
    if sid == "run" and isinstance(server, str):
        return f"Run on {server_label(server)}"
    title = next((s["title"] for s in structures or () if s.get("id") == sid), None)
    title = title or sid.replace("_", " ").capitalize()
    if isinstance(server, str):
        title += f" on {server_label(server)}"
    return title


def _ice_namer(board: dict[str, Any], server: Any):
    ice = []
    if isinstance(server, str):
        srv = (board.get("servers") or {}).get(server) or {}
        ice = srv.get("ice") or []

    def name(pos: int) -> str | None:
        if 0 <= pos < len(ice) and isinstance(ice[pos], dict):
            return str(ice[pos].get("name") or "")
        return None

    return name


def stepper_context(
    state: dict[str, Any],
    frames: Any,
    doc: Document,
    share_url: str,
    structures: list[dict[str, Any]] | None = None,
) -> dict[str, Any]:
    """Template context for stepper.html from the session payload and the session's frames."""
    phases = PhaseTable(doc)
    trace = state.get("trace") or []
    events = state.get("events") or []
    run = None if state.get("finished") else run_position(frames, phases.kind)
    board = state.get("board") or {}
    server = (state.get("params") or {}).get("server")
    ice_name = _ice_namer(board, server)
    recent_from = len(trace) - len(events) if state.get("decisions_taken") and events else None
    groups: list[Group] = group_trace(trace, phases, recent_from, ice_name)
    title = session_title(state, structures)
    # the last decision's effects, led by what changed (credits, strength, position, rez, ...)
    recent_lines = decision_brief(events, phases) if recent_from is not None else []
    return {
        "title": title,
        "picture": board_picture(board, run),
        "groups": groups,
        "recent_lines": recent_lines,
        "recent_other": len(events) - sum(ln.size for ln in recent_lines) if recent_from is not None else 0,
        "summary": ruling_summary({**state, "share_url": share_url}, title),
        "share_text": ruling_summary({**state, "share_url": None}, title),  # the share sheet adds the link
    }
