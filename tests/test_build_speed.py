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
