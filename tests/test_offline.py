"""The offline pack written by `nrrules build` and the files that make the site installable and
usable offline: /manifest.webmanifest, /sw.js, /offline.html and /offline/<version>.json."""

from __future__ import annotations

import json

import pytest
from helpers import LATEST, VERSIONS

from rules_index.offline import OFFLINE_FILE, build_pack
from rules_index.steplinks import link_steps
from webapp import create_app

LIMIT_BYTES = 1_500_000  # issue 14: at most 1.5 MB stored per version (pack + shell + assets)


@pytest.fixture(scope="module")
def client(build_dir):
    return create_app({"BUILD_DIR": str(build_dir), "TESTING": True}).test_client()


def _pack(library, version: str) -> dict:
    return json.loads((library.version_dir(version) / OFFLINE_FILE).read_text(encoding="utf-8"))


@pytest.mark.parametrize("version", [VERSIONS[0], LATEST])
def test_build_writes_a_pack_for_every_rule(library, version):
    pack = _pack(library, version)
    doc = library.document(version)
    assert pack["version"] == version
    assert pack["source_hash"] == doc.source_hash
    assert [r[0] for r in pack["rules"]] == [n.id for n in doc.nodes]
    by_id = {r[0]: r for r in pack["rules"]}
    node = doc.node("step_jack_out_choice")
    row = by_id[node.id]
    assert row[1] == node.number and row[5] == link_steps(node.html, doc, node)
    # "continue to (d)" is a link in the saved copy too, as on the rule page
    assert 'class="ref step-ref" data-id="step_move_position"' in row[5]
    assert pack["rules"][row[4]][0] == node.parent
    # the index is the server's: one posting list per stem of the Whoosh index
    assert "jack" in pack["index"]["post"]
    assert pack["index"]["words"]["jacking"] == "jack"
    assert any(j["rule"] == "rule_jacking_out" for j in pack["index"]["jargon"])


def test_pack_matches_a_fresh_build_of_it(library):
    """What is on disk is what build_pack makes from the version's document and index."""
    fresh = build_pack(library.document(LATEST), library.searcher(LATEST))
    assert json.loads(json.dumps(fresh)) == _pack(library, LATEST)


def test_pack_is_small_enough(library):
    for v in VERSIONS:
        size = (library.version_dir(v) / OFFLINE_FILE).stat().st_size
        assert size < LIMIT_BYTES - 100_000, (v, size)  # room left for the shell page and assets


def test_pack_served_with_etag_and_gzip(client, library):
    raw = (library.version_dir(LATEST) / OFFLINE_FILE).read_bytes()
    r = client.get(f"/offline/{LATEST}.json")
    assert r.status_code == 200 and r.mimetype == "application/json"
    assert r.data == raw
    gz = client.get(f"/offline/{LATEST}.json", headers={"Accept-Encoding": "gzip"})
    assert gz.headers["Content-Encoding"] == "gzip" and len(gz.data) < len(raw) / 2
    again = client.get(f"/offline/{LATEST}.json", headers={"If-None-Match": r.headers["ETag"]})
    assert again.status_code == 304
    assert client.get("/offline/99.99.json").status_code == 404


def test_pages_name_their_versions_pack(client, library):
    info = library.info("22.12")
    html = client.get("/r/1.1?v=22.12").get_data(as_text=True)
    assert f'data-pack="/offline/22.12.json?h={info.source_hash[:12]}"' in html
    assert 'rel="manifest" href="/manifest.webmanifest"' in html


def test_manifest_and_service_worker(client):
    m = client.get("/manifest.webmanifest")
    assert m.status_code == 200 and m.mimetype == "application/manifest+json"
    data = m.get_json(force=True)
    assert data["start_url"] == "/" and data["display"] == "standalone"
    icon = data["icons"][0]["src"]
    assert client.get(icon).status_code == 200
    sw = client.get("/sw.js")
    assert sw.status_code == 200 and sw.mimetype == "application/javascript"
    assert sw.headers["Service-Worker-Allowed"] == "/"
    assert "no-cache" in sw.headers["Cache-Control"]
    assert b'addEventListener("fetch"' in sw.data
    shell = client.get("/offline.html")
    assert shell.status_code == 200 and b'data-shell="1"' in shell.data
    assert "default-src 'self'" in shell.headers["Content-Security-Policy"]
