"""One text formatter for everything a user reads: game symbols, counts and server names.

The engine, the CR and NetrunnerDB write symbols as bracketed names (``1[credit]``,
``[click]``, ``[subroutine]``), counts as ``credit(s)`` and servers by their board keys
(``remote1``, ``hq``). Pages show them through this module only:

* ``symbols_html`` (Jinja filter ``sym``): bracketed symbols in escaped HTML become the glyph
  spans rule pages already use (``<span class="sym sym-credit" title="credit">[credit]</span>``:
  the bracketed text stays for copy and search, app.css draws the glyph, e.g. ``¢``);
* ``symbols_plain``: the same glyphs as plain characters, for text fields and titles
  (``symbols_snippet`` for search snippets, whose words may be highlighted);
* ``engine_text``: an engine sentence with display names ("Server 1", "HQ", "R&D") and counts
  that agree with their number ("1 credit", "2 credits"); Jinja filter ``say`` gives it as HTML
  with glyphs, ``say_plain`` as plain text;
* ``plural`` (Jinja global and filter): "1 credit", "2 credits".

The JSON API keeps the engine's own text: only what a page renders goes through here.
"""

from __future__ import annotations

import re
from typing import Any

from markupsafe import Markup, escape

from .board_picture import server_label

# symbol name (the CR's and NetrunnerDB's) -> (glyph class in app.css, plain glyph)
SYMBOLS: dict[str, tuple[str, str]] = {
    "credit": ("credit", "¢"),
    "click": ("click", "↻"),
    "subroutine": ("sub", "↳"),
    "sub": ("sub", "↳"),
    "recurring-credit": ("recurring", "↺¢"),
    "recurring": ("recurring", "↺¢"),
    "mu": ("mu", "MU"),
    "trash": ("trash", "🗑"),
    "trash-cost": ("trash-cost", "🗑¢"),
    "interrupt": ("interrupt", "⚡"),
    "link": ("link", "🔗"),
}
SYMBOL = re.compile(r"\[(" + "|".join(sorted(map(re.escape, SYMBOLS), key=len, reverse=True)) + r")\]")

# board keys of servers as the engine writes them inside sentences
_SERVER_WORD = re.compile(r"\b(remote\d+|hq|rd|archives)\b")
# "credit(s)", "3 credit(s)", "the 2 chosen subroutine(s)", "subroutine(s) 1, 2"
_COUNTED = re.compile(r"(?<![\w.])(\d+)((?: [a-z-]+){0,2}? )([a-z]+)\(s\)")
_LISTED = re.compile(r"\b([a-z]+)\(s\) (\d+(?:, \d+)*(?: and \d+)?)\b")
_ANY_S = re.compile(r"\b([a-z]+)\(s\)")
# "(1 credits)", "1 clicks": a count of one with a plural noun
_ONE_PLURAL = re.compile(
    r"(?<![\w.])1 (credit|click|tag|card|point|counter|subroutine|program|agenda point)s\b"
)

_DOUBLE_STOP = re.compile(r"(?<=\w)\.\.(?=\s|$)")  # "… on Crypsis.." (a label ending in a stop, then one)

_IRREGULAR = {"ice": "ice", "mu": "MU", "bad publicity": "bad publicity"}


def plural(n: Any, word: str, many: str | None = None) -> str:
    """ "1 credit", "2 credits", "0 clicks"; `many` for a plural that is not word + "s"."""
    if word in _IRREGULAR:
        return f"{n} {_IRREGULAR[word]}"
    return f"{n} {word if n == 1 else (many or word + 's')}"


def glyph_html(name: str) -> str:
    """The glyph span of one symbol (its bracketed name stays as the span's text)."""
    cls, _ = SYMBOLS[name]
    return f'<span class="sym sym-{cls}" title="{name}">[{name}]</span>'


def symbols_html(html: Any) -> Markup:
    """Escaped HTML (or plain text, which is escaped first) with bracketed symbols as glyph spans."""
    html = html if isinstance(html, Markup) else escape("" if html is None else html)
    return Markup(SYMBOL.sub(lambda m: glyph_html(m.group(1)), str(html)))


def symbols_plain(text: Any) -> str:
    """Plain text with bracketed symbols as their glyphs: "1[credit]" -> "1¢"."""
    return SYMBOL.sub(lambda m: SYMBOLS[m.group(1)][1], "" if text is None else str(text))


_MARKED_SYMBOL = re.compile(r"\[<mark>(" + SYMBOL.pattern[3:-3] + r")</mark>\]")


def symbols_snippet(html: Any) -> str:
    """A search snippet (escaped text, query words in <mark>) with symbols as their glyphs, a
    highlighted one ("[<mark>credit</mark>]") staying highlighted."""
    html = _MARKED_SYMBOL.sub(
        lambda m: f"<mark>{SYMBOLS[m.group(1)][1]}</mark>", "" if html is None else str(html)
    )
    return symbols_plain(html)


def _counted(m: re.Match) -> str:
    n, between, word = m.group(1), m.group(2), m.group(3)
    return f"{n}{between}{word if n == '1' else word + 's'}"


def _listed(m: re.Match) -> str:
    word, items = m.group(1), m.group(2)
    many = "," in items or " and " in items
    return f"{word + 's' if many else word} {items}"


def engine_text(text: Any) -> str:
    """An engine sentence as a user reads it: display names and agreeing counts (symbols are
    left bracketed, for `symbols_html` or `symbols_plain`)."""
    s = "" if text is None else str(text)
    s = _SERVER_WORD.sub(lambda m: server_label(m.group(1)), s)
    s = _COUNTED.sub(_counted, s)
    s = _LISTED.sub(_listed, s)
    s = _ANY_S.sub(lambda m: m.group(1) + "s", s)
    s = _ONE_PLURAL.sub(lambda m: "1 " + m.group(1), s)
    return _DOUBLE_STOP.sub(".", s)


def say(text: Any) -> Markup:
    """An engine sentence as HTML: display names, counts and symbol glyphs."""
    return symbols_html(engine_text(text))


def say_plain(text: Any) -> str:
    """An engine sentence as plain text (a text field, a summary to paste)."""
    return symbols_plain(engine_text(text))


def install(app: Any) -> None:
    """The Jinja filters and globals every template uses."""
    app.jinja_env.filters.update(sym=symbols_html, sym_plain=symbols_plain, say=say, say_plain=say_plain)
    app.jinja_env.filters["plural"] = lambda n, word, many=None: plural(n, word, many)
    app.jinja_env.globals["plural"] = plural
