"""Board editor, stepper and the engine JSON API (placeholder until the engine lands)."""

from __future__ import annotations

from flask import Blueprint, render_template

bp = Blueprint("engine", __name__)


@bp.get("/editor")
def editor():
    return render_template("error.html", status=503, message="the engine is not available yet", extra={})
