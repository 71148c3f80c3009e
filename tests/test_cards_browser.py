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
