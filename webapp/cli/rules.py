"""`nrrules` commands for rules and the rule graph: versions, rule, refs, graph, across, path,
most-cited, card, term. `--json` prints the payload the matching API GET returns."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from ..errors import NotFound
from ..payloads import rules as payloads
from .common import build_dir_option, emit, json_option, open_rules, user_errors, version_option


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


def register(group: click.Group) -> None:
    """Add the rule and graph commands to the `nrrules` group."""

    @group.command("versions")
    @json_option
    @build_dir_option
    @user_errors
    def versions_cmd(as_json: bool, build_dir: Path | None) -> None:
        """List the CR versions that are built."""
        data = payloads.versions(open_rules(build_dir))
        if as_json:
            emit(data)
            return
        for i in data["versions"]:
            latest = "  (latest)" if i["version"] == data["latest"] else ""
            click.echo(
                f"{i['version']}  effective {i['effective_date'] or 'not stated':<12} "
                f"{i['node_count']:5d} nodes{latest}"
            )
        from ..payloads.cards import cards_info
        from .cards import info_line

        info = cards_info(open_rules(build_dir))
        if info:
            click.echo(info_line(info))

    @group.command("rule")
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
        rules = open_rules(build_dir)
        text = " ".join(query)
        found = rules.find(text, version)
        data = payloads.rule(rules, found, descendants=children or text.rstrip().endswith("+"))
        if as_json:
            emit(data)
            return
        chain = " > ".join(f"{a['number']} {a['title'] or ''}".strip() for a in data["breadcrumb"])
        click.echo(f"CR {data['version']}" + (f"  |  {chain}" if chain else ""))
        _print_rule(data)
        for item in data.get("descendants", []):
            if item["kind"] != "example":
                click.echo()
                _print_rule(item)

    @group.command("refs")
    @click.argument("ref")
    @version_option
    @json_option
    @build_dir_option
    @user_errors
    def refs_cmd(ref: str, version: str | None, as_json: bool, build_dir: Path | None) -> None:
        """What a rule cites and what cites it: nrrules refs 6.9.4c"""
        rules = open_rules(build_dir)
        data = payloads.refs(rules, rules.find(ref, version))
        if as_json:
            emit(data)
            return
        click.echo(f"CR {data['version']}: " + click.style(rule_line(data), bold=True))
        for key, label in (("cites", "cites"), ("cited_by", "cited by")):
            click.echo(f"{label} ({len(data[key])}):")
            for item in data[key]:
                click.echo(f'  {rule_line(item)}  "{item["text"]}"')

    @group.command("graph")
    @click.argument("ref")
    @click.option(
        "--k", "-k", default=1, show_default=True, type=click.IntRange(1, payloads.MAX_K), help="Hops."
    )
    @click.option("--kinds", default=None, help="Edge kinds to follow, comma-separated (default all).")
    @version_option
    @json_option
    @build_dir_option
    @user_errors
    def graph_cmd(
        ref: str, k: int, kinds: str | None, version: str | None, as_json: bool, build_dir: Path | None
    ) -> None:
        """A rule's k-hop neighbourhood in the rule graph (JSON nodes and links with --json)."""
        rules = open_rules(build_dir)
        found = rules.find(ref, version)
        data = payloads.graph(rules, found, k=k, kinds=payloads.edge_kinds(kinds))
        if as_json:
            emit(data)
            return
        click.echo(
            f"CR {data['version']}: {len(data['nodes'])} nodes, {len(data['links'])} links "
            f"within {k} hop(s) of {data['id']}"
        )
        labels = {n["id"]: n["label"] for n in data["nodes"]}
        for link in data["links"]:
            click.echo(f"  {labels[link['source']]}  --{link['kind']}-->  {labels[link['target']]}")

    @group.command("across")
    @click.argument("ref")
    @version_option
    @json_option
    @build_dir_option
    @user_errors
    def across_cmd(ref: str, version: str | None, as_json: bool, build_dir: Path | None) -> None:
        """One rule in every built version, by stable id (REF is read in --version)."""
        rules = open_rules(build_dir)
        data = payloads.across(rules, rules.find_rule(ref, version))
        if as_json:
            emit(data)
            return
        click.echo(f"{data['id']}:")
        for row in data["versions"]:
            if row["present"]:
                text = row["text"] if len(row["text"]) <= 90 else row["text"][:87] + "..."
                click.echo(f"  {row['version']}  {row['number'] or '':<10} {text}")
            else:
                click.echo(f"  {row['version']}  not present")

    @group.command("path")
    @click.argument("source")
    @click.argument("target")
    @click.option("--cites-only", is_flag=True, help="Follow citations only, not section contents.")
    @version_option
    @json_option
    @build_dir_option
    @user_errors
    def path_cmd(
        source: str, target: str, cites_only: bool, version: str | None, as_json: bool, build_dir: Path | None
    ) -> None:
        """The shortest citation path from one rule to another."""
        rules = open_rules(build_dir)
        a = rules.find_rule(source, version)
        b = rules.find_rule(target, a.version)
        data = payloads.path(rules, a, b, cites_only=cites_only)
        if as_json:
            emit(data)
            return
        if data["path"] is None:
            raise NotFound(f"no citation path from {source} to {target} in CR {a.version}")
        for i, step in enumerate(data["path"]):
            click.echo(("  " * i) + ("-> " if i else "") + rule_line(step))

    @group.command("most-cited")
    @click.option("-n", "--limit", default=10, show_default=True, type=click.IntRange(1, 500))
    @version_option
    @json_option
    @build_dir_option
    @user_errors
    def most_cited_cmd(limit: int, version: str | None, as_json: bool, build_dir: Path | None) -> None:
        """The rules cited by the most other rules."""
        data = payloads.most_cited(open_rules(build_dir), version, limit)
        if as_json:
            emit(data)
            return
        for item in data["rules"]:
            click.echo(f"{item['count']:4d}  {rule_line(item)}")

    @group.command("card")
    @click.argument("name", nargs=-1, required=True)
    @version_option
    @json_option
    @build_dir_option
    @user_errors
    def card_cmd(name: tuple[str, ...], version: str | None, as_json: bool, build_dir: Path | None) -> None:
        """Rules (and their examples) that mention a card."""
        data = payloads.card_rules(open_rules(build_dir), version, " ".join(name))
        if as_json:
            emit(data)
            return
        if not data["rules"]:
            raise NotFound(f"no rule in CR {data['version']} mentions a card named {data['card']!r}")
        for item in data["rules"]:
            click.echo(f"{rule_line(item)}  ({item['card']})")

    @group.command("term")
    @click.argument("term", nargs=-1, required=True)
    @version_option
    @json_option
    @build_dir_option
    @user_errors
    def term_cmd(term: tuple[str, ...], version: str | None, as_json: bool, build_dir: Path | None) -> None:
        """Rules that define a term, and rules that use it."""
        data = payloads.term_rules(open_rules(build_dir), version, " ".join(term))
        if as_json:
            emit(data)
            return
        if not data["defines"] and not data["uses"]:
            raise NotFound(f"no rule in CR {data['version']} defines or uses {data['term']!r}")
        for key in ("defines", "uses"):
            click.echo(f"{key} ({len(data[key])}):")
            for item in data[key]:
                click.echo(f"  {rule_line(item)}")
