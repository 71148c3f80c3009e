"""`nrrules structures`, `step` and `engine-coverage`: the timing-structure engine on the
command line.

    nrrules structures [--version V] [--json]          # the /api/engine/structures answer
    nrrules step board.json --structure run --server hq [--decide ID ...] [--json]
    nrrules engine-coverage [--version V] [--json]

Without --decide, `step` takes the first legal decision at every stop until the structure
finishes; with --decide it takes those decisions in order and, if the structure is not finished,
lists the decisions available next. `--json` prints the session state the API answers for the
position reached (GET /api/engine/sessions/<token>, webapp.payloads.engine.state), its token
signed with SECRET_KEY. Bad input gives one `error: ...` line and exit status 2.
"""

from __future__ import annotations

import json
import os
import secrets
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from scraper import Document, ScrapeError
from scraper.source import read_source

from ..errors import BadRequest
from ..jsonprovider import loads_user
from ..payloads import Rules
from .common import build_dir_option, emit, open_rules, payload_command, user_errors, version_option

if TYPE_CHECKING:
    # the engine (and Flask, for tokens) load in the commands that step, not for every command
    from ..payloads import engine as payloads

BOARD_BYTES = 256 * 1024  # as the server's MAX_CONTENT_LENGTH: boards are a few KB


def read_board(path: str) -> dict:
    try:  # a regular file within the size, read safely (scraper.source), or stdin up to the size
        raw = (
            sys.stdin.read(BOARD_BYTES + 1)
            if path == "-"
            else read_source(Path(path), BOARD_BYTES, what="board")
        )
        text = raw if isinstance(raw, str) else raw.decode("utf-8")
    except ScrapeError as exc:
        raise BadRequest(f"cannot read board file {exc.source}: {exc.message}") from None
    except OSError as exc:
        raise BadRequest(f"cannot read board file {path}: {exc.strerror or exc}") from None
    except UnicodeDecodeError:
        raise BadRequest(f"board file {path} is not UTF-8 text") from None
    if len(text) > BOARD_BYTES:
        raise BadRequest(f"board on standard input is larger than {BOARD_BYTES} bytes")
    data = loads_user(text, f"board file {path}")
    if not isinstance(data, dict):
        raise BadRequest(f"board file {path} must hold a JSON object")
    return data


def _rule_line(doc: Document, rid: str) -> str:
    n = doc.node(rid)
    if n is None:
        return rid
    text = n.text if len(n.text) <= 110 else n.text[:107].rstrip() + "..."
    return f"{n.number or rid} {text}".strip()


def format_step(
    data: dict[str, Any], marks: list[payloads.Decided], doc: Document, rule_text: bool = True
) -> str:
    """The session state payload as text: the trace, each decision where it was taken, then the
    outcome, or the step it waits at with the decisions legal there and those not offered."""
    lines = [
        f"CR {data['version']}: {data['structure']}"
        + (f" {json.dumps(data['params'])}" if data["params"] else "")
        + f" (seed {data['seed']})"
    ]
    pending = list(marks)

    def decided_before(index: int) -> None:
        while pending and pending[0].at <= index:
            mark = pending.pop(0)
            lines.append(f">> {mark.player or '?'} decides: {mark.decision}")

    for i, e in enumerate(data["trace"]):
        decided_before(i)
        lines.append(f"{e['step_number'] or e['step']:<9} {e['text']}")
        if rule_text:
            for rid in e["rules"]:
                lines.append(f"{'':9}   {_rule_line(doc, rid)}")
    decided_before(len(data["trace"]))
    o = data["outcome"]
    lines.append("")
    if data["finished"]:
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
        step = data["current_step"]
        lines.append(f"Waiting at {step['number'] or step['id']} [{step['id']}]: {step['text']}")
        lines.append("Legal decisions (pass them with --decide, after those already taken):")
        for d in data["decisions"]:
            lines.append(f"  {d['id']:<20} {d['player']:<6} {d['label']}")
        if data["refused"]:
            lines.append("Not offered:")
            for r in data["refused"]:
                lines.append(
                    f"  {r['id']:<20} {r['player']:<6} {r['reason']} ({r['rule_number'] or r['rule']})"
                )
    return "\n".join(lines)


def secret_key() -> str:
    """The key `step --json` signs its session token with: the server's SECRET_KEY (read as the
    app reads it), so the printed `url` opens the same position there; without one, a random
    key for this process, and a note on stderr that the token opens in no server."""
    key = os.environ.get("SECRET_KEY") or os.environ.get("NRRULES_SECRET_KEY")
    if key:
        return key
    click.echo(
        "nrrules: SECRET_KEY is not set: the session token is signed with a random key and opens "
        "in no server (set SECRET_KEY to the server's to get a link that opens there)",
        err=True,
    )
    return secrets.token_urlsafe(32)


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
        from ..payloads import engine as payloads

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
        "--json",
        "as_json",
        is_flag=True,
        help="Print the session as GET /api/engine/sessions/<token> answers it (token signed with SECRET_KEY).",
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
        from ..payloads import engine as payloads
        from ..tokens import encoder

        board = read_board(board_json)
        params: dict = {}
        if params_json:
            params = loads_user(params_json, "--params")
            if not isinstance(params, dict):
                raise BadRequest("--params must be a JSON object")
        if server is not None:
            params["server"] = server
        rules = open_rules(build_dir)
        body = {"board": board, "structure": structure, "params": params, "seed": seed, "v": version}
        spec = payloads.spec_from_json(rules, body).with_decisions(list(decisions))
        encode = encoder(secret_key() if as_json else secrets.token_urlsafe(32))
        reached, rebuilt, marks = payloads.walk(rules, spec, encode, auto=not decisions)
        data = payloads.state(rules, reached, rebuilt)
        if as_json:
            emit(data)
        else:
            click.echo(format_step(data, marks, rebuilt.doc, rule_text=not no_rule_text))

    @group.command("engine-coverage")
    @version_option
    @click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
    @build_dir_option
    @user_errors
    def engine_coverage(version: str | None, as_json: bool, build_dir: Path | None) -> None:
        """Share of the version's timing steps walked by the engine's scenario suite."""
        import engine

        report = engine.scenario_coverage(open_rules(build_dir).document(version))
        if as_json:
            click.echo(json.dumps(report, indent=2))
        else:
            click.echo(format_coverage(report))
