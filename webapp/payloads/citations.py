"""Citations: how an answer names the CR rules it rests on, checkable by the reader.

A citation is one rule in one version: its printed number, its stable id, the version and that
version's effective date, the rule's verbatim text (as the CR prints it; examples are rules of
their own) and its page. Answers given outside our pages (the MCP server, webapp/mcp_server.py)
carry a list of them, so an assistant quotes the rule's own words and a reader can check them.

    citation(rules, version, rule_id, base_url)     one rule, or None when the version lacks it
    citations(rules, version, rule_ids, base_url)   several, once each, in the order given
    absolute(path, base_url)                        a page path as a URL under `base_url`
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from .context import Rules


def absolute(path: str | None, base_url: str | None) -> str | None:
    """A page path ("/id/step_jack_out_choice") under the public base URL, or None without one."""
    if not path or not base_url:
        return None
    return base_url.rstrip("/") + path


def citation(rules: Rules, version: str, rule_id: str, base_url: str | None = None) -> dict[str, Any] | None:
    """One rule of `version` as a citation; None when the version has no rule with this id."""
    doc = rules.library.document(version)
    node = doc.node(rule_id)
    if node is None:
        return None
    title = node.title or next((a.title for a in reversed(doc.ancestors(node.id)) if a.title), None)
    return {
        "id": node.id,
        "number": node.number,
        "title": title,
        "version": version,
        "effective_date": doc.effective_date,
        "text": node.text,
        "url": absolute(rules.url(node.id, version), base_url),
    }


def citations(
    rules: Rules, version: str, rule_ids: Iterable[str], base_url: str | None = None
) -> list[dict[str, Any]]:
    """Each rule once, in the order first named; ids the version lacks are left out."""
    out: list[dict[str, Any]] = []
    seen: set[str] = set()
    for rule_id in rule_ids:
        if not rule_id or rule_id in seen:
            continue
        seen.add(rule_id)
        found = citation(rules, version, rule_id, base_url)
        if found is not None:
            out.append(found)
    return out
