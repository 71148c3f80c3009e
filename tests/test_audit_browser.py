"""Checks added by the audit of issues 11 and 14, in headless Chromium against a real server with
card data: every text is readable against what is behind it, light and dark (WCAG AA contrast:
4.5:1, 3:1 for large text); what opens on a tap looks openable; "Copy rule with citation"
copies the text, the citation and a versioned link; saving another CR version for offline
replaces the saved one. Screenshots go to test-artifacts/browser/."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect
from test_browser import ARTIFACTS, browser, serve  # noqa: F401 - fixtures
from test_reading_browser import phone

# Text nodes whose colour is too close to the colour actually behind them (the first ancestor
# with an opaque background), as [element, text, ratio, needed].
CONTRAST_JS = r"""() => {
  const rgb = s => (s.match(/[\d.]+/g) || []).map(Number);
  const lum = c => { const a = c.slice(0, 3).map(v => { v /= 255; return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); });
    return 0.2126 * a[0] + 0.7152 * a[1] + 0.0722 * a[2]; };
  const behind = e => { for (; e; e = e.parentElement) { const c = rgb(getComputedStyle(e).backgroundColor);
    if (c.length < 4 || c[3] > 0.5) return c; } return [255, 255, 255]; };
  const out = [];
  for (const e of document.querySelectorAll("body *")) {
    let text = ""; for (const n of e.childNodes) if (n.nodeType === 3) text += n.textContent;
    text = text.trim();
    if (!text || !e.checkVisibility()) continue;
    const s = getComputedStyle(e), a = lum(rgb(s.color)), b = lum(behind(e));
    const ratio = (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
    const size = parseFloat(s.fontSize), large = size >= 24 || (size >= 18.66 && +s.fontWeight >= 700);
    const need = large ? 3 : 4.5;
    if (ratio < need) out.push([e.tagName + "." + e.className, text.slice(0, 30), +ratio.toFixed(2), need]);
  }
  return out; }"""

# One page for each kind of coloured text: highlighted search words (<mark>), word diffs
# (<del>/<ins>), card keywords and symbols, the editor's server tags, source labels, what the
# stepper does with card text (a card's "In the stepper", the coverage page).
PAGES = (
    "/",
    "/r/6.9.4c",
    "/search?q=Snare",
    "/c/snare",
    "/c/anvil",
    "/cards/coverage",
    "/changes/25.08..26.03",
    "/editor",
    "/all",
)


@pytest.fixture(scope="module")
def card_server(cards_built):
    yield from serve(cards_built, "gunicorn-audit.log")


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_every_text_is_readable_in_light_and_dark(browser, card_server, scheme):  # noqa: F811
    context, pg, errors = phone(browser, color_scheme=scheme)
    low: dict[str, list] = {}
    try:
        for path in PAGES:
            pg.goto(card_server + path)
            pg.wait_for_load_state("networkidle")
            found = pg.evaluate(CONTRAST_JS)
            if found:
                low[path] = found[:5]
                pg.screenshot(path=str(ARTIFACTS / f"low-contrast-{scheme}-{len(low)}.png"))
        # the pages really hold the coloured text this checks
        pg.goto(card_server + "/changes/25.08..26.03")
        assert pg.locator(".diff del").count() and pg.locator(".diff ins").count()
        pg.goto(card_server + "/search?q=Snare")
        assert pg.locator(".results mark").count()
    finally:
        context.close()
    assert not low, low
    assert not errors, errors


def test_what_opens_on_a_tap_shows_a_disclosure_mark(browser, card_server):  # noqa: F811
    """The "Contents" of /all and the rule graph are <details> whose summary is a flex box (for a
    44 px target), which hides the browser's triangle: the page draws one, and turns it."""
    context, pg, errors = phone(browser)
    mark = "(s) => getComputedStyle(document.querySelector(s), '::before').content"
    try:
        for path, sel in (("/all", "#toc"), ("/r/6.9.4c", "#graph")):
            pg.goto(card_server + path)
            closed = pg.evaluate(mark, f"{sel} > summary")
            assert closed not in ("none", "normal", '""'), (path, closed)
            pg.locator(f"{sel} > summary").tap()
            assert pg.locator(sel).get_attribute("open") is not None
            opened = pg.evaluate(mark, f"{sel} > summary")
            assert opened not in ("none", "normal", '""') and opened != closed, (path, opened)
        pg.screenshot(path=str(ARTIFACTS / "graph-opened-phone.png"))
    finally:
        context.close()
    assert not errors, errors


def test_copy_rule_with_citation_puts_text_citation_and_versioned_link_on_the_clipboard(browser, card_server):  # noqa: F811
    context = browser.new_context(permissions=["clipboard-read", "clipboard-write"])
    pg = context.new_page()
    try:
        for path, cite, link in (
            ("/r/6.9.4c", "CR 26.03, 6.9.4c", "/id/step_jack_out_choice?v=26.03"),
            ("/r/1.2.1?v=22.12", "CR 22.12, 1.2.1", "/id/rule_card_precedence?v=22.12"),
        ):
            pg.goto(card_server + path)
            body = pg.locator("#rule-body").inner_text().strip()
            button = pg.locator("button.cite")
            button.click()
            expect(button).to_have_text("Copied with citation")
            copied = pg.evaluate("navigator.clipboard.readText()")
            assert copied == f"{body}\n— {cite} {card_server}{link}", copied
            assert body.split()[:3] == copied.split()[:3] and len(body) > 40
    finally:
        context.close()


SAVED_PACKS_JS = r"""async () => { const out = [];
  for (const k of await caches.keys()) { if (!k.startsWith('nrrules-')) continue;
    for (const r of await (await caches.open(k)).keys()) { const p = new URL(r.url).pathname;
      if (/^\/offline\/[0-9.]+\.json$/.test(p)) out.push(p); } }
  return out.sort(); }"""


def test_saving_another_version_replaces_the_saved_one(browser, card_server, library):  # noqa: F811
    """One CR version is kept for offline use: saving 25.08 after 26.03 leaves only 25.08's
    pack in the browser's storage, and the 26.03 page then offers to replace it back."""
    versions = [i.version for i in library.versions()]
    latest, older = versions[-1], versions[-2]
    context, pg, errors = phone(browser)
    ctl = pg.locator("#offline-ctl")
    try:
        pg.goto(card_server + "/r/6.9.4c")
        pack = pg.locator("body").get_attribute("data-pack")
        ctl.locator(".save-offline").click()
        expect(ctl).to_have_attribute("data-saved", latest, timeout=60_000)
        assert pg.evaluate(SAVED_PACKS_JS) == [pack.split("?")[0]]
        pg.goto(card_server + f"/r/6.9.4c?v={older}")
        older_pack = pg.locator("body").get_attribute("data-pack")
        assert older_pack != pack
        button = ctl.locator(".save-offline")
        expect(button).to_have_text(f"Replace it with CR {older}")
        button.click()
        expect(ctl).to_have_attribute("data-saved", older, timeout=60_000)
        assert pg.evaluate(SAVED_PACKS_JS) == [older_pack.split("?")[0]]
        expect(ctl.locator(".offline-state")).to_contain_text(f"Saved for offline use: CR {older}")
        pg.goto(card_server + "/r/6.9.4c")
        expect(ctl.locator(".save-offline")).to_have_text(f"Replace it with CR {latest}")
        ctl.locator(".remove-offline").click()
        expect(ctl.locator(".offline-state")).to_have_text("Nothing saved for offline use on this device.")
        assert pg.evaluate(SAVED_PACKS_JS) == []
    finally:
        context.close()
    assert not errors, errors


def test_a_long_label_wraps_beside_its_rule_number(browser, card_server):  # noqa: F811
    """ "Rules that mention" a card and "Cites"/"Cited by" put a 44 px rule number beside a label
    that wraps in its own column (it wrapped under the number, after a 44 px first line)."""
    context, pg, errors = phone(browser)
    beside = """(sel) => [...document.querySelectorAll(sel)].map(li => {
        const a = li.querySelector(':scope > a.ref').getBoundingClientRect();
        const t = li.querySelector(':scope > .ctx').getBoundingClientRect();
        return [t.left >= a.right, t.height > 30, a.height >= 44]; })"""
    try:
        for path, sel in (("/c/snare", "#card-rules li"), ("/r/6.9.6", "#cited-by li")):
            pg.goto(card_server + path)
            rows = pg.evaluate(beside, sel)
            assert rows and all(left and tall for left, _, tall in rows), (path, rows)
            assert any(wrapped for _, wrapped, _ in rows), path  # a label long enough to wrap
    finally:
        context.close()
    assert not errors, errors


def test_whole_cr_contents_stay_in_view_and_deep_links_clear_the_header(browser, card_server):  # noqa: F811
    """/all: on a wide screen the contents stay beside the text while it scrolls (sticky); at
    phone and desktop size a deep link lands with the rule's number below the sticky header."""
    for viewport in ({"width": 390, "height": 844}, {"width": 1366, "height": 900}):
        context = browser.new_context(viewport=viewport)
        pg = context.new_page()
        try:
            pg.goto(card_server + "/all#step_jack_out_choice")
            header = pg.locator("header.top").bounding_box()
            number = pg.locator("#step_jack_out_choice").bounding_box()  # its first line: the number
            assert header["y"] + header["height"] <= number["y"] < viewport["height"], (viewport, number)
            if viewport["width"] > 1000:
                toc = pg.locator("#toc").bounding_box()
                assert toc["y"] >= header["y"] + header["height"] - 1 and toc["y"] < 200, toc
                assert pg.locator("#toc a[href='#sec_steps_of_a_run']").is_visible()
        finally:
            context.close()
