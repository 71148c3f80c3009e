"""Card pages and their JSON twins: /c/<card id | code | name>, /api/cards/<ref>,
/api/cards?q= (card and ruling search), /api/cards/<ref>/rulings. Each renders or returns the
payload of `webapp.cards_payload`, the same one `nrrules card` prints."""

from __future__ import annotations

from flask import Blueprint, jsonify, redirect, render_template, request, url_for

from rules_index.store import LibraryError

from .. import library as lib
from ..cards_payload import CardNotFound, card_payload, card_search_payload, find_card, rulings_payload
from ..library import WebError

bp = Blueprint("cards", __name__)

MAX_QUERY = 200
MAX_LIMIT = 50
SOURCES = ("cards", "rulings")


def _card(ref: str):
    ref = (ref or "").strip()
    if not ref or len(ref) > MAX_QUERY:
        raise WebError(400, f"a card id, NetrunnerDB code or name of 1 to {MAX_QUERY} characters is required")
    library = lib.library()
    try:
        return find_card(library, ref)[0]
    except CardNotFound as exc:
        raise WebError(404, str(exc)) from None
    except LibraryError as exc:
        raise WebError(503, str(exc)) from None


def _payload(ref: str) -> dict:
    card = _card(ref)
    try:
        return card_payload(lib.library(), card, request.args.get("v"))
    except LibraryError as exc:
        raise WebError(404, str(exc)) from None


@bp.get("/c/<path:ref>")
def card_page(ref: str):
    card = _card(ref)
    if ref != card.id:  # a code or a name: the card's own address
        return redirect(url_for("cards.card_page", ref=card.id, **request.args), 302)
    p = _payload(card.id)
    return render_template("card.html", p=p, title=f"{p['title']} — card, rulings and rules")


@bp.get("/c")
def card_lookup():
    return card_page(request.args.get("q", ""))


@bp.get("/api/cards/<path:card>")
def card_api(card: str):
    return jsonify(_payload(card))


@bp.get("/api/cards/<path:card>/rulings")
def card_rulings_api(card: str):
    return jsonify(rulings_payload(lib.library(), _card(card)))


@bp.get("/api/cards")
def card_search_api():
    q = (request.args.get("q") or "").strip()
    if not q:
        raise WebError(400, "q is required: a card name or words of its text or rulings")
    if len(q) > MAX_QUERY:
        raise WebError(400, f"q is too long ({len(q)} characters, at most {MAX_QUERY})")
    sources = _sources(request.args.getlist("source"), SOURCES)
    try:
        limit = int(request.args.get("limit") or 10)
    except ValueError:
        raise WebError(400, f"limit must be an integer from 1 to {MAX_LIMIT}") from None
    if not 1 <= limit <= MAX_LIMIT:
        raise WebError(400, f"limit must be from 1 to {MAX_LIMIT}, not {limit}")
    try:
        return jsonify(card_search_payload(lib.library(), q, sources, limit))
    except LibraryError as exc:
        raise WebError(503, str(exc)) from None


def _sources(values: list[str], allowed: tuple[str, ...]) -> tuple[str, ...]:
    """``source=cards&source=rulings`` or ``source=cards,rulings``; all when omitted."""
    wanted = [s.strip() for v in values for s in v.split(",") if s.strip()]
    bad = [s for s in wanted if s not in allowed]
    if bad:
        raise WebError(400, f"source must be one of {', '.join(allowed)}, not {bad[0]!r}")
    return tuple(dict.fromkeys(wanted)) or allowed


@bp.app_template_global()
def card_link(code: str | None, name: str) -> dict:
    """Where a card the CR mentions links: its card page when card data is built (with a
    preview line), else NetrunnerDB."""
    try:
        store = lib.library().cards()
    except (LibraryError, WebError):
        store = None
    card = None
    if store is not None:
        card = (store.by_code(code) if code else None) or next(iter(store.find(name, limit=1)), None)
    if card is None:
        href = f"https://netrunnerdb.com/en/card/{code}" if code else None
        return {"href": href, "preview": None, "local": False}
    text = " ".join(card.stripped_text.split())
    preview = f"{text[:140]}{'...' if len(text) > 140 else ''}"
    return {"href": url_for("cards.card_page", ref=card.id), "preview": preview, "local": True}
