"""`nrrules history`, `nrrules changes`, `nrrules judge` and the judges' part of `nrrules build`.

They print the payloads the pages and the JSON API use (webapp.payloads.judge): ``--json``
prints them as they are. Failures are one ``error:`` line (exit 2 for bad input, 1 for a rule
or item that does not exist).
"""

from __future__ import annotations

import html
import re
from pathlib import Path

import click

from rules_index.store import Library, LibraryError

from ..errors import NotFound
from ..payloads import Rules
from ..payloads import judge as payloads
from .common import (
    Payload,
    build_dir_option,
    emit,
    fail,
    json_option,
    open_rules,
    payload_command,
    user_errors,
)


def _diff_text(ops) -> str:
    """A word diff for a terminal: [-removed-]{+added+}."""
    out = []
    for op, text in ops:
        if op == "=":
            out.append(text)
        elif op == "-":
            out.append(click.style(f"[-{text.rstrip()}-]", fg="red") + text[len(text.rstrip()) :])
        else:
            out.append(click.style(f"{{+{text.rstrip()}+}}", fg="green") + text[len(text.rstrip()) :])
    return "".join(out)


def build_judge_cmd(source: str, build_dir: Path, force: bool) -> None:
    """Build judges' documents; card names come from the built CR and card data, if any."""
    from rules_index.judge import build_judge  # the judges' documents' parser (bs4): a build only

    names: set[str] = set()
    try:
        lib = Library.open(build_dir)
        names |= {c.name for n in lib.document().nodes for c in n.cards}
        try:
            names |= {c.title for c in lib.cards().cards()}
        except (LibraryError, AttributeError):
            pass
    except LibraryError:
        pass
    r = build_judge(source, build_dir, names, force=force)
    click.echo(
        f"judge: {r.status}, {r.documents} document(s), {r.items} items, {r.seconds:.2f} s  <- {', '.join(r.sources)}"
    )


def _history_text(data: Payload) -> None:
    click.echo(data["id"])
    for v in data["versions"]:
        click.echo(f"  CR {v['version']}: {v['number'] if v['present'] else 'absent'}")
    changed = [c for c in data["changes"] if c["reworded"] or c["renumbered"]]
    if not changed:
        click.echo("  unchanged in every version it exists in")
    for c in changed:
        head = f"{c['from']} -> {c['to']}"
        if c["renumbered"]:
            head += f": renumbered {c['old_number']} -> {c['new_number']}"
        click.echo(head)
        if c["diff"]:
            click.echo("  " + _diff_text(c["diff"]))


def _changes_text(data: Payload) -> None:
    n = data["counts"]
    click.echo(
        f"CR {data['from']} -> {data['to']}: {n['added']} added, {n['removed']} removed, "
        f"{n['renumbered']} renumbered, {n['reworded']} reworded"
    )
    st = data["summary_stats"]
    click.echo(
        f"Summary of Changes: {st['confirmed']} of {st['entries']} entries name a rule found changed; "
        f"{st['unmentioned']} differences not in the summary ({st['unmentioned_numbers_only']} only numbers)"
    )
    for sec in data["sections"]:
        click.echo(f"\n{sec['number'] or ''} {sec['title'] or ''}".rstrip())
        for r in sec["rules"]:
            num = r["number"] or r.get("old_number") or ""
            extra = f" (was {r['old_number']})" if "renumbered" in r["change"] else ""
            click.echo(f"  {num} {', '.join(r['change'])}{extra}  [{r['id']}]")
            if r.get("diff"):
                click.echo("    " + _diff_text(r["diff"]).replace("\n", "\n    "))


def register(group: click.Group) -> None:
    @payload_command(group, "history", _history_text)
    @click.argument("ref")
    def history_cmd(rules: Rules, ref: str, version: str | None) -> Payload:
        """A rule's versions, its number in each and what changed (e.g. 6.1.5, step_jack_out_choice)."""
        return payloads.rule_history(rules, ref, version)

    @payload_command(group, "changes", _changes_text, version=False)
    @click.argument("old")
    @click.argument("new")
    def changes_cmd(rules: Rules, old: str, new: str) -> Payload:
        """What changed between two CR versions, beside the newer one's Summary of Changes."""
        return payloads.changes(rules, old, new)

    @group.command("judge")
    @click.argument("query", nargs=-1, required=True)
    @click.option("-n", "--limit", default=5, show_default=True, type=click.IntRange(1, 50))
    @json_option
    @build_dir_option
    @user_errors
    def judge_cmd(query, limit, as_json, build_dir):
        """Search the judges' documents, or show one item by its id."""
        rules = open_rules(build_dir)
        text = " ".join(query)
        store = rules.library.judge()
        if store is None:
            fail("no judges' document is built: run `nrrules build --judge FILE|DIR|URL`")
        if store.item(text) is not None:
            data = payloads.judge_item(rules, text)
            if as_json:
                emit(data)
            else:
                click.echo(f"{data['title']}  [{data['id']}]")
                click.echo(data["text"])
            return
        hits = payloads.judge_search(rules, text, limit)
        if as_json:
            emit({"query": text, "source": "judge", "results": hits})
            return
        if not hits:
            raise NotFound(f"no judge items match {text!r}")
        for h in hits:
            click.echo(f"{h['title']}  [{h['id']}]")
            click.echo("  " + html.unescape(re.sub(r"</?mark>", "", h["snippet"])))
