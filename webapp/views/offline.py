"""Offline use: the web app manifest, the service worker (served at the root so its scope is
the whole site), the offline shell page, each version's offline pack (rules + compact
search index, written by `nrrules build`; see rules_index/offline.py) and its reading pack
(`reading_pack`: cards and their official rulings, and the pages saved as they are: the
judges' documents and the version's changes page), made by the app from the loaded build."""

from __future__ import annotations

import hashlib
import json
import re
from collections import Counter
from pathlib import Path

from flask import Blueprint, Response, current_app, render_template, request, url_for

from rules_index.offline import OFFLINE_FILE

from ..caches import cache
from ..errors import BuildUnavailable, NotFound
from ..httputil import PAGE_MAX_AGE, asset_revision, cached_response, gzip_bytes, local_redirect, static_url
from ..library import build_id, rules
from ..payloads import cards as card_payloads
from ..payloads import judge as judge_payloads

bp = Blueprint("offline", __name__)


def pack_url(version: str) -> str:
    """The pack's URL, with the source hash so a saved copy is replaced when the CR changes."""
    info = next(i for i in rules().library.versions() if i.version == version)
    return f"/offline/{version}.json?h={info.source_hash[:12]}"


READING_FORMAT = 1


def reading_url(version: str) -> str:
    """The reading pack's URL, with the build and the templates' revision (the pack holds
    rendered markup), so a saved copy is offered an update when either changes."""
    raw = f"{build_id()}|{asset_revision(current_app)}|{version}"
    return f"/offline/{version}/reading.json?h={hashlib.sha256(raw.encode()).hexdigest()[:12]}"


def saved_pages(version: str) -> list[str]:
    """The pages a saved copy of ``version`` keeps as the server renders them: the judges'
    documents (their index and every item) and what changed from the version before."""
    pages: list[str] = []
    try:
        has_judge = rules().library.judge() is not None
    except Exception:  # a damaged judges' build: the copy is saved without it
        has_judge = False
    if has_judge:
        pages.append("/j/")
        pages += [
            e["url"] for d in judge_payloads.judge_index(rules()) for s in d["sections"] for e in s["entries"]
        ]
    names = rules().version_names()
    at = names.index(version)
    if at > 0:
        pages.append(f"/changes/{names[at - 1]}..{version}")
    return pages


# The cards' markup repeats the same tags and glyphs thousands of times (a keyword's link, a
# symbol's span, the stats line's paragraph): 1.9 of its 3.1 MB. `compact_markup` writes each of
# the most frequent as UNIT_MARK and one character (U+0100 onwards, two bytes in UTF-8), the pack's
# ``units`` listing them; offline.js expands them back to the same markup.
UNIT_MARK = "\x7f"
UNIT_FIRST, UNIT_LAST = 0x100, 0x7FF
_UNIT = re.compile(r'<span class="sym[^"]*"[^>]*>[^<]*</span>|<[^<>]+>')


def compact_markup(rows: list[list], columns: tuple[int, ...]) -> list[str]:
    """Rewrites the markup in ``columns`` of ``rows`` in place with the most frequent tags and
    symbol spans as UNIT_MARK + one character; returns the units in the order of their
    characters (``units[ord(ch) - UNIT_FIRST]``). A UNIT_MARK in the markup itself (a control
    character no page shows) is dropped first, so every mark left is one of these units."""
    counts: Counter[str] = Counter()
    for row in rows:
        for col in columns:
            row[col] = row[col].replace(UNIT_MARK, "")
            counts.update(_UNIT.findall(row[col]))
    saved = {u: (len(u.encode()) - 3) * n for u, n in counts.items() if n > 1}
    units = sorted((u for u in saved if saved[u] > 0), key=lambda u: -saved[u])[: UNIT_LAST - UNIT_FIRST + 1]
    code = {u: UNIT_MARK + chr(UNIT_FIRST + i) for i, u in enumerate(units)}
    for row in rows:
        for col in columns:
            row[col] = _UNIT.sub(lambda m: code.get(m.group(0), m.group(0)), row[col])
    return units


def reading_pack(version: str) -> dict:
    """What a saved copy of ``version`` holds besides the rules (offline.js saves it, the offline
    shell renders it): every card (`payloads.cards.offline_cards`: its page's heading, text and
    rulings as the page's own markup, the rules mentioning it and those its rulings cite), the
    markup of a card without rulings (``no_rulings``), the pages saved as they are
    (`saved_pages`) and the stylesheets those need beyond the shell's own (``assets``)."""

    def render(template: str, p: dict) -> str:
        return render_template(template, p=p)

    has_cards = card_payloads.has_cards(rules())
    cards = card_payloads.offline_cards(rules(), version, render) if has_cards else []
    units = compact_markup(cards, (2, 3))
    return {
        "format": READING_FORMAT,
        "version": version,
        "units": units,
        "cards": cards,
        "no_rulings": render("_card_rulings.html", {"rulings": []}) if has_cards else "",
        "pages": saved_pages(version),
        "assets": [static_url("cards.css")],
    }


def manifest() -> dict:
    return {
        "name": "nrrules — Netrunner Comprehensive Rules",
        "short_name": "nrrules",
        "description": "Search and read the Netrunner Comprehensive Rules, also offline.",
        "start_url": "/",
        "scope": "/",
        "display": "standalone",
        "background_color": "#ffffff",
        "theme_color": "#0b63c5",
        "icons": [{"src": "/static/favicon.svg", "sizes": "any", "type": "image/svg+xml", "purpose": "any"}],
    }


@bp.app_context_processor
def _offline_context() -> dict:
    def offline_pack(version: str | None) -> str:
        try:
            return pack_url(version) if version else ""
        except (StopIteration, BuildUnavailable):
            return ""

    def offline_reading(version: str | None) -> str:
        try:
            return reading_url(version) if version else ""
        except BuildUnavailable:
            return ""

    def offline_stepper() -> bool:
        """Whether the in-browser engine is installed here (`make offline-engine`)."""
        from ..offline_engine import DEST, MANIFEST

        return (DEST / MANIFEST).is_file()

    return {
        "offline_pack": offline_pack,
        "offline_reading": offline_reading,
        "offline_stepper": offline_stepper,
    }


@bp.get("/manifest.webmanifest")
def webmanifest():
    body = json.dumps(manifest(), ensure_ascii=False, indent=1).encode("utf-8")
    etag = hashlib.sha256(body).hexdigest()[:24]
    return cached_response(body, None, etag, "application/manifest+json", PAGE_MAX_AGE)


def sw_bytes() -> bytes:
    return (Path(current_app.static_folder or "") / "sw.js").read_bytes()


@bp.get("/sw.js")
def service_worker():
    body = sw_bytes()
    resp = Response(body, mimetype="application/javascript")
    # Browsers check for a new worker on every navigation when it may not be cached.
    resp.headers["Cache-Control"] = "no-cache"
    resp.headers["Service-Worker-Allowed"] = "/"
    resp.set_etag(hashlib.sha256(body).hexdigest()[:24])
    return resp.make_conditional(request)


def shell_html(mode: str = "1") -> str:
    return render_template(
        "offline.html",
        shell_mode=mode,
        version=rules().library.latest,
        is_latest=True,
        vq={},
        search_js=static_url("offline-search.js"),
    )


@bp.get("/offline.html")
def shell():
    """The page the service worker answers any navigation with when there is no connection:
    it renders rules, the whole CR and search results from the saved pack."""
    # ?static=search: the same page as a static site's search page (online, no offline notice).
    mode = "search" if request.args.get("static") == "search" else "1"
    return Response(shell_html(mode), mimetype="text/html", headers={"Cache-Control": "no-cache"})


@bp.get("/v/<version>/")
@bp.get("/v/<version>/<path:rest>")
def versioned_path(version: str, rest: str = ""):
    """A static export's path for an older version (/v/22.12/id/x) -> the app's /id/x?v=22.12."""
    v = rules().version(version)
    target = "/" + rest.rstrip("/")
    if target.startswith("/api/"):
        raise NotFound(f"use /api/...?v={v} for the JSON of CR {v}")
    return local_redirect(f"{target}?v={v}" if target != "/" else f"/?v={v}", code=302)


@bp.get("/offline/<version>.json")
def pack(version: str):
    v = rules().version(version)
    packs = cache("packs")
    key = (build_id(), v)
    entry = packs.get(key) if packs is not None else None
    if entry is None:
        try:
            body = rules().library.build_file(v, OFFLINE_FILE)
        except OSError:
            raise BuildUnavailable(
                f"CR {v} has no offline pack in this build: rebuild it (nrrules build --force)"
            ) from None
        except ValueError as exc:  # truncated or altered since the build: never served
            raise BuildUnavailable(
                f"CR {v}'s offline pack is damaged ({exc}): rebuild it (nrrules build --force)"
            ) from None
        entry = (hashlib.sha256(body).hexdigest()[:24], body, gzip_bytes(body))
        if packs is not None:
            packs.put(key, entry)
    return cached_response(entry[1], entry[2], entry[0], "application/json", PAGE_MAX_AGE)


@bp.get("/offline/<version>/reading.json")
def reading(version: str):
    """The reading pack of a version (`reading_pack`), made once per build and kept with its
    gzip form in the packs cache."""
    v = rules().version(version)
    packs = cache("packs")
    key = (build_id(), asset_revision(current_app), v, "reading")
    entry = packs.get(key) if packs is not None else None
    if entry is None:
        body = json.dumps(reading_pack(v), ensure_ascii=False, separators=(",", ":")).encode("utf-8")
        entry = (hashlib.sha256(body).hexdigest()[:24], body, gzip_bytes(body))
        if packs is not None:
            packs.put(key, entry)
    return cached_response(entry[1], entry[2], entry[0], "application/json", PAGE_MAX_AGE)


# ----- the stepper offline (issue 35) -----------------------------------------------------------


def stepper_files(version: str) -> dict | None:
    """What the stepper needs offline (the in-browser engine, webapp.offline_engine, and the
    version's CR document the engine walks): {"files": [url...], "bytes": n, "worker": url,
    "document": url}, or None when the in-browser engine is not installed on this server."""
    from ..offline_engine import DEST, read_manifest

    manifest = read_manifest(DEST)
    if manifest is None:
        return None
    files = manifest["files"]
    index = url_for("static", filename="vendor/pyodide/")
    # Pyodide fetches its own files by name from `index` (no query: the saved copy keeps them
    # under these URLs); the engine zip's digest is in its URL, so a new engine is fetched anew
    engine_url = url_for("static", filename="vendor/pyodide/engine.zip", h=files["engine.zip"]["sha256"][:12])
    urls = [index + name for name in files if name != "engine.zip"] + [engine_url]
    doc = url_for("offline.document", version=version, h=build_id()[:12])
    return {
        "pyodide": manifest["pyodide"],
        "index": index,
        "engine": engine_url,
        "files": urls,
        "worker": static_url("stepper-worker.js"),
        "document": doc,
        # bytes saving it stores (the download is smaller: the server gzips the wasm and the JSON)
        "bytes": manifest["bytes"] + len(_document_entry(version)[1]),
    }


@bp.get("/offline/<version>/stepper.json")
def stepper_pack(version: str):
    """The stepper's offline files for a version (`stepper_files`); 404 when the in-browser
    engine is not installed here (`make install` fetches it)."""
    v = rules().version(version)
    info = stepper_files(v)
    if info is None:
        raise NotFound("the offline stepper is not installed on this server (make offline-engine)")
    body = json.dumps({**info, "version": v}).encode("utf-8")
    return cached_response(
        body, None, hashlib.sha256(body).hexdigest()[:24], "application/json", PAGE_MAX_AGE
    )


def _document_entry(v: str) -> tuple[str, bytes, bytes]:
    """(ETag, bytes, gzip) of a version's document.json, read once per build (packs cache)."""
    packs = cache("packs")
    key = (build_id(), v, "document")
    entry = packs.get(key) if packs is not None else None
    if entry is None:
        try:
            body = rules().library.build_file(v, "document.json")
        except (OSError, ValueError):
            raise BuildUnavailable(
                f"CR {v}'s document cannot be read: rebuild it (nrrules build --force)"
            ) from None
        entry = (hashlib.sha256(body).hexdigest()[:24], body, gzip_bytes(body))
        if packs is not None:
            packs.put(key, entry)
    return entry


@bp.get("/offline/<version>/document.json")
def document(version: str):
    """A version's CR document as the build wrote it: the in-browser engine walks its steps."""
    entry = _document_entry(rules().version(version))
    return cached_response(entry[1], entry[2], entry[0], "application/json", PAGE_MAX_AGE)
