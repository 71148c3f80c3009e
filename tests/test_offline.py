"""The offline pack written by `nrrules build` and the files that make the site installable and
usable offline: /manifest.webmanifest, /sw.js, /offline.html and /offline/<version>.json."""

from __future__ import annotations

import json
import re

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


def test_the_reading_pack_of_a_build_without_cards_and_bad_versions(build_dir):
    """A build without card data or judges' documents still has a reading pack (no cards, the
    version's changes page); an unknown or hostile version is a clear 404, no traceback."""
    from webapp.views.offline import UNIT_MARK, compact_markup

    client = create_app({"BUILD_DIR": str(build_dir), "TESTING": True}).test_client()
    r = client.get("/offline/26.03/reading.json")
    assert r.status_code == 200 and r.headers["Content-Type"] == "application/json"
    pack = r.get_json()
    assert pack["cards"] == [] and pack["pages"] == ["/changes/25.08..26.03"]
    assert client.get("/offline/22.12/reading.json").get_json()["pages"] == []  # the first version
    page = client.get("/").get_data(as_text=True)
    assert 'data-reading="/offline/26.03/reading.json?h=' in page
    for bad in ("99.99", "<script>", "..%2F..%2Fetc"):
        r = client.get(f"/offline/{bad}/reading.json")
        assert r.status_code == 404, bad
        assert "Traceback" not in r.get_data(as_text=True) and str(build_dir) not in r.get_data(as_text=True)
    # the compaction: each unit is a mark and one character, and expands back to the markup
    rows = [["a", "<b>x</b><b>y</b>\x7f<b>z</b>"], ["b", '<a class="kw" href="/id/r">r</a> <b>w</b>']]
    original = [r[1].replace(UNIT_MARK, "") for r in rows]
    units = compact_markup(rows, (1,))
    assert units and all(len(r[1]) < len(o) for r, o in zip(rows, original, strict=True))
    expanded = [re.sub(UNIT_MARK + "(.)", lambda m: units[ord(m.group(1)) - 0x100], r[1]) for r in rows]
    assert expanded == original


def test_the_packs_scores_are_the_servers_bm25f_per_term(library, monkeypatch):
    """build_pack scores each posting with the server's BM25F constants, computed once per term:
    the same pack, to the byte, as with a Whoosh scorer made per term (which it makes when the
    weighting has a per-field B: here one for no field, which changes no score)."""
    doc, searcher = library.document(LATEST), library.searcher(LATEST)
    fast = json.dumps(build_pack(doc, searcher), sort_keys=True)
    monkeypatch.setattr(searcher._weighting, "_field_B", {"no such field": searcher._weighting.B})
    assert json.dumps(build_pack(doc, searcher), sort_keys=True) == fast
