"""Pages and JSON twins for judges' documents and rule history.

    /j/                          the judges' documents and their items
    /j/<id>                      a judge item      /api/judge/<id>
    /api/judge/search?q=         judge items for a query (each labelled ``source: judge``)
    /changes                     redirects to the latest pair (the nav's "Changes")
    /changes/<old>..<new>        what changed      /api/changes/<old>..<new>
    /api/history/<ref>           one rule's versions, numbers and diffs

Each page renders the payload its API twin returns (webapp.payloads.judge).
"""

from __future__ import annotations

from flask import Blueprint, jsonify, redirect, render_template, request, url_for

from ..errors import BadRequest, NotFound
from ..library import rules
from ..payloads import judge as payloads

bp = Blueprint("judge_history", __name__)
MAX_QUERY = 200


@bp.get("/api/judge/<path:item_id>")
def api_judge(item_id: str):
    if item_id == "search":
        return api_judge_search()
    return jsonify(payloads.judge_item(rules(), item_id))


def api_judge_search():
    q = (request.args.get("q") or "").strip()
    if not q:
        raise BadRequest("q is required: words of a judge's question")
    if len(q) > MAX_QUERY:
        raise BadRequest(f"q is too long ({len(q)} characters, at most {MAX_QUERY})")
    raw = request.args.get("limit") or "10"
    if not raw.isdigit() or not 1 <= int(raw) <= 50:
        raise BadRequest(f"limit must be an integer from 1 to 50, not {raw!r}")
    return jsonify(query=q, source="judge", results=payloads.judge_search(rules(), q, int(raw)))


@bp.get("/j/")
def judge_index_page():
    """The judges' documents, their sections and items: where the nav's "Judges' documents" goes."""
    docs = payloads.judge_index(rules())
    return render_template(
        "judge_index.html",
        docs=docs,
        title="Judges' documents — nrrules",
        version=rules().latest,
        is_latest=True,
        vq={},
    )


@bp.get("/j")
def judge_index_slash():
    return redirect(url_for("judge_history.judge_index_page"), 301)


@bp.get("/changes/")
@bp.get("/changes")
def changes_latest():
    """The latest pair of versions ("Changes" in the nav): what changed in the current CR."""
    names = rules().version_names()
    if len(names) < 2:
        raise NotFound("only one CR version is built: nothing to compare")
    return redirect(url_for("judge_history.changes_page", pair=f"{names[-2]}..{names[-1]}"), 302)


@bp.get("/j/<path:item_id>")
def judge_page(item_id: str):
    data = payloads.judge_item(rules(), item_id)
    v = rules().latest
    return render_template(
        "judge_item.html",
        item=data,
        title=f"{data['title']} — judges' reference",
        version=v,
        is_latest=True,
        vq={},
    )


@bp.get("/api/changes/<pair>")
def api_changes(pair: str):
    old, new = payloads.parse_pair(pair)
    return jsonify(payloads.changes(rules(), old, new))


@bp.get("/changes/<pair>")
def changes_page(pair: str):
    old, new = payloads.parse_pair(pair)
    data = payloads.changes(rules(), old, new)
    return render_template(
        "changes.html",
        c=data,
        title=f"What changed from CR {data['from']} to {data['to']}",
        version=data["to"],
        is_latest=rules().is_latest(data["to"]),
        vq={} if rules().is_latest(data["to"]) else {"v": data["to"]},
        versions=rules().version_names(),
    )


@bp.get("/api/history/<path:ref>")
def api_history(ref: str):
    return jsonify(payloads.rule_history(rules(), ref, request.args.get("v")))


@bp.app_context_processor
def _rule_extras():
    """`rule_extras(id)` for the rule page: its history and the judge items citing it."""

    def rule_extras(node_id: str) -> dict:
        h = rules().library.history().history(node_id)
        steps = []
        for step in (h or {}).get("changes", []):
            if step["reworded"] or step["renumbered"]:
                steps.append({**step, "diff_html": payloads.diff_html(step["diff"]) if step["diff"] else ""})
        return {"history": steps, "judge": payloads.judge_citing(rules(), node_id)}

    def has_judge() -> bool:
        try:
            return rules().library.judge() is not None
        except Exception:  # no build at all: the page says so elsewhere; the nav just omits the link
            return False

    return {"rule_extras": rule_extras, "has_judge": has_judge}
