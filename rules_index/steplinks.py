"""In-text step references as links: "continue to (d)", "skip to (h)", "Return to (a)." name a
step of the rule's own timing structure by its letter or number. `link_steps` turns each into a
link to the step it names (resolved against the nearest enclosing structure with a child
numbered that way: 6.9.4c "(d)" -> 6.9.4d; 11.4.1f.i "(2)" -> 11.4.2).

One function for every reader: rule pages (webapp.reading) and the offline pack
(rules_index.offline), so a saved copy links the same steps as the server's pages.
"""

from __future__ import annotations

import re

from scraper import Document, Node

__all__ = ["link_steps", "resolve_step"]

# "(d)" or "(2)" after "to"/"from", outside tags: "skip to (d)", "got here from (2) or (3)".
_STEP_REF = re.compile(r"(\b(?:to|from|or|and)\s+)\(([a-z]|\d{1,2})\)(?![^<]*>)")


def resolve_step(doc: Document, node: Node, label: str) -> Node | None:
    """The step a "(d)" or "(2)" in ``node`` names, or None."""
    numbers = doc.number_index()
    parent_id = node.parent
    while parent_id:
        parent = doc.node(parent_id)
        if parent is None or not parent.number:
            return None
        number = parent.number + (label if label.isalpha() else f".{label}")
        target = numbers.get(number)
        if target is not None and target.parent == parent.id:
            return target
        parent_id = parent.parent
    return None


def link_steps(html: str, doc: Document, node: Node, version_query: str = "") -> str:
    """``html`` (the scraper's vetted subset) with its step references linked; ``version_query``
    ("?v=22.12" or "") is appended to each link."""
    if "(" not in html:
        return html

    def repl(m: re.Match) -> str:
        target = resolve_step(doc, node, m.group(2))
        if target is None or target.id == node.id:
            return m.group(0)
        href = f"/id/{target.id}{version_query}"
        return (
            f'{m.group(1)}<a class="ref step-ref" data-id="{target.id}" href="{href}" '
            f'title="{target.number}">({m.group(2)})</a>'
        )

    return _STEP_REF.sub(repl, html)
