"""The one place the web app talks to ``rules_index``: open the build, pick a version, find a rule.

Views call these helpers and render; they never touch the build directory themselves.
"""

from __future__ import annotations

import gc
import hashlib
import logging
import threading
from dataclasses import dataclass
from typing import Any

from flask import current_app

from scraper import Document, Node


class WebError(Exception):
    """A problem with the request, shown as an HTML error page or a JSON error (see httputil)."""

    def __init__(self, status: int, message: str, **extra: Any):
        super().__init__(message)
        self.status = status
        self.message = message
        self.extra = extra


class LibraryHolder:
    """Opens the rules_index Library on first use (so `create_app()` itself never fails)."""

    def __init__(self, library: Any = None, build_dir: str | None = None):
        self._library = library
        self._build_dir = build_dir
        self._lock = threading.Lock()
        self.build_id = ""

    def get(self) -> Any:
        if self._library is None:
            with self._lock:
                if self._library is None:
                    from rules_index.store import Library, LibraryError

                    try:
                        lib = Library.open(self._build_dir)
                    except LibraryError as exc:
                        logging.getLogger("nrrules.build").error("%s", exc)  # with the path
                        raise WebError(503, exc.message) from None  # without it
                    self._library = lib
        if not self.build_id:
            h = hashlib.sha256()
            for info in self._library.versions():
                h.update(f"{info.version}:{info.source_hash};".encode())
            self.build_id = h.hexdigest()[:16]
        return self._library

    def warm(self) -> None:
        """Load every version's document and graph and the latest search index now, so the
        first requests a worker serves are as fast as the rest (NRRULES_PRELOAD=1)."""
        from rules_index.store import LibraryError

        try:
            lib = self.get()
            lib.preload()  # a version that cannot load is logged and reported, never fatal
            lib.searcher(lib.latest).warm()
        except (WebError, LibraryError) as exc:
            logging.getLogger("nrrules.build").error("preload: %s", getattr(exc, "message", exc))
        # The loaded rules are read-only from here on: move them out of the garbage collector's
        # reach, or every full collection walks ~180,000 objects (about 60 ms) in the middle of
        # some request, which is what a p99 latency sees.
        gc.freeze()


def library() -> Any:
    return current_app.extensions["nrrules.library"].get()


def build_id() -> str:
    holder = current_app.extensions["nrrules.library"]
    holder.get()
    return holder.build_id


def version_names() -> list[str]:
    return [info.version for info in library().versions()]


def resolve_version(version: str | None) -> str:
    """The version named in a request (None or "" -> latest); 404 for an unknown one."""
    lib = library()
    if version is None or version.strip() in ("", "latest"):
        return lib.latest
    v = version.strip().lstrip("vV")
    if v not in version_names():
        raise WebError(
            404,
            f"CR version {version!r} is not available; available versions: {', '.join(version_names())}",
            versions=version_names(),
        )
    return v


def document(version: str | None) -> Document:
    return library().document(resolve_version(version))


def is_latest(version: str) -> bool:
    return version == library().latest


@dataclass
class Found:
    version: str
    doc: Document
    node: Node


MAX_REF = 300


def find(ref: str, version: str | None) -> Found:
    """A rule by printed number, stable id or deep link, in one version; 404 with suggestions."""
    v = resolve_version(version)
    doc = library().document(v)
    ref = (ref or "").strip()
    if not ref:
        raise WebError(400, "no rule number or id given")
    if len(ref) > MAX_REF:
        raise WebError(400, f"rule reference is too long ({len(ref)} characters, at most {MAX_REF})")
    node = doc.node(ref)
    if node is None:
        result = library().lookup(ref, v)
        if not result.nodes:
            raise WebError(
                404,
                result.error or f"no rule {ref!r} in CR {v}",
                suggestions=list(result.suggestions or []),
                version=None if is_latest(v) else v,
            )
        node = result.nodes[0]
    return Found(v, doc, node)


def find_by_id(node_id: str, version: str | None) -> Found:
    v = resolve_version(version)
    doc = library().document(v)
    node = doc.node(node_id)
    if node is None:
        present = [
            other for other in version_names() if other != v and library().document(other).node(node_id)
        ]
        msg = f"no rule with id {node_id!r} in CR {v}"
        if present:
            msg += f" (it exists in {', '.join(present)})"
        raise WebError(404, msg, present_in=present, version=None if is_latest(v) else v)
    return Found(v, doc, node)


def label(node: Node) -> str:
    """The name of a node in links and titles ("6.9.4c Movement Phase", "Example")"""
    if node.kind == "example":
        return "Example"
    parts = [p for p in (node.number, node.title) if p]
    return " ".join(parts) if parts else node.id


def summary(node: Node, limit: int = 240) -> str:
    text = " ".join((node.text or "").split())
    if len(text) > limit:
        text = text[: limit - 1].rsplit(" ", 1)[0] + "…"
    return text


def node_json(doc: Document, node: Node, version: str, children: bool = True) -> dict[str, Any]:
    out: dict[str, Any] = {
        "id": node.id,
        "number": node.number,
        "kind": node.kind,
        "title": node.title,
        "text": node.text,
        "html": node.html,
        "version": version,
        "parent": node.parent,
        "breadcrumb": [{"id": a.id, "number": a.number, "title": a.title} for a in doc.ancestors(node.id)],
        "examples": [
            {"id": e.id, "text": e.text, "html": e.html} for e in (doc.node(x) for x in node.examples) if e
        ],
        "refs": [{"target": r.target, "text": r.text} for r in node.refs],
        "cards": [{"name": c.name, "code": c.code} for c in node.cards],
        "url": f"/id/{node.id}" + ("" if is_latest(version) else f"?v={version}"),
    }
    if children:
        out["children"] = [
            {"id": c.id, "number": c.number, "kind": c.kind, "title": c.title}
            for c in doc.children(node.id)
            if c.kind != "example"
        ]
    return out
