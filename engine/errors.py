"""Errors raised by the engine. Everything the engine raises derives from `EngineError`."""

from __future__ import annotations


class EngineError(Exception):
    """Base class: a request the engine cannot honour (bad board, bad params, illegal decision)."""


class BoardError(EngineError):
    """A malformed or impossible board (or structure params). `problems` lists every problem found,
    each prefixed by the field path, e.g. ``servers.remote1.ice[0].rez_cost: must be a non-negative
    integer``."""

    def __init__(self, problems: list[str]):
        self.problems = list(problems) or ["invalid board"]
        super().__init__("invalid board: " + "; ".join(self.problems))


class IllegalDecision(EngineError):
    """A decision that is not legal at the current step. `legal` lists the ids that are."""

    def __init__(self, decision: str, legal: list[str], step: str | None, reason: str = ""):
        self.decision = decision
        self.legal = list(legal)
        self.step = step
        where = f" at {step}" if step else ""
        why = f" ({reason})" if reason else ""
        if legal:
            msg = f"decision {decision!r} is not legal{where}{why}; legal decisions: {', '.join(legal)}"
        else:
            msg = f"decision {decision!r} is not legal{where}{why}; the session is finished"
        super().__init__(msg)
