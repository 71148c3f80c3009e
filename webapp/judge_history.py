"""Payload builders for judges' documents and rule history: one JSON-ready answer each, which
the pages render, the API returns and the CLI prints, so the three cannot drift apart.

Domain errors are `WebError`s (404 / 400 with a clear message); the CLI turns them into one
``error:`` line.
"""

from __future__ import annotations

import re
from typing import Any

from rules_index.history import diff_html  # noqa: F401 (used by the views too)
from rules_index.store import Library

from .library import WebError

_PAIR = re.compile(r"^v?(\d{2}\.\d{2})\.\.v?(\d{2}\.\d{2})$")
MAX_ID = 300


def _version(lib: Library, v: str | None) -> str:
    names = [i.version for i in lib.versions()]
    if v is None or v in ("", "latest"):
        return lib.latest
    v = v.strip().lstrip("vV")
    if v not in names:
        raise WebError(
            404, f"CR version {v!r} is not built; built versions: {', '.join(names)}", versions=names
        )
    return v


def rule_link(rule_id: str, version: str, latest: str) -> str:
    """A link that names its version unless it is the latest ("latest" links move on)."""
    return f"/id/{rule_id}" + ("" if version == latest else f"?v={version}")


# ----------------------------------------------------------------------------------------------
# Judges' documents
# ----------------------------------------------------------------------------------------------


def _judge_store(lib: Library):
    store = lib.judge()
    if store is None:
        raise WebError(404, "no judges' document is built: run `nrrules build --judge FILE|DIR|URL`")
    return store


def judge_item(lib: Library, item_id: str) -> dict[str, Any]:
    store = _judge_store(lib)
    if not item_id or len(item_id) > MAX_ID:
        raise WebError(400, "a judge item id is 1 to 300 characters")
    item = store.item(item_id)
    if item is None:
        raise WebError(404, f"no judge item with id {item_id!r}")
    doc = store.document_of(item_id)
    res = store.resolved(lib)
    cites = []
    for c in res.refs.get(item_id, []):
        entry = dict(c)
        entry["url"] = rule_link(c["id"], c["version"], lib.latest) if c["id"] else None
        cites.append(entry)
    timing = None
    if item_id in res.timing:
        timing = []
        for ln in res.timing[item_id]:
            timing.append({**ln, "url": rule_link(ln["id"], ln["version"], lib.latest) if ln["id"] else None})
    return {
        "id": item.id,
        "source": "judge",
        "kind": item.kind,
        "title": item.title,
        "question": item.question,
        "answer": item.answer,
        "text": item.text,
        "html": item.html,
        "lines": [{"label": ln.label, "depth": ln.depth, "text": ln.text} for ln in item.lines],
        "section": store.breadcrumb(item_id),
        "document": {"title": doc.title, "cr_version": doc.cr_version, "generator": doc.generator},
        "cites": cites,
        "timing": timing,
        "cards": item.cards,
        "url": f"/j/{item.id}",
    }


def judge_search(lib: Library, query: str, limit: int = 10) -> list[dict[str, Any]]:
    store = lib.judge()
    if store is None:
        return []
    out = []
    for hit in store.search(query, limit=limit):
        d = hit.to_dict()
        d["url"] = f"/j/{hit.id}"
        out.append(d)
    return out


def judge_citing(lib: Library, rule_id: str) -> list[dict[str, Any]]:
    """Judge items citing a rule, for its page."""
    store = lib.judge()
    if store is None:
        return []
    return [
        {"id": i.id, "title": i.title, "section": store.breadcrumb(i.id), "url": f"/j/{i.id}"}
        for i in store.citing(rule_id, lib)
    ]


# ----------------------------------------------------------------------------------------------
# History and changes
# ----------------------------------------------------------------------------------------------


def rule_history(lib: Library, ref: str, version: str | None = None) -> dict[str, Any]:
    """A rule's versions, numbers and diffs; ``ref`` is a number (in ``version``), an id or a link."""
    v = _version(lib, version)
    ref = (ref or "").strip()
    if not ref or len(ref) > MAX_ID:
        raise WebError(400, "give a rule number or stable id (at most 300 characters)")
    node_id = ref if any(d.node(ref) for d in lib.documents().values()) else None
    if node_id is None:
        found = lib.lookup(ref, v)
        if found.node is None:
            raise WebError(
                404, found.error or f"no rule {ref!r} in CR {v}", suggestions=list(found.suggestions)
            )
        node_id = found.node.id
    h = lib.history().history(node_id)
    if h is None:
        raise WebError(404, f"no rule with id {node_id!r} in any built version")
    for step in h["changes"]:
        step["diff_html"] = diff_html(step["diff"]) if step["diff"] else None
    for entry in h["versions"]:
        entry["url"] = rule_link(node_id, entry["version"], lib.latest) if entry["present"] else None
    return h


def parse_pair(text: str) -> tuple[str, str]:
    m = _PAIR.match((text or "").strip())
    if not m:
        raise WebError(400, f"name two versions as OLD..NEW, like 25.08..26.03 (not {text[:40]!r})")
    return m.group(1), m.group(2)


def changes(lib: Library, old: str, new: str) -> dict[str, Any]:
    old, new = _version(lib, old), _version(lib, new)
    if old == new:
        raise WebError(400, f"name two different versions (both are {old})")
    data = lib.history().changes(old, new)
    latest = lib.latest
    sections = []
    for sec in data["sections"]:
        rules = []
        for r in sec["rules"]:
            row = dict(r)
            present = "removed" not in r["change"]
            row["url"] = rule_link(r["id"], new if present else old, latest)
            if "diff" in r:
                row["diff_html"] = diff_html(r["diff"])
            rules.append(row)
        sections.append({**sec, "rules": rules})
    summary = []
    for s in data["summary"]:
        targets = [
            {**t, "url": rule_link(t["id"], new, latest) if t["number"] else None} for t in s["targets"]
        ]
        summary.append({**s, "targets": targets})
    return {**data, "sections": sections, "summary": summary, "url": f"/changes/{old}..{new}"}
