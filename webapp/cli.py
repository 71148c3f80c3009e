"""`nrrules`: the command-line face of the same functions the web app serves.

Every user-facing failure becomes one `error: ...` line on stderr and exit status 2 (bad
input) or 1 (nothing found); no traceback reaches the user.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from rules_index.store import Library, build, default_build_dir

from .cli_common import (
    EXIT_NOT_FOUND,
    build_dir_option,
    fail,
    json_option,
    user_errors,
    version_option,
)


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
def main() -> None:
    """Netrunner Comprehensive Rules: build, look up, search, and step timing structures."""


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
@build_dir_option
@user_errors
def build_cmd(source: str | None, version: str | None, force: bool, build_dir: Path | None) -> None:
    """Scrape CR documents into structured rules, a rule graph and a search index."""
    results = build(source, build_dir, version=version, progress=sys.stderr.isatty(), force=force)
    for r in results:
        note = f"  ({r.note})" if r.note else ""
        click.echo(f"{r.version}: {r.status}, {r.node_count} nodes, {r.seconds:.2f} s  <- {r.source}{note}")
    click.echo(f"build directory: {build_dir or default_build_dir()}")


@main.command("versions")
@json_option
@build_dir_option
@user_errors
def versions_cmd(as_json: bool, build_dir: Path | None) -> None:
    """List the CR versions that are built."""
    lib = Library.open(build_dir)
    infos = lib.versions()
    if as_json:
        click.echo(json.dumps([i.to_dict() for i in infos], indent=1))
        return
    for i in infos:
        latest = "  (latest)" if i.version == lib.latest else ""
        click.echo(
            f"{i.version}  effective {i.effective_date or 'not stated':<12} {i.node_count:5d} nodes{latest}"
        )


def node_payload(lib: Library, version: str, node_id: str) -> dict:
    doc = lib.document(version)
    node = doc.node(node_id)
    assert node is not None
    return {
        "version": doc.version,
        "id": node.id,
        "number": node.number,
        "kind": node.kind,
        "title": node.title,
        "text": node.text,
        "examples": [doc.node(e).text for e in node.examples if doc.node(e)],
        "parents": [{"id": a.id, "number": a.number, "title": a.title} for a in doc.ancestors(node.id)],
    }


@main.command("rule")
@click.argument("query", nargs=-1, required=True)
@version_option
@click.option("--children", "-c", is_flag=True, help="Include all sub-rules (same as writing 6.9.4+).")
@json_option
@build_dir_option
@user_errors
def rule_cmd(
    query: tuple[str, ...], version: str | None, children: bool, as_json: bool, build_dir: Path | None
) -> None:
    """Print a rule by number or stable id: 6.9.4c, "rule 1.2.1", step_jack_out_choice, 6.9+"""
    lib = Library.open(build_dir)
    text = " ".join(query)
    result = lib.lookup(text, version, with_children=children)
    if not result.nodes:
        msg = result.error or f"no rule matches {text!r}"
        if result.suggestions:
            msg += f"; nearest: {', '.join(result.suggestions)}"
        fail(msg, EXIT_NOT_FOUND)
    v = lib.resolve_version(version)
    payloads = [node_payload(lib, v, n.id) for n in result.nodes if n.kind != "example"]
    if as_json:
        click.echo(json.dumps(payloads if len(payloads) > 1 else payloads[0], indent=1, ensure_ascii=False))
        return
    first = True
    for p in payloads:
        if first:
            chain = " > ".join(f"{a['number']} {a['title'] or ''}".strip() for a in p["parents"])
            click.echo(f"CR {p['version']}" + (f"  |  {chain}" if chain else ""))
            first = False
        head = f"{p['number']} {p['title'] or ''}".strip()
        click.echo(click.style(head, bold=True) + f"  [{p['id']}]")
        if p["text"]:
            click.echo(p["text"])
        for ex in p["examples"]:
            click.echo(f"    {ex}")
        click.echo()


def _register_extensions() -> None:
    """Commands owned by the other packages' CLI modules."""
    from . import cli_engine, cli_export, cli_index, cli_web

    for module in (cli_index, cli_engine, cli_web, cli_export):
        module.register(main)


_register_extensions()
