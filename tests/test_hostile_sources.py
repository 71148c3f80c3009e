"""One safe reader for sources (issue 38): the card-data build (`nrrules build --cards`) and the
board file of `nrrules step` read through `scraper.source.read_source` / `parse_json` (regular
files only, no link out of the source folder, size checked before reading, JSON depth, integer,
string and surrogate limits). Each hostile input is one `error:` line naming the file (and the
field), exit status 2, no traceback, no hang, and the good card build stays as it was."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from helpers import ROOT

from rules_index.cards import build_cards
from scraper import ScrapeError
from scraper.source import MAX_INT_DIGITS, parse_json, read_source
from webapp.cli import main

EXAMPLES = ROOT / "webapp" / "examples"


def _card(**extra) -> dict:
    return {
        "id": "hostile_ice",
        "title": "Hostile Ice",
        "card_type_id": "ice",
        "side_id": "corp",
        "faction_id": "neutral_corp",
        "text": "[subroutine] End the run.",
        "strength": 1,
        "cost": 1,
        **extra,
    }


def _folder(root: Path, nrdb_dir: Path) -> Path:
    """A small valid NetrunnerDB v2 folder: two real cards and their printings."""
    src = root / "src"
    (src / "cards").mkdir(parents=True)
    (src / "printings").mkdir()
    (src / "rulings").mkdir()
    for cid in ("ice_wall", "enigma"):
        shutil.copy(nrdb_dir / "cards" / f"{cid}.json", src / "cards" / f"{cid}.json")
    core = json.loads((nrdb_dir / "printings" / "core_set.json").read_text())
    (src / "printings" / "core_set.json").write_text(
        json.dumps([p for p in core if p["card_id"] in ("ice_wall", "enigma")])
    )
    return src


def _write_card(src: Path, raw: str | bytes, name: str = "hostile_ice.json") -> Path:
    path = src / "cards" / name
    path.write_bytes(raw if isinstance(raw, bytes) else raw.encode("utf-8", "surrogatepass"))
    return path


# name -> (how to damage a good folder, what the error line must say)
def _fifo(src: Path) -> None:
    os.mkfifo(src / "cards" / "hostile_ice.json")


def _link_to_zero(src: Path) -> None:
    os.symlink("/dev/zero", src / "cards" / "hostile_ice.json")


def _link_out(src: Path) -> None:
    outside = src.parent / "outside.json"
    outside.write_text(json.dumps(_card()))
    os.symlink(outside, src / "cards" / "hostile_ice.json")


def _sparse(src: Path) -> None:
    with open(src / "cards" / "hostile_ice.json", "wb") as f:
        f.truncate(3 * 1024**3)  # 3 GB, no blocks on disk


CASES = {
    "fifo": (_fifo, "is a FIFO (named pipe), not a regular file"),
    "symlink to /dev/zero": (_link_to_zero, "is a link leading out of"),
    "symlink out of the folder": (_link_out, "is a link leading out of"),
    "3 GB sparse file": (_sparse, "the file is 3221225472 bytes"),
    "nested 100,000 deep": (lambda s: _write_card(s, "[" * 100_000 + "]" * 100_000), "nested too deeply"),
    "nested 65 deep": (lambda s: _write_card(s, "[" * 65 + "]" * 65), "nested too deeply at"),
    "5,000-digit integer": (
        lambda s: _write_card(s, json.dumps(_card()).replace('"cost": 1', '"cost": ' + "9" * 5000)),
        "an integer of 5000 digits",
    ),
    "5,000-digit string cost": (
        lambda s: _write_card(s, json.dumps(_card(cost="9" * 5000))),
        "'cost' is",
    ),
    "lone surrogate in a title": (
        lambda s: _write_card(s, json.dumps(_card(title="Ice \ud800 Wall"))),
        "title holds a lone surrogate",
    ),
    "lone surrogate in a key": (
        lambda s: _write_card(s, json.dumps({**_card(), "\udc80": 1})),
        "a key in the top level holds a lone surrogate",
    ),
    "NaN": (lambda s: _write_card(s, json.dumps(_card()).replace('"cost": 1', '"cost": NaN')), "holds NaN"),
    "1 MB text": (
        lambda s: _write_card(s, json.dumps(_card(text="x" * 1_000_000))),
        "text is 1000000 characters",
    ),
    "not UTF-8": (lambda s: _write_card(s, b'{"id": "\xff"}'), "is not UTF-8 text"),
    "card id climbing out": (
        lambda s: _write_card(s, json.dumps(_card(id="../../escaped"))),
        "card id '../../escaped' is not a plain id",
    ),
    "card id with a slash": (lambda s: _write_card(s, json.dumps(_card(id="a/b"))), "is not a plain id"),
}


@pytest.fixture(scope="module")
def good(build_dir, nrdb_dir, tmp_path_factory) -> tuple[Path, Path, bytes]:
    """A build directory with the small folder's cards built (the good build), the folder."""
    root = tmp_path_factory.mktemp("hostile-sources")
    bdir = root / "build"
    bdir.mkdir()
    for entry in build_dir.iterdir():
        if not entry.name.startswith("."):
            (bdir / entry.name).symlink_to(entry.resolve())
    src = _folder(root, nrdb_dir)
    assert build_cards(str(src), bdir).cards == 2
    return bdir, src, (bdir / "cards" / "cards.json").read_bytes()


@pytest.mark.parametrize("case", list(CASES))
def test_a_hostile_card_folder_is_one_error_line(good, tmp_path, case):
    bdir, src, before = good
    damage, says = CASES[case]
    bad = tmp_path / "bad"
    shutil.copytree(src, bad)
    damage(bad)
    result = CliRunner().invoke(main, ["build", "--cards", str(bad), "--build-dir", str(bdir)])
    assert result.exit_code == 2, (result.output, result.exception)
    assert isinstance(result.exception, SystemExit), repr(result.exception)
    err = result.stderr
    assert err.startswith("error: ") and err.count("\n") == 1, err
    assert says in err, err
    assert str(bad / "cards") in err or str(bad) in err, err  # names the file (or the folder)
    assert "Traceback" not in result.output
    assert (bdir / "cards" / "cards.json").read_bytes() == before  # the good build is untouched


def test_a_link_inside_the_folder_is_read(good, tmp_path):
    bdir, src, _ = good
    ok = tmp_path / "ok"
    shutil.copytree(src, ok)
    (ok / "cards" / "other.json").write_text(json.dumps(_card()))
    os.symlink("other.json", ok / "cards" / "hostile_ice.json")  # the same record twice: fine
    out = tmp_path / "b"
    shutil.copytree(bdir, out, symlinks=True)
    assert build_cards(str(ok), out, force=True).cards == 3


def test_the_real_card_folder_passes_the_limits(nrdb_dir):
    for path in sorted(nrdb_dir.rglob("*.json"))[:400]:
        parse_json(read_source(path, 8 * 1024 * 1024, root=nrdb_dir), str(path), max_string=20_000)


def test_parse_json_names_the_field():
    with pytest.raises(ScrapeError, match=r"x\.json: \[1\]\.rulings\[0\]\.text holds a lone surrogate"):
        parse_json(json.dumps([{}, {"rulings": [{"text": "\ud800"}]}]).encode(), "x.json")
    with pytest.raises(ScrapeError, match=f"at most {MAX_INT_DIGITS}"):
        parse_json(b"[-" + b"1" * (MAX_INT_DIGITS + 1) + b"]", "x.json")
    assert parse_json(b"[-" + b"1" * MAX_INT_DIGITS + b"]", "x.json") == [-int("1" * MAX_INT_DIGITS)]
    assert parse_json("\ufeff[64]".encode(), "x.json") == [64]  # a BOM is fine
    deep = "[" * 64 + "]" * 64
    assert parse_json(deep.encode(), "x.json") is not None  # 64 levels are allowed


# ----- the board file of `nrrules step` --------------------------------------------------------


def _step(board: str, build_dir: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-c", "from webapp.cli import main; main()", "step", board, "--structure", "run",
         "--server", "hq", "--build-dir", str(build_dir)],
        capture_output=True, text=True, cwd=ROOT, timeout=60,
    )  # fmt: skip


@pytest.mark.parametrize(
    ("make", "says"),
    [
        (lambda d: "/dev/zero", "is a device, not a regular file"),
        (lambda d: (os.mkfifo(d / "board.json"), str(d / "board.json"))[1], "is a FIFO (named pipe)"),
        (lambda d: (os.symlink("/dev/zero", d / "z.json"), str(d / "z.json"))[1], "is a device"),
        (
            lambda d: (os.truncate(_touch(d / "big.json"), 3 * 1024**3), str(d / "big.json"))[1],
            "3221225472 bytes",
        ),
        (lambda d: str(d), "is a folder"),
        (lambda d: str(d / "missing.json"), "no such file"),
    ],
    ids=["dev-zero", "fifo", "symlink-dev-zero", "sparse-3GB", "folder", "missing"],
)
def test_a_hostile_board_file_is_one_error_line(build_dir, tmp_path, make, says):
    proc = _step(make(tmp_path), build_dir)  # a FIFO or /dev/zero would hang or exhaust memory
    assert proc.returncode == 2, proc.stderr[-2000:]
    assert proc.stderr.startswith("error: cannot read board file") and proc.stderr.count("\n") == 1
    assert says in proc.stderr and "Traceback" not in proc.stderr


def _touch(path: Path) -> Path:
    path.write_bytes(b"")
    return path


def test_a_real_board_file_still_steps(build_dir):
    proc = _step(str(EXAMPLES / "01-hq-ice-wall.json"), build_dir)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert "CR " in proc.stdout
