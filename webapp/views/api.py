"""The JSON API for rules: versions, rules by number or id, references, graph, search.

Every view returns a payload from webapp.payloads as it is. Every error is
``{"error": "<what is wrong>", "status": <code>, ...}`` with a 4xx status (webapp.errors). GET
endpoints send ``Access-Control-Allow-Origin: *``, an ETag and Cache-Control (see httputil).
"""

from __future__ import annotations

import hashlib
from pathlib import Path

from flask import Blueprint, Response, current_app, jsonify, request

from ..caches import cache
from ..errors import BadRequest
from ..httputil import GZIP_MIN, PAGE_MAX_AGE, cached_response, gzip_bytes
from ..jsonprovider import dumps_bytes
from ..library import build_id, rules
from ..payloads import rules as rule_payloads
from ..payloads import search as search_payloads

bp = Blueprint("api", __name__, url_prefix="/api")


def int_arg(name: str, default: int, lo: int, hi: int) -> int:
    raw = request.args.get(name)
    if raw is None or raw == "":
        return default
    try:
        value = int(raw)
    except ValueError:
        raise BadRequest(f"{name} must be an integer from {lo} to {hi}, not {raw!r}") from None
    if not lo <= value <= hi:
        raise BadRequest(f"{name} must be from {lo} to {hi}, not {value}")
    return value


def _found(ref: str):
    return rules().find(ref, request.args.get("v"))


@bp.get("/versions")
def versions():
    return jsonify(rule_payloads.versions(rules()))


@bp.get("/rules/<ref>")
def rule(ref: str):
    descendants = ref.endswith("+") or request.args.get("children") in ("1", "true")
    return jsonify(rule_payloads.rule(rules(), _found(ref), descendants=descendants))


@bp.get("/lookup")
def lookup():
    q = (request.args.get("q") or "").strip()
    if not q:
        raise BadRequest("q is required: a rule number, stable id or official deep link")
    return jsonify(rule_payloads.rule(rules(), _found(q)))


@bp.get("/rules/<ref>/refs")
def refs(ref: str):
    return jsonify(rule_payloads.refs(rules(), _found(ref)))


@bp.get("/rules/<ref>/graph")
def graph(ref: str):
    found = _found(ref)
    k = int_arg("k", 1, 1, rule_payloads.MAX_K)
    kinds = rule_payloads.edge_kinds(request.args.get("kinds"))
    return jsonify(rule_payloads.graph(rules(), found, k=k, kinds=kinds))


@bp.get("/rules/<ref>/versions")
def across(ref: str):
    return jsonify(rule_payloads.across(rules(), _found(ref)))


@bp.get("/terms/<path:term>")
def term(term: str):
    """A defined term: the rules defining it (with their text) and the rules using it."""
    return jsonify(rule_payloads.term_rules(rules(), request.args.get("v"), term))


@bp.get("/search")
def search():
    q = search_payloads.check_query(request.args.get("q"))
    limit = int_arg("limit", 10, 1, search_payloads.MAX_LIMIT)
    v = rules().version(request.args.get("v"))
    sources = search_payloads.parse_sources(request.args.getlist("source"))
    answers = cache("search")
    if answers is None:
        return jsonify(search_payloads.search(rules(), q, v, limit, sources))
    # The serialised answer is cached (with its gzip form and ETag), like a rule page.
    key = (build_id(), v, q, limit, sources)
    entry = answers.get(key)
    if entry is None:
        body = dumps_bytes(search_payloads.search(rules(), q, v, limit, sources))
        etag = hashlib.sha256(body).hexdigest()[:24]
        entry = (etag, body, gzip_bytes(body) if len(body) >= GZIP_MIN else None)
        answers.put(key, entry)
    return cached_response(entry[1], entry[2], entry[0], "application/json", PAGE_MAX_AGE)


@bp.get("/openapi.yaml")
def openapi():
    path = Path(current_app.root_path) / "openapi.yaml"
    return Response(path.read_text(encoding="utf-8"), mimetype="application/yaml")
