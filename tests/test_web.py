"""Flask test-client tests for the rule pages, search and the rules JSON API, against a real
build of all six CR versions (the `build_dir` fixture)."""

from __future__ import annotations

import gzip
import re
from pathlib import Path

import pytest

from webapp import create_app
from webapp.caches import cache

LATEST = "26.03"


@pytest.fixture(scope="module")
def app(build_dir):
    return create_app({"TESTING": True, "BUILD_DIR": str(build_dir), "SECRET_KEY": "test-secret"})


@pytest.fixture()
def client(app):
    return app.test_client()


def get(client, url, **headers):
    headers.setdefault("Accept-Encoding", "identity")
    return client.get(url, headers=headers)


def page_text(resp) -> str:
    return resp.get_data(as_text=True)


# ----- security and HTTP policies ----------------------------------------------------------------


def test_security_headers_on_html(client):
    resp = get(client, "/r/6.9.4c")
    assert resp.status_code == 200
    csp = resp.headers["Content-Security-Policy"]
    assert "default-src 'self'" in csp and "script-src 'self'" in csp and "unsafe-inline" not in csp
    assert resp.headers["X-Content-Type-Options"] == "nosniff"
    assert resp.headers["X-Frame-Options"] == "DENY"


@pytest.mark.parametrize(
    "url", ["/", "/r/6.9.4c", "/r/6.9", "/all", "/search?q=jack+out", "/r/99.99", "/editor"]
)
def test_no_inline_script_or_style(client, url):
    html = page_text(get(client, url))
    for tag in re.findall(r"<script\b[^>]*>", html):
        assert "src=" in tag, tag
    assert not re.search(r"<style\b", html)
    assert not re.search(r"\sstyle=", html)
    assert not re.search(r"\son[a-z]+=", html)


def test_rule_page_etag_304_and_cache_control(client):
    resp = get(client, "/r/6.9.4c")
    etag = resp.headers["ETag"]
    assert "max-age" in resp.headers["Cache-Control"]
    again = client.get("/r/6.9.4c", headers={"If-None-Match": etag})
    assert again.status_code == 304
    assert again.data == b""
    other = get(client, "/r/6.9.4d")
    assert other.headers["ETag"] != etag


def test_gzip_when_accepted(client):
    plain = get(client, "/r/6.9")
    zipped = client.get("/r/6.9", headers={"Accept-Encoding": "gzip, br"})
    assert zipped.headers["Content-Encoding"] == "gzip"
    assert "Accept-Encoding" in zipped.headers["Vary"]
    assert gzip.decompress(zipped.data) == plain.data
    assert len(zipped.data) < len(plain.data) / 2
    assert "Content-Encoding" not in plain.headers


def test_gzip_on_api_and_static(client):
    resp = client.get("/api/rules/6.9?children=1", headers={"Accept-Encoding": "gzip"})
    assert resp.headers["Content-Encoding"] == "gzip"
    assert b'"id":"sec_steps_of_a_run"' in gzip.decompress(resp.data)
    page = page_text(get(client, "/"))
    css = re.search(r'href="(/static/app\.css\?h=[0-9a-f]+)"', page).group(1)
    st = client.get(css, headers={"Accept-Encoding": "gzip"})
    assert st.status_code == 200
    assert "immutable" in st.headers["Cache-Control"]
    assert st.headers["Content-Encoding"] == "gzip"
    assert b".rule" in gzip.decompress(st.data)


def test_static_hash_matches_content(client, app):
    import hashlib

    page = page_text(get(client, "/"))
    m = re.search(r'src="/static/app\.js\?h=([0-9a-f]+)"', page)
    data = (Path(app.static_folder) / "app.js").read_bytes()
    assert m.group(1) == hashlib.sha256(data).hexdigest()[:10]


# ----- rule pages --------------------------------------------------------------------------------


def test_rule_page_by_number(client):
    resp = get(client, "/r/6.9.4c")
    assert resp.status_code == 200
    html = page_text(resp)
    assert '<span class="num">6.9.4c</span>' in html
    assert "The Runner may choose to jack out" in html
    # breadcrumbs
    assert ">6 Runs</a>" in html and ">6.9 Steps of a Run</a>" in html and ">6.9.4 Movement Phase</a>" in html
    # previous / next
    assert re.search(r'rel="prev"[^>]*href="/id/[^"]+">← 6\.9\.4b', html)
    assert re.search(r'rel="next"[^>]*href="/id/[^"]+">6\.9\.4d', html)
    # what it cites, with the data-id used by hover previews
    assert 'data-id="rule_sec_run_run_ends_phase" href="/id/rule_sec_run_run_ends_phase">6.9.6</a>' in html
    # copy link and canonical link
    assert 'class="copy" data-url="http://localhost/id/step_jack_out_choice"' in html
    assert '<link rel="canonical" href="http://localhost/id/step_jack_out_choice">' in html
    assert len(resp.data) < 50_000


def test_open_graph_and_twitter_meta(client):
    html = page_text(get(client, "/r/6.9.4c"))
    title = re.search(r'<meta property="og:title" content="([^"]*)"', html).group(1)
    desc = re.search(r'<meta property="og:description" content="([^"]*)"', html).group(1)
    assert "6.9.4c" in title and "Movement Phase" in title
    assert desc.startswith("The Runner may choose to jack out")
    assert '<meta name="twitter:card" content="summary">' in html
    assert '<meta property="og:url" content="http://localhost/id/step_jack_out_choice">' in html


def test_id_and_official_deep_link(client):
    by_number = get(client, "/r/6.9.4c")
    by_id = get(client, "/id/step_jack_out_choice")
    assert by_id.status_code == 200
    assert by_id.data == by_number.data
    official = get(client, "/?r=step_jack_out_choice")
    assert official.status_code == 302
    assert official.headers["Location"].endswith("/id/step_jack_out_choice")
    official_old = get(client, "/?r=step_jack_out_choice&v=24.03")
    assert official_old.headers["Location"].endswith("/id/step_jack_out_choice?v=24.03")


def test_section_page_shows_all_its_rules(client, doc_latest):
    html = page_text(get(client, "/r/6.9"))
    assert "Steps of a Run" in html
    descendants = [n for n in doc_latest.descendants("sec_steps_of_a_run") if n.kind != "example"]
    assert len(descendants) > 20
    for n in descendants:
        assert f'id="{n.id}"' in html, n.id
    assert len(html.encode()) < 50_000


def test_chapter_page_lists_sections(client, doc_latest):
    html = page_text(get(client, "/r/6"))
    for sec in doc_latest.children("chpt_runs"):
        if sec.kind != "example":
            assert f'href="/id/{sec.id}"' in html


def test_every_section_page_is_small(client, doc_latest):
    sizes = {}
    for n in doc_latest.nodes:
        if n.kind in ("chapter", "section"):
            resp = get(client, f"/id/{n.id}")
            assert resp.status_code == 200, n.id
            sizes[n.id] = len(resp.data)
    assert max(sizes.values()) < 50_000, max(sizes.items(), key=lambda kv: kv[1])


def test_examples_and_symbols_render(client, doc_latest):
    node = next(n for n in doc_latest.nodes if n.examples and "sym-" in n.html)
    html = page_text(get(client, f"/id/{node.id}"))
    assert 'class="example"' in html
    assert '<span class="sym sym-' in html


def test_card_mentions_link_to_netrunnerdb(client, doc_latest):
    node = next(n for n in doc_latest.nodes if n.kind != "example" and any(c.code for c in n.cards))
    card = next(c for c in node.cards if c.code)
    html = page_text(get(client, f"/id/{node.id}"))
    assert f'href="https://netrunnerdb.com/en/card/{card.code}"' in html
    assert '<section class="cards">' in html


def test_cited_by_lists_backlinks(client):
    html = page_text(get(client, "/id/rule_sec_run_run_ends_phase"))
    section = html.split('id="cited-by"', 1)[1].split("</ul>", 1)[0]
    assert 'href="/id/step_jack_out_choice"' in section


def test_older_version_page_links_stay_in_that_version(client, documents):
    doc = documents["22.12"]
    node = doc.node("step_jack_out_choice")
    resp = get(client, "/id/step_jack_out_choice?v=22.12")
    assert resp.status_code == 200
    html = page_text(resp)
    assert f'<span class="num">{node.number}</span>' in html
    assert "CR 22.12" in html
    # internal links in the rule text keep the version
    assert re.search(r'class="ref" data-id="[^"]+" href="/id/[^"?]+\?v=22\.12"', html)
    assert 'href="/id/step_jack_out_choice">Read this rule in the latest CR' in html
    # the number form resolves against that version's numbering
    assert get(client, f"/r/{node.number}?v=22.12").data == resp.data


def test_version_switcher_shows_every_version(client, documents):
    latest = documents[LATEST]
    oldest = documents["22.12"]
    new_id = next(n.id for n in latest.nodes if n.kind in ("rule", "subrule") and oldest.node(n.id) is None)
    html = page_text(get(client, f"/id/{new_id}"))
    switcher = html.split('id="versions"', 1)[1].split("</ul>", 1)[0]
    assert "CR 22.12: absent" in switcher
    for v, doc in documents.items():
        if v != LATEST and doc.node(new_id) is not None:
            assert f'href="/id/{new_id}?v={v}"' in switcher
    # the absent version answers 404 and says where the rule exists
    resp = get(client, f"/id/{new_id}?v=22.12")
    assert resp.status_code == 404
    assert "exists in" in page_text(resp) and LATEST in page_text(resp)


def test_graph_box_points_at_vendored_library(client, app):
    html = page_text(get(client, "/r/6.9.4c"))
    m = re.search(r'data-lib="(/static/vendor/cytoscape-[0-9.]+\.min\.js\?h=[0-9a-f]+)"', html)
    assert m, "graph box must name the vendored cytoscape"
    lib = client.get(m.group(1))
    assert lib.status_code == 200 and b"cytoscape" in lib.data[:2000].lower()
    assert (Path(app.static_folder) / "vendor" / "cytoscape-LICENSE.txt").is_file()
    assert "cdn" not in html.lower()


@pytest.mark.parametrize(
    "url, status, needle",
    [
        ("/r/99.99", 404, "99.99"),
        ("/r/6.9.4zz", 404, "6.9.4zz"),
        ("/r/6.9?v=10.1", 404, "available versions: 22.12"),
        ("/id/no_such_rule_id", 404, "no_such_rule_id"),
        ("/all?v=nope", 404, "not available"),
        ("/r/" + "1" * 400, 400, "too long"),
        ("/nowhere", 404, "404"),
    ],
)
def test_bad_rule_urls(client, url, status, needle):
    resp = get(client, url)
    assert resp.status_code == status
    assert resp.mimetype == "text/html"
    assert needle in page_text(resp)


def test_bad_number_suggests_neighbours(client):
    html = page_text(get(client, "/r/6.9.4z"))
    assert "Did you mean" in html
    assert 'href="/r/6.9.4' in html


def test_whole_cr_page(client, doc_latest):
    resp = client.get("/all", headers={"Accept-Encoding": "gzip"})
    assert resp.status_code == 200
    html = gzip.decompress(resp.data).decode()
    for ch in doc_latest.chapters():
        assert ch.title in html
    assert html.count('class="sub ') >= sum(1 for n in doc_latest.nodes if n.kind != "example")
    assert "ETag" in resp.headers


# ----- home and search pages --------------------------------------------------------------------


def test_home_lists_chapters_versions_and_changes(client, doc_latest):
    html = page_text(get(client, "/"))
    for ch in doc_latest.chapters():
        assert f'href="/id/{ch.id}"' in html
    for v in ("22.12", "25.08"):
        assert f'href="/?v={v}"' in html
    if doc_latest.changes:
        assert "Summary of changes" in html


def test_search_page_results(client):
    resp = get(client, "/search?q=jack+out")
    assert resp.status_code == 200
    html = page_text(resp)
    assert 'href="/id/rule_jacking_out"' in html
    assert "<mark>" in html


def test_search_number_jumps_to_rule(client):
    resp = get(client, "/search?q=6.9.4c")
    assert resp.status_code == 302
    assert resp.headers["Location"].endswith("/id/step_jack_out_choice")
    old = get(client, "/search?q=step_jack_out_choice&v=23.08")
    assert old.headers["Location"].endswith("/id/step_jack_out_choice?v=23.08")


def test_search_escapes_input(client):
    html = page_text(get(client, "/search?q=%3Cscript%3Ealert(1)%3C/script%3E"))
    assert "<script>alert(1)" not in html
    assert "&lt;script&gt;alert(1)" in html


def test_search_page_bad_input(client):
    assert get(client, "/search?q=").status_code == 302
    assert get(client, "/search?q=" + "x" * 2001).status_code == 400
    assert get(client, "/search?q=jack&v=9.9").status_code == 404


# ----- JSON API ---------------------------------------------------------------------------------


def test_api_versions(client):
    resp = get(client, "/api/versions")
    assert resp.status_code == 200
    data = resp.get_json()
    assert data["latest"] == LATEST
    assert [v["version"] for v in data["versions"]] == ["22.12", "23.08", "24.03", "25.04", "25.08", "26.03"]
    assert data["versions"][-1]["effective_date"] == "2026-03-02"
    assert resp.headers["Access-Control-Allow-Origin"] == "*"
    etag = resp.headers["ETag"]
    assert client.get("/api/versions", headers={"If-None-Match": etag}).status_code == 304


def test_api_rule_by_number_and_id(client):
    data = get(client, "/api/rules/6.9.4c").get_json()
    assert data["id"] == "step_jack_out_choice"
    assert data["number"] == "6.9.4c"
    assert data["version"] == LATEST
    assert [b["number"] for b in data["breadcrumb"]] == ["6", "6.9", "6.9.4"]
    assert data["refs"][0]["target"] == "rule_sec_run_run_ends_phase"
    assert 'class="ref"' in data["html"]
    assert get(client, "/api/rules/step_jack_out_choice").get_json()["number"] == "6.9.4c"


def test_api_rule_in_older_version(client, documents):
    data = get(client, "/api/rules/step_jack_out_choice?v=22.12").get_json()
    assert data["version"] == "22.12"
    assert data["number"] == documents["22.12"].node("step_jack_out_choice").number
    assert data["url"] == "/id/step_jack_out_choice?v=22.12"


def test_api_rule_with_children(client, doc_latest):
    data = get(client, "/api/rules/6.9.4+").get_json()
    ids = [d["id"] for d in data["descendants"]]
    assert ids == [n.id for n in doc_latest.descendants("rule_sec_run_movement_phase")]
    assert "step_jack_out_choice" in ids


def test_api_lookup_official_link(client):
    resp = get(client, "/api/lookup?q=https://rules.nullsignal.games/?r%3Dstep_jack_out_choice")
    assert resp.get_json()["id"] == "step_jack_out_choice"
    assert get(client, "/api/lookup?q=rule%206.9.4c").get_json()["id"] == "step_jack_out_choice"
    assert get(client, "/api/lookup").status_code == 400


def test_api_refs(client):
    data = get(client, "/api/rules/step_jack_out_choice/refs").get_json()
    assert [c["id"] for c in data["cites"]] == ["rule_sec_run_run_ends_phase"]
    back = get(client, "/api/rules/6.9.6/refs").get_json()
    assert "step_jack_out_choice" in [c["id"] for c in back["cited_by"]]


def test_api_graph(client):
    data = get(client, "/api/rules/6.9.4c/graph?k=1").get_json()
    ids = {n["id"]: n for n in data["nodes"]}
    assert ids["step_jack_out_choice"]["depth"] == 0
    assert "rule_sec_run_run_ends_phase" in ids
    assert {
        "source": "step_jack_out_choice",
        "target": "rule_sec_run_run_ends_phase",
        "kind": "cites",
    } in data["links"]
    two = get(client, "/api/rules/6.9.4c/graph?k=2").get_json()
    assert len(two["nodes"]) > len(data["nodes"])
    only = get(client, "/api/rules/6.9.4c/graph?kinds=cites").get_json()
    assert {link["kind"] for link in only["links"]} == {"cites"}


@pytest.mark.parametrize(
    "url, status, needle",
    [
        ("/api/rules/99.99", 404, "99.99"),
        ("/api/rules/6.9.4c?v=1.0", 404, "not available"),
        ("/api/rules/no_such_id_here", 404, "no_such_id_here"),
        ("/api/rules/6.9.4c/graph?k=0", 400, "k must be from 1 to 3"),
        ("/api/rules/6.9.4c/graph?k=9", 400, "k must be"),
        ("/api/rules/6.9.4c/graph?k=two", 400, "k must be an integer"),
        ("/api/rules/6.9.4c/graph?kinds=bogus", 400, "bogus"),
        ("/api/rules/99.99/refs", 404, "99.99"),
        ("/api/search", 400, "q is required"),
        ("/api/search?q=jack&limit=0", 400, "limit"),
        ("/api/search?q=jack&limit=lots", 400, "limit"),
        ("/api/search?q=" + "a" * 2001, 400, "too long"),
        ("/api/search?q=jack&v=99", 404, "not available"),
        ("/api/nothing/here", 404, "not found"),
    ],
)
def test_api_errors_are_json(client, url, status, needle):
    resp = get(client, url)
    assert resp.status_code == status
    assert resp.mimetype == "application/json"
    data = resp.get_json()
    assert data["status"] == status
    assert needle.lower() in data["error"].lower()


def test_api_suggestions_for_bad_number(client):
    data = get(client, "/api/rules/6.9.4z").get_json()
    assert data["suggestions"] and all(s.startswith("6.9.4") for s in data["suggestions"])


def test_api_wrong_method(client):
    resp = client.post("/api/versions")
    assert resp.status_code == 405
    assert resp.get_json()["status"] == 405


def test_api_search(client):
    resp = get(client, "/api/search?q=jack%20out&limit=5")
    data = resp.get_json()
    assert resp.headers["Access-Control-Allow-Origin"] == "*"
    assert 1 <= len(data["results"]) <= 5
    first = data["results"][0]
    assert {"id", "number", "title", "snippet", "breadcrumb", "url"} <= set(first)
    assert any(r["id"] == "rule_jacking_out" for r in data["results"])
    assert any("<mark>" in r["snippet"] for r in data["results"])


def test_api_search_number_comes_first(client):
    data = get(client, "/api/search?q=6.9.4c").get_json()
    assert data["results"][0]["id"] == "step_jack_out_choice"
    assert data["results"][0]["match"] == "exact"
    assert [r["id"] for r in data["results"]].count("step_jack_out_choice") == 1


def test_api_search_in_older_version(client):
    data = get(client, "/api/search?q=jack%20out&v=22.12").get_json()
    assert data["version"] == "22.12"
    assert all(r["url"].endswith("?v=22.12") for r in data["results"])


def test_api_rule_versions(client, documents):
    data = get(client, "/api/rules/step_jack_out_choice/versions").get_json()
    assert [d["version"] for d in data["versions"]] == list(documents)
    assert all(d["present"] for d in data["versions"])


def test_openapi_documents_every_api_route(client, app):
    resp = get(client, "/api/openapi.yaml")
    assert resp.status_code == 200
    text = page_text(resp)
    assert text.startswith("openapi: 3.")
    documented = set(re.findall(r"^  (/api/\S+):$", text, re.M))
    routes = set()
    for rule in app.url_map.iter_rules():
        if rule.rule.startswith("/api/"):
            routes.add(re.sub(r"<(?:\w+:)?(\w+)>", r"{\1}", rule.rule))
    assert routes == documented


def test_stateless_no_unbounded_cache(app, client):
    cache_size = app.config["PAGE_CACHE_SIZE"]
    small = create_app({"TESTING": True, "BUILD_DIR": app.config["BUILD_DIR"], "PAGE_CACHE_SIZE": 3})
    c = small.test_client()
    for number in ("6.9.4a", "6.9.4b", "6.9.4c", "6.9.4d", "6.9.1", "6.9.2"):
        assert get(c, f"/r/{number}").status_code == 200
    assert len(cache("pages", small)) == 3
    assert cache_size >= 100


def test_search_cache_is_bounded_and_transparent(app, client):
    first = get(client, "/api/search?q=trash%20cost&limit=5").get_json()
    again = get(client, "/api/search?q=trash%20cost&limit=5").get_json()
    assert first == again
    nocache = create_app({"TESTING": True, "BUILD_DIR": app.config["BUILD_DIR"], "SEARCH_CACHE_SIZE": 0})
    assert get(nocache.test_client(), "/api/search?q=trash%20cost&limit=5").get_json() == first
    small = create_app({"TESTING": True, "BUILD_DIR": app.config["BUILD_DIR"], "SEARCH_CACHE_SIZE": 2})
    c = small.test_client()
    for q in ("rez", "tag", "advance", "trash"):
        assert get(c, f"/api/search?q={q}").status_code == 200
    assert len(cache("search", small)) == 2
    assert cache("search", nocache) is None
    resp = get(client, "/api/search?q=trash%20cost&limit=5")
    assert (
        client.get(
            "/api/search?q=trash%20cost&limit=5", headers={"If-None-Match": resp.headers["ETag"]}
        ).status_code
        == 304
    )
    assert resp.headers["Access-Control-Allow-Origin"] == "*" and "max-age" in resp.headers["Cache-Control"]


def test_no_session_cookie(client):
    resp = get(client, "/r/6.9.4c")
    assert "Set-Cookie" not in resp.headers


def test_canonical_links_behind_a_proxy(app):
    proxied = create_app({"TESTING": True, "BUILD_DIR": app.config["BUILD_DIR"], "PROXY_FIX": True})
    c = proxied.test_client()
    headers = {
        "X-Forwarded-Proto": "https",
        "X-Forwarded-Host": "rules.example.org",
        "Accept-Encoding": "identity",
    }
    html = c.get("/r/6.9.4c", headers=headers).get_data(as_text=True)
    assert '<meta property="og:url" content="https://rules.example.org/id/step_jack_out_choice">' in html
    plain = c.get("/r/6.9.4c", headers={"Accept-Encoding": "identity"}).get_data(as_text=True)
    assert 'content="http://localhost/id/step_jack_out_choice"' in plain


def test_sample_of_every_kind_renders_in_every_version(client, documents):
    for v, doc in documents.items():
        seen_kinds: set[str] = set()
        suffix = "" if v == LATEST else f"?v={v}"
        for i, n in enumerate(doc.nodes):
            if n.kind in seen_kinds and i % 40:
                continue
            seen_kinds.add(n.kind)
            resp = get(client, f"/id/{n.id}{suffix}")
            assert resp.status_code == 200, (v, n.id)
            assert f'data-id="{n.id}"' in page_text(resp)


def test_serve_command_is_registered_and_fails_cleanly(tmp_path):
    from click.testing import CliRunner

    from webapp.cli import main

    runner = CliRunner()
    help_result = runner.invoke(main, ["serve", "--help"])
    assert help_result.exit_code == 0
    assert "--port" in help_result.output and "--build-dir" in help_result.output
    empty = tmp_path / "nothing-built"
    empty.mkdir()
    result = runner.invoke(main, ["serve", "--build-dir", str(empty)])
    assert result.exit_code != 0
    assert "no CR versions are built" in result.output


def test_serve_command_serves(build_dir):
    import json
    import socket
    import subprocess
    import sys
    import time
    import urllib.request

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    code = "from webapp.cli import main; main()"
    proc = subprocess.Popen(
        [sys.executable, "-c", code, "serve", "--port", str(port), "--build-dir", str(build_dir)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 20
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/versions", timeout=2) as resp:
                    assert json.load(resp)["latest"] == LATEST
                    break
            except OSError:
                assert proc.poll() is None and time.monotonic() < deadline, "nrrules serve did not start"
                time.sleep(0.2)
    finally:
        proc.terminate()
        proc.wait(timeout=10)


@pytest.mark.parametrize("value", ["//evil.com", "https://evil.com/x", "a/b", "x" * 300])
def test_official_deep_link_only_takes_ids(client, value):
    resp = get(client, "/?r=" + value)
    assert resp.status_code == 404
    assert "Location" not in resp.headers


def test_nothing_built_is_a_clear_503(tmp_path):
    empty = create_app({"TESTING": True, "BUILD_DIR": str(tmp_path)})
    c = empty.test_client()
    page = get(c, "/r/6.9.4c")
    assert page.status_code == 503 and "nrrules build" in page_text(page)
    api = get(c, "/api/versions")
    assert api.status_code == 503 and "no CR versions are built" in api.get_json()["error"]


def test_rule_page_names_its_json_twin(client):
    html = page_text(get(client, "/id/step_jack_out_choice?v=24.03"))
    href = re.search(r'<link rel="alternate" type="application/json" href="([^"]+)">', html).group(1)
    data = get(client, href).get_json()
    assert data["id"] == "step_jack_out_choice" and data["version"] == "24.03"


def test_page_cache_bounded_by_bytes(app):
    small = create_app({"TESTING": True, "BUILD_DIR": app.config["BUILD_DIR"], "PAGE_CACHE_BYTES": 40_000})
    c = small.test_client()
    for number in ("6.9", "6.9.4c", "6.9.4d", "5.6", "1.2", "6.9.1", "6.9.2"):
        assert get(c, f"/r/{number}").status_code == 200
    pages = cache("pages", small)
    assert pages.weight <= 40_000 or len(pages) == 1
    assert 1 <= len(pages) < 7
