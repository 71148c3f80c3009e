"""The translation table (`rules_index.translation`): EM learns which question word goes with
which rule word, the scores are the documented formula, the committed table is what the bank
makes and reads table words as the CR's, the learned stage's ``t_*`` features are those scores, and a missing or
damaged table is no error: search goes on without it."""

from __future__ import annotations

import base64
import json
import math

import numpy as np
import pytest

from rules_index import bank, ranker, translation
from rules_index.search import Searcher, build_index, fit_translation, index_words, translation_words

PAIRS = [
    (["hand", "empti"], ["grip", "zero", "card"]),
    (["hand", "draw"], ["grip", "draw", "card"]),
    (["pump", "ic"], ["strength", "ic", "rais"]),
    (["pump"], ["strength", "breaker"]),
    (["hand", "size"], ["grip", "maximum", "size"]),
]


def test_a_small_corpus_learns_its_pairs():
    t = translation.fit(PAIRS)
    assert t is not None
    # "hand" is asked wherever the rule says "grip" (and never where it says "strength"), so
    # "grip" explains "hand" more than any other question word; the same for "pump" and "strength"
    assert t.prob("hand", "grip") > 0.5
    assert all(t.prob(q, "grip") < 0.3 for q in t.asked if q != "hand")
    assert t.prob("hand", "strength") == 0.0
    assert t.prob("pump", "strength") > 0.5
    assert all(t.prob(q, "strength") < 0.3 for q in t.asked if q != "pump")
    # words the table never saw have no probability
    assert t.prob("hand", "zzz") == 0.0 == t.prob("zzz", "grip")
    # deterministic, and each rule word's column is a distribution (before the floor drops some)
    again = translation.fit(PAIRS)
    assert again.asked == t.asked and again.said == t.said
    assert np.array_equal(again.probs, t.probs) and np.array_equal(again.cols, t.cols)
    full = translation.fit(PAIRS, floor=0.0)
    for w in full.said:
        total = sum(full.prob(q, w) for q in full.asked)
        assert total == pytest.approx(1.0, abs=1e-5), w


def test_no_usable_pair_gives_no_table():
    assert translation.fit([]) is None
    assert translation.fit([([], ["grip"]), (["hand"], [])]) is None


def test_scores_are_the_documented_formula():
    t = translation.fit(PAIRS)
    docs = [["grip", "zero", "card", "card"], ["strength", "breaker", "unknownword"], [], ["unknownword"]]
    query = ["hand", "empti", "notaword"]
    got = t.scores(query, [t.bag(d) for d in docs])
    bg = {q: float(t.background[t.asked[q]]) for q in ("hand", "empti")}
    for doc, value in zip(docs[:2], got[:2], strict=True):
        terms = []
        for q in ("hand", "empti"):  # "notaword" is not in the table: left out
            p = sum(t.prob(q, w) * doc.count(w) / len(doc) for w in set(doc))
            terms.append(math.log(translation.MIX * p + (1 - translation.MIX) * bg[q]) - math.log(bg[q]))
        assert value == pytest.approx(sum(terms) / len(terms), abs=1e-9)
    # a rule with no words, or none the table knows, has no bag and scores NONE
    assert t.bag([]) is None and t.bag(["unknownword"]) is None
    assert got[2:] == [translation.NONE, translation.NONE]
    # the grip rule explains "hand" better than the strength rule does
    assert got[0] > got[1]
    # a query the table knows none of scores every rule NONE
    assert t.scores(["qqq"], [t.bag(docs[0])]) == [translation.NONE]


def test_the_table_survives_a_round_trip_and_damage_is_refused(tmp_path):
    t = translation.fit(PAIRS)
    good = t.to_json()
    path = tmp_path / "table.json"
    path.write_text(json.dumps(good), encoding="utf-8")
    back = translation.load(path)
    assert back is not None and back.asked == t.asked and back.said == t.said
    for name in ("indptr", "cols", "probs", "counts", "background"):
        assert np.array_equal(getattr(back, name), getattr(t, name)), name
    assert back.to_json() == good

    def damaged(name: str, text: str | None = None, **fields) -> translation.Table | None:
        target = tmp_path / name
        target.write_text(text if text is not None else json.dumps({**good, **fields}), encoding="utf-8")
        return translation.load(target)

    def b64(values, dtype) -> str:
        return base64.b64encode(np.array(values, dtype=dtype).tobytes()).decode("ascii")

    n = len(t.probs)
    assert damaged("same.json") is not None  # the helper itself writes a good table
    assert translation.load(tmp_path / "missing.json") is None
    assert damaged("junk.json", text="not json at all") is None
    assert damaged("cut.json", text=json.dumps(good)[:200]) is None
    assert damaged("list.json", text="[1, 2, 3]") is None
    assert damaged("no-probs.json", probs=None) is None
    assert damaged("bad-base64.json", cols="!!not base64!!") is None
    assert damaged("short-probs.json", probs=b64([0.5] * (n - 1), "<f4")) is None
    assert damaged("nan.json", probs=b64([np.nan] * n, "<f4")) is None
    assert damaged("above-one.json", probs=b64([2.0] * n, "<f4")) is None
    assert damaged("far-column.json", cols=b64([len(t.said)] * n, "<u2")) is None
    assert damaged("sizes.json", sizes=[*good["sizes"][:-1], good["sizes"][-1] + 1]) is None
    assert damaged("negative-count.json", counts=[-1] * len(good["counts"])) is None
    assert damaged("twice.json", asked=[good["asked"][0]] * len(good["asked"])) is None
    assert damaged("not-numbers.json", counts=["a"] * len(good["counts"])) is None


def test_the_committed_table_is_what_the_bank_makes(doc_latest):
    """``rules_index/translation.json`` is made by bench/translation.py from the bank and CR
    26.03: after an edit of the bank, it must be remade (and the ranker retrained)."""
    assert doc_latest.version == "26.03"
    committed = json.loads(translation.TABLE_PATH.read_text(encoding="utf-8"))
    assert committed["version"] == doc_latest.version
    made = fit_translation(doc_latest, bank.for_doc(doc_latest))
    assert made is not None
    assert {k: v for k, v in committed.items() if k not in ("about", "version")} == made.to_json()


@pytest.fixture(scope="module")
def index_path(doc_latest, tmp_path_factory):
    path = tmp_path_factory.mktemp("translation-index")
    build_index(doc_latest, path)
    return path


def test_the_committed_table_reads_table_words_as_the_crs():
    t = translation.load()
    assert t is not None and len(t.asked) > 1000 and len(t.said) > 1000

    def prob(q: str, w: str) -> float:
        (sq,), (sw,) = index_words(q), index_words(w)
        return t.prob(sq, sw)

    # players say "brain damage" and "hand" where the CR says "core damage" and "grip"
    assert prob("brain", "core") > 0.1 > prob("brain", "credits") * 10
    assert prob("hand", "grip") > 0.1 > prob("hand", "strength") * 10
    assert prob("pump", "strength") > 0.01 > prob("pump", "archives")


def test_the_learned_stage_reads_the_tables_scores(index_path, doc_latest):
    s = Searcher(index_path, doc_latest)
    query = "my breaker is too weak for this ice, how do I pump it up"
    ids, rows = s.rank_inputs(query)
    start = ranker.FEATURES.index("t_text")
    got = [row[start : start + 3] for row in rows]
    assert len({g[0] for g in got}) > 10  # real, varied scores
    t = translation.load()
    assert s.translation is t
    words = index_words(query)
    for node_id, (t_text, t_titles, t_all) in list(zip(ids, got, strict=True))[:10]:
        text, titles = translation_words(doc_latest, doc_latest.node(node_id))
        want = [t.scores(words, [t.bag(d)])[0] for d in (text, titles, text + titles)]
        assert [t_text, t_titles, t_all] == pytest.approx(want, abs=1e-9)


def test_a_missing_or_damaged_table_is_no_error(index_path, doc_latest, tmp_path):
    query = "my breaker is too weak for this ice, how do I pump it up"
    whole = Searcher(index_path, doc_latest)
    model = ranker.load()
    assert model is not None and model.names == ranker.FEATURES
    start = ranker.FEATURES.index("t_text")
    junk = tmp_path / "junk.json"
    junk.write_bytes(b"\x00garbage" * 50)
    for path in (tmp_path / "missing.json", junk):
        s = Searcher(index_path, doc_latest, translation_path=path)
        assert s.translation is None
        ids, rows = s.rank_inputs(query)
        assert all(row[start : start + 3] == [0.0, 0.0, 0.0] for row in rows)
        hits = s.search(query, limit=5)
        assert len(hits) == 5 and all(doc_latest.node(h.id) is not None for h in hits)
        # the same candidates as with the table; only their order may differ
        assert sorted(ids) == sorted(whole.rank_inputs(query)[0])
        # ordered by the full model with every t_* value zero
        scores = [model.score(row) for row in rows]
        expected = [ids[k] for k in sorted(range(len(ids)), key=lambda k: (-scores[k], k))]
        assert [h.id for h in s.search(query, limit=ranker.DEPTH)] == expected[: ranker.DEPTH]


def test_the_offline_copys_table_is_the_whole_one_cut_and_coded_in_bytes(tmp_path):
    """`Table.for_pack`: the same words and counts, only t(q | w) >= PACK_FLOOR, each within
    half a byte step of its value; `to_pack` codes exactly that table, in under 120 KB."""
    whole, small = translation.load(), translation.load(pack=True)
    assert small is not None and small is translation.load(pack=True)  # read once
    assert small.asked == whole.asked and small.said == whole.said
    assert np.array_equal(small.counts, whole.counts) and np.array_equal(small.background, whole.background)
    keep = whole.probs >= translation.PACK_FLOOR
    assert 5_000 < keep.sum() < len(whole.probs)  # it cuts, and keeps thousands
    rows = np.repeat(np.arange(len(whole.asked)), np.diff(whole.indptr))
    small_rows = np.repeat(np.arange(len(small.asked)), np.diff(small.indptr))
    assert np.array_equal(small_rows, rows[keep]) and np.array_equal(small.cols, whole.cols[keep])
    step = -math.log(translation.PACK_FLOOR) / 255  # one byte's step on the log scale
    error = np.abs(np.log(small.probs.astype(np.float64)) - np.log(whole.probs[keep].astype(np.float64)))
    assert error.max() <= step / 2 + 1e-6 and error.max() > 0  # rounded, and no further
    coded = small.to_pack()
    assert len(json.dumps(coded)) < 120_000
    assert coded["asked"].split("|") == sorted(whole.asked, key=whole.asked.__getitem__)
    assert coded["said"].split("|") == sorted(whole.said, key=whole.said.__getitem__)
    cols = np.frombuffer(base64.b64decode(coded["cols"]), dtype="<u2")
    codes = np.frombuffer(base64.b64decode(coded["codes"]), dtype=np.uint8)
    assert np.array_equal(cols, small.cols) and coded["sizes"] == np.diff(small.indptr).tolist()
    assert np.array_equal(translation._decode(codes), small.probs)
    # the cut table reads questions almost as the whole one does
    query = index_words("my breaker is too weak for this ice, how do I pump it up")
    bags = [(["strength", "ic", "breaker", "rais"]), ["grip", "card", "draw"], ["trash", "cost", "access"]]
    assert (
        np.corrcoef(
            whole.scores(query, [whole.bag(b) for b in bags]),
            small.scores(query, [small.bag(b) for b in bags]),
        )[0, 1]
        > 0.99
    )
    # no table, no pack table
    assert translation.load(tmp_path / "missing.json", pack=True) is None
