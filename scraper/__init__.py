"""CR HTML -> structured rules. Knows HTML and nothing else (no Whoosh, networkx or Flask)."""

from .errors import ScrapeError
from .model import CardMention, ChangeEntry, Document, Node, Reference
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
