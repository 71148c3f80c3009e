"""Sharing the stepper at the table on a phone (390x844, headless Chromium against a real
gunicorn with two workers): Share opens the browser's share sheet (navigator.share, recorded by a
stand-in the page is given, as a phone's browser would provide it) with a short link that opens
the same position; without a share sheet the short link is copied; without JavaScript a form
makes it; the trace keeps its line budget; the print view fits the page's width."""

from __future__ import annotations

import re

import pytest
from test_browser import ARTIFACTS, browser, serve, sync_api  # noqa: F401  (shared fixtures)
from test_browser_phone import VISIBLE_LINES, run_tokens  # noqa: F401  (shared fixture)

expect = sync_api.expect
PHONE = {"width": 390, "height": 844}
SHORT = re.compile(r"^http://127\.0\.0\.1:\d+/s/[a-z2-7]{12}$")
# what a phone's browser provides: navigator.share, recorded here so the test sees its call
FAKE_SHARE = """
window.__shared = [];
Object.defineProperty(Navigator.prototype, 'share', {configurable: true, value: function (data) {
  window.__shared.push(JSON.parse(JSON.stringify(data))); return Promise.resolve(); }});
Object.defineProperty(Navigator.prototype, 'canShare', {configurable: true, value: function () { return true; }});
"""
NO_SHARE = "delete Navigator.prototype.share; delete Navigator.prototype.canShare;"


@pytest.fixture(scope="module")
def server(build_dir):
    yield from serve(build_dir, "gunicorn-share.log")


@pytest.fixture()
def phone(browser):  # noqa: F811
    contexts = []
    problems: list[str] = []

    def open_page(init: str | None = None, **options):
        context = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True, **options)
        if init:
            context.add_init_script(init)
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


def test_share_opens_the_share_sheet_with_a_short_link(phone, server, run_tokens):  # noqa: F811
    token = run_tokens[5]
    pg = phone(FAKE_SHARE)
    pg.goto(server + f"/step?s={token}")
    expect(pg.locator("#share button.share-sheet")).to_be_visible()  # the browser has a sheet
    pg.locator("#share-now").tap()
    pg.wait_for_function("window.__shared.length > 0")
    shared = pg.evaluate("window.__shared")
    assert len(shared) == 1, shared
    call = shared[0]
    assert SHORT.match(call["url"]), call
    assert call["title"] == "Run on Server 1"
    assert call["text"].startswith("Run on Server 1, CR ") and "[credit]" not in call["text"]
    assert token not in call["text"]  # the link travels as the url, once
    # the page shows the short link it shared, and the summary names it
    expect(pg.locator("#share-url")).to_have_value(call["url"])
    assert pg.locator("#share-summary").input_value().endswith(call["url"])
    pg.screenshot(path=str(ARTIFACTS / "share-sheet-390.png"))
    # the short link opens the same position (on either worker)
    for _ in range(2):
        other = phone()
        other.goto(call["url"])
        assert other.url == server + f"/step?s={token}"
        expect(other.locator("#share-url")).to_have_value(call["url"])
        expect(other.locator("h1")).to_contain_text("Run on Server 1")


def test_without_a_share_sheet_the_short_link_is_copied(phone, server, run_tokens):  # noqa: F811
    pg = phone(NO_SHARE, permissions=["clipboard-read", "clipboard-write"])
    pg.goto(server + f"/step?s={run_tokens[2]}")
    expect(pg.locator("#share button.share-sheet")).to_be_hidden()
    pg.locator("#share-now").tap()
    expect(pg.locator("#share-status")).to_contain_text("Link copied")
    copied = pg.evaluate("navigator.clipboard.readText()")
    assert SHORT.match(copied), copied
    expect(pg.locator("#share-url")).to_have_value(copied)
    assert pg.locator("#share-status").is_visible()  # the reader is shown where it went
    # a decision in place: the new position's share section works the same
    pg.locator("#decisions button").first.tap()
    pg.wait_for_url(re.compile(r"/step\?s="))
    expect(pg.locator("#short-make")).to_be_visible()
    pg.locator("#share button.copylink").tap()
    expect(pg.locator("#share-status")).to_contain_text("Link copied")
    second = pg.evaluate("navigator.clipboard.readText()")
    assert SHORT.match(second) and second != copied


def test_short_link_without_javascript(browser, server, run_tokens):  # noqa: F811
    context = browser.new_context(java_script_enabled=False, viewport=PHONE)
    try:
        pg = context.new_page()
        pg.goto(server + f"/step?s={run_tokens[3]}")
        expect(pg.locator("#share-url")).to_have_value(re.compile(r"/step\?s="))
        pg.locator("#short-make").click()
        expect(pg.locator("#share-url")).to_have_value(SHORT)
        short = pg.locator("#share-url").input_value()
        pg.goto(short)
        assert pg.url == server + f"/step?s={run_tokens[3]}"
    finally:
        context.close()


def test_trace_budget_at_every_decision(phone, server, run_tokens):  # noqa: F811
    pg = phone()
    counts = []
    for token in run_tokens:
        pg.goto(server + f"/step?s={token}")
        counts.append(pg.evaluate(VISIBLE_LINES))
    assert all(0 < n <= 40 for n in counts), counts


@pytest.mark.parametrize("width", [390, 794, 1366])
def test_print_view_fits_the_page(browser, server, run_tokens, width):  # noqa: F811
    """794 px: an A4 page at 96 dpi. Printed (print media) and the ?print=1 view on screen."""
    context = browser.new_context(viewport={"width": width, "height": 900})
    try:
        pg = context.new_page()
        for url, media in (
            (f"/step?s={run_tokens[-1]}", "print"),
            (f"/step?s={run_tokens[-1]}&print=1", "screen"),
        ):
            pg.emulate_media(media=media)
            pg.goto(server + url)
            wide = pg.evaluate(
                """(w) => [document.documentElement.scrollWidth,
                    [...document.querySelectorAll('main *')].filter(e => e.getBoundingClientRect().right > w + 1)
                      .map(e => e.nodeName + '.' + e.className).slice(0, 5)]""",
                width,
            )
            assert wide[0] <= width and not wide[1], (url, media, wide)
            if media == "print":
                expect(pg.locator(".share")).to_be_hidden()
                expect(pg.locator(".decisions")).to_have_count(0)  # finished: nothing to decide
    finally:
        context.close()
