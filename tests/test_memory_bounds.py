"""Issue 16, item 8: no sequence of requests grows a worker without bound. Many unique requests
(searches with limit=50, rule pages of two versions, engine sessions and decisions, hostile
queries) are sent to an app whose caches have small byte bounds; every cache must then hold at
most its bound by its own byte counter (webapp/caches.py), and that counter must equal the sum
of what it holds, so the bound means what it says. Measured by the caches, not by RSS: RSS on a
shared machine says more about the allocator than about us (bench/http_load.py measures speed)."""

from __future__ import annotations

import json
import pickle
import random
import re
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest
from helpers import LATEST
from whoosh.analysis import LowercaseFilter, RegexTokenizer, StemFilter
from whoosh.fields import TEXT, Schema
from whoosh.filedb.filestore import FileStorage
from whoosh.index import TOC, create_in
from whoosh.lang.porter import stem as porter_stem

from engine import decision as engine_decision
from engine import rig as engine_rig
from memo import ENTRY_BYTES, LRU, MEMOS, REGISTRY, Memo, approx_bytes
from rules_index import bank as bank_mod
from rules_index import history as history_mod
from rules_index import jargon as jargon_mod
from rules_index import judge as judge_mod
from rules_index import question as question_mod
from rules_index import ranker as ranker_mod
from rules_index import search as search_mod
from rules_index import translation as translation_mod
from rules_index import unified as unified_mod
from rules_index import vectors as vectors_mod
from rules_index.cards import CardStore
from rules_index.judge import JUDGE_LINK, JudgeStore
from rules_index.search import Searcher, _porter
from rules_index.store import Library
from rules_index.whoosh_open import STEMS, bound_stem_caches, open_index, stem_filters
from scraper.nrdb import Ruling
from webapp import create_app
from webapp.caches import CACHES, cache, every_cache
from webapp.tokens import decode, serializer

EXAMPLES = Path(__file__).resolve().parent.parent / "webapp" / "examples"
PACKAGES = ("memo", "scraper", "rules_index", "engine", "webapp")
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
    held = sum(lru.weights.values())
    assert lru.weight == held, f"{name}: byte counter {lru.weight} != {held} held"
    assert held == sum(spec.weigh(v) for v in lru.values()) and set(lru.weights) == set(lru)
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
    assert len(_porter.memo) <= _porter.memo.spec.entries  # Whoosh's own stem cache is not used


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
    assert_bounded(app, "search", filled=False)  # (filled or not: this test may run first)
    assert len(lru) <= max(before, 1) + 1


# ----- Whoosh stem caches pickled in old indexes (issue 16, item 8) -----------------------------


def unbound_stored_schema(index_dir: Path) -> int:
    """Rewrite the index's stored schema as builds before the bound wrote it: every StemFilter
    with ``cachesize=-1`` (cache every word ever seen). Returns how many filters it changed."""
    storage = FileStorage(str(index_dir))
    toc = TOC.read(storage, "MAIN")
    changed = 0
    for f in stem_filters(toc.schema):
        f.cachesize = -1
        changed += 1
    toc.generation += 1  # a new table of contents; Whoosh reads the latest
    toc.write(storage, "MAIN")
    stored = TOC.read(FileStorage(str(index_dir)), "MAIN").schema
    assert [f.cachesize for f in stem_filters(stored)] == [-1] * changed
    return changed


def assert_stems_bounded(schema) -> None:
    """Every stemmer caches through a bounded memo (Whoosh's unbounded cache has none)."""
    for f in stem_filters(schema):
        made = getattr(f._stem, "memo", None)
        assert made is not None, f"an unbounded stem cache ({f.cachesize=})"
        assert made.spec.entries and made.spec.max_bytes


def test_open_index_bounds_a_stored_unbounded_stem_cache(tmp_path):
    schema = Schema(text=TEXT(analyzer=RegexTokenizer() | LowercaseFilter() | StemFilter(cachesize=-1)))
    with create_in(str(tmp_path), schema).writer() as w:
        w.add_document(text="running runners ran")
    assert unbound_stored_schema(tmp_path) == 1
    ix = open_index(tmp_path)
    (stem,) = stem_filters(ix.schema)
    assert_stems_bounded(ix.schema)
    with ix.searcher() as s:
        # every reader uses the bounded schema, not a fresh unpickled (unbounded) copy
        assert s.schema is ix.schema
        analyzer = s.schema["text"].analyzer
        for i in range(STEMS.spec.entries + 500):
            list(analyzer(f"word{i}s"))
    assert stem._stem.memo is STEMS and len(STEMS) <= STEMS.spec.entries


def _rules_store(build_dir: Path, copy: Path):
    shutil.copytree(build_dir / LATEST / "search", copy)
    return copy, lambda: Searcher(copy, Library.open(build_dir).document(LATEST))


def _card_store(cards_built: Path, copy: Path):
    shutil.copytree(cards_built / "cards", copy)
    return copy / "search", lambda: CardStore(copy)


def _judge_store(judge_build_dir: Path, copy: Path):
    shutil.copytree(judge_build_dir / JUDGE_LINK, copy)
    return copy / "search", lambda: JudgeStore(copy)


@pytest.mark.parametrize("kind", ["rules", "cards", "judge"])
def test_every_index_the_product_opens_has_bounded_stem_caches(request, tmp_path, kind):
    """An index whose stored schema caches every stem (built before the bound) is opened by the
    rules searcher, the card store and the judges' store with bounded stem caches only."""
    make, fixture = {
        "rules": (_rules_store, "build_dir"),
        "cards": (_card_store, "cards_built"),
        "judge": (_judge_store, "judge_build_dir"),
    }[kind]
    index_dir, open_store = make(Path(request.getfixturevalue(fixture)), tmp_path / kind)
    assert unbound_stored_schema(index_dir) >= 1
    store = open_store()
    searcher = store._searcher()
    assert list(stem_filters(searcher.schema)), "the searcher analyses with a stemmer"
    assert_stems_bounded(searcher.schema)


def test_long_decision_ids_are_refused_before_the_engine_caches_them(app):
    """The engine's decision-id parser caches the ids it is given (4,096 of them): ids of 100 KB
    would hold ~400 MB. Every way a decision arrives refuses one longer than any id first."""
    client = app.test_client()
    board = json.loads((EXAMPLES / "02-remote-agenda.json").read_text())
    state = client.post(
        "/api/engine/sessions", json={"board": board, "structure": "run", "params": {"server": "remote1"}}
    ).get_json()
    before = len(engine_decision._parse.memo)
    for i in range(40):
        long_id = f"use:{i}." + "x" * 100_000
        resp = client.post(f"/api/engine/sessions/{state['token']}/decisions", json={"decision": long_id})
        assert resp.status_code == 400 and "too long" in resp.get_json()["error"]
        form = client.post("/step", data={"s": state["token"], "decision": long_id})
        assert form.status_code == 400
    with app.app_context():
        spec = decode(state["token"])
        forged = serializer(app.config["SECRET_KEY"]).dumps({**spec.to_payload(), "d": ["x" * 100_000]})
    assert client.get(f"/api/engine/sessions/{forged}").status_code == 400
    assert len(engine_decision._parse.memo) - before < 5
    assert not [k for k in engine_decision._parse.memo.lru if len(k) > 200]
    # a real decision still goes through
    ok = client.post(
        f"/api/engine/sessions/{state['token']}/decisions", json={"decision": state["decisions"][0]["id"]}
    )
    assert ok.status_code == 200


# ----- the process's memos (memo.MEMOS): every one bounded in bytes, by its own counter -------


def _stem_filter_memo(stems) -> Callable[[str], object]:
    """A stem function of an old index's analyzer (``cachesize=-1``) once `bound_stem_caches`
    has given it the shared memo, as `open_index` does."""
    schema = Schema(text=TEXT(analyzer=RegexTokenizer() | LowercaseFilter() | StemFilter(cachesize=-1)))
    assert bound_stem_caches(schema) == 1
    (f,) = stem_filters(schema)
    assert f._stem.memo is stems
    return f._stem


def _ruling(i: int, text: str) -> Ruling:
    return Ruling("card", "2026-01-01", True, question=f"Can {i} {text}?", answer="Yes.")


def _drivers() -> dict[str, tuple[Callable[..., object], Callable[[int], tuple]]]:
    """For each memo of MEMOS: its cached function and the i-th of many unique, large inputs
    (as large as the callers let through: decision ids are refused over 200 characters)."""
    big = "x" * 6000
    return {
        "search.stems": (search_mod._porter, lambda i: (f"{big}{i}ing",)),
        "search.snippet_stems": (search_mod._stem_of, lambda i: (f"{big}{i}ed",)),
        "search.text_stems": (search_mod._stems, lambda i: (f"{i} " + "the runner jacks out " * 300,)),
        "judge.snippet_stems": (judge_mod._stem_word, lambda i: (f"{big}{i}s",)),
        "whoosh.stems": (_stem_filter_memo(STEMS), lambda i: (f"{big}{i}ness",)),
        "history.word_diffs": (
            history_mod._cached_diff,
            lambda i: (f"{big} {i} old words", f"{big} {i} new words"),
        ),
        "engine.decision_ids": (engine_decision._parse, lambda i: (f"use:{i}." + "c" * 180,)),
        "engine.card_slugs": (engine_decision.slug, lambda i: (f"Card {i} " + "Ñame " * 400,)),
        "jargon.matcher": (jargon_mod._matcher, lambda i: ()),
        "engine.card_refs": (
            engine_decision._refs,
            lambda i: (tuple(f"Card {i}.{j} " + "x" * 200 for j in range(20)),),
        ),
        "engine.ability_texts": (
            engine_rig._ability_text,
            lambda i: ((("kind", "text"), ("text", f"{big} {i}")),),
        ),
        "unified.ruling_words": (unified_mod._ruling_words, lambda i: (_ruling(i, big),)),
        "question.reads": (question_mod.read, lambda i: (f"how many {big} {i}",)),
        "question.framing": (question_mod._compiled, lambda i: ()),
        "ranker.model": (
            ranker_mod._load,
            lambda i: (f"/nonexistent/{i}/{big[:200]}.json", ("", "lite", "pack")[i % 3]),
        ),
        "vectors.table": (vectors_mod._load, lambda i: (f"/nonexistent/{i}/{big[:200]}.json",)),
        "vectors.pack": (vectors_mod._pack, lambda i: (f"/nonexistent/{i}/{big[:200]}.json",)),
        "bank.questions": (bank_mod._load, lambda i: (f"/nonexistent/{i}/{big[:200]}",)),
        "bank.labelled": (bank_mod._labelled, lambda i: (f"/nonexistent/{i}/{big[:200]}.json",)),
        "translation.table": (translation_mod._load, lambda i: (f"/nonexistent/{i}/{big[:200]}.json",)),
        "translation.pack": (translation_mod._load_pack, lambda i: (f"/nonexistent/{i}/{big[:200]}.json",)),
    }


def assert_memo_bounded(made: Memo) -> None:
    lru, spec = made.lru, made.spec
    weights = list(lru.weights.values())
    assert set(lru.weights) == set(lru)
    assert lru.weight == sum(weights), f"{spec.name}: byte counter {lru.weight} != {sum(weights)} held"
    for key, value in lru.items():  # each entry weighs its key, its value and its slot
        w = lru.weights[key]
        assert w == ENTRY_BYTES + approx_bytes(key) + approx_bytes(value) >= len(str(value))
    assert lru.weight <= spec.max_bytes, f"{spec.name}: {lru.weight} bytes > bound {spec.max_bytes}"
    assert len(lru) <= spec.entries


@pytest.mark.parametrize("name", [spec.name for spec in MEMOS])
def test_every_memo_stays_within_its_byte_bound(name):
    """Each memo is driven well past its bound (in bytes, or in entries where the callers keep
    inputs small) with unique large inputs; its own counter then equals what it holds, weighed
    again, and stays under the bound in MEMOS. The bound is reached, so it is what kept it there."""
    fn, make = _drivers()[name]
    made: Memo = fn.memo
    spec = made.spec
    try:
        made.lru.clear()
        first = make(0)
        fn(*first)
        per_entry = made.weight
        assert per_entry >= ENTRY_BYTES + sum(len(str(a)) // 2 for a in first)  # the key's size counts
        calls = min(spec.entries, spec.max_bytes // per_entry) * 3 // 2 + 2
        for i in range(1, calls):
            fn(*make(i))
            if i % 97 == 0:
                assert made.weight <= spec.max_bytes
        assert_memo_bounded(made)
        if spec.entries > 1:
            full_by_entries = len(made) == spec.entries
            assert full_by_entries or made.weight > spec.max_bytes - 2 * per_entry, (
                f"{name}: {made.weight} of {spec.max_bytes} bytes, {len(made)} of {spec.entries} entries"
            )
        last = make(calls - 1)  # a hit answers what the function does
        uncached = getattr(fn, "__wrapped__", porter_stem)  # (an old index's filter: Porter's stem)
        assert fn(*last) == uncached(*last)
    finally:
        made.lru.clear()


def test_the_memos_are_all_registered_and_named_once():
    """Every memo of MEMOS is in use (made when its module is imported), and its name is written
    in exactly one source file besides memo/ (the `@memo(name)` or `shared(name)` making it)."""
    assert set(REGISTRY) == {spec.name for spec in MEMOS}
    sources = _project_sources()
    for spec in MEMOS:
        users = [p for p, text in sources.items() if f'"{spec.name}"' in text and p.parts[0] != "memo"]
        assert len(users) == 1, f"{spec.name}: named in {users}"
    used = {m for text in sources.values() for m in re.findall(r'(?:@memo|shared)\("([^"]+)"\)', text)}
    assert used == {spec.name for spec in MEMOS}, used ^ {spec.name for spec in MEMOS}


def test_no_cache_is_made_outside_the_registries():
    """No module of the project caches with functools (lru_cache / cache): those are bounded by
    entries only, or not at all, and their bytes are not counted. Use `memo.memo` (MEMOS) or the
    app's caches (webapp/caches.py)."""
    pattern = re.compile(
        r"\blru_cache\b|@(?:functools\.)?cache\b|functools\.cache\b|\bfrom functools import .*\bcache\b"
    )
    found = [
        f"{path}:{n}: {line.strip()}"
        for path, text in _project_sources().items()
        for n, line in enumerate(text.splitlines(), 1)
        if pattern.search(line) and not line.lstrip().startswith("#")
    ]
    assert found == [], "cache with memo.memo and a MemoSpec in memo.MEMOS (bounded in bytes), not functools"
    # the check itself finds what it is meant to find
    assert pattern.search("@lru_cache(maxsize=4)") and pattern.search("@functools.cache")
    assert pattern.search("@cache") and pattern.search("from functools import cache, partial")


def test_every_cache_lists_the_apps_caches_and_the_memos(app):
    listed = {c.name: c for c in every_cache(app)}
    assert {spec.name for spec in CACHES} <= set(listed)
    assert {spec.name for spec in MEMOS} <= set(listed)
    for c in listed.values():
        assert c.entries >= 1 and c.max_bytes >= c.weight >= 0 and c.why


def _project_sources() -> dict[Path, str]:
    root = Path(__file__).resolve().parent.parent
    return {
        p.relative_to(root): p.read_text(encoding="utf-8")
        for package in PACKAGES
        for p in sorted((root / package).rglob("*.py"))
    }


def test_the_lru_leaves_least_recent_first_and_holds_its_byte_bound():
    lru = LRU(size=100, max_weight=1000, weigh=len)
    for k in "abcd":
        lru.put(k, "x" * 200)
    assert lru.get("a") == "x" * 200  # a cache hit refreshes: "b" is now the oldest
    lru.put("e", "y" * 300)  # 1100 bytes: the least recently used leaves
    assert list(lru) == ["c", "d", "a", "e"] and lru.weight == 900 == lru.held()
    lru.put("big", "z" * 5000)  # one entry over the bound is kept alone
    assert list(lru) == ["big"] and lru.weight == 5000
    del lru["big"]
    assert len(lru) == 0 and lru.weight == 0 and lru.get("big") is None
    with pytest.raises(KeyError):
        lru("nothing")  # no fill: a miss is a miss


def test_a_memo_computes_once_and_pickles_by_reference():
    seen: list[str] = []
    lru = LRU(size=3, max_weight=10**6, fill=lambda k: seen.append(k) or k.upper())
    assert [lru(k) for k in ("a", "b", "a", "c", "d", "a")] == ["A", "B", "A", "C", "D", "A"]
    # a memo hit does not refresh (it is a C dict lookup): "a", the first in, left first
    assert seen == ["a", "b", "c", "d", "a"] and list(lru) == ["c", "d", "a"]
    assert lru.weight == sum(ENTRY_BYTES + approx_bytes(k) + approx_bytes(v) for k, v in lru.items())
    # the analyzers Whoosh pickles into every index name the stem memo, not its contents (the
    # memo filled here, whichever tests this worker ran before)
    [t.text for t in search_mod.ANALYZER(" ".join(f"runners accessing servers{k}" for k in range(300)))]
    assert pickle.loads(pickle.dumps(search_mod._porter)) is search_mod._porter
    assert len(pickle.dumps(search_mod.ANALYZER)) < 10_000 < search_mod._porter.memo.weight
    with pytest.raises(TypeError):
        pickle.dumps(lru)  # an unnamed cache is not pickled at all
