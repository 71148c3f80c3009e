"""Search on real on-disk Whoosh indexes built from the six real CR versions."""

from __future__ import annotations

import html
import logging
import os
import re
import threading
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from pathlib import Path

import hypothesis
import pytest

from rules_index.search import MAX_QUERY, Searcher, SearchHit, build_index, clean_query, index_is_current

VERSIONS = ["22.12", "23.08", "24.03", "25.04", "25.08", "26.03"]


@pytest.fixture(scope="session")
def index_dirs(documents, tmp_path_factory) -> dict[str, Path]:
    root = tmp_path_factory.mktemp("search")
    dirs = {}
    for version, doc in documents.items():
        path = root / version
        path.mkdir()
        build_index(doc, path)
        dirs[version] = path
    return dirs


@pytest.fixture(scope="session")
def searchers(documents, index_dirs) -> dict[str, Searcher]:
    return {v: Searcher(index_dirs[v], documents[v]) for v in documents}


@pytest.fixture(scope="session")
def searcher(searchers) -> Searcher:
    return searchers["26.03"]


def ids(hits: list[SearchHit]) -> list[str]:
    return [h.id for h in hits]


# ----- building -------------------------------------------------------------------------------


def test_build_writes_an_index_for_its_document(documents, index_dirs):
    path = index_dirs["26.03"]
    assert any(p.suffix == ".toc" for p in path.iterdir())
    assert index_is_current(documents["26.03"], path)
    assert not index_is_current(documents["22.12"], path)
    assert not index_is_current(documents["26.03"], path / "missing")


def test_searcher_does_not_write_to_the_index(documents, index_dirs):
    path = index_dirs["25.08"]
    before = {p.name: (p.stat().st_size, p.stat().st_mtime_ns) for p in path.iterdir()}
    s = Searcher(path, documents["25.08"])
    for q in ["jack out", "PAW", "6.9.4c", "Hostile Infrastructure", "paied abilty"]:
        s.search(q)
    s.close()
    after = {p.name: (p.stat().st_size, p.stat().st_mtime_ns) for p in path.iterdir()}
    assert after == before


# ----- lookup first ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "query, first",
    [
        ("6.9.4c", "step_jack_out_choice"),
        ("rule 6.9.4.c", "step_jack_out_choice"),
        ("step_jack_out_choice", "step_jack_out_choice"),
        ("https://rules.nullsignal.games/?r=rule_card_precedence", "rule_card_precedence"),
        ("CR 1.2.1", "rule_card_precedence"),
        ("section 10.4", "sec_damage"),
    ],
)
def test_number_and_id_queries_rank_the_exact_rule_first(searcher, query, first):
    hits = searcher.search(query)
    assert hits[0].id == first
    assert hits[0].match == "exact"
    assert len({h.id for h in hits}) == len(hits)


def test_exact_hit_is_followed_by_the_rules_citing_it(searcher, documents):
    doc = documents["26.03"]
    hits = searcher.search("10.4", limit=50)
    assert hits[0].id == "sec_damage"
    citing = {h.id for h in hits[1:]}
    assert citing and all(h.match == "cites" for h in hits[1:])
    for rule_id in citing:
        parts = [doc.node(rule_id)] + [doc.node(e) for e in doc.node(rule_id).examples]
        assert any(ref.target == "sec_damage" for p in parts for ref in p.refs)


def test_unknown_number_finds_nothing_and_unknown_id_falls_back_to_text(searcher):
    assert searcher.search("6.9.9") == []
    assert searcher.search("rule 99.1") == []
    hits = searcher.search("jack_out")  # id-like but no such id: its words are searched
    assert hits and all(h.match in ("text", "jargon") for h in hits)
    assert "rule_jacking_out" in ids(hits)


# ----- full text ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "query, expected",
    [
        ("jack out", {"rule_jacking_out", "step_jack_out_choice"}),
        ("paid ability window", {"rule_paid_ability_window"}),
        ("core damage", {"rule_core_damage"}),
        ("mulligan", {"rule_mulligan"}),
        ("Showing Off", {"rule_rnd_access_from_bottom"}),  # a card name
        ("checkpoitn", {"rule_checkpoints"}),  # a typo
        ("recuring credits", {"rule_recurring_credits", "rule_sec_recurring"}),  # a typo
    ],
)
def test_free_text_finds_the_rule(searcher, query, expected):
    top = ids(searcher.search(query, limit=3))
    assert expected & set(top), top


def test_hits_carry_number_breadcrumb_and_snippet(searcher, documents):
    hit = next(h for h in searcher.search("jack out") if h.id == "rule_jacking_out")
    assert hit.number == "6.1.5"
    assert hit.kind == "rule"
    assert [b["number"] for b in hit.breadcrumb] == ["6", "6.1"]
    assert hit.breadcrumb[0] == {"id": "chpt_runs", "number": "6", "title": "Runs"}
    assert "<mark>" in hit.snippet
    d = hit.to_dict()
    assert set(d) >= {"id", "number", "title", "kind", "snippet", "breadcrumb", "score"}


def test_examples_are_folded_into_their_rule(searcher, documents):
    doc = documents["26.03"]
    example_ids = {n.id for n in doc.nodes if n.kind == "example"}
    # "Diesel" appears only in an example (of 1.4.5a): the rule is the hit, never the example.
    hits = searcher.search("Diesel")
    assert hits[0].id == "rule_influence_by_copy"
    for q in ["Example", "Diesel", "The Cleaners", "Corroder strength", "Gordian Blade"]:
        assert not example_ids & set(ids(searcher.search(q, limit=50)))


def test_every_card_name_finds_a_rule_mentioning_it(searcher, documents):
    doc = documents["26.03"]
    owners: dict[str, set[str]] = {}
    for node in doc.nodes:
        owner = node
        while owner.kind == "example":
            owner = doc.node(owner.parent)
        for card in node.cards:
            owners.setdefault(card.name, set()).add(owner.id)
    assert len(owners) > 100
    missed = [name for name, rules in owners.items() if not rules & set(ids(searcher.search(name, limit=5)))]
    assert missed == []


# ----- snippets are safe HTML -----------------------------------------------------------------

_MARK = re.compile(r"</?mark>")


def _assert_safe(snippet: str) -> None:
    bare = _MARK.sub("", snippet)
    assert "<" not in bare and ">" not in bare, snippet
    assert snippet.count("<mark>") == snippet.count("</mark>")


def test_snippets_escape_everything_but_mark(searcher):
    hits = searcher.search("R&D")
    assert hits and any("R&amp;D" in h.snippet for h in hits)
    for q in ["R&D", "<script>alert(1)</script> jack out", "\"quoted\" & 'single' <b>", "HQ > R&D"]:
        for hit in searcher.search(q, limit=20):
            _assert_safe(hit.snippet)
    for hit in searcher.search("6.9.4c") + searcher.search("jack out", limit=50):
        _assert_safe(hit.snippet)
        assert html.unescape(_MARK.sub("", hit.snippet)).replace("…", "").strip()


# ----- hostile input --------------------------------------------------------------------------

HOSTILE = [
    "",
    " ",
    '"unbalanced',
    'jack "out',
    "NOT OR x",
    "AND",
    "OR OR OR",
    "*",
    "?",
    "jack*",
    "~2",
    "title:jack",
    "(((",
    ")))",
    "[a TO",
    "{",
    "\\",
    "'",
    "%",
    "\x00\x01\x02 jack out \x1b[31m",
    "\u202e\u200b\ufeff",
    "a" * 10_000,
    "jack out " * 1200,
    "🃏 run",
    "6.9.4c" * 100,
    "https://" + "x" * 500,
    "-jack",
    "+out",
    "^2",
    "jack^",
    "NOT",
    "😀" * 300,
]


@pytest.mark.parametrize("query", HOSTILE)
def test_hostile_queries_never_raise(searcher, query, caplog):
    with caplog.at_level(logging.ERROR, logger="rules_index.search"):
        hits = searcher.search(query)
    assert isinstance(hits, list)
    assert not caplog.records, "no query may reach the exception fallback"
    for hit in hits:
        _assert_safe(hit.snippet)


def test_non_string_and_odd_limits(searcher):
    assert searcher.search(None) == []  # type: ignore[arg-type]
    assert searcher.search(42) == []  # type: ignore[arg-type]
    assert len(searcher.search("jack out", limit=0)) == 1
    assert len(searcher.search("damage", limit=10_000)) <= 100
    assert len(searcher.search("damage", limit="x")) == 10  # type: ignore[arg-type]


def test_query_length_is_capped():
    assert len(clean_query("word " * 5000)) <= MAX_QUERY
    assert clean_query("a\x00b\tc\n d") == "a b c d"


def test_random_queries_never_raise(searcher, caplog):
    from hypothesis import strategies as st

    @hypothesis.settings(max_examples=150, deadline=None, database=None)
    @hypothesis.given(st.text(max_size=80))
    def check(text):
        assert isinstance(searcher.search(text), list)

    with caplog.at_level(logging.ERROR, logger="rules_index.search"):
        check()
    assert not caplog.records


# ----- stability, concurrency, versions -------------------------------------------------------


def test_results_are_stable_across_runs_and_searchers(searcher, documents, index_dirs):
    queries = [
        "jack out",
        "damage",
        "PAW",
        "can the runner trash cards in archives",
        "Hostile Infrastructure",
    ]
    first = [[(h.id, h.score, h.snippet) for h in searcher.search(q)] for q in queries]
    again = [[(h.id, h.score, h.snippet) for h in searcher.search(q)] for q in queries]
    fresh = Searcher(index_dirs["26.03"], documents["26.03"])
    other = [[(h.id, h.score, h.snippet) for h in fresh.search(q)] for q in queries]
    assert first == again == other


def test_many_threads_search_at_once(searcher):
    queries = ["jack out", "PAW", "6.9.4c", "core damage", "trash cost", "recuring credits", "Diesel"] * 6
    expected = {q: ids(searcher.search(q)) for q in set(queries)}
    barrier = threading.Barrier(8)

    def run(q):
        try:
            barrier.wait(timeout=5)
        except threading.BrokenBarrierError:
            pass
        return q, ids(searcher.search(q))

    with ThreadPoolExecutor(max_workers=8) as pool:
        results = list(pool.map(run, queries))
    assert all(found == expected[q] for q, found in results)


def _search_in_process(args):
    index_dir, version, queries = args
    from helpers import load_doc

    s = Searcher(Path(index_dir), load_doc(version))
    return os.getpid(), {q: [h.id for h in s.search(q)] for q in queries}


def test_many_processes_search_one_index(searcher, index_dirs):
    queries = ["jack out", "PAW", "brain damage", "6.9.4c"]
    expected = {q: ids(searcher.search(q)) for q in queries}
    with ProcessPoolExecutor(max_workers=2) as pool:
        results = list(pool.map(_search_in_process, [(str(index_dirs["26.03"]), "26.03", queries)] * 4))
    for _, found in results:
        assert found == expected


@pytest.mark.parametrize("version", VERSIONS)
def test_version_selection(searchers, documents, version):
    s, doc = searchers[version], documents[version]
    assert s.doc.version == version
    exact = s.search("6.9.4c")[0]
    assert exact.id == "step_jack_out_choice" and exact.number == doc.node("step_jack_out_choice").number
    for q, expected in [
        ("jack out", "rule_jacking_out"),
        ("brain damage", "rule_core_damage"),
        ("PAW", "rule_paid_ability_window"),
    ]:
        hits = s.search(q, limit=5)
        assert expected in ids(hits), (version, q, ids(hits))
        assert all(h.id in doc for h in hits)
        assert all(h.number == doc.node(h.id).number for h in hits)
    # Numbers are per version: 1.3.3 is the credit symbol in 22.12, the click symbol later.
    expected_133 = (
        "rule_symbol_credits" if version in ("22.12", "23.08") else doc.node(s.search("1.3.3")[0].id).id
    )
    assert s.search("1.3.3")[0].id == expected_133


def test_an_index_of_another_document_is_refused(documents, index_dirs):
    from rules_index.search import StaleIndexError

    with pytest.raises(StaleIndexError, match="rebuild"):
        Searcher(index_dirs["26.03"], documents["22.12"])


def test_long_rules_get_a_window_around_the_first_match(searcher, documents):
    from rules_index.search import SNIPPET_CHARS

    doc = documents["26.03"]
    node = max((n for n in doc.nodes if n.kind != "example"), key=lambda n: len(n.text))
    assert len(node.text) > 2 * SNIPPET_CHARS
    last_word = re.findall(r"[A-Za-z]{6,}", node.text)[-1]
    snippet = searcher.snippet(node, frozenset(searcher._stems(last_word)))
    assert "<mark>" in snippet and snippet.startswith("… ")
    assert len(_MARK.sub("", html.unescape(snippet))) <= SNIPPET_CHARS + 4
    _assert_safe(snippet)
    plain = searcher.snippet(node, frozenset())
    assert plain.endswith(" …") and "<mark>" not in plain


def test_fast_bm25f_scores_exactly_like_whoosh_bm25f(searcher):
    from whoosh.scoring import BM25F

    from rules_index.search import BM25_B, BM25_K1

    plain = searcher._ix.searcher(weighting=BM25F(B=BM25_B, K1=BM25_K1))
    fast = searcher._searcher()
    try:
        for q in ["jack out", "can the runner trash cards in archives", "paid ability window", "Diesel"]:
            query = searcher.build_query(q)
            a = fast.search(query, limit=30, optimize=False)
            b = plain.search(query, limit=30, optimize=False)
            assert [hit.docnum for hit in a] == [hit.docnum for hit in b]
            assert [round(hit.score, 9) for hit in a] == [round(hit.score, 9) for hit in b]
    finally:
        plain.close()
