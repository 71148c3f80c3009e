"""`nrrules serve`: run the web app locally (production: gunicorn, see docs/deploy.md)."""

from __future__ import annotations

import os
from pathlib import Path

import click

from rules_index.store import Library

from .common import build_dir_option, user_errors


def register(group: click.Group) -> None:
    """Add the `serve` command to the `nrrules` command group."""

    @group.command("serve")
    @click.option("--host", default="127.0.0.1", show_default=True, help="Interface to listen on.")
    @click.option("--port", default=5000, show_default=True, type=click.IntRange(1, 65535), help="TCP port.")
    @build_dir_option
    @click.option(
        "--debug", is_flag=True, help="Reload on code changes and show tracebacks (never in production)."
    )
    @user_errors
    def serve(host: str, port: int, build_dir: Path | None, debug: bool) -> None:
        """Serve rule pages, search, the board editor, the stepper and the JSON API."""
        from .. import create_app  # the web app only when serving: other commands start faster

        Library.open(build_dir)  # fail early, with the store's own message, if nothing is built
        if build_dir is not None:
            os.environ["NRRULES_BUILD_DIR"] = str(build_dir)
        app = create_app({"BUILD_DIR": str(build_dir) if build_dir else None})
        click.echo(f"nrrules: serving on http://{host}:{port}/ (Ctrl-C to stop)", err=True)
        app.run(host=host, port=port, debug=debug, use_reloader=debug, threaded=True)
