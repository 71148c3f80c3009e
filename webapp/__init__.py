"""The nrrules web app: rule pages, search, board editor, stepper and a JSON API.

Flask application factory in the style of Flask's tutorial (flaskr)::

    from webapp import create_app
    app = create_app()                      # config from the environment
    app = create_app({"BUILD_DIR": path})   # tests

Configuration (environment variables, overridable by ``test_config``):

``NRRULES_BUILD_DIR``  the build directory written by ``nrrules build`` (default: the
                       rules_index default, ``~/.cache/nrrules/build``).
``SECRET_KEY``         signs engine session tokens. Every worker and machine behind one load
                       balancer must share it, or links made on one will not open on another.
                       Required, at least 32 bytes: without it, or with a shorter one, the app
                       refuses to start (except with TESTING).
``NRRULES_PRELOAD=1``  load every version and warm search when a worker starts, not on its
                       first requests (`nrrules serve` always does).
``NRRULES_SHARE_DIR``  where short links to stepper sessions (/s/<id>) are kept (default: ``.shares``
                       in the build directory); every worker, and every machine meant to open
                       the others' short links, must see the same directory. ``NRRULES_SHARE_MAX``:
                       how many at most (10,000).
``NRRULES_PROXY_FIX=1`` trust one proxy's X-Forwarded-Proto/Host for canonical (shared) links.
``NRRULES_BASE_URL``   the site's public address (https://rules.example.org) for links in answers
                       read elsewhere: the Discord bot's embeds (default: the request's address).
``DISCORD_PUBLIC_KEY`` the Discord application's public key: enables POST /discord/interactions
                       (docs/discord.md).
``NRRULES_PAGE_CACHE`` (+ ``_MB``), ``NRRULES_SEARCH_CACHE``, ``NRRULES_SESSION_CACHE``: sizes of the
                       bounded in-process caches (0 disables the search and session caches);
                       every cache, its bounds in entries and bytes and its reason: caches.py.

See docs/deploy.md.

The app keeps no per-user state: engine sessions travel in signed URL tokens, and every
in-process cache is bounded in entries and bytes (webapp/caches.py).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .factory import (
        DEV_SECRET,
        MIN_SECRET_BYTES,
        MissingSecretKey,
        NoCookieSession,
        check_secret_key,
        create_app,
    )

__all__ = [
    "DEV_SECRET",
    "MIN_SECRET_BYTES",
    "MissingSecretKey",
    "NoCookieSession",
    "check_secret_key",
    "create_app",
]


def __getattr__(name: str) -> Any:
    """`webapp.create_app` and the factory's other names, imported (with Flask) on first use."""
    if name in __all__:
        from . import factory

        return getattr(factory, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
