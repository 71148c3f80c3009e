"""One text formatter (webapp/textfmt.py): symbols, counts and server names as a user reads them,
and a sweep over every page type that no raw `[credit]`, `[click]`, `[subroutine]` or board key
(`remote1`) reaches the visible text."""

from __future__ import annotations

import re
import shutil

import lxml.html
import pytest
from helpers import JUDGE_PATH

from webapp import create_app
from webapp.payloads.engine import examples
from webapp.textfmt import engine_text, plural, say, say_plain, symbols_html, symbols_plain

RAW_SYMBOL = re.compile(r"\[(credit|click|subroutine|sub|mu|link|trash|recurring-credit|interrupt)\]")
BOARD_KEY = re.compile(r"\bremote\d+\b")
ENGINE_KEY = re.compile(r"\b(hq|rd)\b")  # lowercase keys: only engine sentences would show them
BAD_PLURAL = re.compile(r"\(s\)|(?<![\d.])1 (?:credit|click|tag|card)s\b")


# ----- the formatter ---------------------------------------------------------------------------


def test_plural_agrees_with_its_number():
    assert plural(1, "credit") == "1 credit"
    assert plural(2, "credit") == "2 credits"
    assert plural(0, "click") == "0 clicks"
    assert plural(3, "ice") == "3 ice"


def test_engine_sentences_read_as_a_judge_says_them():
    assert say_plain("Gordian Blade: 1[credit]: +1 strength") == "Gordian Blade: 1¢: +1 strength"
    assert say_plain("Pay 1 credit(s) to trash PAD Campaign") == "Pay 1 credit to trash PAD Campaign"
    assert say_plain("Pay 3 credit(s) to trash PAD Campaign") == "Pay 3 credits to trash PAD Campaign"
    assert say_plain("Corp rezzes Ice Wall (1 credits)") == "Corp rezzes Ice Wall (1 credit)"
    assert engine_text("targets subroutine(s) 1, 2 of Ice Wall.") == "targets subroutines 1, 2 of Ice Wall."
    assert engine_text("breaks subroutine(s) 2 of Ice Wall.") == "breaks subroutine 2 of Ice Wall."
    assert engine_text("Break only the 1 chosen subroutine(s)") == "Break only the 1 chosen subroutine"
    assert engine_text("The breach of remote1 is complete.") == "The breach of Server 1 is complete."
    assert engine_text("Run on hq, then rd and archives") == "Run on HQ, then R&D and Archives"
    assert engine_text("on Crypsis.. Next") == "on Crypsis. Next"
    # what is not an engine word is left alone
    assert engine_text("CR 25.08..26.03, the 3rd remote1x") == "CR 25.08..26.03, the 3rd remote1x"


def test_symbols_become_glyph_spans_and_text_is_escaped():
    html = str(say("Crypsis: [click]: <b>x</b> 1[credit]"))
    assert '<span class="sym sym-click" title="click">[click]</span>' in html
    assert '<span class="sym sym-credit" title="credit">[credit]</span>' in html
    assert "<b>" not in html and "&lt;b&gt;" in html
    assert str(symbols_html("[subroutine] End the run")).startswith('<span class="sym sym-sub"')
    # a faction or unknown symbol stays as written
    assert symbols_plain("[haas-bioroid] 2[credit] [recurring-credit]") == "[haas-bioroid] 2¢ ↺¢"


# ----- the sweep -------------------------------------------------------------------------------


def visible_text(page: str) -> str:
    """What a reader sees: the body's text without scripts, templates and the bracketed names
    inside glyph spans (app.css draws the glyph, the text has font-size 0). Code (an id shown as
    an id, a board's JSON to edit) is left out: it is meant to be read as written."""
    root = lxml.html.fromstring(page)
    drop = "//script|//style|//template|//head|//code|//textarea[@class='json']"
    for el in root.xpath(drop + "|//*[contains(concat(' ', @class, ' '), ' sym ')]"):
        el.drop_tree()
    return " ".join(root.text_content().split())


def check_page(client, url: str, engine_page: bool = False) -> str:
    r = client.get(url)
    assert r.status_code == 200, (url, r.status_code)
    text = visible_text(r.get_data(as_text=True))
    # the CR's own wording ("the found card(s)") is quoted as written; engine sentences are ours
    patterns = (RAW_SYMBOL, BOARD_KEY) + ((ENGINE_KEY, BAD_PLURAL) if engine_page else ())
    found = [text[max(m.start() - 60, 0) : m.end() + 20] for p in patterns for m in p.finditer(text)]
    assert not found, (url, found)
    return text


@pytest.fixture(scope="module")
def full_build(cards_built, tmp_path_factory):
    """The card build with the judges' excerpt built beside it: every page type has content."""
    from rules_index.judge import build_judge
    from rules_index.store import Library

    path = tmp_path_factory.mktemp("sweep") / "build"
    shutil.copytree(cards_built, path, symlinks=True)
    names = {c.name for n in Library.open(path).document().nodes for c in n.cards}
    build_judge(str(JUDGE_PATH), path, names)
    return path


@pytest.fixture(scope="module")
def client(full_build):
    app = create_app({"TESTING": True, "BUILD_DIR": str(full_build), "SECRET_KEY": "test-secret"})
    return app.test_client()


def test_sweep_rule_card_search_home_pages(client):
    check_page(client, "/")
    # rules whose text, siblings or subtree carry symbols (credits, clicks, subroutines)
    for ref in ("1.2", "1.6", "5.5", "6.2", "6.9", "7.1", "8.2", "9.2", "10.1", "1.6.3"):
        check_page(client, f"/r/{ref}")
    for card in ("gordian_blade", "daily_casts", "tollbooth", "ice_wall", "snare", "crypsis", "hedge_fund"):
        check_page(client, f"/c/{card}")
    for q in (
        "Gordian Blade",
        "1 credit",
        "recurring credits",
        "subroutine",
        "pay credits to trash",
        "click",
    ):
        check_page(client, f"/search?q={q}")
        # the suggestions under the search box are the API's snippets
        hits = client.get("/api/search", query_string={"q": q, "limit": 50}).get_json()["results"]
        assert hits
        for hit in hits:
            assert not RAW_SYMBOL.search(hit.get("snippet") or ""), (q, hit)


def test_sweep_changes_and_judge_pages(client):
    versions = [v["version"] for v in client.get("/api/versions").get_json()["versions"]]
    for a, b in zip(versions, versions[1:], strict=False):
        check_page(client, f"/changes/{a}..{b}")
    ids = [
        h["id"]
        for h in client.get("/api/judge/search", query_string={"q": "run", "limit": 50}).get_json()["results"]
    ]
    assert ids
    for item in ids:
        check_page(client, f"/j/{item}")


def _decide(client, token: str, decision: str) -> dict:
    r = client.post(f"/api/engine/sessions/{token}/decisions", json={"decision": decision})
    assert r.status_code == 200, r.get_data(as_text=True)
    return r.get_json()


def test_sweep_stepper_and_editor_on_every_example(client):
    seen_labels = 0
    for ex in examples():
        board = ex["board"]
        check_page(client, f"/editor?example={ex['name']}", engine_page=True)
        if board.get("turn") == "corp":
            starts = [("corp_turn", {})]
        else:
            starts = [("run", {"server": key}) for key in board["servers"]]
        for structure, params in starts:
            r = client.post(
                "/api/engine/sessions", json={"board": board, "structure": structure, "params": params}
            )
            assert r.status_code == 201, (ex["name"], r.get_data(as_text=True))
            st = r.get_json()
            check_page(client, f"/step?s={st['token']}", engine_page=True)
            # pumps and breaks first (their labels carry costs), then the first legal decision
            for _ in range(30):
                if st["finished"]:
                    break
                ds = [d["id"] for d in st["decisions"]]
                seen_labels += sum("[credit]" in d["label"] for d in st["decisions"])
                pick = next((d for d in ds if d.startswith("use:") and "2" not in d[-1:]), None)
                st = _decide(client, st["token"], pick or ds[0])
                text = check_page(client, f"/step?s={st['token']}", engine_page=True)
                assert "Trace" in text
    # the sweep did meet engine labels with raw costs (so the formatter was exercised)
    assert seen_labels > 0
