"""`nrrules` commands for rules and the rule graph: versions, rule, refs, graph, across, path,
most-cited, card, term. `--json` prints the payload the matching API GET returns."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import click

from ..errors import NotFound
from ..payloads import Found, Rules
from ..payloads import rules as payloads
from ..payloads.cards import cards_info
from .cards import info_line
from .common import Payload, build_dir_option, emit, json_option, open_rules, payload_command, user_errors


def rule_line(item: dict[str, Any]) -> str:
    head = f"{item.get('number') or ''} {item.get('title') or ''}".strip()
    return f"{head}  [{item['id']}]"


def _print_rule(item: dict[str, Any], indent: str = "") -> None:
    click.echo(
        indent
        + click.style(f"{item['number'] or ''} {item['title'] or ''}".strip(), bold=True)
        + f"  [{item['id']}]"
    )
    if item["text"]:
        click.echo(indent + item["text"])
    for ex in item["examples"]:
        click.echo(f"{indent}    {ex['text']}")


def _versions_text(data: Payload) -> None:
    for i in data["versions"]:
        latest = "  (latest)" if i["version"] == data["latest"] else ""
        click.echo(
            f"{i['version']}  effective {i['effective_date'] or 'not stated':<12} "
            f"{i['node_count']:5d} nodes{latest}"
        )


def _rule_text(data: Payload) -> None:
    chain = " > ".join(f"{a['number']} {a['title'] or ''}".strip() for a in data["breadcrumb"])
    click.echo(f"CR {data['version']}" + (f"  |  {chain}" if chain else ""))
    _print_rule(data)
    for item in data.get("descendants", []):
        if item["kind"] != "example":
            click.echo()
            _print_rule(item)


def _refs_text(data: Payload) -> None:
    click.echo(f"CR {data['version']}: " + click.style(rule_line(data), bold=True))
    for key, label in (("cites", "cites"), ("cited_by", "cited by")):
        click.echo(f"{label} ({len(data[key])}):")
        for item in data[key]:
            click.echo(f'  {rule_line(item)}  "{item["text"]}"')


def _graph_text(data: Payload) -> None:
    click.echo(
        f"CR {data['version']}: {len(data['nodes'])} nodes, {len(data['links'])} links "
        f"within {data['k']} hop(s) of {data['id']}"
    )
    labels = {n["id"]: n["label"] for n in data["nodes"]}
    for link in data["links"]:
        click.echo(f"  {labels[link['source']]}  --{link['kind']}-->  {labels[link['target']]}")


def _across_text(data: Payload) -> None:
    click.echo(f"{data['id']}:")
    for row in data["versions"]:
        if row["present"]:
            text = row["text"] if len(row["text"]) <= 90 else row["text"][:87] + "..."
            click.echo(f"  {row['version']}  {row['number'] or '':<10} {text}")
        else:
            click.echo(f"  {row['version']}  not present")


def _path_text(data: Payload) -> None:
    if data["path"] is None:
        raise NotFound(f"no citation path from {data['source']} to {data['target']} in CR {data['version']}")
    for i, step in enumerate(data["path"]):
        click.echo(("  " * i) + ("-> " if i else "") + rule_line(step))


def _most_cited_text(data: Payload) -> None:
    for item in data["rules"]:
        click.echo(f"{item['count']:4d}  {rule_line(item)}")


def _card_text(data: Payload) -> None:
    if not data["rules"]:
        raise NotFound(f"no rule in CR {data['version']} mentions a card named {data['card']!r}")
    for item in data["rules"]:
        click.echo(f"{rule_line(item)}  ({item['card']})")


def _term_text(data: Payload) -> None:
    for key in ("defines", "uses"):
        click.echo(f"{key} ({len(data[key])}):")
        for item in data[key]:
            click.echo(f"  {rule_line(item)}")


# Commands that answer about one rule, REF read in --version, as GET /api/rules/<ref>/<what> does:
# (command, text renderer, payload builder, help).
ONE_RULE_COMMANDS: tuple[
    tuple[str, Callable[[Payload], None], Callable[[Rules, Found], Payload], str], ...
] = (
    ("refs", _refs_text, payloads.refs, "What a rule cites and what cites it: nrrules refs 6.9.4c"),
    (
        "across",
        _across_text,
        payloads.across,
        "One rule in every built version, by stable id (REF is read in --version).",
    ),
)


def _one_rule_command(
    group: click.Group,
    name: str,
    text: Callable[[Payload], None],
    build: Callable[[Rules, Found], Payload],
    summary: str,
) -> None:
    def command(rules: Rules, ref: str, version: str | None) -> Payload:
        return build(rules, rules.find(ref, version))

    command.__doc__ = summary
    command.__name__ = f"{name}_cmd"
    payload_command(group, name, text)(click.argument("ref")(command))


def register(group: click.Group) -> None:
    """Add the rule and graph commands to the `nrrules` group."""

    @group.command("versions")
    @json_option
    @build_dir_option
    @user_errors
    def versions_cmd(as_json: bool, build_dir: Path | None) -> None:
        """List the CR versions that are built (and the card data, if built)."""
        rules = open_rules(build_dir)
        data = payloads.versions(rules)
        if as_json:
            emit(data)
            return
        _versions_text(data)
        info = cards_info(rules)
        if info:
            click.echo(info_line(info))

    @payload_command(group, "rule", _rule_text)
    @click.argument("query", nargs=-1, required=True)
    @click.option("--children", "-c", is_flag=True, help="Include all sub-rules (same as writing 6.9.4+).")
    def rule_cmd(rules: Rules, query: tuple[str, ...], version: str | None, children: bool) -> Payload:
        """Print a rule by number or stable id: 6.9.4c, "rule 1.2.1", step_jack_out_choice, 6.9+"""
        text = " ".join(query)
        found = rules.find(text, version)
        return payloads.rule(rules, found, descendants=children or text.rstrip().endswith("+"))

    for name, text, build, summary in ONE_RULE_COMMANDS:
        _one_rule_command(group, name, text, build, summary)

    @payload_command(group, "graph", _graph_text)
    @click.argument("ref")
    @click.option(
        "--k", "-k", default=1, show_default=True, type=click.IntRange(1, payloads.MAX_K), help="Hops."
    )
    @click.option("--kinds", default=None, help="Edge kinds to follow, comma-separated (default all).")
    def graph_cmd(rules: Rules, ref: str, k: int, kinds: str | None, version: str | None) -> Payload:
        """A rule's k-hop neighbourhood in the rule graph (JSON nodes and links with --json)."""
        return payloads.graph(rules, rules.find(ref, version), k=k, kinds=payloads.edge_kinds(kinds))

    @payload_command(group, "path", _path_text)
    @click.argument("source")
    @click.argument("target")
    @click.option("--cites-only", is_flag=True, help="Follow citations only, not section contents.")
    def path_cmd(rules: Rules, source: str, target: str, cites_only: bool, version: str | None) -> Payload:
        """The shortest citation path from one rule to another."""
        a = rules.find_rule(source, version)
        return payloads.path(rules, a, rules.find_rule(target, a.version), cites_only=cites_only)

    @payload_command(group, "most-cited", _most_cited_text)
    @click.option("-n", "--limit", default=10, show_default=True, type=click.IntRange(1, 500))
    def most_cited_cmd(rules: Rules, limit: int, version: str | None) -> Payload:
        """The rules cited by the most other rules."""
        return payloads.most_cited(rules, version, limit)

    @payload_command(group, "card", _card_text)
    @click.argument("name", nargs=-1, required=True)
    def card_cmd(rules: Rules, name: tuple[str, ...], version: str | None) -> Payload:
        """Rules (and their examples) that mention a card."""
        return payloads.card_rules(rules, version, " ".join(name))

    @payload_command(group, "term", _term_text)
    @click.argument("term", nargs=-1, required=True)
    def term_cmd(rules: Rules, term: tuple[str, ...], version: str | None) -> Payload:
        """Rules that define a term, and rules that use it."""
        return payloads.term_rules(rules, version, " ".join(term))
