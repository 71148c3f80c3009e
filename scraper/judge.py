"""A judges' reference exported from a word processor -> sections and items with stable ids.

Word-processor HTML is class soup: Google Docs writes ``<p class="c5"><span class="c17 c12">``
for a heading, splits one list into many ``<ol class="lst-kix_<list>-<level>" start=N>`` and
never writes an id; LibreOffice writes real ``<h1>``..``<h6>`` and nested lists. BeautifulSoup
(lxml parser) reads both tolerantly. What comes out:

* sections, one per heading, nested by heading level. Google Docs headings that are styled
  paragraphs are found by their shape (one short line, one style, no closing punctuation) and
  ranked by which style is seen directly above which;
* items inside a section: a top-level list entry with all its sub-entries, a paragraph, or a
  question with its answer (FAQ);
* stable ids from the heading path and the item's own first words (``penalties.warning``,
  ``repairing-board-states.take-backs.if-the-player-requesting-a-take``), never from classes
  or positions, so a re-export of the same text keeps every id;
* plain text, safe HTML (escaped text, a few inline tags, lists rebuilt), the CR version the
  document names ("NSG CR v23.08"), the CR rules and sections it cites ("Section 6.9") and
  other documents it cites ("NSG OPP, Section 5"), and the cards it names (from a list of
  card names given by the caller: the document links none).

Knows HTML and nothing else: no Whoosh, networkx or Flask.
"""

from __future__ import annotations

import hashlib
import html as html_lib
import json
import re
import unicodedata
from collections import Counter
from collections.abc import Iterable
from dataclasses import asdict, dataclass, field
from typing import TYPE_CHECKING, Any

from .errors import ScrapeError

# The parser (BeautifulSoup, lxml, the CR parser's helpers) is imported by the functions that
# parse, so that reading a built judges' document (its dataclasses) loads neither.
if TYPE_CHECKING:
    from bs4 import BeautifulSoup, Tag

__all__ = [
    "JudgeDocument",
    "JudgeItem",
    "JudgeLine",
    "JudgeRef",
    "JudgeSection",
    "parse_judge",
]

_WS = re.compile(r"\s+")
_BR = "\x00"  # a <br> in the plain text until lines are split
_INLINE_KEEP = {"b", "strong", "i", "em", "u", "sup", "sub"}
_BLOCKS = {"p", "h1", "h2", "h3", "h4", "h5", "h6", "ol", "ul", "li", "table", "div", "hr", "blockquote"}
_KIX = re.compile(r"^lst-kix_([0-9a-z]+)-(\d+)$")
# "NSG CR v23.08, Section 6.9" / "CR 6.9.4c" / "rule 1.2" / "NSG OPP, Section 5"
_CITE = re.compile(
    r"(?:(?P<org>NSG)\s+)?(?:(?P<doc>CR|OPP|[A-Z]{2,5})\b\s*(?:v(?P<ver>\d{2}\.\d{2}))?\s*,?\s*)?"
    r"\b(?P<kind>[Ss]ections?|[Rr]ules?|[Ss]teps?)\s+(?P<num>\d{1,2}(?:\.\d{1,3}){0,2}[a-z]?)(?![\w.]\w)"
)
_CR_VERSION = re.compile(r"\b(?:NSG\s+)?CR\s*v?(\d{2}\.\d{2})\b")
_PAREN_CITE = re.compile(r"\s*\((?:[^()]*\b(?:NSG|CR|OPP|[Ss]ection|[Rr]ule)\b[^()]*)\)\s*")
_OTHER_PROCESSORS = (
    ("microsoft word", "Microsoft Word"),
    ("mso", "Microsoft Word"),
    ("cocoa html writer", "Apple Pages/TextEdit"),
    ("pages", "Apple Pages"),
    ("abiword", "AbiWord"),
    ("wps", "WPS Office"),
    ("onlyoffice", "ONLYOFFICE"),
    ("zoho", "Zoho Writer"),
    ("calligra", "Calligra Words"),
)
SUPPORTED = ("google-docs", "libreoffice", "html")


# ----------------------------------------------------------------------------------------------
# Records
# ----------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class JudgeRef:
    """A citation in the judges' document: a CR rule or section, or another document's section."""

    text: str  # as printed: "NSG CR v23.08, Section 6.9", "Section 6.9", "NSG OPP, Section 5"
    document: str  # "CR" or the other document's short name ("OPP")
    number: str  # "6.9", "5"
    version: str | None = None  # the CR version the citation names, if any
    inherited: bool = False  # cited by the enclosing section's heading, not the item itself


@dataclass
class JudgeLine:
    """One entry of a list inside an item (a timing-structure line, a sub-bullet)."""

    label: str | None  # "2.b", "1.d.i" for numbered lists; None for bullets
    depth: int  # 0 for the item's own entry
    text: str
    html: str


@dataclass
class JudgeSection:
    id: str  # heading path: "repairing-board-states.take-backs"
    title: str  # heading without its citation: "Repairing Board States"
    heading: str  # heading as printed: "Repairing Board States (NSG OPP, Section 5)"
    level: int  # 1 outermost
    parent: str | None
    order: int  # position among the parent's sections
    refs: list[JudgeRef] = field(default_factory=list)
    cr_version: str | None = None  # "23.08" when the heading names a CR version


@dataclass
class JudgeItem:
    id: str  # "<section id>.<slug of its first words>"
    section: str
    kind: str  # "list" (a list entry and its sub-entries), "paragraph" or "faq"
    order: int  # position in its section
    title: str  # the question (faq), the entry's label ("Warning") or its first words
    text: str  # plain text of the whole item (question and answer for faq)
    html: str  # safe HTML of the item's body (answer for faq)
    lines: list[JudgeLine] = field(default_factory=list)
    refs: list[JudgeRef] = field(default_factory=list)
    cards: list[str] = field(default_factory=list)  # card names, as the caller's list spells them
    question: str | None = None
    answer: str | None = None


@dataclass
class JudgeDocument:
    title: str
    source: str
    source_hash: str
    generator: str  # "google-docs", "libreoffice" or "html"
    cr_version: str | None  # the CR version the document names first
    sections: list[JudgeSection] = field(default_factory=list)
    items: list[JudgeItem] = field(default_factory=list)

    def section(self, section_id: str) -> JudgeSection | None:
        return next((s for s in self.sections if s.id == section_id), None)

    def item(self, item_id: str) -> JudgeItem | None:
        return next((i for i in self.items if i.id == item_id), None)

    def items_in(self, section_id: str) -> list[JudgeItem]:
        return [i for i in self.items if i.section == section_id]

    def section_path(self, section_id: str) -> list[JudgeSection]:
        """The section and its enclosing sections, outermost first."""
        out: list[JudgeSection] = []
        s = self.section(section_id)
        while s is not None:
            out.append(s)
            s = self.section(s.parent) if s.parent else None
        out.reverse()
        return out

    def to_dict(self) -> dict[str, Any]:
        return {"format": 1, **asdict(self)}

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), ensure_ascii=False)

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> JudgeDocument:
        def refs(raw: list[dict]) -> list[JudgeRef]:
            return [JudgeRef(**r) for r in raw]

        sections = [JudgeSection(**{**s, "refs": refs(s.get("refs", []))}) for s in d["sections"]]
        items = [
            JudgeItem(
                **{
                    **i,
                    "refs": refs(i.get("refs", [])),
                    "lines": [JudgeLine(**ln) for ln in i.get("lines", [])],
                }
            )
            for i in d["items"]
        ]
        return cls(
            title=d["title"],
            source=d["source"],
            source_hash=d["source_hash"],
            generator=d["generator"],
            cr_version=d.get("cr_version"),
            sections=sections,
            items=items,
        )

    @classmethod
    def from_json(cls, text: str) -> JudgeDocument:
        return cls.from_dict(json.loads(text))


# ----------------------------------------------------------------------------------------------
# Inline content
# ----------------------------------------------------------------------------------------------


@dataclass
class _Run:
    """Inline content: text and safe HTML pieces, with the style signature of its text."""

    text: list[str] = field(default_factory=list)
    html: list[str] = field(default_factory=list)
    styles: Counter = field(default_factory=Counter)  # frozenset of classes -> characters
    bold: int = 0  # characters inside <b>/<strong>

    def plain(self) -> str:
        return _clean("".join(self.text))

    def safe(self) -> str:
        return _WS.sub(" ", "".join(self.html)).strip()


def _clean(text: str) -> str:
    return _WS.sub(" ", text.replace("\xa0", " ").replace(_BR, " ")).strip()


def _classes(el: Tag) -> frozenset[str]:
    c = el.get("class")
    if isinstance(c, str):
        return frozenset(c.split())
    return frozenset(c or ())


def _inline(el: Tag, run: _Run, style: frozenset[str] = frozenset(), bold: bool = False) -> None:
    """Text and safe HTML of an element's inline content (nested lists are left out)."""
    from bs4 import Comment, NavigableString, Tag

    for child in el.children:
        if isinstance(child, Comment):
            continue
        if isinstance(child, NavigableString):
            s = _WS.sub(" ", str(child))
            if not s:
                continue
            run.text.append(s)
            run.html.append(html_lib.escape(s.replace("\xa0", " "), quote=False))
            n = len(s.strip())
            if n:
                run.styles[style] += n
                if bold:
                    run.bold += n
            continue
        if not isinstance(child, Tag):
            continue
        tag = child.name
        if tag in ("ol", "ul", "script", "style", "hr", "table"):
            continue
        if tag == "br":
            run.text.append(_BR)
            run.html.append("<br>")
            continue
        inner_style = style | _classes(child) if tag == "span" else style
        inner_bold = bold or tag in ("b", "strong") or "font-weight:700" in (child.get("style") or "")
        if tag == "a":
            href = (child.get("href") or "").strip()
            sub = _Run(styles=run.styles)
            _inline(child, sub, inner_style, inner_bold)
            run.text.extend(sub.text)
            run.bold += sub.bold
            if href.startswith(("http://", "https://")):
                run.html.append(
                    f'<a href="{html_lib.escape(href)}" rel="noopener nofollow">{"".join(sub.html)}</a>'
                )
            else:
                run.html.extend(sub.html)
            continue
        sub = _Run(styles=run.styles)
        _inline(child, sub, inner_style, inner_bold)
        run.text.extend(sub.text)
        run.bold += sub.bold
        body = "".join(sub.html)
        if tag in _INLINE_KEEP and body.strip():
            run.html.append(f"<{tag}>{body}</{tag}>")
        else:
            run.html.append(body)


def _split_lines(run: _Run) -> list[tuple[str, str]]:
    """A paragraph's lines at its <br>s, as (text, html); a blank line is ("", "")."""
    text_lines = "".join(run.text).split(_BR)
    html_lines = "".join(run.html).split("<br>")
    if len(text_lines) != len(html_lines):  # a "<br>" typed as text: keep the paragraph whole
        return [(run.plain(), run.safe())]
    return [(_clean(t), _WS.sub(" ", h).strip()) for t, h in zip(text_lines, html_lines, strict=True)]


# ----------------------------------------------------------------------------------------------
# Blocks: the document flattened in reading order
# ----------------------------------------------------------------------------------------------


@dataclass
class _Block:
    kind: str  # "heading" | "para" | "entry" | "break"
    text: str = ""
    html: str = ""
    level: int = 0  # heading level (tags) or list depth (entries)
    style: frozenset[str] | None = None  # one style for the whole paragraph, if it has one
    bold: bool = False  # the whole paragraph is bold (<b>/<strong>)
    label: str | None = None  # list entries: the number as the reader sees it
    list_key: str | None = None
    lines: list[tuple[str, str]] = field(default_factory=list)  # paragraphs: lines at <br>s


class _Flattener:
    def __init__(self) -> None:
        self.blocks: list[_Block] = []
        self.counters: dict[tuple[str, int], int] = {}
        self.labels: dict[tuple[str, int], str] = {}
        self.plain_lists = 0

    def walk(self, el: Tag) -> None:
        from bs4 import Comment, NavigableString, Tag

        for child in el.children:
            if not isinstance(child, Tag):
                if isinstance(child, NavigableString) and not isinstance(child, Comment) and child.strip():
                    self.blocks.append(
                        _Block("para", text=_clean(str(child)), html=html_lib.escape(_clean(str(child))))
                    )
                continue
            tag = child.name
            if tag in ("script", "style", "head", "title", "meta", "link"):
                continue
            if tag in ("h1", "h2", "h3", "h4", "h5", "h6"):
                run = _Run()
                _inline(child, run)
                if run.plain():
                    self.blocks.append(
                        _Block("heading", text=run.plain(), html=run.safe(), level=int(tag[1]))
                    )
            elif tag == "p":
                self.para(child)
            elif tag in ("ol", "ul"):
                self.list(child, depth=0, key=None, parent_label=None)
            elif tag == "hr":
                self.blocks.append(_Block("break"))
            elif tag in (
                "table",
                "tbody",
                "thead",
                "tr",
                "td",
                "th",
                "div",
                "body",
                "html",
                "section",
                "article",
                "main",
                "blockquote",
                "center",
                "font",
            ):
                self.walk(child)
            elif tag in ("span", "b", "strong", "i", "em", "a", "u"):
                run = _Run()
                _inline(child, run)
                if run.plain():
                    self.blocks.append(
                        _Block("para", text=run.plain(), html=run.safe(), lines=_split_lines(run))
                    )
            else:
                self.walk(child)

    def para(self, el: Tag) -> None:
        run = _Run()
        _inline(el, run)
        text = run.plain()
        if not text:
            self.blocks.append(_Block("break"))
        else:
            total = sum(run.styles.values())
            style = next(iter(run.styles)) if len(run.styles) == 1 else None
            self.blocks.append(
                _Block(
                    "para",
                    text=text,
                    html=run.safe(),
                    style=style,
                    bold=total > 0 and run.bold >= total,
                    lines=_split_lines(run),
                )
            )
        # lists or paragraphs inside a paragraph (LibreOffice does this) follow it
        for sub in el.find_all(["ol", "ul"], recursive=False):
            self.list(sub, depth=0, key=None, parent_label=None)

    def list(self, el: Tag, depth: int, key: str | None, parent_label: str | None) -> None:
        kix = next((m for c in _classes(el) if (m := _KIX.match(c))), None)
        if kix:
            key, depth = kix.group(1), int(kix.group(2))
            parent_label = self.labels.get((key, depth - 1)) if depth else None
            # a shallower entry restarts the deeper levels
            for k in [k for k in self.counters if k[0] == key and k[1] > depth]:
                del self.counters[k]
        elif key is None:
            self.plain_lists += 1
            key = f"list{self.plain_lists}"
        numbered = el.name == "ol"
        start = el.get("start")
        try:
            first = int(start) if start is not None else None
        except ValueError:
            first = None
        if first is not None:
            self.counters[(key, depth)] = first - 1
        elif not kix:
            self.counters[(key, depth)] = 0
        for li in el.find_all("li", recursive=False):
            label = None
            if numbered:
                n = self.counters.get((key, depth), 0) + 1
                self.counters[(key, depth)] = n
                own = _counter(n, el.get("type"), depth)
                label = f"{parent_label}.{own}" if parent_label else own
                self.labels[(key, depth)] = label
                for k in [k for k in self.counters if k[0] == key and k[1] > depth]:
                    del self.counters[k]
            run = _Run()
            _inline(li, run)
            # LibreOffice wraps entry text in <p>: read it as the entry's own text
            if not run.plain():
                for p in li.find_all("p", recursive=False):
                    _inline(p, run)
            if run.plain():
                self.blocks.append(
                    _Block("entry", text=run.plain(), html=run.safe(), level=depth, label=label, list_key=key)
                )
            for sub in li.find_all(["ol", "ul"]):
                if sub.find_parent("li") is li:
                    self.list(sub, depth + 1, key if not _is_kix(sub) else None, label)
            if not kix:
                self.labels[(key, depth)] = label or ""


def _counter(n: int, kind: str | None, depth: int) -> str:
    """The number a reader sees: the list's own type ("1", "a", "A", "i", "I"), else the
    word processors' default for the depth (1. a. i.)."""
    if kind not in ("1", "a", "A", "i", "I"):
        kind = "1ai"[depth % 3]
    if kind == "1":
        return str(n)
    from .parse import _letters, _roman

    out = _letters(n - 1) if kind.lower() == "a" else _roman(n - 1)
    return out.upper() if kind.isupper() else out


def _is_kix(el: Tag) -> bool:
    return any(_KIX.match(c) for c in _classes(el))


# ----------------------------------------------------------------------------------------------
# Headings
# ----------------------------------------------------------------------------------------------


def _looks_like_heading(b: _Block) -> bool:
    """One short line in one style (or all bold), no closing punctuation."""
    if b.kind != "para" or len(b.lines) != 1:
        return False
    t = b.text
    if not (0 < len(t) <= 80) or re.search(r"[.?!:;,]$", t) or not re.search(r"[A-Za-z]", t):
        return False
    if t[0].islower() or len(t.split()) > 12:
        return False
    return b.bold or (b.style is not None and bool(b.style))


def _style_key(b: _Block) -> set[str]:
    return {"<b>"} if b.bold else set(b.style or ())


def _rank_headings(blocks: list[_Block]) -> None:
    """Turn styled paragraphs that are headings into heading blocks with levels.

    Styles are grouped (two styles sharing a class are one heading style); a style seen
    directly above another's heading is the outer one; the outermost rank with the outermost
    heading tag of the document."""
    body_style = Counter()
    for b in blocks:
        if b.kind == "para" and b.style is not None:
            body_style[b.style] += len(b.text)
    common = body_style.most_common(1)[0][0] if body_style else None
    cands = [i for i, b in enumerate(blocks) if _looks_like_heading(b) and (b.bold or b.style != common)]
    if not cands:
        return
    # group heading styles that share a class
    groups: list[set[str]] = []

    def group_of(b: _Block) -> int:
        key = _style_key(b)
        for gi, g in enumerate(groups):
            if g & key:
                g |= key
                return gi
        groups.append(set(key))
        return len(groups) - 1

    for i in cands:
        group_of(blocks[i])
    # groups may have merged after first use: look each style up again
    gid = {i: next(gi for gi, g in enumerate(groups) if _style_key(blocks[i]) <= g) for i in cands}
    # "X directly above Y" (only breaks between): Y is inside X
    children: dict[int, set[int]] = {}
    cset = set(cands)
    for i in cands:
        j = i + 1
        while j < len(blocks) and blocks[j].kind == "break":
            j += 1
        if j in cset and gid[j] != gid[i]:
            children.setdefault(gid[i], set()).add(gid[j])
    depth: dict[int, int] = {}

    def level(g: int, seen: frozenset[int]) -> int:
        if g in depth:
            return depth[g]
        parents = [p for p, kids in children.items() if g in kids and p not in seen]
        lv = 1 + max((level(p, seen | {g}) for p in parents), default=0)
        depth[g] = lv
        return lv

    top_tag = min((b.level for b in blocks if b.kind == "heading"), default=1)
    for i in cands:
        b = blocks[i]
        b.kind = "heading"
        b.level = top_tag + level(gid[i], frozenset()) - 1


# ----------------------------------------------------------------------------------------------
# Ids, citations, cards
# ----------------------------------------------------------------------------------------------


def slug(text: str, words: int = 6, limit: int = 48) -> str:
    """Lowercase ASCII words joined by "-": "Revealed and surplus information" ->
    "revealed-and-surplus-information"; apostrophes vanish ("card's" -> "cards")."""
    t = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode().lower()
    t = re.sub(r"['`]", "", t.replace("’", ""))
    parts = re.findall(r"[a-z0-9]+", t)[:words]
    out = ""
    for p in parts:
        nxt = f"{out}-{p}" if out else p
        if len(nxt) > limit and out:
            break
        out = nxt
    return out[:limit].rstrip("-") or "item"  # one word longer than the limit is cut too


def heading_title(heading: str) -> str:
    """A heading without the citation in parentheses: "Penalties (NSG OPP, Section 5)" -> "Penalties"."""
    return _clean(_PAREN_CITE.sub(" ", heading)) or heading


def find_refs(text: str, inherited: bool = False) -> list[JudgeRef]:
    out: list[JudgeRef] = []
    for m in _CITE.finditer(text):
        doc = m.group("doc") or "CR"
        if doc not in ("CR", "OPP") and m.group("org") is None:
            doc = "CR"  # "ETR Section 6" is not a document name
        ref = JudgeRef(
            text=_clean(m.group(0)),
            document=doc,
            number=m.group("num"),
            version=m.group("ver"),
            inherited=inherited,
        )
        if all((r.document, r.number) != (ref.document, ref.number) for r in out):
            out.append(ref)
    return out


class CardFinder:
    """Finds card names in text: whole words, case as printed, longest name first."""

    def __init__(self, names: Iterable[str]) -> None:
        keep = sorted({n.strip() for n in names if n and len(n.strip()) >= 2}, key=len, reverse=True)
        self.names = keep
        body = "|".join(re.escape(n) for n in keep)
        self.pattern = re.compile(rf"(?<![\w-])(?:{body})(?![\w-])") if keep else None

    def find(self, text: str) -> list[str]:
        if self.pattern is None:
            return []
        text = text.replace("’", "'")
        return list(dict.fromkeys(m.group(0) for m in self.pattern.finditer(text)))


# ----------------------------------------------------------------------------------------------
# Generator detection and sanity checks
# ----------------------------------------------------------------------------------------------


def _generator(soup: BeautifulSoup, text: str) -> str:
    meta = soup.find("meta", attrs={"name": re.compile("^generator$", re.I)})
    gen = (meta.get("content") or "").strip() if meta else ""
    low = gen.lower()
    if "libreoffice" in low or "openoffice" in low:
        return "libreoffice"
    if "google" in low:
        return "google-docs"
    head = text[:20000].lower()
    if "urn:schemas-microsoft-com:office" in head or 'class="msonormal"' in head or "class=msonormal" in head:
        raise ScrapeError("", "this is a Microsoft Word export")
    if gen:
        for needle, name in _OTHER_PROCESSORS:
            if needle in low:
                raise ScrapeError("", f"this is an export from {name} ({gen})")
        raise ScrapeError("", f"this is an export from {gen!r}")
    if "lst-kix_" in text or "docs-internal-guid" in text or "kix-" in text[:50000]:
        return "google-docs"
    return "html"


def _check(soup: BeautifulSoup, text: str, source: str) -> str:
    try:
        gen = _generator(soup, text)
    except ScrapeError as exc:
        raise ScrapeError(
            source,
            f"{exc.message}, which nrrules does not read: export the judges' document from "
            "Google Docs (File > Download > Web page) or LibreOffice (File > Export > HTML) instead",
        ) from None
    if soup.find("a", class_="RuleLink") or soup.find("h1", class_="Chapter"):
        raise ScrapeError(
            source,
            "this is a Comprehensive Rules document, not a judges' document: build it with "
            "`nrrules build --source`",
        )
    return gen


# ----------------------------------------------------------------------------------------------
# Items
# ----------------------------------------------------------------------------------------------


@dataclass
class _Draft:
    kind: str
    section: str
    title: str = ""
    lines: list[JudgeLine] = field(default_factory=list)
    paras: list[tuple[str, str]] = field(default_factory=list)  # (text, html) of body paragraphs
    question: str | None = None
    list_key: str | None = None
    closed: bool = False


def _title_of(text: str) -> str:
    """An entry's label ("Warning: Has no effect" -> "Warning") or its first words."""
    m = re.match(r"^([A-Z][\w' /-]{1,30}):\s", text)
    if m and len(m.group(1).split()) <= 3:
        return m.group(1)
    words = text.split()
    return " ".join(words[:8]) + (" …" if len(words) > 8 else "")


def _render(d: _Draft) -> tuple[str, str]:
    """(text, html) of a draft's body."""
    texts: list[str] = []
    htmls: list[str] = []
    for t, h in d.paras:
        texts.append(t)
        htmls.append(f"<p>{h}</p>")
    if d.lines:
        texts.extend(ln.text for ln in d.lines)
        htmls.append(_lines_html(d.lines))
    return "\n".join(texts), "".join(htmls)


def _lines_html(lines: list[JudgeLine]) -> str:
    """Nested <ul>/<ol> from (depth, label) lines; labels are written out, not left to CSS."""
    out: list[str] = []
    depth = -1
    for ln in lines:
        while depth < ln.depth:
            out.append('<ul class="judge-lines">')
            depth += 1
        while depth > ln.depth:
            out.append("</li></ul>")
            depth -= 1
        if out and out[-1] != '<ul class="judge-lines">':
            out.append("</li>")
        label = (
            f'<span class="label">{html_lib.escape(ln.label.rsplit(".", 1)[-1])}.</span> ' if ln.label else ""
        )
        out.append(f"<li>{label}{ln.html}")
    while depth >= 0:
        out.append("</li></ul>")
        depth -= 1
    return "".join(out)


MAX_NESTING = 200  # elements inside each other; word-processor exports nest fewer than 20
# Elements in one document: the flattening costs about half a millisecond each, so this bounds a
# build to well under a minute (the real excerpt holds 365; a whole reference, tens of thousands).
MAX_ELEMENTS = 100_000


def _shape_problem(root: Tag) -> str | None:
    """What makes the tree under `root` no document to flatten: elements nested more than
    `MAX_NESTING` deep (the flattener recurses) or more than `MAX_ELEMENTS` of them (found
    without recursion)."""
    from bs4 import Tag

    stack = [(root, 0)]
    count = 0
    while stack:
        el, depth = stack.pop()
        count += 1
        if depth > MAX_NESTING:
            return f"elements nest more than {MAX_NESTING} deep: not a word-processor export of a document"
        if count > MAX_ELEMENTS:
            return f"it holds more than {MAX_ELEMENTS} elements, far more than any judges' document"
        stack.extend((c, depth + 1) for c in el.children if isinstance(c, Tag))
    return None


def parse_judge(
    data: bytes,
    source: str,
    card_names: Iterable[str] = (),
) -> JudgeDocument:
    """Parse one judges' document (word-processor HTML export)."""
    from bs4 import BeautifulSoup

    from .parse import decode_source

    text = decode_source(data, source)
    soup = BeautifulSoup(text, "lxml")
    generator = _check(soup, text, source)
    body = soup.body or soup
    problem = _shape_problem(body)
    if problem:
        raise ScrapeError(source, problem)
    flat = _Flattener()
    flat.walk(body)
    blocks = flat.blocks
    if not any(b.kind in ("para", "entry", "heading") for b in blocks):
        raise ScrapeError(source, "the document has no text")
    _rank_headings(blocks)
    if not any(b.kind == "heading" for b in blocks):
        raise ScrapeError(
            source,
            "the document has no headings: a judges' document needs headings (h1-h6, or short "
            "lines in a heading style) to divide it into sections",
        )
    title_tag = soup.find("title")
    doc_title = _clean(title_tag.get_text()) if title_tag and title_tag.get_text().strip() else ""
    # One outermost heading at the very top is the document's title, not a section.
    heads = [b for b in blocks if b.kind == "heading"]
    first = next(b for b in blocks if b.kind != "break")
    top = min(b.level for b in heads)
    if first.kind == "heading" and len(heads) > 1 and sum(1 for b in heads if b.level == top) == 1:
        doc_title = doc_title or first.text
        blocks.remove(first)
        top = min(b.level for b in blocks if b.kind == "heading")
    for b in blocks:
        if b.kind == "heading":
            b.level -= top - 1
    cards = CardFinder(card_names)

    sections: list[JudgeSection] = []
    drafts: list[_Draft] = []
    stack: list[JudgeSection] = []
    sibling_count: dict[str | None, int] = {}
    used_ids = _Ids()
    current: JudgeSection | None = None
    draft: _Draft | None = None

    def ensure_section() -> JudgeSection:
        nonlocal current
        if current is None:
            sid = _unique("introduction", used_ids)
            current = JudgeSection(sid, "Introduction", "Introduction", 1, None, sibling_count.get(None, 0))
            sibling_count[None] = sibling_count.get(None, 0) + 1
            sections.append(current)
            stack.append(current)
        return current

    def new(kind: str, **kw) -> _Draft:
        nonlocal draft
        draft = _Draft(kind=kind, section=ensure_section().id, **kw)
        drafts.append(draft)
        return draft

    for b in blocks:
        if b.kind == "heading":
            while stack and stack[-1].level >= b.level:
                stack.pop()
            parent = stack[-1] if stack else None
            title = heading_title(b.text)
            base = f"{parent.id}.{slug(title)}" if parent else slug(title)
            sid = _unique(base, used_ids)
            key = parent.id if parent else None
            refs = find_refs(b.text)
            m = _CR_VERSION.search(b.text)
            current = JudgeSection(
                id=sid,
                title=title,
                heading=b.text,
                level=b.level,
                parent=key,
                order=sibling_count.get(key, 0),
                refs=refs,
                cr_version=m.group(1) if m else (parent.cr_version if parent else None),
            )
            sibling_count[key] = sibling_count.get(key, 0) + 1
            sections.append(current)
            stack.append(current)
            draft = None
            continue
        if b.kind == "break":
            if draft is not None:
                draft.closed = True
            continue
        if b.kind == "entry":
            open_faq = draft is not None and draft.kind == "faq" and not draft.closed
            continues = draft is not None and draft.kind == "list" and not draft.closed and b.level > 0
            if open_faq or continues:
                draft.lines.append(JudgeLine(b.label, b.level, b.text, b.html))
            else:  # a top-level entry (or a sub-entry with nothing open): its own item
                d = new("list", title=_title_of(b.text), list_key=b.list_key)
                d.lines.append(JudgeLine(b.label, 0, b.text, b.html))
            continue
        # paragraphs: split at blank lines; a chunk ending in "?" opens a question
        chunk: list[tuple[str, str]] = []
        chunks: list[list[tuple[str, str]]] = []
        for t, h in b.lines or [(b.text, b.html)]:
            if not t:
                if chunk:
                    chunks.append(chunk)
                chunk = []
            else:
                chunk.append((t, h))
        if chunk:
            chunks.append(chunk)
        for ch in chunks:
            q_end = 0
            for i, (t, _) in enumerate(ch):
                if t.endswith("?"):
                    q_end = i + 1
                else:
                    break
            if q_end:
                question = " ".join(t for t, _ in ch[:q_end])
                d = new("faq", title=question, question=question)
                rest = ch[q_end:]
                if rest:
                    d.paras.append((" ".join(t for t, _ in rest), "<br>".join(h for _, h in rest)))
            elif draft is not None and draft.kind == "faq" and not draft.closed:
                draft.paras.append((" ".join(t for t, _ in ch), "<br>".join(h for _, h in ch)))
            else:
                joined = " ".join(t for t, _ in ch)
                d = new("paragraph", title=_title_of(joined))
                d.paras.append((joined, "<br>".join(h for _, h in ch)))
            if len(chunks) > 1 and draft is not None:
                draft.closed = True

    items: list[JudgeItem] = []
    order: dict[str, int] = {}
    by_section = {s.id: s for s in sections}
    for d in drafts:
        body_text, body_html = _render(d)
        if d.kind == "faq":
            full = f"{d.question}\n{body_text}".strip()
            basis = d.question or body_text
        else:
            full = body_text
            basis = (
                d.title if d.title and not d.title.endswith("…") and len(d.title.split()) <= 3 else body_text
            )
        iid = _unique(f"{d.section}.{slug(basis)}", used_ids)
        sec = by_section[d.section]
        refs = find_refs(full)
        for s in [by_section[x.id] for x in _path(by_section, sec)]:
            refs.extend(
                JudgeRef(r.text, r.document, r.number, r.version, True)
                for r in s.refs
                if all((x.document, x.number) != (r.document, r.number) for x in refs)
            )
        items.append(
            JudgeItem(
                id=iid,
                section=d.section,
                kind=d.kind,
                order=order.get(d.section, 0),
                title=d.title,
                text=full,
                html=body_html,
                lines=d.lines,
                refs=refs,
                cards=cards.find(full),
                question=d.question,
                answer=body_text if d.kind == "faq" else None,
            )
        )
        order[d.section] = order.get(d.section, 0) + 1
    if not items:
        raise ScrapeError(source, "the document has headings but no text under them")
    cr_version = next((s.cr_version for s in sections if s.cr_version), None)
    if cr_version is None:
        m = _CR_VERSION.search(" ".join(i.text for i in items))
        cr_version = m.group(1) if m else None
    if not doc_title:
        name = re.split(r"[/\\]", source.rstrip("/"))[-1]
        doc_title = re.sub(r"\.html?$", "", name, flags=re.I) or "Judges' document"
    return JudgeDocument(
        title=doc_title,
        source=source,
        source_hash=hashlib.sha256(data).hexdigest(),
        generator=generator,
        cr_version=cr_version,
        sections=sections,
        items=items,
    )


def _path(by_id: dict[str, JudgeSection], sec: JudgeSection) -> list[JudgeSection]:
    out = []
    s: JudgeSection | None = sec
    while s is not None:
        out.append(s)
        s = by_id.get(s.parent) if s.parent else None
    return out


class _Ids(set):
    """The ids given so far, and the next number to try after each base: a document repeating
    one heading 10,000 times costs 10,000 steps, not 50 million."""

    def __init__(self) -> None:
        super().__init__()
        self.next: dict[str, int] = {}


def _unique(base: str, used: _Ids) -> str:
    sid, n = base, used.next.get(base, 2)
    if sid in used:
        sid = f"{base}-{n}"
        while sid in used:
            n += 1
            sid = f"{base}-{n}"
        used.next[base] = n + 1
    used.add(sid)
    return sid
