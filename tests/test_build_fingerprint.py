"""A build's fingerprint covers every input of a CR build besides its source (issue 34,
"Reproducible models"): a change to the learned ranker's weights, the translation or word-vector
tables, or the sentence encoder installed makes every build stale, so `nrrules build` redoes it
instead of saying "unchanged" and serving an offline pack ranked by the old model."""

from __future__ import annotations

import importlib.metadata
import json
import shutil
from pathlib import Path

from rules_index import bank, encoder, ranker, translation, vectors
from rules_index.store import _FINGERPRINT_FILES, code_fingerprint

ROOT = Path(__file__).resolve().parent.parent


def _covered(path: Path) -> bool:
    rel = path.resolve().relative_to(ROOT)
    return any(rel == Path(entry) or Path(entry) in rel.parents for entry in _FINGERPRINT_FILES)


def test_the_models_data_and_code_are_in_the_fingerprint():
    for path in (ranker.WEIGHTS_PATH, translation.TABLE_PATH, vectors.VECTORS_PATH, bank.LABELLED_PATH):
        assert path.is_file() and _covered(path), path
    for module in (ranker, translation, vectors, encoder):
        assert _covered(Path(module.__file__)), module.__name__


def _copy_inputs(dest: Path) -> None:
    for entry in _FINGERPRINT_FILES:
        src = ROOT / entry
        if src.is_dir():
            shutil.copytree(src, dest / entry, ignore=shutil.ignore_patterns("__pycache__"))
        elif src.is_file():
            (dest / entry).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy(src, dest / entry)


def test_a_retrained_ranker_or_table_changes_the_fingerprint(tmp_path):
    _copy_inputs(tmp_path)
    before = code_fingerprint(tmp_path)
    assert before == code_fingerprint(ROOT) == code_fingerprint()
    weights = tmp_path / "rules_index" / "ranker_weights.json"
    original = weights.read_text(encoding="utf-8")
    data = json.loads(original)
    data["weights"][0] += 0.5  # a retrain that moved one weight
    weights.write_text(json.dumps(data), encoding="utf-8")
    retrained = code_fingerprint(tmp_path)
    assert retrained != before
    weights.write_text(original, encoding="utf-8")
    assert code_fingerprint(tmp_path) == before
    table = tmp_path / "rules_index" / "translation.json"
    table.write_text(table.read_text(encoding="utf-8") + "\n", encoding="utf-8")
    assert code_fingerprint(tmp_path) not in (before, retrained)


def test_the_encoder_identity_names_the_installed_model():
    found = encoder.identity()
    if encoder.load() is None:
        assert found == "none"
    else:
        version = importlib.metadata.version(encoder.DISTRIBUTION)
        size = (encoder.model_dir() / "model.safetensors").stat().st_size
        assert found == f"{encoder.DISTRIBUTION}=={version}:{size}"
