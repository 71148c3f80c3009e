"""Card text is whatever the card source says (issue 38): 200,000 "[" made `/api/cards/<id>` give
no answer in 120 s. Every step that renders card or ruling text (`scraper.nrdb.plain_text`, the
card page's HTML, the engine's reading of subroutines and abilities) is linear in the text:
these feed each big hostile text through the real functions and a real build served by the app,
and check the output is right. (How long they take is measured by bench/hostile_text.py.)"""

from __future__ import annotations

import dataclasses
import json

import pytest

from engine.cardtext import MAX_TEXT, board_card, plain
from rules_index.cards import build_cards
from scraper.nrdb import Card, plain_text
from webapp import create_app
from webapp.library import rules
from webapp.payloads import cards as card_payloads

N = 200_000
ICON = '<span class="icon icon-credit"></span>'

# text -> what plain_text must give
PLAIN = [
    ("[" * N, "[" * N),
    ("]" * N, "]" * N),
    ("<" * N, "<" * N),
    (">" * N, ">" * N),
    ("[x](" * (N // 4), "[x](" * (N // 4)),  # no link is ever closed
    ("[a](b" * (N // 5), "[a](b" * (N // 5)),
    ("[a](/en/card/1)" * (N // 15), "a" * (N // 15)),  # every link reduced to its words
    ("<b>" * (N // 3), ""),
    ("<strong" * (N // 7), "<strong" * (N // 7)),
    ("<" * N + "<b>x", "<" * N + "x"),
    (ICON * (N // len(ICON)), "[credit]" * (N // len(ICON))),
    ('<span class="icon icon-' * (N // 23), '<span class="icon icon-' * (N // 23)),
    ("[<(" * (N // 3), "[<(" * (N // 3)),
    ("\n" * N, "\n" * N),
]


@pytest.mark.parametrize(("text", "expected"), PLAIN, ids=[f"plain-{i}" for i in range(len(PLAIN))])
def test_plain_text_of_big_hostile_texts(text, expected):
    assert plain_text(text) == expected


def test_plain_text_still_reads_real_markup():
    text = f"Gain 2{ICON}. See [Funhouse](/en/card/30054) and <strong>[Ice Wall]</strong>."
    assert plain_text(text) == "Gain 2[credit]. See Funhouse and [Ice Wall]."


# text -> what the card page's HTML must be (`_Linker.card_text`, through the card payload)
HTML = [
    ("<" * N, "&lt;" * N),
    ("[" * N, "[" * N),
    ("\n" * N + "x", "x"),
    ("(" * N, "(" * N),
    (" " * N + "<ul>", "<ul>"),  # the blanks around a list tag go, as before
    ("<li>" + " " * N + "x" + " " * N + "</li>", "<li>x</li>"),
    ("<strong" * (N // 7), "&lt;strong" * (N // 7)),
    ("[click]" * (N // 7), '<span class="sym sym-click" title="click">[click]</span>' * (N // 7)),
]


@pytest.fixture(scope="module")
def app(build_dir, nrdb_dir, tmp_path_factory):
    """The app over a build with a real card folder whose three cards are hostile."""
    path = tmp_path_factory.mktemp("hostile-cards")
    for entry in build_dir.iterdir():
        if not entry.name.startswith("."):
            (path / entry.name).symlink_to(entry.resolve())
    src = tmp_path_factory.mktemp("hostile-src")
    for sub in ("cards", "printings"):
        (src / sub).mkdir()
    for table in ("card_types.json", "factions.json", "sides.json", "card_subtypes.json"):
        (src / table).write_bytes((nrdb_dir / table).read_bytes())
    texts = {"brackets": "[" * 20_000, "angles": "<" * 20_000, "links": "[x](" * 5_000}
    printings = []
    for i, (cid, text) in enumerate(texts.items()):
        rec = {
            "id": cid,
            "title": cid.title(),
            "card_type_id": "ice",
            "side_id": "corp",
            "faction_id": "neutral_corp",
            "text": text,
            "strength": 1,
            "cost": 1,
        }
        (src / "cards" / f"{cid}.json").write_text(json.dumps(rec))
        printings.append({"id": f"9900{i}", "card_id": cid, "card_set_id": "core"})
    (src / "printings" / "core.json").write_text(json.dumps(printings))
    build_cards(str(src), path)
    return create_app({"TESTING": True, "BUILD_DIR": str(path)}), texts


@pytest.mark.parametrize(("text", "expected"), HTML, ids=[f"html-{i}" for i in range(len(HTML))])
def test_card_html_of_big_hostile_texts(app, text, expected):
    flask_app, _ = app
    with flask_app.test_request_context("/"):
        ctx = rules()
        card = dataclasses.replace(card_payloads.find(ctx, "brackets"), text=text)
        p = card_payloads.card(ctx, card)
    assert p["text_html"] == expected
    assert p["text"] == plain_text(text)


def test_hostile_cards_are_served(app):
    flask_app, texts = app
    client = flask_app.test_client()
    for cid, text in texts.items():
        data = client.get(f"/api/cards/{cid}").get_json()
        assert data["id"] == cid and data["text"] == plain_text(text) == text
        page = client.get(f"/c/{cid}")
        assert page.status_code == 200
        assert (b"&lt;" * 20_000 if cid == "angles" else text.encode()) in page.data
        board = client.get(f"/api/cards/{cid}/board")
        assert board.status_code == 200
        sub = board.get_json()["card"]
        assert sub is None or isinstance(sub, dict)


ENGINE = [
    "<" * N,
    " " * N + "x",
    " " * N + "<em>(x)</em>",
    "[subroutine] " + " if the runner is tagged" * (N // 24),
    "[subroutine] " + "end the run, unless " * (N // 20),
    "[subroutine] " + "x" * N,
    "1[credit]: " * (N // 11),
]


@pytest.mark.parametrize("text", ENGINE, ids=[f"engine-{i}" for i in range(len(ENGINE))])
def test_engine_reads_big_hostile_texts_as_text(text):
    card = Card(
        id="x", title="X", stripped_title="X", card_type_id="ice", side_id="corp",
        faction_id="nbn", text=text, strength=1, cost=1, subtypes=("barrier",),
    )  # fmt: skip
    obj = board_card(card, {"barrier": "Barrier"})
    subs = obj.get("subroutines", [])
    for sub in subs:  # a line longer than any formula stays text, cut to the board's limit
        assert sub == {"effect": "text", "text": sub["text"]} and len(sub["text"]) <= MAX_TEXT
    assert len(subs) == text.count("[subroutine]")
    assert plain(" " * N + "x") == "x"


def test_engine_still_reads_the_formulas():
    card = Card(
        id="x", title="X", stripped_title="X", card_type_id="ice", side_id="corp", faction_id="nbn",
        text="[subroutine] End the run if the Runner is tagged.\n[subroutine] Do 1 net damage.",
        strength=1, cost=1,
    )  # fmt: skip
    subs = board_card(card, {})["subroutines"]
    assert subs == [
        {"effect": "if_tagged", "effects": ["end_the_run"]},
        {"effect": "net_damage", "amount": 1},
    ]
