"""`nrrules export`: the static site, served by a plain static file server, answers the same
rule pages and JSON as the app (bytes of the data compared, not headers)."""

from __future__ import annotations

import functools
import http.server
import json
import re
import threading
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

import pytest
from click.testing import CliRunner
from helpers import LATEST

from rules_index.offline import OFFLINE_FILE
from webapp import create_app
from webapp.cli import main
from webapp.export import MARKER, ExportError, coverage_links, defined_terms, export_site, static_links

OLD = "22.12"
BASE = "http://localhost"
# Served by the app only: the board editor and stepper (engine), live search.
DYNAMIC = ("/editor", "/step", "/search?")


@pytest.fixture(scope="module")
def site(cards_built, tmp_path_factory) -> Path:
    """The export of two versions from a build with card data (so the card pages too)."""
    target = tmp_path_factory.mktemp("export") / "site"
    result = export_site(target, cards_built, base_url=BASE, versions=[OLD, LATEST], jobs=2)
    assert result.directory == target and result.versions == [OLD, LATEST]
    assert result.cards > 1900 and result.files > 4 * 1800 + 2 * result.cards
    return target


@pytest.fixture(scope="module")
def static_server(site):
    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Quiet, directory=str(site)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


@pytest.fixture(scope="module")
def client(cards_built):
    return create_app({"BUILD_DIR": str(cards_built), "TESTING": True}).test_client()


def fetch(base: str, path: str) -> tuple[int, bytes]:
    try:
        with urllib.request.urlopen(base + path, timeout=10) as resp:
            return resp.status, resp.read()
    except urllib.error.HTTPError as exc:
        return exc.code, b""


def app_bytes(client, url: str) -> bytes:
    r = client.get(url, base_url=BASE)
    assert r.status_code == 200, url
    return r.get_data()


def sample(library, version: str) -> list:
    doc = library.document(version)
    picked = doc.nodes[::40] + [doc.node("step_jack_out_choice")]
    return [n for n in picked if n is not None]


@pytest.mark.parametrize("version", [OLD, LATEST])
def test_rule_pages_and_json_match_the_app(static_server, client, library, version):
    prefix = "" if version == LATEST else f"/v/{version}"
    q = "" if version == LATEST else f"?v={version}"
    for node in sample(library, version):
        status, data = fetch(static_server, f"{prefix}/api/rules/{node.id}")
        assert status == 200 and data == app_bytes(client, f"/api/rules/{node.id}{q}"), node.id
        assert json.loads(data)["id"] == node.id
        status, page = fetch(static_server, f"{prefix}/id/{node.id}")
        assert status == 200
        app_page = app_bytes(client, f"/id/{node.id}{q}").decode()
        assert page.decode() == static_links(app_page, LATEST), node.id
        main = re.search(r"<main.*</main>", page.decode(), re.S).group(0)
        assert re.sub(r"<[^>]+>", "", main) == re.sub(
            r"<[^>]+>", "", re.search(r"<main.*</main>", app_page, re.S).group(0)
        )
    # every defined term's JSON (what term previews read), byte for byte the app's
    terms = defined_terms(library.document(version))
    assert "paid ability" in terms and "r&d" in terms and len(terms) > 150
    for term in [*terms[::25], "r&d", "android: netrunner"]:
        status, data = fetch(static_server, f"{prefix}/api/terms/{urllib.parse.quote(term)}")
        assert status == 200 and data == app_bytes(client, f"/api/terms/{urllib.parse.quote(term)}{q}"), term
        assert json.loads(data)["defines"], term
    # a printed number leads to its rule page
    status, page = fetch(static_server, f"{prefix}/r/6.9.4c")
    node = library.lookup("6.9.4c", version).node
    assert status == 200 and f'url={prefix}/id/{node.id}"' in page.decode()


def test_card_pages_and_json_match_the_app(static_server, client):
    for card_id in ("ice_wall", "corroder", "snare", "hedge_fund"):
        status, data = fetch(static_server, f"/api/cards/{card_id}")
        assert status == 200 and data == app_bytes(client, f"/api/cards/{card_id}"), card_id
        assert json.loads(data)["id"] == card_id
        status, page = fetch(static_server, f"/c/{card_id}")
        assert status == 200
        assert page.decode() == static_links(app_bytes(client, f"/c/{card_id}").decode(), LATEST), card_id
    # a rule page's card links lead to exported card pages
    status, page = fetch(static_server, "/id/rule_adam")
    cards = re.findall(r'href="(/c/[^"#?]+)"', page.decode())
    assert status == 200 and cards
    assert all(fetch(static_server, c)[0] == 200 for c in cards)


def test_coverage_pages_and_json_match_the_app(static_server, client):
    """The coverage page a card page links, both pools (every card's at its static path, which
    the app redirects to ?pool=all), and the Standard pool's JSON."""
    status, data = fetch(static_server, "/api/cards/coverage")
    assert status == 200 and data == app_bytes(client, "/api/cards/coverage")
    status, card = fetch(static_server, "/c/ice_wall")
    assert 'href="/cards/coverage"' in card.decode()
    for static_path, url in (
        ("/cards/coverage", "/cards/coverage"),
        ("/cards/coverage/all", "/cards/coverage?pool=all"),
    ):
        status, page = fetch(static_server, static_path)
        assert status == 200
        app_page = app_bytes(client, url).decode()
        assert page.decode() == static_links(coverage_links(app_page), LATEST), url
        # no link the static host would answer with another pool's page or JSON
        assert "?pool=all" not in page.decode() and "?pool=all" in app_page
        assert client.get(static_path).status_code in (200, 302)
    standard = fetch(static_server, "/cards/coverage")[1].decode()
    assert 'href="/cards/coverage/all">every card</a>' in standard
    every = fetch(static_server, "/cards/coverage/all")[1].decode()
    assert 'href="/cards/coverage">Standard pool</a>' in every and "as JSON" not in every


def test_shared_files_match_the_app(static_server, client, library, site, cards_built):
    for path in (
        "/sw.js",
        "/manifest.webmanifest",
        "/api/versions",
        f"/offline/{LATEST}.json",
        f"/offline/{OLD}.json",
        f"/offline/{LATEST}/reading.json",
        f"/offline/{OLD}/reading.json",
    ):
        status, data = fetch(static_server, path)
        assert status == 200 and data == app_bytes(client, path), path
    # every page and asset a saved copy keeps is on the static site too (saving fetches them all)
    reading = json.loads(fetch(static_server, f"/offline/{LATEST}/reading.json")[1])
    assert len(reading["cards"]) > 1900 and reading["pages"]
    for url in reading["pages"] + reading["assets"]:
        assert fetch(static_server, url)[0] == 200, url
    assert (
        fetch(static_server, f"/offline/{LATEST}.json")[1]
        == (cards_built / LATEST / OFFLINE_FILE).read_bytes()  # the exported build's own pack
    )
    status, home = fetch(static_server, "/")
    assert status == 200 and f"CR {LATEST}" in home.decode()
    status, whole = fetch(static_server, f"/v/{OLD}/all")
    assert status == 200 and whole.decode().count('class="sub chapter-h"') == len(
        library.document(OLD).chapters()
    )
    status, search = fetch(static_server, "/search?q=jack+out")
    assert status == 200 and b'data-shell="search"' in search
    assert (site / MARKER).exists()


def test_internal_links_resolve_on_the_static_site(static_server, library):
    pages = [
        "/",
        "/all",
        "/id/step_jack_out_choice",
        f"/v/{OLD}/id/step_jack_out_choice",
        "/id/rule_damage_types",
        "/c/snare",
    ]
    links: set[str] = set()
    for p in pages:
        status, html = fetch(static_server, p)
        assert status == 200, p
        links.update(h.replace("&amp;", "&") for h in re.findall(r'href="(/[^"#]*)', html.decode()))
    checked = 0
    for link in sorted(links):
        if link.startswith(DYNAMIC) or "/graph?" in link:
            continue
        m = re.match(r"/v/([\d.]+)/", link)
        if m and m.group(1) != OLD:
            continue  # a version this test did not export
        status, _ = fetch(static_server, link)
        assert status == 200, link
        checked += 1
    assert checked > 100


def test_the_app_answers_the_static_sites_version_paths(client):
    r = client.get(f"/v/{OLD}/id/step_jack_out_choice")
    assert r.status_code == 302 and r.headers["Location"].endswith(f"/id/step_jack_out_choice?v={OLD}")
    assert client.get("/v/99.1/id/x").status_code == 404


def test_export_refuses_to_overwrite_other_files(build_dir, tmp_path):
    target = tmp_path / "mine"
    target.mkdir()
    (target / "notes.txt").write_text("keep me")
    with pytest.raises(ExportError, match="not an earlier nrrules export"):
        export_site(target, build_dir, versions=[LATEST])
    assert (target / "notes.txt").read_text() == "keep me"
    result = CliRunner().invoke(main, ["export", str(target), "--build-dir", str(build_dir)])
    assert result.exit_code == 2 and result.output.startswith("error: ") and "Traceback" not in result.output
    bad = CliRunner().invoke(
        main, ["export", str(tmp_path / "x"), "--build-dir", str(build_dir), "--version", "9.9"]
    )
    assert bad.exit_code == 2 and "9.9" in bad.output
    url = CliRunner().invoke(
        main, ["export", str(tmp_path / "y"), "--build-dir", str(build_dir), "--base-url", "ftp://x"]
    )
    assert url.exit_code == 2 and "--base-url" in url.output
    # a directory that cannot be made: one line naming it (not the temporary folder beside it)
    (tmp_path / "afile").write_text("x")
    for where in (tmp_path / "afile" / "site", tmp_path / "afile" / "deeper" / "site"):
        out = CliRunner().invoke(main, ["export", str(where), "--build-dir", str(build_dir)])
        assert out.exit_code == 2 and "Traceback" not in out.output
        assert out.output == f"error: cannot write an export to {where}: a file is in the way\n"
    assert (tmp_path / "afile").read_text() == "x"


def test_static_site_searches_and_previews_in_the_browser(static_server, library):
    """No server behind the export: search runs on the offline pack, previews read the files."""
    from playwright import sync_api  # only this test drives a browser
    from test_browser import CHROMIUM, CHROMIUM_ARGS

    if not Path(CHROMIUM).exists():
        pytest.skip("Debian's chromium is not installed")
    expected = library.searcher(LATEST).search("jack out", limit=1)[0].id
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        ctx = b.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
        pg = ctx.new_page()
        bad: list[str] = []
        pg.on("response", lambda r: bad.append(r.url) if r.status >= 400 else None)
        pg.on("pageerror", lambda e: bad.append(str(e)))
        try:
            pg.goto(static_server + "/r/6.9.4c")
            pg.wait_for_url("**/id/step_jack_out_choice/")
            pg.fill(".q", "jack out")
            pg.wait_for_selector(".suggest li[role=option] a")
            assert pg.locator(".suggest li[role=option] a").first.get_attribute("href") == f"/id/{expected}"
            pg.keyboard.press("Enter")
            pg.wait_for_selector("body[data-rendered='1']")
            assert pg.locator(".results li a").first.get_attribute("href") == f"/id/{expected}"
            assert not pg.locator("#netstatus").is_visible()  # online: no offline notice
            pg.goto(static_server + f"/v/{OLD}/id/step_jack_out_choice")
            pg.locator("article.rule .text a.ref").first.tap()
            pg.wait_for_selector(".sheet")
            assert pg.locator(".sheet h2 .num").inner_text()
            # a defined term previews from the exported /v/<version>/api/terms/<term> file
            definition = library.document(OLD).node("rule_paid_ability")
            pg.goto(static_server + f"/v/{OLD}/id/{definition.parent}")
            pg.locator("span.term[role=button]", has_text="paid ability").first.tap()
            pg.wait_for_selector(".sheet .sheet-def")
            assert pg.locator(".sheet .sheet-def .num").first.inner_text() == definition.number
            assert pg.locator(".sheet .sheet-open").get_attribute("href") == f"/v/{OLD}/id/{definition.id}"
        finally:
            ctx.close()
            b.close()
    assert not bad, bad
