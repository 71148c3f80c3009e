"""Coverage: which of a CR version's timing steps the engine models and a set of walks visits."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from scraper import Document

from .machine import narrated
from .steps import modeled
from .structures import STRUCTURES, structure_steps

# Sections the issue requires walked completely.
REQUIRED_FULL = ("corp_turn", "runner_turn", "run", "access", "breach")


def _pct(k: int, n: int) -> float:
    return round(100.0 * k / n, 1) if n else 100.0


def coverage(
    doc: Document, walked_step_ids: Iterable[str], changed_step_ids: Iterable[str] | None = None
) -> dict[str, Any]:
    """Per structure and overall: how many of `doc`'s steps were walked; of the modeled steps,
    how many have handlers that act on the board (`applies`: they change it when their condition
    holds) and which the engine only narrates (`narrated`, the data table in engine.narration);
    with `changed_step_ids`, which steps were seen changing the board (`changed_board`).

    "All steps" are the document's nodes of kind "step" (the checkpoint list, which is made of
    sub-rules before 24.03, is reported under its structure but only counts there)."""
    walked = {i for i in walked_step_ids if modeled(i)}  # a step walked without a handler is not covered
    changed = None if changed_step_ids is None else set(changed_step_ids)
    sections: dict[str, Any] = {}
    for s in STRUCTURES:
        ids = structure_steps(doc, s.id)
        if not ids:
            continue
        sec = doc.node(s.section_id)
        hit = [i for i in ids if i in walked]
        sections[s.id] = {
            "section_id": s.section_id,
            "number": sec.number if sec else None,
            "title": s.title,
            "steps": len(ids),
            "walked": len(hit),
            "percent": _pct(len(hit), len(ids)),
            "not_walked": [i for i in ids if i not in walked],
            "not_modeled": [i for i in ids if not modeled(i)],
            # of the modeled steps: those whose handlers change the board (when their condition
            # holds) and those the engine only narrates
            "applies": sum(1 for i in ids if modeled(i) and not narrated(i)),
            "narrated": [i for i in ids if narrated(i)],
        }
        if changed is not None:  # seen changing the board in these walks
            sections[s.id]["changed_board"] = [i for i in ids if i in changed]
    all_steps = [n.id for n in doc.nodes if n.kind == "step"]
    hit_all = [i for i in all_steps if i in walked]
    return {
        "version": doc.version,
        "sections": sections,
        "all_steps": {
            "steps": len(all_steps),
            "walked": len(hit_all),
            "percent": _pct(len(hit_all), len(all_steps)),
            "not_walked": [i for i in all_steps if i not in walked],
            "not_modeled": [i for i in all_steps if not modeled(i)],
            "applies": sum(1 for i in all_steps if modeled(i) and not narrated(i)),
            "narrated": [i for i in all_steps if narrated(i)],
            **({} if changed is None else {"changed_board": [i for i in all_steps if i in changed]}),
        },
        "required_full": {k: sections[k]["percent"] for k in REQUIRED_FULL if k in sections},
    }


def scenario_coverage(doc: Document) -> dict[str, Any]:
    """Coverage of the built-in scenario suite (engine.scenarios) on this version."""
    from .scenarios import SCENARIOS, walked_steps

    changed: set[str] = set()
    walked, failed = walked_steps(doc, changed)
    report = coverage(doc, walked, changed)
    report["scenarios"] = len(SCENARIOS)
    report["failed_scenarios"] = failed
    return report
