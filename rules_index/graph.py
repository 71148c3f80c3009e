"""The rule graph of one CR version (networkx, built on first use).

Nodes are keyed by stable id:

* every numbered rule node (chapters down to sub-rules and timing steps), ``type="rule"``;
  examples are folded into their rule (their citations, cards and terms count as the rule's);
* every card mentioned, ``card:<name lowercased>``, ``type="card"``;
* every defined term, ``term:<term>``, ``type="term"``.

Edges carry a ``kind`` (also the edge key of the MultiDiGraph, so two rules can be linked by
both ``contains`` and ``cites``): ``contains`` (parent to child), ``cites`` (rule to the rule it
references, with the anchor ``text``), ``mentions`` (rule to card), ``defines`` (rule to term),
``next`` (reading order).

What a rule page and `nrrules rule` ask (`cites`, `cited_by`, `resolve`) is answered from the
graph's own adjacency, kept in plain dicts in networkx's layout and order; the networkx graph
(`RuleGraph.g`, for neighbourhoods, paths and the rest) is built from them on first use, so a
rule lookup does not import networkx.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import cached_property
from typing import TYPE_CHECKING, Any

from scraper import Document, Node

from .lookup import lookup

if TYPE_CHECKING:
    import networkx as nx

__all__ = ["RuleGraph", "EDGE_KINDS", "card_key", "term_key"]

EDGE_KINDS = ("contains", "cites", "mentions", "defines", "next")
MAX_NEIGHBOURHOOD = 400


def card_key(name: str) -> str:
    return "card:" + " ".join(name.split()).lower()


_WORD = re.compile(r"[\w-]+")  # a word as the term pattern bounds it: (?<![\w-]) ... (?![\w-])


def term_key(term: str) -> str:
    return "term:" + " ".join(term.split()).lower()


def _label(node: Node) -> str:
    text = node.title or node.text
    if len(text) > 70:
        text = text[:67].rstrip() + "..."
    return f"{node.number} {text}".strip() if node.number else text


class RuleGraph:
    def __init__(self, doc: Document) -> None:
        self.doc = doc
        # node -> attributes, and node -> neighbour -> edge key -> edge data both ways, in
        # insertion order: a MultiDiGraph's own layout (`g` is made from them)
        self._nodes: dict[str, dict[str, Any]] = {}
        self._succ: dict[str, dict[str, dict[str, dict[str, Any]]]] = {}
        self._pred: dict[str, dict[str, dict[str, dict[str, Any]]]] = {}
        self._edges: list[tuple[str, str, str]] = []  # (u, v, key) as added
        self._folded: dict[str, list[Node]] = {}  # rule id -> [rule, its examples...]
        self._build()

    @cached_property
    def g(self) -> nx.MultiDiGraph:
        """The graph as networkx's MultiDiGraph (a DiGraph; keying edges by kind keeps parallel
        edges of different kinds), with the same nodes, edges and order as the plain dicts."""
        import networkx as nx

        g = nx.MultiDiGraph(version=self.doc.version)
        g.add_nodes_from(self._nodes.items())
        g.add_edges_from((u, v, key, self._succ[u][v][key]) for u, v, key in self._edges)
        return g

    def _add_node(self, node_id: str, **attrs: Any) -> None:
        self._nodes.setdefault(node_id, {}).update(attrs)
        self._succ.setdefault(node_id, {})
        self._pred.setdefault(node_id, {})

    def _add_edge(self, u: str, v: str, key: str, **data: Any) -> None:
        for n in (u, v):
            if n not in self._nodes:
                self._add_node(n)
        self._succ[u].setdefault(v, {})[key] = self._pred[v].setdefault(u, {})[key] = data
        self._edges.append((u, v, key))

    def _has_edge(self, u: str, v: str, key: str) -> bool:
        return key in self._succ.get(u, {}).get(v, {})

    # ----- construction ----------------------------------------------------------------------
    def _rule_of(self, node: Node) -> Node:
        """The rule an example belongs to (examples are folded into their rule)."""
        while node.kind == "example" and node.parent is not None:
            parent = self.doc.node(node.parent)
            if parent is None:
                break
            node = parent
        return node

    def _build(self) -> None:
        doc = self.doc
        previous: str | None = None
        for node in doc.nodes:
            if node.kind == "example":
                continue
            self._add_node(
                node.id,
                type="rule",
                kind=node.kind,
                number=node.number,
                title=node.title,
                label=_label(node),
                order=len(self._folded),
            )
            self._folded[node.id] = [node]
            if node.parent is not None and node.parent in doc:
                self._add_edge(node.parent, node.id, "contains", kind="contains")
            if previous is not None:
                self._add_edge(previous, node.id, "next", kind="next")
            previous = node.id
        for node in doc.nodes:
            if node.kind == "example":
                owner = self._rule_of(node)
                if owner.id in self._folded:
                    self._folded[owner.id].append(node)
        for rule_id, parts in self._folded.items():
            for part in parts:
                for ref in part.refs:
                    target = self._rule_of(doc.node(ref.target)).id if ref.target in doc else None
                    if target is None or target not in self._nodes:
                        continue
                    if not self._has_edge(rule_id, target, "cites"):
                        self._add_edge(
                            rule_id, target, "cites", kind="cites", text=ref.text, texts=[ref.text]
                        )
                    elif ref.text not in self._succ[rule_id][target]["cites"]["texts"]:
                        self._succ[rule_id][target]["cites"]["texts"].append(ref.text)
                for card in part.cards:
                    key = card_key(card.name)
                    if key not in self._nodes:
                        self._add_node(key, type="card", label=card.name, name=card.name, code=card.code)
                    elif card.code and not self._nodes[key].get("code"):
                        self._nodes[key]["code"] = card.code
                    self._add_edge(rule_id, key, "mentions", kind="mentions")
                for term in part.terms:
                    key = term_key(term)
                    if key not in self._nodes:
                        self._add_node(key, type="term", label=term, term=term)
                    self._add_edge(rule_id, key, "defines", kind="defines")

    # ----- helpers ---------------------------------------------------------------------------
    def resolve(self, ref: str) -> str | None:
        """A graph node id from a stable id, number, deep link, ``card:``/``term:`` key."""
        if not isinstance(ref, str):
            return None
        ref = ref.strip()
        if ref in self._nodes:
            return ref
        node = lookup(self.doc, ref).node
        if node is None:
            return None
        return self._rule_of(node).id

    def _rule_dict(self, node_id: str, **extra) -> dict:
        data = self._nodes[node_id]
        return {"id": node_id, "number": data.get("number"), "title": data.get("title"), **extra}

    def _require(self, ref: str) -> str:
        node_id = self.resolve(ref)
        if node_id is None:
            raise KeyError(f"no rule {ref!r} in CR {self.doc.version}")
        return node_id

    def rule_text(self, rule_id: str) -> str:
        """A rule's text with its examples folded in."""
        return "\n".join(p.text for p in self._folded.get(rule_id, []))

    # ----- queries ---------------------------------------------------------------------------
    def cites(self, ref: str) -> list[dict]:
        """Rules this rule (with its examples) cites, in graph order, with the anchor text."""
        node_id = self._require(ref)
        return [
            self._rule_dict(target, text=keyed["cites"]["text"])
            for target, keyed in self._succ[node_id].items()
            if "cites" in keyed
        ]

    def cited_by(self, ref: str) -> list[dict]:
        """Backlinks: rules that cite this one, with the anchor text they use."""
        node_id = self._require(ref)
        out = [
            self._rule_dict(source, text=keyed["cites"]["text"])
            for source, keyed in self._pred[node_id].items()
            if "cites" in keyed
        ]
        out.sort(key=lambda d: self._nodes[d["id"]]["order"])
        return out

    def neighbourhood(self, ref: str, k: int = 1, kinds: Iterable[str] | None = None) -> dict:
        """Nodes within k hops (either direction) over edges of the given kinds, as JSON-ready
        ``{"nodes": [...], "links": [...]}`` for a force-directed front end."""
        node_id = self._require(ref)
        allowed = set(EDGE_KINDS if kinds is None else kinds)
        unknown = allowed - set(EDGE_KINDS)
        if unknown:
            raise ValueError(f"unknown edge kinds: {', '.join(sorted(unknown))}")
        k = max(0, min(int(k), 5))
        seen = {node_id: 0}
        frontier = [node_id]
        for depth in range(1, k + 1):
            nxt: list[str] = []
            for current in frontier:
                edges = list(self.g.out_edges(current, keys=True)) + list(self.g.in_edges(current, keys=True))
                for u, v, key in edges:
                    if key not in allowed:
                        continue
                    other = v if u == current else u
                    if other not in seen and len(seen) < MAX_NEIGHBOURHOOD:
                        seen[other] = depth
                        nxt.append(other)
            frontier = nxt
        nodes = []
        for nid, depth in seen.items():
            data = self.g.nodes[nid]
            nodes.append(
                {
                    "id": nid,
                    "label": data["label"],
                    "type": data["type"],
                    "number": data.get("number"),
                    "depth": depth,
                }
            )
        links = [
            {"source": u, "target": v, "kind": key}
            for u, v, key in self.g.subgraph(seen).edges(keys=True)
            if key in allowed
        ]
        return {"nodes": nodes, "links": links}

    def shortest_path(self, a: str, b: str, kinds: Iterable[str] = ("cites", "contains")) -> list[str] | None:
        """Shortest chain from rule a to rule b (stable ids), following edges forward.

        By default a chain follows citations and, because most citations name a whole section
        ("see section 10.4"), descends from a cited section or rule into its parts. Pass
        ``kinds=("cites",)`` for citations only. None if there is no such chain."""
        source, target = self.resolve(a), self.resolve(b)
        if source is None or target is None:
            return None
        import networkx as nx

        allowed = set(kinds)
        view = nx.subgraph_view(self.g, filter_edge=lambda u, v, key: key in allowed)
        try:
            return nx.shortest_path(view, source, target)
        except nx.NetworkXNoPath:
            return None

    def most_cited(self, n: int = 10) -> list[dict]:
        """Rules cited by the most distinct rules, most first (ties in reading order)."""
        counts = []
        for node_id, data in self.g.nodes(data=True):
            if data["type"] != "rule":
                continue
            count = sum(1 for _, _, key in self.g.in_edges(node_id, keys=True) if key == "cites")
            if count:
                counts.append((-count, data["order"], node_id, count))
        counts.sort()
        return [self._rule_dict(node_id, count=count) for _, _, node_id, count in counts[: max(0, n)]]

    def rules_mentioning_card(self, name: str) -> list[dict]:
        """Rules (with their examples) that mention a card, by exact name (case-insensitive),
        falling back to every card whose name contains the text."""
        key = card_key(name or "")
        keys = [key] if key in self.g else []
        needle = key[len("card:") :]
        if not keys and len(needle) >= 3:
            keys = [
                n for n, d in self.g.nodes(data=True) if d["type"] == "card" and needle in n[len("card:") :]
            ]
        rules: dict[str, dict] = {}
        for key in keys:
            for source, _, kind in self.g.in_edges(key, keys=True):
                if kind == "mentions":
                    rules.setdefault(source, self._rule_dict(source, card=self.g.nodes[key]["name"]))
        return sorted(rules.values(), key=lambda d: self.g.nodes[d["id"]]["order"])

    def cards(self) -> list[dict]:
        return sorted(
            (
                {"name": d["name"], "code": d.get("code")}
                for _, d in self.g.nodes(data=True)
                if d["type"] == "card"
            ),
            key=lambda c: c["name"].lower(),
        )

    def rules_for_term(self, term: str) -> dict:
        """Rules that define a term and rules whose text (or examples) use it as words."""
        key = term_key(term or "")
        defines: list[dict] = []
        if key in self.g:
            defines = [
                self._rule_dict(source)
                for source, _, kind in self.g.in_edges(key, keys=True)
                if kind == "defines"
            ]
            defines.sort(key=lambda d: self.g.nodes[d["id"]]["order"])
        words = key[len("term:") :]
        uses: list[dict] = []
        if words:
            pattern = re.compile(r"(?<![\w-])" + re.escape(words).replace(r"\ ", r"\s+") + r"(?![\w-])", re.I)
            defining = {d["id"] for d in defines}
            texts, rules_with = self._word_index()
            # Only rules holding the term's first word can match (the pattern is slow).
            first = _WORD.match(words)
            candidates = rules_with.get(first.group(0), set()) if first else texts.keys()
            for rule_id, text in texts.items():
                if rule_id in candidates and rule_id not in defining and pattern.search(text):
                    uses.append(self._rule_dict(rule_id))
        return {"term": words, "defines": defines, "uses": uses}

    def _word_index(self) -> tuple[dict[str, str], dict[str, set[str]]]:
        """Every rule's text with its examples folded in, lowercased, in reading order, and
        word -> the rules holding it (built once; a word is a run the term pattern cannot
        start inside, so a rule using a term holds the term's first word)."""
        index = getattr(self, "_words", None)
        if index is None:
            texts = {rule_id: self.rule_text(rule_id).lower() for rule_id in self._folded}
            rules_with: dict[str, set[str]] = {}
            for rule_id, text in texts.items():
                for word in set(_WORD.findall(text)):
                    rules_with.setdefault(word, set()).add(rule_id)
            index = self._words = (texts, rules_with)
        return index
