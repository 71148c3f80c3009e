"""Document expansion, measured: what each kind of `rules_index.expansion` text does to relevance.

    .venv/bin/python bench/expansion.py [--version 26.03] [--cr-dir ../shared/cr]
        [--nrdb ../shared/nrdb/v2] [--judge ../shared/judge] [--kind children ...] [--set FILE ...]

Builds the rules index once per kind of expansion (each in a temporary directory, through
`rules_index.search.build_index`'s ``expansion`` hook, which indexes the text in a rule's
``context`` field) and prints recall@5 and MRR@10, overall and per query type, beside the
index built without expansion, on the sets that may be tuned on (the main set, the tuning set
and, when present, bench/relevance_train.json). The held-out sets are refused: they are
reported by bench/relevance.py, never used to choose.

Kinds (`rules_index.expansion`):

* ``children``: the key words of a rule's sub-rules;
* ``defs``: the first words of the definitions of the terms a rule uses;
* ``thesaurus``: the associates (NPMI, learned from the CR) of a rule's words that it lacks;
* ``questions``: the questions of NetrunnerDB official rulings and of the judges' FAQ that
  cite the rule by number (needs --nrdb / --judge; prints how many rules they reach).
"""

from __future__ import annotations

import argparse
import re
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from itertools import combinations
from math import log
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from relevance import (  # noqa: E402
    DEFAULT_CR_DIR,
    HELD_OUT,
    SET_PATH,
    TRAIN_PATH,
    TUNING_PATH,
    evaluate,
    load_doc,
    load_set,
    source_questions,
)

from rules_index.expansion import question_log  # noqa: E402
from rules_index.search import Searcher, build_index  # noqa: E402
from scraper import Document, Node  # noqa: E402

KINDS = ("children", "defs", "thesaurus", "synonyms", "questions")
Thesaurus = dict[str, list[tuple[str, float]]]
Analyze = Callable[[str], list[str]]


def _analyze(text: str) -> list[str]:
    return Searcher._stems(text)


# ----------------------------------------------------------------------------------------------
# Expansion learned from the CR alone (measured here; the product uses none of it)
# ----------------------------------------------------------------------------------------------

# Associates kept per word, and how strong an association must be (NPMI in [-1, 1]; 0 is
# independence). A pair must co-occur in at least THESAURUS_MIN_PAIR units, and a word must
# appear in THESAURUS_MIN_DF units and in at most THESAURUS_MAX_SHARE of them to take part.
THESAURUS_K = 3
THESAURUS_MIN_NPMI = 0.35
THESAURUS_MIN_PAIR = 5
THESAURUS_MIN_DF = 3
THESAURUS_MAX_SHARE = 0.08
# Hierarchy expansion: words taken from each child rule, children taken per rule, and words of
# a term's definition given to each rule that uses the term (rules using more than
# TERM_MAX_USERS rules' worth of a term get nothing: "card" and "run" say nothing).
CHILD_WORDS = 12
CHILD_MAX = 12
DEFINITION_WORDS = 25
TERM_MAX_USERS = 40


def _searchable(doc: Document) -> list[Node]:
    return [n for n in doc.nodes if n.kind != "example"]


def _first_words(text: str, n: int) -> str:
    return " ".join(text.split()[:n])


def _contains(seq: list[str], phrase: list[str]) -> bool:
    k = len(phrase)
    return any(seq[i : i + k] == phrase for i in range(len(seq) - k + 1))


def hierarchy(doc: Document, analyze: Analyze) -> tuple[dict[str, str], dict[str, str]]:
    """(rule id -> key words of its children, rule id -> first words of the definitions of
    the terms it uses)."""
    nodes = _searchable(doc)
    kids: dict[str, list[Node]] = {}
    for node in nodes:
        if node.parent:
            kids.setdefault(node.parent, []).append(node)
    children: dict[str, str] = {}
    for node in nodes:
        parts = [
            (child.title + " " if child.title else "") + _first_words(child.text, CHILD_WORDS)
            for child in kids.get(node.id, ())[:CHILD_MAX]
        ]
        if parts:
            children[node.id] = "\n".join(parts)
    # Terms: the analysed phrase of each defined term -> its defining rule.
    defined: list[tuple[list[str], Node]] = []
    for node in nodes:
        for term in node.terms:
            stems = analyze(term)
            if stems:
                defined.append((stems, node))
    seqs = {node.id: analyze(f"{node.title or ''} {node.text}") for node in nodes}
    having: dict[str, list[str]] = {}  # stem -> ids of the rules having it, in document order
    for node in nodes:
        for stem in dict.fromkeys(seqs[node.id]):
            having.setdefault(stem, []).append(node.id)
    users: dict[str, list[str]] = {}  # rule id -> ids of the rules defining a term it uses
    for stems, definer in defined:
        found = [
            rule_id
            for rule_id in having.get(stems[0], ())
            if rule_id != definer.id and _contains(seqs[rule_id], stems)
        ]
        if 0 < len(found) <= TERM_MAX_USERS:
            for rule_id in found:
                users.setdefault(rule_id, [])
                if definer.id not in users[rule_id]:
                    users[rule_id].append(definer.id)
    defs: dict[str, str] = {}
    for rule_id, definers in users.items():
        texts = []
        for definer_id in definers:
            node = doc.node(definer_id)
            if node is not None:
                texts.append(_first_words(node.text, DEFINITION_WORDS))
        if texts:
            defs[rule_id] = "\n".join(texts)
    return children, defs


def _units(doc: Document, analyze: Analyze) -> tuple[list[frozenset[str]], list[tuple[int, int]]]:
    """The words of each rule (title, text, defined terms), and the pairs of rules that speak
    of each other (a rule and a rule it cites, a rule and its parent), as indexes into it."""
    nodes = _searchable(doc)
    position = {n.id: i for i, n in enumerate(nodes)}
    own = [frozenset(analyze(" ".join([n.title or "", n.text, *n.terms]))) for n in nodes]
    links: set[tuple[int, int]] = set()
    for i, node in enumerate(nodes):
        targets = {ref.target for ref in node.refs} | ({node.parent} if node.parent else set())
        for target in targets:
            j = position.get(target)
            if j is not None and j != i:
                links.add((min(i, j), max(i, j)))
    return own, sorted(links)


def learn_thesaurus(doc: Document, analyze: Analyze) -> Thesaurus:
    """Word -> its strongest associates [(word, NPMI)], best first (see the module docs).

    The units counted are each rule alone and each linked pair of rules; inside a linked pair
    only the words of one rule meeting words of the other count as co-occurring (a long rule
    with many links would otherwise count its own pairs once per link)."""
    own, links = _units(doc, analyze)
    total = len(own) + len(links)
    if not total:
        return {}
    df: Counter = Counter()
    for unit in own:
        df.update(unit)
    for i, j in links:
        df.update(own[i] | own[j])
    keep = {
        w
        for w, c in df.items()
        if THESAURUS_MIN_DF <= c <= THESAURUS_MAX_SHARE * total and len(w) >= 3 and w.isalpha()
    }
    pairs: Counter = Counter()
    kept = [sorted(w for w in unit if w in keep) for unit in own]
    for words in kept:
        pairs.update(combinations(words, 2))
    for i, j in links:
        a_only = [w for w in kept[i] if w not in own[j]]
        b_only = [w for w in kept[j] if w not in own[i]]
        pairs.update((a, b) if a < b else (b, a) for a in a_only for b in b_only)
    best: dict[str, list[tuple[float, str]]] = {}
    for (a, b), n in pairs.items():
        if n < THESAURUS_MIN_PAIR:
            continue
        p_ab = n / total
        npmi = log(p_ab / ((df[a] / total) * (df[b] / total))) / -log(p_ab)
        if npmi < THESAURUS_MIN_NPMI:
            continue
        best.setdefault(a, []).append((npmi, b))
        best.setdefault(b, []).append((npmi, a))
    out: Thesaurus = {}
    for word in sorted(best):
        ranked = sorted(best[word], key=lambda pair: (-pair[0], pair[1]))[:THESAURUS_K]
        out[word] = [(other, round(score, 3)) for score, other in ranked]
    return out


def thesaurus_text(doc: Document, thesaurus: Thesaurus, analyze: Analyze) -> dict[str, str]:
    """Rule id -> the associates of its words that it does not have itself (stems, as the
    index stores them), strongest first."""
    out: dict[str, str] = {}
    for node in _searchable(doc):
        own = set(analyze(" ".join([node.title or "", node.text, *node.terms])))
        found: dict[str, float] = {}
        for word in own:
            for other, score in thesaurus.get(word, ()):
                if other not in own:
                    found[other] = max(found.get(other, 0.0), score)
        if found:
            out[node.id] = " ".join(sorted(found, key=lambda w: (-found[w], w)))
    return out


# What the CR itself says is the same word: 'The terms "spend" and "pay" are synonymous',
# 'suffers (sometimes referred to as "takes") damage', 'its name, alternatively referred to as
# its title'.
_SYNONYMOUS = re.compile(
    r'"([^"]{2,30})" and "([^"]{2,30})" are synonymous'
    r'|\b(\w+)\s*\((?:sometimes |also |often )?referred to as "([^"]{2,30})"\)'
    r"|\bits (\w+), (?:alternatively|also|sometimes) referred to as its (\w+)",
    re.IGNORECASE,
)


def stated_synonyms(doc: Document) -> list[tuple[str, str]]:
    """Pairs of words the CR says mean the same."""
    pairs: list[tuple[str, str]] = []
    for node in doc.nodes:
        for m in _SYNONYMOUS.finditer(node.text):
            a, b = [g for g in m.groups() if g]
            pairs.append((a.lower(), b.lower()))
    return pairs


def synonym_text(doc: Document, pairs: list[tuple[str, str]], analyze: Analyze) -> dict[str, str]:
    """Rule id -> the synonyms (stated by the CR) of words it has but whose synonym it lacks."""
    table: dict[tuple[str, ...], list[str]] = {}
    for a, b in pairs:
        sa, sb = tuple(analyze(a)), tuple(analyze(b))
        if sa and sb and sa != sb:
            table.setdefault(sa, []).append(b)
            table.setdefault(sb, []).append(a)
    out: dict[str, str] = {}
    for node in _searchable(doc):
        seq = analyze(f"{node.title or ''} {node.text}")
        own = set(seq)
        found = [
            word
            for phrase, words in table.items()
            if _contains(seq, list(phrase))
            for word in words
            if not set(analyze(word)) <= own
        ]
        if found:
            out[node.id] = " ".join(dict.fromkeys(found))
    return out


def expansion_for(kind: str, doc: Document, asked: list) -> dict[str, str]:
    if kind in ("children", "defs"):
        children, defs = hierarchy(doc, _analyze)
        return children if kind == "children" else defs
    if kind == "thesaurus":
        return thesaurus_text(doc, learn_thesaurus(doc, _analyze), _analyze)
    if kind == "questions":
        return question_log(doc, asked, _analyze)
    if kind == "synonyms":
        return synonym_text(doc, stated_synonyms(doc), _analyze)
    raise ValueError(kind)


def score(doc: Document, expansion: dict[str, str] | None, sets: list[Path]) -> tuple[dict, float]:
    with tempfile.TemporaryDirectory(prefix="nrrules-expansion-") as tmp:
        t0 = time.process_time()
        build_index(doc, Path(tmp), expansion)
        build_s = time.process_time() - t0
        searcher = Searcher(Path(tmp), doc)
        out = {}
        for path in sets:
            queries = [q for q in load_set(path) if any(a in doc for a in q["answers"])]
            ranked = {q["q"]: [h.id for h in searcher.search(q["q"], limit=10)] for q in queries}
            out[path.name] = evaluate(ranked, queries)
        searcher.close()
    return out, build_s


def _line(name: str, r: dict, base: dict | None) -> str:
    delta = ""
    if base is not None:
        delta = f" ({r['recall@5'] - base['recall@5']:+.3f} / {r['mrr@10'] - base['mrr@10']:+.3f})"
    types = "  ".join(f"{t} {r['recall5_by_type'][t]:.2f}/{v:.2f}" for t, v in r["mrr_by_type"].items())
    return f"  {name:10} {r['recall@5']:.3f} / {r['mrr@10']:.3f}{delta:20}  {types}"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--version", default="26.03")
    ap.add_argument("--cr-dir", type=Path, default=DEFAULT_CR_DIR)
    ap.add_argument("--nrdb", type=Path, default=ROOT.parent / "shared" / "nrdb" / "v2")
    ap.add_argument("--judge", type=Path, default=ROOT.parent / "shared" / "judge")
    ap.add_argument("--kind", action="append", choices=KINDS, help="repeatable (default: each kind)")
    ap.add_argument("--set", type=Path, action="append", help="repeatable (default: the tuning sets)")
    args = ap.parse_args(argv)
    sets = args.set or [p for p in (SET_PATH, TUNING_PATH, TRAIN_PATH) if p.exists()]
    held = [p.name for p in sets if p.name in HELD_OUT]
    if held:
        print(f"error: {', '.join(held)} is held out: never measured here", file=sys.stderr)
        return 2
    doc = load_doc(args.version, args.cr_dir)
    asked = source_questions(args.nrdb, args.judge) if "questions" in (args.kind or KINDS) else []
    base, base_s = score(doc, None, sets)
    rows = [("none", base, base_s, 0, 0)]
    for kind in args.kind or KINDS:
        expansion = expansion_for(kind, doc, asked)
        words = sum(len(t.split()) for t in expansion.values())
        result, build_s = score(doc, expansion, sets)
        rows.append((kind, result, build_s, len(expansion), words))
    print(f"CR {doc.version}; expansion text in the context field; recall@5 / MRR@10 (change)")
    if asked:
        print(f"questions read: {len(asked)} (rulings and judges' FAQ)")
    for name, _, build_s, rules, words in rows:
        print(f"  {name:10} index build {build_s:.2f} CPU s, {rules} rules expanded, {words} words")
    for path in sets:
        print(f"\n{path.name}:")
        for name, result, *_ in rows:
            print(_line(name, result[path.name], None if name == "none" else base[path.name]))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
