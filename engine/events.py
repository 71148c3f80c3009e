"""Event: one thing the engine did at one CR step."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(slots=True)
class Event:
    """One thing the engine did at one CR step."""

    step: str  # stable id of the CR step (or checkpoint sub-rule) walked
    rules: tuple[str, ...]  # stable ids of the rules applied (all present in the loaded document)
    text: str  # one-line plain English
    changes: dict[str, Any] = field(default_factory=dict)  # e.g. {"runner.credits": [5, 3]}
    # False when the step was walked but its rule did not apply (a condition not met, nothing to
    # do, or a step the engine only narrates); True when the rule fired.
    applied: bool = True
    # The objects touched, as structured fields: {"server": "hq", "ice": 0, "subroutine": 1,
    # "card": "Ice Wall", "program": 2}; tools read these instead of parsing `text`.
    objects: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {
            "step": self.step,
            "rules": list(self.rules),
            "text": self.text,
            "changes": dict(self.changes),
            "applied": self.applied,
            "objects": dict(self.objects),
        }
