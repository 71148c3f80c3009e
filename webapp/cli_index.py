"""`nrrules` commands for search and the rule graph: search, refs, graph, path, most-cited,
card, term, across. Registered on the main group by `webapp.cli` through `register()`.

Every failure is one ``error: ...`` line on stderr: exit status 2 for bad input (unknown
version, nothing built), 1 when the rule asked for does not exist; never a traceback.
"""

from __future__ import annotations

import html
import json
import re
import sys

import click

from rules_index.graph import EDGE_KINDS
from rules_index.mapping import across_versions
from rules_index.store import Library

from .cli_common import EXIT_NOT_FOUND, NotFound, user_errors
from .cli_common import build_dir_option as _build_dir
from .cli_common import json_option as _json
from .cli_common import version_option as _version

_errors = user_errors(extra=(ValueError, KeyError))


def _emit(data) -> None:
    click.echo(json.dumps(data, indent=1, ensure_ascii=False))


def _terminal_snippet(snippet: str) -> str:
    """A <mark>-highlighted HTML snippet as terminal text (bold marks when on a TTY)."""
    parts = re.split(r"(<mark>.*?</mark>)", snippet)
    out = []
    for part in parts:
        if part.startswith("<mark>"):
            out.append(click.style(html.unescape(part[6:-7]), bold=True))
        else:
            out.append(html.unescape(part))
    return "".join(out)


def _resolve(lib: Library, version: str | None, ref: str) -> tuple[str, str]:
    """(version, stable id) of a number, id or deep link; NotFound with suggestions if none."""
    v = lib.resolve_version(version)
    result = lib.lookup(ref, v)
    if result.node is None:
        msg = result.error or f"no rule matches {ref!r}"
        if result.suggestions:
            msg += f"; nearest: {', '.join(result.suggestions)}"
        raise NotFound(msg)
    node = result.node
    doc = lib.document(v)
    while node.kind == "example" and node.parent:
        node = doc.node(node.parent)
    return v, node.id


def _rule_line(item: dict) -> str:
    head = f"{item.get('number') or ''} {item.get('title') or ''}".strip()
    return f"{head}  [{item['id']}]"


def register(group: click.Group) -> None:
    """Add the search and graph commands to the `nrrules` group."""

    @group.command("search")
    @click.argument("query", nargs=-1, required=True)
    @_version
    @click.option("-n", "--limit", default=10, show_default=True, type=click.IntRange(1, 100))
    @_json
    @_build_dir
    @_errors
    def search_cmd(query, version, limit, as_json, build_dir):
        """Search the rules: words, jargon (PAW, ETR), a card name, a number or an id."""
        lib = Library.open(build_dir)
        v = lib.resolve_version(version)
        text = " ".join(query)
        hits = lib.searcher(v).search(text, limit=limit)
        if as_json:
            _emit({"version": v, "query": text, "hits": [h.to_dict() for h in hits]})
            return
        if not hits:
            click.echo(f"no rules match {text!r} in CR {v}", err=True)
            sys.exit(EXIT_NOT_FOUND)
        click.echo(f"CR {v}: {len(hits)} result(s) for {text!r}")
        for hit in hits:
            head = f"{hit.number or ''} {hit.title or ''}".strip()
            click.echo(click.style(head, bold=True) + f"  [{hit.id}]")
            crumbs = " > ".join(f"{b['number']} {b['title'] or ''}".strip() for b in hit.breadcrumb)
            if crumbs:
                click.echo(f"    {crumbs}")
            click.echo(f"    {_terminal_snippet(hit.snippet)}")

    @group.command("refs")
    @click.argument("ref")
    @_version
    @_json
    @_build_dir
    @_errors
    def refs_cmd(ref, version, as_json, build_dir):
        """What a rule cites and what cites it: nrrules refs 6.9.4c"""
        lib = Library.open(build_dir)
        v, node_id = _resolve(lib, version, ref)
        graph = lib.graph(v)
        node = lib.document(v).node(node_id)
        data = {
            "version": v,
            "id": node_id,
            "number": node.number,
            "title": node.title,
            "cites": graph.cites(node_id),
            "cited_by": graph.cited_by(node_id),
        }
        if as_json:
            _emit(data)
            return
        click.echo(f"CR {v}: " + click.style(_rule_line(data), bold=True))
        for key, label in (("cites", "cites"), ("cited_by", "cited by")):
            click.echo(f"{label} ({len(data[key])}):")
            for item in data[key]:
                click.echo(f'  {_rule_line(item)}  "{item["text"]}"')

    @group.command("graph")
    @click.argument("ref")
    @click.option("--k", "-k", default=1, show_default=True, type=click.IntRange(0, 5), help="Hops.")
    @click.option(
        "--kinds",
        default=",".join(EDGE_KINDS),
        show_default=True,
        help="Edge kinds to follow, comma-separated.",
    )
    @_version
    @_json
    @_build_dir
    @_errors
    def graph_cmd(ref, k, kinds, version, as_json, build_dir):
        """A rule's k-hop neighbourhood in the rule graph (JSON nodes and links with --json)."""
        lib = Library.open(build_dir)
        v, node_id = _resolve(lib, version, ref)
        wanted = [x.strip() for x in kinds.split(",") if x.strip()]
        unknown = sorted(set(wanted) - set(EDGE_KINDS))
        if unknown:
            raise ValueError(
                f"unknown edge kind(s) {', '.join(unknown)}; choose from {', '.join(EDGE_KINDS)}"
            )
        hood = lib.graph(v).neighbourhood(node_id, k=k, kinds=wanted)
        if as_json:
            _emit({"version": v, "id": node_id, "k": k, "kinds": wanted, **hood})
            return
        click.echo(
            f"CR {v}: {len(hood['nodes'])} nodes, {len(hood['links'])} links within {k} hop(s) of {node_id}"
        )
        labels = {n["id"]: n["label"] for n in hood["nodes"]}
        for link in hood["links"]:
            click.echo(f"  {labels[link['source']]}  --{link['kind']}-->  {labels[link['target']]}")

    @group.command("path")
    @click.argument("source")
    @click.argument("target")
    @click.option("--cites-only", is_flag=True, help="Follow citations only, not section contents.")
    @_version
    @_json
    @_build_dir
    @_errors
    def path_cmd(source, target, cites_only, version, as_json, build_dir):
        """The shortest citation path from one rule to another."""
        lib = Library.open(build_dir)
        v, a = _resolve(lib, version, source)
        _, b = _resolve(lib, v, target)
        kinds = ("cites",) if cites_only else ("cites", "contains")
        path = lib.graph(v).shortest_path(a, b, kinds=kinds)
        doc = lib.document(v)
        steps = [{"id": i, "number": doc.node(i).number, "title": doc.node(i).title} for i in path or []]
        if as_json:
            _emit({"version": v, "source": a, "target": b, "path": steps if path else None})
            return
        if not path:
            raise NotFound(f"no citation path from {source} to {target} in CR {v}")
        for i, step in enumerate(steps):
            click.echo(("  " * i) + ("-> " if i else "") + _rule_line(step))

    @group.command("most-cited")
    @click.option("-n", "--limit", default=10, show_default=True, type=click.IntRange(1, 500))
    @_version
    @_json
    @_build_dir
    @_errors
    def most_cited_cmd(limit, version, as_json, build_dir):
        """The rules cited by the most other rules."""
        lib = Library.open(build_dir)
        v = lib.resolve_version(version)
        top = lib.graph(v).most_cited(limit)
        if as_json:
            _emit({"version": v, "rules": top})
            return
        for item in top:
            click.echo(f"{item['count']:4d}  {_rule_line(item)}")

    @group.command("card")
    @click.argument("name", nargs=-1, required=True)
    @_version
    @_json
    @_build_dir
    @_errors
    def card_cmd(name, version, as_json, build_dir):
        """Rules (and their examples) that mention a card."""
        lib = Library.open(build_dir)
        v = lib.resolve_version(version)
        text = " ".join(name)
        rules = lib.graph(v).rules_mentioning_card(text)
        if as_json:
            _emit({"version": v, "card": text, "rules": rules})
            return
        if not rules:
            raise NotFound(f"no rule in CR {v} mentions a card named {text!r}")
        for item in rules:
            click.echo(f"{_rule_line(item)}  ({item['card']})")

    @group.command("term")
    @click.argument("term", nargs=-1, required=True)
    @_version
    @_json
    @_build_dir
    @_errors
    def term_cmd(term, version, as_json, build_dir):
        """Rules that define a term, and rules that use it."""
        lib = Library.open(build_dir)
        v = lib.resolve_version(version)
        data = lib.graph(v).rules_for_term(" ".join(term))
        if as_json:
            _emit({"version": v, **data})
            return
        if not data["defines"] and not data["uses"]:
            raise NotFound(f"no rule in CR {v} defines or uses {data['term']!r}")
        for key in ("defines", "uses"):
            click.echo(f"{key} ({len(data[key])}):")
            for item in data[key]:
                click.echo(f"  {_rule_line(item)}")

    @group.command("across")
    @click.argument("ref")
    @_version
    @_json
    @_build_dir
    @_errors
    def across_cmd(ref, version, as_json, build_dir):
        """One rule in every built version, by stable id (REF is read in --version)."""
        lib = Library.open(build_dir)
        _, node_id = _resolve(lib, version, ref)
        rows = across_versions(lib.documents(), node_id)
        if as_json:
            _emit({"id": node_id, "versions": rows})
            return
        click.echo(f"{node_id}:")
        for row in rows:
            if row["present"]:
                text = row["text"] if len(row["text"]) <= 90 else row["text"][:87] + "..."
                click.echo(f"  {row['version']}  {row['number']:<10} {text}")
            else:
                click.echo(f"  {row['version']}  not present")
