"""Cross-version mapping by stable id: one rule's number and text in every given CR version."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from scraper import Document

from .lookup import lookup, number_key

__all__ = ["across_versions", "resolve_id"]


def _version_key(version: str) -> tuple:
    try:
        return tuple(int(p) for p in version.split("."))
    except ValueError:
        return (10**6, version)


def _ordered(docs: Mapping[str, Document] | Iterable[Document]) -> list[Document]:
    items = list(docs.values()) if isinstance(docs, Mapping) else list(docs)
    return sorted(items, key=lambda d: _version_key(d.version))


def resolve_id(doc: Document, ref: str) -> str | None:
    """The stable id a number, id or deep link names in ``doc`` (None if it names nothing)."""
    node = lookup(doc, ref).node
    return node.id if node is not None else None


def across_versions(docs: Mapping[str, Document] | Iterable[Document], node_id: str) -> list[dict]:
    """For a stable id, its number, title and text in every given version (oldest first).

    A version without the id gets ``present: False`` and ``None`` for the rest. Numbers are
    per-version labels: the same id can carry different numbers in different versions.
    """
    out = []
    for doc in _ordered(docs):
        node = doc.node(node_id)
        if node is None:
            out.append(
                {"version": doc.version, "present": False, "number": None, "title": None, "text": None}
            )
        else:
            out.append(
                {
                    "version": doc.version,
                    "present": True,
                    "number": node.number,
                    "title": node.title,
                    "text": node.text,
                }
            )
    return out


def renumbered(old: Document, new: Document) -> list[dict]:
    """Rules present in both versions whose printed number changed, in the new version's order."""
    out = []
    for node in new.nodes:
        before = old.node(node.id)
        if before is not None and node.number and before.number and before.number != node.number:
            out.append({"id": node.id, "old": before.number, "new": node.number})
    out.sort(key=lambda d: number_key(d["new"]))
    return out
