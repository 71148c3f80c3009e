"""HTML pages: home and search, rule pages (by number, id and official deep link), whole CR."""

from __future__ import annotations

import hashlib
import re
from typing import Any

from flask import Blueprint, Response, current_app, redirect, render_template, request, url_for
from markupsafe import Markup

from scraper import Document, Node

from .. import library as lib
from ..httputil import LRU, PAGE_MAX_AGE, asset_revision, cached_response, entry_bytes, gzip_bytes, static_url
from ..library import Found, WebError

bp = Blueprint("pages", __name__)

_STABLE_ID = re.compile(r"^[A-Za-z][A-Za-z0-9_.+&-]{0,199}$")
_HREF_ID = re.compile(r'href="/id/([^"?#]+)"')
MAX_QUERY = 200


def _page_cache() -> LRU:
    cache = current_app.extensions.get("nrrules.page_cache")
    if cache is None:
        cache = current_app.extensions["nrrules.page_cache"] = LRU(
            current_app.config["PAGE_CACHE_SIZE"], current_app.config["PAGE_CACHE_BYTES"], entry_bytes
        )
    return cache


def vq(version: str) -> dict[str, str]:
    """The ``v`` query argument for links: omitted for the latest version."""
    return {} if lib.is_latest(version) else {"v": version}


def rule_url(node_id: str, version: str, external: bool = False) -> str:
    return url_for("pages.by_id", node_id=node_id, _external=external, **vq(version))


def rule_html(node: Node, version: str) -> Markup:
    """The scraper's safe HTML subset, with internal links pointing at the same version."""
    html = node.html or ""
    if not lib.is_latest(version):
        html = _HREF_ID.sub(lambda m: f'href="/id/{m.group(1)}?v={version}"', html)
    # The scraper emits only a vetted subset of HTML (links, symbols, terms): safe to insert.
    return Markup(html)  # noqa: S704


def _subtree(doc: Document, node: Node) -> list[tuple[Node, int]]:
    """What a page shows below its heading: a chapter lists its sections, anything else shows
    all its rules (with examples rendered under their rule)."""
    out: list[tuple[Node, int]] = []

    def walk(parent: str, depth: int) -> None:
        for child in doc.children(parent):
            if child.kind == "example":
                continue
            out.append((child, depth))
            walk(child.id, depth + 1)

    if node.kind == "chapter":
        out = [(c, 1) for c in doc.children(node.id) if c.kind != "example"]
    else:
        walk(node.id, 1)
    return out


def _reading_neighbours(doc: Document, node: Node) -> tuple[Node | None, Node | None]:
    order = current_app.extensions.setdefault("nrrules.reading_order", {})
    key = (doc.version, doc.source_hash)
    if key not in order:
        seq = [n for n in doc.nodes if n.kind != "example"]
        order[key] = ({n.id: i for i, n in enumerate(seq)}, seq)
    index, seq = order[key]
    i = index.get(node.id)
    if i is None:  # an example: its neighbours are its rule's
        parent = doc.node(node.parent) if node.parent else None
        return (parent, None) if parent else (None, None)
    prev_node = seq[i - 1] if i > 0 else None
    # Skip past what this page already shows.
    shown = {n.id for n, _ in _subtree(doc, node)} if node.kind != "chapter" else set()
    j = i + 1
    while j < len(seq) and seq[j].id in shown:
        j += 1
    return prev_node, seq[j] if j < len(seq) else None


def _cards(doc: Document, node: Node, subtree: list[tuple[Node, int]]) -> list[dict[str, Any]]:
    seen: dict[str, dict[str, Any]] = {}
    nodes = [node] + [n for n, _ in subtree]
    for n in nodes:
        for ex_id in [n.id, *n.examples]:
            part = doc.node(ex_id)
            if part is None:
                continue
            for c in part.cards:
                seen.setdefault(c.name.lower(), {"name": c.name, "code": c.code})
    return sorted(seen.values(), key=lambda c: c["name"].lower())


def _across(node_id: str) -> list[dict[str, Any]]:
    from rules_index.mapping import across_versions

    return across_versions(lib.library().documents(), node_id)


def _rule_etag(found: Found) -> str:
    raw = f"{lib.build_id()}|{asset_revision(current_app)}|{found.version}|{found.node.id}|{request.host_url}"
    return hashlib.sha256(raw.encode()).hexdigest()[:24]


def _render_rule(found: Found) -> str:
    doc, node, v = found.doc, found.node, found.version
    graph = lib.library().graph(v)
    subtree = _subtree(doc, node)
    prev_node, next_node = _reading_neighbours(doc, node)
    try:
        cites = graph.cites(node.id)
        cited_by = graph.cited_by(node.id)
    except KeyError:
        cites, cited_by = [], []
    examples = [e for e in (doc.node(x) for x in node.examples) if e]
    description = lib.summary(node, 200) or lib.label(node)
    context = node.title or next((a.title for a in reversed(doc.ancestors(node.id)) if a.title), "")
    number = node.number or "example"
    title = (
        f"CR {number} {context}".strip()
        if node.title
        else f"CR {number} ({context})"
        if context
        else f"CR {number}"
    )
    if not lib.is_latest(v):
        title += f" · CR {v}"
    return render_template(
        "rule.html",
        og_type="article",
        doc=doc,
        node=node,
        version=v,
        latest=lib.library().latest,
        is_latest=lib.is_latest(v),
        crumbs=doc.ancestors(node.id),
        subtree=subtree,
        examples=examples,
        prev_node=prev_node,
        next_node=next_node,
        cites=cites,
        cited_by=cited_by,
        cards=_cards(doc, node, subtree),
        across=_across(node.id),
        title=title,
        description=description,
        canonical=rule_url(node.id, v, external=True),
        rule_html=lambda n: rule_html(n, v),
        rule_url=lambda nid, ver=v: rule_url(nid, ver),
        label=lib.label,
        vq=vq(v),
        cy_url=static_url("vendor/cytoscape-3.34.4.min.js"),
    )


def _rule_response(found: Found) -> Response:
    etag = _rule_etag(found)
    cache = _page_cache()
    key = (found.version, found.node.id, request.host_url)
    entry = cache.get(key)
    if entry is None or entry[0] != etag:
        if request.if_none_match.contains(etag):
            return cached_response(b"", None, etag, "text/html", PAGE_MAX_AGE)
        body = _render_rule(found).encode("utf-8")
        entry = (etag, body, gzip_bytes(body))
        cache.put(key, entry)
    return cached_response(entry[1], entry[2], etag, "text/html", PAGE_MAX_AGE)


# ----------------------------------------------------------------------------------------------


@bp.get("/")
def home():
    official = request.args.get("r")
    if official:  # the official site's deep-link form: /?r=<stable id>
        if not _STABLE_ID.match(official.strip()):
            raise WebError(404, f"{official[:100]!r} is not a CR stable id (like step_jack_out_choice)")
        return redirect(url_for("pages.by_id", node_id=official.strip(), **_v_arg()), code=302)
    if request.args.get("q"):
        return search_page()
    v = lib.resolve_version(request.args.get("v"))
    doc = lib.library().document(v)
    return render_template(
        "home.html",
        version=v,
        is_latest=lib.is_latest(v),
        versions=lib.library().versions(),
        chapters=doc.chapters(),
        changes=doc.changes,
        rule_url=lambda nid: rule_url(nid, v),
        q="",
        autofocus=True,
        vq=vq(v),
    )


def _v_arg() -> dict[str, str]:
    v = request.args.get("v")
    return {"v": v} if v else {}


@bp.get("/search")
def search_page():
    q = (request.args.get("q") or "").strip()
    if len(q) > MAX_QUERY:
        raise WebError(400, f"search text is too long ({len(q)} characters, at most {MAX_QUERY})")
    v = lib.resolve_version(request.args.get("v"))
    if not q:
        return redirect(url_for("pages.home", **vq(v)))
    # A number, id or deep link jumps straight to the rule.
    found = lib.library().lookup(q, v)
    if found.nodes:
        return redirect(rule_url(found.nodes[0].id, v))
    from .api import search_results

    hits = search_results(v, q, 25)
    for h in hits:
        h["snippet"] = Markup(h.get("snippet") or "")  # noqa: S704 - search escapes and adds <mark>
    return render_template("search.html", q=q, version=v, is_latest=lib.is_latest(v), hits=hits, vq=vq(v))


@bp.get("/r/<path:ref>")
def by_number(ref: str):
    return _rule_response(lib.find(ref, request.args.get("v")))


@bp.get("/id/<node_id>")
def by_id(node_id: str):
    return _rule_response(lib.find_by_id(node_id, request.args.get("v")))


@bp.get("/all")
def whole():
    """The whole CR on one page, for Ctrl-F."""
    v = lib.resolve_version(request.args.get("v"))
    doc = lib.library().document(v)
    raw = f"{lib.build_id()}|{asset_revision(current_app)}|{v}|all"
    etag = hashlib.sha256(raw.encode()).hexdigest()[:24]
    cache = _page_cache()
    entry = cache.get(("all", v))
    if entry is None or entry[0] != etag:
        depth: dict[str, int] = {}
        rows = []
        for n in doc.nodes:
            d = depth[n.id] = depth.get(n.parent, -1) + 1 if n.parent else 0
            if n.kind != "example":
                rows.append((n, d))
        body = render_template(
            "all.html",
            doc=doc,
            rows=rows,
            version=v,
            is_latest=lib.is_latest(v),
            rule_html=lambda n: rule_html(n, v),
            rule_url=lambda nid: rule_url(nid, v),
            vq=vq(v),
        ).encode("utf-8")
        entry = (etag, body, gzip_bytes(body))
        cache.put(("all", v), entry)
    return cached_response(entry[1], entry[2], etag, "text/html", PAGE_MAX_AGE)
