"""`nrrules export DIR`: the whole reference as plain files for any static host or CDN.

Every file is the app's own answer for its URL (requested from the app in-process, so a page
and its exported file cannot drift apart), written where a static host serves the same URL:

=================================  ===========================================================
URL (latest version)               file
=================================  ===========================================================
``/``, ``/all``                    ``index.html``, ``all/index.html``
``/changes/<a>..<b>``, ``/changes`` ``changes/<a>..<b>/index.html`` (each pair of built versions), a redirect
``/id/<id>``                       ``id/<id>/index.html`` (hosts answer ``/id/<id>`` with it)
``/r/<number>``                    ``r/<number>/index.html``: a redirect page to ``/id/<id>``
``/api/rules/<id>``, ``/api/versions``  ``api/rules/<id>``, ``api/versions`` (JSON, no extension)
``/api/terms/<term>``              ``api/terms/<term>``: every defined term (``api/terms/paid ability``)
``/offline/<v>.json``              the offline pack of every version
``/offline/<v>/reading.json``      its reading pack (cards, rulings, the pages a saved copy keeps)
``/j/``, ``/j/<id>``               ``j/index.html``, ``j/<id>/index.html``: the judges' documents (when built)
``/sw.js``, ``/manifest.webmanifest``, ``/offline.html``, ``/static/...``   as they are
``/search?q=...``                  ``search/index.html``: searches the offline pack in the browser
``/c/<card id>``, ``/api/cards/<id>``  ``c/<id>/index.html``, ``api/cards/<id>`` (when card data is built)
``/cards/coverage``, ``?pool=all``  ``cards/coverage/index.html``, ``cards/coverage/all/index.html``
                                   (what the stepper models of the card pool) and the Standard
                                   pool's JSON ``api/cards/coverage`` (when card data is built)
=================================  ===========================================================

An older version's pages live under ``/v/<version>/`` (``/v/22.12/id/<id>``, ``/v/22.12/all``,
``/v/22.12/api/rules/<id>``): a static host ignores query strings, so the app's ``?v=22.12`` links
are written as ``/v/22.12/...`` paths in exported HTML (the app redirects those paths to its
``?v=`` form, so both address the same page). JSON files are byte for byte the app's.

A static host ignores query strings, so the coverage page of every card (``?pool=all``) is
written at ``/cards/coverage/all`` (the app redirects that path to ``?pool=all``) and links to it
are rewritten; its JSON twin stays on the server (the exported page does not link it).

What stays on the server: live search as you type (the static site searches the offline pack
instead), the rule graph, the board editor and the stepper.
"""

from __future__ import annotations

import os
import re
import shutil
import tempfile
import time
from collections.abc import Iterable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from multiprocessing import get_context
from pathlib import Path

from flask import Flask

from rules_index.store import Library, LibraryError

from . import create_app
from .jsonprovider import dumps_bytes
from .library import rules
from .payloads import rules as rule_payloads
from .views.offline import saved_pages
from .views.pages import page_payload, render_rule

MARKER = ".nrrules-export"
CARDS = "cards"  # the job item that writes the card pages (with the latest version, card data built)
# A link to another version: href="/id/x?v=22.12" (or an absolute one, or data-url=...).
_VLINK = re.compile(r'((?:href|data-url|content)=")((?:https?://[^/"]+)?)(/[^"?#]*)\?v=(\d+\.\d+)(#[^"]*)?"')


class ExportError(Exception):
    """The export cannot be written (bad target directory, nothing built)."""


@dataclass(frozen=True)
class ExportResult:
    directory: Path
    versions: list[str]
    files: int
    bytes: int
    seconds: float
    cards: int = 0


def static_links(html: str, latest: str) -> str:
    """The app's ``?v=`` links as static paths: ``/id/x?v=22.12`` -> ``/v/22.12/id/x``; the
    latest version's links lose the argument."""

    def repl(m: re.Match) -> str:
        attr, host, path, version, frag = m.group(1), m.group(2), m.group(3), m.group(4), m.group(5) or ""
        prefix = "" if version == latest else f"/v/{version}"
        return f'{attr}{host}{prefix}{path}{frag}"'

    html = _VLINK.sub(repl, html)
    # Tell the page's scripts there is no server behind it (search and previews read files).
    return html.replace("<body ", '<body data-static="1" ', 1)


def version_prefix(version: str, latest: str) -> str:
    return "" if version == latest else f"v/{version}/"


def _redirect_page(number: str, href: str) -> bytes:
    return (
        '<!doctype html>\n<html lang="en"><head><meta charset="utf-8">'
        f"<title>CR {number}</title>"
        '<link rel="icon" href="/static/favicon.svg" type="image/svg+xml">'
        f'<link rel="canonical" href="{href}"><meta http-equiv="refresh" content="0; url={href}">'
        f'</head><body><p><a href="{href}">CR {number}</a></p></body></html>\n'
    ).encode()


def check_rel(rel: str) -> str:
    """`rel` if it is a plain relative path that stays inside the export (every file's path is
    made from ids of the build: a card id "../../x" in the card data must not write outside)."""
    parts = rel.split("/")
    if any(p in ("", ".", "..") or "\x00" in p or "\\" in p for p in parts) or len(rel) > 1024:
        raise ExportError(
            f"refusing to write {rel[:200]!r}: not a plain path inside the export (a bad id in the build?)"
        )
    return rel


class _Writer:
    def __init__(self, root: Path):
        self.root = root
        self.files = 0
        self.bytes = 0
        self._dirs: set[str] = set()

    def put(self, rel: str, data: bytes) -> None:
        check_rel(rel)
        folder, _, _ = rel.rpartition("/")
        if folder not in self._dirs:  # one mkdir per folder: file system calls are most of the cost
            os.makedirs(self.root / folder, exist_ok=True)
            self._dirs.add(folder)
        with open(self.root / rel, "wb") as f:
            f.write(data)
        self.files += 1
        self.bytes += len(data)


# The app of the export running in this process: made before the worker processes fork, with
# every version's document loaded (each rule page lists the rule in every version), so the
# workers share it instead of each loading the same documents again.
_APPS: dict[str | None, Flask] = {}


def _client(build_dir: str | None):
    app = _APPS.get(build_dir)
    if app is None:
        app = create_app(
            {
                "BUILD_DIR": build_dir,
                "TESTING": True,
                "PAGE_CACHE_SIZE": 1,  # each page is asked for once
                "SEARCH_CACHE_SIZE": 0,
            }
        )
    return app, app.test_client()


def _get(client, url: str, base_url: str) -> bytes:
    """The app's answer for a GET of ``url``: dispatched in-process (the views, error handlers
    and after-request policies of a real request, without the WSGI round trip)."""
    app = client.application
    with app.test_request_context(url, base_url=base_url):
        resp = app.full_dispatch_request()
    if resp.status_code != 200:
        raise ExportError(f"the app answered {url} with HTTP {resp.status_code}")
    return resp.get_data()


def _export_versions(job: tuple[str | None, str, str, list[str]]) -> tuple[int, int]:
    """Write every page and JSON file of some versions (one process)."""
    build_dir, root, base_url, versions = job

    app, client = _client(build_dir)
    out = _Writer(Path(root))
    with app.app_context():
        library = rules().library
        latest = library.latest
        for v in versions:
            if v == CARDS:
                _card_files(client, out, base_url, latest)
                continue
            doc = library.document(v)
            prefix = version_prefix(v, latest)
            q = "" if v == latest else f"?v={v}"

            def html(url: str, rel: str, v: str = v) -> None:
                body = _get(client, url, base_url).decode("utf-8")
                out.put(rel, static_links(body, latest).encode("utf-8"))

            html(f"/{q}", f"{prefix}index.html")
            html(f"/all{q}", f"{prefix}all/index.html")
            if v == latest:  # what changed between each pair of versions; /changes: the latest pair
                names = rules().version_names()
                for a, b in zip(names, names[1:], strict=False):
                    html(f"/changes/{a}..{b}", f"changes/{a}..{b}/index.html")
                if len(names) > 1:
                    pair = f"{names[-2]}..{names[-1]}"
                    out.put("changes/index.html", _redirect_page(f"{pair} changes", f"/changes/{pair}"))
                for url in saved_pages(v):  # the judges' documents (a saved copy keeps them)
                    if url.startswith("/j/"):
                        html(
                            url,
                            url.lstrip("/") + "index.html"
                            if url == "/j/"
                            else url.lstrip("/") + "/index.html",
                        )
            _rule_files(app, out, doc, v, latest, base_url)
            out.put(f"offline/{v}.json", _get(client, f"/offline/{v}.json", base_url))
            # the reading pack (cards, rulings, the pages a saved copy keeps): webapp.views.offline
            out.put(f"offline/{v}/reading.json", _get(client, f"/offline/{v}/reading.json", base_url))
    return out.files, out.bytes


def _rule_files(app, out: _Writer, doc, v: str, latest: str, base_url: str) -> None:
    """Every rule's page, JSON twin and number redirect. The bodies come from the functions the
    views answer with (`render_rule`, the rule payload through the app's JSON encoder), called
    in one request context per version rather than one dispatched request per file: the same
    bytes (tests/test_offline_export.py compares them with the app's answers) for about half the
    CPU (no per-request context, ETag, gzip and page cache, which a file does not need)."""
    prefix = version_prefix(v, latest)
    q = "" if v == latest else f"?v={v}"
    ctx = rules()
    with app.test_request_context(f"/{q}", base_url=base_url):
        for node in doc.nodes:
            found = ctx.find_by_id(node.id, v)
            shown = page_payload(found)
            # the JSON twin, as /api/rules/<ref> answers: a ref ending in "+" (an id may:
            # rule_54+) asks for the rules below it too. It is the page's payload (made once),
            # without the rules below unless asked; only a chapter asked with "+" differs more.
            below = node.id.endswith("+")
            if below == ("descendants" in shown):
                twin = shown
            elif not below:
                twin = {k: x for k, x in shown.items() if k != "descendants"}
            else:
                twin = rule_payloads.rule(ctx, found, descendants=True)
            out.put(f"{prefix}api/rules/{node.id}", dumps_bytes(twin))
            page = render_rule(found, shown)
            out.put(f"{prefix}id/{node.id}/index.html", static_links(page, latest).encode("utf-8"))
            if node.number:
                out.put(
                    f"{prefix}r/{node.number}/index.html",
                    _redirect_page(node.number, f"/{prefix}id/{node.id}"),
                )
        # every defined term's JSON, as /api/terms/<term> answers (term previews read it)
        for term in defined_terms(doc):
            out.put(f"{prefix}api/terms/{term}", dumps_bytes(rule_payloads.term_rules(ctx, v, term)))


def defined_terms(doc) -> list[str]:
    """The terms a version's rules define, as /api/terms/<term> names them (lowercase, spaces
    collapsed; a file name on a static host, so never one holding a slash)."""
    return sorted(
        {t for n in doc.nodes for t in (" ".join(x.split()).lower() for x in n.terms) if t and "/" not in t}
    )


def _card_files(client, out: _Writer, base_url: str, latest: str) -> None:
    """Every card's page and JSON twin (``/c/<id>``, ``/api/cards/<id>``, the latest version:
    rule pages link cards there), and the coverage pages the card pages link. The card's JSON holds its rulings; ``/api/cards/<id>/rulings``
    and ``/board`` stay on the server (a static host cannot hold both a file and a folder at
    ``api/cards/<id>``), as does card search."""
    for card in rules().library.cards().cards():
        check_rel(f"c/{card.id}/index.html")  # an id that would leave the export is refused first
        page = _get(client, f"/c/{card.id}", base_url).decode("utf-8")
        out.put(f"c/{card.id}/index.html", static_links(page, latest).encode("utf-8"))
        out.put(f"api/cards/{card.id}", _get(client, f"/api/cards/{card.id}", base_url))
    _coverage_files(client, out, base_url, latest)


# The coverage page's links a static host cannot answer (it ignores ?pool=all): the page of every
# card has a path of its own; its JSON twin is not exported, so the exported page does not link it.
_POOL_ALL_PAGE = 'href="/cards/coverage?pool=all"'
_POOL_ALL_JSON = re.compile(
    r'<link rel="alternate" type="application/json" href="/api/cards/coverage\?pool=all">\n?'
    r'| · <a href="/api/cards/coverage\?pool=all">as JSON</a>'
)


def coverage_links(html: str) -> str:
    """An exported coverage page's links to the page of every card as its static path."""
    return _POOL_ALL_JSON.sub("", html.replace(_POOL_ALL_PAGE, 'href="/cards/coverage/all"'))


def _coverage_files(client, out: _Writer, base_url: str, latest: str) -> None:
    """The card coverage pages (the Standard pool's and every card's) and the Standard pool's JSON."""
    for url, rel in (
        ("/cards/coverage", "cards/coverage/index.html"),
        ("/cards/coverage?pool=all", "cards/coverage/all/index.html"),
    ):
        page = _get(client, url, base_url).decode("utf-8")
        out.put(rel, static_links(coverage_links(page), latest).encode("utf-8"))
    out.put("api/cards/coverage", _get(client, "/api/cards/coverage", base_url))


def _check_cards(library) -> None:
    """ExportError when a card build is there but cannot be served: checked first, before the
    app opens it (which logs the problem), so the command says it in one error line."""
    from rules_index.cards import CardsNotBuilt, CardStore

    if (library.build_dir / "cards" / "meta.json").exists():
        try:
            CardStore.open(library.build_dir)
        except CardsNotBuilt as exc:
            raise ExportError(f"the card build cannot be exported: {exc}") from None


def _card_count(library) -> int:
    try:
        return len(library.cards())
    except LibraryError as exc:
        if "cards" in library.source_problems:  # built but refused (damaged, altered): never exported
            raise ExportError(f"the card build cannot be exported: {exc.message}") from None
        return 0  # no card data built: rule pages link NetrunnerDB instead


def _split(versions: list[str], jobs: int) -> list[list[str]]:
    parts: list[list[str]] = [[] for _ in range(max(1, min(jobs, len(versions))))]
    for i, v in enumerate(versions):
        parts[i % len(parts)].append(v)
    return parts


def export_site(
    target: Path | str,
    build_dir: Path | str | None = None,
    base_url: str = "http://localhost",
    versions: Iterable[str] | None = None,
    jobs: int | None = None,
) -> ExportResult:
    """Write the static site into ``target`` (created, or replaced if it holds an earlier
    export). Written into a temporary directory beside it first, then swapped in."""
    t0 = time.perf_counter()
    target = Path(target).expanduser()
    if target.exists() and (
        not target.is_dir() or (any(target.iterdir()) and not (target / MARKER).exists())
    ):
        raise ExportError(
            f"{target} exists and is not an earlier nrrules export; choose a new or empty directory"
        )
    if not re.fullmatch(r"https?://[^/\s\"'<>]+", base_url.rstrip("/")):
        raise ExportError(f"--base-url must be like https://rules.example.org, not {base_url!r}")
    base_url = base_url.rstrip("/")
    bdir = str(build_dir) if build_dir else None
    try:
        library = Library.open(bdir)
    except LibraryError as exc:
        raise ExportError(str(exc)) from None
    names = [i.version for i in library.versions()]
    wanted = list(versions) if versions else names
    unknown = [v for v in wanted if v not in names]
    if unknown:
        raise ExportError(f"CR version(s) {', '.join(unknown)} not built; built: {', '.join(names)}")
    if library.latest in wanted:
        _check_cards(library)
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        clean_leftovers(target)
        tmp = Path(tempfile.mkdtemp(prefix=f".{target.name}-export-{os.getpid()}-", dir=target.parent))
        os.chmod(tmp, 0o777 & ~_umask())  # mkdtemp makes 0700: a web server user must read it
    except OSError as exc:  # named by the directory asked for, not the temporary one beside it
        why = (
            "a file is in the way" if isinstance(exc, (FileExistsError, NotADirectoryError)) else exc.strerror
        )
        raise ExportError(f"cannot write an export to {target}: {why or exc}") from None
    try:
        app, _ = _client(bdir)
        _APPS[bdir] = app
        with app.app_context():
            rules().library.documents()  # loaded once, before the workers fork (see _APPS)
        files, size = _export_common(bdir, tmp, base_url)
        cards = _card_count(library) if library.latest in wanted else 0
        items = wanted + ([CARDS] if cards else [])
        jobs = jobs or min(2, os.cpu_count() or 1, len(items))
        work = [(bdir, str(tmp), base_url, part) for part in _split(items, jobs)]
        if len(work) == 1:
            results = [_export_versions(work[0])]
        else:
            with ProcessPoolExecutor(len(work), mp_context=get_context("fork")) as pool:
                results = list(pool.map(_export_versions, work))
        for f, b in results:
            files += f
            size += b
        (tmp / MARKER).write_text(
            f"nrrules export of CR {', '.join(wanted)} for {base_url}\n", encoding="utf-8"
        )
        old = None
        if target.exists():
            old = target.with_name(f".{target.name}-old-{os.getpid()}")
            os.replace(target, old)
        os.replace(tmp, target)
        if old is not None:
            shutil.rmtree(old, ignore_errors=True)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    finally:
        _APPS.pop(bdir, None)
    return ExportResult(target, wanted, files, size, time.perf_counter() - t0, cards)


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def _pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # someone else's process: alive
        return True
    return True


def clean_leftovers(target: Path) -> list[str]:
    """Remove the temporary and old copies that killed exports to `target` left beside it
    (``.<name>-export-<pid>-*``, ``.<name>-old-<pid>``) once the process that made them is gone:
    an export still running keeps its own."""
    removed = []
    pattern = re.compile(rf"\.{re.escape(target.name)}-(?:export|old)-(\d+)(?:-.*)?")
    for entry in target.parent.iterdir():
        m = pattern.fullmatch(entry.name)
        if m is None or _pid_alive(int(m.group(1))) or entry.is_symlink():
            continue
        if entry.is_dir():
            shutil.rmtree(entry, ignore_errors=True)
        else:
            entry.unlink(missing_ok=True)
        removed.append(entry.name)
    return removed


def _export_common(build_dir: str | None, root: Path, base_url: str) -> tuple[int, int]:
    """The files every version shares: assets, service worker, manifest, shells, 404 page."""

    app, client = _client(build_dir)
    out = _Writer(root)
    static = Path(app.static_folder or "")
    for path in sorted(static.rglob("*")):
        if path.is_file():
            out.put(f"static/{path.relative_to(static).as_posix()}", path.read_bytes())
    with app.app_context():
        latest = rules().library.latest
    for url, rel in (
        ("/sw.js", "sw.js"),
        ("/manifest.webmanifest", "manifest.webmanifest"),
        ("/offline.html", "offline.html"),
        ("/offline.html?static=search", "search/index.html"),
        ("/api/versions", "api/versions"),
        ("/api/openapi.yaml", "api/openapi.yaml"),
    ):
        data = _get(client, url, base_url)
        if rel.endswith(".html"):
            data = static_links(data.decode("utf-8"), latest).encode("utf-8")
        out.put(rel, data)
    missing = client.get("/id/no_such_rule_exists", base_url=base_url)
    out.put("404.html", static_links(missing.get_data(as_text=True), latest).encode("utf-8"))
    return out.files, out.bytes
