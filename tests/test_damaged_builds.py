"""Damaged builds are isolated (issue 38): a partial judges' document never replaces a good
build without --force; altered or truncated card and judges' files are refused when opened,
never served; search goes on with the sound sources and says which it left out; rule pages
never need the judges' build; a truncated offline pack answers 503; a server running while a
build lands keeps answering and then serves the new build."""

from __future__ import annotations

import json
import shutil
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from helpers import JUDGE_PATH, cr_path
from test_cards import _small_folder

from rules_index.cards import CardsNotBuilt, CardStore, build_cards
from rules_index.integrity import clean_leftovers
from rules_index.judge import JudgeDamaged, JudgeStore, build_judge
from rules_index.store import Library, build
from scraper import ScrapeError
from webapp.factory import create_app
from webapp.liveserver import live_server


@pytest.fixture(scope="module")
def full_build(tmp_path_factory, nrdb_dir) -> Path:
    """CR 26.03, three real cards with their rulings and the real judges' excerpt, built."""
    root = tmp_path_factory.mktemp("damaged")
    bdir = root / "build"
    build(str(cr_path("26.03")), bdir)
    build_cards(str(_small_folder(nrdb_dir, root / "nrdb")), bdir)
    build_judge(str(JUDGE_PATH), bdir)
    return bdir


def _copy(bdir: Path, dest: Path) -> Path:
    shutil.copytree(bdir, dest, symlinks=True)  # the names are relative links into the shelves
    return dest


def _client(bdir: Path):
    return create_app({"TESTING": True, "BUILD_DIR": str(bdir), "SECRET_KEY": "damaged"}).test_client()


def _flip_last_byte(path: Path) -> None:
    data = bytearray(path.read_bytes())
    data[-2] ^= 0x01
    path.write_bytes(bytes(data))


# ----- the judges' build: the shrink guard ------------------------------------------------------


def test_a_truncated_judges_document_does_not_replace_a_good_build(tmp_path):
    bdir = tmp_path / "b"
    good = build_judge(str(JUDGE_PATH), bdir)
    before = (bdir / "judge" / "documents.json").read_bytes()
    html = JUDGE_PATH.read_bytes()
    cut = tmp_path / JUDGE_PATH.name
    cut.write_bytes(html[: len(html) // 3])  # a download cut short
    with pytest.raises(ScrapeError, match=r"new judges' build has \d+ items, the current one \d+.*--force"):
        build_judge(str(cut), bdir)
    assert (bdir / "judge" / "documents.json").read_bytes() == before
    assert len(JudgeStore.open(bdir).items()) == good.items
    forced = build_judge(str(cut), bdir, force=True)  # the user said so
    assert forced.status == "built" and forced.items < good.items


def test_a_folder_missing_a_judges_document_is_refused(tmp_path):
    folder = tmp_path / "docs"
    folder.mkdir()
    shutil.copy(JUDGE_PATH, folder / "a.html")
    shutil.copy(JUDGE_PATH, folder / "b.html")
    bdir = tmp_path / "b"
    assert build_judge(str(folder), bdir).documents == 2
    (folder / "b.html").unlink()
    with pytest.raises(ScrapeError, match="new judges' build has 1 documents, the current one 2"):
        build_judge(str(folder), bdir)
    assert JudgeStore.open(bdir).meta["documents"] == 2


# ----- checksums: altered files are refused when opened -----------------------------------------


def test_altered_judge_documents_are_refused(full_build, tmp_path):
    bdir = _copy(full_build, tmp_path / "b")
    path = bdir / "judge" / "documents.json"
    data = json.loads(path.read_text())
    data[0]["items"][0]["text"] = "Anything goes."  # still valid JSON: only the checksum tells
    path.write_text(json.dumps(data))
    with pytest.raises(JudgeDamaged, match="documents.json .*checksum mismatch|documents.json has"):
        JudgeStore.open(bdir)
    lib = Library.open(bdir)
    assert lib.judge() is None
    assert "judges' build is damaged" in lib.source_problems["judge"]
    assert str(bdir) not in lib.source_problems["judge"]


def test_altered_or_truncated_card_files_are_refused(full_build, tmp_path):
    bdir = _copy(full_build, tmp_path / "b")
    cards = bdir / "cards" / "cards.json"
    cards.write_text(cards.read_text().replace('"Ice Wall"', '"Ice Hall"'))
    with pytest.raises(CardsNotBuilt, match="cards.json differs from what the build wrote"):
        CardStore.open(bdir)
    bdir2 = _copy(full_build, tmp_path / "b2")
    segment = max((bdir2 / "cards" / "search").glob("*.seg"), key=lambda p: p.stat().st_size)
    segment.write_bytes(segment.read_bytes()[:100])  # the card index truncated
    with pytest.raises(CardsNotBuilt, match=r"search/.* has 100 bytes where the build wrote"):
        CardStore.open(bdir2)


# ----- search and pages with damaged sources ----------------------------------------------------


def test_search_degrades_to_the_sound_sources_and_says_so(full_build, tmp_path):
    sound = _client(full_build).get("/api/search?q=ice+wall+bypass")
    assert sound.status_code == 200 and sound.get_json()["unavailable"] == []
    assert {"cards", "judge"} <= set(sound.get_json()["sources"])

    bdir = _copy(full_build, tmp_path / "b")
    _flip_last_byte(bdir / "cards" / "cards.json")
    _flip_last_byte(bdir / "judge" / "documents.json")
    client = _client(bdir)
    resp = client.get("/api/search?q=ice+wall+bypass")
    assert resp.status_code == 200
    body = resp.get_json()
    assert body["sources"] == ["rules"]
    assert body["results"] and all(h["source"] == "rules" for h in body["results"])
    assert {u["source"] for u in body["unavailable"]} == {"cards", "rulings", "judge"}
    assert all("rebuild" in u["problem"] and str(bdir) not in u["problem"] for u in body["unavailable"])
    # the rules hits are those of the sound build, rules only
    rules_only = _client(full_build).get("/api/search?q=ice+wall+bypass&source=rules").get_json()
    assert [h["id"] for h in body["results"]] == [h["id"] for h in rules_only["results"]]
    # asked for by name, a damaged source is a clear 503 of its own
    listed = client.get("/api/versions").get_json()["unavailable"]
    assert {u["source"] for u in listed} == {"cards", "rulings", "judge"}
    assert _client(full_build).get("/api/versions").get_json()["unavailable"] == []
    named = client.get("/api/search?q=ice+wall&source=judge")
    assert named.status_code == 503 and "judges' build is damaged" in named.get_json()["error"]
    page = client.get("/search?q=ice+wall+bypass")
    assert page.status_code == 200 and b'id="unavailable-judge"' in page.data
    # rule pages never depend on the judges' build
    for path in ("/r/6.9.4c", "/id/" + body["results"][0]["id"], "/all"):
        assert client.get(path).status_code == 200, path


def test_a_truncated_offline_pack_is_not_served(full_build, tmp_path):
    assert _client(full_build).get("/offline/26.03.json").status_code == 200
    bdir = _copy(full_build, tmp_path / "b")
    pack = bdir / "26.03" / "offline.json"
    pack.write_bytes(pack.read_bytes()[:5000])
    resp = _client(bdir).get("/offline/26.03.json")
    assert resp.status_code == 503
    text = resp.get_data(as_text=True)
    assert "offline pack is damaged" in text and str(bdir) not in text
    # only the pack: the version's rules and search are served
    assert _client(bdir).get("/r/6.9.4c").status_code == 200
    assert _client(bdir).get("/api/search?q=jack+out").status_code == 200


# ----- live servers follow builds ---------------------------------------------------------------


def _get(base: str, path: str) -> tuple[int, bytes]:
    try:
        with urllib.request.urlopen(base + path, timeout=30) as resp:
            return resp.status, resp.read()
    except urllib.error.HTTPError as exc:
        return exc.code, b""


def test_a_running_server_follows_a_build_that_lands(full_build, tmp_path):
    bdir = _copy(full_build, tmp_path / "b")
    statuses: list[int] = []
    with live_server(bdir, workers=1, threads=2, env={"NRRULES_PRELOAD": "1"}) as server:
        listed = json.loads(_get(server.base, "/api/versions")[1])["versions"]
        assert [v["version"] for v in listed] == ["26.03"]
        assert _get(server.base, "/api/search?q=jack+out")[0] == 200
        stop = threading.Event()

        def searching() -> None:
            while not stop.is_set():
                statuses.append(_get(server.base, "/api/search?q=jack+out")[0])
                statuses.append(_get(server.base, "/r/6.9.4c")[0])

        reader = threading.Thread(target=searching)
        reader.start()
        try:
            build(str(cr_path("26.03")), bdir, force=True)  # lands under the running server
            build(str(cr_path("25.08")), bdir)  # and a version it has not seen
            time.sleep(1.5)  # `Library.follow` looks once a second
            for _ in range(5):
                statuses.append(_get(server.base, "/api/search?q=jack+out")[0])
        finally:
            stop.set()
            reader.join()
        after = json.loads(_get(server.base, "/api/versions")[1])["versions"]
        assert [v["version"] for v in after] == ["25.08", "26.03"]  # it serves the new builds
        status, body = _get(server.base, "/api/search?q=jack+out&v=25.08")
        assert status == 200 and json.loads(body)["version"] == "25.08" and json.loads(body)["results"]
        assert statuses and set(statuses) == {200}, statuses
    # the replaced build was retired, not removed under the server; a later clean-up removes it
    assert len(list((bdir / ".v").glob("26.03-*"))) == 2
    clean_leftovers(bdir, min_age=0)
    assert len(list((bdir / ".v").glob("26.03-*"))) == 1
    assert Library.open(bdir).searcher("26.03").search("jack out")


def _publish_copy(bdir: Path, version: str, name: str) -> Path:
    """A copy of a version's build swapped in under its name, as `store.publish` swaps a build."""
    new = bdir / ".v" / name
    shutil.copytree((bdir / version).resolve(), new)
    link = bdir / f".link-test-{name}"
    link.symlink_to(f".v/{name}")
    link.replace(bdir / version)
    return new


def test_a_library_keeps_the_old_build_until_a_new_one_can_be_served(full_build, tmp_path):
    bdir = _copy(full_build, tmp_path / "b")
    lib = Library.open(bdir)
    old = (bdir / "26.03").resolve()
    assert lib.searcher("26.03").search("jack out")
    damaged = _publish_copy(bdir, "26.03", "26.03-damaged")
    (damaged / "document.json").write_bytes(b"{}")  # a damaged new build
    assert lib.follow(now=True) is False
    assert lib.info("26.03").available and lib.document("26.03").node("rule_using") is not None
    sound = _publish_copy(bdir, "26.03", "26.03-sound")
    shutil.copy(old / "document.json", sound / "document.json")
    generation = lib.generation
    assert lib.follow(now=True) is True and lib.generation == generation + 1
    assert lib._entries["26.03"].target == sound.resolve()
    assert lib.searcher("26.03").search("jack out")
    # a version deleted under a running library: what is loaded is served
    shutil.rmtree(sound)
    assert lib.follow(now=True) is False and lib.document("26.03")
