"""What a session has come to so far (`Session.outcome`), typed; `to_dict()` gives the JSON shape
documented in webapp/openapi.yaml (`Outcome`)."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

from .board import memory_limit, memory_used


@dataclass(frozen=True, slots=True)
class RunResult:
    """One run: its server, "successful" / "unsuccessful" / "neither" (6.9.6), and what ended it
    early ("jack_out", "end_the_run", ... or None)."""

    server: str
    result: str
    ended_by: str | None


@dataclass(frozen=True, slots=True)
class CorpOutcome:
    credits: int
    clicks: int
    score: int
    hand: int
    bad_publicity: int


@dataclass(frozen=True, slots=True)
class Memory:
    used: int
    limit: int


@dataclass(frozen=True, slots=True)
class RunnerOutcome:
    credits: int
    clicks: int
    tags: int
    core_damage: int
    score: int
    hand: int
    bad_publicity_fund: int
    memory: Memory
    programs: list[str]


@dataclass(frozen=True, slots=True)
class Outcome:
    run: str | None  # the last run's result (None when no run was made)
    runs: list[RunResult]
    accessed: list[str]
    stolen: list[str]
    trashed: list[str]
    trashed_programs: list[str]
    scored: list[str]
    winner: str | None
    win_reason: str | None
    corp: CorpOutcome
    runner: RunnerOutcome
    archives_faceup: list[str]

    @classmethod
    def of(cls, result: dict[str, Any], board: dict[str, Any]) -> Outcome:
        """From a session's running result record and current board."""
        corp, runner = board["corp"], board["runner"]
        runs = [RunResult(x["server"], x["result"], x["ended_by"]) for x in result["runs"]]
        return cls(
            run=runs[-1].result if runs else None,
            runs=runs,
            accessed=list(result["accessed"]),
            stolen=list(result["stolen"]),
            trashed=list(result["trashed"]),
            trashed_programs=list(result["trashed_programs"]),
            scored=list(result["scored"]),
            winner=result["winner"],
            win_reason=result["win_reason"],
            corp=CorpOutcome(
                credits=corp["credits"],
                clicks=corp["clicks"],
                score=sum(c.get("agenda_points", 0) for c in corp["score_area"]),
                hand=len(corp["hand"]),
                bad_publicity=corp["bad_publicity"],
            ),
            runner=RunnerOutcome(
                credits=runner["credits"],
                clicks=runner["clicks"],
                tags=runner["tags"],
                core_damage=runner["core_damage"],
                score=sum(c.get("agenda_points", 0) for c in runner["score_area"]),
                hand=len(runner["hand"]),
                bad_publicity_fund=runner["bad_publicity_fund"],
                memory=Memory(memory_used(runner["rig"]), memory_limit(runner)),
                programs=[c["name"] for c in runner["rig"]["programs"]],
            ),
            archives_faceup=[c["name"] for c in corp["discard"] if c.get("faceup")],
        )

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)
