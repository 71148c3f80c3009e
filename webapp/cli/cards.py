"""`nrrules card`, `nrrules rulings`, `nrrules card-search` and the cards part of `nrrules build`.

They print the payloads the card pages and the JSON API use (webapp.payloads.cards): ``--json``
prints them as they are. Without a card build, `card` falls back to the rules that mention a
card by name (the CR's own card links), as before card data existed.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from ..errors import NotFound
from ..payloads import cards as payloads
from .common import build_dir_option, emit, json_option, open_rules, user_errors, version_option


def build_cards_cmd(spec: str, build_dir: Path, force: bool) -> None:
    """Build NetrunnerDB card data ('default': NetrunnerDB's public API) beside the rules."""
    from rules_index.cards import build_cards

    c = build_cards(None if spec == "default" else spec, build_dir, force=force)
    note = f"  ({'; '.join(c.notes)})" if c.notes else ""
    click.echo(
        f"cards: {c.status}, {c.cards} cards, {c.printings} printings, {c.rulings} rulings, "
        f"{c.seconds:.2f} s  <- {c.source}{note}"
    )
    for line in card_records_check(build_dir):
        click.echo(line)


def card_records_check(build_dir: Path) -> list[str]:
    """The card build's check of the engine's card records (engine.cardrecords) against the
    card data just built: every unit no record accounts for, every card whose printed text
    changed since its record, every Standard card without one (each is by hand in play)."""
    from engine.cardrecords import check, load
    from rules_index.cards import open_cards

    s = open_cards(build_dir)
    records = load()
    names = {k: v["name"] for k, v in s.table("card_subtypes").items()}
    legality, _ = s.standard()
    problems = check(s.cards(), names, [cid for cid, leg in legality.items() if leg.legal], records)
    head = f"card records: {len(records)} in engine/cards, "
    if not problems:
        return [head + "every unit accounted for"]
    return [
        head + f"{len(problems)} problems (by hand in play until `python -m engine.cardrecords --write` "
        "and a review):",
        *(f"  {p}" for p in problems[:50]),
        *([f"  ... and {len(problems) - 50} more"] if len(problems) > 50 else []),
    ]


def info_line(info: dict[str, Any]) -> str:
    std = info["standard"]
    line = (
        f"cards  {info['cards']} cards, {info['printings']} printings, {info['rulings']} rulings "
        f"from {info['source']}, built {info['built_at']}; Standard: "
        f"{std.get('restriction_name') or std.get('snapshot') or 'unknown'}"
    )
    return line + (f"\n       rebuild needed: {info['problem']}" if info.get("problem") else "")


def _stat_line(p: dict[str, Any]) -> str:
    head = (p["type"] or "") + (": " + " - ".join(p["subtypes"]) if p["subtypes"] else "")
    parts = [head]
    for key, label in (
        ("cost", "cost"),
        ("strength", "strength"),
        ("memory_cost", "memory"),
        ("trash_cost", "trash"),
        ("agenda_points", "agenda points"),
        ("advancement_requirement", "advancement"),
    ):
        if p[key] is not None:
            parts.append(f"{label} {p[key]}")
    return " | ".join([*parts, p["faction"] or ""])


def _ruling_text(r: dict[str, Any]) -> str:
    mark = " (rules team verified)" if r["verified"] else ""
    body = f"Q: {r['question']}\nA: {r['answer']}" if r["question"] else r["text"]
    source = f" {r['source']}" if r["source"] else ""
    return f"[{r['date'] or 'undated'}]{source}{mark}\n{body}"


def register(group: click.Group) -> None:
    fallback = group.commands.get("card")  # rules mentioning a card (webapp.cli.rules)

    @group.command("card")
    @click.argument("name", nargs=-1, required=True)
    @version_option
    @json_option
    @build_dir_option
    @user_errors
    @click.pass_context
    def card_cmd(ctx, name, version, as_json, build_dir):
        """A card: its data, Standard legality, official rulings and the rules that mention it
        (NAME forgives case, accents and punctuation; a NetrunnerDB code or card id works too).
        Without card data built, the rules that mention a card of that name."""
        rules = open_rules(build_dir)
        if not payloads.has_cards(rules) and fallback is not None:
            return ctx.invoke(fallback, name=name, version=version, as_json=as_json, build_dir=build_dir)
        p = payloads.card_named(rules, " ".join(name), version)
        if as_json:
            emit(p)
            return
        if p["showing"]:
            click.echo(f"Showing {p['title']} (you typed {p['showing']['typed']})")
        click.echo(click.style(p["title"], bold=True) + f"  [{p['id']}]")
        click.echo(_stat_line(p))
        std = p["standard"]
        ban_list = std.get("restriction_name") or std.get("restriction")
        since = f", in force since {std['restriction_date']}" if std.get("restriction_date") else ""
        click.echo(
            f"Standard: {'legal' if std['legal'] else 'not legal'} ({std['status']})"
            + (f" — {ban_list}{since}" if ban_list else "")
        )
        if p["text"]:
            click.echo(p["text"])
        e = p["engine"]
        click.echo(f"\nin the stepper: {e['summary']}")
        for u in e["units"]:
            click.echo(f"  - {u['text']}\n      {u['says']}")
        click.echo(f"\nrulings: {len(p['rulings'])}  (nrrules rulings {p['id']})")
        click.echo(f"rules of CR {p['version']} that mention it ({len(p['rules'])}):")
        for r in p["rules"]:
            click.echo(f"  {r['number'] or '':<9} {r['title'] or r['text']}")

    @group.command("rulings")
    @click.argument("name", nargs=-1, required=True)
    @json_option
    @build_dir_option
    @user_errors
    def rulings_cmd(name, as_json, build_dir):
        """Official rulings of a card, newest first."""
        rules = open_rules(build_dir)
        p = payloads.rulings(rules, payloads.find(rules, " ".join(name)))
        if as_json:
            emit(p)
            return
        click.echo(click.style(p["title"], bold=True) + f": {len(p['rulings'])} ruling(s)")
        for r in p["rulings"]:
            click.echo()
            click.echo(_ruling_text(r))

    @group.command("card-coverage")
    @click.option("--all", "every_card", is_flag=True, help="every card of the data set, not only Standard")
    @click.option("--list", "show_list", is_flag=True, help="list every unit not modeled")
    @json_option
    @build_dir_option
    @user_errors
    def card_coverage_cmd(every_card, show_list, as_json, build_dir):
        """How much of the card pool's printed text the engine models: per card type, cards fully
        modeled and units (one subroutine or printed paragraph each) modeled, by hand (surfaced
        where they apply), shown on the card, or not applicable (deck-building)."""
        from ..payloads import card_engine

        p = card_engine.coverage(open_rules(build_dir), standard_only=not every_card)
        if as_json:
            emit(p)
            return

        def row(name: str, c: dict) -> str:
            return (
                f"{name:<16} {c['cards']:>5} {c['fully_modeled']:>6} {c['units']:>6} {c['modeled']:>8} "
                f"{c['by_hand']:>8} {c['shown']:>6} {c['n/a']:>5} {c['absent']:>6}  {c['modeled_share']:>7.1%}"
            )

        click.echo(f"{p['pool']} pool: what the engine does with each unit of card text")
        click.echo(
            f"{'type':<16} {'cards':>5} {'full':>6} {'units':>6} {'modeled':>8} {'by hand':>8} {'shown':>6} {'n/a':>5} {'absent':>6}  {'modeled':>7}"
        )
        for name, c in p["by_type"].items():
            click.echo(row(name, c))
        click.echo(row("all", p["total"]))
        if show_list:
            for u in p["not_modeled"]:
                click.echo(f"{u['title']}: {u['text']}\n    {u['says']}")

    @group.command("card-search")
    @click.argument("query", nargs=-1, required=True)
    @click.option(
        "--source",
        "sources",
        multiple=True,
        type=click.Choice(payloads.SOURCES),
        help="cards, rulings (default both)",
    )
    @click.option("-n", "--limit", default=10, show_default=True, type=click.IntRange(1, payloads.MAX_LIMIT))
    @json_option
    @build_dir_option
    @user_errors
    def card_search_cmd(query, sources, limit, as_json, build_dir):
        """Search card names and text, and rulings by their question and answer."""
        data = payloads.card_search(
            open_rules(build_dir), " ".join(query), tuple(sources) or payloads.SOURCES, limit
        )
        if as_json:
            emit(data)
            return
        if not data["results"]:
            raise NotFound(f"no card or ruling matches {data['query']!r}")
        for h in data["results"]:
            where = f"{h['title']} (ruling {h['ruling']})" if h["source"] == "rulings" else h["title"]
            click.echo(f"{h['source']:<8} {where}  [{h['id']}]")
            click.echo(f"         {h['snippet']}")
