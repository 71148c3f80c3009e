"""The web app's one handle on the build: a `Rules` context per app, opened on first use.

Views get it with `rules()` and hand it to the payload builders (webapp.payloads); they never
open the build directory themselves.
"""

from __future__ import annotations

import gc
import hashlib
import logging
import threading

from flask import current_app

from rules_index.store import Library, LibraryError

from .errors import BuildUnavailable
from .payloads import Rules


class LibraryHolder:
    """Opens the rules_index Library on first use (so `create_app()` itself never fails)."""

    def __init__(self, library: Library | None = None, build_dir: str | None = None):
        self._rules = Rules(library) if library is not None else None
        self._build_dir = build_dir
        self._lock = threading.Lock()
        self._generation = 0  # the library's `generation` the rules context and build id are of
        self.build_id = ""

    def get(self) -> Rules:
        if self._rules is None:
            with self._lock:
                if self._rules is None:
                    try:
                        lib = Library.open(self._build_dir)
                    except LibraryError as exc:
                        logging.getLogger("nrrules.build").error("%s", exc)  # with the path
                        raise BuildUnavailable(exc.message) from None  # without it
                    self._rules = Rules(lib)
        lib = self._rules.library
        lib.follow()  # a build published since: served from here on (`Library.follow`)
        if lib.generation != self._generation:
            with self._lock:
                if lib.generation != self._generation:
                    # what the rules context derived from the old builds goes with them
                    self._rules = Rules(lib)
                    self._generation = lib.generation
                    self.build_id = ""
        if not self.build_id:
            h = hashlib.sha256()
            for info in self._rules.library.versions():
                h.update(f"{info.version}:{info.source_hash};".encode())
            try:  # card data changes the rule pages' card links
                h.update(f"cards:{self._rules.library.cards().info.source_hash}".encode())
            except Exception:  # noqa: BLE001 - no card build (or an unreadable one): rules only
                pass
            self.build_id = h.hexdigest()[:16]
        return self._rules

    def warm(self) -> None:
        """Load every version's document and graph and the latest search index now, so the
        first requests a worker serves are as fast as the rest (NRRULES_PRELOAD=1)."""
        try:
            lib = self.get().library
            lib.preload()  # a version that cannot load is logged and reported, never fatal
            lib.searcher(lib.latest).warm()
        except (BuildUnavailable, LibraryError) as exc:
            logging.getLogger("nrrules.build").error("preload: %s", getattr(exc, "message", exc))
        # The loaded rules are read-only from here on: move them out of the garbage collector's
        # reach, or every full collection walks ~180,000 objects (about 60 ms) in the middle of
        # some request, which is what a p99 latency sees.
        gc.freeze()


def rules() -> Rules:
    return current_app.extensions["nrrules.library"].get()


def build_id() -> str:
    holder = current_app.extensions["nrrules.library"]
    holder.get()
    return holder.build_id
