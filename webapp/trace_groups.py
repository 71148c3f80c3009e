"""A trace a judge can read: engine events grouped by the phase of the timing structure they
belong to (Initiation, Approach, Encounter, Movement, Success, Run ends; turn phases; breach,
each access), with the steps that did not apply set apart so a page can fold them.

Pure functions: the phase of a step comes from the loaded CR document (the step's nearest titled
ancestor, or an untitled rule that says "During the ... phase"), never from a table of numbers,
so every CR version groups the same way. Nested procedures (paid abilities, checkpoints,
conditional abilities, subroutines, traces) stay inside the phase they happen in.

Within a group, `condense` tells the events in lines a judge reads: a paid ability's use in one
line (repeated pumps merged: "Crypsis +5 strength, paid 5[credit] (5 uses)"), a checkpoint where
nothing changed in one line, each other applied step in its own; every step stays inside its
line. `decision_brief` picks the lines of the last decision led by what changed.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from scraper import Document

from .textfmt import say_plain


@dataclass(frozen=True)
class Phase:
    key: str  # stable id of the section or rule the step belongs to
    title: str  # short title for display ("Approach", "Draw phase", "Checkpoint")
    kind: str  # initiation, approach, encounter, movement, success, run_ends, breach, access, turn, procedure
    nested: bool  # a procedure that happens inside a phase (paid ability, checkpoint, ...)


# (words in the section's title, kind, short title, nested?) — first match wins
_KINDS: tuple[tuple[str, str, str, bool], ...] = (
    ("initiation phase", "initiation", "Initiation", False),
    ("approach ice phase", "approach", "Approach", False),
    ("encounter ice phase", "encounter", "Encounter", False),
    ("movement phase", "movement", "Movement", False),
    ("success phase", "success", "Success", False),
    ("run ends phase", "run_ends", "Run ends", False),
    ("breaching a server", "breach", "Breach", False),
    ("accessing a card", "access", "Access", False),
    ("using a paid ability", "procedure", "Paid ability", True),
    ("checkpoint", "procedure", "Checkpoint", True),
    ("conditional ability", "procedure", "Conditional ability", True),
    ("play ability", "procedure", "Play ability", True),
    ("resolving a subroutine", "procedure", "Subroutine", True),
    ("trace attempt", "procedure", "Trace", True),
    ("drawing n cards", "procedure", "Drawing cards", True),
)
_DURING = re.compile(r"^During the (.{1,60}? phase)\b", re.I)
_OTHER = Phase("", "Steps", "other", False)

# Engines that do not yet say whether a step applied: a step that changed nothing and says
# that nothing happened is counted as not applied.
_NOTHING = re.compile(
    r"^(No |Nobody|There (is|are) no |The breached server is not|The breached server is neither)"
    r"|: no modeled |no interrupt |nobody has \d+ agenda|has no effect",
    re.I,
)


def phase_of(doc: Document, step_id: str) -> Phase:
    """The phase (or nested procedure) a step belongs to in `doc`."""
    node = doc.node(step_id)
    if node is None:
        return _OTHER
    for anc in reversed(doc.ancestors(node.id)):
        title = anc.title
        if not title:
            m = _DURING.match(anc.text or "")
            if not m:
                continue
            phase = m.group(1)
            return Phase(anc.id, phase[0].upper() + phase[1:], "turn", False)
        low = title.lower()
        for words, kind, short, nested in _KINDS:
            if words in low:
                return Phase(anc.id, short, kind, nested)
        return Phase(anc.id, title, "turn" if "turn" in low else "other", False)
    return _OTHER


class PhaseTable:
    """phase_of with a memo for one render (a trace names the same steps many times)."""

    def __init__(self, doc: Document) -> None:
        self.doc = doc
        self._memo: dict[str, Phase] = {}

    def __call__(self, step_id: str) -> Phase:
        phase = self._memo.get(step_id)
        if phase is None:
            phase = self._memo[step_id] = phase_of(self.doc, step_id)
        return phase

    def kind(self, step_id: str) -> str:
        return self(step_id).kind


def applied(event: dict[str, Any]) -> bool:
    """Did this step's rule apply? The engine's `applied` field when it gives one."""
    flag = event.get("applied")
    if isinstance(flag, bool):
        return flag
    return bool(event.get("changes")) or not _NOTHING.search(event.get("text") or "")


@dataclass
class Line:
    """One line of the trace as a judge reads it: a step, or several steps told in one sentence
    (a paid ability used once or several times in a row, a checkpoint where nothing happened),
    the steps kept beside it so each is one tap away."""

    kind: str  # "step", "ability" (uses of one paid ability) or "checkpoint" (nothing happened)
    text: str  # engine wording (pages format it: symbols, counts, server names)
    events: list[dict[str, Any]]
    changed: tuple[str, ...] = ()  # the board paths the line's steps changed, in order

    @property
    def size(self) -> int:
        return len(self.events)


@dataclass
class Group:
    """One phase's run of events (as the API serialises them)."""

    key: str
    title: str
    kind: str
    start: int  # index in the trace of the group's first event
    shown: list[dict[str, Any]]  # events whose rule applied, in order
    folded: list[dict[str, Any]]  # events walked without applying, in order
    subject: str = ""  # the ice or card the phase is about
    recent: bool = False  # holds an event of the last decision
    last: bool = False  # the group the session is in now
    lines: list[Line] = field(default_factory=list)  # the events told in lines (`condense`)
    rest: list[dict[str, Any]] = field(default_factory=list)  # steps that did not apply, outside lines

    @property
    def size(self) -> int:
        return len(self.shown) + len(self.folded)


def _subject(event: dict[str, Any], kind: str, ice_name: Callable[[int], str | None]) -> str:
    objects = event.get("objects") or {}
    changes = event.get("changes") or {}
    if kind == "access":
        card = objects.get("card")
        if isinstance(card, str):
            return card
        acc = changes.get("accessed")
        if isinstance(acc, (list, tuple)) and len(acc) == 2 and isinstance(acc[1], str):
            return acc[1]
    if kind in ("approach", "encounter") and isinstance(objects.get("ice"), int):
        return ice_name(objects["ice"]) or ""
    return ""


def group_trace(
    events: Iterable[dict[str, Any]],
    phase: Callable[[str], Phase],
    recent_from: int | None = None,
    ice_name: Callable[[int], str | None] = lambda i: None,
) -> list[Group]:
    """Consecutive events of one phase form a group (a phase entered again, such as the
    Approach Ice Phase of the next ice or the breach after an access, starts a new group);
    nested procedures join the group they happen in. `recent_from` is the index of the last
    decision's first event; `ice_name(pos)` names the ice at a position of the attacked server
    (the run's position is followed through the events' `run.position` changes)."""
    groups: list[Group] = []
    pos: int | None = 0
    events_list = list(events)
    for i, event in enumerate(events_list):
        step = event.get("step") or ""
        ph = phase(step) if step else _OTHER
        changes = event.get("changes") or {}
        moved = changes.get("run.position")
        if ph.nested and groups:
            group = groups[-1]
        elif groups and groups[-1].key == ph.key:
            group = groups[-1]
        else:
            group = Group(ph.key, ph.title, ph.kind, i, [], [])
            if ph.kind in ("approach", "encounter") and pos is not None:
                group.subject = ice_name(pos) or ""
            groups.append(group)
        if isinstance(moved, (list, tuple)) and len(moved) == 2:
            pos = moved[1] if isinstance(moved[1], int) else None
        if not group.subject:
            group.subject = _subject(event, group.kind, ice_name)
        (group.shown if applied(event) else group.folded).append(event)
        if recent_from is not None and i >= recent_from:
            group.recent = True
    if groups:
        groups[-1].last = True
    for g in groups:
        g.lines, g.rest = condense(sorted(g.shown + g.folded, key=_order(events_list)), phase)
    return groups


def _order(events: list[dict[str, Any]]) -> Callable[[dict[str, Any]], int]:
    index = {id(e): i for i, e in enumerate(events)}
    return lambda e: index[id(e)]


def _changed(events: Iterable[dict[str, Any]]) -> tuple[str, ...]:
    return tuple(k for e in events for k in (e.get("changes") or {}))


def _delta(events: Iterable[dict[str, Any]], suffix: str) -> int:
    """The sum of the numeric changes of the board paths ending with `suffix`."""
    total = 0
    for e in events:
        for key, change in (e.get("changes") or {}).items():
            if key.endswith(suffix) and isinstance(change, (list, tuple)) and len(change) == 2:
                old, new = change
                if isinstance(old, int) and isinstance(new, int):
                    total += new - old
    return total


_ANNOUNCES = re.compile(r"^The (?:Runner|Corp) announces: (.*?)\.?$")


def _ability_line(uses: list[list[dict[str, Any]]]) -> Line:
    """Uses of one paid ability told in one sentence: "Crypsis +3 strength, paid 3[credit]"."""
    events = [e for use in uses for e in use]
    first = uses[0][0]
    m = _ANNOUNCES.match(first.get("text") or "")
    ability = m.group(1) if m else (first.get("text") or "")
    card = next(
        (e["objects"]["card"] for e in events if isinstance((e.get("objects") or {}).get("card"), str)),
        ability.split(":")[0],
    )
    paid = -(_delta(events, "runner.credits") + _delta(events, "corp.credits"))
    strength = _delta(events, ".strength")
    cost = f"paid {paid}[credit]" if paid > 0 else "paid nothing"
    times = f" ({len(uses)} uses)" if len(uses) > 1 else ""
    if strength:
        text = f"{card} {strength:+d} strength, {cost}{times}"
    else:
        # what the ability did, as its resolution says ("Crypsis ... breaks subroutine 1 of ..."),
        # or the ability as announced when the engine did not resolve it (resolved by hand)
        resolved = [e for e in events if (e.get("objects") or {}).get("ability") is not None and applied(e)]
        said = (resolved[-1].get("text") or "").rstrip(".") if resolved else ability
        text = f"{said}; {cost}{times}"
    return Line("ability", text, events, _changed(events))


def condense(
    events: list[dict[str, Any]], phase: Callable[[str], Phase]
) -> tuple[list[Line], list[dict[str, Any]]]:
    """A group's events as lines: each use of a paid ability (with the checkpoint it holds) in one
    line, consecutive uses of the same ability merged ("Crypsis +3 strength, paid 3[credit]"), a
    checkpoint where nothing changed in one line, every other applied step in a line of its own.
    Returns the lines and the steps that did not apply outside them (a page folds those)."""
    lines: list[Line] = []
    rest: list[dict[str, Any]] = []
    uses: list[list[dict[str, Any]]] = []  # the uses told in the last line, when it is a pump
    i = 0
    n = len(events)
    while i < n:
        e = events[i]
        ph = phase(e.get("step") or "")
        if ph.title == "Paid ability":
            # one use: from its first step to the next non-nested step or the next use's first step
            start_step = e.get("step")
            j = i + 1
            while j < n and phase(events[j].get("step") or "").nested and events[j].get("step") != start_step:
                j += 1
            use = events[i:j]
            pump = bool(_delta(use, ".strength"))
            if (
                pump
                and uses
                and lines
                and lines[-1].kind == "ability"
                and uses[0][0].get("text") == use[0].get("text")
            ):
                uses.append(use)  # the same pump again: one line for all of them
                lines[-1] = _ability_line(uses)
            else:
                uses = [use] if pump else []
                lines.append(_ability_line([use]))
            i = j
            continue
        if ph.title == "Checkpoint":
            j = i
            while j < n and phase(events[j].get("step") or "").title == "Checkpoint":
                j += 1
            run = events[i:j]
            if not _changed(run):
                lines.append(Line("checkpoint", "Checkpoint: nothing to do", run))
                i = j
                continue
        if applied(e):
            lines.append(Line("step", e.get("text") or "", [e], _changed([e])))
        else:
            rest.append(e)
        i += 1
    return lines, rest


# what a judge looks at first in "what the last decision did": the kinds of change, in order
_CHANGE_RANK = (
    ("credits", 0),
    ("strength", 1),
    ("run.position", 2),
    ("rezzed", 3),
    ("broken", 4),
    ("run.successful", 5),
    ("run.ended", 5),
    ("accessed", 6),
    ("score", 7),
)


def _rank(line: Line) -> int:
    best = 9 if line.kind == "step" else 8
    if line.kind == "ability":
        best = 0
    for key in line.changed:
        for part, rank in _CHANGE_RANK:
            if key.endswith(part) or part in key:
                best = min(best, rank)
    return best


def decision_brief(events: list[dict[str, Any]], phase: Callable[[str], Phase], limit: int = 5) -> list[Line]:
    """What the last decision did, led by what changed (credits, strength, position, rez, broken
    subroutines, the run's end, access, score), then its other applied steps outside checkpoints
    and paid ability windows; at most `limit` lines, in the order they happened within a rank."""
    lines, _ = condense(events, phase)
    lines = [ln for ln in lines if ln.kind != "checkpoint"]
    useful = [ln for ln in lines if ln.kind == "ability" or ln.changed]
    if len(useful) < limit:
        quiet = [
            ln
            for ln in lines
            if ln not in useful and not _NOTHING.search(ln.text) and "window" not in ln.text
        ]
        useful += quiet[: limit - len(useful)]
    order = {id(ln): k for k, ln in enumerate(lines)}
    return sorted(useful, key=lambda ln: (_rank(ln), order[id(ln)]))[:limit]


def fired_numbers(events: Iterable[dict[str, Any]], limit: int = 24) -> list[str]:
    """Numbers of the steps and rules that applied, once each, in order of first mention."""
    out: list[str] = []
    seen: set[str] = set()
    for e in events:
        if not applied(e):
            continue
        for link in e.get("rule_links") or ():
            num = str(link.get("number") or link.get("id"))
            if num not in seen:
                seen.add(num)
                out.append(num)
    return out[:limit] + (["…"] if len(out) > limit else [])


def ruling_summary(state: dict[str, Any], what: str) -> str:
    """A short plain-text summary of the session, to paste in a chat or a judge's notes:
    "Run on Server 1, CR 26.03, after 7 decisions: successful; stole Hostile Takeover.
    Rules: 6.9.1a, ... Link: https://..."."""
    parts = [f"{what}, CR {state.get('version')}"]
    n = len(state.get("decisions_taken") or ())
    parts[0] += f", after {n} decision{'s' if n != 1 else ''}"
    o = state.get("outcome") or {}
    said: list[str] = []
    for run in o.get("runs") or ():
        res = f"run {run.get('result')}"
        if run.get("ended_by"):
            res += f" (ended by {str(run['ended_by']).replace('_', ' ')})"
        said.append(res)
    for key, verb in (
        ("accessed", "accessed"),
        ("stolen", "stole"),
        ("scored", "scored"),
        ("trashed", "trashed"),
    ):
        if o.get(key):
            said.append(f"{verb} {', '.join(map(str, o[key]))}")
    if o.get("winner"):
        said.append(f"{o['winner']} wins" + (f" ({o['win_reason']})" if o.get("win_reason") else ""))
    if not state.get("finished"):
        cur = state.get("current_step") or {}
        said.append(f"now at {cur.get('number') or cur.get('id') or 'a decision'}")
    text = parts[0] + (": " + "; ".join(said) if said else "") + "."
    text = say_plain(text)  # display names, counts and symbols as a reader writes them
    nums = fired_numbers(state.get("trace") or ())
    if nums:
        text += " Rules: " + ", ".join(nums) + "."
    if state.get("share_url"):
        text += " " + state["share_url"]
    return text
