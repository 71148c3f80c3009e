"""Hostile search queries are answered with bounded work (issue 38): a unique word of 200 (or
2,000) letters cost 0.13 s of CPU in the fuzzy stages (Whoosh's Levenshtein automata, one per
field, cost about the term's length times the edit distance), the one request over 1 s in the
issue's load run. A word longer than `MAX_WORD` is searched by its first `MAX_WORD` characters, so
no automaton is built for a longer term. The work is counted (the terms Whoosh builds automata
for, through its own `levenshtein_automaton`), not timed: `bench/hostile_queries.py` prints the
times, before and after."""

from __future__ import annotations

import random
import string
from pathlib import Path

import pytest
import whoosh.automata.lev as lev
from helpers import JUDGE_PATH, cr_path
from test_cards import _small_folder

from rules_index.cards import build_cards
from rules_index.judge import build_judge
from rules_index.search import MAX_QUERY
from rules_index.store import build
from webapp.factory import create_app
from webapp.payloads.search import MAX_WORD, check_query

QUESTION = " Can the Runner jack out before paying for Tollbooth?"


def _word(rng: random.Random, n: int, letters: str = string.ascii_lowercase) -> str:
    return "".join(rng.choice(letters) for _ in range(n))


# name -> a query made from a seeded generator (each a fresh unique word: no cache answers it)
HOSTILE = {
    "one 200-letter word": lambda r: _word(r, 200),
    "one 2,000-letter word": lambda r: _word(r, 2000),
    "200 letters and digits": lambda r: _word(r, 200, string.ascii_lowercase + string.digits),
    "200 accented letters": lambda r: _word(r, 200, "éàüßøñç"),
    "four 45-letter words": lambda r: " ".join(_word(r, 45) for _ in range(4)),
    "a 2,000-character post of one word, then a question": lambda r: (
        _word(r, 2000 - len(QUESTION) - 1) + "." + QUESTION
    ),
    "a 2,000-character post whose question is one long word": lambda r: (
        _word(r, 1990) + " " + _word(r, 8) + "?"
    ),
    "a question ending in a 300-letter word": lambda r: "can the runner " + _word(r, 300) + "?",
}


@pytest.fixture(scope="module")
def client(tmp_path_factory, nrdb_dir):
    """CR 26.03, three real cards with their rulings and the real judges' excerpt: every source."""
    root = tmp_path_factory.mktemp("hostile-search")
    bdir = root / "build"
    build(str(cr_path("26.03")), bdir)
    build_cards(str(_small_folder(nrdb_dir, root / "nrdb")), bdir)
    build_judge(str(JUDGE_PATH), bdir)
    return create_app({"TESTING": True, "BUILD_DIR": str(bdir), "SECRET_KEY": "hostile"}).test_client()


@pytest.fixture
def automata(monkeypatch) -> list[str]:
    """The terms Whoosh builds a Levenshtein automaton for during a test, in order (each is
    then built as Whoosh would: the search is the real one)."""
    built: list[str] = []
    real = lev.levenshtein_automaton

    def counted(term, k, prefix=0):
        built.append(term)
        return real(term, k, prefix)

    monkeypatch.setattr(lev, "levenshtein_automaton", counted)  # whoosh.codec.base calls lev.<name>
    return built


@pytest.mark.parametrize("case", list(HOSTILE))
def test_a_hostile_query_is_answered_with_bounded_fuzzy_work(client, automata, case):
    q = HOSTILE[case](random.Random(case))
    resp = client.get("/api/search", query_string={"q": q})
    assert resp.status_code == 200, resp.get_data(as_text=True)[:300]
    data = resp.get_json()
    assert max(map(len, data["query"].split())) <= MAX_WORD + 1  # a word and its "?" at most
    # nothing found: the looser query ran, and its automata are what the bound is measured on
    assert automata or data["results"], "no hit and no fuzzy term: the bound went unmeasured"
    assert max(map(len, automata), default=0) <= MAX_WORD, sorted(automata, key=len)[-1][:60]
    # two fields (title, text), each word searched and at most three spellings of it, over the
    # MAX_QUERY characters searched: a bound on the automata's total length, whatever the query
    assert sum(map(len, automata)) <= 2 * 4 * MAX_QUERY
    page = client.get("/search", query_string={"q": q})
    assert page.status_code == 200 and b"Traceback" not in page.data
    assert str(Path.cwd()).encode() not in page.data and b"/tmp/" not in resp.data


def test_before_the_bound_a_long_word_built_a_long_automaton(client, automata):
    """The count above can fail: without the cut, the same search builds 200-letter automata."""
    from rules_index.store import Library

    lib = client.application.extensions["nrrules.library"].get().library
    assert isinstance(lib, Library)
    word = _word(random.Random(7), 200)
    lib.searcher(lib.latest).search_result(word, 10)  # the searcher as called before the web's cut
    assert max(map(len, automata)) == 200


def test_real_words_and_queries_are_searched_unchanged():
    for q in ("Counterintelligence", "transubstantiation", "6.9.4c", "step_jack_out_choice", "x" * MAX_WORD):
        assert check_query(q) == q
    assert check_query("a" * (MAX_WORD + 1)) == "a" * MAX_WORD
    assert check_query("ice " + "b" * 500 + " wall?") == "ice " + "b" * MAX_WORD + " wall?"
    assert check_query("x_" * 300) == "x_" * 300  # a word ends at "_": nothing to cut


def test_a_long_word_still_finds_what_its_start_names(client):
    """Cut, not refused: a card name beside a 300-letter word is still found first."""
    data = client.get("/api/search", query_string={"q": "Snare " + "x" * 300}).get_json()
    assert data["query"] == "Snare " + "x" * MAX_WORD
    assert (data["results"][0]["source"], data["results"][0]["id"]) == ("cards", "snare")
