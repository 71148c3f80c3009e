"""Shared fixtures: the real CR documents from ../shared/cr, parsed once per test session."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from helpers import CR_DIR, JUDGE_PATH, LATEST, NRDB_DIR, ROOT, VERSIONS, load_doc

from scraper import Document

# The sentence embeddings of the rules and their questions (`rules_index.embeddings`) are cached
# by text across the session's builds and across sessions: a session embeds only texts no earlier
# one has (the first run on a machine pays for them all, about 5 minutes of CPU).
os.environ.setdefault("NRRULES_EMBED_CACHE", str(ROOT / ".embed-cache"))


@pytest.fixture(scope="session")
def cr_dir() -> Path:
    assert CR_DIR.is_dir(), f"CR files not found at {CR_DIR} (set NRRULES_CR_DIR)"
    return CR_DIR


@pytest.fixture(scope="session")
def documents(cr_dir) -> dict[str, Document]:
    """All six real CR versions, parsed (version -> Document)."""
    return {v: load_doc(v) for v in VERSIONS}


@pytest.fixture(scope="session")
def doc_latest(cr_dir) -> Document:
    return load_doc(LATEST)


@pytest.fixture(scope="session")
def build_dir(tmp_path_factory, cr_dir) -> Path:
    """A real build directory with all six versions built (documents + Whoosh indexes)."""
    from rules_index.store import build

    path = tmp_path_factory.mktemp("build")
    build(str(cr_dir), path)
    return path


@pytest.fixture(scope="session")
def library(build_dir):
    from rules_index.store import Library

    return Library.open(build_dir)


@pytest.fixture(scope="session")
def http_server(tmp_path_factory, cr_dir):
    """A real HTTP server on loopback serving a folder (copies of CR files and odd pages).

    Yields (base_url, folder)."""
    import functools
    import http.server
    import shutil
    import threading

    root = tmp_path_factory.mktemp("www")
    shutil.copy(cr_dir / "cr-26.03.html", root / "index.html")
    shutil.copy(cr_dir / "cr-22.12.html", root / "cr-22.12.html")
    (root / "other.html").write_text(
        "<!DOCTYPE html><html><head><title>Cooking blog</title></head><body><h1>Soup</h1>"
        "<ol><li>Boil water.</li></ol></body></html>"
    )

    class Handler(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args):
            pass

    handler = functools.partial(Handler, directory=str(root))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}", root
    server.shutdown()
    server.server_close()


@pytest.fixture(scope="session")
def judge_build_dir(tmp_path_factory, build_dir) -> Path:
    """A copy of the session build with the real judges' excerpt built beside the CR."""
    import shutil

    from rules_index.judge import build_judge
    from rules_index.store import Library

    path = tmp_path_factory.mktemp("judge-build") / "build"
    shutil.copytree(build_dir, path, symlinks=True)
    names = {c.name for n in Library.open(path).document().nodes for c in n.cards}
    build_judge(str(JUDGE_PATH), path, names)
    return path


@pytest.fixture(scope="session")
def judge_library(judge_build_dir):
    from rules_index.store import Library

    return Library.open(judge_build_dir)


@pytest.fixture(scope="session")
def nrdb_dir() -> Path:
    assert (NRDB_DIR / "cards").is_dir(), f"NetrunnerDB data not found at {NRDB_DIR} (set NRRULES_NRDB_DIR)"
    return NRDB_DIR


@pytest.fixture(scope="session")
def nrdb_cards(nrdb_dir):
    """The NetrunnerDB data read once: (data, subtype id -> name)."""
    from scraper.nrdb import load

    data = load(str(nrdb_dir))
    return data, {k: v.name for k, v in data.card_subtypes.items()}


@pytest.fixture(scope="session")
def card(nrdb_cards):
    """A card picked by id as the editor puts it on the board (`engine.cardtext.board_card`,
    what `/api/cards/<card>/board` answers), its text left out: installed Corp cards (ice,
    assets, upgrades) come rezzed; keywords override fields (``card("mimic", strength=4)``).
    ``card.units(id)`` is its units (`card_units`); `titled` picks by title."""
    from engine.cardtext import board_card, card_units

    data, names = nrdb_cards

    def make(card_id: str, **extra) -> dict:
        obj = board_card(data.cards[card_id], names)
        obj.pop("text", None)
        if obj.get("type") in ("ice", "asset", "upgrade"):
            obj["rezzed"] = True
        return {**obj, **extra}

    make.units = lambda card_id: card_units(data.cards[card_id], names)  # type: ignore[attr-defined]
    return make


@pytest.fixture(scope="session")
def titled(nrdb_cards):
    """Cards by their title: ``titled.card(title)`` as `board_card` makes it (text kept, nothing
    rezzed), ``titled.units(title)`` its units."""
    from types import SimpleNamespace

    from engine.cardtext import board_card, card_units

    data, names = nrdb_cards
    by_title = {c.title: c for c in data.cards.values()}
    return SimpleNamespace(
        card=lambda title: board_card(by_title[title], names),
        units=lambda title: card_units(by_title[title], names),
    )


@pytest.fixture(scope="session")
def cards_built(build_dir, nrdb_dir, tmp_path_factory) -> Path:
    """A build directory with the six CR versions (linked from `build_dir`, which stays without
    cards) and the NetrunnerDB card data built beside them; as `nrrules build --cards` leaves
    it, the versions are then re-indexed with the rulings' questions citing rules (written in
    this directory: `build_dir` is not touched)."""
    from rules_index.cards import build_cards
    from rules_index.store import refresh_questions

    path = tmp_path_factory.mktemp("build-cards")
    for entry in build_dir.iterdir():
        if not entry.name.startswith("."):
            (path / entry.name).symlink_to(entry.resolve())
    build_cards(str(nrdb_dir), path)
    refresh_questions(path)
    return path
