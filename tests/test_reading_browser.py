"""Reading on a phone in headless Chromium (as test_browser.py runs it): previews on tap in a
bottom sheet, dark mode, keyboard-only search and tap target sizes. Screenshots go to
test-artifacts/browser/."""

from __future__ import annotations

from playwright.sync_api import expect
from test_browser import ARTIFACTS, CHROMIUM, CHROMIUM_ARGS, browser, page, server  # noqa: F401 - fixtures

PHONE = {
    "viewport": {"width": 390, "height": 844},
    "device_scale_factor": 1,
    "is_mobile": True,
    "has_touch": True,
}
# Controls outside running text (links inside a rule's sentences are exempt, as in WCAG 2.5.8).
TARGETS_JS = """() => { const out = [];
  document.querySelectorAll('a[href], button, input:not([type=hidden]), summary, select').forEach(e => {
    const r = e.getBoundingClientRect();
    if (!r.width || !e.checkVisibility()) return;
    if (e.closest('.text, .sub, .example, .snip, p.context, .sheet-text, .intro, .lead')) return;
    out.push([(e.textContent || e.value || e.tagName).trim().slice(0, 30), r.width, r.height]); });
  return out; }"""


def luminance(rgb: str) -> float:
    r, g, b = (int(x) for x in rgb[rgb.index("(") + 1 : rgb.index(")")].split(",")[:3])
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def phone(browser, **extra):  # noqa: F811
    context = browser.new_context(**PHONE, **extra)
    pg = context.new_page()
    pg.set_default_timeout(15_000)
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    pg.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    return context, pg, errors


def test_tap_a_reference_and_read_it_without_leaving(browser, server, library):  # noqa: F811
    context, pg, errors = phone(browser)
    try:
        pg.goto(server + "/r/6.9.4c")
        target = library.document("26.03").node("rule_sec_run_run_ends_phase")
        pg.locator('article.rule .text a.ref[data-id="rule_sec_run_run_ends_phase"]').tap()
        sheet = pg.locator(".sheet[role=dialog]")
        sheet.wait_for()
        assert pg.url.endswith("/r/6.9.4c")  # still on the same page
        assert sheet.locator("h2 .num").inner_text() == target.number
        assert target.title in sheet.locator("h2").inner_text()
        assert sheet.locator(".sheet-open").get_attribute("href") == "/id/rule_sec_run_run_ends_phase"
        assert pg.evaluate("document.activeElement.id") == "sheet-title"
        # a rule that is only a heading shows its sub-rules' text
        child = next(c for c in library.document("26.03").children(target.id) if c.kind != "example")
        pg.wait_for_selector(".sheet .sheet-kids")
        assert child.text[:40] in sheet.locator(".sheet-kids").inner_text()
        pg.screenshot(path=str(ARTIFACTS / "tap-preview-phone.png"))
        # a "Cited by" entry and an in-text step reference ("continue to (d)") preview too
        pg.locator(".sheet-close").tap()
        assert sheet.count() == 0
        pg.locator('article.rule .text a.step-ref[data-id="step_move_position"]').tap()
        sheet.wait_for()
        assert (
            sheet.locator("h2 .num").inner_text()
            == library.document("26.03").node("step_move_position").number
        )
        pg.keyboard.press("Escape")
        assert sheet.count() == 0
        pg.goto(server + "/r/6.9.6")
        first = pg.locator("#cited-by a.ref").first
        number = first.inner_text()
        first.tap()
        sheet.wait_for()
        assert sheet.locator("h2 .num").inner_text() == number
        assert pg.url.endswith("/r/6.9.6")
        # the sheet's own link opens the rule
        sheet.locator(".sheet-open").tap()
        pg.wait_for_url("**/id/**")
        assert pg.locator("article.rule h1 .num").inner_text() == number
    finally:
        context.close()
    assert not errors, errors


def test_dark_mode_follows_the_system_and_the_toggle(browser, server):  # noqa: F811
    context, pg, errors = phone(browser, color_scheme="dark")
    try:
        pg.goto(server + "/r/6.9.4c")
        bg = pg.evaluate("getComputedStyle(document.body).backgroundColor")
        fg = pg.evaluate("getComputedStyle(document.body).color")
        assert luminance(bg) < 40 < 180 < luminance(fg)
        pg.screenshot(path=str(ARTIFACTS / "dark-rule-phone.png"))
        # the toggle: dark (explicit) -> light, kept on the device across pages (on a phone it is
        # in the site menu, which keeps the header to one row)
        pg.locator("#navmenu > summary").tap()
        toggle = pg.locator("#theme")
        toggle.tap()
        assert pg.evaluate("document.documentElement.dataset.theme") == "dark"
        toggle.tap()
        assert pg.evaluate("document.documentElement.dataset.theme") == "light"
        pg.goto(server + "/all")
        assert pg.evaluate("document.documentElement.dataset.theme") == "light"
        assert luminance(pg.evaluate("getComputedStyle(document.body).backgroundColor")) > 240
        pg.locator("#navmenu > summary").tap()
        toggle = pg.locator("#theme")
        toggle.tap()  # back to the system's (dark)
        assert pg.evaluate("document.documentElement.dataset.theme") is None
        assert luminance(pg.evaluate("getComputedStyle(document.body).backgroundColor")) < 40
    finally:
        context.close()
    desk = browser.new_context(viewport={"width": 1280, "height": 900}, color_scheme="dark")
    pg = desk.new_page()
    pg.goto(server + "/all#step_jack_out_choice")
    assert pg.locator("#toc").evaluate("d => d.open")  # contents open beside the text
    box = pg.locator("#step_jack_out_choice").bounding_box()
    header = pg.locator("header.top").bounding_box()
    assert box["y"] >= header["y"] + header["height"]  # the anchor clears the sticky header
    pg.screenshot(path=str(ARTIFACTS / "dark-all-desktop.png"))
    desk.close()
    assert not errors, errors


def test_keyboard_only_search(page, server):  # noqa: F811
    page.goto(server + "/r/6.9.6")
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.className") == "skip"
    page.keyboard.press("Enter")
    assert page.evaluate("document.activeElement.id") == "main"
    page.keyboard.press("/")
    assert page.evaluate("document.activeElement.id") == "q"
    page.keyboard.type("jack out")
    page.wait_for_selector("#suggest li[role=option]")
    q = page.locator("#q")
    assert q.get_attribute("aria-expanded") == "true"
    page.keyboard.press("ArrowDown")
    page.keyboard.press("ArrowDown")
    active = q.get_attribute("aria-activedescendant")
    chosen = page.locator(f"#{active}")
    assert chosen.get_attribute("aria-selected") == "true"
    expected = chosen.locator(".num").inner_text()
    page.screenshot(path=str(ARTIFACTS / "keyboard-search-phone.png"))
    page.keyboard.press("Enter")
    page.wait_for_url("**/id/**")
    assert page.locator("article.rule h1 .num").inner_text() == expected
    # Escape closes the list; "/" typed inside the box is just text
    page.keyboard.press("/")
    page.keyboard.type("6.9.4z")
    page.wait_for_selector("#q[aria-expanded=true]")
    page.keyboard.press("Escape")
    assert page.locator("#q").get_attribute("aria-expanded") == "false"
    page.keyboard.press("Enter")
    page.wait_for_url("**/search?q=6.9.4z**")
    assert "6.9.4h" in page.locator("#suggestions").inner_text()


def test_tap_targets_are_large_enough(browser, server):  # noqa: F811
    context, pg, errors = phone(browser)
    try:
        for path in ("/r/6.9.4c", "/", "/all", "/search?q=jack+out"):
            pg.goto(server + path)
            small = [t for t in pg.evaluate(TARGETS_JS) if t[2] < 44 or t[1] < 24]
            assert not small, (path, small)
    finally:
        context.close()
    assert not errors, errors


def test_recent_and_bookmarked_rules_are_kept_on_the_device(page, server):  # noqa: F811
    page.goto(server + "/r/6.9.6")
    page.goto(server + "/r/6.9.4c")
    mark = page.locator("button.bookmark")
    assert mark.get_attribute("aria-pressed") == "false"
    mark.click()
    assert mark.get_attribute("aria-pressed") == "true"
    page.goto(server + "/")
    recent = page.locator("#recent li a")
    assert recent.count() == 2
    assert recent.nth(0).inner_text().startswith("6.9.4c") and recent.nth(1).inner_text().startswith("6.9.6")
    assert page.locator("#bookmarks li a").all_inner_texts()[0].startswith("6.9.4c")
    page.screenshot(path=str(ARTIFACTS / "home-recent-phone.png"))
    page.locator("#bookmarks li a").first.click()
    page.wait_for_url("**/r/6.9.4c")
    page.locator("button.bookmark").click()  # un-bookmark
    page.goto(server + "/")
    assert page.locator("#bookmarks").count() == 0 and page.locator("#recent li").count() == 2


def test_tap_a_defined_term_and_read_its_definition(browser, server, library):  # noqa: F811
    """A defined term opens its definition (and the rules using it) in the sheet on a tap, and
    in a tooltip on keyboard focus, without leaving the page."""
    doc = library.document("26.03")
    answer = library.graph("26.03").rules_for_term("paid ability")
    definition = doc.node(answer["defines"][0]["id"])
    context, pg, errors = phone(browser)
    try:
        pg.goto(server + "/r/9.5")
        term = pg.locator("span.term", has_text="paid ability").first
        assert term.get_attribute("role") == "button" and term.get_attribute("tabindex") == "0"
        term.tap()
        sheet = pg.locator(".sheet[role=dialog]")
        sheet.wait_for()
        assert pg.url.endswith("/r/9.5")  # still on the same page
        assert "paid ability" in sheet.locator("h2").inner_text().lower()
        assert sheet.locator(".sheet-def .num").first.inner_text() == definition.number
        assert " ".join(definition.text.split())[:50] in " ".join(
            sheet.locator(".sheet-def").first.inner_text().split()
        )
        assert f"Used in {len(answer['uses'])} other rules" in sheet.locator(".sheet-uses").inner_text()
        assert sheet.locator(".sheet-uses a.ref").count() == min(12, len(answer["uses"]))
        assert sheet.locator(".sheet-open").get_attribute("href") == f"/id/{definition.id}"
        pg.screenshot(path=str(ARTIFACTS / "term-preview-phone.png"))
        # a rule using the term previews in turn
        first_use = answer["uses"][0]
        sheet.locator(f'.sheet-uses a.ref[data-id="{first_use["id"]}"]').tap()
        # (a locator wait, not wait_for_function: the page's CSP forbids evaluating strings)
        expect(pg.locator(".sheet h2 .num")).to_have_text(first_use["number"])
        assert pg.url.endswith("/r/9.5")
    finally:
        context.close()
    assert not errors, errors
    desk = browser.new_context(viewport={"width": 1366, "height": 900})
    pg = desk.new_page()
    try:
        pg.goto(server + "/r/9.5")
        pg.locator("span.term", has_text="paid ability").first.focus()
        tip = pg.locator(".preview[role=tooltip]")
        tip.wait_for()
        assert tip.locator("b").inner_text() == definition.number
        assert " ".join(definition.text.split())[:50] in " ".join(tip.inner_text().split())
        pg.keyboard.press("Enter")  # Enter opens the whole sheet
        pg.locator(".sheet .sheet-def").wait_for()
        pg.screenshot(path=str(ARTIFACTS / "term-preview-desktop.png"))
    finally:
        desk.close()
