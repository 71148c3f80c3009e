"""Domain errors: what a request or a command can get wrong, with structured fields.

Every error a user can cause is an `NrrulesError`. The API answers it with its `status` and the
JSON of `to_json()` (``{"error": ..., "status": ..., <fields>}``), an HTML page shows its
message, and the CLI prints one ``error: ...`` line and exits with `exit_code`. Nothing else is
caught: any other exception is a bug and is reported as one (a 500, a traceback).

Where natural the errors are also `LookupError` (something named does not exist) or `ValueError`
(the input is malformed), so code that knows only the standard library can still catch them.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

EXIT_BAD_INPUT = 2
EXIT_NOT_FOUND = 1


class NrrulesError(Exception):
    """Base of every error meant for the user. `fields` travel in the JSON answer."""

    status = 400
    exit_code = EXIT_BAD_INPUT

    def __init__(self, message: str, **fields: Any):
        super().__init__(message)
        self.message = message
        self.fields = fields

    def to_json(self) -> dict[str, Any]:
        return {"error": self.message, "status": self.status, **self.fields}


class BadRequest(NrrulesError, ValueError):
    """Malformed input: a missing or over-long parameter, a number out of range."""


class UnsupportedMediaType(BadRequest):
    status = 415


class PayloadTooLarge(BadRequest):
    """A request body or file over a documented bound (a game log of too many bytes or lines)."""

    status = 413


class Unauthorized(NrrulesError):
    """A request that must be signed (a Discord interaction) whose signature is missing, wrong
    or too old."""

    status = 401


class RuleNotFound(NrrulesError, LookupError):
    """No rule has this number or id in this version. `suggestions` are the nearest numbers,
    `present_in` the versions that do have the id (when it was asked for by id)."""

    status = 404
    exit_code = EXIT_NOT_FOUND

    def __init__(
        self,
        message: str,
        *,
        version: str | None = None,
        suggestions: Iterable[str] | None = None,
        present_in: Iterable[str] | None = None,
    ):
        fields: dict[str, Any] = {}
        if suggestions is not None:
            fields["suggestions"] = list(suggestions)
        if present_in is not None:
            fields["present_in"] = list(present_in)
        fields["version"] = version
        super().__init__(message, **fields)


class NotFound(NrrulesError, LookupError):
    """Something other than a rule does not exist (an example board, a citation path)."""

    status = 404
    exit_code = EXIT_NOT_FOUND


class CardNotFound(NotFound):
    """No card has this id, NetrunnerDB code or name; `suggestions` are near card names."""

    def __init__(self, message: str, suggestions: Iterable[str] = ()):
        super().__init__(message, suggestions=list(suggestions))


class UnknownVersion(NrrulesError, LookupError):
    """The CR version asked for is not built. `versions` lists those that are."""

    status = 404

    def __init__(self, asked: str, versions: Iterable[str]):
        names = list(versions)
        super().__init__(
            f"CR version {asked!r} is not available; available versions: {', '.join(names)}",
            versions=names,
        )
        self.asked = asked


class BadBoard(NrrulesError, ValueError):
    """A board (or the structure's parameters) the engine refuses; `problems` names each
    problem by field path: ``[{"path": "corp.credits", "message": "must be ..."}]``."""

    def __init__(self, message: str, problems: list[dict[str, str]]):
        super().__init__(message, problems=problems)
        self.problems = problems


class UnknownStructure(NrrulesError, ValueError):
    """A timing structure this CR version does not have; `structures` lists those it has."""

    def __init__(self, structure: str, version: str, known: list[str]):
        super().__init__(
            f"unknown structure {structure!r} for CR {version}; known: {', '.join(known)}",
            structures=known,
        )


class BadToken(NrrulesError, ValueError):
    """A session token that is damaged, forged, too long or no longer replays."""


class IllegalDecision(NrrulesError, ValueError):
    """A decision that is not legal at this point of a session; `legal` lists those that are."""

    status = 409

    def __init__(self, message: str, legal: list[str]):
        super().__init__(message, legal=legal)


class BuildUnavailable(NrrulesError):
    """The build directory cannot answer (nothing built, damaged or stale build)."""

    status = 503


class NotConfigured(NrrulesError):
    """A part of the service this server is not configured for (the Discord bot without its
    public key); the message says what to set."""

    status = 503


class NoCardData(BuildUnavailable):
    """No NetrunnerDB card data is built beside the rules (`nrrules build --cards`)."""


# ----- the key that signs session tokens (the web app, nrrules serve, the MCP server) ---------

MIN_SECRET_BYTES = 32  # as long as secrets.token_urlsafe(32) gives at the least: not guessable
_KEY_HINT = (
    "set it to a long random string, the same on every worker and machine, "
    "e.g. SECRET_KEY=$(python -c 'import secrets; print(secrets.token_urlsafe(32))')"
)


class MissingSecretKey(NrrulesError, RuntimeError):
    """The app was started for real (not TESTING) without a SECRET_KEY, or with one too short
    to resist guessing (fewer than `MIN_SECRET_BYTES` bytes)."""


def check_secret_key(key: Any) -> None:
    """Refuse a SECRET_KEY that is unset, empty or shorter than `MIN_SECRET_BYTES` bytes (a short
    key can be found by trying keys against one token, and would let anyone forge tokens)."""
    if not key:
        raise MissingSecretKey(f"SECRET_KEY is not set (or empty): {_KEY_HINT}")
    size = len(key.encode("utf-8", "surrogatepass") if isinstance(key, str) else bytes(key))
    if size < MIN_SECRET_BYTES:
        raise MissingSecretKey(
            f"SECRET_KEY is too short ({size} bytes, at least {MIN_SECRET_BYTES} are needed): {_KEY_HINT}"
        )
