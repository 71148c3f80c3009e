"""Engine sessions as signed, compressed URL tokens, so the server keeps no session state.

A token carries what is needed to rebuild a session exactly: the engine's one serialised form
of a session (`engine.SessionSpec.to_payload()`: the CR version, the structure and its
parameters, the seed, the board as the user gave it, and the decisions taken so far). The
engine is deterministic, so replaying the decisions reproduces the session (and undo is simply
the same token without its last decision). Tokens are signed with SECRET_KEY (itsdangerous,
zlib-compressed when that is shorter), so a server never replays a board it did not validate.
"""

from __future__ import annotations

import zlib
from collections.abc import Callable
from typing import Any

from flask import current_app
from itsdangerous import BadData, BadPayload, URLSafeSerializer
from itsdangerous.encoding import base64_decode
from itsdangerous.serializer import Serializer

from engine import BoardError, SessionSpec

from .errors import BadToken
from .jsonprovider import dumps_bytes, loads_user

SALT = "nrrules.engine.session.v1"
MAX_TOKEN = 12000  # characters; a typical board is well under 2000
# Bytes of JSON a token may unpack to: zlib packs up to ~1000:1, so 12,000 characters could
# otherwise carry 9 MB (issue 16). A request body is at most 256 KB; so is a token's payload.
MAX_PAYLOAD = 256 * 1024
MAX_SEED = 2**31 - 1
# Characters in one decision id ("pass", "use:corroder.0", "rez:remote12.root.manta-grid"; a card
# name is at most 100). A longer one is refused at the edge: the engine's id parser caches the
# ids it is given, so 4,096 ids of 200 KB each would hold 800 MB in a worker.
MAX_DECISION = 200
# (field, type, what the field holds) of a token's payload, checked before anything reads it.
_FIELDS: tuple[tuple[str, type | tuple[type, ...], str], ...] = (
    ("v", str, "the CR version"),
    ("s", str, "the structure"),
    ("b", dict, "the board"),
    ("d", list, "the decisions"),
    ("p", dict, "the parameters"),
    ("r", int, "the seed"),
)


def spec_from_payload(data: Any) -> SessionSpec:
    """A token's payload as the engine's session form (`engine.SessionSpec`, the one serialised
    form of a session), every field type-checked first; BadToken naming the problem."""
    if not isinstance(data, dict) or not {"v", "s", "b", "d"} <= set(data):
        raise BadToken("session token does not hold an engine session")
    for key, typ, what in _FIELDS:
        value = data.get(key)
        if key in ("p", "r") and value is None:
            continue
        if not isinstance(value, typ) or isinstance(value, bool):
            raise BadToken(f"session token field {key!r} ({what}) has the wrong type")
    seed = data.get("r") or 0
    if not 0 <= seed <= MAX_SEED:
        raise BadToken(f"session token field 'r' (the seed) must be from 0 to {MAX_SEED}")
    if not all(isinstance(d, str) for d in data["d"]):
        raise BadToken("session token field 'd' (the decisions) must hold only strings")
    if any(len(d) > MAX_DECISION for d in data["d"]):
        raise BadToken(f"session token field 'd' holds a decision over {MAX_DECISION} characters")
    try:
        return SessionSpec.from_payload(data)
    except BoardError as exc:
        raise BadToken("session token does not hold an engine session: " + "; ".join(exc.problems)) from None


class _CompactJSON:
    """The token payload's JSON, through orjson (the same compact text as itsdangerous's own)."""

    @staticmethod
    def dumps(obj: Any, **kwargs: Any) -> str:
        return dumps_bytes(obj).decode("utf-8")

    @staticmethod
    def loads(data: str | bytes, **kwargs: Any) -> Any:
        # As a request body: at most MAX_DEPTH levels, no lone surrogates (BadRequest, which the
        # serializer reports as a bad payload).
        return loads_user(data, "session token")


class _Serializer(URLSafeSerializer):
    """itsdangerous's URL-safe serializer, unpacking at most MAX_PAYLOAD bytes."""

    def load_payload(self, payload: bytes, *args: Any, serializer: Any = None, **kwargs: Any) -> Any:
        if payload.startswith(b"."):
            try:
                packed = base64_decode(payload[1:])
                unpack = zlib.decompressobj()
                payload = unpack.decompress(packed, MAX_PAYLOAD)
            except Exception as exc:  # what itsdangerous's own load_payload catches, too
                raise BadPayload("the payload does not decompress", original_error=exc) from exc
            if unpack.unconsumed_tail or not unpack.eof:
                raise BadPayload(f"the payload unpacks to more than {MAX_PAYLOAD} bytes")
            # The plain serializer's step (JSON to object), skipping the mixin's unbounded unpacking.
            return Serializer.load_payload(self, payload, *args, serializer=serializer, **kwargs)
        return super().load_payload(payload, *args, serializer=serializer, **kwargs)


def serializer(key: str) -> URLSafeSerializer:
    """The token serializer for a SECRET_KEY (the app's, or the one `nrrules step` is given)."""
    return _Serializer(key, salt=SALT, serializer=_CompactJSON)


def _serializer() -> URLSafeSerializer:
    """One serializer per app and key (building one derives nothing, but costs a few us)."""
    key = current_app.config["SECRET_KEY"]
    cached = current_app.extensions.get("nrrules.token_serializer")
    if cached is None or cached[0] != key:
        cached = (key, serializer(key))
        current_app.extensions["nrrules.token_serializer"] = cached
    return cached[1]


def encoder(key: str) -> Callable[[SessionSpec], str]:
    """`encode` with a given key, outside a request (the command line)."""
    signer = serializer(key)
    return lambda spec: signer.dumps(spec.to_payload())


def encode(spec: SessionSpec) -> str:
    return _serializer().dumps(spec.to_payload())


def decoder(key: str) -> Callable[[str], SessionSpec]:
    """`decode` with a given key, outside a request (the MCP server)."""
    signer = serializer(key)
    return lambda token: _decode(signer, token)


def decode(token: str) -> SessionSpec:
    return _decode(_serializer(), token)


def _decode(signer: URLSafeSerializer, token: str) -> SessionSpec:
    if not token:
        raise BadToken("no session token given")
    if len(token) > MAX_TOKEN:
        raise BadToken(f"session token is too long ({len(token)} characters, at most {MAX_TOKEN})")
    try:
        data = signer.loads(token)
    except BadData:
        raise BadToken(
            "session token is invalid: it was damaged (copied only in part?) or signed by a server "
            "with a different SECRET_KEY",
        ) from None
    return spec_from_payload(data)
