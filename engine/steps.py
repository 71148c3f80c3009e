"""The CR timing structures as a step machine: `engine.machine` walks the frames; one module per
structure registers the handlers for its steps (keyed by CR stable id):

| module | structure |
| --- | --- |
| `turns` | the Corp's and the Runner's turns (5.6, 5.7), actions and installs (5.2, 8.5) |
| `run` | a run (6.9): initiation, approach, movement, success, run ends |
| `encounter` | the Encounter Ice Phase (6.9.3): breaking and resolving subroutines |
| `access` | breaching a server (7.5) and accessing a card (7.2) |
| `abilities` | paid (9.5.7), conditional (9.6.15) and play (9.7.2) abilities, subroutines (9.8.10) |
| `trace` | traces (10.8.6) |
| `checkpoints` | checkpoints (10.3.1) |
| `draw` | drawing cards (8.4.5) |
| `windows` | paid ability windows (9.2) and priority (9.2.7a) |
| `prevention` | interrupt windows for damage: prevention (9.9) |
| `recurring` | recurring credits (1.10.5) |
| `triggers` | simultaneous conditional abilities and their reaction window (9.2.8, 9.6) |
| `effects` | the effect vocabulary, damage, ending the run, winning |
| `narration` | steps the engine only narrates, as a data table |
| `refusals` | why a decision is not legal now |

This module imports them all (registering every handler) and re-exports what the session needs.
"""

from __future__ import annotations

from . import (  # noqa: F401  (importing registers the handlers)
    abilities,
    access,
    checkpoints,
    draw,
    encounter,
    narration,
    prevention,
    recurring,
    run,
    trace,
    triggers,
    turns,
)
from .locations import candidates
from .machine import HANDLERS, advance, handler_for, initial_frame, modeled
from .refusals import why_illegal

__all__ = ["HANDLERS", "advance", "candidates", "handler_for", "initial_frame", "modeled", "why_illegal"]
