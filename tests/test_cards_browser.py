"""A card found from the site search box, in headless Chromium on a phone (390x844): search by
name, open the card hit, follow a rule that mentions the card, come back. Reuses the browser,
server helper and screenshot folder of tests/test_browser.py."""

from __future__ import annotations

import pytest
from test_browser import ARTIFACTS, browser, page, serve  # noqa: F401  (shared fixtures)


@pytest.fixture(scope="module")
def card_server(cards_built):
    """A server whose build has the NetrunnerDB card data."""
    yield from serve(cards_built, "gunicorn-cards-browser.log")


def test_find_card_in_search_follow_rule_and_come_back(page, card_server):  # noqa: F811
    page.goto(card_server + "/")
    page.fill(".q", "Snare")
    hit = page.locator('.suggest li a[href="/c/snare"]')
    hit.wait_for()
    # the card hit is labelled with its source, beside the rule hits
    assert hit.locator(".src-cards").inner_text().lower() == "cards"
    assert "Snare!" in hit.inner_text()
    page.screenshot(path=str(ARTIFACTS / "card-search-suggestions.png"), full_page=False)
    hit.click()
    page.wait_for_url("**/c/snare")
    assert page.locator("article.card-page h1").inner_text() == "Snare!"
    text = page.locator("#card-text").inner_text()
    assert "net damage" in text.lower(), text
    page.screenshot(path=str(ARTIFACTS / "card-page.png"), full_page=False)

    rule_link = page.locator("#card-rules a.ref").first
    rule_id = rule_link.get_attribute("data-id")
    number = rule_link.inner_text()
    assert rule_id
    rule_link.click()
    page.wait_for_url(f"**/id/{rule_id}")
    rule = page.locator("article.rule")
    if number != "Example":
        assert rule.locator("h1 .num").inner_text() == number
    # the rule page really is one that mentions the card
    assert "Snare!" in rule.inner_text()
    page.screenshot(path=str(ARTIFACTS / "card-rule.png"), full_page=False)

    page.go_back()
    page.wait_for_url("**/c/snare")
    assert page.locator("article.card-page h1").inner_text() == "Snare!"


def test_tap_a_card_keyword_and_read_its_rule(browser, card_server):  # noqa: F811
    """On a phone, a keyword of the card text ("net damage") opens the rule defining it in the
    bottom sheet, without leaving the card page."""
    context = browser.new_context(
        viewport={"width": 390, "height": 844}, device_scale_factor=1, is_mobile=True, has_touch=True
    )
    pg = context.new_page()
    pg.set_default_timeout(15_000)
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    try:
        pg.goto(card_server + "/c/snare")
        keyword = pg.locator("#card-text a.kw", has_text="net damage")
        href = keyword.get_attribute("href")
        keyword.tap()
        sheet = pg.locator(".sheet[role=dialog]")
        sheet.wait_for()
        assert pg.url.endswith("/c/snare")
        number = keyword.get_attribute("title").split(":")[0].removeprefix("CR ")
        assert sheet.locator("h2 .num").inner_text() == number
        assert "net damage" in sheet.locator(".sheet-text").inner_text().lower()
        assert sheet.locator(".sheet-open").get_attribute("href") == href
        pg.screenshot(path=str(ARTIFACTS / "card-keyword-preview-phone.png"))
    finally:
        context.close()
    assert not errors, errors


def test_coverage_page_on_a_phone_and_into_a_card(page, card_server):  # noqa: F811
    """/cards/coverage at 390x844: the page does not scroll sideways, the table scrolls in its own
    box with the card type column kept in view; a card of the list opens its page, whose "In the
    stepper" says what a judge does by hand."""
    page.goto(card_server + "/cards/coverage")
    width = page.evaluate("[document.documentElement.scrollWidth, document.documentElement.clientWidth]")
    assert width[0] <= width[1], width
    box = page.locator(".tablebox")
    inner, outer = box.evaluate("b => [b.scrollWidth, b.clientWidth]")
    assert inner > outer  # the table's columns do not fit a phone: they scroll inside the box
    first = page.locator("#cov-table tbody th[scope=row]").first
    x0 = first.bounding_box()["x"]
    box.evaluate("b => { b.scrollLeft = b.scrollWidth; }")
    assert abs(first.bounding_box()["x"] - x0) < 1  # the type column stays in view
    assert page.locator("#cov-table thead th").last.is_visible()
    page.screenshot(path=str(ARTIFACTS / "card-coverage-phone.png"))
    link = page.locator('.cov-cards a[href="/c/anvil"]')
    link.scroll_into_view_if_needed()
    link.click()
    page.wait_for_url("**/c/anvil")
    hand = page.locator("#engine-units .unit.st-by_hand .says")
    assert hand.first.inner_text() == "a judge resolves it by hand when the Runner encounters this ice"
    assert page.locator("#engine-summary").inner_text().startswith("By hand: 1")
    assert page.evaluate("document.documentElement.scrollWidth <= document.documentElement.clientWidth")
