"""Every in-process cache of the web app, in one place: its bound in entries and in bytes, and
why it exists. `init_app` makes them (one set per app, in ``app.extensions``, like flaskr's
``db.init_app``); views get one with `cache(name)`. Each is a `memo.LRU` bounded by entry count
AND by an estimate of the bytes it holds, so no sequence of requests grows a worker without
bound. A size of 0 turns a cache off (`cache` then returns None).

The memos of pure functions the app runs on (word stems, word diffs, decision ids: one per
process, shared by every app) are listed with their bounds and reasons in `memo.MEMOS`, made
with the same `LRU`; `every_cache` reports both kinds with what they hold now.

Caches of data derived from the loaded rules (reading order, rule cards of engine events) are
owned by the `Rules` context (webapp.payloads.context); the rule lookup indexes by the
`Document` itself. Both are bounded by the build: one per version.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from flask import Flask, current_app

from memo import LRU, MB, REGISTRY


def entry_bytes(entry: tuple) -> int:
    """Weight of a cached (etag, body, gzip body) or (body, gzip body) entry."""
    return sum(len(part) for part in entry if isinstance(part, (bytes, str)))


def session_bytes(entry: tuple) -> int:
    """Estimated weight of a replayed engine session (session, events, board JSON length).
    Measured with a deep getsizeof: ~80 KB for a small board after six decisions, most of it
    the trace (~1 KB an event), and ~27x the board's JSON for a large board (issue 16: a 253 KB
    board cost 6.8 MB a session)."""
    session, events, board = entry
    return 8 * 1024 + 32 * board + 1024 * (len(session.trace) + len(events))


@dataclass(frozen=True)
class CacheSpec:
    name: str
    entries: str  # config key: most entries
    max_bytes: str  # config key: most bytes
    weigh: Callable[[Any], int]
    why: str


CACHES = (
    CacheSpec(
        "pages",
        "PAGE_CACHE_SIZE",
        "PAGE_CACHE_BYTES",
        entry_bytes,
        "rendered rule pages and /all (HTML, gzip, ETag): a page is rendered once per build and host",
    ),
    CacheSpec(
        "search",
        "SEARCH_CACHE_SIZE",
        "SEARCH_CACHE_BYTES",
        entry_bytes,
        "/api/search and /api/cards answers as bytes (JSON, gzip, ETag): as-you-type traffic repeats prefixes",
    ),
    CacheSpec(
        "answers",
        "SESSION_CACHE_SIZE",
        "ANSWER_CACHE_BYTES",
        entry_bytes,
        "engine answers already sent (JSON, gzip): retries, reloads and shared stepper links",
    ),
    CacheSpec(
        "sessions",
        "SESSION_CACHE_SIZE",
        "SESSION_CACHE_BYTES",
        session_bytes,
        "replayed engine positions: a decision on a known position costs one engine step",
    ),
    CacheSpec(
        "static_gzip",
        "STATIC_GZIP_CACHE_SIZE",
        "STATIC_GZIP_CACHE_BYTES",
        lambda gz: len(gz),
        "gzipped static files (CSS, JS, the graph library): compressed once per file version",
    ),
    CacheSpec(
        "packs",
        "PACK_CACHE_SIZE",
        "PACK_CACHE_BYTES",
        entry_bytes,
        "offline packs (JSON, gzip, ETag) read from the build: a few versions, read once",
    ),
)

DEFAULTS: dict[str, int] = {
    "PAGE_CACHE_SIZE": 2048,
    "PAGE_CACHE_BYTES": 64 * MB,
    "SEARCH_CACHE_SIZE": 4096,
    "SEARCH_CACHE_BYTES": 32 * MB,
    "SESSION_CACHE_SIZE": 256,
    "ANSWER_CACHE_BYTES": 16 * MB,
    "SESSION_CACHE_BYTES": 64 * MB,
    "STATIC_GZIP_CACHE_SIZE": 256,
    "STATIC_GZIP_CACHE_BYTES": 8 * MB,
    "PACK_CACHE_SIZE": 8,
    "PACK_CACHE_BYTES": 32 * MB,
}


def init_app(app: Flask) -> None:
    """Make the app's caches from its config (DEFAULTS for what the config does not set)."""
    for key, value in DEFAULTS.items():
        app.config.setdefault(key, value)
    made: dict[str, LRU | None] = {}
    for spec in CACHES:
        size = int(app.config[spec.entries])
        made[spec.name] = LRU(size, int(app.config[spec.max_bytes]), spec.weigh) if size > 0 else None
    app.extensions["nrrules.caches"] = made


def cache(name: str, app: Flask | None = None) -> LRU | None:
    """The app's cache `name` (one of CACHES), or None when it is turned off."""
    return (app or current_app).extensions["nrrules.caches"][name]


@dataclass(frozen=True)
class CacheUse:
    """One cache's bounds and what it holds now (for monitoring and tests)."""

    name: str
    kind: str  # "app" (one per app, config-sized) or "memo" (one per process, memo.MEMOS)
    entries: int
    max_bytes: int
    held: int
    weight: int
    why: str


def every_cache(app: Flask | None = None) -> list[CacheUse]:
    """Every in-process cache: the app's (CACHES; those turned off are left out) and the
    process's memos (memo.MEMOS, once a module has made them), with bounds and current use."""
    app = app or current_app
    out = []
    for spec in CACHES:
        lru = cache(spec.name, app)
        if lru is not None:
            out.append(CacheUse(spec.name, "app", lru.size, lru.max_weight, len(lru), lru.weight, spec.why))
    for made in REGISTRY.values():
        s = made.spec
        out.append(CacheUse(s.name, "memo", s.entries, s.max_bytes, len(made), made.weight, s.why))
    return out
