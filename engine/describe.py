"""Display helpers: numbers and rule text come from the loaded document, never from the engine."""

from __future__ import annotations

from typing import Any

from scraper import Document

from .session import Event


def _number(doc: Document, node_id: str) -> str | None:
    n = doc.node(node_id)
    return n.number if n is not None else None


def describe_event(event: Event, doc: Document) -> dict[str, Any]:
    """`event.to_dict()` plus "step_number", "step_text", "rule_numbers" (same order as "rules")
    and "rule_texts", resolved from `doc`."""
    d = event.to_dict()
    step = doc.node(event.step)
    d["step_number"] = step.number if step is not None else None
    d["step_text"] = step.text if step is not None else ""
    d["rule_numbers"] = [_number(doc, r) for r in event.rules]
    d["rule_texts"] = [(doc.node(r).text if doc.node(r) is not None else "") for r in event.rules]
    return d
