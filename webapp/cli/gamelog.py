"""`nrrules annotate LOG`: a game log linked to the rules, line by line (`--json`: the answer of
POST /api/annotate for the same log and version)."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from ..errors import BadRequest, PayloadTooLarge
from ..payloads import Rules
from ..payloads import gamelog as payloads
from .common import Payload, payload_command


def read_log(path: str) -> str:
    """The log in a file, or on stdin for "-", within the API's bounds."""
    if path == "-":
        data = sys.stdin.buffer.read(payloads.MAX_LOG_BYTES + 1)
    else:
        try:
            size = Path(path).stat().st_size
        except ValueError:  # a name no file can have (a NUL byte)
            raise BadRequest(f"not a file name: {path!r}") from None
        if size > payloads.MAX_LOG_BYTES:
            raise PayloadTooLarge(
                f"{path}: the log is too large ({size} bytes, at most {payloads.MAX_LOG_BYTES})"
            )
        data = Path(path).read_bytes()
    return payloads.decode_log(data)


def _ref(item: dict) -> str:
    return item["number"] or f"({item['id']})"


def _annotate_text(data: Payload) -> None:
    n = data["counts"]
    click.echo(
        f"CR {data['version']}: {n['linked']} of {n['lines']} lines linked to the rules, {n['unknown']} unknown"
    )
    for line in data["lines"]:
        if line["status"] == "unknown":
            where = click.style("unknown", dim=True)
        else:
            step = f"step {_ref(line['step'])}" if line["step"] else "step ?"
            rules = ", ".join(_ref(r) for r in line["rules"])
            where = f"{step}; rules {rules}" if rules else step
        cards = ", ".join(c["title"] for c in line["cards"])
        click.echo(f"{line['line']:>5}  {line['text']}")
        click.echo(f"       -> {where}" + (f"; cards {cards}" if cards else ""))


def register(group: click.Group) -> None:
    @payload_command(group, "annotate", _annotate_text)
    @click.argument("log")  # a path, checked by read_log (click.Path fails on a NUL byte)
    @click.option(
        "--corp", default=None, help="The Corp player's name, when the log prints names, not sides."
    )
    @click.option("--runner", default=None, help="The Runner player's name, likewise.")
    def annotate_cmd(
        rules: Rules, log: str, version: str | None, corp: str | None, runner: str | None
    ) -> Payload:
        """Link a game log to the rules: for each line (as an online engine prints them: "Corp
        rezzes Tollbooth", "Runner is dealt 2 net damage"), the timing step it happens in, the
        rules it exercises and the cards it names; lines it does not recognise are "unknown".
        LOG is a file, or - for standard input."""
        return payloads.annotate(rules, read_log(log), version, corp, runner)
