"""Browser tests: headless Chromium (Debian's `chromium`, driven by Playwright with
`executable_path`; never `playwright install`) against a real gunicorn server process.

Screenshots are saved under test-artifacts/browser/. Skipped when Chromium or Playwright is
missing (CI installs Chromium with apt in .ci/run).
"""

from __future__ import annotations

import json
import os
import shutil
import time
from pathlib import Path

import pytest
from playwright import sync_api

from webapp.liveserver import live_server

ROOT = Path(__file__).resolve().parent.parent
ARTIFACTS = ROOT / "test-artifacts" / "browser"
CHROMIUM = os.environ.get("NRRULES_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless=new",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]

expect = sync_api.expect
if not Path(CHROMIUM).exists() and not shutil.which("chromium"):
    pytest.skip("Debian's chromium is not installed (apt-get install chromium)", allow_module_level=True)


def serve(build_dir, log_name: str = "gunicorn.log"):
    """A real gunicorn serving `build_dir` (webapp.liveserver): yields its base URL, stops it after."""
    env = {"SECRET_KEY": "browser-test-key-of-at-least-32-bytes"}
    with live_server(build_dir, workers=2, threads=4, env=env, log=ARTIFACTS / log_name) as srv:
        yield srv.base


@pytest.fixture(scope="module")
def server(build_dir):
    yield from serve(build_dir)


@pytest.fixture(scope="module")
def browser():
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(
            executable_path=CHROMIUM if Path(CHROMIUM).exists() else shutil.which("chromium"),
            args=CHROMIUM_ARGS,
        )
        yield b
        b.close()


@pytest.fixture()
def page(browser, request):
    context = browser.new_context(viewport={"width": 390, "height": 844}, device_scale_factor=1)
    pg = context.new_page()
    pg.set_default_timeout(15_000)
    problems: list[str] = []

    def on_console(m) -> None:
        if m.type == "error":
            problems.append(f"{m.text} at {m.location.get('url')}")

    def on_response(r) -> None:
        if r.status >= 400:
            problems.append(f"HTTP {r.status} for {r.url}")

    pg.on("console", on_console)
    pg.on("response", on_response)
    pg.on("pageerror", lambda e: problems.append(str(e)))
    yield pg
    pg.screenshot(path=str(ARTIFACTS / f"{request.node.name}-end.png"), full_page=True)
    context.close()
    # No script errors and no Content-Security-Policy violations on any page a test visited.
    assert not problems, problems


def shot(page, name: str) -> None:
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=False)


def test_search_as_you_type_and_open_rule(page, server):
    page.goto(server + "/")
    page.fill(".q", "jack out")
    page.wait_for_selector(".suggest li a")
    items = page.locator(".suggest li a")
    assert items.count() >= 3
    assert page.locator(".suggest mark").count() > 0
    shot(page, "search-suggestions")
    # on a phone the list uses the screen's width, under the header, not the narrow box's
    box = page.locator(".suggest").bounding_box()
    header = page.locator("header.top").bounding_box()
    assert box["width"] >= 390 - 2 * 16 and box["y"] >= header["y"] + header["height"] - 1
    page.keyboard.press("ArrowDown")
    page.keyboard.press("ArrowDown")
    assert page.locator('.suggest li[aria-selected="true"]').count() == 1
    expected = page.locator('.suggest li[aria-selected="true"] .num').inner_text()
    page.keyboard.press("Enter")
    page.wait_for_url("**/id/**")
    assert page.locator("article.rule h1 .num").inner_text() == expected
    # a number jumps straight to its rule
    page.fill(".q", "6.9.4c")
    page.keyboard.press("Enter")
    page.wait_for_url("**/id/step_jack_out_choice")
    assert "choose to jack out" in page.locator("article.rule .text").inner_text()


def test_follow_cross_reference_with_preview_and_come_back(page, server):
    page.goto(server + "/r/6.9.4c")
    link = page.locator('article.rule .text a.ref[data-id="rule_sec_run_run_ends_phase"]')
    link.hover()
    preview = page.wait_for_selector(".preview")
    assert "6.9.6" in preview.inner_text()
    shot(page, "hover-preview")
    link.click()
    page.wait_for_url("**/id/rule_sec_run_run_ends_phase")
    assert page.locator("article.rule h1 .num").inner_text() == "6.9.6"
    page.go_back()
    page.wait_for_url("**/r/6.9.4c")
    assert page.locator("article.rule h1 .num").inner_text() == "6.9.4c"


def test_switch_version(page, server, documents):
    page.goto(server + "/id/step_jack_out_choice")
    page.locator('#versions a[data-version="22.12"]').click()
    page.wait_for_url("**/id/step_jack_out_choice?v=22.12")
    assert (
        page.locator("article.rule h1 .num").inner_text()
        == documents["22.12"].node("step_jack_out_choice").number
    )
    assert "CR 22.12" in page.locator(".crumbs").inner_text()
    # search from an old version stays in that version
    page.fill(".q", "jack out")
    page.wait_for_selector(".suggest li a")
    assert page.locator(".suggest li a").first.get_attribute("href").endswith("?v=22.12")


def test_graph_drawn_from_vendored_library(page, server):
    page.goto(server + "/r/6.9.4c")
    page.click("#graph summary")
    page.wait_for_selector("#graph[data-drawn='1']")
    assert page.locator("#cy canvas").count() > 0
    assert "nodes" in page.locator("#graph .gstat").inner_text()
    page.click("#graph button[data-k='2']")
    page.wait_for_selector("#graph[data-drawn='2']")
    shot(page, "rule-graph")
    # the graph's colours follow the theme: labels in the page's text colour, light or dark
    label = "() => document.getElementById('cy')._cyreg.cy.nodes()[0].style('color')"
    light = page.evaluate(label)
    page.evaluate("document.documentElement.setAttribute('data-theme', 'dark')")
    dark = page.evaluate(label)
    assert light != dark
    assert dark == page.evaluate("getComputedStyle(document.body).color").replace(" ", "")
    shot(page, "rule-graph-dark")
    page.evaluate("document.documentElement.removeAttribute('data-theme')")
    assert page.evaluate(label) == light
    copy = page.locator("button.copy")
    assert copy.is_visible()


def test_rule_page_readable_without_javascript(browser, server):
    context = browser.new_context(java_script_enabled=False, viewport={"width": 390, "height": 844})
    pg = context.new_page()
    pg.goto(server + "/r/6.9")
    assert "Steps of a Run" in pg.locator("article.rule h1").inner_text()
    assert pg.locator("#step_jack_out_choice").is_visible()
    assert not pg.locator("button.copy").is_visible()
    pg.screenshot(path=str(ARTIFACTS / "no-js-section.png"), full_page=False)
    context.close()


def decide(page, button) -> None:
    """Tap a decision: the next position is drawn in place (no page load), and the address bar
    follows it."""
    url = page.url
    loads: list[str] = []

    def on_request(r) -> None:
        if r.resource_type == "document":
            loads.append(r.url)

    page.on("request", on_request)
    button.click()
    page.wait_for_function("u => location.href !== u && !document.querySelector('.st[aria-busy]')", arg=url)
    page.remove_listener("request", on_request)
    assert loads == [], loads


def test_build_board_in_editor_and_step_run_to_end(page, server):
    page.goto(server + "/editor")
    page.wait_for_selector("#formroot .server[data-server='hq']")
    page.click("text=Add remote server")
    remote = page.locator(".server[data-server='remote1']")
    remote.wait_for()
    # add a piece of ice to the remote, then give it a bad rez cost: the error sits by the field
    remote.locator(".add-ice").click()
    rez = page.locator('[data-path="servers.remote1.ice[0].rez_cost"]')
    rez.fill("-3")
    err = page.locator('.ferr[data-for="servers.remote1.ice[0].rez_cost"]')
    expect(err).to_contain_text("non-negative")
    expect(page.locator(".field.bad")).to_have_count(1)
    shot(page, "editor-field-error")
    rez.fill("2")
    expect(page.locator("#valid-status")).to_have_text("Board is valid.")
    expect(err).to_have_text("")
    page.fill('[data-path="runner.credits"]', "9")
    assert '"credits": 9' in page.locator("#boardjson").input_value()
    page.select_option("#structure", "run")
    page.select_option("#server", "remote1")
    page.click("#start")
    page.wait_for_url("**/step?s=**")
    assert "on Server 1" in page.locator("h1").inner_text()
    shot(page, "stepper-start")
    for _ in range(80):
        if page.locator("#finished").count():
            break
        buttons = page.locator("#decisions button")
        labels = [b.get_attribute("data-decision") for b in buttons.all()]
        choice = next((i for i, d in enumerate(labels) if d.startswith("break:")), 0)
        if labels[choice] == "jack_out" and len(labels) > 1:
            choice = 1
        decide(page, buttons.nth(choice))
    assert page.locator("#finished").count() == 1
    trace = page.locator("#trace li")
    assert trace.count() > 10
    shot(page, "stepper-finished")
    # a fired rule opens its text in place, with a link to its rule page
    fired = page.locator("#trace details[open] a.ref.fired").first
    number = fired.inner_text()
    fired.click()
    expect(page.locator("#rulesheet")).to_be_visible()
    expect(page.locator("#rulesheet-h")).to_contain_text(number)
    page.click("#rulesheet .sheet-go")
    page.wait_for_url("**/id/**")
    assert page.locator("article.rule h1 .num").inner_text() == number


def test_reload_and_share_stepper_url(page, browser, server):
    page.goto(server + "/editor?example=02-remote-agenda")
    page.wait_for_selector("#formroot .server[data-server='remote1']")
    page.select_option("#server", "remote1")
    page.click("#start")
    page.wait_for_url("**/step?s=**")
    for _ in range(3):
        decide(page, page.locator("#decisions button").first)
    url = page.url
    trace = page.locator("#trace").inner_text()
    current = page.locator("#current").inner_text() if page.locator("#current").count() else ""
    page.reload()
    assert page.locator("#trace").inner_text() == trace
    # a fresh browser (someone the link was shared with) sees exactly the same position
    other = browser.new_context()
    pg = other.new_page()
    pg.goto(url)
    assert pg.locator("#trace").inner_text() == trace
    assert (pg.locator("#current").inner_text() if pg.locator("#current").count() else "") == current
    pg.screenshot(path=str(ARTIFACTS / "shared-stepper.png"))
    # undo goes back exactly one decision (in place: the address follows)
    pg.click("#undo")
    expect(pg.locator(".st h1 small")).to_contain_text("2 decisions")
    assert pg.locator("#trace li").count() < page.locator("#trace li").count()
    assert pg.url != url
    other.close()


def test_editor_examples_load_and_save(page, server, tmp_path):
    page.goto(server + "/editor")
    page.wait_for_selector("#formroot .server[data-server='hq']")
    page.click("a.example-link[data-example='03-rd-trace']")
    expect(page.locator(".srv[data-server='rd'] .ic")).to_have_count(2)
    expect(page.locator('[data-path="servers.rd.ice[0].name"]')).to_have_value("Data Raven")
    # save: the downloaded file is the board in the form
    page.fill('[data-path="corp.credits"]', "21")
    # the JSON panel is folded under the picture (one tap away) when the picture is drawn
    expect(page.locator(".json-panel")).not_to_have_attribute("open", "")
    page.click(".json-panel > summary")
    with page.expect_download() as info:
        page.click("#save")
    saved = tmp_path / "saved.json"
    info.value.save_as(saved)
    board = json.loads(saved.read_text())
    assert board["corp"]["credits"] == 21
    assert board["servers"]["rd"]["ice"][1]["name"] == "Whitespace"
    # load: a board file replaces the form; a broken one is reported, not applied
    board["runner"]["tags"] = 3
    board["servers"] = {
        "archives": {"ice": [{"name": "Cell Portal", "rez_cost": 4, "subroutines": ["end_the_run"]}]}
    }
    good = tmp_path / "good.json"
    good.write_text(json.dumps(board))
    page.set_input_files("#loadfile", str(good))
    expect(page.locator('[data-path="runner.tags"]')).to_have_value("3")
    expect(page.locator('[data-path="servers.archives.ice[0].name"]')).to_have_value("Cell Portal")
    expect(page.locator(".srv[data-server='rd'] .ic")).to_have_count(0)
    bad = tmp_path / "bad.json"
    bad.write_text("{ not json")
    page.set_input_files("#loadfile", str(bad))
    # reading the file is asynchronous (FileReader): allow what the page's own default allows
    expect(page.locator("#problems")).to_contain_text("not valid JSON", timeout=15_000)
    expect(page.locator('[data-path="runner.tags"]')).to_have_value("3")


def test_editor_late_validation_answer_does_not_wipe_a_newer_error(page, server, tmp_path):
    """The server's answer for an earlier board arrives after a file that is not JSON was
    reported: the report must stay (CI failed once when the answer won that race)."""
    page.goto(server + "/editor")
    page.wait_for_selector("#formroot .server[data-server='hq']")
    held: list = []
    page.route("**/api/engine/validate", lambda route: held.append(route))
    page.fill('[data-path="corp.credits"]', "9")  # a change: the page asks the server to validate
    deadline = time.monotonic() + 15
    while not held and time.monotonic() < deadline:
        page.wait_for_timeout(100)
    assert held, "the page never asked the server to validate the changed board"
    bad = tmp_path / "bad.json"
    bad.write_text("{ not json")
    page.set_input_files("#loadfile", str(bad))
    expect(page.locator("#problems")).to_contain_text("not valid JSON")
    with page.expect_response("**/api/engine/validate"):
        for route in held:
            route.continue_()
    page.wait_for_timeout(300)  # the late answer has been handled by now
    expect(page.locator("#problems")).to_contain_text("not valid JSON")
    expect(page.locator("#valid-status")).not_to_contain_text("Board is valid")
