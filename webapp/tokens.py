"""Engine sessions as signed, compressed URL tokens, so the server keeps no session state.

A token carries what is needed to rebuild a session exactly: the CR version, the structure and
its parameters, the seed, the board as the user gave it, and the decisions taken so far. The
engine is deterministic, so replaying the decisions reproduces the session (and undo is simply
the same token without its last decision). Tokens are signed with SECRET_KEY (itsdangerous,
zlib-compressed when that is shorter), so a server never replays a board it did not validate.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

import orjson
from flask import current_app
from itsdangerous import BadData, URLSafeSerializer

from .errors import BadToken
from .jsonprovider import dumps_bytes

SALT = "nrrules.engine.session.v1"
MAX_TOKEN = 12000  # characters; a typical board is well under 2000


@dataclass
class SessionSpec:
    version: str
    structure: str
    board: dict[str, Any]
    params: dict[str, Any] = field(default_factory=dict)
    seed: int = 0
    decisions: list[str] = field(default_factory=list)

    def to_payload(self) -> dict[str, Any]:
        return {
            "v": self.version,
            "s": self.structure,
            "p": self.params,
            "r": self.seed,
            "b": self.board,
            "d": self.decisions,
        }

    @classmethod
    def from_payload(cls, data: Any) -> SessionSpec:
        if not isinstance(data, dict) or not {"v", "s", "b", "d"} <= set(data):
            raise BadToken("session token does not hold an engine session")
        return cls(
            version=data["v"],
            structure=data["s"],
            board=data["b"],
            params=data.get("p") or {},
            seed=int(data.get("r") or 0),
            decisions=list(data["d"]),
        )

    def with_decisions(self, decisions: list[str]) -> SessionSpec:
        return SessionSpec(self.version, self.structure, self.board, self.params, self.seed, list(decisions))


class _CompactJSON:
    """The token payload's JSON, through orjson (the same compact text as itsdangerous's own)."""

    @staticmethod
    def dumps(obj: Any, **kwargs: Any) -> str:
        return dumps_bytes(obj).decode("utf-8")

    @staticmethod
    def loads(data: str | bytes, **kwargs: Any) -> Any:
        try:
            return orjson.loads(data)
        except orjson.JSONDecodeError:
            return json.loads(data)  # what orjson refuses (e.g. integers beyond 64 bits)


def _serializer() -> URLSafeSerializer:
    """One serializer per app and key (building one derives nothing, but costs a few us)."""
    key = current_app.config["SECRET_KEY"]
    cached = current_app.extensions.get("nrrules.token_serializer")
    if cached is None or cached[0] != key:
        cached = (key, URLSafeSerializer(key, salt=SALT, serializer=_CompactJSON))
        current_app.extensions["nrrules.token_serializer"] = cached
    return cached[1]


def encode(spec: SessionSpec) -> str:
    return _serializer().dumps(spec.to_payload())


def decode(token: str) -> SessionSpec:
    if not token:
        raise BadToken("no session token given")
    if len(token) > MAX_TOKEN:
        raise BadToken(f"session token is too long ({len(token)} characters, at most {MAX_TOKEN})")
    try:
        data = _serializer().loads(token)
    except BadData:
        raise BadToken(
            "session token is invalid: it was damaged (copied only in part?) or signed by a server "
            "with a different SECRET_KEY",
        ) from None
    return SessionSpec.from_payload(data)
