"""Card pages and their JSON twins (webapp.payloads.cards):

/c/<card id | code | name>, /c?q=    the card page (a code or name redirects to /c/<id>)
/api/cards/<card>                     the card: data, legality, rulings, rules mentioning it
/api/cards/<card>/rulings             its official rulings, newest first
/api/cards/<card>/board               the engine-ready board card object (board editor), and
                                      what the engine does with each unit of its text
/cards/coverage?pool=standard|all     the same as a page: per card type, and every unit not modeled
/cards/coverage/all                   a static export's path for ?pool=all (redirects there)
/api/cards/coverage?pool=standard|all how much of the pool's printed text the engine models
/api/cards?q=&source=&limit=          card and ruling search, each hit labelled by source
"""

from __future__ import annotations

import hashlib
from urllib.parse import urlencode

from flask import Blueprint, current_app, jsonify, render_template, request, url_for

from ..caches import cache
from ..errors import BadRequest
from ..httputil import (
    GZIP_MIN,
    PAGE_MAX_AGE,
    asset_revision,
    cached_response,
    gzip_bytes,
    local_redirect,
    with_query,
)
from ..jsonprovider import dumps_bytes
from ..library import build_id, rules
from ..payloads import card_engine
from ..payloads import cards as payloads

bp = Blueprint("cards", __name__)


def _page_response(card_id: str, version: str | None):
    """The rendered card page, from the app's page cache (keyed by build and host)."""
    v = rules().version(version)
    engine = card_engine.engine_revision()  # the page says what the engine does with the card
    raw = f"{build_id()}|{asset_revision(current_app)}|{engine}|card|{v}|{card_id}|{request.host_url}"
    etag = hashlib.sha256(raw.encode()).hexdigest()[:24]
    pages = cache("pages")
    key = ("card", v, card_id, request.host_url)
    entry = pages.get(key) if pages is not None else None
    if entry is None or entry[0] != etag:
        if request.if_none_match.contains(etag):
            return cached_response(b"", None, etag, "text/html", PAGE_MAX_AGE)
        p = payloads.card(rules(), payloads.find(rules(), card_id), v)
        body = render_template(
            "card.html",
            p=p,
            title=f"{p['title']} — card, rulings and rules",
            version=v,
            is_latest=rules().is_latest(v),
            vq={} if rules().is_latest(v) else {"v": v},
        ).encode("utf-8")
        entry = (etag, body, gzip_bytes(body))
        if pages is not None:
            pages.put(key, entry)
    return cached_response(entry[1], entry[2], etag, "text/html", PAGE_MAX_AGE)


@bp.get("/c/<path:ref>")
def card_page(ref: str):
    card, found = payloads.find_match(rules(), ref)
    if ref != card.id:  # a code or a name: the card's own address (saying what was typed)
        path = with_query(url_for("cards.card_page", ref=card.id))
        if found.corrected:
            path += ("&" if "?" in path else "?") + urlencode({"typed": ref}, errors="surrogatepass")
        return local_redirect(path, 302)
    shown = payloads.showing(rules(), card, request.args.get("typed"))
    if shown is not None:  # "Showing Tollbooth (you typed tolbooth)": not from the page cache
        v = rules().version(request.args.get("v"))
        return render_template(
            "card.html",
            p=payloads.card(rules(), card, v),
            showing=shown,
            title=f"{card.title} — card, rulings and rules",
            version=v,
            is_latest=rules().is_latest(v),
            vq={} if rules().is_latest(v) else {"v": v},
        )
    return _page_response(card.id, request.args.get("v"))


@bp.get("/c")
def card_lookup():
    return card_page(request.args.get("q", ""))


@bp.get("/api/cards/<path:card>")
def card_api(card: str):
    return jsonify(payloads.card_named(rules(), card, request.args.get("v")))


@bp.get("/api/cards/<path:card>/rulings")
def card_rulings_api(card: str):
    return jsonify(payloads.rulings(rules(), payloads.find(rules(), card)))


@bp.get("/api/cards/coverage")
def card_coverage_api():
    return jsonify(card_engine.coverage(rules(), card_engine.parse_pool(request.args.get("pool"))))


@bp.get("/cards/coverage")
def coverage_page():
    """How much of the card pool's text the engine models, as a page (from the page cache)."""
    standard = card_engine.parse_pool(request.args.get("pool"))
    pool = "standard" if standard else "all"
    v = rules().latest
    # the Standard pool is the one in force today: a new ban list or rotation is a new page
    std = (payloads.cards_info(rules()) or {}).get("standard") or {}
    snap = f"{std.get('snapshot')}|{std.get('restriction')}" if standard else ""
    engine = card_engine.engine_revision()
    raw = f"{build_id()}|{asset_revision(current_app)}|{engine}|coverage|{pool}|{snap}|{v}"
    etag = hashlib.sha256(raw.encode()).hexdigest()[:24]
    pages = cache("pages")
    key = ("coverage", pool)
    entry = pages.get(key) if pages is not None else None
    if entry is None or entry[0] != etag:
        if request.if_none_match.contains(etag):
            return cached_response(b"", None, etag, "text/html", PAGE_MAX_AGE)
        p = card_engine.coverage(rules(), standard)
        body = render_template(
            "cards_coverage.html",
            p=p,
            groups=_open_units(p),
            columns=[st for st in card_engine.statuses() if st in p["total"]],
            labels=card_engine.STATUS_LABELS,
            title=f"Card coverage, {'Standard pool' if standard else 'every card'} — what the stepper models",
            version=v,
            is_latest=True,
            vq={},
        ).encode("utf-8")
        entry = (etag, body, gzip_bytes(body))
        if pages is not None:
            pages.put(key, entry)
    return cached_response(entry[1], entry[2], etag, "text/html", PAGE_MAX_AGE)


@bp.get("/cards/coverage/all")
def coverage_all_path():
    """A static export's path for the whole data set's page (webapp.export) -> ?pool=all."""
    from flask import redirect

    return redirect(url_for("cards.coverage_page", pool="all"), 302)


def _open_units(p: dict) -> list[dict]:
    """The units not modeled, by card type (in the table's order) and card (by name)."""
    groups: dict[str, dict[str, dict]] = {k: {} for k in p["by_type"]}
    for u in p["not_modeled"]:
        cards = groups.setdefault(u["type"] or "", {})
        cards.setdefault(u["card_id"], {"id": u["card_id"], "title": u["title"], "units": []})
        cards[u["card_id"]]["units"].append(u)
    return [
        {
            "type": key,
            "cards": sorted(cards.values(), key=lambda c: (c["title"] or "").lower()),
            "count": sum(len(c["units"]) for c in cards.values()),
        }
        for key, cards in groups.items()
        if cards
    ]


@bp.get("/api/cards/<path:card>/board")
def card_board_api(card: str):
    return jsonify(payloads.board(rules(), payloads.find(rules(), card)))


@bp.get("/api/cards")
def card_search_api():
    sources = payloads.parse_sources(request.args.getlist("source"))
    raw = request.args.get("limit") or "10"
    if not raw.isdigit():
        raise BadRequest(f"limit must be an integer from 1 to {payloads.MAX_LIMIT}, not {raw[:20]!r}")
    q, limit = " ".join((request.args.get("q") or "").split()), int(raw)
    answers = cache("search")
    if answers is None:
        return jsonify(payloads.card_search(rules(), q, sources, limit))
    # As /api/search: the serialised answer is kept (with its gzip form and ETag) per build,
    # since the editor and the search box send the same prefixes again and again.
    key = ("cards", build_id(), q, limit, sources)
    entry = answers.get(key)
    if entry is None:
        body = dumps_bytes(payloads.card_search(rules(), q, sources, limit))
        etag = hashlib.sha256(body).hexdigest()[:24]
        entry = (etag, body, gzip_bytes(body) if len(body) >= GZIP_MIN else None)
        answers.put(key, entry)
    return cached_response(entry[1], entry[2], entry[0], "application/json", PAGE_MAX_AGE)


@bp.app_template_global()
def card_link(code: str | None, name: str) -> dict:
    """For rule pages: where a card the CR mentions links (see payloads.cards.card_link)."""
    return payloads.card_link(rules(), code, name)
