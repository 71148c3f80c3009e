"""Payload builders for judges' documents (`judge_*`) and rule history (`rule_history`,
`changes`): the pages render them, the API returns them, the CLI prints them."""

from __future__ import annotations

import re
from typing import Any

from rules_index.history import diff_html  # noqa: F401 (used by the views too)

from ..errors import BadRequest, NotFound, RuleNotFound
from .context import Rules

_PAIR = re.compile(r"^v?(\d{2}\.\d{2})\.\.v?(\d{2}\.\d{2})$")
MAX_ID = 300


def _version(rules: Rules, v: str | None) -> str:
    return rules.version(v)


def rule_link(rule_id: str, version: str, latest: str) -> str:
    """A link that names its version unless it is the latest ("latest" links move on)."""
    return f"/id/{rule_id}" + ("" if version == latest else f"?v={version}")


# ----------------------------------------------------------------------------------------------
# Judges' documents
# ----------------------------------------------------------------------------------------------


def _judge_store(rules: Rules):
    store = rules.library.judge()
    if store is None:
        raise NotFound("no judges' document is built: run `nrrules build --judge FILE|DIR|URL`")
    return store


def judge_item(rules: Rules, item_id: str) -> dict[str, Any]:
    store = _judge_store(rules)
    if not item_id or len(item_id) > MAX_ID:
        raise BadRequest("a judge item id is 1 to 300 characters")
    item = store.item(item_id)
    if item is None:
        raise NotFound(f"no judge item with id {item_id!r}")
    doc = store.document_of(item_id)
    res = store.resolved(rules.library)
    cites = []
    for c in res.refs.get(item_id, []):
        entry = dict(c)
        entry["url"] = rule_link(c["id"], c["version"], rules.library.latest) if c["id"] else None
        cites.append(entry)
    timing = None
    if item_id in res.timing:
        timing = []
        for ln in res.timing[item_id]:
            timing.append(
                {**ln, "url": rule_link(ln["id"], ln["version"], rules.library.latest) if ln["id"] else None}
            )
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


def judge_index(rules: Rules) -> list[dict[str, Any]]:
    """Every judges' document with its items, in document order, grouped under their sections:
    [{title, cr_version, sections: [{title, entries: [{id, title, url}]}]}]."""
    store = _judge_store(rules)
    out = []
    for doc in store.documents:
        sections: list[dict[str, Any]] = []
        for item in doc.items:
            path = " › ".join(s["title"] for s in store.breadcrumb(item.id)) or doc.title
            if not sections or sections[-1]["title"] != path:
                sections.append({"title": path, "entries": []})
            sections[-1]["entries"].append({"id": item.id, "title": item.title, "url": f"/j/{item.id}"})
        out.append({"title": doc.title, "cr_version": doc.cr_version, "sections": sections})
    return out


def judge_search(rules: Rules, query: str, limit: int = 10) -> list[dict[str, Any]]:
    store = rules.library.judge()
    if store is None:
        return []
    out = []
    for hit in store.search(query, limit=limit):
        d = hit.to_dict()
        d["url"] = f"/j/{hit.id}"
        out.append(d)
    return out


def judge_citing(rules: Rules, rule_id: str) -> list[dict[str, Any]]:
    """Judge items citing a rule, for its page."""
    store = rules.library.judge()
    if store is None:
        return []
    return [
        {"id": i.id, "title": i.title, "section": store.breadcrumb(i.id), "url": f"/j/{i.id}"}
        for i in store.citing(rule_id, rules.library)
    ]


# ----------------------------------------------------------------------------------------------
# History and changes
# ----------------------------------------------------------------------------------------------


def rule_history(rules: Rules, ref: str, version: str | None = None) -> dict[str, Any]:
    """A rule's versions, numbers and diffs; ``ref`` is a number (in ``version``), an id or a link."""
    v = _version(rules, version)
    ref = (ref or "").strip()
    if not ref or len(ref) > MAX_ID:
        raise BadRequest("give a rule number or stable id (at most 300 characters)")
    node_id = ref if any(d.node(ref) for d in rules.library.documents().values()) else None
    if node_id is None:
        found = rules.library.lookup(ref, v)
        if found.node is None:
            raise RuleNotFound(found.error or f"no rule {ref!r} in CR {v}", suggestions=found.suggestions)
        node_id = found.node.id
    h = rules.library.history().history(node_id)
    if h is None:
        raise NotFound(f"no rule with id {node_id!r} in any built version")
    for step in h["changes"]:
        step["diff_html"] = diff_html(step["diff"]) if step["diff"] else None
    for entry in h["versions"]:
        entry["url"] = (
            rule_link(node_id, entry["version"], rules.library.latest) if entry["present"] else None
        )
    return h


def parse_pair(text: str) -> tuple[str, str]:
    m = _PAIR.match((text or "").strip())
    if not m:
        raise BadRequest(f"name two versions as OLD..NEW, like 25.08..26.03 (not {text[:40]!r})")
    return m.group(1), m.group(2)


def changes(rules: Rules, old: str, new: str) -> dict[str, Any]:
    old, new = _version(rules, old), _version(rules, new)
    if old == new:
        raise BadRequest(f"name two different versions (both are {old})")
    data = rules.library.history().changes(old, new)
    latest = rules.library.latest
    sections = []
    for sec in data["sections"]:
        rows = []
        for r in sec["rules"]:
            row = dict(r)
            present = "removed" not in r["change"]
            row["url"] = rule_link(r["id"], new if present else old, latest)
            if "diff" in r:
                row["diff_html"] = diff_html(r["diff"])
            rows.append(row)
        sections.append({**sec, "rules": rows})
    summary = []
    for s in data["summary"]:
        targets = [{**t, "url": _changed_link(t, old, new, latest)} for t in s["targets"]]
        summary.append({**s, "targets": targets})
    unmentioned = [
        {**u, "url": _changed_link(u, old, new, latest), "anchor": f"c-{u['id']}"}
        for u in data["unmentioned"]
    ]
    return {
        **data,
        "sections": sections,
        "chapters": _chapters(rules, sections, old, new),
        "summary": summary,
        "unmentioned": unmentioned,
        "url": f"/changes/{old}..{new}",
    }


def _changed_link(row: dict[str, Any], old: str, new: str, latest: str) -> str | None:
    """A changed rule's page: in the newer version, or in the older one when it was removed."""
    if row.get("number"):
        return rule_link(row["id"], new, latest)
    if row.get("old_number"):
        return rule_link(row["id"], old, latest)
    return None


def _chapters(rules: Rules, sections: list[dict[str, Any]], old: str, new: str) -> list[dict[str, Any]]:
    """The changed sections grouped by chapter (the first part of their number), for the page's
    jump list and its collapsible chapters: [{number, title, anchor, count, sections}]."""
    titles: dict[str, str] = {}
    for v in (old, new):  # the newer version's title wins
        for node in rules.library.document(v).nodes:
            if node.kind == "chapter" and node.number:
                titles[node.number.rstrip(".")] = node.title or ""
    out: list[dict[str, Any]] = []
    for sec in sections:
        number = (sec.get("number") or "").split(".")[0] or "other"
        if not out or out[-1]["number"] != number:
            out.append(
                {
                    "number": number,
                    "title": titles.get(number, ""),
                    "anchor": f"ch-{number}",
                    "count": 0,
                    "sections": [],
                }
            )
        out[-1]["sections"].append(sec)
        out[-1]["count"] += len(sec["rules"])
    return out
