"""`nrrules structures`, `step` and `engine-coverage`: the timing-structure engine on the
command line.

    nrrules structures [--version V] [--json]          # the /api/engine/structures answer
    nrrules step board.json --structure run --server hq [--decide ID ...] [--json]
    nrrules engine-coverage [--version V] [--json]

Without --decide, `step` takes the first legal decision at every stop until the structure
finishes; with --decide it takes those decisions in order and, if the structure is not finished,
lists the decisions available next. Bad input gives one `error: ...` line and exit status 2.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import click

import engine
from scraper import Document

from ..errors import BadBoard, BadRequest, IllegalDecision
from ..jsonprovider import loads_user
from ..payloads import Rules
from ..payloads import engine as payloads
from .common import build_dir_option, open_rules, payload_command, user_errors, version_option

MAX_AUTO_DECISIONS = 5000


def read_board(path: str) -> dict:
    try:
        text = sys.stdin.read() if path == "-" else Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise BadRequest(f"cannot read board file {path}: {exc.strerror or exc}") from None
    except UnicodeDecodeError:
        raise BadRequest(f"board file {path} is not UTF-8 text") from None
    data = loads_user(text, f"board file {path}")
    if not isinstance(data, dict):
        raise BadRequest(f"board file {path} must hold a JSON object")
    return data


def step_session(
    board: dict,
    doc: Document,
    structure: str,
    params: dict,
    decisions: list[str],
    seed: int = 0,
) -> dict[str, Any]:
    """Walk a structure; returns {"session", "chunks": [(decision | None, player, events)], "auto"}."""
    try:
        s = engine.start(board, structure, doc, params, seed)
    except engine.BoardError as exc:
        raise BadBoard(
            "invalid board or parameters:\n  " + "\n  ".join(exc.problems),
            [payloads.split_problem(p) for p in exc.problems],
        ) from None
    chunks: list[tuple[str | None, str | None, list]] = [(None, None, list(s.trace))]
    auto = not decisions
    todo = list(decisions)
    for _ in range(MAX_AUTO_DECISIONS):
        if s.finished or (not auto and not todo):
            break
        legal = engine.legal_decisions(s)
        d = todo.pop(0) if todo else legal[0]["id"]
        player = next((x["player"] for x in legal if x["id"] == d), None)
        try:
            s, events = engine.apply(s, d)
        except engine.IllegalDecision as exc:
            raise IllegalDecision(str(exc), list(exc.legal)) from None
        chunks.append((d, player, events))
    return {"session": s, "chunks": chunks, "auto": auto}


def _rule_line(doc: Document, rid: str) -> str:
    n = doc.node(rid)
    if n is None:
        return rid
    text = n.text if len(n.text) <= 110 else n.text[:107].rstrip() + "..."
    return f"{n.number or rid} {text}".strip()


def format_step(result: dict[str, Any], doc: Document, rule_text: bool = True) -> str:
    s = result["session"]
    lines = [
        f"CR {doc.version}: {s.structure}"
        + (f" {json.dumps(s.params)}" if s.params else "")
        + f" (seed {s.seed})"
    ]
    for decision, player, events in result["chunks"]:
        if decision is not None:
            lines.append(f">> {player or '?'} decides: {decision}")
        for e in events:
            d = engine.describe_event(e, doc)
            lines.append(f"{d['step_number'] or e.step:<9} {e.text}")
            if rule_text:
                for rid in e.rules:
                    lines.append(f"{'':9}   {_rule_line(doc, rid)}")
    o = s.outcome.to_dict()
    lines.append("")
    if s.finished:
        parts = []
        if o["run"]:
            parts.append(f"run {o['run']}")
        for key in ("accessed", "stolen", "trashed", "scored"):
            if o[key]:
                parts.append(f"{key}: {', '.join(o[key])}")
        if o["winner"]:
            parts.append(f"winner: {o['winner']} ({o['win_reason']})")
        r, c = o["runner"], o["corp"]
        parts.append(
            f"Runner {r['credits']} credits, {r['clicks']} clicks, {r['tags']} tags, {r['hand']} cards, "
            f"{r['score']} points; Corp {c['credits']} credits, {c['score']} points"
        )
        lines.append("Finished: " + "; ".join(parts))
    else:
        node = doc.node(s.current_step)
        num = node.number if node else s.current_step
        lines.append(f"Waiting at {num} [{s.current_step}]: {node.text if node else ''}")
        lines.append("Legal decisions (pass them with --decide, after those already taken):")
        for d in engine.legal_decisions(s):
            lines.append(f"  {d['id']:<20} {d['player']:<6} {d['label']}")
        refused = engine.refused_decisions(s)
        if refused:
            lines.append("Not offered:")
            for r in refused:
                node = doc.node(r.rule)
                lines.append(f"  {r.id:<20} {r.player:<6} {r.reason} ({node.number if node else r.rule})")
    return "\n".join(lines)


def step_json(result: dict[str, Any], doc: Document) -> dict[str, Any]:
    s = result["session"]
    return {
        "version": doc.version,
        "structure": s.structure,
        "params": s.params,
        "seed": s.seed,
        "decisions": s.decisions,
        "finished": s.finished,
        "current_step": s.current_step,
        "legal_decisions": engine.legal_decisions(s),
        "refused_decisions": [r.to_dict() for r in engine.refused_decisions(s)],
        "outcome": s.outcome.to_dict(),
        "trace": [engine.describe_event(e, doc) for e in s.trace],
        "session": s.to_json(),
    }


def format_coverage(report: dict[str, Any]) -> str:
    lines = [
        f"Engine coverage of CR {report['version']} timing steps ({report.get('scenarios', '?')} scenarios)"
    ]
    for sec in report["sections"].values():
        lines.append(
            f"  {sec['number'] or '?':<8} {sec['title']:<48} {sec['walked']:>3}/{sec['steps']:<3} {sec['percent']:5.1f} %"
        )
        if sec["not_walked"]:
            lines.append(f"           not walked: {', '.join(sec['not_walked'])}")
        if sec["not_modeled"]:
            lines.append(f"           not modeled: {', '.join(sec['not_modeled'])}")
        if "applies" in sec:
            seen = f", seen changing the board: {len(sec['changed_board'])}" if "changed_board" in sec else ""
            lines.append(
                f"           applied by the engine: {sec['applies']}, only narrated: {len(sec['narrated'])}{seen}"
            )
    a = report["all_steps"]
    lines.append(f"  all step ids: {a['walked']}/{a['steps']} walked = {a['percent']:.1f} %")
    if "applies" in a:
        lines.append(
            f"  steps the engine applies: {a['applies']}"
            + (f" ({len(a['changed_board'])} seen changing the board)" if "changed_board" in a else "")
            + f"; steps it only narrates: {len(a['narrated'])}"
            + (f" ({', '.join(a['narrated'])})" if a["narrated"] else "")
        )
    if a["not_modeled"]:
        lines.append(f"  steps the engine does not model: {', '.join(a['not_modeled'])}")
    return "\n".join(lines)


def _structures_text(data: dict[str, Any]) -> None:
    for s in data["structures"]:
        click.echo(f"{s['id']:<12} {s['title']}")


def register(group: click.Group) -> None:
    """Add `structures`, `step` and `engine-coverage` to the `nrrules` command group."""

    @payload_command(group, "structures", _structures_text)
    def structures_cmd(rules: Rules, version: str | None) -> dict[str, Any]:
        """The timing structures the engine can walk in a CR version."""
        return payloads.structures(rules, version)

    @group.command("step")
    @click.argument("board_json")
    @version_option
    @click.option("--structure", "-s", default="run", show_default=True, help="Timing structure to walk.")
    @click.option(
        "--server", default=None, help="Server for run, breach and access (hq, rd, archives, remoteN)."
    )
    @click.option(
        "--params", "params_json", default=None, help="Other parameters as JSON, e.g. '{\"strength\": 3}'."
    )
    @click.option(
        "--decide", "-d", "decisions", multiple=True, help="A decision id; repeat for several, in order."
    )
    @click.option(
        "--seed", default=0, show_default=True, type=int, help="Seed for random choices (HQ access, damage)."
    )
    @click.option(
        "--json", "as_json", is_flag=True, help="Print JSON (trace, outcome, legal decisions, session)."
    )
    @click.option(
        "--no-rule-text", is_flag=True, help="Do not print the text of the rules each event applied."
    )
    @build_dir_option
    @user_errors
    def step(
        board_json: str,
        version: str | None,
        structure: str,
        server: str | None,
        params_json: str | None,
        decisions: tuple[str, ...],
        seed: int,
        as_json: bool,
        no_rule_text: bool,
        build_dir: Path | None,
    ) -> None:
        """Step BOARD_JSON (a file, or - for stdin) through a CR timing structure and print the
        trace with step numbers and the rules applied."""
        board = read_board(board_json)
        params: dict = {}
        if params_json:
            params = loads_user(params_json, "--params")
            if not isinstance(params, dict):
                raise BadRequest("--params must be a JSON object")
        if server is not None:
            params["server"] = server
        doc = open_rules(build_dir).document(version)
        result = step_session(board, doc, structure, params, list(decisions), seed)
        if as_json:
            click.echo(json.dumps(step_json(result, doc), indent=2, ensure_ascii=False))
        else:
            click.echo(format_step(result, doc, rule_text=not no_rule_text))

    @group.command("engine-coverage")
    @version_option
    @click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
    @build_dir_option
    @user_errors
    def engine_coverage(version: str | None, as_json: bool, build_dir: Path | None) -> None:
        """Share of the version's timing steps walked by the engine's scenario suite."""
        report = engine.scenario_coverage(open_rules(build_dir).document(version))
        if as_json:
            click.echo(json.dumps(report, indent=2))
        else:
            click.echo(format_coverage(report))
