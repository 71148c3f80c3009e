"""The Flask application factory (`create_app`), re-exported as `webapp.create_app`.

It lives in its own module so that importing `webapp` (the `nrrules` command line is
`webapp.cli`) does not import Flask: only the commands that serve or export load it.
"""

from __future__ import annotations

import os
from typing import Any

import orjson
from flask import Flask
from flask.json.provider import DefaultJSONProvider
from flask.sessions import SessionInterface
from werkzeug.middleware.proxy_fix import ProxyFix

from . import caches
from .errors import MIN_SECRET_BYTES, MissingSecretKey, check_secret_key  # noqa: F401 (re-exported)
from .httputil import install_http_policies
from .jsonprovider import dumps_bytes
from .library import LibraryHolder
from .reading import install as install_reading
from .textfmt import install as install_textfmt
from .views import api, cards, engine_views, judge_history, offline, pages
from .views import discord as discord_views
from .views import gamelog as gamelog_views

DEV_SECRET = "nrrules-dev-secret-change-me"  # only for apps made with TESTING


class NoCookieSession(SessionInterface):
    """The app is stateless: never read or write a session cookie."""

    def open_session(self, app, request):
        return None  # Flask falls back to a read-only null session

    def save_session(self, app, session, response):
        return None


class FastJSONProvider(DefaultJSONProvider):
    sort_keys = False
    compact = True
    ensure_ascii = False

    def dumps(self, obj: Any, **kwargs: Any) -> str:
        if kwargs.get("indent") is None and not kwargs.get("sort_keys"):
            return dumps_bytes(obj).decode("utf-8")
        kwargs.setdefault("ensure_ascii", False)
        return super().dumps(obj, **kwargs)

    def loads(self, s: str | bytes, **kwargs: Any) -> Any:
        try:
            return orjson.loads(s)
        except orjson.JSONDecodeError:
            try:
                return super().loads(s, **kwargs)  # the standard library's verdict and message
            except RecursionError:
                raise ValueError("JSON nested too deeply") from None

    def response(self, *args: Any, **kwargs: Any) -> Any:
        obj = self._prepare_response_obj(args, kwargs)
        return self._app.response_class(dumps_bytes(obj), mimetype=self.mimetype)


def create_app(test_config: dict[str, Any] | None = None) -> Flask:
    app = Flask(__name__, instance_relative_config=False)
    app.config.from_mapping(
        SECRET_KEY=os.environ.get("SECRET_KEY") or os.environ.get("NRRULES_SECRET_KEY") or None,
        BUILD_DIR=os.environ.get("NRRULES_BUILD_DIR") or None,
        MAX_CONTENT_LENGTH=256 * 1024,  # boards are a few KB; refuse anything large
        # Cache bounds (see webapp/caches.py for every cache, its bounds and why it exists).
        PAGE_CACHE_SIZE=int(os.environ.get("NRRULES_PAGE_CACHE", "2048")),
        PAGE_CACHE_BYTES=int(os.environ.get("NRRULES_PAGE_CACHE_MB", "64")) * 1024 * 1024,
        SEARCH_CACHE_SIZE=int(os.environ.get("NRRULES_SEARCH_CACHE", "4096")),
        SESSION_CACHE_SIZE=int(os.environ.get("NRRULES_SESSION_CACHE", "256")),
        PRELOAD=os.environ.get("NRRULES_PRELOAD", "") in ("1", "true", "yes"),
        PROXY_FIX=os.environ.get("NRRULES_PROXY_FIX", "") in ("1", "true", "yes"),
        JSON_SORT_KEYS=False,
        # Stepper sessions: at most this many decisions are replayed from a token.
        MAX_DECISIONS=400,
        # Short links to stepper sessions (webapp/shortlinks.py): where their files are kept
        # (default: `.shares` in the build directory) and how many at most.
        SHARE_DIR=os.environ.get("NRRULES_SHARE_DIR") or None,
        SHARE_MAX=int(os.environ.get("NRRULES_SHARE_MAX", "10000")),
        # The site's public address for links in answers read elsewhere (Discord), and the
        # Discord application's public key (POST /discord/interactions answers 503 without it).
        BASE_URL=os.environ.get("NRRULES_BASE_URL") or None,
        DISCORD_PUBLIC_KEY=os.environ.get("DISCORD_PUBLIC_KEY") or None,
    )
    if test_config:
        app.config.from_mapping(test_config)
    if not app.testing:
        # A public or guessable key would let anyone forge session tokens: refuse to start.
        # (`nrrules serve`, for local use, makes a random key per process when none is set.)
        check_secret_key(app.config.get("SECRET_KEY"))
    elif not app.config.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = DEV_SECRET  # tests only
    app.session_interface = NoCookieSession()  # nothing is kept per user: no session cookie
    app.json = FastJSONProvider(app)  # orjson: compact UTF-8, keys in insertion order

    caches.init_app(app)
    app.extensions["nrrules.library"] = LibraryHolder(app.config.get("LIBRARY"), app.config["BUILD_DIR"])

    app.register_blueprint(pages.bp)
    app.register_blueprint(api.bp)
    app.register_blueprint(engine_views.bp)
    app.register_blueprint(offline.bp)
    app.register_blueprint(cards.bp)
    app.register_blueprint(judge_history.bp)
    app.register_blueprint(gamelog_views.bp)
    app.register_blueprint(discord_views.bp)
    install_http_policies(app)
    install_reading(app)
    install_textfmt(app)
    if app.config["PROXY_FIX"]:
        # Behind one trusted proxy: take scheme and host from X-Forwarded-* for canonical links.
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=1, x_proto=1, x_host=1)  # type: ignore[method-assign]
    if app.config["PRELOAD"]:
        app.extensions["nrrules.library"].warm()
    return app
