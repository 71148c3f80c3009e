"""Everything a judge reads works offline, in headless Chromium (Debian's `chromium` via
Playwright): save the latest version from the top of the home page on a phone, cut the network
(the server process stopped, the context offline), then open a card page with its rulings, a
ruling's rule, a judges' item, the judges' index and the changes page from the saved copy; a
page the copy does not hold (the board editor, another pair's changes) says so instead of
showing the home page. Screenshots go to test-artifacts/browser/."""

from __future__ import annotations

import json
import os
import shutil
import urllib.request

import pytest
from helpers import JUDGE_PATH, LATEST, VERSIONS
from test_browser import ARTIFACTS, browser  # noqa: F401 - fixtures
from test_offline_browser import PHONE

from webapp.liveserver import live_server

DESKTOP = {"viewport": {"width": 1366, "height": 900}, "device_scale_factor": 1}
RULED = "temple_of_the_liberated_mind"  # a card whose rulings cite rules
JUDGE_ITEM = "timing-structure-of-a-run.movement-phase"
PAIR = f"{VERSIONS[-2]}..{LATEST}"


@pytest.fixture(scope="module")
def reading_build(cards_built, tmp_path_factory):
    """The card build with the real judges' excerpt built beside it."""
    from rules_index.judge import build_judge
    from rules_index.store import Library

    path = tmp_path_factory.mktemp("reading-build") / "build"
    shutil.copytree(cards_built, path, symlinks=True)
    names = {c.name for n in Library.open(path).document().nodes for c in n.cards}
    build_judge(str(JUDGE_PATH), path, names)
    return path


@pytest.fixture()
def own_server(reading_build):
    """A server only this test uses, so the test can cut it off."""
    log = ARTIFACTS / f"gunicorn-offline-reading-{os.getpid()}.log"
    with live_server(
        reading_build, threads=4, env={"SECRET_KEY": "offline-test-key-of-at-least-32-bytes"}, log=log
    ) as server:
        yield server


def api(base: str, path: str) -> dict:
    with urllib.request.urlopen(base + path, timeout=30) as resp:
        return json.loads(resp.read())


def shot(pg, name: str, full: bool = False) -> None:
    pg.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=full)


def text(pg, selector: str) -> str:
    return " ".join(pg.locator(selector).inner_text().split())


def test_cards_rulings_judge_items_and_changes_are_read_offline(browser, own_server):  # noqa: F811
    base = own_server.base
    # what the server answers, to compare the saved copy with
    card = api(base, f"/api/cards/{RULED}")
    snare = api(base, "/api/cards/snare")
    item = api(base, f"/api/judge/{JUDGE_ITEM}")
    with urllib.request.urlopen(base + f"/c/{RULED}", timeout=30) as resp:
        card_page = resp.read().decode("utf-8")
    changes = api(base, f"/api/changes/{PAIR}")
    assert card["rulings"] and card["cited_rules"] and snare["rules"]

    context = browser.new_context(**PHONE)
    pg = context.new_page()
    pg.set_default_timeout(20_000)
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    try:
        # The save is on the home page's first phone screen, and says what is saved and when.
        pg.goto(base + "/")
        button = pg.locator("#offline-ctl .save-offline")
        assert button.inner_text() == f"Save CR {LATEST} for offline"
        box = button.bounding_box()
        assert box is not None and box["y"] + box["height"] <= PHONE["viewport"]["height"], box
        button.click()
        pg.wait_for_selector(f"#offline-ctl[data-saved='{LATEST}']", timeout=90_000)
        state = text(pg, "#offline-ctl .offline-state")
        assert state.startswith(f"Saved for offline use: CR {LATEST} ✓ "), state
        assert pg.locator("#offline-ctl .save-offline").count() == 0  # nothing left to save
        assert pg.locator("#offline-ctl").bounding_box()["y"] < PHONE["viewport"]["height"]
        pg.wait_for_function("navigator.serviceWorker.controller !== null")
        shot(pg, "offline-saved-home-phone")
        stored = pg.evaluate(
            """async () => { const out = {}; for (const k of await caches.keys()) { const c = await caches.open(k);
               for (const r of await c.keys()) out[new URL(r.url).pathname] = (await (await c.match(r)).arrayBuffer()).byteLength; }
               return out; }"""
        )
        assert stored[f"/offline/{LATEST}/reading.json"] > 500_000
        assert f"/j/{JUDGE_ITEM}" in stored and f"/changes/{PAIR}" in stored and "/j/" in stored
        assert sum(stored.values()) <= 4_000_000, sum(stored.values())

        # Cut the network: no server process, and the browser told it is offline.
        own_server.stop()
        context.set_offline(True)

        # A card page with its rulings, from the saved copy (with the app's security headers).
        resp = pg.goto(base + f"/c/{RULED}")
        assert "script-src 'self'" in resp.headers["content-security-policy"]
        pg.wait_for_selector("body[data-rendered='1']")
        assert "offline" in text(pg, "#netstatus")
        assert text(pg, "article.card-page h1") == card["title"]
        assert card["text"].split()[0] in pg.locator("#card-text").inner_text()
        assert pg.locator("ol#rulings > li.ruling").count() == len(card["rulings"])
        first = card["rulings"][0]
        words = " ".join((first["answer"] or first["text"]).split())[:40]
        assert words in text(pg, "#ruling-0")
        assert pg.locator("#cited-rules a.ref").count() == len(card["cited_rules"])
        assert pg.locator("#in-the-stepper .none").is_visible()
        # the same markup as the server's page (the packed markup expands back exactly)
        pairs = pg.evaluate(
            """(page) => { const d = new DOMParser().parseFromString(page, "text/html");
               return ["#card-stats", "#legality", "#card-text", "#rulings"].map(
                 s => [d.querySelector(s).innerHTML, document.querySelector(s).innerHTML]); }""",
            card_page,
        )
        for online, offline in pairs:
            assert offline == online
        shot(pg, "offline-card-phone")
        shot(pg, "offline-card-phone-full", full=True)
        # A ruling's cited rule opens from the saved copy.
        cited = card["cited_rules"][0]
        link = pg.locator(f'#cited-rules a.ref[href="/id/{cited["id"]}"]')
        assert link.inner_text() == cited["number"]
        pg.goto(base + link.get_attribute("href"))
        pg.wait_for_selector("body[data-rendered='1']")
        assert text(pg, "article.rule h1 .num") == cited["number"]
        # A card by its name, and the rules that mention it, as online.
        pg.goto(base + "/c/Snare!")
        pg.wait_for_selector("body[data-rendered='1']")
        assert text(pg, "article.card-page h1") == snare["title"]
        assert pg.locator("#card-rules a.ref").evaluate_all("a => a.map(x => x.dataset.id)") == [
            r["id"] for r in snare["rules"]
        ]
        assert "No official rulings." in text(pg, ".rulings")
        # A ruling's anchor lands on it.
        pg.goto(base + f"/c/{RULED}#ruling-{len(card['rulings']) - 1}")
        pg.wait_for_selector("body[data-rendered='1']")
        assert pg.locator(f"#ruling-{len(card['rulings']) - 1}").is_visible()

        # A judges' item, the judges' index and the changes page: the pages as the server made them.
        resp = pg.goto(base + f"/j/{JUDGE_ITEM}")
        assert "script-src 'self'" in resp.headers["content-security-policy"]
        pg.wait_for_selector("#judge-item h1")
        assert text(pg, "#judge-item h1") == item["title"]
        assert pg.locator("#timing-map tbody tr").count() == len(item["timing"])
        pg.wait_for_selector("#netstatus:not([hidden])")
        assert "offline" in text(pg, "#netstatus")
        shot(pg, "offline-judge-item-phone")
        pg.goto(base + "/j")  # the nav's link: the saved index
        pg.wait_for_url("**/j/")
        pg.wait_for_selector(f'a[href="/j/{JUDGE_ITEM}"]')
        pg.goto(base + "/changes")  # the nav's "Changes": the saved pair
        pg.wait_for_url(f"**/changes/{PAIR}")
        pg.wait_for_selector("#change-counts")
        counts = changes["counts"]
        assert text(pg, "#change-counts").startswith(f"{counts['added']} added · {counts['removed']} removed")
        assert text(pg, "h1") == f"What changed: CR {changes['from']} → {changes['to']}"
        shot(pg, "offline-changes-phone")

        # What is not saved says so, never the home page in its place.
        for path, what in [
            ("/editor", "board editor"),
            ("/step?x=1", "board editor"),
            (f"/changes/{VERSIONS[0]}..{VERSIONS[1]}", f"What changed {VERSIONS[0]} → {VERSIONS[1]}"),
            ("/j/no.such.item", "judges' document"),
            ("/c/no-such-card-at-all", "card page"),
        ]:
            pg.goto(base + path)
            pg.wait_for_selector("body[data-rendered='1']")
            assert text(pg, "h1.err") == "Not in the saved copy", path
            assert what in text(pg, "#offline-root"), path
            assert pg.locator("ol.toc").count() == 0, path  # not the home page
        pg.goto(base + "/editor")
        pg.wait_for_selector("body[data-rendered='1']")
        assert pg.locator("body[data-not-saved='1']").count() == 1
        assert pg.locator(".in-copy a[href='/all']").count() == 1
        assert pg.locator(f".in-copy a[href='/changes/{PAIR}']").count() == 1
        shot(pg, "offline-not-saved-phone")
    finally:
        context.close()
    assert not errors, errors


def test_offline_pages_at_desktop_size(browser, own_server):  # noqa: F811
    """The same saved copy read on a desktop-sized window: the card page and the not-saved page."""
    base = own_server.base
    context = browser.new_context(**DESKTOP)
    pg = context.new_page()
    pg.set_default_timeout(20_000)
    try:
        pg.goto(base + "/")  # (a page visited online may come from the browser's HTTP cache later)
        pg.locator("#offline-ctl .save-offline").click()
        pg.wait_for_selector(f"#offline-ctl[data-saved='{LATEST}']", timeout=90_000)
        pg.wait_for_function("navigator.serviceWorker.controller !== null")
        own_server.stop()
        context.set_offline(True)
        pg.goto(base + f"/c/{RULED}")
        pg.wait_for_selector("body[data-rendered='1']")
        assert pg.locator("ol#rulings > li.ruling").count() > 0
        shot(pg, "offline-card-desktop")
        pg.goto(base + "/editor")
        pg.wait_for_selector("body[data-rendered='1']")
        assert text(pg, "h1.err") == "Not in the saved copy"
        shot(pg, "offline-not-saved-desktop")
    finally:
        context.close()


SLOW = {"offline": False, "latency": 2000, "downloadThroughput": 50 * 1024, "uploadThroughput": 50 * 1024}


def throttle(browser, context, pg) -> None:  # noqa: F811
    """A slow network ("Slow 3G"-like) for the page and for the service worker's own fetches,
    which page-level emulation does not reach (the worker's CDP target, from the browser's session)."""
    session = browser.new_browser_cdp_session()
    workers = [t for t in session.send("Target.getTargets")["targetInfos"] if t["type"] == "service_worker"]
    assert workers
    for target in workers:
        sid = session.send("Target.attachToTarget", {"targetId": target["targetId"], "flatten": False})[
            "sessionId"
        ]
        for i, (method, params) in enumerate(
            [("Network.enable", {}), ("Network.emulateNetworkConditions", SLOW)]
        ):
            message = json.dumps({"id": i + 1, "method": method, "params": params})
            session.send("Target.sendMessageToTarget", {"sessionId": sid, "message": message})
    cdp = context.new_cdp_session(pg)
    cdp.send("Network.enable")
    cdp.send("Network.emulateNetworkConditions", SLOW)


def test_a_slow_network_gets_the_saved_copy_and_can_wait_for_the_server(browser, own_server):  # noqa: F811
    """On a slow (not failed) network the saved copy answers and says why; the reader can still
    ask for the server's page, which then comes from the network."""
    base = own_server.base
    context = browser.new_context(**PHONE)
    pg = context.new_page()
    pg.set_default_timeout(60_000)
    try:
        pg.goto(base + "/")
        pg.locator("#offline-ctl .save-offline").click()
        pg.wait_for_selector(f"#offline-ctl[data-saved='{LATEST}']", timeout=90_000)
        pg.wait_for_function("navigator.serviceWorker.controller !== null")
        throttle(browser, context, pg)
        pg.goto(base + "/id/step_jack_out_choice")
        pg.wait_for_selector("body[data-rendered='1']")
        assert pg.locator("body[data-saved-why='slow']").count() == 1
        status = pg.locator("#netstatus[data-why='slow']")
        status.wait_for()
        assert text(pg, "#netstatus").startswith(
            f"The network is slow: this is the copy of CR {LATEST} saved"
        )
        assert text(pg, "article.rule h1 .num") == "6.9.4c"
        shot(pg, "offline-slow-network-phone")
        # the next page comes from the saved copy at once (the network is known to be slow)
        pg.goto(base + f"/c/{RULED}")
        pg.wait_for_selector("body[data-saved-why='slow'][data-rendered='1']")
        # "Wait for the server's page": the server's own card page (its stepper section)
        pg.locator("#netstatus button").click()
        pg.wait_for_selector("#engine-summary", timeout=90_000)
        assert pg.locator("body[data-saved-why]").count() == 0
        assert pg.locator("body[data-shell]").count() == 0
    finally:
        context.close()
