"""The board editor and the stepper as a judge uses them at the table: headless Chromium
(Debian's `chromium`, Playwright `executable_path`) against a real gunicorn server, on a phone
(390x844) and a desktop (1366x900). Screenshots go to test-artifacts/stepper/."""

from __future__ import annotations

import re

import pytest
from test_browser import ARTIFACTS as BROWSER_ARTIFACTS
from test_browser import browser, decide, serve, server, sync_api  # noqa: F401  (shared fixtures: one server per module)

expect = sync_api.expect
ARTIFACTS = BROWSER_ARTIFACTS.parent / "stepper"
VIEWPORTS = {"phone": (390, 844), "desktop": (1366, 900)}
TAP = 44


@pytest.fixture(params=list(VIEWPORTS))
def screen(request, browser):  # noqa: F811
    w, h = VIEWPORTS[request.param]
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    context = browser.new_context(viewport={"width": w, "height": h}, device_scale_factor=1)
    page = context.new_page()
    page.set_default_timeout(15_000)
    problems: list[str] = []
    page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: problems.append(str(e)))
    page.on("response", lambda r: problems.append(f"HTTP {r.status} {r.url}") if r.status >= 400 else None)
    yield request.param, page
    context.close()
    assert not problems, problems  # no script errors, no CSP violations, no failed requests


@pytest.fixture(scope="module")
def card_server(cards_built):
    """A server whose build has the NetrunnerDB card data (GET /api/cards...)."""
    yield from serve(cards_built, "gunicorn-cards.log")


def shot(page, name: str, full: bool = False) -> None:
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=full)


def small_targets(page, selector: str) -> list[str]:
    """Visible elements matching `selector` smaller than 44x44 CSS px."""
    return page.eval_on_selector_all(
        selector,
        """(els, min) => els.filter(e => e.offsetParent !== null).map(e => {
            const r = e.getBoundingClientRect();
            return (r.width < min || r.height < min) ? `${e.textContent.trim()} ${r.width}x${r.height}` : null;
        }).filter(Boolean)""",
        TAP,
    )


def build_board(page) -> None:
    """Two remotes, three pieces of ice, one of them rezzed, all on the picture."""
    page.click("#formroot .add-remote")
    page.click("#formroot .add-remote")
    r1 = page.locator(".srv[data-server='remote1']")
    r2 = page.locator(".srv[data-server='remote2']")
    # a new remote is at once in the list of servers to run, and selected
    expect(page.locator("#server")).to_have_value("remote2")
    r1.locator(".add-ice").click()
    r2.locator(".add-ice").click()
    r2.locator("input[data-path='servers.remote2.ice[0].name']").fill("Wall of Static")
    # the second ice goes innermost (the default, chosen beside the name box), then is moved
    # outward and back
    expect(r2.locator(".ice-at [data-side='inside']")).to_have_attribute("aria-pressed", "true")
    r2.locator(".ice-at [data-side='inside']").click()
    r2.locator(".add-ice").click()
    r2.locator("input[data-path='servers.remote2.ice[1].name']").fill("Tollbooth")
    r2.locator("[data-pos='1'] .mv-out").click()
    expect(r2.locator("[data-pos='0'] .ic-name")).to_have_text("Tollbooth")
    r2.locator("[data-pos='0'] .mv-in").click()
    expect(r2.locator(".ic .ic-name")).to_have_text(["Wall of Static", "Tollbooth"])
    expect(r2.locator(".ic .pl")).to_have_text(["outermost", "innermost"])
    # rez the innermost one; a bad field shows its error beside it
    r2.locator("[data-pos='1'] .rez").click()
    expect(r2.locator("[data-pos='1']")).to_have_class("ic rz")
    expect(r2.locator("[data-pos='0']")).to_have_class("ic unrz")
    rez = page.locator("input[data-path='servers.remote2.ice[1].rez_cost']")
    rez.fill("-1")
    expect(page.locator(".ferr[data-for='servers.remote2.ice[1].rez_cost']")).to_contain_text("non-negative")
    rez.fill("2")
    # a board made here is format version 2: the 1-credit break shortcut is offered only on ice
    # naming a break_cost (engine.rig.break_shortcut), so the rezzed ice names one and the run
    # stops at its encounter to offer the break
    page.fill("input[data-path='servers.remote2.ice[1].break_cost']", "1")
    expect(page.locator("#valid-status")).to_have_text("Board is valid.")
    assert page.locator(".srv[data-server^='remote'] .ic").count() == 3
    assert page.locator(".srv[data-server^='remote'] .ic.rz").count() == 1


def pick(ids: list[str]) -> str:
    """Do not rez, break what can be broken, never jack out."""
    for want in ("pass", "continue"):
        if want in ids and not any(i.startswith("break:") for i in ids):
            return want
    return next((i for i in ids if i.startswith("break:")), None) or next(i for i in ids if i != "jack_out")


def test_build_step_share_and_undo(screen, server, browser):  # noqa: F811
    name, page = screen
    page.goto(server + "/editor")
    page.wait_for_selector("#formroot .srv[data-server='hq']")
    build_board(page)
    shot(page, f"{name}-editor-built", full=True)
    labels = page.locator("#server option").all_inner_texts()
    assert labels == ["HQ", "R&D", "Archives", "Server 1", "Server 2"]
    page.select_option("#server", label="Server 2")
    page.click("#start")
    page.wait_for_url("**/step?s=**")
    assert page.locator("h1").inner_text().startswith("Run on Server 2")
    approached: list[tuple[str, int]] = []
    for _ in range(60):
        if page.locator("#finished").count():
            break
        assert small_targets(page, "#decisions button, a.fired, a.rl") == []
        col = page.locator(".srv[data-server='remote2']")
        # where the run stops at a piece of ice, the marker sits just above it and it is marked
        at = col.locator(".ic.is-approached, .ic.is-encountered")
        if at.count():
            expect(at).to_have_count(1)
            pos = int(at.get_attribute("data-pos"))
            state = "approached" if "is-approached" in at.get_attribute("class") else "encountered"
            assert col.locator(f"#runner-mark + .ic[data-pos='{pos}']").count() == 1
            assert (
                page.locator("#current .num")
                .inner_text()
                .startswith("6.9.2" if state == "approached" else "6.9.3")
            )
            approached.append((state, pos))
            shot(page, f"{name}-{state}-{pos}")
        ids = [b.get_attribute("data-decision") for b in page.locator("#decisions button").all()]
        decide(page, page.locator(f"#decisions button[data-decision='{pick(ids)}']"))
    assert page.locator("#finished").count() == 1
    # the unrezzed outer ice stops the run at its approach (rez?), the rezzed inner one at its encounter
    assert ("approached", 0) in approached and ("encountered", 1) in approached
    shot(page, f"{name}-finished")
    shot(page, f"{name}-finished-full", full=True)
    assert small_targets(page, "a.fired, a.rl") == []
    # a fired rule opens its text in place and closes again; the page does not change
    url = page.url
    fired = page.locator("#trace details[open] a.fired").first
    number = fired.inner_text().replace("CR", "").strip()
    fired.click()
    sheet = page.locator("#rulesheet")
    expect(sheet).to_be_visible()
    expect(page.locator("#rulesheet-h")).to_contain_text(number)
    expect(page.locator("#rulesheet .sheet-body p")).not_to_be_empty()
    shot(page, f"{name}-rule-sheet")
    # the popover (desktop) or bottom sheet (phone) is whole in the window: near the window's
    # bottom edge it opens above its link (it opened below, half off-screen)
    box, height = sheet.bounding_box(), page.viewport_size["height"]
    assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= height + 1, (box, height)
    page.click("#rulesheet .sheet-x")
    expect(sheet).to_be_hidden()
    assert page.url == url
    # opened again, the rule comes from the page's JSON cache (app.js, shared with stepper.js)
    asked: list[str] = []
    page.on("request", lambda r: asked.append(r.url) if "/api/rules/" in r.url else None)
    fired.click()
    expect(page.locator("#rulesheet-h")).to_contain_text(number)
    expect(page.locator("#rulesheet .sheet-body p")).not_to_be_empty()
    page.click("#rulesheet .sheet-x")
    expect(sheet).to_be_hidden()
    assert asked == []
    # steps that did not apply are folded, and unfold
    fold = page.locator("#trace details.tg[open] details.fold").first
    assert fold.get_attribute("open") is None
    assert not fold.locator("li").first.is_visible()
    fold.locator("summary").click()
    expect(fold.locator("li").first).to_be_visible()
    # a closed group unfolds too
    i = page.eval_on_selector_all("#trace details.tg", "els => els.findIndex(d => !d.open)")
    closed = page.locator("#trace details.tg").nth(i)
    closed.locator(":scope > summary").click()
    expect(closed.locator("li").first).to_be_visible()
    # share: the link and the summary
    share = page.locator("#share-url").input_value()
    summary = page.locator("#share-summary").input_value()
    assert summary.startswith("Run on Server 2, CR ") and share in summary
    # (text content: some groups are unfolded here and folded on a fresh page)
    trace = page.locator("#trace").text_content()
    board = page.locator("#board").text_content()
    # undo goes back one decision (in place); reload gives the same page
    finished_url = page.url
    decide(page, page.locator("#undo"))
    assert page.locator("#finished").count() == 0 and page.locator("#decisions button").count() > 0
    # Back in the browser's history shows the finished position again, forward the undone one
    page.go_back()
    expect(page.locator("#finished")).to_have_count(1)
    assert page.url == finished_url
    page.go_forward()
    expect(page.locator("#finished")).to_have_count(0)
    undone = page.locator("#trace").inner_text()
    page.reload()
    assert page.locator("#trace").inner_text() == undone
    # someone the link was shared with sees exactly the finished position
    other = browser.new_context(viewport={"width": VIEWPORTS[name][0], "height": VIEWPORTS[name][1]})
    pg = other.new_page()
    pg.goto(share)
    assert pg.locator("#trace").text_content() == trace
    assert pg.locator("#board").text_content() == board
    pg.screenshot(path=str(ARTIFACTS / f"{name}-shared.png"))
    other.close()


def test_stepper_without_javascript(browser, server):  # noqa: F811
    context = browser.new_context(java_script_enabled=False, viewport={"width": 390, "height": 844})
    pg = context.new_page()
    pg.goto(server + "/editor?example=remote-run")
    assert pg.locator("#edpic .srv[data-server='remote1'] .ic").count() == 2
    # the server to run follows the board: its remote
    assert pg.locator("#server option:checked").inner_text() == "Server 1"
    with pg.expect_navigation():
        pg.click("#start")
    # the picture, the trace and the decisions as form buttons
    assert pg.locator("#board .srv.atk[data-server='remote1'] .ic.is-approached[data-pos='0']").count() == 1
    assert pg.locator("#trace details.tg").count() >= 2
    before = pg.locator("#trace li").count()
    with pg.expect_navigation():
        pg.locator("#decisions button").first.click()
    assert pg.locator("#trace li").count() > before
    assert pg.locator("#recent").count() == 1
    pg.screenshot(path=str(ARTIFACTS / "nojs-stepper.png"), full_page=True)
    context.close()


def test_rig_edited_on_the_picture(screen, server):  # noqa: F811
    """Install an icebreaker on the picture (keyboard for its fields), make the HQ ice a barrier
    it must pump against, and step the run: the editor's rig is the one the engine uses."""
    name, page = screen
    page.goto(server + "/editor?example=01-hq-ice-wall")
    page.wait_for_selector("#formroot .srv[data-server='hq'] .ic")
    hq = page.locator(".srv[data-server='hq']")
    hq.locator(".ic-edit > summary").click()
    page.fill("input[data-path='servers.hq.ice[0].strength']", "3")
    page.fill("input[data-path='servers.hq.ice[0].subtypes']", "Barrier")
    page.fill("input[data-path='servers.hq.ice[0].break_cost']", "")
    programs = page.locator(".rig[data-zone='programs']")
    expect(programs.locator(".rc")).to_have_count(0)
    # this server has no card data: no real-card pickers, only hand-made cards
    assert page.locator("#formroot .pick").count() > 0
    expect(page.locator("#formroot .pick:visible")).to_have_count(0)
    programs.locator(".add-card").click()
    # the new program's name field has the focus: typed from the keyboard
    path = "runner.rig.programs[0]"
    # (focus is waited for, here and below: on a loaded machine a re-render may land after the
    # click or key press that caused it returns; a wrong focus still fails, by timeout)
    page.wait_for_function(f"document.activeElement && document.activeElement.dataset.path === '{path}.name'")
    page.keyboard.press("ControlOrMeta+a")
    page.keyboard.type("Corroder")
    page.keyboard.press("Tab")  # to install cost
    page.keyboard.press("Tab")  # to memory
    page.keyboard.press("Tab")  # to strength
    page.wait_for_function(
        f"document.activeElement && document.activeElement.dataset.path === '{path}.strength'"
    )
    page.keyboard.press("ControlOrMeta+a")
    page.keyboard.type("2")
    card = programs.locator(f"[data-card='{path}']")
    expect(card.locator(".ic-name")).to_have_text("Corroder")
    # its first ability breaks barriers only; a bad value shows its error beside the field
    page.select_option(f"select[data-path='{path}.abilities[0].ice_subtype']", "barrier")
    page.fill(f"input[data-path='{path}.abilities[0].count']", "0")
    expect(page.locator(f".ferr[data-for='{path}.abilities[0].count']")).not_to_be_empty()
    page.fill(f"input[data-path='{path}.abilities[0].count']", "1")
    expect(page.locator("#valid-status")).to_have_text("Board is valid.")
    # hardware installed and uninstalled again, with the keyboard focus kept on the zone
    # (the zones other than programs are folded until opened)
    page.locator(".rig-ed > details.more > summary").click()
    hardware = page.locator(".rig[data-zone='hardware']")
    hardware.locator(".add-card").click()
    expect(hardware.locator(".rc")).to_have_count(1)
    hardware.locator(".rc .del").click()
    expect(hardware.locator(".rc")).to_have_count(0)
    page.wait_for_function("document.activeElement && document.activeElement.classList.contains('add-card')")
    board = page.evaluate("JSON.parse(document.getElementById('boardjson').value)")
    assert [p["name"] for p in board["runner"]["rig"]["programs"]] == ["Corroder"]
    assert board["runner"]["rig"]["programs"][0]["abilities"][0]["ice_subtype"] == "barrier"
    assert not board["runner"]["rig"].get("hardware")
    assert board["servers"]["hq"]["ice"][0]["subtypes"] == ["barrier"]
    shot(page, f"{name}-editor-rig")
    page.select_option("#server", "hq")
    page.click("#start")
    page.wait_for_url("**/step?s=**")
    expect(page.locator("#board .bp-runner .rig")).to_contain_text("Corroder")
    used: list[str] = []
    for _ in range(20):
        if page.locator("#finished").count():
            break
        buttons = page.locator("#decisions button")
        labels = buttons.all_inner_texts()
        ids = [b.get_attribute("data-decision") for b in buttons.all()]
        choice = next((i for i in ids if i.startswith("use:")), None) or (
            "continue" if "continue" in ids else ids[0]
        )
        if choice.startswith("use:"):
            used.append(labels[ids.index(choice)])
        decide(page, page.locator(f"#decisions button[data-decision='{choice}']"))
    expect(page.locator("#finished")).to_contain_text("successful")
    # strength 2 against 3: first the pump, then the barrier break
    assert [u.split(":")[0] for u in used] == ["Corroder", "Corroder"]
    assert "+1 strength" in used[0] and "break 1 barrier" in used[1]


def test_dark_colours_follow_the_system_and_the_toggle(browser, server):  # noqa: F811
    """The board picture has no light islands in dark mode (prefers-color-scheme or the toggle)."""

    def luminance(pg, selector: str, prop: str) -> float:
        rgb = pg.eval_on_selector(selector, f"e => getComputedStyle(e).{prop}")
        r, g, b = (float(x) for x in re.findall(r"[\d.]+", rgb)[:3])
        return (0.2126 * r + 0.7152 * g + 0.0722 * b) / 255

    parts = ("#edpic .bp-runner", "#edpic .srv", "#edpic .ic.rz", "#edpic .bc", "#edpic .bp-corp")
    for scheme, theme in (("dark", None), ("light", "dark"), ("light", None)):
        context = browser.new_context(color_scheme=scheme, java_script_enabled=theme is None)
        pg = context.new_page()
        pg.goto(server + "/editor?example=remote-run")
        if theme:  # the header toggle's choice, as theme.js applies it
            pg.evaluate(f"document.documentElement.setAttribute('data-theme', '{theme}')")
        dark = (theme or scheme) == "dark"
        for sel in parts:
            bg = luminance(pg, sel, "backgroundColor")
            assert (bg < 0.2) if dark else (bg > 0.85), (scheme, theme, sel, bg)
        fg = luminance(pg, "#edpic .ic.rz b", "color")
        assert (fg > 0.7) if dark else (fg < 0.3), (scheme, theme, fg)
        if dark and theme is None:
            pg.screenshot(path=str(ARTIFACTS / "dark-editor-nojs.png"), full_page=True)
        context.close()


def test_real_cards_picked_in_the_editor(screen, card_server):
    """Pick a real ice and a real icebreaker by name in the editor (keyboard for one, a tap for
    the other), and step a run through them: the card data fills what the engine plays."""
    name, page = screen
    page.goto(card_server + "/editor")
    page.wait_for_selector("#formroot .srv[data-server='hq']")
    hq = page.locator("#formroot .srv[data-server='hq']")
    expect(hq.locator(".ic")).to_have_count(0)  # the editor starts from an empty board
    ice_q = hq.locator("input.pick-q[data-pick='ice']")
    expect(ice_q).to_be_visible()  # card data is built on this server
    ice_q.fill("Ice Wall")
    expect(hq.locator(".pick-opt[data-card-id='ice_wall']")).to_be_visible()
    # suggestions are ice only, and reachable from the keyboard
    types = hq.locator(".pick-opt .ty").all_inner_texts()
    assert types and all(t.startswith("Ice") for t in types)
    ice_q.focus()
    page.keyboard.press("ArrowDown")
    assert ice_q.get_attribute("aria-activedescendant")
    wanted = hq.locator(".pick-opt[aria-selected='true']").get_attribute("data-card-id")
    page.keyboard.press("Enter")
    assert wanted == "ice_wall"
    expect(hq.locator(".ic .ic-name")).to_have_text(["Ice Wall"])
    hq.locator(".ic .rez").click()
    programs = page.locator(".rig[data-zone='programs']")
    programs.locator("input.pick-q").fill("Corroder")
    programs.locator(".pick-opt[data-card-id='corroder']").click()
    expect(programs.locator(".rc .ic-name")).to_have_text(["Corroder"])
    expect(page.locator("#valid-status")).to_have_text("Board is valid.")
    board = page.evaluate("JSON.parse(document.getElementById('boardjson').value)")
    ice = board["servers"]["hq"]["ice"][0]
    assert ice["card_id"] == "ice_wall" and ice["subtypes"] == ["barrier"] and ice["rezzed"] is True
    assert ice["subroutines"] == ["end_the_run"]
    corroder = board["runner"]["rig"]["programs"][0]
    assert corroder["card_id"] == "corroder" and corroder["strength"] == 2 and corroder["memory_cost"] == 1
    assert {"kind": "break", "cost": 1, "count": 1, "up_to": False, "ice_subtype": "barrier"} in corroder[
        "abilities"
    ]
    shot(page, f"{name}-editor-real-cards")
    page.select_option("#server", "hq")
    page.click("#start")
    page.wait_for_url("**/step?s=**")
    used: list[str] = []
    for _ in range(20):
        if page.locator("#finished").count():
            break
        buttons = page.locator("#decisions button")
        ids = [b.get_attribute("data-decision") for b in buttons.all()]
        choice = next((i for i in ids if i.startswith("use:")), None) or (
            "continue" if "continue" in ids else ids[0]
        )
        if choice.startswith("use:"):
            used.append(buttons.nth(ids.index(choice)).inner_text())
            if page.locator(".ic.is-encountered").count():
                expect(page.locator(".ic.is-encountered b")).to_have_text("Ice Wall")
        decide(page, page.locator(f"#decisions button[data-decision='{choice}']"))
    expect(page.locator("#finished")).to_contain_text("successful")
    assert used and used[0].startswith("Corroder") and "break 1 barrier" in used[0]
    shot(page, f"{name}-real-cards-run")


def test_corp_identity_picked_by_name_in_the_editor(screen, card_server):
    """A Corp identity picked by name goes to the Corp (`corp.identity`), with its abilities; the
    Runner's identity picker offers Runner identities only. Stepping the board, the picture shows
    the Corp's identity."""
    name, page = screen
    page.goto(card_server + "/editor")
    corp = page.locator("#formroot .bp-corp")
    q = corp.locator("input.pick-q[data-pick='Corp identity']")
    expect(q).to_be_visible()
    q.fill("Thule Subsea")
    opt = corp.locator(".pick-opt[data-card-id='thule_subsea_safety_below']")
    expect(opt).to_be_visible()
    opt.click()
    expect(corp.locator("input[data-path='corp.identity']")).to_have_value("Thule Subsea: Safety Below")
    expect(page.locator("#valid-status")).to_have_text("Board is valid.")
    board = page.evaluate("JSON.parse(document.getElementById('boardjson').value)")
    ident = board["corp"]["identity"]
    assert ident["card_id"] == "thule_subsea_safety_below" and ident["triggers"][0]["when"] == "stolen"
    # (the editor starts from an empty board: no Runner until one is put on it)
    assert board.get("runner", {}).get("identity") != ident
    # on the empty board the Runner's identity is folded with hardware, resources and facedown
    page.locator(".bp-runner .rig-ed > details.more > summary").click()
    runner_q = page.locator(".bp-runner input.pick-q[data-pick='identity']")
    runner_q.fill("Thule Subsea")
    expect(page.locator(".bp-runner .rig-ed > details.more > .row > .pick > .pick-note")).to_have_text(
        "No identity with that name."
    )
    shot(page, f"{name}-editor-corp-identity")
    page.click("#start")
    page.wait_for_url("**/step?s=**")
    expect(page.locator(".bp-corp h2 small")).to_have_text("Thule Subsea: Safety Below")
