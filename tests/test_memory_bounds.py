"""Issue 16, item 8: no sequence of requests grows a worker without bound. Many unique requests
(searches with limit=50, rule pages of two versions, engine sessions and decisions, hostile
queries) are sent to an app whose caches have small byte bounds; every cache must then hold at
most its bound by its own byte counter (webapp/caches.py), and that counter must equal the sum
of what it holds, so the bound means what it says. Measured by the caches, not by RSS: RSS on a
shared machine says more about the allocator than about us (bench/http_load.py measures speed)."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from rules_index.search import STEM_CACHE, _porter
from webapp import create_app
from webapp.caches import CACHES, cache

EXAMPLES = Path(__file__).resolve().parent.parent / "webapp" / "examples"
KB = 1024
BOUNDS = {
    "SEARCH_CACHE_BYTES": 256 * KB,
    "PAGE_CACHE_BYTES": 512 * KB,
    "ANSWER_CACHE_BYTES": 128 * KB,
    "SESSION_CACHE_BYTES": 512 * KB,
}


@pytest.fixture(scope="module")
def app(build_dir):
    return create_app({"TESTING": True, "BUILD_DIR": str(build_dir), "SECRET_KEY": "memory", **BOUNDS})


def words(rng: random.Random, n: int) -> list[str]:
    vocab = ["run", "ice", "agenda", "trash", "rez", "credit", "tag", "damage", "server", "access", "breach"]
    return [f"{rng.choice(vocab)} {rng.choice(vocab)} x{rng.randrange(10**9)}" for _ in range(n)]


def assert_bounded(app, name: str, *, filled: bool = True) -> None:
    lru = cache(name, app)
    spec = next(s for s in CACHES if s.name == name)
    limit = app.config[spec.max_bytes]
    held = sum(w for _, w in lru._data.values())
    assert lru.weight == held, f"{name}: byte counter {lru.weight} != {held} held"
    assert held == sum(spec.weigh(v) for v, _ in lru._data.values())
    assert lru.weight <= limit or len(lru) == 1, f"{name}: {lru.weight} bytes > bound {limit}"
    assert len(lru) <= lru.size
    if filled:  # the traffic reached the bound, so the bound (not luck) kept it there
        assert lru.weight > limit // 2, f"{name}: only {lru.weight} of {limit} bytes used"


def test_unique_searches_stay_within_the_search_cache_bound(app):
    client = app.test_client()
    rng = random.Random(16)
    hostile = ["1" + " " * 298 + "!", "a*" * 40, "\u00e9" * 200, "6.9.4c " * 40]
    for q in words(rng, 500) + hostile:
        resp = client.get(
            "/api/search", query_string={"q": q, "limit": 50, "v": rng.choice(["26.03", "22.12"])}
        )
        assert resp.status_code in (200, 400)
    assert_bounded(app, "search")
    assert _porter.cache_info().currsize <= STEM_CACHE  # Whoosh's own stem cache is not used


def test_unique_rule_pages_stay_within_the_page_cache_bound(app, build_dir):
    client = app.test_client()
    ids = json.loads(client.get("/api/rules/6.9/graph?k=3").data)["nodes"]
    assert len(ids) > 20
    seen = 0
    for v in ("26.03", "22.12", "24.03"):
        for node in ids:
            resp = client.get(f"/id/{node['id']}?v={v}")
            seen += resp.status_code == 200
    assert seen > 100
    assert_bounded(app, "pages")


def test_unique_engine_sessions_stay_within_their_bounds(app):
    client = app.test_client()
    board = json.loads((EXAMPLES / "02-remote-agenda.json").read_text())
    for seed in range(120):
        state = client.post(
            "/api/engine/sessions",
            json={"board": board, "structure": "run", "params": {"server": "remote1"}, "seed": seed},
        ).get_json()
        for _ in range(2):
            if state["finished"]:
                break
            token = state["token"]
            state = client.post(
                f"/api/engine/sessions/{token}/decisions", json={"decision": state["decisions"][0]["id"]}
            ).get_json()
            assert client.get(f"/api/engine/sessions/{token}").status_code == 200
    assert_bounded(app, "answers")
    assert_bounded(app, "sessions")


def test_the_lru_counter_follows_replacements_and_evictions(app):
    lru = cache("search", app)
    before = len(lru)
    key = ("memory-test", 1)
    lru.put(key, ("e", b"x" * 1000, None))
    lru.put(key, ("e", b"y" * 10, None))  # replaced: the old entry's bytes leave the count
    assert lru.get(key) == ("e", b"y" * 10, None)
    assert_bounded(app, "search")
    assert len(lru) <= max(before, 1) + 1
