"""The JSON API for rules: versions, rules by number or id, references, graph, search.

Every error is ``{"error": "<what is wrong>", "status": <code>, ...}`` with a 4xx status. GET
endpoints send ``Access-Control-Allow-Origin: *``, an ETag and Cache-Control (see httputil).
"""

from __future__ import annotations

import copy
import hashlib
from pathlib import Path

from flask import Blueprint, Response, current_app, jsonify, request

from .. import library as lib
from ..httputil import GZIP_MIN, LRU, PAGE_MAX_AGE, cached_response, gzip_bytes
from ..jsonprovider import dumps_bytes
from ..library import WebError

bp = Blueprint("api", __name__, url_prefix="/api")

MAX_QUERY = 200
MAX_LIMIT = 50
MAX_K = 3


def _int_arg(name: str, default: int, lo: int, hi: int) -> int:
    raw = request.args.get(name)
    if raw is None or raw == "":
        return default
    try:
        value = int(raw)
    except ValueError:
        raise WebError(400, f"{name} must be an integer from {lo} to {hi}, not {raw!r}") from None
    if not lo <= value <= hi:
        raise WebError(400, f"{name} must be from {lo} to {hi}, not {value}")
    return value


def _found(ref: str):
    found = lib.find(ref, request.args.get("v"))
    return found


@bp.get("/versions")
def versions():
    library = lib.library()
    return jsonify(
        latest=library.latest,
        versions=[info.to_dict() for info in library.versions()],
    )


@bp.get("/rules/<ref>")
def rule(ref: str):
    found = _found(ref)
    data = lib.node_json(found.doc, found.node, found.version)
    if ref.endswith("+") or request.args.get("children") in ("1", "true"):
        data["descendants"] = [
            lib.node_json(found.doc, n, found.version, children=False)
            for n in found.doc.descendants(found.node.id)
        ]
    return jsonify(data)


@bp.get("/lookup")
def lookup():
    q = (request.args.get("q") or "").strip()
    if not q:
        raise WebError(400, "q is required: a rule number, stable id or official deep link")
    found = _found(q)
    return jsonify(lib.node_json(found.doc, found.node, found.version))


@bp.get("/rules/<ref>/refs")
def refs(ref: str):
    found = _found(ref)
    graph = lib.library().graph(found.version)
    try:
        cites, cited_by = graph.cites(found.node.id), graph.cited_by(found.node.id)
    except KeyError as exc:
        raise WebError(404, str(exc).strip("'\"")) from None
    return jsonify(
        id=found.node.id, number=found.node.number, version=found.version, cites=cites, cited_by=cited_by
    )


@bp.get("/rules/<ref>/graph")
def graph(ref: str):
    found = _found(ref)
    k = _int_arg("k", 1, 1, MAX_K)
    kinds_arg = request.args.get("kinds")
    kinds = [k.strip() for k in kinds_arg.split(",") if k.strip()] if kinds_arg else None
    g = lib.library().graph(found.version)
    try:
        data = g.neighbourhood(found.node.id, k=k, kinds=kinds)
    except ValueError as exc:
        raise WebError(400, str(exc)) from None
    except KeyError as exc:
        raise WebError(404, str(exc).strip("'\"")) from None
    return jsonify(id=found.node.id, version=found.version, k=k, **data)


@bp.get("/rules/<ref>/versions")
def across(ref: str):
    from rules_index.mapping import across_versions

    found = _found(ref)
    return jsonify(id=found.node.id, versions=across_versions(lib.library().documents(), found.node.id))


@bp.get("/search")
def search():
    q = (request.args.get("q") or "").strip()
    if not q:
        raise WebError(400, "q is required: words, a rule number, an id or a card name")
    if len(q) > MAX_QUERY:
        raise WebError(400, f"q is too long ({len(q)} characters, at most {MAX_QUERY})")
    limit = _int_arg("limit", 10, 1, MAX_LIMIT)
    v = lib.resolve_version(request.args.get("v"))
    size = current_app.config["SEARCH_CACHE_SIZE"]
    if size <= 0:
        return jsonify(query=q, version=v, results=search_results(v, q, limit))
    # The serialised answer is cached too (with its gzip form and ETag), like a rule page.
    cache = current_app.extensions.get("nrrules.search_json_cache")
    if cache is None:
        cache = current_app.extensions["nrrules.search_json_cache"] = LRU(size)
    key = (lib.build_id(), v, q, limit)
    entry = cache.get(key)
    if entry is None:
        body = dumps_bytes({"query": q, "version": v, "results": search_results(v, q, limit)})
        etag = hashlib.sha256(body).hexdigest()[:24]
        entry = (etag, body, gzip_bytes(body) if len(body) >= GZIP_MIN else None)
        cache.put(key, entry)
    return cached_response(entry[1], entry[2], entry[0], "application/json", PAGE_MAX_AGE)


def search_results(v: str, q: str, limit: int) -> list[dict]:
    """Ranked results for a query (a number or id names its rule first), through a bounded cache:
    as-you-type traffic from many judges repeats the same prefixes."""
    cache = current_app.extensions.get("nrrules.search_cache")
    if cache is None:
        cache = current_app.extensions["nrrules.search_cache"] = LRU(current_app.config["SEARCH_CACHE_SIZE"])
    key = (lib.build_id(), v, q, limit)
    if current_app.config["SEARCH_CACHE_SIZE"] > 0:
        hit = cache.get(key)
        if hit is not None:
            return copy.deepcopy(hit)
    library = lib.library()
    results = []
    exact = library.lookup(q, v)
    exact_id = None
    if exact.nodes:  # a number, id or deep link: that rule comes first
        node = exact.nodes[0]
        exact_id = node.id
        doc = library.document(v)
        results.append(
            {
                "id": node.id,
                "number": node.number,
                "title": node.title,
                "kind": node.kind,
                "snippet": _escape(lib.summary(node, 200)),
                "breadcrumb": [
                    {"id": a.id, "number": a.number, "title": a.title} for a in doc.ancestors(node.id)
                ],
                "exact": True,
            }
        )
    for hit in library.searcher(v).search(q, limit=limit):
        d = hit.to_dict()
        if d["id"] == exact_id:
            continue
        results.append(d)
    results = results[:limit]
    for r in results:
        r["url"] = f"/id/{r['id']}" + ("" if lib.is_latest(v) else f"?v={v}")
    if current_app.config["SEARCH_CACHE_SIZE"] > 0:
        cache.put(key, copy.deepcopy(results))
    return results


def _escape(text: str) -> str:
    from markupsafe import escape

    return str(escape(text))


@bp.get("/openapi.yaml")
def openapi():
    path = Path(current_app.root_path) / "openapi.yaml"
    return Response(path.read_text(encoding="utf-8"), mimetype="application/yaml")
