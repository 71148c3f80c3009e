"""A card build written in an older format (nrrules-cards/1: before Standard legality named the
ban list and kept what it is computed from). The test writes one from a real build, exactly as
those builds stored it, with the same source and code fingerprint, so that only the format
tells it apart. The server still reads it and says it needs a rebuild; `nrrules build` reports
it; `nrrules build --cards` redoes it (and then leaves the new build alone)."""

from __future__ import annotations

import json
import logging
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner
from helpers import LATEST, cr_path

from rules_index.cards import CARDS_DIR, CARDS_FORMAT, OLDER_FORMATS, CardStore, code_fingerprint
from webapp import create_app
from webapp.cli import main

OLD_FORMAT = "nrrules-cards/1"
# what a card's Standard legality held in format 1 (the ban list by id only)
OLD_LEGALITY = ("format", "legal", "status", "snapshot", "card_pool", "restriction")
NEW_LEGALITY = ("restriction_name", "restriction_date", "as_of")
STANDARD_INPUTS = ("standard_format", "card_pools", "restrictions")  # not stored in format 1


def write_format_1(cards: Path) -> None:
    """Rewrite the card build in `cards` as format 1 stored it."""
    raw = json.loads((cards / "cards.json").read_text(encoding="utf-8"))
    for row in raw["cards"]:
        row["standard"] = {k: row["standard"][k] for k in OLD_LEGALITY}
    for key in STANDARD_INPUTS:
        del raw[key]
    (cards / "cards.json").write_text(json.dumps(raw, ensure_ascii=False), encoding="utf-8")
    meta = json.loads((cards / "meta.json").read_text())
    assert meta["format"] == CARDS_FORMAT and meta["code"] == code_fingerprint()
    meta["format"] = OLD_FORMAT
    # format 1 builds were written before card builds kept checksums of their files (issue 38)
    del meta["files"]
    (cards / "meta.json").write_text(json.dumps(meta, indent=1), encoding="utf-8")


@pytest.fixture
def old_build(cards_built, tmp_path) -> Path:
    """A build directory: the six CR versions (linked) and a format-1 copy of the card build."""
    build = tmp_path / "build"
    build.mkdir()
    for entry in cards_built.iterdir():
        if not entry.name.startswith(".") and entry.name != CARDS_DIR:
            (build / entry.name).symlink_to(entry.resolve())
    shutil.copytree((cards_built / CARDS_DIR).resolve(), build / CARDS_DIR)
    write_format_1(build / CARDS_DIR)
    return build


def banned(store: CardStore) -> str:
    """A card the Standard ban list bans."""
    return next(c.id for c in store.cards() if store.legality(c.id).status == "banned")


def test_the_format_was_raised_when_the_stored_fields_changed():
    assert OLD_FORMAT in OLDER_FORMATS and CARDS_FORMAT not in OLDER_FORMATS


def test_an_older_card_build_is_served_and_says_it_needs_a_rebuild(old_build, cards_built, caplog):
    with caplog.at_level(logging.WARNING, logger="rules_index.cards"):
        store = CardStore.open(old_build)
    assert "older format" in caplog.text  # the server's log says so once, when it opens the build
    assert (store.info.format, store.info.status) == (OLD_FORMAT, "stale")
    assert "older format" in store.info.problem and "nrrules build --cards" in store.info.problem
    card = banned(store)
    legality = store.legality(card)
    # the symptom of such a build: the ban list by its id, with no name
    assert legality.restriction and legality.restriction_name is None
    current = CardStore.open(cards_built)
    assert current.info.status == "ok" and current.info.problem is None
    assert current.legality(card).restriction_name  # a current build names it
    # the API and the CLI say so
    app = create_app({"TESTING": True, "BUILD_DIR": str(old_build), "SECRET_KEY": "format"})
    info = app.test_client().get("/api/versions").get_json()["cards"]
    assert info["status"] == "stale" and "nrrules build --cards" in info["problem"]
    assert app.test_client().get(f"/api/cards/{card}").status_code == 200
    env = {"NRRULES_BUILD_DIR": str(old_build)}
    out = CliRunner().invoke(main, ["versions"], env=env)
    assert out.exit_code == 0 and "rebuild needed: built in an older format" in out.output
    assert (
        json.loads(CliRunner().invoke(main, ["versions", "--json"], env=env).output)["cards"]["status"]
        == "stale"
    )


def test_build_reports_and_build_cards_redoes_an_older_card_build(old_build, nrdb_dir):
    run = CliRunner().invoke
    env = {"NRRULES_BUILD_DIR": str(old_build)}
    rules = run(main, ["build", "--source", str(cr_path(LATEST))], env=env)
    assert rules.exit_code == 0, rules.output
    assert f"{LATEST}: unchanged" in rules.output and "cards: rebuild needed" in rules.output
    # same source, same code: only the format makes it a rebuild
    redo = run(main, ["build", "--cards", str(nrdb_dir)], env=env)
    assert redo.exit_code == 0, redo.output
    assert (
        "cards: built, 1988 cards" in redo.output
        and f"previous build was in format {OLD_FORMAT}" in redo.output
    )
    store = CardStore.open(old_build)
    assert (store.info.format, store.info.status) == (CARDS_FORMAT, "ok")
    assert all(k in store.legality(banned(store)).to_dict() for k in NEW_LEGALITY)
    assert store.legality(banned(store)).restriction_name
    assert "rebuild needed" not in run(main, ["build", "--source", str(cr_path(LATEST))], env=env).output
    again = run(main, ["build", "--cards", str(nrdb_dir)], env=env)
    assert "cards: unchanged" in again.output


def test_a_card_build_in_an_unknown_format_is_named_as_such(old_build):
    meta_path = old_build / CARDS_DIR / "meta.json"
    meta = json.loads(meta_path.read_text())
    meta["format"] = "nrrules-cards/99"
    meta_path.write_text(json.dumps(meta))
    out = CliRunner().invoke(main, ["card", "snare"], env={"NRRULES_BUILD_DIR": str(old_build)})
    app = create_app({"TESTING": True, "BUILD_DIR": str(old_build), "SECRET_KEY": "format"})
    r = app.test_client().get("/api/cards/snare")
    assert r.status_code == 503 and "nrrules-cards/99" in r.get_json()["error"], r.get_json()
    assert "Traceback" not in out.output
