"""`nrrules export` (issue 38): every file's path is checked to stay inside the export (a card id
"../../x" in the card data wrote outside it), the exported folder is readable by a web server
user (mkdtemp made it 0700), and what a killed export leaves beside its target is removed by the
next export."""

from __future__ import annotations

import json
import os
import shutil
import signal
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest
from helpers import LATEST, ROOT

from rules_index.cards import CardsNotBuilt, CardStore
from rules_index.integrity import META_FILE, manifest
from webapp.export import ExportError, check_rel, clean_leftovers, export_site


@pytest.mark.parametrize(
    "rel",
    ["../x", "c/../../x/index.html", "api/cards/..", "/etc/passwd", "c//index.html", "a/./b", "c/x\x00/y",
     "c\\..\\x", "", "x" * 2000],
)  # fmt: skip
def test_paths_that_leave_the_export_are_refused(rel):
    with pytest.raises(ExportError, match="not a plain path inside the export"):
        check_rel(rel)


@pytest.mark.parametrize(
    "rel", ["index.html", "c/ice_wall/index.html", "api/terms/paid ability", "v/22.12/all/index.html"]
)
def test_plain_paths_pass(rel):
    assert check_rel(rel) == rel


def _tree(root: Path) -> set[str]:
    return {str(p.relative_to(root)) for p in root.rglob("*")}


@pytest.fixture()
def altered_cards_build(cards_built, tmp_path) -> Path:
    """A build whose card data holds a card id climbing out of any folder (cards.json altered
    after the build; its checksums, kept in meta.json, no longer match)."""
    bdir = tmp_path / "build"
    bdir.mkdir()
    for entry in cards_built.iterdir():
        if entry.name == "cards":
            shutil.copytree(entry.resolve(), bdir / "cards")
        elif not entry.name.startswith("."):
            (bdir / entry.name).symlink_to(entry.resolve())
    data_path = bdir / "cards" / "cards.json"
    data = json.loads(data_path.read_text(encoding="utf-8"))
    old = data["cards"][0]["id"]
    data["cards"][0]["id"] = "../../../escaped"
    for key in ("printings", "rulings"):
        for rec in data[key]:
            if rec.get("card_id") == old:
                rec["card_id"] = "../../../escaped"
    data_path.write_text(json.dumps(data), encoding="utf-8")
    return bdir


@pytest.fixture()
def hostile_cards_build(altered_cards_build) -> Path:
    """The altered build with its checksums rewritten to match, as a hostile build directory
    would hold it: the checksums pass, and the card record schema checked when the build is
    opened (`scraper.schema`) refuses the id; the export's own path checks
    (`test_paths_that_leave_the_export_are_refused`) stand behind it."""
    cards = altered_cards_build / "cards"
    meta = json.loads((cards / META_FILE).read_text(encoding="utf-8"))
    meta["files"] = manifest(cards)
    (cards / META_FILE).write_text(json.dumps(meta, indent=1), encoding="utf-8")
    with pytest.raises(CardsNotBuilt, match=r"card '\.\./\.\./\.\./escaped': id: .* is not of the form"):
        CardStore.open(altered_cards_build)
    return altered_cards_build


def test_a_card_id_climbing_out_writes_nothing_outside(hostile_cards_build, tmp_path):
    area = tmp_path / "area"
    target = area / "deep" / "site"
    target.parent.mkdir(parents=True)
    before = _tree(tmp_path)
    with pytest.raises(ExportError):
        export_site(target, hostile_cards_build, versions=[LATEST], jobs=1)
    after = _tree(tmp_path)
    created = after - before
    assert not [p for p in created if "escaped" in p], created
    assert not (tmp_path / "escaped").exists() and not (tmp_path.parent / "escaped").exists()
    assert not target.exists()  # nothing half-written is left as the export
    assert not [p for p in target.parent.iterdir() if p.name.startswith(".site-")]  # nor its temp dir
    # the CLI: one error line, exit status 2
    proc = subprocess.run(
        [sys.executable, "-c", "from webapp.cli import main; main()", "export", str(target),
         "--version", LATEST, "--jobs", "1", "--build-dir", str(hostile_cards_build)],
        capture_output=True, text=True, cwd=ROOT, timeout=600,
    )  # fmt: skip
    assert proc.returncode == 2, proc.stderr[-2000:]
    assert proc.stderr.startswith("error: ") and proc.stderr.count("\n") == 1, proc.stderr[-2000:]
    assert "Traceback" not in proc.stderr and not (tmp_path.parent / "escaped").exists()


def test_an_altered_card_build_is_refused_and_nothing_is_written(altered_cards_build, tmp_path):
    target = tmp_path / "site"
    with pytest.raises(ExportError, match="the card build cannot be exported: the card build is damaged"):
        export_site(target, altered_cards_build, versions=[LATEST], jobs=1)
    assert not target.exists() and not [p for p in tmp_path.iterdir() if p.name.startswith(".site-")]
    assert not (tmp_path / "escaped").exists() and not (tmp_path.parent / "escaped").exists()


def test_a_killed_export_is_cleaned_up_and_the_export_is_readable(build_dir, tmp_path):
    target = tmp_path / "site"
    proc = subprocess.Popen(
        [sys.executable, "-c", "from webapp.cli import main; main()", "export", str(target),
         "--version", LATEST, "--build-dir", str(build_dir)],
        cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True,
    )  # fmt: skip
    deadline = time.monotonic() + 300
    try:
        while True:  # kill it (and its worker processes) once it has written some files
            temps = [p for p in tmp_path.iterdir() if p.name.startswith(".site-export-")]
            if temps and sum(1 for _ in temps[0].rglob("*.html")) > 50:
                break
            assert proc.poll() is None and time.monotonic() < deadline, (
                "the export ended before it was killed"
            )
            time.sleep(0.05)
    finally:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=30)
    left = [p.name for p in tmp_path.iterdir() if p.name.startswith(".site-")]
    assert left, "the killed export left nothing behind to clean"
    running = tmp_path / f".site-export-{os.getpid()}-running"  # an export still running keeps its own
    running.mkdir()
    old_mask = os.umask(0o022)
    try:
        result = export_site(target, build_dir, versions=[LATEST])
    finally:
        os.umask(old_mask)
    assert result.files > 1000
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(
        [".site-export-" + f"{os.getpid()}-running", "site"]
    )
    assert clean_leftovers(target) == []  # nothing else to remove
    modes = {p: stat.S_IMODE(p.stat().st_mode) for p in [target, *target.rglob("*")]}
    for path, mode in modes.items():
        assert mode == (0o755 if path.is_dir() else 0o644), (path, oct(mode))
