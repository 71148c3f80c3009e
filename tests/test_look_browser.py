"""How the pages look, checked in headless Chromium at phone size, light and dark (the audit of
issues 11 and 14): every text is readable against what is behind it (WCAG AA contrast: 4.5:1,
3:1 for large text), and what opens on a tap looks openable. Screenshots go to
test-artifacts/browser/."""

from __future__ import annotations

import pytest
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
# (<del>/<ins>), card keywords and symbols, the editor's server tags, source labels.
PAGES = ("/", "/r/6.9.4c", "/search?q=Snare", "/c/snare", "/changes/25.08..26.03", "/editor", "/all")


@pytest.fixture(scope="module")
def card_server(cards_built):
    yield from serve(cards_built, "gunicorn-look.log")


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
