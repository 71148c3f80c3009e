"""At the table on a phone (390x844, headless Chromium against a real gunicorn): a one-row header
with the site menu, suggestions two lines each and announced, 44 px targets in dense lists, the
passed ice readable (4.5:1) in light and dark, the stepper's trace within its line budget, and no
raw `[credit]` or board key in what the scripts draw (the editor's picture)."""

from __future__ import annotations

import pytest
from test_browser import browser, serve, sync_api  # noqa: F401  (shared fixtures)
from test_trace_lines import PICKS, tollbooth_board

expect = sync_api.expect
PHONE = {"width": 390, "height": 844}
TAP = 44

# the WCAG contrast ratio of an element's text over the first opaque background behind it
CONTRAST = """(el) => {
  const rgb = (c) => (c.match(/[\\d.]+/g) || []).map(Number);
  const lum = ([r, g, b]) => [r, g, b].map(v => { v /= 255; return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); })
    .reduce((s, v, i) => s + v * [0.2126, 0.7152, 0.0722][i], 0);
  let bg = null;
  for (let n = el; n && !bg; n = n.parentElement) {
    const c = rgb(getComputedStyle(n).backgroundColor);
    if (c.length === 3 || (c.length === 4 && c[3] === 1)) bg = c.slice(0, 3);
  }
  bg = bg || [255, 255, 255];
  const fg = rgb(getComputedStyle(el).color).slice(0, 3);
  const [a, b] = [lum(fg), lum(bg)].sort((x, y) => y - x);
  return (a + 0.05) / (b + 0.05);
}"""

VISIBLE_LINES = """() => [...document.querySelectorAll('#trace li, #trace summary')]
  .filter(e => e.checkVisibility() && !(e.nodeName === 'LI' && e.querySelector(':scope > details'))).length"""


@pytest.fixture(scope="module")
def server(judge_build_dir):
    yield from serve(judge_build_dir, "gunicorn-phone.log")


@pytest.fixture()
def phone(browser):  # noqa: F811
    contexts = []
    problems: list[str] = []

    def open_page(color_scheme: str = "light"):
        context = browser.new_context(
            viewport=PHONE, device_scale_factor=1, color_scheme=color_scheme, has_touch=True, is_mobile=True
        )
        contexts.append(context)
        pg = context.new_page()
        pg.set_default_timeout(15_000)
        pg.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
        pg.on("pageerror", lambda e: problems.append(str(e)))
        return pg

    yield open_page
    for c in contexts:
        c.close()
    assert not problems, problems


@pytest.fixture(scope="module")
def run_tokens(server):
    """The stepper tokens after each decision of the Tollbooth / Ice Wall run (test_trace_lines)."""
    import json
    import urllib.request

    def post(path: str, data: dict) -> dict:
        req = urllib.request.Request(
            server + path, data=json.dumps(data).encode(), headers={"Content-Type": "application/json"}
        )
        with urllib.request.urlopen(req) as r:
            return json.load(r)

    st = post(
        "/api/engine/sessions",
        {"board": tollbooth_board(), "structure": "run", "params": {"server": "remote1"}},
    )
    tokens = []
    for pick in PICKS:
        st = post(f"/api/engine/sessions/{st['token']}/decisions", {"decision": pick})
        tokens.append(st["token"])
    return tokens


def test_header_is_one_row_and_the_menu_holds_the_site_links(phone, server):
    pg = phone()
    pg.goto(server + "/r/6.9.4c")
    header = pg.locator("header.top").bounding_box()
    assert header["height"] <= 70, header  # was 113 px in two rows
    boxes = [
        pg.locator(s).bounding_box() for s in (".brand", "#q", ".searchform button", "#navmenu > summary")
    ]
    middles = [b["y"] + b["height"] / 2 for b in boxes]
    assert max(middles) - min(middles) < 4, boxes  # one row
    assert all(b["x"] + b["width"] <= PHONE["width"] for b in boxes)
    menu = pg.locator("#navmenu > summary")
    assert menu.get_attribute("aria-label").startswith("Menu")
    expect(pg.locator(".topnav a", has_text="Changes")).to_be_hidden()
    menu.tap()
    for name in ("Board", "Whole CR", "Changes", "Judges' documents"):
        link = pg.locator(".topnav a", has_text=name)
        expect(link).to_be_visible()
        assert link.bounding_box()["height"] >= TAP
    # the open menu lies over the page: the header keeps its height
    assert pg.locator("header.top").bounding_box()["height"] == header["height"]
    pg.locator(".topnav a", has_text="Changes").tap()
    pg.wait_for_url("**/changes/*..*")
    expect(pg.locator("h1")).to_contain_text("What changed")
    # a tap outside closes the menu; Escape too
    pg.locator("#navmenu > summary").tap()
    expect(pg.locator(".topnav a", has_text="Board")).to_be_visible()
    pg.touchscreen.tap(20, 700)  # the page's left edge, clear of the menu
    expect(pg.locator(".topnav a", has_text="Board")).to_be_hidden()
    pg.locator("#navmenu > summary").tap()
    pg.keyboard.press("Escape")
    expect(pg.locator(".topnav a", has_text="Board")).to_be_hidden()


def test_header_links_in_the_row_on_a_desktop(browser, server):  # noqa: F811
    context = browser.new_context(viewport={"width": 1366, "height": 900})
    pg = context.new_page()
    try:
        pg.goto(server + "/")
        expect(pg.locator("#navmenu > summary")).to_be_hidden()
        for name in ("Board", "Whole CR", "Changes", "Judges' documents"):
            expect(pg.locator(".topnav a", has_text=name)).to_be_visible()
        assert pg.locator("header.top").bounding_box()["height"] <= 70
    finally:
        context.close()


def test_suggestions_two_lines_and_announced(phone, server):
    pg = phone()
    pg.goto(server + "/")
    pg.fill("#q", "pay credits to trash")
    pg.wait_for_selector(".suggest li a")
    n = pg.locator(".suggest li[role=option]").count()
    assert n >= 3
    expect(pg.locator("#suggest-status")).to_have_text(f"{n} suggestions, ↑ ↓ to pick")
    assert pg.locator("#suggest-status").get_attribute("aria-live") == "polite"
    for snip in pg.locator(".suggest .snip").all():
        lh = float(snip.evaluate("e => parseFloat(getComputedStyle(e).lineHeight)"))
        assert snip.bounding_box()["height"] <= 2 * lh + 1
    # more suggestions fit above a phone keyboard (about half the screen)
    fits = pg.evaluate(
        "() => [...document.querySelectorAll('.suggest li[role=option]')].filter(li => li.getBoundingClientRect().bottom <= 844 / 2).length"
    )
    assert fits >= 2, fits
    pg.fill("#q", "zzqqxxnotaword")
    expect(pg.locator("#suggest-status")).to_have_text("No suggestions: press Enter for a full search")


def test_dense_lists_have_44px_targets(phone, server):
    pg = phone()
    for url, selector in (
        ("/changes/25.08..26.03", "#jump a, #unmentioned a"),
        ("/j/", "main ul.dense a"),
        ("/j/timing-structure-of-a-run.encounter-ice-phase", "#timing-map a.ref, #judge-cites a.ref"),
    ):
        pg.goto(server + url)
        small = pg.eval_on_selector_all(
            selector,
            """(els, min) => els.filter(e => e.checkVisibility()).map(e => {
                const r = e.getBoundingClientRect();
                return r.height < min || r.width < min ? `${e.textContent.trim()} ${r.width}x${r.height}` : null;
            }).filter(Boolean)""",
            TAP,
        )
        assert pg.locator(selector).count() > 5 and not small, (url, small[:5])


def test_changes_chapter_opens_from_its_anchor_and_is_highlighted(phone, server):
    pg = phone()
    pg.goto(server + "/changes/25.08..26.03")
    first = pg.locator("#unmentioned li a.ref").first
    target = first.get_attribute("href")
    assert not pg.locator(target).is_visible()  # inside a folded chapter
    first.tap()
    expect(pg.locator(target)).to_be_visible()
    bg = pg.locator(target).evaluate("e => getComputedStyle(e).backgroundColor")
    assert bg not in ("rgba(0, 0, 0, 0)", "transparent"), bg  # :target highlight


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_passed_ice_text_meets_contrast(phone, server, run_tokens, scheme):
    pg = phone(scheme)
    pg.goto(server + f"/step?s={run_tokens[6]}")  # moved on to Ice Wall: Tollbooth is passed
    passed = pg.locator(".ic.is-passed")
    expect(passed).to_have_count(1)
    for part in (
        passed.locator("b").first,
        passed.locator(".pl"),
        passed.locator(".subs li").first,
        passed.locator(".tag"),
    ):
        ratio = part.evaluate(CONTRAST)
        assert ratio >= 4.5, (scheme, part.inner_text(), ratio)
    pg.screenshot(path=f"test-artifacts/browser/passed-ice-{scheme}.png")


def test_trace_within_its_budget_and_every_step_one_tap_away(phone, server, run_tokens):
    pg = phone()
    for token in run_tokens:
        pg.goto(server + f"/step?s={token}")
        lines = pg.evaluate(VISIBLE_LINES)
        assert 0 < lines <= 40, lines
    # the pumps' line opens on its steps
    pg.goto(server + f"/step?s={run_tokens[5]}")
    pump = pg.locator("li.ln-ability", has_text="+5 strength").first
    said = pump.locator("summary").evaluate(
        "s => { const c = s.cloneNode(true); c.querySelectorAll('.sym').forEach(e => e.remove()); return c.innerText; }"
    )
    assert said.startswith("Crypsis +5 strength, paid 5 (5 uses)"), said
    glyph = pump.locator("summary .sym-credit").evaluate("e => getComputedStyle(e, '::before').content")
    assert glyph == '"¢"', glyph
    expect(pump.locator("ol.tl > li").first).to_be_hidden()
    pump.locator("summary").tap()
    expect(pump.locator("ol.tl > li").first).to_be_visible()
    assert pump.locator("ol.tl > li").count() == 100


def test_no_raw_symbols_or_board_keys_in_what_scripts_draw(phone, server, run_tokens):
    """The server's pages are swept in test_textfmt; here what the browser shows after scripts
    ran (the editor's picture, the stepper), as the reader sees it (glyph spans drawn by CSS)."""
    pg = phone()
    text_of = """() => { const c = document.querySelector('main').cloneNode(true);
        c.querySelectorAll('.sym, code, textarea, script, template, [hidden]').forEach(e => e.remove());
        return c.innerText; }"""
    for url in (
        "/editor?example=rig-run",
        "/editor?example=02-remote-agenda",
        f"/step?s={run_tokens[5]}",
        f"/step?s={run_tokens[-1]}",
    ):
        pg.goto(server + url)
        pg.wait_for_load_state("networkidle")
        text = pg.evaluate(text_of)
        for raw in ("[credit]", "[click]", "[subroutine]", "remote1", "credit(s)", "(1 credits)"):
            assert raw not in text, (url, raw, text[max(text.find(raw) - 80, 0) : text.find(raw) + 40])


def test_home_offers_the_offline_save_on_the_first_screen(phone, server):
    pg = phone()
    pg.goto(server + "/")
    button = pg.locator("#offline-ctl .save-offline")
    expect(button).to_be_visible()
    box = button.bounding_box()
    assert box["y"] + box["height"] <= PHONE["height"] and box["height"] >= TAP, box
    assert pg.locator("footer #offline-ctl").count() == 0  # one control, at the top
