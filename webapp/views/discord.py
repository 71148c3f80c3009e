"""POST /discord/interactions: the Discord bot, over HTTP interactions (no gateway connection).

Discord signs every request it sends with the application's Ed25519 key: the hex signature in
``X-Signature-Ed25519`` is over the ``X-Signature-Timestamp`` header followed by the raw body.
This view checks it against ``DISCORD_PUBLIC_KEY`` (the application's public key, 64 hex
characters, from the Developer Portal) with PyNaCl before reading anything else, and refuses:

- a missing, malformed or wrong signature: 401, and nothing else happens;
- a timestamp more than `MAX_SKEW` seconds from now (a replayed request): 401;
- a signed body that is not an interaction (not JSON, no type, an unsupported type): 400;
- any request at all when no key (or a malformed one) is configured: 503, saying so.

A verified interaction is answered by webapp.payloads.discord (PING -> PONG, slash commands ->
embeds, autocomplete -> choices). Links point at ``NRRULES_BASE_URL`` when it is set (the site's
public address), else at the address the request came to (behind a proxy, with
NRRULES_PROXY_FIX=1). Set the Interactions Endpoint URL in the Developer Portal to
``https://<your site>/discord/interactions``; see docs/discord.md.
"""

from __future__ import annotations

import re
import time

from flask import Blueprint, current_app, jsonify, request
from nacl.exceptions import BadSignatureError
from nacl.signing import VerifyKey
from werkzeug.exceptions import HTTPException

from ..errors import NotConfigured, NrrulesError, Unauthorized
from ..httputil import json_error
from ..jsonprovider import loads_user
from ..library import rules
from ..payloads import discord as payloads

bp = Blueprint("discord", __name__, url_prefix="/discord")

MAX_SKEW = 300  # seconds between Discord's timestamp and our clock before a request is refused
_HEX_KEY = re.compile(r"^[0-9a-fA-F]{64}$")
_HEX_SIGNATURE = re.compile(r"^[0-9a-fA-F]{128}$")
_TIMESTAMP = re.compile(r"^[0-9]{1,12}$")  # Unix seconds, ASCII digits only


def verify_key() -> VerifyKey:
    """The configured public key, or NotConfigured (503) saying what to set."""
    key = (current_app.config.get("DISCORD_PUBLIC_KEY") or "").strip()
    if not key:
        raise NotConfigured(
            "the Discord bot is not configured on this server: set DISCORD_PUBLIC_KEY to the "
            "application's public key (Discord Developer Portal, General Information)"
        )
    if not _HEX_KEY.match(key):
        raise NotConfigured("DISCORD_PUBLIC_KEY is not an Ed25519 public key (64 hexadecimal characters)")
    memo = current_app.extensions.setdefault("nrrules.discord_keys", {})
    found = memo.get(key)
    if found is None:
        found = memo[key] = VerifyKey(bytes.fromhex(key))
    return found


def verify(key: VerifyKey, signature: str, timestamp: str, body: bytes, now: float) -> None:
    """Unauthorized unless `signature` is the key's signature of timestamp + body and the
    timestamp is within MAX_SKEW seconds of `now`."""
    if not signature or not timestamp:
        raise Unauthorized("missing X-Signature-Ed25519 or X-Signature-Timestamp")
    if not _HEX_SIGNATURE.match(signature) or not _TIMESTAMP.match(timestamp):
        raise Unauthorized("invalid request signature")
    try:
        key.verify(timestamp.encode("ascii") + body, bytes.fromhex(signature))
    except BadSignatureError:
        raise Unauthorized("invalid request signature") from None
    if abs(now - int(timestamp)) > MAX_SKEW:
        raise Unauthorized(f"stale request: its timestamp is more than {MAX_SKEW} seconds from now")


def base_url() -> str:
    """Where links point: NRRULES_BASE_URL, else the address this request came to."""
    return (current_app.config.get("BASE_URL") or request.url_root).rstrip("/")


@bp.post("/interactions")
def interactions():
    key = verify_key()
    body = request.get_data(cache=False)
    verify(
        key,
        request.headers.get("X-Signature-Ed25519", ""),
        request.headers.get("X-Signature-Timestamp", ""),
        body,
        time.time(),
    )
    interaction = loads_user(body, "the interaction")
    return jsonify(payloads.respond(rules, interaction, base_url()))


@bp.errorhandler(NrrulesError)
def _refused(exc: NrrulesError):
    resp = jsonify(exc.to_json())
    resp.status_code = exc.status
    return resp


@bp.errorhandler(HTTPException)
def _http_refused(exc: HTTPException):
    """A body over the app's limit (413) and the like, as JSON like every other refusal here."""
    message = exc.description or exc.name
    if exc.code == 413:
        message = f"request body too large (limit {current_app.config['MAX_CONTENT_LENGTH']} bytes)"
    return json_error(exc.code or 400, message)
