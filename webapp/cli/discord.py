"""`nrrules discord commands` and `nrrules discord register`: the Discord bot's slash commands.

`commands` prints the command definitions (webapp.payloads.discord.COMMANDS) as the JSON array
Discord's "bulk overwrite application commands" endpoint takes. `register` sends them: a PUT to
``https://discord.com/api/v10/applications/<application id>/commands`` (or, with --guild-id, to
one server's commands, which show at once where global ones can take a while), authorised by the
bot's token. The token is never printed: --dry-run shows the request with it masked.

The interactions themselves are answered by the web app (POST /discord/interactions); see
docs/discord.md for the whole setup.
"""

from __future__ import annotations

import json
import re
from typing import TYPE_CHECKING

import click

from ..errors import BadRequest
from .common import emit, fail, user_errors

if TYPE_CHECKING:  # requests and the answers' module (search, Whoosh) load on use
    import requests

API = "https://discord.com/api/v10"
USER_AGENT = "DiscordBot (nrrules, 0.1.0)"  # the form Discord asks of bots: name, version
_SNOWFLAKE = re.compile(r"^\d{15,22}$")
_TOKEN = re.compile(r"^[A-Za-z0-9._-]{20,200}$")


def register_request(
    application_id: str, token: str, guild_id: str | None = None
) -> requests.PreparedRequest:
    """The request that registers COMMANDS (built, not sent); BadRequest for a malformed id or
    token (a token with a line break would otherwise be a header injection)."""
    application_id = (application_id or "").strip()
    if not _SNOWFLAKE.match(application_id):
        raise BadRequest(
            "--application-id must be the application's numeric id (Developer Portal, General Information)"
        )
    if guild_id is not None and not _SNOWFLAKE.match(guild_id.strip()):
        raise BadRequest("--guild-id must be a server's numeric id")
    token = (token or "").strip()
    if not _TOKEN.match(token):
        raise BadRequest("--token must be the bot's token (Developer Portal, Bot, Reset Token)")
    where = f"/guilds/{guild_id.strip()}" if guild_id else ""
    import requests

    from ..payloads.discord import COMMANDS

    return requests.Request(
        "PUT",
        f"{API}/applications/{application_id}{where}/commands",
        headers={"Authorization": f"Bot {token}", "User-Agent": USER_AGENT},
        json=COMMANDS,
    ).prepare()


def _masked(prepared: requests.PreparedRequest) -> dict:
    headers = dict(prepared.headers)
    if "Authorization" in headers:
        headers["Authorization"] = "Bot ***"
    body = prepared.body.decode("utf-8") if isinstance(prepared.body, bytes) else prepared.body
    return {
        "method": prepared.method,
        "url": prepared.url,
        "headers": headers,
        "json": json.loads(body or "null"),
    }


def register(group: click.Group) -> None:
    @group.group("discord")
    def discord() -> None:
        """The Discord bot: its slash commands (the answers come from POST /discord/interactions)."""

    @discord.command("commands")
    @user_errors
    def commands_cmd() -> None:
        from ..payloads.discord import COMMANDS

        """Print the slash command definitions as the JSON Discord takes."""
        emit(COMMANDS)

    @discord.command("register")
    @click.option(
        "--application-id",
        envvar="DISCORD_APPLICATION_ID",
        required=True,
        help="The application's id (env DISCORD_APPLICATION_ID).",
    )
    @click.option(
        "--token",
        envvar="DISCORD_BOT_TOKEN",
        required=True,
        help="The bot's token (env DISCORD_BOT_TOKEN; never printed).",
    )
    @click.option(
        "--guild-id", default=None, help="Register in one server only (shows at once); default: global."
    )
    @click.option("--dry-run", is_flag=True, help="Print the request (token masked) instead of sending it.")
    @user_errors
    def register_cmd(application_id: str, token: str, guild_id: str | None, dry_run: bool) -> None:
        """Register (overwrite) the bot's slash commands with Discord."""
        import requests

        from ..payloads.discord import COMMANDS

        prepared = register_request(application_id, token, guild_id)
        if dry_run:
            emit(_masked(prepared))
            return
        try:
            resp = requests.Session().send(prepared, timeout=20)
        except requests.RequestException as exc:
            fail(f"cannot reach Discord ({exc.__class__.__name__}): nothing was registered")
        if resp.status_code >= 400:
            try:
                body = resp.json()
            except ValueError:
                body = None
            detail = (body.get("message") if isinstance(body, dict) else None) or resp.reason
            fail(f"Discord refused the commands ({resp.status_code}: {detail})")
        names = ", ".join("/" + c["name"] for c in COMMANDS)
        click.echo(
            f"registered {len(COMMANDS)} commands ({names}) {'in server ' + guild_id if guild_id else 'globally'}"
        )
