"""What the stepper does with card text, as pages: /cards/coverage (and ?pool=all) against its
JSON twin, and each card page's "In the stepper", over a real build with the NetrunnerDB data."""

from __future__ import annotations

import html
import json
import re

import pytest
from click.testing import CliRunner

from engine.cardtext import STATUSES, card_units
from webapp import create_app
from webapp.cli import main
from webapp.payloads import card_engine


@pytest.fixture(scope="module")
def client(cards_built):
    app = create_app({"TESTING": True, "BUILD_DIR": str(cards_built), "SECRET_KEY": "test-secret"})
    return app.test_client()


COLUMNS = ("cards", "fully_modeled", "modeled_share", "units", *STATUSES)


def _table(page: str) -> dict[str, list[str]]:
    """The coverage table's rows: type id (or "all") -> the cells' text."""
    rows = {}
    for m in re.finditer(r'<tr data-type="([^"]+)">(.*?)</tr>', page, re.S):
        cells = re.findall(r"<td[^>]*>(.*?)</td>", m.group(2))
        rows[m.group(1)] = [html.unescape(re.sub(r"<[^>]+>", "", c)) for c in cells]
    return rows


def _cells(figures: dict) -> list[str]:
    return [f"{figures[k] * 100:.1f}\u00a0%" if k == "modeled_share" else str(figures[k]) for k in COLUMNS]


@pytest.mark.parametrize("pool", ["standard", "all"])
def test_coverage_page_shows_the_figures_of_its_json_twin(client, pool):
    api = client.get(f"/api/cards/coverage?pool={pool}").get_json()
    r = client.get(f"/cards/coverage?pool={pool}")
    assert r.status_code == 200 and r.mimetype == "text/html"
    page = r.get_data(as_text=True)
    assert "<h1>What the stepper does with card text</h1>" in page
    assert f'href="/api/cards/coverage?pool={pool}"' in page  # the JSON twin, linked
    rows = _table(page)
    assert set(rows) == {*api["by_type"], "all"}
    for key, figures in api["by_type"].items():
        assert rows[key] == _cells(figures), key
    assert rows["all"] == _cells(api["total"])
    t = api["total"]
    assert f"<b>{t['modeled_share'] * 100:.1f}&#160;%</b> of the units in play modeled" in page
    assert f"<b>{t['fully_modeled']}</b> of {t['cards']} cards fully modeled" in page
    # every unit not modeled is listed, under its card, whose name links its page
    assert f"Units not modeled ({len(api['not_modeled'])})" in page
    left = t["by_hand"] + t["shown"] + t.get("absent", 0)  # "absent": not on the board (yet)
    assert page.count('<li class="unit st-') == len(api["not_modeled"]) == left
    for u in api["not_modeled"][:: max(1, len(api["not_modeled"]) // 40)]:
        card = re.search(
            rf'<li><a href="/c/{re.escape(u["card_id"])}">([^<]+)</a>\s*<ul class="units">(.*?)</ul>',
            page,
            re.S,
        )
        assert card and html.unescape(card.group(1)) == u["title"], u["card_id"]
        assert u["says"] in html.unescape(card.group(2))
    # the Standard pool is the smaller one; both pages link each other
    other = "every card" if pool == "standard" else "Standard pool"
    assert re.search(rf'<a href="/cards/coverage(\?pool=all)?">{other}</a>', page)


def test_coverage_figures_add_up_and_the_all_pool_is_larger(client):
    std = client.get("/api/cards/coverage").get_json()
    every = client.get("/api/cards/coverage?pool=all").get_json()
    assert std["pool"] == "standard" and std["standard"]["snapshot"] and every["standard"] is None
    assert every["total"]["cards"] > std["total"]["cards"] > 400
    for p in (std, every):
        t = p["total"]
        assert t["units"] == sum(t[st] for st in STATUSES)
        assert sum(f["cards"] for f in p["by_type"].values()) == t["cards"]
        assert set(p["types"]) == set(p["by_type"]) and p["types"]["ice"] == "Ice"
        assert all(
            u["status"] in ("by_hand", "shown", "absent") and u["type"] in p["by_type"]
            for u in p["not_modeled"]
        )


def test_coverage_answers_match_openapi(client):
    from tests.test_openapi_contract import check

    for url in ("/api/cards/coverage", "/api/cards/coverage?pool=all", "/api/cards/anvil"):
        resp = client.get(url)
        assert resp.status_code == 200
        check(resp, "GET", url.split("?")[0])
    bad = client.get("/api/cards/coverage?pool=bogus")
    assert bad.status_code == 400
    check(bad, "GET", "/api/cards/coverage")


def test_bad_pool_is_a_clear_400_page(client):
    r = client.get("/cards/coverage?pool=bogus")
    assert r.status_code == 400 and r.mimetype == "text/html"
    page = r.get_data(as_text=True)
    assert "pool must be &#39;standard&#39; or &#39;all&#39;, not &#39;bogus&#39;" in page
    assert "Traceback" not in page and "/tmp" not in page
    body = client.get("/api/cards/coverage?pool=bogus").get_json()
    assert body["status"] == 400 and "pool must be" in body["error"]


def test_coverage_page_is_cached_with_an_etag_and_has_a_static_path(client):
    first = client.get("/cards/coverage")
    etag = first.headers["ETag"].strip('"')
    again = client.get("/cards/coverage", headers={"If-None-Match": f'"{etag}"'})
    assert again.status_code == 304
    every = client.get("/cards/coverage?pool=all")
    assert every.headers["ETag"] != first.headers["ETag"]
    # the static export's path of every card's page leads to it
    r = client.get("/cards/coverage/all")
    assert r.status_code == 302 and r.headers["Location"].endswith("/cards/coverage?pool=all")


def _stepper(page: str) -> tuple[str, list[tuple[str, str, str]]]:
    """A card page's "In the stepper": its summary and (status class, unit text, words) per unit."""
    sec = re.search(r'<section class="engine-units" id="in-the-stepper".*?</section>', page, re.S)
    assert sec, "no 'In the stepper' section"
    summary = re.search(r'id="engine-summary">([^<]*)<', sec.group(0)).group(1)
    units = re.findall(
        r'<li class="unit st-([a-z_]+)"><span class="utext">(.*?)</span> <span class="says">([^<]*)</span>',
        sec.group(0),
    )
    text = [(st, html.unescape(re.sub(r"<[^>]+>", "", t)), html.unescape(w)) for st, t, w in units]
    assert 'href="/cards/coverage"' in sec.group(0)  # every card page links the coverage page
    return html.unescape(summary), text


def test_card_pages_say_what_the_stepper_does(client):
    summary, units = _stepper(client.get("/c/tollbooth").get_data(as_text=True))
    assert [st for st, _, _ in units] == ["modeled", "modeled"]
    assert units[0][1].startswith("When the Runner encounters this ice, they must pay 3[credit]")
    assert units[0][2] == "modeled: the stepper applies it when the Runner encounters this ice"
    assert units[1] == ("modeled", "[subroutine] End the run.", "modeled")
    assert "none is by hand" in summary

    summary, units = _stepper(client.get("/c/anvil").get_data(as_text=True))
    hand = [u for u in units if u[0] == "by_hand"]
    assert len(hand) == 1 and hand[0][1].startswith("When the Runner encounters this ice, you may trash")
    assert hand[0][2] == "a judge resolves it by hand when the Runner encounters this ice"
    assert summary.startswith("By hand: 1 of 3 units in play")

    summary, units = _stepper(client.get("/c/lilypad").get_data(as_text=True))
    assert ("na", "Limit 1 console per player.", "deck-building: nothing to do in play") in units
    middle = [u for u in units if u[1].startswith("The first time each turn you install a program")]
    # "the first time each turn" is a trigger limit the engine has (issue 32: `first_each`)
    assert middle == [
        (
            "modeled",
            "The first time each turn you install a program, you may draw 1 card.",
            "modeled: the stepper applies it when the Runner installs a card",
        )
    ]
    assert any(st == "modeled" and t == "+2[mu]" for st, t, _ in units)
    assert "none is by hand" in summary
    assert summary.endswith("Deck-building, nothing to do in play: 1.")

    summary, units = _stepper(client.get("/c/pan_weave").get_data(as_text=True))
    first = [u for u in units if u[1].startswith("The first time each turn you make a successful run")]
    assert first and first[0][0] == "by_hand"  # "If they do, ...": not a formula
    assert first[0][2].startswith("a judge resolves it by hand")
    # its install trigger "suffer 1 meat damage" is modeled (the Runner suffers it, 9.9.6b)
    assert summary.startswith("By hand: 1 of 2 units in play") and "Modeled: 1." in summary
    assert any(
        st == "modeled" and t.startswith("When you install this hardware, suffer 1 meat")
        for st, t, _ in units
    )


def test_identity_page_says_its_text_is_shown(client):
    """A Runner's identity is on the board with its text shown (a Corp's, where the engine has no
    place for it, says so)."""
    summary, units = _stepper(client.get("/c/noise_hacker_extraordinaire").get_data(as_text=True))
    assert summary.startswith("An identity") and summary.endswith(f"({len(units)} by hand).") and units
    assert all(st == "shown" for st, _, _ in units)
    summary, units = _stepper(client.get("/c/weyland_consortium_built_to_last").get_data(as_text=True))
    assert summary.startswith("An identity: the stepper shows its text") and units
    assert all(st in ("shown", "by_hand") for st, _, _ in units)
    # a Corp identity whose ability the engine applies says so (Thule Subsea, `corp.identity`)
    summary, units = _stepper(client.get("/c/thule_subsea_safety_below").get_data(as_text=True))
    assert summary.startswith("An identity: the stepper applies 1 unit")
    assert [st for st, _, _ in units] == ["modeled"]


def test_card_json_engine_account_agrees_with_the_board_answer(client):
    for ref in ("tollbooth", "anvil", "lilypad", "hedge_fund", "gordian_blade"):
        card = client.get(f"/api/cards/{ref}").get_json()["engine"]
        board = client.get(f"/api/cards/{ref}/board").get_json()
        assert card["units"] == board["units"] and card["by_hand"] == board["by_hand"], ref
        assert card["by_hand"] == card["counts"]["by_hand"] + card["counts"]["shown"]
        assert sum(card["counts"].values()) == len(card["units"]) and card["place"] == "board"


def test_every_at_the_engine_gives_has_words(cards_built):
    """The words of each `at` live in one table (payloads.card_engine.AT_WORDS): every value engine.cardtext
    gives over the whole data set is in it, so no unit falls back to the generic phrase."""
    from rules_index.store import Library

    s = Library.open(cards_built).cards()
    names = {k: v["name"] for k, v in s.table("card_subtypes").items()}
    seen = set()
    for c in s.cards():
        try:
            seen |= {u.at for u in card_units(c, names) if u.at}
        except ValueError:
            continue
    assert {"encountered", "subroutine", "play", "paid ability window", "turn_begins"} <= seen
    named = {part for at in seen for part in card_engine.at_parts(at)}
    assert named <= set(card_engine.AT_WORDS), sorted(named - set(card_engine.AT_WORDS))
    for at in seen:
        for side in ("corp", "runner"):
            words = card_engine.where_words(at, side)
            assert words and words.startswith(("when ", "in ")), (at, side, words)


def test_status_words_for_a_card_with_no_place_on_the_board():
    assert card_engine.unit_words("n/a", None, "runner") == "deck-building: nothing to do in play"
    assert (
        card_engine.unit_words("by_hand", "play", "corp")
        == "a judge resolves it by hand when the Corp plays this operation"
    )
    assert card_engine.unit_words("by_hand", "some_new_point", "corp").endswith("(some new point)")


def test_cli_card_and_coverage_use_the_same_words(cards_built):
    run = CliRunner().invoke
    env = {"NRRULES_BUILD_DIR": str(cards_built)}
    out = run(main, ["card", "anvil"], env=env)
    assert out.exit_code == 0
    assert "in the stepper: By hand: 1 of 3 units in play" in out.output
    assert "a judge resolves it by hand when the Runner encounters this ice" in out.output
    listed = run(main, ["card-coverage", "--list"], env=env)
    api = json.loads(run(main, ["card-coverage", "--json"], env=env).output)
    assert listed.exit_code == 0 and api["pool"] == "standard"
    for u in api["not_modeled"][:20]:
        assert f"{u['title']}: {u['text']}\n    {u['says']}" in listed.output
