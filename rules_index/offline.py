"""The offline pack: everything a browser needs to read and search one CR version without a
connection, written as one JSON file at build time (``<version dir>/offline.json``).

The pack holds the rules (id, number, kind, title, parent, safe HTML with step references
linked as rule pages link them, `rules_index.steplinks`) and a compact search
index derived from the version's real Whoosh index, so the browser ranks like the server
(`rules_index.search`) without re-implementing its analyzer:

* ``words``: every surface word of the indexed text whose stem differs from it -> its stem
  (a word that is itself a stem is looked up directly), and the analyzer's stop words;
* ``post``: per stem, the rules containing it in any searched field with the summed BM25F score
  of the fields the server would search it in (the server's own scorer, `_FastBM25F`), as a
  delta-coded ``[doc, score*100, doc, score*100, ...]`` written as one string (`_encode`,
  `decode_post`); ``common`` lists the stems
  the server only ranks with, never selects by (`Searcher._is_common`);
* ``title`` and ``terms``: the same for the title and defined-term fields alone, for the
  server's title phrase and jargon term boosts;
* ``cards``: card name -> rules mentioning it (in the rule or its examples) with the score of
  the server's card-field clause;
* ``jargon``: the judge jargon table (`rules_index.jargon`), phrases -> expansion stems + rule;
* ``question``: how a question is read (`rules_index.question`: its framing patterns, the cues
  of each intent) and, per intent, the rules answering it;
* ``explain``: timing step -> the rules citing it (`Searcher._explain_steps`);
* ``ranker``: the learned stage's weights and constants (`rules_index.ranker`) and the rules
  that only name something; null when no model is in use. The offline copy's model
  (`ranker.load(pack=True)`): its lite features' weights, and ``vectors`` (`_pack_vectors`), the
  small word-vector table (`rules_index.vectors.load(pack=True)`: 16 numbers a stem where the
  server's has 96) and one vector per rule with the model's two vector weights folded in, so
  the saved copy ranks questions as the server does with ``Searcher(word_vectors="pack")``
  (the lite model, and no ``vectors``, when there is no table); and ``translation``
  (`_pack_translation`), the cut-down word-translation table
  (`rules_index.translation.Table.for_pack`: t(q | w) >= 0.02 in one byte each, 94 KB for CR 26.03)
  with the model's three weights for it;
* ``asked_card_post``: for the words of card names, what the question bank's field adds to
  ``post`` (a query naming the card does not count it: `Searcher._plan`);
* ``asked``: each rule's questions from the question bank (`rules_index.bank`) as stems, which
  the ranker's features read (coded small: `_asked`);
* ``params``: the server's ranking constants (re-rank depth, priors, phrase bonus...).

The client-side ranking lives in ``webapp/static/offline-search.js``; `tests/test_offline.py`
compares its answers with the server's.
"""

from __future__ import annotations

import base64
import json
from pathlib import Path

from scraper import Document

from . import ranker, vectors
from .indexing import stems
from .jargon import JARGON
from .question import ASKS, FRAMING, INTENTS
from .search import (
    _STOP,
    ANALYZER,
    BIGRAM_BONUS,
    COMMON_SHARE,
    FIELD_COMMON_SHARE,
    INTENT_BONUS,
    MAX_PHRASE_WORDS,
    NAME_ANALYZER,
    PRIORS,
    RERANK_DEPTH,
    STEP_SHARE,
    STEP_TOP,
    TEXT_FIELDS,
    TEXT_PHRASE_BONUS,
    VECTOR_ANALYZER,
    Searcher,
    _FastBM25F,
    _searchable,
)
from .steplinks import link_steps

__all__ = ["OFFLINE_FORMAT", "OFFLINE_FILE", "build_pack", "write_pack", "decode_post"]

OFFLINE_FORMAT = 2
OFFLINE_FILE = "offline.json"
SCALE = 100  # scores are stored as integers: score * SCALE


def _stem(word: str) -> str | None:
    tokens = [t.text for t in ANALYZER(word)]
    return tokens[0] if len(tokens) == 1 else None


# A posting list is one string: each number (doc delta, then scaled score) in base 32, most
# significant digit first, its last digit from `FINAL` and any before it from `MORE`, so no
# separator is needed (half the size of a JSON list of the same numbers).
FINAL = "0123456789abcdefghijklmnopqrstuv"
MORE = "wxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_-"


def _varint(n: int) -> str:
    out = FINAL[n % 32]
    n //= 32
    while n:
        out = MORE[n % 32] + out
        n //= 32
    return out


def _encode(pairs: list[tuple[int, float]]) -> str:
    """[(doc, score)] -> the coded string of [doc delta, scaled score, ...], sorted by doc."""
    out: list[str] = []
    last = 0
    for doc, score in sorted(pairs):
        out.append(_varint(doc - last))
        out.append(_varint(max(0, round(score * SCALE))))
        last = doc
    return "".join(out)


def decode_post(coded: str) -> dict[int, int]:
    """A coded posting list -> {rule position: scaled score} (as offline-search.js reads it)."""
    numbers: list[int] = []
    n = 0
    for ch in coded:
        if ch in MORE:
            n = n * 32 + MORE.index(ch)
        else:
            numbers.append(n * 32 + FINAL.index(ch))
            n = 0
    out: dict[int, int] = {}
    doc = 0
    for delta, score in zip(numbers[::2], numbers[1::2], strict=True):
        doc += delta
        out[doc] = score
    return out


def _asked(searcher: Searcher, searchable: list, position: dict[str, int]) -> dict:
    """Each rule's questions from the question bank (`rules_index.bank`) as the ranker reads
    them: the stems of each question (`ranker.NodeInfo.asked`). Coded to fit the pack's size
    budget: ``vocab`` lists the stems, and ``of`` maps a rule's position to its questions joined
    by "|", each the indexes of its stems into ``vocab`` written in base 62 with ``width`` digits
    apiece (no separator)."""
    questions = {
        position[n.id]: [q for q in (sorted(set(stems(text))) for text in searcher.asked(n.id)) if q]
        for n in searchable
    }
    vocab = sorted({stem for qs in questions.values() for q in qs for stem in q})
    width = 1
    while len(DIGITS62) ** width < len(vocab):
        width += 1
    code = {stem: _base62(i, width) for i, stem in enumerate(vocab)}
    return {
        "vocab": vocab,
        "width": width,
        "of": {
            pos: "|".join("".join(code[stem] for stem in q) for q in qs)
            for pos, qs in questions.items()
            if qs
        },
    }


def _pack_vectors(table, made: tuple) -> dict:
    """The word vectors of the offline copy's model (`Searcher.pack_vectors`): the small table
    (``stems`` joined by "|", ``scale`` and int8 ``codes`` per stem, base64) for the query's
    vector, the analyzer's form of the stop words it keeps (``stop``: the search drops them, the
    vectors read them), and one vector per searchable rule in ``docs`` order (``rule_scale`` and
    ``rules``), the model's two vector weights folded in: the browser adds the dot product of
    the query's vector with the rule's to the lite features' sum."""
    ids, rule_scale, rule_codes = made
    stems = sorted(table.row, key=table.row.get)
    scale, codes = vectors.quantize(table.vectors)
    stop = {}
    for word in sorted(_STOP):
        forms = [t.text for t in VECTOR_ANALYZER(word)]
        if len(forms) == 1 and forms[0] != word and forms[0] in table.row:
            stop[word] = forms[0]
    return {
        "dim": table.dim,
        "stems": "|".join(stems),
        "scale": [float(x) for x in scale],
        "codes": base64.b64encode(codes.tobytes()).decode("ascii"),
        "stop": stop,
        "rule_scale": [float(x) for x in rule_scale],
        "rules": base64.b64encode(rule_codes.tobytes()).decode("ascii"),
    }


DIGITS62 = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"


def _pack_translation(table, model: ranker.Model) -> dict | None:
    """The offline copy's translation table (`rules_index.translation.Table.for_pack`, coded by
    ``to_pack``) and the pack model's three weights for its features; None without the table or
    with a model that does not read it (the browser then adds nothing for them, as the server's
    pack searcher does)."""
    if table is None or model.names != ranker.PACK_FEATURES:
        return None
    width = len(ranker.LITE_FEATURES) + len(ranker.PACK_VECTOR_FEATURES)
    return {"weights": list(model.weights[width:]), **table.to_pack()}


def _base62(n: int, width: int) -> str:
    out = ""
    for _ in range(width):
        n, r = divmod(n, 62)
        out = DIGITS62[r] + out
    return out


def build_pack(doc: Document, searcher: Searcher) -> dict:
    """The offline pack of one version, from its Document and its built Whoosh index."""
    nodes = doc.nodes
    position = {n.id: i for i, n in enumerate(nodes)}
    searchable = _searchable(doc)
    # Whoosh document number -> node position in the pack.
    docpos = [position[n.id] for n in searchable]
    ws = searcher._searcher()
    reader = ws.reader()
    weighting = searcher._weighting
    doc_count = max(1, searcher._doc_count)

    # The server's BM25F (`search._FastBM25FScorer`) of each posting, its constants computed here
    # as its scorer computes them, without making a Whoosh scorer per term (a third of this pack)
    fast = reader.is_atomic() and isinstance(weighting, _FastBM25F) and not weighting._field_B
    k1, b = weighting.K1, weighting.B

    def field_scores(fname: str, stem: str) -> dict[int, float]:
        out: dict[int, float] = {}
        if not fast or not ws.schema[fname].scorable:
            m = reader.postings(fname, stem, scorer=weighting.scorer(ws, fname, stem))
            while m.is_active():
                out[docpos[m.id()]] = m.score()
                m.next()
            return out
        lengths = weighting._lengths(reader, fname)
        a = ws.idf(fname, stem) * (k1 + 1)
        c = k1 * (1 - b)
        d = k1 * b / (ws.avg_field_length(fname) or 1)
        m = reader.postings(fname, stem)
        while m.is_active():
            n = m.id()
            tf = m.weight()
            out[docpos[n]] = a * tf / (tf + c + d * lengths[n])
            m.next()
        return out

    def common(stem: str, fname: str = "text") -> bool:
        share = FIELD_COMMON_SHARE.get(fname, COMMON_SHARE)
        return reader.doc_frequency(fname, stem) > share * doc_count

    stems: set[str] = set()
    for fname in TEXT_FIELDS:
        stems.update(t.decode("utf-8") if isinstance(t, bytes) else t for t in reader.lexicon(fname))
    post: dict[str, str] = {}
    title_post: dict[str, str] = {}
    terms_post: dict[str, str] = {}
    common_stems: list[str] = []
    asked_card_post: dict[str, str] = {}
    card_stems = {stem for n in doc.nodes for c in n.cards for stem in (t.text for t in ANALYZER(c.name))}
    for stem in sorted(stems):
        total: dict[int, float] = {}
        for fname in TEXT_FIELDS:
            if (fname, stem) not in reader:
                continue
            scores = field_scores(fname, stem)
            counted = fname == "text" or not common(stem, fname)
            for d, s in scores.items():
                total[d] = total.get(d, 0.0) + (s if counted else 0.0)
            if fname == "title":
                title_post[stem] = _encode(list(scores.items()))
            elif fname == "terms":
                terms_post[stem] = _encode(list(scores.items()))
        post[stem] = _encode(list(total.items()))
        if stem in card_stems and ("asked", stem) in reader and (not common(stem, "asked")):
            # what the question bank adds to a card name's word, which a query naming the card
            # does not count (`Searcher._plan`)
            asked_card_post[stem] = _encode(list(field_scores("asked", stem).items()))
        if common(stem):
            common_stems.append(stem)

    # Surface words -> stems, for every word the server could have indexed.
    words: dict[str, str] = {}
    for low in searcher.surface_words():
        stem = _stem(low)
        if stem and stem != low:
            words[low] = stem

    # Cards: the server's clause is Term("cards", token, 6) or Phrase("cards", tokens, 6).
    cards: dict[str, list] = {}
    card_rules: dict[str, set[int]] = {}
    for i, n in enumerate(searchable):
        names = {c.name for c in n.cards}
        for e in (doc.node(x) for x in n.examples):
            if e is not None:
                names |= {c.name for c in e.cards}
        for name in names:
            card_rules.setdefault(name, set()).add(i)
    for name, docnums in sorted(card_rules.items()):
        tokens = [t.text for t in NAME_ANALYZER(name)]
        if not tokens:
            continue
        pairs = []
        per_token = [field_scores("cards", t) if ("cards", t) in reader else {} for t in tokens]
        for d in docnums:
            pos = docpos[d]
            pairs.append((pos, sum(s.get(pos, 0.0) for s in per_token)))
        entry = [name, _encode(pairs)]
        cards[" ".join(name.lower().split())] = entry
        if name.lower().startswith("the ") and len(name) > 7:
            cards.setdefault(" ".join(name[4:].lower().split()), entry)

    jargon = [
        {
            "phrases": list(j.phrases),
            "expansion": [t.text for t in ANALYZER(j.expansion)],
            "rule": j.rule,
        }
        for j in JARGON
    ]
    # Question reading (`rules_index.question`): the same patterns, with JavaScript's "$1".
    question = {
        "framing": [[pattern, repl.replace("\\1", "$1")] for pattern, repl in FRAMING],
        "intents": [list(intent) for intent in INTENTS],
        "asks": ASKS,
        "answering": {name: sorted(position[i] for i in searcher.answering(name)) for name in INTENT_BONUS},
    }
    explain = {
        position[step]: [position[r] for r in rules] for step, rules in sorted(searcher._explainers().items())
    }
    # The learned stage (`rules_index.ranker`): its weights and constants, and the rules that only
    # name something (the rest of its features are read from the pack's own rules and words).
    # The offline copy's model (`ranker.load(pack=True)`) with the small word-vector table and
    # the rules' vectors (`_pack_vectors`); the lite model when there is no table or no such model.
    small = Searcher(searcher.index_path, doc, word_vectors="pack")
    model = ranker.load(pack=True)
    made = small.pack_vectors(model) if model is not None else None
    small.close()
    if made is None:
        model = ranker.load(lite=True)
    learned = (
        {
            "features": list(model.names[: len(ranker.LITE_FEATURES)]),
            "weights": list(model.weights[: len(ranker.LITE_FEATURES)]),
            "depth": ranker.DEPTH,
            # the rules the word vectors add to the pool (`Searcher._vector_pool`); 0 without them
            "vector_pool": ranker.VECTOR_POOL if made is not None else 0,
            "top": ranker.TOP,
            "min_groups": ranker.MIN_GROUPS,
            "floor": ranker.FLOOR,
            "naming": sorted(position[i] for i in searcher._naming_rules()),
            "vectors": _pack_vectors(small.vectors, made) if made is not None else None,
            "translation": _pack_translation(small.translation, model),
        }
        if model is not None
        else None
    )
    kinds = sorted({n.kind for n in nodes})
    kind_code = {k: i for i, k in enumerate(kinds)}
    rules = [
        [
            n.id,
            n.number or "",
            kind_code[n.kind],
            n.title or "",
            position.get(n.parent, -1) if n.parent else -1,
            link_steps(n.html or "", doc, n),  # "continue to (d)" linked, as on rule pages
        ]
        for n in nodes
    ]
    return {
        "format": OFFLINE_FORMAT,
        "version": doc.version,
        "effective_date": doc.effective_date,
        "source_hash": doc.source_hash,
        "kinds": kinds,
        "rules": rules,
        "terms_of": {position[n.id]: [t.lower() for t in n.terms] for n in searchable if n.terms},
        "index": {
            "docs": docpos,
            "stop": sorted(_STOP),
            "words": words,
            "post": post,
            "common": common_stems,
            "title": title_post,
            "terms": terms_post,
            "cards": cards,
            "jargon": jargon,
            "question": question,
            "explain": explain,
            "ranker": learned,
            "asked": _asked(searcher, searchable, position),
            "asked_card_post": asked_card_post,
            "params": {
                "scale": SCALE,
                "rerank": RERANK_DEPTH,
                "priors": PRIORS,
                "phrase_bonus": TEXT_PHRASE_BONUS,
                "bigram_bonus": BIGRAM_BONUS,
                "max_phrase_words": MAX_PHRASE_WORDS,
                "intent_bonus": INTENT_BONUS,
                "step_top": STEP_TOP,
                "step_share": STEP_SHARE,
            },
        },
    }


def write_pack(doc: Document, searcher: Searcher, path: Path) -> int:
    """Write the pack of ``doc`` to ``path`` (compact JSON); returns its size in bytes."""
    data = json.dumps(build_pack(doc, searcher), ensure_ascii=False, separators=(",", ":"))
    raw = data.encode("utf-8")
    Path(path).write_bytes(raw)
    return len(raw)
