"""HTML pages: home and search, rule pages (by number, id and official deep link), whole CR.

A rule page renders the rule payload (webapp.payloads.rules.rule) that /api/rules/<ref> returns.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable
from typing import Any

from flask import Blueprint, Response, current_app, render_template, request, url_for
from markupsafe import Markup

from scraper import Document, Node

from ..caches import cache
from ..errors import BadRequest, RuleNotFound
from ..httputil import (
    PAGE_MAX_AGE,
    asset_revision,
    cached_response,
    gzip_bytes,
    local_redirect,
    static_url,
    url_memo,
)
from ..library import build_id, rules
from ..payloads import Found
from ..payloads import rules as rule_payloads
from ..payloads import search as search_payloads
from ..reading import cr_case, rule_aids, step_links

bp = Blueprint("pages", __name__)

_STABLE_ID = re.compile(r"^[A-Za-z][A-Za-z0-9_.+&-]{0,199}$")
_HREF_ID = re.compile(r'href="/id/([^"?#]+)"')
_PLAIN_ID = re.compile(r"[A-Za-z0-9_.+&-]+")  # url_for leaves these characters as they are


def vq(version: str) -> dict[str, str]:
    """The ``v`` query argument for links: omitted for the latest version."""
    return {} if rules().is_latest(version) else {"v": version}


def rule_url(node_id: str, version: str, external: bool = False) -> str:
    if not external and _PLAIN_ID.fullmatch(node_id):
        # what url_for builds for an id it need not quote, without its cost (a rule page links
        # a dozen rules; an export, every rule thousands of times)
        return rules().url(node_id, version)
    memo = url_memo("rule")  # a rule page links a dozen rules; an export, every rule thousands of times
    key = (node_id, version, external)
    url = memo.get(key)
    if url is None:
        url = memo[key] = url_for("pages.by_id", node_id=node_id, _external=external, **vq(version))
    return url


def rule_html(html: str | None, version: str) -> Markup:
    """The scraper's safe HTML subset, with internal links pointing at the same version."""
    html = html or ""
    if not rules().is_latest(version):
        html = _HREF_ID.sub(lambda m: f'href="/id/{m.group(1)}?v={version}"', html)
    # The scraper emits only a vetted subset of HTML (links, symbols, terms): safe to insert.
    return Markup(html)  # noqa: S704


def _subtree(rule: dict[str, Any]) -> list[tuple[dict[str, Any], int]]:
    """What a page shows below its heading: a chapter lists its sections, anything else shows
    all its rules (with examples rendered under their rule)."""
    if rule["kind"] == "chapter":
        return [(c, 1) for c in rule["children"]]
    return [(d, d["depth"]) for d in rule["descendants"] if d["kind"] != "example"]


def _cards(rule: dict[str, Any], subtree: list[tuple[dict[str, Any], int]]) -> list[dict[str, Any]]:
    """The cards the page mentions (the rule, the rules below it and their examples), by name."""
    seen: dict[str, dict[str, Any]] = {}
    for item in [rule, *(n for n, _ in subtree)]:
        for part in [item, *item.get("examples", ())]:
            for c in part.get("cards", ()):
                seen.setdefault(c["name"].lower(), c)
    return sorted(seen.values(), key=lambda c: c["name"].lower())


def _rule_etag(found: Found) -> str:
    raw = f"{build_id()}|{asset_revision(current_app)}|{found.version}|{found.node.id}|{request.host_url}"
    return hashlib.sha256(raw.encode()).hexdigest()[:24]


def _title(rule: dict[str, Any], version: str) -> str:
    context = rule["title"] or next((a["title"] for a in reversed(rule["breadcrumb"]) if a["title"]), "")
    number = rule["number"] or "example"
    if rule["title"]:
        title = f"CR {number} {context}".strip()
    else:
        title = f"CR {number} ({context})" if context else f"CR {number}"
    if not rules().is_latest(version):
        title += f" · CR {version}"
    return title


def _body(doc: Document, version: str) -> Callable[[Node], Markup]:
    """A rule's HTML as pages show it: links kept in `version`, step references linked, the
    opening defined term capitalised (webapp.reading)."""
    suffix = rules().suffix(version)
    return lambda n: cr_case(step_links(rule_html(n.html, version), doc, n, suffix))


def page_payload(found: Found) -> dict[str, Any]:
    """The rule payload a rule page renders (with the rules below it, except for a chapter)."""
    return rule_payloads.rule(rules(), found, descendants=found.node.kind != "chapter")


def render_rule(found: Found, rule: dict[str, Any] | None = None) -> str:
    """The HTML of a rule page (the body /id/<id> answers; `nrrules export` writes it too, from
    the `page_payload` it already made)."""
    v = found.version
    if rule is None:
        rule = page_payload(found)
    subtree = _subtree(rule)
    below = [n["id"] for n, _ in subtree] if rule["kind"] != "chapter" else []
    refs = [c["id"] for c in (*rule["cites"], *rule["cited_by"])]
    return render_template(
        "rule.html",
        og_type="article",
        rule=rule,
        node=rule,  # the payload; rule_extras.html reads node.id
        aids=rule_aids(found.doc, found.node, below, refs, _body(found.doc, v)),
        version=v,
        latest=rules().latest,
        is_latest=rules().is_latest(v),
        subtree=subtree,
        cards=_cards(rule, subtree),
        title=_title(rule, v),
        description=rule_payloads.summary(found.node, 200) or rule_payloads.label(rule),
        canonical=rule_url(found.node.id, v, external=True),
        rule_html=lambda html: rule_html(html, v),
        rule_url=lambda nid, ver=v: rule_url(nid, ver),
        label=rule_payloads.label,
        vq=vq(v),
        cy_url=static_url("vendor/cytoscape-3.34.4.min.js"),
    )


def _rule_response(found: Found) -> Response:
    etag = _rule_etag(found)
    pages = cache("pages")
    key = (found.version, found.node.id, request.host_url)
    entry = pages.get(key) if pages is not None else None
    if entry is None or entry[0] != etag:
        if request.if_none_match.contains(etag):
            return cached_response(b"", None, etag, "text/html", PAGE_MAX_AGE)
        body = render_rule(found).encode("utf-8")
        entry = (etag, body, gzip_bytes(body))
        if pages is not None:
            pages.put(key, entry)
    return cached_response(entry[1], entry[2], etag, "text/html", PAGE_MAX_AGE)


# ----------------------------------------------------------------------------------------------


@bp.get("/")
def home():
    official = request.args.get("r")
    if official:  # the official site's deep-link form: /?r=<stable id>
        if not _STABLE_ID.match(official.strip()):
            raise RuleNotFound(f"{official[:100]!r} is not a CR stable id (like step_jack_out_choice)")
        return local_redirect(url_for("pages.by_id", node_id=official.strip(), **_v_arg()), code=302)
    if request.args.get("q"):
        return search_page()
    v = rules().version(request.args.get("v"))
    data = rule_payloads.contents(rules(), v)
    return render_template(
        "home.html",
        version=v,
        is_latest=rules().is_latest(v),
        versions=rule_payloads.versions(rules())["versions"],
        chapters=data["chapters"],
        changes=data["changes"],
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
    if len(q) > search_payloads.MAX_QUERY:
        raise BadRequest(
            f"search text is too long ({len(q)} characters, at most {search_payloads.MAX_QUERY}): "
            "ask the question in fewer words"
        )
    v = rules().version(request.args.get("v"))
    if not q:
        return local_redirect(url_for("pages.home", **vq(v)))
    # A number, id or deep link jumps straight to the rule.
    found = rules().library.lookup(q, v)
    if found.nodes:
        return local_redirect(rule_url(found.nodes[0].id, v))
    sources = search_payloads.parse_sources(request.args.getlist("source"))
    data = search_payloads.search(rules(), q, v, 25, sources)
    return render_template(
        "search.html",
        q=q,
        version=v,
        is_latest=rules().is_latest(v),
        hits=data["results"],
        data=data,
        picked=sources,
        available=search_payloads.available_sources(rules().library),
        vq=vq(v),
    )


@bp.get("/r/<path:ref>")
def by_number(ref: str):
    return _rule_response(rules().find(ref, request.args.get("v")))


@bp.get("/id/<node_id>")
def by_id(node_id: str):
    return _rule_response(rules().find_by_id(node_id, request.args.get("v")))


@bp.get("/all")
def whole():
    """The whole CR on one page, for Ctrl-F."""
    v = rules().version(request.args.get("v"))
    raw = f"{build_id()}|{asset_revision(current_app)}|{v}|all"
    etag = hashlib.sha256(raw.encode()).hexdigest()[:24]
    pages = cache("pages")
    entry = pages.get(("all", v)) if pages is not None else None
    if entry is None or entry[0] != etag:
        data = rule_payloads.whole(rules(), v)
        doc = rules().library.document(v)
        body_of = _body(doc, v)
        linked = {
            r["id"]: body_of(doc.node(r["id"]))
            for r in data["rules"]
            if r["kind"] not in ("chapter", "section")
        }
        body = render_template(
            "all.html",
            data=data,
            linked=linked,  # each rule's HTML with its reading aids (webapp.reading)
            version=v,
            is_latest=rules().is_latest(v),
            rule_html=lambda html: rule_html(html, v),
            rule_url=lambda nid: rule_url(nid, v),
            vq=vq(v),
        ).encode("utf-8")
        entry = (etag, body, gzip_bytes(body))
        if pages is not None:
            pages.put(("all", v), entry)
    return cached_response(entry[1], entry[2], etag, "text/html", PAGE_MAX_AGE)
