"""One damaged version must not take the site down: every availability fault of issue 16, on a
copy of the real six-version build, with the Library, the Flask app (preload on and off) and a
real gunicorn (preload, --max-requests, HUP). The damaged version answers 503 with a rebuild
hint; every other version keeps answering."""

from __future__ import annotations

import json
import shutil
import signal
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from helpers import ROOT, cr_path

from rules_index.store import Library, LibraryError, VersionUnavailable, build
from webapp import create_app
from webapp.liveserver import start_server

DAMAGED_V = "24.03"
GOOD = ("22.12", "25.08", "26.03")


@pytest.fixture()
def bdir(build_dir, tmp_path) -> Path:
    """A private copy of the session build (symlinks kept), free to damage."""
    dest = tmp_path / "build"
    shutil.copytree(build_dir, dest, symlinks=True)
    return dest


def _target(bdir: Path, version: str) -> Path:
    return (bdir / version).resolve()


def flip_byte(path: Path, needle: bytes = b"Runner") -> None:
    """Change one byte inside the file, keeping its size (only a checksum can tell)."""
    data = bytearray(path.read_bytes())
    at = data.index(needle)
    data[at] ^= 0x20
    path.write_bytes(bytes(data))


def truncate(path: Path) -> None:
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2])


def seg_file(bdir: Path, version: str) -> Path:
    return next((_target(bdir, version) / "search").glob("*.seg"))


def app_for(bdir: Path, preload: bool):
    return create_app(
        {
            "TESTING": True,
            "BUILD_DIR": str(bdir),
            "SECRET_KEY": "faults-key-of-at-least-32-bytes-long",
            "PRELOAD": preload,
        }
    ).test_client()


def assert_others_answer(client, damaged: str = DAMAGED_V) -> None:
    for v in GOOD:
        r = client.get(f"/api/rules/6.9.4c?v={v}")
        assert r.status_code == 200, (v, r.get_json())
        assert client.get(f"/api/search?q=jack+out&v={v}").status_code == 200
        page = client.get(f"/r/6.9.4c?v={v}")  # its "other versions" box reads every version
        assert page.status_code == 200
    assert client.get("/api/versions").status_code == 200
    assert client.get("/").status_code == 200


def assert_unavailable(client, version: str = DAMAGED_V, word: str = "rebuild") -> dict:
    r = client.get(f"/api/rules/6.9.4c?v={version}")
    assert r.status_code == 503
    body = r.get_json()
    assert version in body["error"] and word in body["error"]
    assert "/tmp" not in body["error"] and str(ROOT) not in body["error"]  # no server path
    return body


def status_of(client, version: str) -> str:
    data = client.get("/api/versions").get_json()
    return {i["version"]: i["status"] for i in data["versions"]}[version]


# ----- the Library ----------------------------------------------------------------------------


def test_a_same_size_change_to_a_document_is_caught_by_its_checksum(bdir):
    flip_byte(_target(bdir, DAMAGED_V) / "document.json")
    lib = Library.open(bdir)
    assert lib.info(DAMAGED_V).status == "ok"  # listing checks sizes only
    with pytest.raises(VersionUnavailable, match="checksum.*nrrules build"):
        lib.document(DAMAGED_V)
    assert lib.info(DAMAGED_V).status == "damaged" and "checksum" in lib.info(DAMAGED_V).problem
    assert lib.document("26.03").node("step_jack_out_choice").number == "6.9.4c"
    assert set(lib.documents()) == {"22.12", "23.08", "25.04", "25.08", "26.03"}
    assert lib.latest == "26.03"


def test_a_truncated_document_is_reported_when_listing(bdir):
    truncate(_target(bdir, DAMAGED_V) / "document.json")
    lib = Library.open(bdir)
    info = lib.info(DAMAGED_V)
    assert info.status == "damaged" and "document.json" in info.problem and "nrrules build" in info.problem
    assert info.to_dict()["status"] == "damaged" and info.to_dict()["problem"] == info.problem
    assert [v for v in lib.available_versions()] == ["22.12", "23.08", "25.04", "25.08", "26.03"]
    assert lib.preload() and lib.graph("26.03") is not None


def test_a_damaged_latest_version_leaves_the_newest_good_one_as_latest(bdir):
    truncate(_target(bdir, "26.03") / "document.json")
    lib = Library.open(bdir)
    assert lib.latest == "25.08"
    with pytest.raises(VersionUnavailable):
        lib.document("26.03")


@pytest.mark.parametrize("damage", ["truncated segment", "changed segment", "missing toc"])
def test_a_damaged_search_index_is_never_searched(bdir, damage):
    search = _target(bdir, DAMAGED_V) / "search"
    if damage == "truncated segment":
        truncate(seg_file(bdir, DAMAGED_V))
    elif damage == "changed segment":
        data = bytearray(seg_file(bdir, DAMAGED_V).read_bytes())
        data[len(data) // 2] ^= 0xFF
        seg_file(bdir, DAMAGED_V).write_bytes(bytes(data))
    else:
        next(search.glob("*.toc")).unlink()
    lib = Library.open(bdir)
    with pytest.raises(VersionUnavailable, match="search index is damaged.*nrrules build"):
        lib.searcher(DAMAGED_V)
    assert lib.info(DAMAGED_V).status == "damaged"
    assert lib.searcher("26.03").search("jack out", limit=1)


def test_damaged_meta_dangling_link_and_older_format(bdir):
    (_target(bdir, "22.12") / "meta.json").write_text("{not json")
    shutil.rmtree(_target(bdir, "23.08"))  # the name now points nowhere
    meta_path = _target(bdir, "25.04") / "meta.json"
    meta = json.loads(meta_path.read_text())
    meta["format"] = 1
    meta_path.write_text(json.dumps(meta))
    lib = Library.open(bdir)
    status = {i.version: i.status for i in lib.versions()}
    assert status == {
        "22.12": "damaged",
        "23.08": "missing",
        "24.03": "ok",
        "25.04": "stale",
        "25.08": "ok",
        "26.03": "ok",
    }
    for v in ("22.12", "23.08", "25.04"):
        with pytest.raises(VersionUnavailable, match="nrrules build"):
            lib.document(v)
    assert lib.document("24.03") and lib.searcher("25.08")


def test_a_version_deleted_after_opening_is_missing_and_a_rebuild_heals_it(bdir):
    lib = Library.open(bdir)
    shutil.rmtree(_target(bdir, "22.12"))
    with pytest.raises(VersionUnavailable, match="gone.*nrrules build"):
        lib.document("22.12")
    assert lib.info("22.12").status == "missing"
    assert lib.document("26.03")
    # `nrrules build` redoes it (a damaged or missing build never counts as "unchanged"), and
    # the same Library sees the new build without a restart
    result = build(str(cr_path("22.12")), bdir)
    assert [(r.version, r.status) for r in result] == [("22.12", "built")]
    assert lib.document("22.12").node("step_jack_out_choice") is not None
    assert lib.info("22.12").status == "ok"


def test_a_damaged_build_is_rebuilt_not_reported_unchanged(bdir):
    flip_byte(_target(bdir, "22.12") / "document.json")
    assert build(str(cr_path("22.12")), bdir)[0].status == "built"
    assert build(str(cr_path("22.12")), bdir)[0].status == "unchanged"
    assert Library.open(bdir).document("22.12")


def test_nothing_servable_is_a_library_error(tmp_path, build_dir):
    dest = tmp_path / "b"
    shutil.copytree(build_dir, dest, symlinks=True)
    for v in ("22.12", "23.08", "24.03", "25.04", "25.08", "26.03"):
        truncate(_target(dest, v) / "document.json")
    lib = Library.open(dest)  # opening works: the versions and their problems can be listed
    assert {i.status for i in lib.versions()} == {"damaged"}
    with pytest.raises(LibraryError, match="no CR version can be served"):
        _ = lib.latest


# ----- the web app, preload on and off ----------------------------------------------------------


@pytest.mark.parametrize("preload", [True, False], ids=["preload", "lazy"])
def test_web_damaged_document(bdir, preload):
    flip_byte(_target(bdir, DAMAGED_V) / "document.json")
    client = app_for(bdir, preload)
    if preload:
        assert status_of(client, DAMAGED_V) == "damaged"  # found at start, before any request
    assert_unavailable(client)
    assert status_of(client, DAMAGED_V) == "damaged"
    assert_others_answer(client)
    page = client.get(f"/r/6.9.4c?v={DAMAGED_V}")
    assert page.status_code == 503 and b"nrrules build" in page.data


@pytest.mark.parametrize("preload", [True, False], ids=["preload", "lazy"])
def test_web_damaged_index(bdir, preload):
    data = bytearray(seg_file(bdir, DAMAGED_V).read_bytes())
    data[len(data) // 3] ^= 0xFF
    seg_file(bdir, DAMAGED_V).write_bytes(bytes(data))
    client = app_for(bdir, preload)
    r = client.get(f"/api/search?q=jack+out&v={DAMAGED_V}")
    assert r.status_code == 503 and "search index" in r.get_json()["error"]
    assert_others_answer(client)


@pytest.mark.parametrize("preload", [True, False], ids=["preload", "lazy"])
def test_web_deleted_version(bdir, preload):
    client = app_for(bdir, preload)
    shutil.rmtree(_target(bdir, DAMAGED_V))
    if preload:  # already loaded: it keeps answering from memory until the workers restart
        assert client.get(f"/api/rules/6.9.4c?v={DAMAGED_V}").status_code == 200
        client = app_for(bdir, preload)  # a worker started after the deletion
    body = assert_unavailable(client, word="nrrules build")
    assert "unavailable" in body["error"]
    assert status_of(client, DAMAGED_V) == "missing"
    assert_others_answer(client)


def test_web_nothing_built_is_a_503_not_a_crash(tmp_path):
    client = app_for(tmp_path / "empty", preload=True)  # create_app itself must not raise
    r = client.get("/api/versions")
    assert r.status_code == 503 and "nrrules build" in r.get_json()["error"]
    assert str(tmp_path) not in r.get_json()["error"]


# ----- a real gunicorn: preload, --max-requests and HUP ------------------------------------------


def _get(url: str) -> tuple[int, dict]:
    try:
        with urllib.request.urlopen(url, timeout=60) as resp:
            return resp.status, json.loads(resp.read())
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read())


def test_gunicorn_with_preload_survives_damage_at_start_and_on_hup(bdir, tmp_path):
    flip_byte(_target(bdir, DAMAGED_V) / "document.json")
    log = tmp_path / "gunicorn.log"
    server = start_server(
        bdir,
        workers=2,
        env={"SECRET_KEY": "faults-key-of-at-least-32-bytes-long", "NRRULES_PRELOAD": "1"},
        args=["--max-requests", "20", "--timeout", "120"],
        log=log,
    )
    base, proc = server.base, server.proc
    try:
        # more requests than --max-requests: workers are replaced while a version is damaged
        for _ in range(30):
            assert _get(f"{base}/api/rules/6.9.4c?v=26.03")[0] == 200
            status, body = _get(f"{base}/api/rules/6.9.4c?v={DAMAGED_V}")
            assert status == 503 and "nrrules build" in body["error"]
        # another version disappears, then the operator reloads
        shutil.rmtree(_target(bdir, "25.04"))
        proc.send_signal(signal.SIGHUP)
        time.sleep(3)
        assert proc.poll() is None, log.read_text()[-3000:]
        for _ in range(10):
            assert _get(f"{base}/api/rules/6.9.4c?v=25.08")[0] == 200
            assert _get(f"{base}/api/rules/6.9.4c?v=25.04")[0] == 503
        versions = {i["version"]: i["status"] for i in _get(base + "/api/versions")[1]["versions"]}
        assert versions["25.04"] == "missing" and versions[DAMAGED_V] == "damaged"
        assert versions["26.03"] == "ok"
        assert "Traceback" not in log.read_text()
    finally:
        server.stop()


@pytest.mark.parametrize("preload", [False, True])
def test_the_other_versions_box_says_unavailable_for_a_damaged_version(bdir, preload):
    truncate(_target(bdir, DAMAGED_V) / "document.json")
    client = app_for(bdir, preload)
    rows = {r["version"]: r for r in client.get("/api/rules/6.9.4c/versions").get_json()["versions"]}
    assert list(rows) == ["22.12", "23.08", "24.03", "25.04", "25.08", "26.03"]  # none left out
    assert rows[DAMAGED_V]["unavailable"] is True and rows[DAMAGED_V]["present"] is False
    assert all("unavailable" not in r for v, r in rows.items() if v != DAMAGED_V)
    assert client.get("/api/rules/6.9.4c").get_json()["across"] == list(rows.values())
    page = client.get("/r/6.9.4c").get_data(as_text=True)
    assert f"CR {DAMAGED_V}: unavailable" in page and "CR 25.08: 6.9.4c" in page
