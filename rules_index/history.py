"""Every rule's history across CR versions, and what changed between any two versions.

* `history(docs, id)`: the versions a stable id exists in, its number in each (renumbering),
  and a word-level diff of its text between consecutive versions where it differs.
* `changes(old, new)`: rules added, removed, renumbered and reworded, grouped by the newer
  version's sections, with diffs; beside it the newer version's official Summary of Changes,
  each entry linked to the rules it names and marked when the diff found them changed; and
  the differences no summary entry covers.
* `build_history(docs, path)`: the changes between consecutive versions, computed once per
  build (keyed by the versions' source hashes) and stored as JSON; `HistoryStore` reads it
  (on the first changes asked for) and computes any other pair on demand, in about 30 ms:
  each document's rule texts are derived once, and word diffs are cached by their two texts
  (the same rewording recurs in every pair of versions spanning it). Storing all 15 pairs
  was measured instead: +1 s of build and a 1.8 MB file to read on the first changes page.

Examples are folded into their rule: a changed example makes its rule "reworded".
"""

from __future__ import annotations

import difflib
import hashlib
import html as html_lib
import json
import re
import threading
from collections.abc import Iterable, Mapping
from pathlib import Path

from memo import memo
from scraper import Document, Node
from scraper.source import atomic_write

from .lookup import number_key
from .mapping import _ordered, _version_key, across_versions

__all__ = [
    "HistoryStore",
    "build_history",
    "changes",
    "diff_html",
    "history",
    "word_diff",
]

FORMAT = 1
# A word (or a punctuation mark) with the spaces after it: the diff's unit.
_TOKENS = re.compile(r"[\w\[\]]+(?:['’]\w+)*\s*|[^\w\s]\s*|\s+")
_SECTIONISH = ("chapter", "section")
_NUMBERS = re.compile(r"(?:\s*(?:\d+(?:\.\d+)*[a-z]?|[.,;:()]))*\s*")
HISTORY_FILE = ".history.json"


# ----------------------------------------------------------------------------------------------
# Word diffs
# ----------------------------------------------------------------------------------------------


def word_diff(old: str, new: str) -> list[list[str]]:
    """``[op, text]`` runs, op one of "=", "-", "+": words and the spaces between them."""
    a = _TOKENS.findall(old or "")
    b = _TOKENS.findall(new or "")
    ka = [t.strip() or " " for t in a]  # compared without the spaces after each word
    kb = [t.strip() or " " for t in b]
    out: list[list[str]] = []

    def add(op: str, parts: list[str]) -> None:
        text = "".join(parts)
        if not text:
            return
        if out and out[-1][0] == op:
            out[-1][1] += text
        else:
            out.append([op, text])

    # the common start and end are cheap to find and are most of a reworded rule
    head = 0
    while head < min(len(a), len(b)) and ka[head] == kb[head]:
        head += 1
    tail = 0
    while tail < min(len(a), len(b)) - head and ka[-1 - tail] == kb[-1 - tail]:
        tail += 1
    add("=", b[:head])
    mid_a, mid_b = a[head : len(a) - tail], b[head : len(b) - tail]
    sm = difflib.SequenceMatcher(None, ka[head : len(a) - tail], kb[head : len(b) - tail], autojunk=False)
    for tag, i1, i2, j1, j2 in sm.get_opcodes():
        if tag == "equal":
            add("=", mid_b[j1:j2])
        else:
            add("-", mid_a[i1:i2])
            add("+", mid_b[j1:j2])
    add("=", b[len(b) - tail :])
    return out


@memo("history.word_diffs")
def _cached_diff(old: str, new: str) -> tuple[tuple[str, str], ...]:
    return tuple((op, text) for op, text in word_diff(old, new))


def _diff(old: str, new: str) -> list[list[str]]:
    """`word_diff`, through a bounded cache: the same change of a rule's text recurs in every
    pair of versions spanning it (22.12..26.03, 23.08..26.03, ... all hold 24.03's rewording)."""
    return [[op, text] for op, text in _cached_diff(old, new)]


def diff_html(ops: Iterable[list[str]]) -> str:
    """Safe HTML of a word diff: removed words in <del>, added words in <ins>."""
    out = []
    for op, text in ops:
        esc = html_lib.escape(text, quote=False)
        out.append(
            esc if op == "=" else f"<{'del' if op == '-' else 'ins'}>{esc}</{'del' if op == '-' else 'ins'}>"
        )
    return "".join(out)


def _full_text(doc: Document, node: Node) -> str:
    """A rule's text with its examples (examples are part of what a rule says)."""
    parts = [node.text]
    for ex_id in node.examples:
        ex = doc.node(ex_id)
        if ex is not None and ex.text:
            parts.append(ex.text)
    return "\n\n".join(p for p in parts if p)


# ----------------------------------------------------------------------------------------------
# One rule's history
# ----------------------------------------------------------------------------------------------


def history(docs: Mapping[str, Document] | Iterable[Document], node_id: str) -> dict | None:
    """A stable id's versions, numbers and diffs between consecutive versions it exists in.

    None if no version has the id."""
    ordered = _ordered(docs)
    versions = across_versions(ordered, node_id)
    if not any(v["present"] for v in versions):
        return None
    steps = []
    prev: tuple[Document, Node] | None = None
    for doc in ordered:
        node = doc.node(node_id)
        if node is None:
            continue
        if prev is not None:
            steps.append(_step(prev[0], prev[1], doc, node))
        prev = (doc, node)
    present = [v["version"] for v in versions if v["present"]]
    return {
        "id": node_id,
        "versions": versions,
        "present_in": present,
        "first": present[0],
        "last": present[-1],
        "changes": steps,
    }


def _full_texts(doc: Document) -> dict[str, str]:
    """Every rule's `_full_text`, computed once per document (owned by it)."""
    return doc.derived("history.full_text", lambda d: {n.id: _full_text(d, n) for n in d.nodes})


def _step(old_doc: Document, old: Node, new_doc: Document, new: Node) -> dict:
    a, b = _full_texts(old_doc)[old.id], _full_texts(new_doc)[new.id]
    text_changed = a != b
    title_changed = (old.title or "") != (new.title or "")
    entry = {
        "from": old_doc.version,
        "to": new_doc.version,
        "old_number": old.number,
        "new_number": new.number,
        "renumbered": old.number != new.number,
        "reworded": text_changed or title_changed,
        "diff": _diff(a, b) if text_changed else [],
    }
    if title_changed:
        entry["title_diff"] = _diff(old.title or "", new.title or "")
    return entry


def pair_diff(old_doc: Document, new_doc: Document, node_id: str) -> dict | None:
    """The change of one id between any two versions (None if either lacks it)."""
    old, new = old_doc.node(node_id), new_doc.node(node_id)
    if old is None or new is None:
        return None
    return _step(old_doc, old, new_doc, new)


# ----------------------------------------------------------------------------------------------
# What changed between two versions
# ----------------------------------------------------------------------------------------------


def _section_of(doc: Document, node: Node) -> Node | None:
    """The innermost section (or chapter) holding a node."""
    for a in reversed(doc.ancestors(node.id)):
        if a.kind in _SECTIONISH:
            return a
    return node if node.kind in _SECTIONISH else None


def _entry(node: Node) -> dict:
    return {"id": node.id, "number": node.number, "title": node.title, "kind": node.kind}


def changes(old: Document, new: Document) -> dict:
    """Rules added, removed, renumbered and reworded from ``old`` to ``new``, grouped by
    section, beside ``new``'s Summary of Changes with each entry's rules marked as changed
    (or not) by the diff, and the differences no summary entry covers."""
    rows: dict[str, dict] = {}  # id -> row
    for node in new.nodes:
        if node.kind == "example":
            continue
        before = old.node(node.id)
        if before is None:
            rows[node.id] = {**_entry(node), "change": ["added"], "text": node.text}
            continue
        step = _step(old, before, new, node)
        kinds = []
        if step["renumbered"]:
            kinds.append("renumbered")
        if step["reworded"]:
            kinds.append("reworded")
        if kinds:
            row = {**_entry(node), "change": kinds, "old_number": before.number}
            if step["reworded"]:
                row["diff"] = step["diff"]
                # only numbers changed ("see 6.9.1e" -> "see 6.9.1f"): a consequence of renumbering
                row["numbers_only"] = (
                    bool(step["diff"])
                    and "title_diff" not in step
                    and all(op == "=" or _NUMBERS.fullmatch(text) for op, text in step["diff"])
                )
                if "title_diff" in step:
                    row["title_diff"] = step["title_diff"]
            rows[node.id] = row
    removed = [n for n in old.nodes if n.kind != "example" and new.node(n.id) is None]
    for node in removed:
        rows[node.id] = {
            **_entry(node),
            "change": ["removed"],
            "old_number": node.number,
            "number": None,
            "text": node.text,
        }

    # grouped by section (the newer version's, the older one's for removed rules)
    groups: dict[str, dict] = {}
    for node_id, row in rows.items():
        doc = new if new.node(node_id) is not None else old
        sec = _section_of(doc, doc.node(node_id))
        key = sec.id if sec else "_"
        group = groups.get(key)
        if group is None:
            group = groups[key] = {
                "id": sec.id if sec else None,
                "number": sec.number if sec else None,
                "title": sec.title if sec else None,
                "rules": [],
            }
        group["rules"].append(row)
    for group in groups.values():
        group["rules"].sort(key=lambda r: number_key(r["number"] or r.get("old_number") or "0"))
    sections = sorted(groups.values(), key=lambda g: number_key(g["number"] or "0"))

    counts = {
        k: sum(1 for r in rows.values() if k in r["change"])
        for k in ("added", "removed", "renumbered", "reworded")
    }
    substantive = {i for i, r in rows.items() if r["change"] != ["renumbered"]}

    # section/rule id -> the substantive changes beneath it, and each change's ancestors:
    # computed once (per summary target it was a walk over every change's ancestry)
    ancestry: dict[str, set[str]] = {}
    beneath: dict[str, list[str]] = {}
    for node_id in substantive:
        doc = new if new.node(node_id) is not None else old
        ancestry[node_id] = {a.id for a in doc.ancestors(node_id)}
        for a in ancestry[node_id]:
            beneath.setdefault(a, []).append(node_id)

    summary = []
    covered: set[str] = set()
    confirmed = 0
    for ch in new.changes:
        targets = []
        hit = False
        for t in ch.targets:
            node = new.node(t) or old.node(t)
            changed_here = t in substantive
            within = sorted(beneath.get(t, ()))
            covered.add(t)
            covered.update(within)
            hit = hit or changed_here or bool(within)
            targets.append(
                {
                    "id": t,
                    "number": node.number if node is not None and new.node(t) is not None else None,
                    "old_number": old.node(t).number if old.node(t) is not None else None,
                    "title": node.title if node is not None else None,
                    "exists": node is not None,
                    "changed": rows[t]["change"] if t in rows else [],
                    "changed_within": within[:50],
                }
            )
        confirmed += hit
        summary.append({"text": ch.text, "html": ch.html, "targets": targets, "confirmed": hit})
    unmentioned = [
        {k: rows[i][k] for k in ("id", "number", "title", "kind", "change")}
        | {"old_number": rows[i].get("old_number"), "numbers_only": rows[i].get("numbers_only", False)}
        for i in rows
        if i in substantive and i not in covered and not (ancestry[i] & covered)
    ]
    unmentioned.sort(key=lambda r: number_key(r["number"] or r["old_number"] or "0"))
    return {
        "from": old.version,
        "to": new.version,
        "counts": counts,
        "sections": sections,
        "summary": summary,
        "summary_stats": {
            "entries": len(summary),
            "with_rules": sum(1 for s in summary if s["targets"]),
            "confirmed": confirmed,
            "unmentioned": len(unmentioned),
            "unmentioned_numbers_only": sum(1 for u in unmentioned if u["numbers_only"]),
        },
        "unmentioned": unmentioned,
    }


# ----------------------------------------------------------------------------------------------
# Stored with the build
# ----------------------------------------------------------------------------------------------


def _key(versions: Iterable[tuple[str, str]]) -> str:
    """Key of a stored history: the (version, source hash) pairs, oldest first, and this code."""
    h = hashlib.sha256(f"{FORMAT}".encode())
    h.update(Path(__file__).read_bytes())
    for version, source_hash in versions:
        h.update(f"{version}:{source_hash}".encode())
    return h.hexdigest()[:16]


def _stored_key(path: Path) -> str | None:
    try:
        with open(path, encoding="utf-8") as fh:
            head = fh.read(200)
        m = re.search(r'"key":"([0-9a-f]+)"', head)
        return m.group(1) if m else None
    except OSError:
        return None


def build_history(docs: Mapping[str, Document] | Iterable[Document], path: Path) -> bool:
    """Write the changes between consecutive versions to ``path`` (atomically). False when
    the file there is already current (same versions, same sources, same code)."""
    ordered = _ordered(docs)
    key = _key((d.version, d.source_hash) for d in ordered)
    if _stored_key(Path(path)) == key:
        return False
    pairs = {f"{a.version}..{b.version}": changes(a, b) for a, b in zip(ordered, ordered[1:], strict=False)}
    data = {"format": FORMAT, "key": key, "versions": [d.version for d in ordered], "pairs": pairs}
    atomic_write(Path(path), json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode())
    return True


def refresh(build_dir: Path, loaded: Iterable[Document] = ()) -> bool:
    """Bring the stored history of a build directory up to date with its CR versions.

    ``loaded``: documents already in memory (those a build just wrote), so that only the
    other versions are read from disk."""
    from .store import Library, LibraryError

    try:
        lib = Library.open(build_dir)
    except LibraryError:
        return False
    path = Path(build_dir) / HISTORY_FILE
    key = _key(
        (v.version, v.source_hash) for v in sorted(lib.versions(), key=lambda v: _version_key(v.version))
    )
    if _stored_key(path) == key:
        return False
    docs = {d.version: d for d in loaded}
    for v in lib.versions():
        if docs.get(v.version) is None or docs[v.version].source_hash != v.source_hash:
            docs[v.version] = lib.document(v.version)
    return build_history({v.version: docs[v.version] for v in lib.versions()}, path)


class HistoryStore:
    """Changes between versions: the stored pairs, any pair missing from them computed once."""

    def __init__(self, docs: Mapping[str, Document], path: Path | None = None) -> None:
        self.docs = dict(docs)
        self._pairs: dict[str, dict] = {}
        self._lock = threading.Lock()
        self._path = path  # read on the first `changes` (a rule's history never needs it)

    def _load(self) -> None:
        with self._lock:
            if self._path is None:
                return
            try:
                data = json.loads(Path(self._path).read_text(encoding="utf-8"))
                if data.get("key") == _key((d.version, d.source_hash) for d in _ordered(self.docs)):
                    self._pairs.update(data["pairs"])
            except (OSError, ValueError, KeyError):
                pass
            self._path = None

    def changes(self, old: str, new: str) -> dict:
        if self._path is not None:
            self._load()
        key = f"{old}..{new}"
        found = self._pairs.get(key)
        if found is None:
            found = changes(self.docs[old], self.docs[new])
            with self._lock:
                if len(self._pairs) > 64:
                    self._pairs.clear()
                self._pairs[key] = found
        return found

    def history(self, node_id: str) -> dict | None:
        return history(self.docs, node_id)
