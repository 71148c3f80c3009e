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

    def to_dict(self) -> dict[str, Any]:
        return {
            "step": self.step,
            "rules": list(self.rules),
            "text": self.text,
            "changes": dict(self.changes),
        }
