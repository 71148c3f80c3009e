"""What tests share besides fixtures: where the real CR files are, and each version parsed once
per test process. Import from here (`from helpers import load_doc`), not from conftest."""

from __future__ import annotations

import math
import os
import re
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

from scraper import Document, parse_html

ROOT = Path(__file__).resolve().parent.parent
CR_DIR = Path(os.environ.get("NRRULES_CR_DIR", ROOT.parent / "shared" / "cr"))
NRDB_DIR = Path(os.environ.get("NRRULES_NRDB_DIR", ROOT.parent / "shared" / "nrdb" / "v2"))
JUDGE_PATH = Path(
    os.environ.get("NRRULES_JUDGE_FILE", ROOT.parent / "shared" / "judge" / "judge-reference-excerpt.html")
)
JUDGE_FIXTURE = ROOT / "tests" / "fixtures" / "judge-libreoffice-floor-guide.html"
VERSIONS = ["22.12", "23.08", "24.03", "25.04", "25.08", "26.03"]
LATEST = VERSIONS[-1]


def cr_path(version: str) -> Path:
    return CR_DIR / f"cr-{version}.html"


_DOCS: dict[str, Document] = {}


def load_doc(version: str) -> Document:
    if version not in _DOCS:
        path = cr_path(version)
        _DOCS[version] = parse_html(path.read_bytes(), str(path))
    return _DOCS[version]


def words(text: str) -> frozenset[str]:
    """A question's words as the near-duplicate checks compare them: lower case, letters, digits
    and apostrophes."""
    return frozenset(re.findall(r"[a-z0-9']+", text.lower()))


def jaccard(a: frozenset[str], b: frozenset[str]) -> float:
    """Token-set Jaccard similarity: shared words over all words."""
    return len(a & b) / len(a | b)


def near_pairs(
    left: Sequence[frozenset[str]], right: Sequence[frozenset[str]], threshold: float
) -> list[tuple[int, int, float]]:
    """Every pair ``(i, j, jaccard(left[i], right[j]))`` whose Jaccard is at least `threshold`
    (0 < threshold <= 1), in order of i then j: the same pairs as comparing all of them, found
    without comparing most.

    Prefix filtering: order each set's words rarest first (one order for all sets). Two sets
    with Jaccard >= t share at least ceil(t * |x|) words of each set x, so the first
    |x| - ceil(t * |x|) + 1 words of each must meet; only pairs whose prefixes share a word are
    compared, exactly. An empty set is near nothing."""
    if not 0 < threshold <= 1:
        raise ValueError(f"threshold {threshold} is not in (0, 1]")
    counts = Counter(w for s in (*left, *right) for w in s)

    def prefix(s: frozenset[str]) -> list[str]:
        # the 1e-9 only ever lengthens a prefix, so float rounding cannot lose a pair
        keep = len(s) - math.ceil(threshold * len(s) - 1e-9) + 1
        return sorted(s, key=lambda w: (counts[w], w))[:keep]

    index: dict[str, list[int]] = {}
    for j, s in enumerate(right):
        for w in prefix(s):
            index.setdefault(w, []).append(j)
    out = []
    for i, a in enumerate(left):
        for j in sorted({j for w in prefix(a) for j in index.get(w, ())}):
            if (similarity := jaccard(a, right[j])) >= threshold:
                out.append((i, j, similarity))
    return out


def engine_board(**kw: object) -> dict:
    """A small valid engine board (docs/board-format.md): the Corp with 5 credits, 3 cards in HQ
    and 10 in R&D; the Runner with 5 credits, 4 clicks, 5 cards in the grip and 10 in the stack;
    no ice. `corp=` / `runner=` dicts are merged into the players; any other keyword (`servers`,
    `turn`, ...) replaces that field."""
    b: dict = {
        "version": 1,
        "corp": {"credits": 5, "hand": 3, "deck": 10},
        "runner": {"credits": 5, "clicks": 4, "hand": 5, "deck": 10},
        "servers": {},
    }
    for k, v in kw.items():
        b[k] = {**b[k], **v} if k in ("corp", "runner") and isinstance(v, dict) else v
    return b


def decision_ids(session: object) -> list[str]:
    """The ids of the decisions legal now."""
    import engine

    return [d["id"] for d in engine.legal_decisions(session)]  # type: ignore[arg-type]


# a fracter as the rig tests put it on a board (subtypes written as the cards print them)
CORRODER = {
    "name": "Corroder",
    "type": "program",
    "memory_cost": 1,
    "strength": 2,
    "subtypes": ["Icebreaker", "Fracter"],
    "abilities": [
        {"kind": "break", "cost": 1, "count": 1, "ice_subtype": "barrier"},
        {"kind": "strength", "cost": 1, "amount": 1},
    ],
}


# Everyday words a judge types that the rules or their bank questions use: no typos, never
# "corrected" into another word or a card (`Searcher.surface_words`); and real typos.
EVERYDAY = (
    ("what gets worked out before anyone acts", "worked"),  # was "forked": the card Forked
    ("where do I keep my spare identities", "spare"),  # was the card Snare!
    ("can I save credits for later", "save"),  # was "have"
    ("my breaker is too weak", "breaker"),  # was "break"
)
TYPOS = {"recuring credits": {"recuring": "recurring"}, "bypas ice": {"bypas": "bypass"}}


def until_offered(session: object, wanted: str, limit: int = 60) -> object:
    """Take the first offered decision (passing, else continuing, else the first) with
    `engine.apply` until `wanted` is offered; the session then. Fails if it never is."""
    import engine

    s = session
    for _ in range(limit):
        ids = decision_ids(s)
        if wanted in ids:
            return s
        assert not s.finished, f"finished before {wanted}"  # type: ignore[attr-defined]
        s, _ = engine.apply(s, "pass" if "pass" in ids else "continue" if "continue" in ids else ids[0])  # type: ignore[arg-type]
    raise AssertionError(f"{wanted} never offered; last offered {decision_ids(s)}")


def cites_known_rules(session: object, doc: Document) -> bool:
    """Every rule the session's trace cites is a rule of `doc`."""
    return all(doc.node(r) is not None for e in session.trace for r in e.rules)  # type: ignore[attr-defined]


def by_title_fixtures():
    """The fixtures of the tests that put real cards on boards by title, as the editor does
    (conftest `titled`): `card(title)`, `units(title)`, and `doc`, each test on CR 24.03 and
    26.03. A test module takes them with `card, units, doc = by_title_fixtures()`."""
    import pytest

    @pytest.fixture(scope="module")
    def card(titled):
        return titled.card

    @pytest.fixture(scope="module")
    def units(titled):
        return titled.units

    @pytest.fixture(params=["24.03", "26.03"])
    def doc(request):
        return load_doc(request.param)

    return card, units, doc
