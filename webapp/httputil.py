"""HTTP policies shared by every view: security headers, CORS for GET API calls, gzip, caching
headers, error pages, a bounded cache for rendered pages and content-hashed static URLs."""

from __future__ import annotations

import gzip
import hashlib
from pathlib import Path
from typing import Any
from urllib.parse import quote, urlencode, urlsplit

from flask import (
    Flask,
    Response,
    current_app,
    g,
    has_request_context,
    jsonify,
    redirect,
    render_template,
    request,
    url_for,
)
from isal import igzip
from werkzeug.exceptions import HTTPException

from rules_index.search import StaleIndexError
from rules_index.store import LibraryError

from .caches import cache
from .errors import BuildUnavailable, NrrulesError

CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
)
COMPRESSIBLE = (
    "text/",
    "application/json",
    "application/javascript",
    "application/yaml",
    "image/svg+xml",
    "application/wasm",  # the in-browser engine (issue 35): 9.6 MB, 3.6 MB gzipped
)
GZIP_MIN = 1024
SECURITY_HEADERS = (
    ("X-Content-Type-Options", "nosniff"),
    ("X-Frame-Options", "DENY"),
    ("Referrer-Policy", "strict-origin-when-cross-origin"),
)
STATIC_MAX_AGE = 365 * 24 * 3600
PAGE_MAX_AGE = 300


# What may stay unquoted in a redirect target: the URL's own delimiters and escapes. Anything
# else (control characters, blanks, backslashes, non-ASCII) is percent-encoded, so a browser
# cannot read a host into it ("/\t/evil.com" and "/\\evil.com" are read as "//evil.com").
_URL_SAFE = "/?#&=%:@!$'()*+,;~"


def in_site(target: str) -> str:
    """`target` as a path of this site: a redirect never leaves it. A scheme or host is dropped
    (``http://evil.example/x`` -> ``/x``), leading slashes collapse to one (``//evil.com`` ->
    ``/evil.com``) and characters a browser would ignore or reinterpret are percent-encoded."""
    quoted = quote(target, safe=_URL_SAFE, errors="surrogatepass")
    parts = urlsplit(quoted)
    path = "/" + parts.path.lstrip("/")
    return (
        path + (f"?{parts.query}" if parts.query else "") + (f"#{parts.fragment}" if parts.fragment else "")
    )


def local_redirect(target: str, code: int = 302) -> Response:
    """A redirect to `target` made an in-site path (see `in_site`): every view redirects with it."""
    return redirect(in_site(target), code=code)


def with_query(path: str) -> str:
    """`path` with the request's query arguments, as they came (every key and value kept)."""
    args = list(request.args.items(multi=True))
    return f"{path}?{urlencode(args, errors='surrogatepass')}" if args else path


def wants_json() -> bool:
    return request.path.startswith("/api/")


def json_error(status: int, message: str, **extra: Any) -> Response:
    body = {"error": message, "status": status}
    body.update(extra)
    resp = jsonify(body)
    resp.status_code = status
    return resp


def _static_hash(app: Flask, filename: str) -> str:
    cache: dict[str, str] = app.extensions.setdefault("nrrules.static_hashes", {})
    h = cache.get(filename)
    if h is None:
        path = Path(app.static_folder or "") / filename
        try:
            h = hashlib.sha256(path.read_bytes()).hexdigest()[:10]
        except OSError:
            h = "missing"
        cache[filename] = h
    return h


def url_memo(name: str) -> dict:
    """A dict to remember built URLs in while the request lasts (one page, or one version of an
    `nrrules export`; the app context outside a request): url_for costs ~40 us, a rule page
    builds ~30 URLs and an export builds pages by the thousand."""
    if has_request_context():  # per request: its site root is fixed (request.root_url is not free)
        return request.environ.setdefault("nrrules.url_memo", {}).setdefault(name, {})
    return g.setdefault("nrrules_url_memo", {}).setdefault(name, {})


def static_url(filename: str) -> str:
    """URL of a static file with its content hash, so it can be cached for a year."""
    memo = url_memo("static")
    url = memo.get(filename)
    if url is None:
        url = memo[filename] = url_for("static", filename=filename, h=_static_hash(current_app, filename))
    return url


def asset_revision(app: Flask) -> str:
    """Changes whenever a template or static file changes (part of every page ETag)."""
    rev = app.extensions.get("nrrules.asset_rev")
    if rev is None:
        h = hashlib.sha256()
        for folder in (Path(app.root_path) / "templates", Path(app.static_folder or "")):
            for path in sorted(folder.rglob("*")):
                if path.is_file() and "vendor" not in path.parts:
                    h.update(path.name.encode())
                    h.update(path.read_bytes())
        rev = h.hexdigest()[:12]
        app.extensions["nrrules.asset_rev"] = rev
    return rev


def gzip_bytes(data: bytes, fast: bool = False) -> bytes:
    """gzip. Bodies compressed once and cached get zlib's level 6; `fast` (a body made for one
    request) uses ISA-L's level 1, which on our JSON and HTML is 2-3x faster than zlib's fastest
    level and still a little smaller (bench: 31 us against 64 us for an engine step's 14 KB)."""
    return igzip.compress(data, compresslevel=1, mtime=0) if fast else gzip.compress(data, 6, mtime=0)


def accepts_gzip() -> bool:
    return "gzip" in request.headers.get("Accept-Encoding", "").lower()


def cached_response(body: bytes, gz: bytes | None, etag: str, mimetype: str, max_age: int) -> Response:
    """A response for pre-rendered bytes: 304 on a matching If-None-Match, gzip when accepted."""
    resp = Response(mimetype=mimetype)
    resp.set_etag(etag)
    resp.headers["Cache-Control"] = f"public, max-age={max_age}"
    resp.vary.add("Accept-Encoding")
    if request.if_none_match.contains(etag):
        resp.status_code = 304
        return resp
    if gz is not None and accepts_gzip():
        resp.set_data(gz)
        resp.headers["Content-Encoding"] = "gzip"
    else:
        resp.set_data(body)
    return resp


def install_http_policies(app: Flask) -> None:
    app.jinja_env.globals["static_url"] = static_url

    @app.errorhandler(NrrulesError)
    def _domain_error(exc: NrrulesError):
        if wants_json():
            resp = jsonify(exc.to_json())
            resp.status_code = exc.status
            return resp
        return (
            render_template("error.html", status=exc.status, message=exc.message, extra=exc.fields),
            exc.status,
        )

    def _unavailable(exc: Exception):
        # The build directory cannot answer (nothing built, stale or damaged index): say so.
        app.logger.error("build problem: %s", exc)
        return _domain_error(BuildUnavailable(getattr(exc, "message", None) or str(exc)))  # no server path

    app.register_error_handler(LibraryError, _unavailable)
    app.register_error_handler(StaleIndexError, _unavailable)

    @app.errorhandler(HTTPException)
    def _http_error(exc: HTTPException):
        message = exc.description or exc.name
        if exc.code == 413:
            message = f"request body too large (limit {app.config['MAX_CONTENT_LENGTH']} bytes)"
        if wants_json():
            resp = json_error(exc.code or 500, message)
        else:
            resp = Response(
                render_template("error.html", status=exc.code, message=message, extra={}),
                status=exc.code,
                mimetype="text/html",
            )
        if exc.code == 413:
            # the rest of the body is not read: the connection cannot carry another request
            resp.headers["Connection"] = "close"
        if exc.code == 405:
            resp.headers["Allow"] = ", ".join(exc.valid_methods or [])  # type: ignore[attr-defined]
        return resp

    @app.errorhandler(Exception)
    def _unexpected(exc: Exception):
        if isinstance(exc, HTTPException):
            return _http_error(exc)
        app.logger.exception("unhandled error on %s", request.path)
        if wants_json():
            return json_error(500, "internal error")
        return render_template("error.html", status=500, message="internal error", extra={}), 500

    @app.after_request
    def _policies(resp: Response) -> Response:
        h = resp.headers
        # Which headers the view set, in one pass: werkzeug's Headers answers a lookup of a
        # missing name by raising and catching an exception, ~3 us each, on every request.
        present = {k.lower() for k, _ in h.items()}
        if "location" in present:
            # werkzeug's own redirects (merged slashes, a missing trailing slash) are absolute
            # URLs made from the request's Host header: every redirect is an in-site path.
            h["Location"] = in_site(h["Location"])
        html = resp.mimetype == "text/html"
        for name, value in SECURITY_HEADERS:
            if name.lower() not in present:
                h.add(name, value)
        if html and "content-security-policy" not in present:
            h.add("Content-Security-Policy", CSP)
        method = request.method
        if request.path.startswith("/api/"):
            if method in ("GET", "HEAD", "OPTIONS"):
                h["Access-Control-Allow-Origin"] = "*"
            if "cache-control" not in present:
                h.add("Cache-Control", "no-store" if method == "POST" else f"public, max-age={PAGE_MAX_AGE}")
            if method == "GET" and resp.status_code == 200 and "etag" not in present:
                resp.add_etag()
                resp.make_conditional(request)
        if request.endpoint == "static":
            if request.args.get("h"):
                h["Cache-Control"] = f"public, max-age={STATIC_MAX_AGE}, immutable"
            else:
                h["Cache-Control"] = "public, max-age=3600"
        if resp.status_code >= 400:
            # An error is about this moment (a typo, a version being rebuilt): a CDN or browser
            # must not keep it and keep answering it after the cause is gone.
            h["Cache-Control"] = "no-store"
        if "content-encoding" not in present:
            _maybe_gzip(resp)
        return resp


def _maybe_gzip(resp: Response) -> None:
    if resp.status_code != 200 or not accepts_gzip() or not (resp.mimetype or "").startswith(COMPRESSIBLE):
        return
    if resp.is_streamed and not resp.direct_passthrough:
        return
    resp.direct_passthrough = False
    data = resp.get_data()
    if len(data) < GZIP_MIN:
        return
    static = cache("static_gzip") if request.endpoint == "static" else None
    if static is not None:
        key = (request.path, resp.headers.get("ETag"))
        gz = static.get(key)
        if gz is None:
            gz = gzip_bytes(data)
            static.put(key, gz)
    else:
        gz = gzip_bytes(data, fast=True)
    resp.set_data(gz)
    resp.headers["Content-Encoding"] = "gzip"
    resp.vary.add("Accept-Encoding")
