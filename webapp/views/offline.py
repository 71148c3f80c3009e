"""Offline use: the web app manifest, the service worker (served at the root so its scope is
the whole site), the offline shell page and each version's offline pack (rules + compact
search index, written by `nrrules build`; see rules_index/offline.py)."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from flask import Blueprint, Response, current_app, render_template, request

from rules_index.offline import OFFLINE_FILE

from ..caches import cache
from ..errors import BuildUnavailable, NotFound
from ..httputil import PAGE_MAX_AGE, cached_response, gzip_bytes, local_redirect, static_url
from ..library import build_id, rules

bp = Blueprint("offline", __name__)


def pack_url(version: str) -> str:
    """The pack's URL, with the source hash so a saved copy is replaced when the CR changes."""
    info = next(i for i in rules().library.versions() if i.version == version)
    return f"/offline/{version}.json?h={info.source_hash[:12]}"


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

    return {"offline_pack": offline_pack}


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
