"""Reading aids for rule pages. `rule_aids` gathers a page's aids for its template as plain
strings and dicts (the template renders payloads, never document objects):

* ``step_links``: in-text step references ("continue to (d)", "go to (2)", "Return to (a).")
  become links to the step they name, resolved against the rule's own timing structure;
* ``cr_case`` (also a Jinja filter): a rule whose text opens with a lowercase defined term
  ("meat damage and net damage are resolved...") is shown with a capital, as a sentence start
  (the term's own text, and the stored rule text, are left as the CR prints them);
* ``rule_context``: a sub-rule's parent and its siblings (the page highlights the current one);
* ``ref_label``: what a bare number in "Cites"/"Cited by" is about (its title, or the start of
  its text).

Jinja globals (`install`): ``versioned_url``, a link to a rule that names its CR version, for
citations; ``nearest_numbers``, the "Did you mean" of the search page.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from flask import Flask, url_for
from markupsafe import Markup

from rules_index.steplinks import link_steps
from scraper import Document, Node

from .library import rules
from .payloads.context import clip

_LEADING_TERM = re.compile(r'^(<span class="term">)([a-z])')
_CONTEXT_KINDS = ("subrule", "step", "timing_step")


def step_links(html: str, doc: Document, node: Node, version_query: str = "") -> Markup:
    # The scraper's vetted HTML with links added for references it already names.
    return Markup(link_steps(str(html), doc, node, version_query))  # noqa: S704


def cr_case(html: Any) -> Markup:
    text = str(html)
    text = _LEADING_TERM.sub(lambda m: m.group(1) + m.group(2).upper(), text, count=1)
    return Markup(text)  # noqa: S704 - only a letter's case changes


def rule_context(doc: Document, node: Node) -> dict | None:
    """A sub-rule's or step's parent and siblings, or None for other kinds."""
    if node.kind not in _CONTEXT_KINDS or not node.parent:
        return None
    parent = doc.node(node.parent)
    if parent is None or parent.kind in ("chapter", "section"):
        return None
    siblings = [c for c in doc.children(parent.id) if c.kind != "example"]
    return {"parent": parent, "siblings": siblings}


def ref_label(doc: Document, node_id: str, limit: int = 90) -> str:
    node = doc.node(node_id)
    if node is None:
        return ""
    if node.title:
        return node.title
    text = " ".join((node.text or "").split())
    if node.html and _LEADING_TERM.match(node.html):  # a sentence start, as cr_case shows it
        text = text[:1].upper() + text[1:]
    return clip(text, limit)


def rule_aids(
    doc: Document, node: Node, below: list[str], refs: list[str], body: Callable[[Node], Markup]
) -> dict[str, Any]:
    """The reading aids of one rule page, as the template renders them (strings and dicts, no
    document objects): ``html``, each shown rule's HTML through `body` (step links, sentence
    case) by id; ``context``, the parent and siblings of a sub-rule or step (None otherwise);
    ``labels``, what each cited or citing rule is about, by id."""
    html = {node.id: body(node)}
    for node_id in below:
        n = doc.node(node_id)
        if n is not None:
            html[n.id] = body(n)
    context = None
    ctx = rule_context(doc, node)
    if ctx is not None:
        parent = ctx["parent"]
        if parent.html:
            html[parent.id] = body(parent)
        context = {
            "parent": {"id": parent.id, "number": parent.number, "title": parent.title, "html": parent.html},
            "siblings": [
                {"id": sb.id, "number": sb.number, "label": ref_label(doc, sb.id, 70)}
                for sb in ctx["siblings"]
            ],
        }
    return {"html": html, "context": context, "labels": {i: ref_label(doc, i) for i in refs}}


def versioned_url(node_id: str, version: str) -> str:
    return url_for("pages.by_id", node_id=node_id, v=version, _external=True)


def nearest_numbers(query: str, version: str) -> list[str]:
    """For a query that is a rule number the version lacks (6.9.4z): its nearest rules, as
    the rule page's "Did you mean" offers them."""
    result = rules().library.lookup(query, version)
    if result.nodes or result.ref is None or result.ref.kind != "number":
        return []
    return list(result.suggestions)


def install(app: Flask) -> None:
    app.jinja_env.filters["cr_case"] = cr_case
    app.jinja_env.globals.update(versioned_url=versioned_url, nearest_numbers=nearest_numbers)
