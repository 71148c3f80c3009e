"""Turn one CR HTML document into a `Document`.

Both published layouts are handled:

* "printed" (24.03 and later): every rule carries its number in ``<a class="RuleLink">``.
* "counted" (22.12, 23.08): no numbers; the browser numbers ``<ol>`` items with CSS, so we
  count them the same way.

The markup is irregular (sub-rule lists inside text spans, nested anchors in headings,
unquoted attributes), so nodes are attached to their *nearest enclosing rule* rather than to
an exact tree position. Numbers are always computed by counting; in the printed layout the
printed number is kept too and must agree (see `verify`).
"""

from __future__ import annotations

import hashlib
import html as html_lib
import re
from dataclasses import dataclass, field

import lxml.etree
import lxml.html

from .errors import ScrapeError
from .model import (
    CHAPTER,
    EXAMPLE,
    RULE,
    SECTION,
    STEP,
    SUBRULE,
    SUBSECTION,
    TIMING_PHASE,
    TIMING_STEP,
    CardMention,
    ChangeEntry,
    Document,
    Node,
    Reference,
)

_VERSION_IN_TEXT = re.compile(r"\(v(\d{2}\.\d{2})\)")
_VERSION_IN_NAME = re.compile(r"(?<!\d)(\d{2}\.\d{2})(?!\d)")
_EFFECTIVE = re.compile(r"effective\s+(?:<b>)?\s*(\d{1,2})\s+([A-Za-z]+)\s+(\d{4})", re.I)
_MONTHS = {
    m: i
    for i, m in enumerate(
        "january february march april may june july august september october november december".split(),
        start=1,
    )
}
_CARD_CODE = re.compile(r"/card/([0-9A-Za-z]+)")
_WS = re.compile(r"\s+")
# A number inside link text: "rule 6.9.4c", "section 1.9", "step 6.9.3b", "1.8.4b".
LINK_NUMBER = re.compile(r"(?<![\w.])(\d{1,2}(?:\.\d{1,3}){0,2}[a-z]?)(?![\w])")
# Old layouts write symbols as bracketed text; normalise to the names the new layouts use.
_OLD_SYMBOLS = {"[c]": "[credit]"}
_SYMBOL_NAMES = {"trashcost": "trash cost"}
_ALLOWED_INLINE = {"b", "strong", "i", "em", "u", "sup", "sub", "br"}


def _classes(el: lxml.etree._Element) -> set[str]:
    c = el.get("class")
    return set(c.split()) if c else set()


def _letters(index: int) -> str:
    """0 -> a, 25 -> z, 26 -> aa (CSS lower-alpha)."""
    out = ""
    index += 1
    while index:
        index, rem = divmod(index - 1, 26)
        out = chr(ord("a") + rem) + out
    return out


def _roman(index: int) -> str:
    n = index + 1
    vals = [(10, "x"), (9, "ix"), (5, "v"), (4, "iv"), (1, "i")]
    out = ""
    for v, s in vals:
        while n >= v:
            out += s
            n -= v
    return out


def _clean(text: str) -> str:
    for old, new in _OLD_SYMBOLS.items():
        text = text.replace(old, new)
    return _WS.sub(" ", text).strip()


# ----------------------------------------------------------------------------------------------
# Decoding and sanity checks of the raw bytes
# ----------------------------------------------------------------------------------------------


def decode_source(data: bytes, source: str) -> str:
    if not data or not data.strip():
        raise ScrapeError(source, "the file is empty")
    if data.startswith(b"\xff\xfe") or data.startswith(b"\xfe\xff"):
        try:
            return data.decode("utf-16")
        except UnicodeDecodeError as exc:
            raise ScrapeError(source, f"invalid UTF-16 text at byte {exc.start}") from None
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    if b"\x00" in data[:4096]:
        raise ScrapeError(source, "this is a binary file, not an HTML document")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        bad = data[exc.start : exc.start + 1].hex()
        raise ScrapeError(
            source,
            f"the bytes are not valid UTF-8 (byte 0x{bad} at offset {exc.start}); "
            "CR documents are published in UTF-8: re-download or re-save the file as UTF-8",
        ) from None
    if "<" not in text[:4096] or not re.search(r"<\s*(html|body|div|h1|ol|p)\b", text, re.I):
        raise ScrapeError(source, "this is not an HTML document")
    return text


def _strip_xml_prolog(text: str) -> str:
    return re.sub(r"^\s*<\?xml[^>]*\?>", "", text, count=1)


# ----------------------------------------------------------------------------------------------
# Inline content: plain text, safe HTML, references, cards, terms
# ----------------------------------------------------------------------------------------------


@dataclass
class _Inline:
    text: list[str] = field(default_factory=list)
    html: list[str] = field(default_factory=list)
    refs: list[Reference] = field(default_factory=list)
    cards: list[CardMention] = field(default_factory=list)
    terms: list[str] = field(default_factory=list)

    def add_text(self, s: str | None) -> None:
        if s:
            self.text.append(s)
            self.html.append(html_lib.escape(s.replace("[c]", "[credit]"), quote=False))


def _skip_inline(el: lxml.etree._Element) -> bool:
    """Elements whose content is not part of the enclosing rule's own text."""
    tag = el.tag
    if not isinstance(tag, str):  # comments, processing instructions
        return True
    if tag in ("ol", "ul", "li", "script", "style", "details"):
        return True
    cls = _classes(el)
    if tag == "p":  # paragraphs are attached separately (examples or loose paragraphs)
        return True
    if cls & {
        "RuleLinkOuterWrapper",
        "RuleLinkSymbol",
        "ThumbnailImageContainer",
        "RuleAnchor",
    }:
        return True
    if tag == "a" and "RuleLink" in cls:
        return True
    return False


def _walk_inline(el: lxml.etree._Element, out: _Inline, include_root_text: bool = True) -> None:
    if include_root_text:
        out.add_text(el.text)
    for child in el:
        if _skip_inline(child):
            pass
        else:
            _emit(child, out)
        out.add_text(child.tail)


def _emit(el: lxml.etree._Element, out: _Inline) -> None:
    tag = el.tag
    cls = _classes(el)
    if tag == "img":
        if "Symbol" in cls or el.get("alt"):
            name = (el.get("alt") or "").strip().lower()
            name = _SYMBOL_NAMES.get(name, name)
            if name:
                token = f"[{name}]"
                out.text.append(token)
                out.html.append(
                    f'<span class="sym sym-{html_lib.escape(name.replace(" ", "-"))}" '
                    f'title="{html_lib.escape(name)}">{html_lib.escape(token)}</span>'
                )
        return
    if tag == "a" and "Card" in cls:
        inner = _Inline()
        _walk_inline(el, inner)
        name = _clean("".join(inner.text))
        m = _CARD_CODE.search(el.get("href") or "")
        code = m.group(1) if m else None
        out.cards.append(CardMention(name=name, code=code))
        out.text.append(name)
        if code:
            out.html.append(
                f'<a class="card" data-code="{code}" rel="noopener" '
                f'href="https://netrunnerdb.com/en/card/{code}">{html_lib.escape(name)}</a>'
            )
        else:
            out.html.append(f'<span class="card">{html_lib.escape(name)}</span>')
        return
    if tag == "span" and "Card" in cls:
        inner = _Inline()
        _walk_inline(el, inner)
        name = _clean("".join(inner.text))
        out.cards.append(CardMention(name=name, code=None))
        out.text.append(name)
        out.html.append(f'<span class="card">{html_lib.escape(name)}</span>')
        return
    if tag == "a":
        href = (el.get("href") or "").strip()
        inner = _Inline()
        _walk_inline(el, inner)
        out.refs.extend(inner.refs)
        out.cards.extend(inner.cards)
        out.terms.extend(inner.terms)
        if href.startswith("#") and len(href) > 1:
            target = href[1:]
            anchor = _clean("".join(inner.text))
            out.refs.append(Reference(target=target, text=anchor))
            out.text.extend(inner.text)
            out.html.append(
                f'<a class="ref" data-id="{html_lib.escape(target)}" '
                f'href="/id/{html_lib.escape(target)}">{"".join(inner.html)}</a>'
            )
        elif href.startswith(("http://", "https://", "mailto:")):
            out.text.extend(inner.text)
            out.html.append(
                f'<a href="{html_lib.escape(href)}" rel="noopener nofollow">{"".join(inner.html)}</a>'
            )
        else:
            out.text.extend(inner.text)
            out.html.extend(inner.html)
        return
    inner = _Inline()
    _walk_inline(el, inner)
    out.refs.extend(inner.refs)
    out.cards.extend(inner.cards)
    out.terms.extend(inner.terms)
    out.text.extend(inner.text)
    body = "".join(inner.html)
    if tag == "span" and "Term" in cls:
        term = _clean("".join(inner.text)).lower()
        if term:
            out.terms.append(term)
        out.html.append(f'<span class="term">{body}</span>')
    elif tag == "span" and "SubType" in cls:
        out.html.append(f'<span class="subtype">{body}</span>')
    elif tag in _ALLOWED_INLINE:
        out.html.append("<br>" if tag == "br" else f"<{tag}>{body}</{tag}>")
    else:  # unwrap anything else (spans of layout, unknown tags)
        out.html.append(body)


def _inline_of(el: lxml.etree._Element) -> _Inline:
    out = _Inline()
    _walk_inline(el, out)
    return out


def _finish(out: _Inline) -> tuple[str, str]:
    text = _clean("".join(out.text))
    html = _WS.sub(" ", "".join(out.html)).strip()
    return text, html


# ----------------------------------------------------------------------------------------------
# Structure
# ----------------------------------------------------------------------------------------------


@dataclass
class _Draft:
    node: Node
    el: lxml.etree._Element | None
    child_count: int = 0  # children of any kind (for `order`)
    numbered_count: int = 0  # rule / sub-rule / timing children (for counting numbers)
    paragraphs: list[_Inline] = field(default_factory=list)
    inline: _Inline | None = None


class _Builder:
    def __init__(self, source: str):
        self.source = source
        self.drafts: list[_Draft] = []
        self.by_id: dict[str, _Draft] = {}
        self.by_el: dict[lxml.etree._Element, _Draft] = {}
        self.duplicates: list[str] = []
        self.printed = False
        self.root_count = 0

    def add(
        self,
        node_id: str,
        kind: str,
        parent: _Draft | None,
        el: lxml.etree._Element | None,
        number: str | None,
        printed: str | None = None,
        title: str | None = None,
    ) -> _Draft:
        if parent is not None:
            order = parent.child_count
            parent.child_count += 1
        else:
            order = self.root_count
            self.root_count += 1
        node = Node(
            id=node_id,
            kind=kind,
            number=number,
            parent=parent.node.id if parent else None,
            order=order,
            title=title,
            printed_number=printed,
        )
        draft = _Draft(node=node, el=el)
        if node_id in self.by_id:
            self.duplicates.append(node_id)
        self.by_id[node_id] = draft
        if el is not None:
            self.by_el[el] = draft
        self.drafts.append(draft)
        return draft


def _printed_label(el: lxml.etree._Element) -> str | None:
    """The text of the element's own RuleLink, if the layout prints numbers."""
    for a in el.iter("a"):
        if "RuleLink" in _classes(a):
            # only the RuleLink that belongs to this element (not to a nested rule)
            owner = a.getparent()
            while owner is not None and owner is not el and not _is_rule_li(owner):
                owner = owner.getparent()
            if owner is el:
                return _clean(a.text_content())
            return None
    return None


def _is_rule_li(el: lxml.etree._Element) -> bool:
    return el.tag == "li" and bool(_classes(el) & {"Rule", "SubRule"})


def _is_timing_li(el: lxml.etree._Element) -> bool:
    return el.tag == "li" and any(c.startswith("TimingStructureL") for c in _classes(el))


def _timing_level(el: lxml.etree._Element) -> int:
    for c in _classes(el):
        if c.startswith("TimingStructureL") and c[16:].isdigit():
            return int(c[16:])
    return 1


def _nearest(el: lxml.etree._Element, pred) -> lxml.etree._Element | None:
    p = el.getparent()
    while p is not None:
        if pred(p):
            return p
        p = p.getparent()
    return None


_NUM_PREFIX = re.compile(r"^\s*(\d+(?:\.\d+)*)\.?\s*")


def _heading_title(el: lxml.etree._Element) -> tuple[str, str | None, _Inline]:
    """Title of an h1/h2 without its printed number; the printed number (or None); inline data.

    In the printed layout the number starts the heading's RuleLink anchor. Headings that nest
    a cross reference inside that anchor are repaired by the parser into sibling anchors, so
    the heading is read as a whole rather than from the RuleLink alone."""
    inline = _Inline()
    inline.add_text(el.text)
    for child in el:
        if not isinstance(child.tag, str) or "RuleLinkSymbol" in _classes(child):
            pass
        elif child.tag == "a" and "RuleLink" in _classes(child):
            _walk_inline(child, inline)
        else:
            _emit(child, inline)
        inline.add_text(child.tail)
    text = _clean("".join(inline.text))
    printed = None
    has_rule_link = any("RuleLink" in _classes(a) for a in el.iter("a"))
    m = _NUM_PREFIX.match(text) if has_rule_link else None
    if m:
        printed = m.group(1)
        text = text[m.end() :]
        joined = "".join(inline.html)
        hm = _NUM_PREFIX.match(joined)
        inline.html = [joined[hm.end() :] if hm else joined]
    return text, printed, inline


def parse_html(
    data: bytes,
    source: str,
    version: str | None = None,
) -> Document:
    """Parse one CR document. `version` is required only when the document does not state it
    (22.12, 23.08); it may also be inferred from `source` when that is a name like cr-22.12.html."""
    text = decode_source(data, source)
    source_hash = hashlib.sha256(data).hexdigest()
    body = _strip_xml_prolog(text)
    try:
        root = lxml.html.document_fromstring(body)
    except (lxml.etree.ParserError, ValueError) as exc:
        raise ScrapeError(source, f"the HTML could not be parsed ({exc})") from None

    chapters_el = root.xpath("//h1[contains(concat(' ', normalize-space(@class), ' '), ' Chapter ')]")
    rules_el = root.xpath("//li[contains(concat(' ', normalize-space(@class), ' '), ' Rule ')]")
    if not chapters_el or not rules_el:
        title = root.findtext(".//title") or ""
        hint = f' (its title is "{_clean(title)[:60]}")' if title.strip() else ""
        raise ScrapeError(
            source,
            f"this HTML page is not a Netrunner Comprehensive Rules document{hint}: "
            "it has no chapters or rules",
        )
    stripped = text.rstrip().lower()
    if not (stripped.endswith("</html>") or stripped.endswith("</body>")):
        raise ScrapeError(
            source,
            "the document is truncated (it does not end with </html>); "
            f"it stops after {len(chapters_el)} chapter(s). Download it again.",
        )

    doc_version, effective = _metadata(root, text)
    if version is not None and doc_version is not None and version.strip() != doc_version:
        raise ScrapeError(
            source,
            f"the document states CR version {doc_version}, not {version.strip()}: "
            "drop --version or give the right file",
        )
    if version is None:
        version = doc_version
    if version is None:
        m = _VERSION_IN_NAME.search(source.replace("\\", "/").rsplit("/", 1)[-1])
        version = m.group(1) if m else None
    if version is None:
        raise ScrapeError(
            source,
            "the document does not state its CR version and none was given: pass --version "
            "(e.g. --version 22.12) or name the file like cr-22.12.html",
        )
    if not re.fullmatch(r"\d{2}\.\d{2}", version):
        raise ScrapeError(source, f"version {version!r} is not of the form YY.MM (e.g. 26.03)")

    b = _Builder(source)
    b.printed = bool(root.xpath("//a[contains(@class,'RuleLink')]"))
    content = chapters_el[0].getparent()
    _collect(b, content)

    if b.duplicates:
        raise ScrapeError(
            source,
            f"{len(b.duplicates)} duplicate rule id(s): each id must be unique",
            sorted(set(b.duplicates)),
        )

    changes = _changes(root)
    nodes = _finalise(b)
    doc = Document(
        version=version,
        effective_date=effective,
        source_hash=source_hash,
        source=source,
        layout="printed" if b.printed else "counted",
        changes=changes,
        nodes=nodes,
    )
    return doc


def _metadata(root, text: str) -> tuple[str | None, str | None]:
    version = None
    title = root.findtext(".//title") or ""
    m = _VERSION_IN_TEXT.search(title)
    if not m:
        for summ in root.iter("summary"):
            m = _VERSION_IN_TEXT.search(summ.text_content())
            if m:
                break
    if m:
        version = m.group(1)
    effective = None
    m = _EFFECTIVE.search(text[:200000])
    if m:
        day, month, year = int(m.group(1)), _MONTHS.get(m.group(2).lower()), int(m.group(3))
        if month:
            effective = f"{year:04d}-{month:02d}-{day:02d}"
    return version, effective


def _changes(root) -> list[ChangeEntry]:
    out: list[ChangeEntry] = []
    for summ in root.iter("summary"):
        if "summary of changes" not in summ.text_content().lower():
            continue
        details = summ.getparent()
        for ul in details.iter("ul"):
            for li in ul.iter("li"):
                inline = _inline_of(li)
                text, html = _finish(inline)
                if text:
                    targets = []
                    for r in inline.refs:
                        if r.target not in targets:
                            targets.append(r.target)
                    out.append(ChangeEntry(text=text, html=html, targets=targets))
            break
        break
    return out


def _collect(b: _Builder, content) -> None:
    chapter: _Draft | None = None
    section: _Draft | None = None
    n_chapter = 0
    n_section = 0
    n_rule = 0
    in_main = False

    for el in content.iter():
        tag = el.tag
        if not isinstance(tag, str):
            continue
        cls = _classes(el)
        if tag == "h1" and "Chapter" in cls:
            in_main = True
            n_chapter += 1
            n_section = 0
            title, printed, inline = _heading_title(el)
            chapter = b.add(
                el.get("id") or f"chapter_{n_chapter}",
                CHAPTER,
                None,
                el,
                str(n_chapter),
                printed,
                title,
            )
            chapter.inline = inline
            section = None
            continue
        if not in_main:
            continue
        if tag == "h2" and "Section" in cls:
            n_section += 1
            n_rule = 0
            title, printed, inline = _heading_title(el)
            section = b.add(
                el.get("id") or f"{chapter.node.id}_section_{n_section}",
                SECTION,
                chapter,
                el,
                f"{chapter.node.number}.{n_section}",
                printed,
                title,
            )
            section.inline = inline
            continue
        if _is_rule_li(el):
            owner_el = _nearest(el, _is_rule_li)
            if owner_el is None:
                parent = section or chapter
                n_rule += 1
                number = f"{parent.node.number}.{n_rule}"
            else:
                parent = b.by_el[owner_el]
                number = f"{parent.node.number}{_letters(parent.numbered_count)}"
                parent.numbered_count += 1
            printed = _printed_label(el) if b.printed else None
            if printed is not None:
                printed = printed.rstrip(".")
                if owner_el is not None and printed and not printed[0].isdigit():
                    printed = f"{parent.node.printed_number or parent.node.number}{printed}"
            node_id = el.get("id") or f"{parent.node.id}.{number}"
            draft = b.add(node_id, RULE, parent, el, number, printed)
            inline = _inline_of(el)
            draft.inline = inline
            own_text = _clean("".join(inline.text))
            is_subrule = owner_el is not None
            has_children = bool(el.xpath(".//li[contains(@class,'SubRule')]"))
            heading = "SubSection" in {c for s in el.iter("span") for c in _classes(s)} and not is_subrule
            if node_id.startswith("step_"):
                kind = STEP
            elif not is_subrule and (heading or (has_children and _looks_like_title(own_text))):
                kind = SUBSECTION
            else:
                kind = SUBRULE if is_subrule else RULE
            draft.node.kind = kind
            if kind == SUBSECTION or (kind == STEP and has_children and _looks_like_title(own_text)):
                draft.node.title = own_text
            continue
        if _is_timing_li(el):
            level = _timing_level(el)
            owner_el = _nearest(el, _is_timing_li)
            if owner_el is None:
                parent = section or chapter
                parent.numbered_count += 1
                number = f"{parent.node.number}.{parent.numbered_count}"
                node_id = f"{parent.node.id}.t{parent.numbered_count}"
            else:
                parent = b.by_el[owner_el]
                idx = parent.numbered_count
                parent.numbered_count += 1
                if level <= 2:
                    suffix = _letters(idx)
                    number = f"{parent.node.number}{suffix}"
                else:
                    suffix = _roman(idx)
                    number = f"{parent.node.number}.{suffix}"
                node_id = f"{parent.node.id}.{suffix}"
            draft = b.add(node_id, TIMING_PHASE if owner_el is None else TIMING_STEP, parent, el, number)
            draft.inline = _inline_of(el)
            if owner_el is None:
                draft.node.title = _clean("".join(draft.inline.text))
            continue
        if tag in ("p", "li") and "Example" in cls:
            owner_el = _nearest(el, _is_rule_li)
            parent = b.by_el[owner_el] if owner_el is not None else (section or chapter)
            idx = len(parent.node.examples) + 1
            ex = b.add(f"{parent.node.id}.ex{idx}", EXAMPLE, parent, el, None)
            parent.node.examples.append(ex.node.id)
            ex.inline = _inline_of(el)
            continue
        if tag == "p":
            owner_el = _nearest(el, _is_rule_li)
            owner = b.by_el[owner_el] if owner_el is not None else (section or chapter)
            if owner is not None:
                owner.paragraphs.append(_inline_of(el))


def _looks_like_title(text: str) -> bool:
    """A heading-only rule ("Movement Phase", "Steps of Resolving a Trace Attempt")."""
    # Titles are noun phrases: a comma list or a verb makes a sentence ("The three types of
    # damage the Runner can suffer are meat, net, and core damage" is 10.4.2's text, not a title).
    return (
        0 < len(text) <= 80
        and not re.search(r"[.:;]\s*$|[.!?]\s", text)
        and not re.search(r",|\b(?:is|are|can|must|may)\b", text)
    )


def _finalise(b: _Builder) -> list[Node]:
    nodes: list[Node] = []
    for d in b.drafts:
        n = d.node
        pieces: list[_Inline] = []
        if d.inline is not None:
            pieces.append(d.inline)
        pieces.extend(d.paragraphs)
        texts, htmls = [], []
        refs: list[Reference] = []
        cards: list[CardMention] = []
        terms: list[str] = []
        for i, inl in enumerate(pieces):
            t, h = _finish(inl)
            if t:
                texts.append(t)
                htmls.append(h if i == 0 and d.inline is not None else f"<p>{h}</p>")
            refs.extend(inl.refs)
            cards.extend(inl.cards)
            terms.extend(inl.terms)
        if n.kind in (CHAPTER, SECTION):
            # headings: the title is the first piece; keep any intro paragraphs as text
            texts = texts[1:] if d.inline is not None and texts else texts
            htmls = htmls[1:] if d.inline is not None and htmls else htmls
        elif n.kind == SUBSECTION or (n.title and n.kind in (STEP, TIMING_PHASE)):
            texts = texts[1:] if d.inline is not None and texts else texts
            htmls = htmls[1:] if d.inline is not None and htmls else htmls
        n.text = "\n\n".join(texts)
        n.html = " ".join(htmls)
        n.refs = refs
        seen_cards: dict[tuple[str, str | None], CardMention] = {}
        for c in cards:
            seen_cards.setdefault((c.name, c.code), c)
        n.cards = list(seen_cards.values())
        n.terms = list(dict.fromkeys(terms))
        nodes.append(n)
    return nodes
