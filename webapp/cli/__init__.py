"""`nrrules`: the command-line face of the payloads the web app serves.

One module per capability registers its commands on `main`: rules.py (versions, rule, refs,
graph, across, path, most-cited, card, term), cards.py (card, rulings, card-search), search.py, engine.py (structures, step,
engine-coverage), serve.py and export.py (the static site). A command's ``--json`` prints the payload the matching API GET
returns (webapp.payloads); without it the same payload is formatted as text.

Every user-facing failure becomes one `error: ...` line on stderr and exit status 2 (bad
input) or 1 (nothing found); see common.py.
"""

from __future__ import annotations

import sys
from pathlib import Path

import click

from rules_index.store import build, default_build_dir, phase_line, refresh_questions

from . import cards, engine, export, history, rules, search, serve
from . import discord as discord_cli
from . import gamelog as gamelog_cli
from . import mcp as mcp_cli
from .common import CommandGroup, build_dir_option, user_errors


@click.group(cls=CommandGroup, context_settings={"help_option_names": ["-h", "--help"]})
def main() -> None:
    """Netrunner Comprehensive Rules: build, look up, search, and step timing structures.

    Exit status: 0 when done, 1 when nothing matches (as grep), 2 for bad input or any other
    error; a failure prints one `error:` line on stderr."""


@main.command("build")
@click.option(
    "--source",
    "-s",
    default=None,
    help="A CR HTML file, a folder of them, or a URL (default: the official site).",
)
@click.option(
    "--version", "version", default=None, help="Version of a file that does not state it (22.12, 23.08)."
)
@click.option("--force", is_flag=True, help="Rebuild even if the source has not changed.")
@click.option(
    "--judge",
    "judge",
    default=None,
    help="A judges' document (word-processor HTML export), a folder of them, or a URL. "
    "Alone, only the judges' documents are built.",
)
@click.option(
    "--cards",
    "cards_source",
    default=None,
    help="NetrunnerDB cards and rulings: a v2 folder or an API URL ('default': NetrunnerDB's API). "
    "Alone, only the card data is built.",
)
@build_dir_option
@user_errors
def build_cmd(
    source: str | None,
    version: str | None,
    force: bool,
    build_dir: Path | None,
    judge: str | None = None,
    cards_source: str | None = None,
) -> None:
    """Scrape CR documents into structured rules, a rule graph and a search index."""
    from rules_index.cards import stale_build

    results = []
    if source or not (judge or cards_source):
        results = build(source, build_dir, version=version, progress=sys.stderr.isatty(), force=force)
    if judge:
        history.build_judge_cmd(judge, build_dir or default_build_dir(), force)
    if cards_source:
        cards.build_cards_cmd(cards_source, build_dir or default_build_dir(), force)
    if judge or cards_source:
        # Their questions citing rules expand the rules index (`rules_index.expansion`).
        click.echo("re-indexing the built versions with their questions ...", err=True)

        def reindexed(v: str, phases: dict[str, float]) -> None:
            if sys.stderr.isatty():
                click.echo("\r\033[K", nl=False, err=True)
            click.echo(
                f"{v}: re-indexed with the questions of the card and judges' builds, "
                f"{sum(phases.values()):.2f} s ({phase_line(phases)})"
            )

        def phase(v: str, name: str) -> None:
            if sys.stderr.isatty():  # the phase a version is in, on one line
                click.echo(f"\r\033[K{v}: {name} ...", nl=False, err=True)

        done = refresh_questions(build_dir or default_build_dir(), progress=reindexed, on_phase=phase)
        if sys.stderr.isatty():
            click.echo("\r\033[K", nl=False, err=True)
        if not done:
            click.echo("re-indexing: no version's index changes", err=True)
    for r in results:
        note = f"  ({r.note})" if r.note else ""
        click.echo(f"{r.version}: {r.status}, {r.node_count} nodes, {r.seconds:.2f} s  <- {r.source}{note}")
        if r.phases:
            click.echo(f"    {phase_line(r.phases)}")
    if results:
        from rules_index import embeddings  # numpy: only for the build's status line

        click.echo(embeddings.status())
    if not cards_source and (problem := stale_build(build_dir or default_build_dir())):
        click.echo(f"cards: rebuild needed: {problem}")
    click.echo(f"build directory: {build_dir or default_build_dir()}")


for _module in (rules, cards, search, engine, serve, export, history):
    _module.register(main)
gamelog_cli.register(main)
discord_cli.register(main)
mcp_cli.register(main)
