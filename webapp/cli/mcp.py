"""`nrrules mcp`: the MCP server (webapp/mcp_server.py) for AI assistants, over stdio or HTTP.

    nrrules mcp [--build-dir DIR] [--base-url URL]          # stdio: an assistant starts it
    nrrules mcp --http [--host 127.0.0.1] [--port 8765]     # streamable HTTP at /mcp

It needs the ``mcp`` extra (``pip install 'nrrules[mcp]'``). Over stdio nothing but the
protocol is written to stdout; a failure to start (nothing built, no SDK) is one ``error:``
line on stderr and exit status 2, as for every command.
"""

from __future__ import annotations

from pathlib import Path

import click

from ..errors import BadRequest
from .common import build_dir_option, user_errors


def register(group: click.Group) -> None:
    """Add `mcp` to the `nrrules` command group."""

    @group.command("mcp")
    @click.option("--http", "http", is_flag=True, help="Serve streamable HTTP instead of stdio.")
    @click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on (--http).")
    @click.option(
        "--port", default=8765, show_default=True, type=click.IntRange(1, 65535), help="Port (--http)."
    )
    @click.option("--path", default="/mcp", show_default=True, help="URL path of the endpoint (--http).")
    @click.option(
        "--allowed-host",
        "allowed_hosts",
        multiple=True,
        help="A Host name clients may use (--http; repeat; default: loopback names on a loopback --host).",
    )
    @click.option(
        "--base-url",
        default=None,
        envvar="NRRULES_BASE_URL",
        help="Public address of the web app: answers then link its pages (env NRRULES_BASE_URL).",
    )
    @build_dir_option
    @user_errors
    def mcp_cmd(
        http: bool,
        host: str,
        port: int,
        path: str,
        allowed_hosts: tuple[str, ...],
        base_url: str | None,
        build_dir: Path | None,
    ) -> None:
        """Serve the rules, cards, rulings and the engine to AI assistants (Model Context Protocol).

        Engine session tokens are signed with SECRET_KEY (give the web app's, and a session's
        `url` opens in its stepper)."""
        try:
            from .. import mcp_server
        except ImportError as exc:
            if exc.name and exc.name.split(".")[0] in ("mcp", "pydantic", "starlette", "uvicorn"):
                raise BadRequest("the MCP server needs the mcp extra: pip install 'nrrules[mcp]'") from None
            raise
        if not path.startswith("/"):
            raise BadRequest(f"--path must start with '/', not {path!r}")
        rules, base, key = mcp_server.settings(build_dir, base_url)
        if key is not None:  # a given key signs tokens the web app opens: as long as it needs
            from ..errors import check_secret_key

            check_secret_key(key)
        if not http:
            mcp_server.run_stdio(rules, base, key)
            return
        app = mcp_server.http_app(
            rules, base_url=base, secret_key=key, path=path, host=host, allowed_hosts=allowed_hosts
        )
        click.echo(f"nrrules MCP server (streamable HTTP) on http://{host}:{port}{path}", err=True)
        mcp_server.run_http(app, host, port)
