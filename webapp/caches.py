"""Every in-process cache of the web app, in one place: its bound in entries and in bytes, and
why it exists. `init_app` makes them (one set per app, in ``app.extensions``, like flaskr's
``db.init_app``); views get one with `cache(name)`. Each is an `LRU` bounded by entry count
AND by an estimate of the bytes it holds, so no sequence of requests grows a worker without
bound. A size of 0 turns a cache off (`cache` then returns None).

Caches of data derived from the loaded rules (reading order, rule cards of engine events) are
owned by the `Rules` context (webapp.payloads.context); the rule lookup indexes by the
`Document` itself. Both are bounded by the build: one per version.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from flask import Flask, current_app

MB = 1024 * 1024


class LRU:
    """A thread-safe least-recently-used mapping, bounded by entry count and by total weight
    (`weigh(value)`, in bytes). `weight` is the running total, for tests and monitoring."""

    def __init__(self, size: int, max_weight: int, weigh: Callable[[Any], int]):
        self.size = max(1, size)
        self.max_weight = max_weight
        self.weigh = weigh
        self.weight = 0
        self._data: OrderedDict[Any, tuple[Any, int]] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: Any) -> Any:
        with self._lock:
            item = self._data.get(key)
            if item is None:
                return None
            self._data.move_to_end(key)
            return item[0]

    def put(self, key: Any, value: Any) -> None:
        w = self.weigh(value)
        with self._lock:
            old = self._data.pop(key, None)
            if old is not None:
                self.weight -= old[1]
            self._data[key] = (value, w)
            self.weight += w
            while len(self._data) > self.size or (self.weight > self.max_weight and len(self._data) > 1):
                _, (_, dropped) = self._data.popitem(last=False)
                self.weight -= dropped

    def __len__(self) -> int:
        return len(self._data)


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
