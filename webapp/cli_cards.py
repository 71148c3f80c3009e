"""`nrrules card NAME` and `nrrules rulings NAME`: the card data built by `nrrules build --cards`,
printed from the same payloads the card page and `/api/cards/<id>` serve.

Without a card build, `card` falls back to the rules that mention a card by name (the CR's own
card links), as before."""

from __future__ import annotations

import json

import click

from rules_index.store import Library, LibraryError

from .cards_payload import CardNotFound, card_payload, find_card, rulings_payload
from .cli_common import NotFound, user_errors
from .cli_common import build_dir_option as _build_dir
from .cli_common import json_option as _json
from .cli_common import version_option as _version

_errors = user_errors(extra=(ValueError,))


def _emit(data) -> None:
    click.echo(json.dumps(data, indent=1, ensure_ascii=False))


def _card(lib: Library, name: str):
    try:
        return find_card(lib, name)
    except CardNotFound as exc:
        raise NotFound(str(exc)) from None


def _stat_line(p: dict) -> str:
    parts = [p["type"] or ""]
    if p["subtypes"]:
        parts[0] += ": " + " - ".join(p["subtypes"])
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
    return " | ".join(parts + [p["faction"] or ""])


def _ruling_text(r: dict) -> str:
    mark = " (rules team verified)" if r["verified"] else ""
    head = f"[{r['date'] or 'undated'}]{mark}"
    body = f"Q: {r['question']}\nA: {r['answer']}" if r["question"] else r["text"]
    return f"{head}\n{body}"


def register(group: click.Group) -> None:
    fallback = group.commands.get("card")

    @group.command("card")
    @click.argument("name", nargs=-1, required=True)
    @_version
    @_json
    @_build_dir
    @_errors
    @click.pass_context
    def card_cmd(ctx, name, version, as_json, build_dir):
        """A card: its data, Standard legality, official rulings and the rules that mention it
        (NAME forgives case, accents and punctuation; a NetrunnerDB code or card id works too)."""
        lib = Library.open(build_dir)
        text = " ".join(name)
        try:
            lib.cards()
        except LibraryError:
            if fallback is None:
                raise
            return ctx.invoke(fallback, name=name, version=version, as_json=as_json, build_dir=build_dir)
        card, others = _card(lib, text)
        p = card_payload(lib, card, version)
        if as_json:
            _emit(p)
            return
        click.echo(click.style(p["title"], bold=True) + f"  [{p['id']}]")
        click.echo(_stat_line(p))
        std = p["standard"]
        click.echo(f"Standard: {'legal' if std['legal'] else 'not legal'} ({std['status']})")
        if p["text"]:
            click.echo(p["text"])
        click.echo(f"\nrulings: {len(p['rulings'])}  (nrrules rulings {p['id']})")
        click.echo(f"rules of CR {p['version']} that mention it ({len(p['rules'])}):")
        for r in p["rules"]:
            click.echo(f"  {r['number'] or '':<9} {r['title'] or r['text']}")
        if others:
            click.echo("also matching: " + ", ".join(c.title for c in others))

    @group.command("rulings")
    @click.argument("name", nargs=-1, required=True)
    @_json
    @_build_dir
    @_errors
    def rulings_cmd(name, as_json, build_dir):
        """Official rulings of a card, newest first."""
        lib = Library.open(build_dir)
        card, _ = _card(lib, " ".join(name))
        p = rulings_payload(lib, card)
        if as_json:
            _emit(p)
            return
        click.echo(click.style(p["title"], bold=True) + f": {len(p['rulings'])} ruling(s)")
        for r in p["rulings"]:
            click.echo()
            click.echo(_ruling_text(r))
