"""The search payload: ranked hits for a query in one version (a number or id names its rule
first, then the rules citing it), each with a link to its page."""

from __future__ import annotations

from typing import Any

from ..errors import BadRequest
from .context import Rules

MAX_QUERY = 200
MAX_LIMIT = 50


def check_query(q: str | None) -> str:
    """The query as searched; BadRequest when it is empty or too long."""
    q = (q or "").strip()
    if not q:
        raise BadRequest("q is required: words, a rule number, an id or a card name")
    if len(q) > MAX_QUERY:
        raise BadRequest(f"q is too long ({len(q)} characters, at most {MAX_QUERY})")
    return q


def search(rules: Rules, q: str, version: str | None = None, limit: int = 10) -> dict[str, Any]:
    q = check_query(q)
    if not 1 <= limit <= MAX_LIMIT:
        raise BadRequest(f"limit must be from 1 to {MAX_LIMIT}, not {limit}")
    v = rules.version(version)
    results = []
    for hit in rules.library.searcher(v).search(q, limit=limit):
        item = hit.to_dict()
        item["url"] = rules.url(hit.id, v)
        results.append(item)
    return {"query": q, "version": v, "results": results}
