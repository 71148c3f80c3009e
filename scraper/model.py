"""Records produced by the scraper: one `Document` per CR version.

Everything here is plain data that round-trips through JSON exactly
(`Document.to_json()` / `Document.from_json()`).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass, field
from typing import Any, TypeVar

import orjson

T = TypeVar("T")

# Node kinds, outermost first.
CHAPTER = "chapter"
SECTION = "section"
SUBSECTION = "subsection"  # a numbered rule that is only a heading (e.g. 1.10.5 Recurring Credits)
RULE = "rule"
SUBRULE = "subrule"
STEP = "step"  # a rule or sub-rule of a timing structure (stable id starts with "step_")
EXAMPLE = "example"
TIMING_PHASE = "timing_phase"  # chapter 11 appendix, level 1 ("Draw Phase")
TIMING_STEP = "timing_step"  # chapter 11 appendix, levels 2 and 3

KINDS = (
    CHAPTER,
    SECTION,
    SUBSECTION,
    RULE,
    SUBRULE,
    STEP,
    EXAMPLE,
    TIMING_PHASE,
    TIMING_STEP,
)


@dataclass(frozen=True)
class Reference:
    """A cross reference from a node's text to another node of the same document."""

    target: str  # stable id of the referenced node
    text: str  # anchor text as printed, e.g. "rule 6.9.4c"


@dataclass(frozen=True)
class CardMention:
    name: str
    code: str | None  # NetrunnerDB code, e.g. "35074"; None when the document gives none


@dataclass
class Node:
    id: str
    kind: str
    number: str | None  # citation form: "6", "6.9", "6.9.4", "6.9.4c"; None for examples
    parent: str | None
    order: int  # 0-based position among the parent's children of any kind
    title: str | None = None
    text: str = ""
    html: str = ""
    examples: list[str] = field(default_factory=list)  # ids of this node's example nodes
    refs: list[Reference] = field(default_factory=list)
    cards: list[CardMention] = field(default_factory=list)
    terms: list[str] = field(default_factory=list)
    printed_number: str | None = None  # the number as printed (24.03+), for verification

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Node:
        d = dict(d)
        d["refs"] = [Reference(**r) for r in d.get("refs", [])]
        d["cards"] = [CardMention(**c) for c in d.get("cards", [])]
        return cls(**d)


@dataclass
class ChangeEntry:
    """One bullet of the "Summary of Changes"."""

    text: str
    html: str
    targets: list[str] = field(default_factory=list)  # stable ids the entry links to


@dataclass
class Document:
    version: str  # "26.03"
    effective_date: str | None  # ISO date, "2026-03-02"; None when the document does not state it
    source_hash: str  # sha256 of the source bytes
    source: str  # path or URL it was read from
    layout: str  # "printed" (numbers in the HTML) or "counted" (numbers computed from list order)
    changes: list[ChangeEntry] = field(default_factory=list)
    nodes: list[Node] = field(default_factory=list)  # document order
    _by_id: dict[str, Node] | None = field(default=None, repr=False, compare=False)
    _children: dict[str | None, list[Node]] | None = field(default=None, repr=False, compare=False)
    _by_number: dict[str, Node] | None = field(default=None, repr=False, compare=False)
    _by_lower_id: dict[str, Node] | None = field(default=None, repr=False, compare=False)
    # Tables other packages derive from this document alone (the engine's step tables), kept
    # with it so they live and die with the document: `derived(key, build)`.
    _derived: dict[str, object] = field(default_factory=dict, repr=False, compare=False)

    # ----- navigation -------------------------------------------------------------------------
    def node(self, node_id: str) -> Node | None:
        if self._by_id is None:
            self._by_id = {n.id: n for n in self.nodes}
        return self._by_id.get(node_id)

    def number_index(self) -> dict[str, Node]:
        """Printed number -> node (rules_index.lookup reads numbers through it)."""
        if self._by_number is None:
            self._by_number = {n.number: n for n in self.nodes if n.number}
        return self._by_number

    def lower_id_index(self) -> dict[str, Node]:
        """Lower-cased stable id -> node, for ids typed in any case."""
        if self._by_lower_id is None:
            self._by_lower_id = {n.id.lower(): n for n in self.nodes}
        return self._by_lower_id

    def derived(self, key: str, build: Callable[[Document], T]) -> T:
        """The table `key` derived from this document, built once by `build(self)` and owned by
        the document (no module-level caches keyed by documents)."""
        hit = self._derived.get(key)
        if hit is None:
            hit = self._derived[key] = build(self)
        return hit  # type: ignore[return-value]

    def __contains__(self, node_id: object) -> bool:
        return isinstance(node_id, str) and self.node(node_id) is not None

    def children(self, node_id: str | None) -> list[Node]:
        """Children of a node (or the chapters, for None) in order."""
        if self._children is None:
            kids: dict[str | None, list[Node]] = {}
            for n in self.nodes:
                kids.setdefault(n.parent, []).append(n)
            self._children = kids
        return self._children.get(node_id, [])

    def ancestors(self, node_id: str) -> list[Node]:
        """Parent chain, outermost first (excluding the node itself)."""
        chain: list[Node] = []
        node = self.node(node_id)
        while node is not None and node.parent is not None:
            node = self.node(node.parent)
            if node is not None:
                chain.append(node)
        chain.reverse()
        return chain

    def descendants(self, node_id: str) -> Iterator[Node]:
        for child in self.children(node_id):
            yield child
            yield from self.descendants(child.id)

    def chapters(self) -> list[Node]:
        return [n for n in self.nodes if n.kind == CHAPTER]

    def numbered(self) -> Iterator[Node]:
        return (n for n in self.nodes if n.number is not None)

    # ----- serialisation ----------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        return {
            "format": 1,
            "version": self.version,
            "effective_date": self.effective_date,
            "source_hash": self.source_hash,
            "source": self.source,
            "layout": self.layout,
            "changes": [asdict(c) for c in self.changes],
            "nodes": [n.to_dict() for n in self.nodes],
        }

    def to_json(self, indent: int | None = None) -> str:
        return json.dumps(self.to_dict(), ensure_ascii=False, indent=indent)

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Document:
        return cls(
            version=d["version"],
            effective_date=d.get("effective_date"),
            source_hash=d["source_hash"],
            source=d["source"],
            layout=d["layout"],
            changes=[ChangeEntry(**c) for c in d.get("changes", [])],
            nodes=[Node.from_dict(n) for n in d.get("nodes", [])],
        )

    @classmethod
    def from_json(cls, text: str) -> Document:
        # orjson parses a build's document.json (1.4 MB) in half the standard library's time;
        # what it refuses raises ValueError (orjson.JSONDecodeError), as json.loads does
        return cls.from_dict(orjson.loads(text))
