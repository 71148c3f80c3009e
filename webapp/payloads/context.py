"""`Rules`: the loaded build as the payload builders see it (versions, rules, links).

One `Rules` wraps one `rules_index.store.Library`. The web app keeps one per app (see
`webapp.library`), a CLI command makes one per run. It owns the small tables derived from the
loaded documents (reading order, rule cards for engine events), so they live exactly as long as
the documents they describe and never outgrow them.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import Any

from rules_index.store import Library
from scraper import Document, Node

from ..errors import BadRequest, RuleNotFound, UnknownVersion

MAX_REF = 300


def clip(text: str, limit: int) -> str:
    """`text` cut to at most `limit` characters at a word boundary, with "…" when cut: the one
    way pages and answers shorten a rule's or card's text."""
    if len(text) <= limit:
        return text
    return text[: limit - 1].rsplit(" ", 1)[0].rstrip(",;:") + "…"


@dataclass
class Found:
    """A rule found in one version."""

    version: str
    doc: Document
    node: Node


class Rules:
    def __init__(self, library: Library):
        self.library = library
        self._lock = threading.Lock()
        # version -> (node id -> position, rules in reading order): one per built version.
        self._reading: dict[str, tuple[dict[str, int], list[Node]]] = {}
        # (version, link suffix, "cards" | "links") -> rule id -> card or link: two tables per
        # version and suffix, each at most the document's size.
        self._cards: dict[tuple[str, str, str], dict[str, dict[str, Any]]] = {}

    # ----- versions ---------------------------------------------------------------------------
    @property
    def latest(self) -> str:
        return self.library.latest

    def version_names(self) -> list[str]:
        return [info.version for info in self.library.versions()]

    def version(self, version: str | None) -> str:
        """The version a request or command names (None, "" or "latest": the latest)."""
        if version is not None and not isinstance(version, str):  # a JSON body's {"v": 5}
            raise BadRequest(f'version must be a string such as "{self.library.latest}", not {version!r}')
        if version is None or version.strip() in ("", "latest"):
            return self.library.latest
        v = version.strip().lstrip("vV")
        if not self.library.has_version(v):
            raise UnknownVersion(version, self.version_names())
        return v

    def document(self, version: str | None) -> Document:
        return self.library.document(self.version(version))

    def is_latest(self, version: str) -> bool:
        return version == self.library.latest

    # ----- links ------------------------------------------------------------------------------
    def suffix(self, version: str) -> str:
        """The query string that keeps a link in `version` ("" for the latest)."""
        return "" if self.is_latest(version) else f"?v={version}"

    def url(self, node_id: str, version: str) -> str:
        return f"/id/{node_id}{self.suffix(version)}"

    # ----- finding rules ----------------------------------------------------------------------
    def find(self, ref: str, version: str | None, with_children: bool = False) -> Found:
        """A rule by printed number, stable id or deep link, in one version."""
        v = self.version(version)
        doc = self.library.document(v)
        ref = (ref or "").strip()
        if not ref:
            raise BadRequest("no rule number or id given")
        if len(ref) > MAX_REF:
            raise BadRequest(f"rule reference is too long ({len(ref)} characters, at most {MAX_REF})")
        node = doc.node(ref)
        if node is None:
            result = self.library.lookup(ref, v)
            if not result.nodes:
                raise RuleNotFound(
                    result.error or f"no rule {ref!r} in CR {v}",
                    suggestions=result.suggestions or [],
                    version=None if self.is_latest(v) else v,
                )
            node = result.nodes[0]
        return Found(v, doc, node)

    def find_rule(self, ref: str, version: str | None) -> Found:
        """Like `find`, but an example names the rule it illustrates."""
        found = self.find(ref, version)
        node = found.node
        while node.kind == "example" and node.parent:
            parent = found.doc.node(node.parent)
            if parent is None:
                break
            node = parent
        return Found(found.version, found.doc, node)

    def find_by_id(self, node_id: str, version: str | None) -> Found:
        v = self.version(version)
        doc = self.library.document(v)
        node = doc.node(node_id)
        if node is None:
            present = [
                other
                for other, other_doc in self.library.documents().items()  # damaged ones skipped
                if other != v and other_doc.node(node_id)
            ]
            msg = f"no rule with id {node_id!r} in CR {v}"
            if present:
                msg += f" (it exists in {', '.join(present)})"
            raise RuleNotFound(msg, present_in=present, version=None if self.is_latest(v) else v)
        return Found(v, doc, node)

    # ----- tables derived from a document -----------------------------------------------------
    def reading_order(self, version: str) -> tuple[dict[str, int], list[Node]]:
        """The rules of a version in reading order (examples left out), with each one's index."""
        entry = self._reading.get(version)
        if entry is None:
            seq = [n for n in self.library.document(version).nodes if n.kind != "example"]
            entry = ({n.id: i for i, n in enumerate(seq)}, seq)
            with self._lock:
                entry = self._reading.setdefault(version, entry)
        return entry

    def card_table(self, version: str, suffix: str, kind: str = "cards") -> dict[str, dict[str, Any]]:
        """Rule cards ({id, number, title, text, url}) or links ({id, number, url}) of one
        version, filled as rules are named; shared by every answer that names them: read-only."""
        key = (version, suffix, kind)
        table = self._cards.get(key)
        if table is None:
            with self._lock:
                table = self._cards.setdefault(key, {})
        return table
