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


def _print_hits(hits: list[dict]) -> None:
    for hit in hits:
        label = "" if hit["source"] == "rules" else f"[{hit['source']}] "
        head = f"{label}{hit['number'] or ''} {hit['title'] or ''}".strip()
        click.echo(click.style(head, bold=True) + f"  [{hit['id']}]")
        crumbs = " > ".join(f"{b['number'] or ''} {b['title'] or ''}".strip() for b in hit["breadcrumb"])
        if crumbs:
            click.echo(f"    {crumbs}")
        click.echo(f"    {terminal_snippet(hit['snippet'])}")
        if hit.get("answer"):
            click.echo(f"    A: {hit['answer']}")
        if hit.get("note"):
            click.echo(f"    ({hit['note']})")


def _search_text(data: Payload) -> None:
    hits, v, text = data["results"], data["version"], data["query"]
    for u in data.get("unavailable", ()):
        click.echo(f"not searched: the {u['source']} ({u['problem']})", err=True)
    if data["changes"]:
        c = data["changes"]
        click.echo(f"What changed from CR {c['from']} to CR {c['to']}: nrrules changes {c['from']} {c['to']}")
    if data["showing"]:
        click.echo(f"Showing {data['showing']['title']} (you typed {data['showing']['typed']})")
    elif data["searched"] != text:
        click.echo(f"A long question: searched for {data['searched']!r}")
    if hits:
        click.echo(f"CR {v}: {len(hits)} result(s) for {text!r}")
        _print_hits(hits)
        return
    offers = []
    if data["nearest"]:
        offers.append("nearest rules: " + ", ".join(n["number"] or n["id"] for n in data["nearest"]))
    for item in data["spelling"]:
        offers.append(f"{item['word']!r}: did you mean " + " / ".join(item["suggestions"]) + "?")
    if data["did_you_mean"] and len(data["spelling"]) > 1:
        offers.append(f"did you mean {data['did_you_mean']!r}?")
    if not offers and not data["looser"]:
        names = [{"judge": "judge items"}.get(s, s) for s in data["sources"]]
        raise NotFound(f"no {' or '.join(names)} match {text!r} (CR {v})")
    click.echo(f"CR {v}: nothing matches {text!r}")
    for line in offers:
        click.echo(f"  {line}")
    if data["looser"]:
        click.echo("Closest matches:")
        _print_hits(data["looser"])


def register(group: click.Group) -> None:
    @payload_command(group, "search", _search_text)
    @click.argument("query", nargs=-1, required=True)
    @click.option("-n", "--limit", default=10, show_default=True, type=click.IntRange(1, payloads.MAX_LIMIT))
    @click.option(
        "-s",
        "--source",
        "sources",
        multiple=True,
        help=f"search only these sources ({', '.join(payloads.SOURCES)}; repeatable; default: all built)",
    )
    def search_cmd(
        rules: Rules, query: tuple[str, ...], version: str | None, limit: int, sources: tuple[str, ...]
    ) -> Payload:
        """Search rules, cards, rulings and judges' documents: words, jargon (PAW, ETR), a card
        name, a number or an id. When nothing matches, shows the nearest rule numbers, spelling
        suggestions and the hits of a looser search."""
        return payloads.search(rules, " ".join(query), version, limit, sources)
