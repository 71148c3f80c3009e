"""`nrrules serve`: run the web app locally (production: gunicorn, see docs/deploy.md)."""

from __future__ import annotations

import ipaddress
import os
import secrets
import socket
from pathlib import Path

import click

from rules_index.store import Library

from .common import build_dir_option, fail, user_errors


def is_loopback(host: str) -> bool:
    """Whether `host` is only reachable from this machine (127.0.0.0/8, ::1, localhost)."""
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def check_listen(host: str, port: int) -> None:
    """One `error:` line if the server could not listen on host:port (an address of another
    machine, a port in use, a name that does not resolve or is not a name at all)."""
    try:
        family = socket.getaddrinfo(host.strip("[]"), port, type=socket.SOCK_STREAM)[0][0]
        with socket.create_server((host.strip("[]"), port), family=family):
            pass
    except UnicodeError:  # a label over 63 characters, ...
        fail(f"cannot listen on --host {host[:80]!r}: not a host name or address")
    except OSError as exc:
        fail(f"cannot listen on {host[:80]}:{port}: {exc.strerror or exc}")


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
        if debug and not is_loopback(host):
            fail(
                f"--debug is refused on --host {host}: the debugger runs any Python a visitor types; "
                "use it on 127.0.0.1 only (production: gunicorn, see docs/deploy.md)"
            )
        check_listen(host, port)  # werkzeug would print its own lines for these and exit 1
        Library.open(build_dir)  # fail early, with the store's own message, if nothing is built
        if build_dir is not None:
            os.environ["NRRULES_BUILD_DIR"] = str(build_dir)
        # warm at start (NRRULES_PRELOAD): every version loaded and the latest one's searcher
        # ready, so the first search answers as fast as the hundredth
        config: dict[str, str | bool | None] = {
            "BUILD_DIR": str(build_dir) if build_dir else None,
            "PRELOAD": True,
        }
        if not (os.environ.get("SECRET_KEY") or os.environ.get("NRRULES_SECRET_KEY")):
            config["SECRET_KEY"] = secrets.token_urlsafe(32)
            click.echo(
                "nrrules: SECRET_KEY is not set: stepper links are signed with a random key for this "
                "process and stop opening once it stops (set SECRET_KEY to keep them)",
                err=True,
            )
        from .. import check_secret_key, create_app  # Flask: loaded by the command that serves

        # a short key is refused before anything is loaded or said (one error line)
        check_secret_key(
            config.get("SECRET_KEY") or os.environ.get("SECRET_KEY") or os.environ.get("NRRULES_SECRET_KEY")
        )
        click.echo("nrrules: loading the rules and warming search ...", err=True)
        app = create_app(config)
        click.echo(f"nrrules: serving on http://{host}:{port}/ (Ctrl-C to stop)", err=True)
        app.run(host=host, port=port, debug=debug, use_reloader=debug, threaded=True)
