"""Payloads for rules: versions, one rule (with its neighbours, references and other versions),
references, graph neighbourhood and one rule across versions."""

from __future__ import annotations

import difflib
from typing import Any

from rules_index.graph import EDGE_KINDS
from rules_index.mapping import across_versions
from scraper import Document, Node

from ..errors import BadRequest, NotFound
from .cards import public_cards_info
from .context import Found, Rules, clip

MAX_K = 3


def crumb(node: Node) -> dict[str, Any]:
    """How one rule is named in breadcrumbs, neighbours and lists."""
    return {"id": node.id, "number": node.number, "title": node.title}


def breadcrumb(doc: Document, node_id: str) -> list[dict[str, Any]]:
    return [crumb(a) for a in doc.ancestors(node_id)]


def label(item: dict[str, Any]) -> str:
    """The name of a rule in links and titles: "6.9.4c Movement Phase", or "Example"."""
    if item.get("kind") == "example":
        return "Example"
    parts = [p for p in (item.get("number"), item.get("title")) if p]
    return " ".join(parts) if parts else item["id"]


def summary(node: Node, limit: int = 240) -> str:
    return clip(" ".join((node.text or "").split()), limit)


def versions(rules: Rules) -> dict[str, Any]:
    """The built CR versions and the latest, what card data is built beside them (or None),
    and the card or judges' build if it is damaged (`unavailable`)."""
    from rules_index.unified import unavailable_sources

    return {
        "latest": rules.latest,
        "versions": [info.to_dict() for info in rules.library.versions()],
        "cards": public_cards_info(rules),
        "unavailable": [{"source": k, "problem": p} for k, p in unavailable_sources(rules.library).items()],
    }


def node(rules: Rules, doc: Document, n: Node, version: str, children: bool = True) -> dict[str, Any]:
    """One rule's own content: text, HTML, breadcrumb, examples, citations, cards, link."""
    out: dict[str, Any] = {
        "id": n.id,
        "number": n.number,
        "kind": n.kind,
        "title": n.title,
        "text": n.text,
        "html": n.html,
        "version": version,
        "parent": n.parent,
        "breadcrumb": breadcrumb(doc, n.id),
        "examples": [
            {"id": e.id, "text": e.text, "html": e.html, "cards": [_card(c) for c in e.cards]}
            for e in (doc.node(x) for x in n.examples)
            if e
        ],
        "refs": [{"target": r.target, "text": r.text} for r in n.refs],
        "cards": [_card(c) for c in n.cards],
        "url": rules.url(n.id, version),
    }
    if children:
        out["children"] = [
            {"id": c.id, "number": c.number, "kind": c.kind, "title": c.title}
            for c in doc.children(n.id)
            if c.kind != "example"
        ]
    return out


def contents(rules: Rules, version: str | None) -> dict[str, Any]:
    """What the home page shows of a version: its chapters and its Summary of Changes, each
    change with the rules it names (``number`` None for an id the version lacks)."""
    v = rules.version(version)
    doc = rules.library.document(v)
    changes = []
    for ch in doc.changes:
        named = [(t, doc.node(t)) for t in ch.targets]
        targets = [{"id": t, "number": n.number if n else None} for t, n in named]
        changes.append({"text": ch.text, "targets": targets})
    return {"version": v, "chapters": [crumb(c) for c in doc.chapters()], "changes": changes}


def whole(rules: Rules, version: str | None) -> dict[str, Any]:
    """The whole CR of a version in reading order (the /all page): contents (chapters and their
    sections) and every rule but examples, each with its depth and its examples' HTML."""
    v = rules.version(version)
    doc = rules.library.document(v)
    toc = [
        {**crumb(c), "sections": [crumb(s) for s in doc.children(c.id) if s.kind == "section"]}
        for c in doc.chapters()
    ]
    depth: dict[str, int] = {}
    rows = []
    for n in doc.nodes:
        d = depth[n.id] = depth.get(n.parent, -1) + 1 if n.parent else 0
        if n.kind == "example":
            continue
        examples = [e.html for e in (doc.node(x) for x in n.examples) if e]
        rows.append({**crumb(n), "kind": n.kind, "depth": d, "html": n.html, "examples": examples})
    return {"version": v, "effective_date": doc.effective_date, "chapters": toc, "rules": rows}


def _card(card: Any) -> dict[str, Any]:
    return {"name": card.name, "code": card.code}


def rule(rules: Rules, found: Found, descendants: bool = False) -> dict[str, Any]:
    """Everything a rule page shows: the rule, the rules before and after it in reading order,
    what it cites and what cites it, the same id in every version, and (if asked) every rule
    below it, each with its depth."""
    doc, n, v = found.doc, found.node, found.version
    out = node(rules, doc, n, v)
    graph = rules.library.graph(v)
    out["cites"] = graph.cites(n.id)
    out["cited_by"] = graph.cited_by(n.id)
    out["across"] = across(rules, found)["versions"]
    below = _below(doc, n) if descendants or n.kind != "chapter" else []
    # `next` is the first rule after what the rule's page shows (a chapter's page lists its
    # sections, so its next is its first section).
    shown = {b.id for b, _ in below} if n.kind != "chapter" else set()
    prev_node, next_node = _neighbours(rules, found, shown)
    out["prev"] = _link(rules, prev_node, v)
    out["next"] = _link(rules, next_node, v)
    if descendants:
        out["descendants"] = [{**node(rules, doc, b, v, children=False), "depth": d} for b, d in below]
    return out


def _link(rules: Rules, n: Node | None, version: str) -> dict[str, Any] | None:
    if n is None:
        return None
    return {**crumb(n), "kind": n.kind, "url": rules.url(n.id, version)}


def _below(doc: Document, n: Node) -> list[tuple[Node, int]]:
    """Every node below a node in document order (examples too), with its depth."""
    out: list[tuple[Node, int]] = []

    def walk(parent: str, depth: int) -> None:
        for child in doc.children(parent):
            out.append((child, depth))
            walk(child.id, depth + 1)

    walk(n.id, 1)
    return out


def _neighbours(rules: Rules, found: Found, shown: set[str]) -> tuple[Node | None, Node | None]:
    """The rules before and after this one in reading order; `next` skips what is `shown`
    with it. An example's neighbour is its rule."""
    index, seq = rules.reading_order(found.version)
    i = index.get(found.node.id)
    if i is None:
        parent = found.doc.node(found.node.parent) if found.node.parent else None
        return parent, None
    j = i + 1
    while j < len(seq) and seq[j].id in shown:
        j += 1
    return (seq[i - 1] if i > 0 else None), (seq[j] if j < len(seq) else None)


def refs(rules: Rules, found: Found) -> dict[str, Any]:
    graph = rules.library.graph(found.version)
    return {
        "id": found.node.id,
        "number": found.node.number,
        "title": found.node.title,
        "version": found.version,
        "cites": graph.cites(found.node.id),
        "cited_by": graph.cited_by(found.node.id),
    }


def edge_kinds(text: str | None) -> list[str] | None:
    """Edge kinds from "cites,contains" (None: all); BadRequest names unknown ones."""
    if not text:
        return None
    kinds = [k.strip() for k in text.split(",") if k.strip()]
    unknown = sorted(set(kinds) - set(EDGE_KINDS))
    if unknown:
        raise BadRequest(f"unknown edge kind(s) {', '.join(unknown)}; choose from {', '.join(EDGE_KINDS)}")
    return kinds or None


def graph(rules: Rules, found: Found, k: int = 1, kinds: list[str] | None = None) -> dict[str, Any]:
    if not 1 <= k <= MAX_K:
        raise BadRequest(f"k must be from 1 to {MAX_K}, not {k}")
    hood = rules.library.graph(found.version).neighbourhood(found.node.id, k=k, kinds=kinds)
    return {"id": found.node.id, "version": found.version, "k": k, **hood}


def across(rules: Rules, found: Found) -> dict[str, Any]:
    """The rule in every built version, oldest first. A version that cannot be served (damaged,
    missing, stale) is listed as ``unavailable`` rather than left out or loaded."""
    rows = {row["version"]: row for row in across_versions(rules.library.summaries(), found.node.id)}
    versions = []
    for info in rules.library.versions():
        row = rows.get(info.version)
        if row is None:
            row = {"version": info.version, "present": False, "number": None, "title": None, "text": None}
            row["unavailable"] = True
        versions.append(row)
    return {"id": found.node.id, "versions": versions}


def path(rules: Rules, a: Found, b: Found, cites_only: bool = False) -> dict[str, Any]:
    """The shortest citation path from one rule to another (`path` None when there is none)."""
    kinds = ("cites",) if cites_only else ("cites", "contains")
    ids = rules.library.graph(a.version).shortest_path(a.node.id, b.node.id, kinds=kinds)
    steps = [crumb(n) for n in (a.doc.node(i) for i in ids or []) if n is not None]
    return {"version": a.version, "source": a.node.id, "target": b.node.id, "path": steps if ids else None}


def most_cited(rules: Rules, version: str | None, limit: int = 10) -> dict[str, Any]:
    v = rules.version(version)
    return {"version": v, "rules": rules.library.graph(v).most_cited(limit)}


def card_rules(rules: Rules, version: str | None, name: str) -> dict[str, Any]:
    """Rules (and their examples) that mention a card."""
    v = rules.version(version)
    return {"version": v, "card": name, "rules": rules.library.graph(v).rules_mentioning_card(name)}


MAX_TERM = 100


def term_rules(rules: Rules, version: str | None, term: str) -> dict[str, Any]:
    """A defined term: the rules that define it, each with its text and HTML (what a term's
    preview shows), and the rules whose text uses it. `nrrules term` and /api/terms/<term>."""
    words = " ".join((term or "").split())
    if not words or len(words) > MAX_TERM:
        raise BadRequest(f"a term is 1 to {MAX_TERM} characters, not {len(words)}")
    v = rules.version(version)
    found = rules.library.graph(v).rules_for_term(words)
    if not found["defines"] and not found["uses"]:
        known = [d["term"] for _, d in rules.library.graph(v).g.nodes(data=True) if d["type"] == "term"]
        near = difflib.get_close_matches(found["term"], known, n=5, cutoff=0.75)
        raise NotFound(f"no rule in CR {v} defines or uses {found['term']!r}", suggestions=near)
    doc = rules.library.document(v)
    for item in found["defines"]:
        n = doc.node(item["id"])
        if n is not None:
            item.update(text=n.text, html=n.html, breadcrumb=breadcrumb(doc, n.id), url=rules.url(n.id, v))
    return {"version": v, **found}
