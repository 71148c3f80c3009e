"""What makes builds faster keeps them the same (issue 37): the word vectors' plain-loop analyzer
reads every rule and question of the real CR and question bank as search's analyzer does."""

from __future__ import annotations

from rules_index import bank, vectors
from rules_index.search import VECTOR_ANALYZER


def test_the_vectors_stems_are_the_analyzers_on_every_rule_and_question(documents):
    texts = [vectors.rule_text(n) for doc in documents.values() for n in doc.nodes]
    texts += [q for qs in bank.load().values() for q in qs]
    texts += [q for qs in bank.labelled().values() for q in qs]
    texts += ["Naïve CAFÉ non-ice wasn't runner's", "", "  ", "¢ [click] 3&4 é_x"]
    assert len(texts) > 20_000
    for text in texts:
        assert vectors._stems(text) == [t.text for t in VECTOR_ANALYZER(text)], text


def test_stems_made_once_in_a_build_are_the_same_and_not_kept_after():
    text = "The Runner jacks out before the encounter"
    plain = vectors.stems(text)
    with vectors.stems_once():
        first = vectors.stems(text)
        first.append("changed")  # a caller changing its list changes nothing kept
        assert vectors.stems(text) == plain
        assert vectors._ONCE == {text: plain}
    assert vectors._ONCE is None


def test_the_index_words_are_the_analyzers_on_every_field_of_every_rule(documents):
    """`indexing.fast_fields` gives Whoosh the same (word, count, weight, positions) tuples, in
    the same order, as each field's analyzer on every field of every rule of every version, the
    question bank's questions and the CR's own context included; the schema is as it was after."""
    from whoosh.fields import FieldType

    from rules_index import indexing, search

    schema = search.SCHEMA
    odd = "Naïve CAFÉ non-ice wasn't the Runner's grip, stack ices rezzed; the THE a ¢ 3&4 é_x R&D"
    values: list[tuple[str, str]] = [(name, odd) for name in search.TEXT_FIELDS + ("cards",)]
    for doc in documents.values():
        asked = bank.for_doc(doc, labelled=bank.labelled())
        for fields in search.rule_fields(doc, search._context(doc, None), asked):
            values += [(k, v) for k, v in fields.items() if schema[k].indexed]
    assert len(values) > 30_000 and {k for k, _ in values} >= {*search.TEXT_FIELDS, "cards"}
    whoosh = {(k, v): list(FieldType.index(schema[k], v, mode="index")) for k, v in values}
    with indexing.fast_fields(schema):
        assert all("index" in vars(schema[k]) for k in search.TEXT_FIELDS)
        for (k, v), expected in whoosh.items():
            assert list(schema[k].index(v)) == expected, (k, v)
    assert not any("index" in vars(schema[k]) for k in schema.names())


def test_the_builds_question_stems_are_the_searchers(documents):
    """`indexing.stems` (the offline pack's questions) reads as `Searcher._stems` does (no
    index-time synonyms: "grip" stays "grip")."""
    from rules_index import indexing
    from rules_index.search import Searcher

    texts = [q for qs in bank.load().values() for q in qs]
    texts += [q for qs in bank.labelled().values() for q in qs]
    texts += [n.text for n in documents["26.03"].nodes]
    texts += ["Naïve CAFÉ non-ice wasn't the Runner's grip and stack; rezzed ices", "", "the a"]
    assert len(texts) > 10_000
    for text in texts:
        assert indexing.stems(text) == Searcher._stems(text), text
