"""Word vectors (`rules_index.vectors`): the committed table loads, puts a player's words near
the CR's words for the same thing, puts the question bank's questions near their own rules, and
a missing or damaged table is no error: search ranks without it."""

from __future__ import annotations

import base64
import json

import numpy as np
import pytest

from rules_index import bank, ranker, vectors
from rules_index.search import Searcher, build_index


@pytest.fixture(scope="module")
def table() -> vectors.Table:
    t = vectors.load()
    assert t is not None, "rules_index/word_vectors.json is missing or damaged"
    return t


def _cos(table: vectors.Table, a: str, b: str) -> float:
    x, y = table.embed(vectors.stems(a)), table.embed(vectors.stems(b))
    return float(x @ y)


def test_the_committed_table_is_whole(table):
    data = json.loads(vectors.VECTORS_PATH.read_text(encoding="utf-8"))
    assert table.dim == data["dim"] == 96
    assert len(table.row) == len(data["stems"]) > 1500
    assert np.isfinite(table.vectors).all() and table.vectors.shape == (len(table.row), 96)
    assert ((table.weights > 0) & (table.weights <= 1)).all()
    # the fit to the bank helped on the questions it kept out (bench/word_vectors.py)
    assert data["held_out_mrr"]["fitted"] > data["held_out_mrr"]["distilled"] + 0.1


def test_a_players_words_are_near_the_crs_words_for_them(table):
    assert _cos(table, "hand", "grip") > _cos(table, "hand", "ice") + 0.3
    assert _cos(table, "brain damage", "core damage") > 0.5 > _cos(table, "brain damage", "credits")
    assert _cos(table, "deck", "stack") > _cos(table, "deck", "heap")


def test_unknown_words_and_empty_text_have_no_vector(table):
    assert table.embed([]) is None
    assert table.embed(vectors.stems("zzqx qqzzv")) is None
    rows = table.embed_all([[], vectors.stems("grip")])
    assert rows.shape == (2, 96) and not rows[0].any() and rows[1].any()


def test_bank_questions_lie_nearest_their_own_rule(table, doc_latest):
    nodes = [n for n in doc_latest.nodes if n.kind != "example"]
    rules = table.embed_all(vectors.stems(vectors.rule_text(n)) for n in nodes)
    asked = bank.for_doc(doc_latest)
    sample = [(k, q) for k, n in enumerate(nodes) for q in asked.get(n.id, ())][::20]
    assert len(sample) > 500
    sims = table.embed_all(vectors.stems(q) for _, q in sample) @ rules.T
    ranks = [int((sims[i] > sims[i, k]).sum()) + 1 for i, (k, _) in enumerate(sample)]
    # among all 1,642 rules: 0.83 measured; the distilled vectors before the fit give about 0.3
    assert np.mean([1 / r for r in ranks]) > 0.6


@pytest.mark.parametrize(
    "damage",
    [
        lambda d: None,  # missing
        lambda d: "{not json",
        lambda d: json.dumps({**d, "vectors": "!!not base64!!"}),
        lambda d: json.dumps({**d, "dim": 95}),
        lambda d: json.dumps({**d, "weights": d["weights"][:-1]}),
        lambda d: json.dumps({**d, "vectors": base64.b64encode(b"\x01" * 10).decode()}),
    ],
)
def test_a_missing_or_damaged_table_is_none(tmp_path, damage):
    data = json.loads(vectors.VECTORS_PATH.read_text(encoding="utf-8"))
    path = tmp_path / "word_vectors.json"
    text = damage(data)
    if text is not None:
        path.write_text(text, encoding="utf-8")
    assert vectors.load(path) is None


@pytest.fixture(scope="module")
def index_path(doc_latest, tmp_path_factory):
    path = tmp_path_factory.mktemp("vectors-index")
    build_index(doc_latest, path)
    return path


def test_search_without_vectors_ranks_by_the_lite_model(index_path, doc_latest):
    query = "runner has no cards in hand and takes net damage"
    full = Searcher(index_path, doc_latest)
    lite = Searcher(index_path, doc_latest, word_vectors=False)
    assert full.vectors is not None and lite.vectors is None
    ids, rows = lite.rank_inputs(query)
    width = len(ranker.LITE_FEATURES)
    assert all(
        row[width : width + len(ranker.VECTOR_FEATURES)] == [0.0] * len(ranker.VECTOR_FEATURES)
        for row in rows
    )
    model = ranker.load(lite=True)
    assert model is not None and model.names == ranker.LITE_FEATURES
    scores = [model.score(row) for row in rows]
    expected = [ids[k] for k in sorted(range(len(ids)), key=lambda k: (-scores[k], k))]
    assert [h.id for h in lite.search(query, limit=ranker.DEPTH)] == expected
    # with vectors, the same candidates get real cosines
    ids_full, rows_full = full.rank_inputs(query)
    assert sorted(ids_full[: ranker.DEPTH]) == sorted(ids)  # and the vectors' nearest after them
    cosines = [row[ranker.FEATURES.index("v_text")] for row in rows_full]
    assert max(cosines) > 0.3 and len(set(cosines)) > 10
    assert max(row[ranker.FEATURES.index("v_text_rel")] for row in rows_full) == 0.0
    # each is the cosine of the query's vector with the rule's title and text
    table = full.vectors
    query_vector = table.embed(vectors.stems(query))
    for node_id, cosine in list(zip(ids_full, cosines, strict=True))[:10]:
        rule_vector = table.embed(vectors.stems(vectors.rule_text(doc_latest.node(node_id))))
        assert cosine == pytest.approx(float(rule_vector @ query_vector), abs=1e-5)
    # and the flatline rule, which shares few words with the question, is near it in meaning
    flatline = ids_full.index("rule_flatline") if "rule_flatline" in ids_full else None
    assert flatline is not None and cosines[flatline] > sorted(cosines)[len(cosines) // 2]


def test_the_offline_copys_searcher_ranks_by_the_pack_model(index_path, doc_latest):
    """``Searcher(word_vectors="pack")``: the small table (`vectors.PACK_DIM` numbers a stem,
    the rarity weights folded in) and the pack model; its order is the lite features' sum plus
    the query's vector dotted with the rule's pack vector, the two cosines' weights folded in."""
    full = vectors.load()
    small = vectors.load(pack=True)
    assert small is not None and small.dim == vectors.PACK_DIM and small.row == full.row
    assert set(np.unique(small.weights)) == {1.0}
    # the small table is the full one's first directions, weighted, to within half a step of
    # its int8 coding (one step per direction: the largest value over 127)
    weighted = full.vectors[:, : vectors.PACK_DIM] * full.weights[:, None]
    step = np.abs(weighted).max(0) / 127
    assert np.all(np.abs(small.vectors - weighted) <= step / 2 + 1e-6)
    assert np.abs(small.vectors[full.row["grip"]]).max() > 10 * step.max()  # a real vector, not noise
    query = "runner has no cards in hand and takes net damage"
    pack = Searcher(index_path, doc_latest, word_vectors="pack")
    model = ranker.load(pack=True)
    assert model is not None and model.names == ranker.PACK_FEATURES
    ids, rows = pack.rank_inputs(query)
    # the training rows carry the two cosines by the small table
    q = small.embed(vectors.stems(query))
    node = doc_latest.node(ids[0])
    own = small.embed(vectors.stems(vectors.rule_text(node)))
    assert rows[0][ranker.FEATURES.index("v_text")] == pytest.approx(float(own @ q), abs=1e-5)
    made = pack.pack_vectors(model)
    assert made is not None and len(made[0]) == len(made[2]) > 1500 and made[2].dtype == np.int8
    rule = dict(zip(made[0], (c.astype(np.float32) * made[1] for c in made[2]), strict=True))
    width = len(ranker.LITE_FEATURES)
    w_text, w_mean = model.weights[width], model.weights[width + 1]
    # a rule's pack vector is the two weighted vectors, summed (to the int8 coding)
    text_vec, _, mean_vec = pack._rule_vectors(ids[0])
    assert np.allclose(rule[ids[0]], w_text * text_vec + w_mean * mean_vec, atol=np.abs(made[1]).max())
    # and the three translation features, by the pack's cut-down table, with their own weights
    t_weights = model.weights[width + 2 :]
    t_columns = [ranker.FEATURES.index(name) for name in ranker.TRANSLATION_FEATURES]
    assert (
        len(t_weights) == 3
        and pack.translation is not None
        and pack.translation.probs.min() >= np.float32(0.02)
    )
    assert len({row[t_columns[0]] for row in rows}) > 10  # real, varied scores in the rows
    scores = [
        sum(w * x for w, x in zip(model.weights[:width], row[:width], strict=True))
        + float(rule[i] @ q)
        + sum(w * row[k] for w, k in zip(t_weights, t_columns, strict=True))
        for i, row in zip(ids, rows, strict=True)
    ]
    expected = [ids[k] for k in sorted(range(len(ids)), key=lambda k: (-scores[k], k))]
    assert [h.id for h in pack.search(query, limit=ranker.DEPTH)] == expected[: ranker.DEPTH]
    lite = Searcher(index_path, doc_latest, word_vectors=False)
    assert [h.id for h in lite.search(query, limit=10)] != expected[:10]  # the vectors change the order


def test_the_offline_copys_searcher_without_its_model_falls_back_to_the_lite_one(
    index_path, doc_latest, tmp_path, monkeypatch
):
    """A weights file without a usable ``pack`` part: `Searcher(word_vectors="pack")` orders
    questions by the lite model, as the pack then does (`offline.build_pack`)."""
    data = json.loads(ranker.WEIGHTS_PATH.read_text(encoding="utf-8"))
    data["pack"]["use"] = False
    path = tmp_path / "weights.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    monkeypatch.setattr(
        ranker.load, "__defaults__", (path, *ranker.load.__defaults__[1:])
    )  # load's default file, its other defaults kept
    query = "runner has no cards in hand and takes net damage"
    pack = Searcher(index_path, doc_latest, word_vectors="pack")
    lite = Searcher(index_path, doc_latest, word_vectors=False)
    assert ranker.load(pack=True) is None
    assert pack.pack_vectors() is None
    assert [h.id for h in pack.search(query, limit=20)] == [h.id for h in lite.search(query, limit=20)]
