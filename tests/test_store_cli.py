"""The build directory and the core `nrrules` commands (build, versions, rule), run for real."""

from __future__ import annotations

import json
import shutil

import pytest
from helpers import VERSIONS, cr_path
from test_bad_input import run_cli

from rules_index.integrity import clean_leftovers
from rules_index.store import Library, LibraryError, build
from scraper import Document


def test_all_six_versions_build(build_dir, library):
    assert [i.version for i in library.versions()] == VERSIONS
    assert library.latest == "26.03"
    for info in library.versions():
        assert info.node_count == len(library.document(info.version).nodes)
        assert (build_dir / info.version / "search").is_dir()
    assert library.info("24.03").effective_date == "2024-03-30"


def test_built_document_equals_a_fresh_parse(library, documents):
    for v in VERSIONS:
        built = library.document(v)
        fresh = documents[v]
        assert [n.id for n in built.nodes] == [n.id for n in fresh.nodes]
        assert [n.number for n in built.nodes] == [n.number for n in fresh.nodes]
        assert Document.from_json(built.to_json()) == built


def test_old_versions_borrow_card_codes_by_name(library):
    """22.12 names cards without NetrunnerDB links; codes come from versions that have them."""
    newer: dict[str, set[str]] = {}
    for v in ("25.08", "26.03"):
        for n in library.document(v).nodes:
            for c in n.cards:
                newer.setdefault(c.name.lower(), set()).add(c.code)
    cards = [c for n in library.document("22.12").nodes for c in n.cards]
    with_code = [c for c in cards if c.code]
    assert len(with_code) / len(cards) > 0.8
    for c in with_code:
        assert c.code in newer[c.name.lower()], c
    # a card the newer versions never mention keeps no code rather than a wrong one
    for c in cards:
        if c.name.lower() not in newer:
            assert c.code is None


def test_rebuild_only_what_changed(tmp_path):
    src = tmp_path / "src"
    src.mkdir()
    for v in ("22.12", "24.03"):
        shutil.copy(cr_path(v), src / f"cr-{v}.html")
    bdir = tmp_path / "b"
    first = build(str(src), bdir)
    assert [(r.version, r.status) for r in first] == [("22.12", "built"), ("24.03", "built")]
    target_before = (bdir / "24.03").resolve()
    again = build(str(src), bdir)
    assert [(r.version, r.status) for r in again] == [("22.12", "unchanged"), ("24.03", "unchanged")]
    # change one source: only that version is rebuilt, and the old directory is replaced
    text = (src / "cr-24.03.html").read_text(encoding="utf-8")
    (src / "cr-24.03.html").write_text(text.replace("</html>", "<!-- edited --></html>"), encoding="utf-8")
    third = build(str(src), bdir)
    assert [(r.version, r.status) for r in third] == [("22.12", "unchanged"), ("24.03", "built")]
    assert (bdir / "24.03").resolve() != target_before
    # the replaced build stays for servers still reading it, until a build LEFTOVER_AGE later
    assert target_before.exists()
    assert clean_leftovers(bdir, min_age=0) == [f".v/{target_before.name}"] and not target_before.exists()
    assert (bdir / "22.12").resolve().exists() and (bdir / "24.03").resolve().exists()
    assert not [p for p in bdir.iterdir() if p.name.startswith(".tmp-")]


def test_library_errors(tmp_path, library):
    with pytest.raises(LibraryError, match="no CR versions are built"):
        Library.open(tmp_path / "empty")
    with pytest.raises(LibraryError, match="27.01"):
        library.document("27.01")
    assert library.resolve_version("v24.03") == "24.03"


def test_cli_versions(build_dir):
    proc = run_cli("versions", "--build-dir", str(build_dir))
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.strip().splitlines()
    assert [ln.split()[0] for ln in lines] == VERSIONS
    assert "2026-03-02" in lines[-1] and "(latest)" in lines[-1]
    data = json.loads(run_cli("versions", "--json", "--build-dir", str(build_dir)).stdout)
    assert data["latest"] == "26.03"
    assert data["versions"][2]["version"] == "24.03" and data["versions"][2]["node_count"] > 1700


def test_cli_rule(build_dir):
    proc = run_cli("rule", "6.9.4c", "--version", "24.03", "--json", "--build-dir", str(build_dir))
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
    assert data["id"] == "step_jack_out_choice" and data["version"] == "24.03"
    assert [p["number"] for p in data["breadcrumb"]] == ["6", "6.9", "6.9.4"]
    text = run_cli("rule", "rule", "1.2.2b", "--version", "22.12", "--build-dir", str(build_dir)).stdout
    assert "1.2.2b" in text and "Example: During a run" in text and "Golden Rules" in text


def test_cli_rule_unknown_number_and_version(build_dir):
    proc = run_cli("rule", "6.9.9", "--build-dir", str(build_dir))
    assert proc.returncode == 1
    assert "no rule 6.9.9 in CR 26.03" in proc.stderr and "6.9." in proc.stderr
    assert "Traceback" not in proc.stderr
    proc = run_cli("rule", "1.2.1", "--version", "19.01", "--build-dir", str(build_dir))
    assert proc.returncode == 2 and "19.01" in proc.stderr and "26.03" in proc.stderr


def test_cli_build_reports_each_version(tmp_path):
    proc = run_cli("build", "--source", str(cr_path("22.12")), "--build-dir", str(tmp_path / "b"))
    assert proc.returncode == 0, proc.stderr
    assert "22.12: built" in proc.stdout
    proc = run_cli("build", "--source", str(cr_path("22.12")), "--build-dir", str(tmp_path / "b"))
    assert "22.12: unchanged" in proc.stdout


def test_builds_made_by_other_code_are_redone(tmp_path):
    bdir = tmp_path / "b"
    build(str(cr_path("22.12")), bdir)
    assert build(str(cr_path("22.12")), bdir)[0].status == "unchanged"
    meta_path = bdir / "22.12" / "meta.json"
    meta = json.loads(meta_path.read_text())
    meta["code"] = "an-older-parser"
    meta_path.write_text(json.dumps(meta))
    assert build(str(cr_path("22.12")), bdir)[0].status == "built"


def test_a_mismatched_search_index_is_a_clear_library_error(tmp_path):
    src = tmp_path / "src"
    src.mkdir()
    for v in ("22.12", "23.08"):
        shutil.copy(cr_path(v), src / f"cr-{v}.html")
    bdir = tmp_path / "b"
    build(str(src), bdir)
    # put 23.08's index where 22.12's belongs, as a half-copied deployment might
    shutil.rmtree(bdir / "22.12" / "search")
    shutil.copytree(bdir / "23.08" / "search", bdir / "22.12" / "search")
    lib = Library.open(bdir)
    with pytest.raises(LibraryError, match="out of date.*nrrules build"):
        lib.searcher("22.12")
    assert lib.searcher("23.08").search("jack out", limit=1)
