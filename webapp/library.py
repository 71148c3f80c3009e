"""The web app's one handle on the build: a `Rules` context per app, opened on first use.

Views get it with `rules()` and hand it to the payload builders (webapp.payloads); they never
open the build directory themselves.
"""

from __future__ import annotations

import gc
import hashlib
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
        self.build_id = ""

    def get(self) -> Rules:
        if self._rules is None:
            with self._lock:
                if self._rules is None:
                    try:
                        lib = Library.open(self._build_dir)
                    except LibraryError as exc:
                        raise BuildUnavailable(str(exc)) from None
                    self._rules = Rules(lib)
        if not self.build_id:
            h = hashlib.sha256()
            for info in self._rules.library.versions():
                h.update(f"{info.version}:{info.source_hash};".encode())
            self.build_id = h.hexdigest()[:16]
        return self._rules

    def warm(self) -> None:
        """Load every version's document and graph and the latest search index now, so the
        first requests a worker serves are as fast as the rest (NRRULES_PRELOAD=1)."""
        lib = self.get().library
        for info in lib.versions():
            lib.document(info.version)
            lib.graph(info.version)
        lib.searcher(lib.latest).warm()
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
