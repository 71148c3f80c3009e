"""The learned second stage of search (`rules_index.ranker`), on a real index of CR 26.03: the
committed weights match the features the code computes, the searcher orders question-like
queries by them (and only those), and the features mean what they say."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

from rules_index import ranker
from rules_index.search import Searcher, build_index


@pytest.fixture(scope="module")
def searcher(doc_latest, tmp_path_factory) -> Searcher:
    path = tmp_path_factory.mktemp("ranker-index")
    build_index(doc_latest, path)
    return Searcher(path, doc_latest)


QUESTIONS = [
    "can I look through my stack",
    "runner takes 3 damage with 2 cards in hand",
    "does scoring an agenda take a click",
    "what happens to advancement tokens on a scored agenda",
]


def test_weights_file_names_exactly_the_features_the_code_computes():
    data = json.loads(ranker.WEIGHTS_PATH.read_text(encoding="utf-8"))
    assert data["features"] == list(ranker.FEATURES)
    assert len(data["weights"]) == len(ranker.FEATURES)
    assert all(isinstance(w, float) for w in data["weights"])
    # used only because cross-validation over the training queries showed a gain
    assert data["use"] is (data["cv_mrr10"] > data["hand_mrr10"])
    model = ranker.load()
    assert model is not None and model.names == ranker.FEATURES
    # the lite model (no word-vector features: the offline copy's), trained on the same queries
    lite = data["lite"]
    assert lite["features"] == list(ranker.LITE_FEATURES) == list(ranker.FEATURES[: len(lite["features"])])
    assert len(lite["weights"]) == len(ranker.LITE_FEATURES) and lite["queries"] == data["queries"]
    assert lite["use"] is (lite["cv_mrr10"] > lite["hand_mrr10"])
    assert ranker.load(lite=True).names == ranker.LITE_FEATURES
    # the word vectors earned their place: cross-validated MRR above the lite model's
    assert data["cv_mrr10"] > lite["cv_mrr10"]
    # the offline copy's model: the lite features and two cosines by the pack's small table,
    # trained on the same queries; it too beats the lite model, and the full one beats it
    pack = data["pack"]
    assert pack["features"] == list(ranker.PACK_FEATURES) and pack["queries"] == data["queries"]
    assert pack["features"][: len(ranker.LITE_FEATURES)] == list(ranker.LITE_FEATURES)
    assert [ranker.FEATURES[k] for k in ranker.PACK_COLUMNS] == list(ranker.PACK_FEATURES)
    assert pack["use"] is (pack["cv_mrr10"] > pack["hand_mrr10"])
    assert ranker.load(pack=True).names == ranker.PACK_FEATURES
    assert data["cv_mrr10"] > pack["cv_mrr10"] > lite["cv_mrr10"]
    # the server's model with the sentence encoder's cosines: every feature, then the encoder's,
    # trained on the same queries; used only if cross-validation showed a gain over the hand order
    embed = data.get("embed")
    if embed is None:  # not trained yet: the searcher uses the full model and fuses by meaning
        assert ranker.load(embed=True) is None
        return
    assert embed["features"] == list(ranker.EMBED_MODEL_FEATURES) and embed["queries"] == data["queries"]
    assert embed["features"][: len(ranker.FEATURES)] == list(ranker.FEATURES)
    assert len(embed["weights"]) == len(ranker.EMBED_MODEL_FEATURES)
    assert embed["use"] is (embed["cv_mrr10"] > embed["hand_mrr10"])
    if embed["use"]:
        assert ranker.load(embed=True).names == ranker.EMBED_MODEL_FEATURES


def test_a_weights_file_naming_an_unknown_feature_is_not_used(tmp_path):
    data = json.loads(ranker.WEIGHTS_PATH.read_text(encoding="utf-8"))
    data["features"] = [*data["features"][:-1], "not_a_feature"]
    path = tmp_path / "weights.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    assert ranker.load(Path(path)) is None
    data["features"] = list(ranker.FEATURES)
    data["use"] = False
    unused = tmp_path / "unused.json"
    unused.write_text(json.dumps(data), encoding="utf-8")
    assert ranker.load(Path(unused)) is None
    data["use"] = True
    used = tmp_path / "used.json"
    used.write_text(json.dumps(data), encoding="utf-8")
    assert ranker.load(Path(used)) is not None
    # a lite part naming the full features (or missing) is not used as the lite model
    data["lite"] = {**data["lite"], "features": list(ranker.FEATURES)}
    used.write_text(json.dumps(data), encoding="utf-8")
    assert ranker.load(Path(used), lite=True) is None and ranker.load(Path(used)) is not None
    del data["lite"]
    used.write_text(json.dumps(data), encoding="utf-8")
    assert ranker.load(Path(used), lite=True) is None


@pytest.mark.parametrize("query", QUESTIONS)
def test_search_orders_a_question_by_the_learned_model(searcher, query):
    ids, vectors = searcher.rank_inputs(query)
    assert len(ids) == len(vectors) == ranker.DEPTH + ranker.VECTOR_POOL
    assert all(len(v) == len(ranker.FEATURES) for v in vectors)
    model = ranker.load()
    scores = [model.score(v) for v in vectors]
    expected = [ids[k] for k in sorted(range(len(ids)), key=lambda k: (-scores[k], k))]
    hits = searcher.search(query, limit=ranker.DEPTH)
    assert [h.id for h in hits] == expected[: ranker.DEPTH]
    # the same score values, handed out again: best first, so a merged list keeps this order
    assert [h.score for h in hits] == sorted((h.score for h in hits), reverse=True)


@pytest.mark.parametrize("query", ["PAW", "Hedge Fund", "jack out", "6.9.4c", "brain damage", ""])
def test_short_queries_jargon_cards_and_numbers_are_not_reordered(searcher, query):
    assert searcher.rank_inputs(query) is None


def test_features_read_the_rule_text_and_graph():
    def info(node_id, text, cites=(), parent=None, kind="rule", asked=()):
        words = tuple(text.split())
        empty = frozenset()
        asked = tuple(frozenset(q.split()) for q in asked)
        return ranker.NodeInfo(
            id=node_id,
            kind=kind,
            parent=parent,
            depth=ranker.number_depth("1.7.2b"),
            seq=words,
            bigrams=frozenset(zip(words, words[1:], strict=False)),
            fields=(
                frozenset(words),
                empty,
                empty,
                empty,
                empty,
                frozenset(node_id.split("_")[1:]),
                frozenset().union(*asked),
            ),
            cites=frozenset(cites),
            indegree=len(cites),
            naming=False,
            asked=asked,
        )

    groups = [frozenset({"flatlin"}), frozenset({"damag"}), frozenset({"grip"})]
    pairs = [("flatlin", "damag"), ("damag", "grip")]
    a = info("rule_flatlin_damag", "runner flatlin damag grip card")
    b = info(
        "rule_other",
        "grip card other word here",
        cites=("rule_flatlin_damag",),
        parent="rule_flatlin_damag",
        # the question bank's questions: the second nearly asks the query
        asked=("what is a grip", "runner flatlin from damag with empty grip"),
    )
    vectors = ranker.features(groups, pairs, [(a, 10.0, 5.0, True), (b, 5.0, 5.0, False)], [3.0, 1.0, 1.0])
    f = dict(zip(ranker.FEATURES, vectors[0], strict=True))
    g = dict(zip(ranker.FEATURES, vectors[1], strict=True))
    assert (
        f["coord"] == 1.0
        and f["f_text"] == 1.0
        and f["all_text"] == 1.0
        and g["f_text"] == pytest.approx(1 / 3)
    )
    assert f["w_text"] == 1.0 and g["w_text"] == pytest.approx(1 / 5)  # idf-weighted
    assert f["f_id"] == pytest.approx(2 / 3) and f["w_id"] == pytest.approx(4 / 5)  # the id's words
    assert f["pairs"] == 1.0 and g["pairs"] == 0.0
    assert f["span"] == 1.0 and f["first"] == pytest.approx(1 - 1 / 5)
    assert f["base"] == 0.0 and g["base"] < 0 and f["rank"] == 1.0 and g["rank"] == 0.5
    assert f["intent"] == 1.0 and g["intent"] == 0.0
    assert f["cited_by_top"] == pytest.approx(1 / 3) and g["cites_top"] == 1.0 and f["cites_top"] == 0.0
    assert f["parent_of_top"] == 1.0 and g["child_of_top"] == 1.0
    assert f["depth"] == 1.0
    # the nearest question in the bank: all three groups, in a question of seven words
    assert f["q_best"] == f["q_jac"] == f["w_asked"] == 0.0 and f["f_asked"] == 0.0
    assert g["q_best"] == 1.0 and g["w_asked"] == 1.0 and g["f_asked"] == 1.0
    assert g["q_jac"] == pytest.approx(3 / (3 + 7 - 3))
    # no word vectors: their features are zero
    assert all(f[name] == 0.0 == g[name] for name in ranker.VECTOR_FEATURES)
    # with them: each cosine, and less the best candidate's
    sims = [(0.5, 0.25, 0.75), (0.25, 0.5, 0.5)]
    vectors = ranker.features(
        groups, pairs, [(a, 10.0, 5.0, True), (b, 5.0, 5.0, False)], [3.0, 1.0, 1.0], sims
    )
    f = dict(zip(ranker.FEATURES, vectors[0], strict=True))
    g = dict(zip(ranker.FEATURES, vectors[1], strict=True))
    assert (f["v_text"], f["v_text_rel"], g["v_text"], g["v_text_rel"]) == (0.5, 0.0, 0.25, -0.25)
    assert (f["v_asked"], f["v_asked_rel"], g["v_asked"], g["v_asked_rel"]) == (0.25, -0.25, 0.5, 0.0)
    assert (f["v_mean"], f["v_mean_rel"], g["v_mean_rel"]) == (0.75, 0.0, -0.25)
    # the sentence encoder's cosines: appended after every feature, each also less the best
    embedded = [(0.5, 0.25), (0.75, 0.5)]
    rows = ranker.features(
        groups, pairs, [(a, 10.0, 5.0, True), (b, 5.0, 5.0, False)], [3.0, 1.0, 1.0], sims, None, embedded
    )
    assert [r[: len(ranker.FEATURES)] for r in rows] == vectors  # the full model's are unchanged
    f = dict(zip(ranker.EMBED_MODEL_FEATURES, rows[0], strict=True))
    g = dict(zip(ranker.EMBED_MODEL_FEATURES, rows[1], strict=True))
    assert (f["e_text"], f["e_text_rel"], f["e_asked"], f["e_asked_rel"]) == (0.5, -0.25, 0.25, -0.25)
    assert (g["e_text"], g["e_text_rel"], g["e_asked"], g["e_asked_rel"]) == (0.75, 0.0, 0.5, 0.0)


def test_number_depth():
    assert [ranker.number_depth(n) for n in ("", "1", "1.7", "1.7.2", "1.7.2b", "9.5.7e.ii")] == [
        0,
        1,
        2,
        3,
        4,
        5,
    ]


@pytest.mark.parametrize("query", ["paid ability window", "paied abilty window", "forced encounter"])
def test_a_query_that_is_a_defined_term_is_answered_by_its_definition(searcher, query):
    # three words, but only a term the CR defines: the learned stage leaves the definition first
    assert searcher.rank_inputs(query) is None
    hits = searcher.search(query, limit=5)
    assert hits and hits[0].id in {"rule_paid_ability_window", "rule_forced_encounter"}
    assert searcher.rank_inputs("what can the corp do in a paid ability window") is not None


@pytest.mark.parametrize(
    "query",
    ["what is a nested cost", "who owns a card", "what is a paid ability window?", "how do I bid secretly"],
)
def test_a_short_question_is_ordered_by_the_learned_model(searcher, query):
    # phrased as a question: ordered even with fewer than MIN_GROUPS word groups or naming a term
    ids, vectors = searcher.rank_inputs(query)
    assert 2 <= len(ids) == len(vectors) <= ranker.DEPTH + ranker.VECTOR_POOL
    assert all(len(v) == len(ranker.FEATURES) for v in vectors)
    assert searcher.search_result(query).question


@pytest.mark.parametrize("query", ["what is Hedge Fund", "what is PAW", "what?"])
def test_a_question_naming_a_card_or_only_jargon_keeps_its_own_answer(searcher, query):
    assert searcher.rank_inputs(query) is None


def test_the_word_vectors_add_the_nearest_rules_bm25_missed_to_the_pool(searcher):
    """After BM25's top `ranker.DEPTH`, the `ranker.VECTOR_POOL` rules nearest the question by
    meaning join the candidates, with no BM25 score; a searcher without vectors has none."""
    query = "can I put a corp card in my runner deck"
    ids, rows = searcher.rank_inputs(query)
    bm25, near = ids[: ranker.DEPTH], ids[ranker.DEPTH :]
    assert len(near) == ranker.VECTOR_POOL and not set(near) & set(bm25)
    assert near == searcher._vector_pool(searcher.query_vector(query), set(bm25), ranker.load())
    base, raw = ranker.FEATURES.index("base"), ranker.FEATURES.index("raw")
    assert all(r[base] == r[raw] == ranker.FLOOR for r in rows[ranker.DEPTH :])
    # the rule that answers it (3.2.3: a deck cannot hold the other side's cards) is one BM25
    # missed, and the learned stage puts it in the first five
    assert "rule_disallowed_cards" in near
    assert "rule_disallowed_cards" in [h.id for h in searcher.search(query, limit=5)]
    plain = Searcher(searcher.index_path, searcher.doc, word_vectors=False)
    assert len(plain.rank_inputs(query)[0]) == ranker.DEPTH
    assert "rule_disallowed_cards" not in [h.id for h in plain.search(query, limit=ranker.DEPTH)]


def _trainer():
    path = Path(__file__).resolve().parent.parent / "bench" / "train_ranker.py"
    spec = importlib.util.spec_from_file_location("bench_train_ranker", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_lambdamart_trees_learn_an_order_the_features_carry():
    trainer = _trainer()
    # 40 queries of 6 candidates: the answer is the one whose feature 1 is highest, while
    # feature 0 (the first-stage order) points elsewhere
    queries = []
    for q in range(40):
        vectors = [[1.0 / (1 + k), ((k * 7 + q) % 6) / 5.0] for k in range(6)]
        best = max(range(6), key=lambda k: vectors[k][1])
        queries.append((f"q{q}", vectors, [1 if k == best else 0 for k in range(6)]))
    first_stage = trainer.metrics(queries, None)[0]
    trees = trainer.fit_trees(queries[:30])
    scored = [
        (q, [[sum(trainer.tree_score(t, v) for t in trees)] for v in vectors], labels)
        for q, vectors, labels in queries[30:]
    ]
    assert first_stage < 0.6
    assert trainer.metrics(scored, [1.0])[0] == 1.0  # held-back queries, answer first
    assert all(depth_of(t) <= trainer.TREE_DEPTH for t in trees)


def depth_of(tree: dict) -> int:
    return max(len(bin(n + 1)) - 3 for n in tree)


def test_a_build_saves_the_vector_pool_and_a_searcher_reads_it_not_remakes_it(library, tmp_path):
    """`nrrules build` writes every rule's pool vector beside the index (`Searcher.save_pool`),
    so a new searcher's first question does not embed every rule and its questions; what it
    reads is what it would have made, and a file made with another table (or damaged) is not
    read."""
    import shutil

    import numpy as np

    from rules_index.search import POOL_FILE, POOL_META

    built = library.searcher(library.latest)
    path = built.index_path
    assert (path / POOL_FILE).is_file() and (path / POOL_META).is_file()
    fresh = Searcher(path, built.doc)
    ids, saved = fresh._pool_matrix()
    made = Searcher(path, built.doc)
    made._saved_pool = lambda ids: None  # the way a searcher made it before builds saved it
    ids_made, matrix = made._pool_matrix()
    assert ids == ids_made and saved.shape == (len(ids), fresh.vectors.dim)
    assert np.array_equal(saved, matrix)
    # another table's (or a damaged) file is not read: the searcher makes its own
    copy = tmp_path / "search"
    shutil.copytree(path, copy)
    meta = json.loads((copy / POOL_META).read_text())
    (copy / POOL_META).write_text(json.dumps({**meta, "vectors": "another table"}))
    assert Searcher(copy, built.doc)._saved_pool(ids) is None
    (copy / POOL_META).write_text(json.dumps(meta))
    (copy / POOL_FILE).write_bytes(b"not a numpy file")
    assert Searcher(copy, built.doc)._saved_pool(ids) is None
    other = Searcher(copy, built.doc)
    assert np.array_equal(other._pool_matrix()[1], matrix)
