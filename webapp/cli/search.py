"""`nrrules search`: the search box on the command line (`--json`: the /api/search answer)."""

from __future__ import annotations

import html
import re

import click

from ..errors import NotFound
from ..payloads import Rules
from ..payloads import search as payloads
from .common import Payload, payload_command


def terminal_snippet(snippet: str) -> str:
    """A <mark>-highlighted HTML snippet as terminal text (bold marks when on a TTY)."""
    out = []
    for part in re.split(r"(<mark>.*?</mark>)", snippet):
        if part.startswith("<mark>"):
            out.append(click.style(html.unescape(part[6:-7]), bold=True))
        else:
            out.append(html.unescape(part))
    return "".join(out)


def _search_text(data: Payload) -> None:
    hits, v, text = data["results"], data["version"], data["query"]
    if not hits:
        raise NotFound(f"no rules match {text!r} in CR {v}")
    click.echo(f"CR {v}: {len(hits)} result(s) for {text!r}")
    for hit in hits:
        head = f"{hit['number'] or ''} {hit['title'] or ''}".strip()
        click.echo(click.style(head, bold=True) + f"  [{hit['id']}]")
        crumbs = " > ".join(f"{b['number']} {b['title'] or ''}".strip() for b in hit["breadcrumb"])
        if crumbs:
            click.echo(f"    {crumbs}")
        click.echo(f"    {terminal_snippet(hit['snippet'])}")


def register(group: click.Group) -> None:
    @payload_command(group, "search", _search_text)
    @click.argument("query", nargs=-1, required=True)
    @click.option("-n", "--limit", default=10, show_default=True, type=click.IntRange(1, payloads.MAX_LIMIT))
    def search_cmd(rules: Rules, query: tuple[str, ...], version: str | None, limit: int) -> Payload:
        """Search the rules: words, jargon (PAW, ETR), a card name, a number or an id."""
        return payloads.search(rules, " ".join(query), version, limit)
