"""Card pages, their JSON twins and the CLI over a real build with the NetrunnerDB snapshot."""

from __future__ import annotations

import html
import json
from urllib.parse import parse_qs, urlsplit

import pytest
from click.testing import CliRunner

from webapp import create_app
from webapp.cli import main


@pytest.fixture(scope="module")
def client(cards_built):
    app = create_app({"TESTING": True, "BUILD_DIR": str(cards_built), "SECRET_KEY": "test-secret"})
    return app.test_client()


def test_card_api_has_data_rulings_and_rules(client, nrdb_dir):
    r = client.get("/api/cards/funhouse")
    assert r.status_code == 200
    p = r.get_json()
    raw = json.loads((nrdb_dir / "cards" / "funhouse.json").read_text())
    assert (p["title"], p["cost"], p["strength"]) == (raw["title"], raw["cost"], raw["strength"])
    rulings = json.loads((nrdb_dir / "rulings" / "funhouse.json").read_text())
    assert len(p["rulings"]) == len(rulings)
    assert [r["date"] for r in p["rulings"]] == sorted((r["date"] for r in p["rulings"]), reverse=True)
    assert all(r["verified"] for r in p["rulings"])
    assert p["standard"]["format"] == "standard"


def test_card_page_by_id_code_and_forgiving_name(client):
    for ref in ("Sn@re!", "snare", "SNARE!"):
        r = client.get(f"/c/{ref}")
        if ref != "snare":
            # "Sn@re!" is one edit from the name: the card's page says what was typed
            assert r.status_code == 302 and r.headers["Location"].split("?")[0].endswith("/c/snare")
    assert "typed=" not in client.get("/c/SNARE!").headers["Location"]
    loc = urlsplit(client.get("/c/Sn@re!").headers["Location"])
    assert loc.path.endswith("/c/snare") and parse_qs(loc.query)["typed"] == ["Sn@re!"]
    page = client.get("/c/snare").get_data(as_text=True)
    assert "<h1>Snare!</h1>" in page and "not legal (rotated)" in page
    assert client.get("/c/01103").headers["Location"].endswith("/c/ice_wall")


def test_card_page_lists_rulings_and_rules_that_mention_it(client):
    p = client.get("/api/cards/the_cleaners").get_json()
    assert "rule_suffer_or_take_damage" in {r["id"] for r in p["rules"]}
    # a long rule text is cut at a word, marked with an ellipsis
    cut = [r for r in client.get("/api/cards/snare").get_json()["rules"] if r["text"].endswith("…")]
    assert cut
    for r in cut:
        full = " ".join(client.get(f"/api/rules/{r['id']}").get_json()["text"].split())
        kept = r["text"][:-1]
        assert len(r["text"]) <= 160 and full.startswith(kept) and full[len(kept)] in " ,;:"
    page = client.get("/c/the_cleaners").get_data(as_text=True)
    assert 'href="/id/rule_suffer_or_take_damage"' in page
    funhouse = client.get("/c/funhouse").get_data(as_text=True)
    assert funhouse.count('class="ruling verified"') == 3


def test_rule_page_links_its_cards_with_a_preview(client):
    page = client.get("/r/10.4.1").get_data(as_text=True)
    assert 'href="/c/the_cleaners">The Cleaners</a> <span class="ctx cardpreview">Interrupt' in page


def test_card_and_ruling_search_api(client):
    hits = client.get("/api/cards?q=Snare!").get_json()["results"]
    assert hits[0]["id"] == "snare" and hits[0]["source"] == "cards"
    rulings = client.get("/api/cards?q=choosing+to+take+the+tag&source=rulings").get_json()["results"]
    assert rulings and {h["source"] for h in rulings} == {"rulings"}
    assert "funhouse" in {h["id"] for h in rulings[:5]}


def test_board_card_for_the_editor(client, nrdb_dir):
    raw = json.loads((nrdb_dir / "cards" / "ice_wall.json").read_text())
    board = client.get("/api/cards/Ice%20Wall/board").get_json()
    assert board["id"] == "ice_wall"
    assert board["card"]["type"] == "ice" and board["card"]["strength"] == raw["strength"]
    assert board["card"]["subroutines"] == ["end_the_run"]
    hit = client.get("/api/cards?q=ice+wall&source=cards").get_json()["results"][0]
    assert hit["id"] == "ice_wall" and hit["board"] == board["card"]
    assert (hit["type"], hit["cost"], hit["strength"]) == ("Ice", raw["cost"], raw["strength"])
    assert "barrier" in [x.lower() for x in hit["subtypes"]]
    corroder = client.get("/api/cards/corroder/board").get_json()["card"]
    assert {"kind": "strength", "cost": 1, "amount": 1} in corroder["abilities"]


def test_missing_card_suggests_near_names(client):
    body = client.get("/api/cards/zzqqxx%20wall").get_json()
    assert body["status"] == 404 and isinstance(body["suggestions"], list)


@pytest.mark.parametrize(
    ("url", "status"),
    [
        ("/api/cards/zzqqxx-no-card", 404),
        ("/api/cards?q=", 400),
        ("/api/cards?q=snare&source=bogus", 400),
        ("/api/cards?q=snare&limit=0", 400),
        ("/api/cards?q=" + "x" * 500, 400),
    ],
)
def test_card_api_errors_are_json(client, url, status):
    r = client.get(url)
    assert r.status_code == status
    body = r.get_json()
    assert body["status"] == status and body["error"] and "/tmp" not in body["error"]


def test_cli_card_rulings_versions_and_build(cards_built, nrdb_dir):
    run = CliRunner().invoke
    env = {"NRRULES_BUILD_DIR": str(cards_built)}
    card = json.loads(run(main, ["card", "sn@re", "--json"], env=env).output)
    assert card["id"] == "snare" and card["standard"]["legal"] is False
    out = run(main, ["rulings", "Funhouse"], env=env)
    assert out.exit_code == 0 and out.output.count("(rules team verified)") == 3
    assert "1988 cards" in run(main, ["versions"], env=env).output
    missing = run(main, ["card", "zzqqxx no card"], env=env)
    assert missing.exit_code == 1 and missing.output.startswith("error: no card matches")
    again = run(main, ["build", "--cards", str(nrdb_dir)], env=env)
    assert again.exit_code == 0 and "cards: unchanged, 1988 cards" in again.output
    bad = run(main, ["build", "--cards", str(nrdb_dir / "cards" / "snare.json")], env=env)
    assert bad.exit_code == 2 and "error:" in bad.output and "Traceback" not in bad.output


@pytest.mark.parametrize(
    ("url", "status"),
    [
        ("/api/cards/funhouse", 200),
        ("/api/cards/Sn@re!", 200),
        ("/api/cards/the_cleaners?v=22.12", 200),
        ("/api/cards/funhouse/rulings", 200),
        ("/api/cards/ice_wall/board", 200),
        ("/api/cards?q=ice+wall", 200),
        ("/api/cards?q=end+the+run&source=cards,rulings&limit=5", 200),
        ("/api/cards/zzqqxx-no-card", 404),
        ("/api/cards?q=snare&source=bogus", 400),
    ],
)
def test_card_answers_match_openapi(client, url, status):
    from tests.test_openapi_contract import check

    resp = client.get(url)
    assert resp.status_code == status
    check(resp, "GET", url.split("?")[0])


def _defining(cards_built, term: str) -> set[str]:
    from rules_index.store import Library

    return {d["id"] for d in Library.open(cards_built).graph().rules_for_term(term)["defines"]}


def test_card_text_links_cr_keywords_and_renders_symbols(client, cards_built, nrdb_dir):
    p = client.get("/api/cards/data_raven").get_json()
    kws = {k["term"]: k for k in p["keywords"]}
    assert kws["trace"]["id"] in _defining(cards_built, "trace")
    assert kws["end the run"]["id"] in _defining(cards_built, "end the run")
    html = p["text_html"]
    assert f'<a class="kw" href="/id/{kws["trace"]["id"]}"' in html and ">Trace</a>[3]" in html
    assert '<span class="sym sym-sub" title="subroutine">[subroutine]</span>' in html
    assert "[<a" not in html  # no keyword link inside a symbol
    corroder = client.get("/api/cards/corroder").get_json()
    barrier = next(k for k in corroder["keywords"] if k["term"] == "barrier")
    assert barrier["kind"] == "subtype" and barrier["number"]
    assert '<span class="sym sym-credit" title="credit">[credit]</span>' in corroder["text_html"]
    # "recurring credits" is one keyword, not "credit"
    with_symbol = sorted(
        f.stem for f in (nrdb_dir / "cards").glob("*.json") if "[recurring-credit]" in f.read_text()
    )
    assert with_symbol
    p = client.get(f"/api/cards/{with_symbol[0]}").get_json()
    recurring = next(k for k in p["keywords"] if k["term"] == "recurring credits")
    assert recurring["id"] in _defining(cards_built, "recurring credits")
    assert f'href="/id/{recurring["id"]}"' in p["text_html"]


def test_rulings_link_keywords_and_cited_rules(client, cards_built):
    funhouse = client.get("/api/cards/funhouse").get_json()
    linked = " ".join(r["html"]["question"] or "" for r in funhouse["rulings"])
    bypass = _defining(cards_built, "bypass")
    assert any(f'href="/id/{rid}"' in linked for rid in bypass)
    from rules_index.cards import CardStore, cited_numbers

    store = CardStore.open(cards_built)
    citing = [c.id for c in store.cards() if any(cited_numbers(r) for r in store.rulings(c.id))]
    assert citing
    for card_id in citing:
        card = client.get(f"/api/cards/{card_id}").get_json()
        with_rules = [r for r in card["rulings"] if r["rules"]]
        if with_rules:
            r = with_rules[0]
            body = " ".join(v for v in r["html"].values() if v)
            assert f'<a class="ref" href="/id/{r["rules"][0]["id"]}">' in body
            break
    else:
        raise AssertionError("no cited rule number resolves in the latest CR")
    page = client.get("/c/funhouse").get_data(as_text=True)
    assert 'class="kw"' in page and "<script" not in page.split("<main", 1)[1].split("</main>")[0]


def test_card_text_html_escapes_everything_else(cards_built):
    from rules_index.store import Library
    from webapp.payloads import Rules
    from webapp.payloads.cards import _Linker, store

    rules = Rules(Library.open(cards_built))
    linker = _Linker(rules, rules.latest, store(rules), rules.document(None))
    out = linker.card_text(
        '<script>alert(1)</script><strong>Bypass</strong> <a href="x">[credit]</a> [anarch]'
    )
    assert "<script" not in out and "<a href" not in out
    assert "&lt;" not in out  # tags outside the allowed few are dropped, not shown
    assert out.startswith('alert(1)<strong><a class="kw"') and "[anarch]" in out


def test_api_versions_tells_what_card_data_is_built(client, build_dir, nrdb_dir):
    from tests.test_openapi_contract import check

    resp = client.get("/api/versions")
    data = check(resp, "GET", "/api/versions")
    info = data["cards"]
    assert info["cards"] == len(list((nrdb_dir / "cards").glob("*.json")))
    rulings = sum(len(json.loads(f.read_text())) for f in (nrdb_dir / "rulings").glob("*.json"))
    assert info["rulings"] == rulings
    assert info["source"] == nrdb_dir.name and str(nrdb_dir.parent) not in resp.get_data(as_text=True)
    assert info["built_at"].endswith("Z") and info["standard"]
    # the build without card data says so, and lists the same CR versions
    bare = create_app({"TESTING": True, "BUILD_DIR": str(build_dir), "SECRET_KEY": "t"}).test_client()
    plain = check(bare.get("/api/versions"), "GET", "/api/versions")
    assert plain["cards"] is None and plain["versions"] == data["versions"]


def test_card_page_names_the_ban_list_and_its_date(client, nrdb_dir):
    """The legality line shows the ban list's name and the date it took effect, not its id."""
    p = client.get("/api/cards/hedge_fund").get_json()["standard"]
    raw = json.loads((nrdb_dir / "restrictions" / "standard" / f"{p['restriction']}.json").read_text())
    assert (p["restriction_name"], p["restriction_date"]) == (raw["name"], raw["date_start"])
    page = client.get("/c/hedge_fund").get_data(as_text=True)
    line = page[page.index('id="legality"') : page.index("</p>", page.index('id="legality"'))]
    assert raw["name"] in line and raw["date_start"] in line and p["restriction"] not in line


def test_breaker_subtypes_link_to_the_cr_list_of_program_subtypes(client):
    """The CR has no rule that explains what a fracter, killer or decoder is; it names them in
    its list of program subtypes (2.16.7i), which the card page links. In card text they link
    where printed in bold (2.16.2); an everyday word that is also a subtype ("Run") does not."""
    p = client.get("/api/cards/corroder").get_json()
    i = [st.lower() for st in p["subtypes"]].index("fracter")
    assert p["subtype_rules"][i]["id"] == "rule_program_subtypes"
    page = client.get("/c/corroder").get_data(as_text=True)
    start = page.index('id="card-stats"')
    assert "/id/rule_program_subtypes" in page[start : page.index("</p>", start)]
    hammer = client.get("/api/cards/hammer").get_json()
    assert "rule_program_subtypes" in hammer["text_html"]
    assert {"fracter", "killer", "decoder"} <= {k["term"] for k in hammer["keywords"]}
    laundry = client.get("/api/cards/dirty_laundry").get_json()
    assert laundry["text"].startswith("Run") and "subtypes" not in laundry["text_html"]
    assert laundry["subtype_rules"][0]["id"] == "rule_event_subtypes"


@pytest.mark.parametrize(
    ("typed", "card_id", "title"),
    [
        ("tolbooth", "tollbooth", "Tollbooth"),
        ("funhose", "funhouse", "Funhouse"),
        ("corodder", "corroder", "Corroder"),
        ("hostile takover", "hostile_takeover", "Hostile Takeover"),
        ("Mediums", "medium", "Medium"),
        ("reality plus", "nbn_reality_plus", "NBN: Reality Plus"),
    ],
)
def test_the_card_page_the_card_api_and_the_pickers_forgive_a_misspelt_name(client, typed, card_id, title):
    """One matcher behind /c/<name>, /api/cards/<name> and the editor's /api/cards?q= (issue 34)."""
    r = client.get(f"/c/{typed}")
    assert r.status_code == 302 and r.headers["Location"].split("?")[0].endswith(f"/c/{card_id}")
    page = client.get(r.headers["Location"]).get_data(as_text=True)
    assert f"Showing {html.escape(title)} (you typed {typed})" in page
    assert f"<h1>{html.escape(title)}</h1>" in page
    api = client.get(f"/api/cards/{typed}").get_json()
    assert api["id"] == card_id and api["showing"] == {"id": card_id, "title": title, "typed": typed}
    picker = client.get("/api/cards", query_string={"q": typed, "source": "cards", "limit": 25}).get_json()
    assert picker["results"][0]["id"] == card_id and picker["results"][0]["board"] is not None
    assert picker["showing"] == {"id": card_id, "title": title, "typed": typed}


def test_a_card_named_as_typed_says_nothing_and_a_forged_typed_note_is_not_shown(client):
    assert client.get("/api/cards/tollbooth").get_json()["showing"] is None
    assert client.get("/api/cards", query_string={"q": "Tollbooth"}).get_json()["showing"] is None
    assert "you typed" not in client.get("/c/tollbooth").get_data(as_text=True)
    # ?typed= is shown only when the matcher reads it as this card under another name
    forged = client.get("/c/tollbooth", query_string={"typed": "<b>free credits</b>"}).get_data(as_text=True)
    assert "you typed" not in forged and "<b>free credits</b>" not in forged
    assert "you typed" not in client.get("/c/tollbooth?typed=funhose").get_data(as_text=True)


def test_ruling_markdown_is_rendered_safely_and_a_glued_question_is_split(client, nrdb_dir):
    funhouse = client.get("/api/cards/funhouse").get_json()
    jes = next(r for r in funhouse["rulings"] if "Jesminder" in (r["answer"] or ""))
    assert "*" not in jes["answer"] and "If Jesminder’s ability is applicable" in jes["answer"]
    assert "<em>Jesminder</em>’s ability" in jes["html"]["answer"]
    page = client.get("/c/funhouse").get_data(as_text=True)
    assert "<em>Jesminder</em>" in page and "*Jesminder*" not in page
    # Baklan's answer carries the next question in the source, without its answer
    raw = json.loads((nrdb_dir / "rulings" / "baklan_bochkin.json").read_text())[0]["answer"]
    assert raw.startswith("Yes.\n\nCan the Corp re-rez")
    baklan = client.get("/api/cards/baklan_bochkin").get_json()["rulings"]
    glued = next(r for r in baklan if r["follow_up"])
    assert glued["answer"] == "Yes."
    assert glued["follow_up"].startswith("Can the Corp re-rez a piece of ice") and glued[
        "follow_up"
    ].endswith("?")
    assert "Also asked" in client.get("/c/baklan_bochkin").get_data(as_text=True)


def test_rulings_from_before_the_current_run_structure_are_marked(client, nrdb_dir):
    from rules_index.cards import CURRENT_RUN_STRUCTURE_SINCE, PRE_CR_NOTE

    seen = set()
    for card_id in ("flip_switch", "funhouse", "tollbooth", "keiko"):
        raw = json.loads((nrdb_dir / "rulings" / f"{card_id}.json").read_text())
        by_date = {(r["date_update"], r["nsg_rules_team_verified"]) for r in raw}
        for r in client.get(f"/api/cards/{card_id}").get_json()["rulings"]:
            assert (r["date"], r["verified"]) in by_date
            old = r["date"] < CURRENT_RUN_STRUCTURE_SINCE and not r["verified"]
            assert r["note"] == (PRE_CR_NOTE if old else None), (card_id, r["date"])
            seen.add(r["note"])
    assert seen == {PRE_CR_NOTE, None}  # both kinds among these cards
    assert PRE_CR_NOTE in client.get("/c/flip_switch").get_data(as_text=True)
