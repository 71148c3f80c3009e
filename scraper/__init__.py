"""CR HTML -> structured rules. Knows HTML and nothing else (no Whoosh, networkx or Flask).

The model (`Document`, `Node`, ...) and the errors import nothing heavy; the parser and the
verifier (which need lxml) load on first use, so the engine, which depends on the model only,
never imports lxml (issue 10's design rule; tests/test_layering.py checks it).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .errors import ScrapeError
from .model import CardMention, ChangeEntry, Document, Node, Reference

if TYPE_CHECKING:
    from .parse import parse_html
    from .verify import verify

__all__ = [
    "CardMention",
    "ChangeEntry",
    "Document",
    "Node",
    "Reference",
    "ScrapeError",
    "parse_html",
    "verify",
]


def __getattr__(name: str) -> Any:
    if name == "parse_html":
        from .parse import parse_html as value
    elif name == "verify":
        from .verify import verify as value  # importing the submodule binds it as `verify`
    else:
        raise AttributeError(f"module 'scraper' has no attribute {name!r}")
    globals()[name] = value  # so the function, not the submodule, is what the name means
    return value
