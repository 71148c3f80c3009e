"""Remake ``rules_index/translation.json``: the word-translation table search's learned stage
reads (`rules_index.translation`), learned from the question bank (`rules_index.bank`) and the
rules of one CR version (26.03 by default).

    .venv/bin/python bench/translation.py [--cr-dir ../shared/cr] [--version 26.03] [--check]

Prints the table's size, how long the fit took, and for a few of the CR's words the question words
they most often stand for. ``--check`` writes nothing and fails when the committed file is not what
the bank and the CR make now (run it after editing the bank; `tests/test_translation.py` checks
the same). After remaking it, retrain the ranker (``bench/train_ranker.py``).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from relevance import DEFAULT_CR_DIR, load_doc, write_or_check  # noqa: E402

from rules_index import bank, translation  # noqa: E402
from rules_index.search import fit_translation, index_words  # noqa: E402

VERSION = "26.03"
SAMPLES = ("core", "grip", "strength", "stack", "heap", "flatline", "publicity")


def make(cr_dir: Path, version: str = VERSION) -> tuple[dict, translation.Table, float]:
    """The file's content, the table and the seconds the fit took."""
    doc = load_doc(version, cr_dir)
    started = time.perf_counter()
    table = fit_translation(doc, bank.for_doc(doc))
    took = time.perf_counter() - started
    if table is None:
        raise SystemExit("error: the question bank gave no question for any rule of this version")
    data = {
        "about": (
            "Word-translation table (IBM Model 1, rules_index/translation.py): t(question word | "
            "rule word), learned from the question bank's questions and the title, text and section "
            f"titles of the rules of CR {version} they belong to. Made by bench/translation.py."
        ),
        "version": version,
        **table.to_json(),
    }
    return data, table, took


def stands_for(table: translation.Table, word: str, k: int = 5) -> list[tuple[str, float]]:
    """The question words a CR word most often stands for: its column of t(q | w)."""
    stems = index_words(word)
    if len(stems) != 1 or stems[0] not in table.said:
        return []
    return sorted(((q, table.prob(q, stems[0])) for q in table.asked), key=lambda x: -x[1])[:k]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cr-dir", type=Path, default=DEFAULT_CR_DIR)
    ap.add_argument("--version", default=VERSION)
    ap.add_argument("--out", type=Path, default=translation.TABLE_PATH)
    ap.add_argument("--check", action="store_true", help="fail if the committed file differs")
    args = ap.parse_args(argv)
    data, table, took = make(args.cr_dir, args.version)
    text = json.dumps(data, indent=0) + "\n"
    print(
        f"CR {args.version}: {len(table.asked)} question words, {len(table.said) - 1} rule words, "
        f"{len(table.probs)} pairs kept (t >= {translation.FLOOR}); fit {took:.2f} s; "
        f"{len(text.encode('utf-8')) / 1024:.0f} KB"
    )
    for word in SAMPLES:
        pairs = stands_for(table, word)
        shown = ", ".join(f"{q} {p:.2f}" for q, p in pairs) if pairs else "(not in the rules' words)"
        print(f"  the CR's {word!r} stands for: {shown}")
    return write_or_check(args.out, text, args.check, "translation table")


if __name__ == "__main__":
    raise SystemExit(main())
