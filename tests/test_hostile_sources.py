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


# ----- the judges' document (`nrrules build --judge`) -----------------------------------------

JUDGE_HEAD = b'<html><head><meta name="generator" content="LibreOffice"><title>Judge notes</title></head>'


def _judge_doc(body: bytes) -> bytes:
    return JUDGE_HEAD + b"<body>" + body + b"</body></html>"


@pytest.mark.parametrize(
    ("body", "says"),
    [
        (b"<div>" * 100_000 + b"x" + b"</div>" * 100_000, "elements nest more than 200 deep"),
        (b"<ul><li>" * 5_000 + b"x" + b"</li></ul>" * 5_000, "elements nest more than 200 deep"),
        (b"<h1>A</h1><p>" + b"<span>a</span>" * 100_001 + b"</p>", "more than 100000 elements"),
    ],
    ids=["divs-100000-deep", "lists-5000-deep", "100001-spans"],
)
def test_a_hostile_judges_document_is_one_error_line(good, tmp_path, body, says):
    bdir, _, _ = good
    doc = tmp_path / "judge.html"
    doc.write_bytes(_judge_doc(body))  # a RecursionError, a hang and a minute's work before
    result = CliRunner().invoke(main, ["build", "--judge", str(doc), "--build-dir", str(bdir)])
    assert result.exit_code == 2 and isinstance(result.exception, SystemExit), repr(result.exception)
    assert result.stderr.startswith(f"error: {doc}: ") and result.stderr.count("\n") == 1, result.stderr
    assert says in result.stderr
    assert not (bdir / "judge").exists()  # nothing published


def test_a_heading_repeated_10000_times_gets_unique_ids_quickly():
    from scraper.judge import parse_judge

    # _unique counted up from 2 for every repeat: 50 million steps for 10,000 repeats
    doc = parse_judge(_judge_doc(b"<h2>Timing</h2><p>Some ruling text.</p>" * 10_000), "judge.html")
    ids = [s.id for s in doc.sections]
    assert len(ids) == len(set(ids)) == 10_000
    assert ids[:3] == ["timing", "timing-2", "timing-3"] and ids[-1] == "timing-10000"


# ----- the shrink guard of card builds ---------------------------------------------------------


def _subset(nrdb_dir: Path, dest: Path, keep_card, rulings: bool = True) -> Path:
    """A copy of the real folder with only the cards `keep_card` keeps (their printings and
    rulings with them), without rulings/ at all unless `rulings`."""
    shutil.copytree(nrdb_dir, dest, ignore=shutil.ignore_patterns("rulings") if not rulings else None)
    kept = set()
    for path in sorted((dest / "cards").glob("*.json")):
        if keep_card(path.stem):
            kept.add(path.stem)
        else:
            path.unlink()
    for sub in ("printings", "rulings"):
        for path in (dest / sub).glob("*.json") if (dest / sub).is_dir() else ():
            rows = json.loads(path.read_text())
            rows = rows if isinstance(rows, list) else [rows]
            path.write_text(json.dumps([r for r in rows if r.get("card_id") in kept]))
    return dest


@pytest.fixture(scope="module")
def full_build(cards_built, tmp_path_factory) -> Path:
    """A copy of the session's build with the real card data (written here, never there)."""
    out = tmp_path_factory.mktemp("full") / "b"
    out.mkdir()
    for entry in cards_built.iterdir():
        if entry.name == "cards":
            shutil.copytree(entry.resolve(), out / "cards")
        elif not entry.name.startswith("."):
            (out / entry.name).symlink_to(entry.resolve())
    return out


@pytest.mark.parametrize(
    ("keep", "rulings", "says"),
    [
        (lambda cid: True, False, "has 0 rulings, the current one 886"),
        (lambda cid: cid < "m", True, "cards, the current one 1988"),  # about half
        (lambda cid: cid.startswith("ice_"), True, "cards, the current one 1988"),
        (lambda cid: sum(map(ord, cid)) % 8 != 0, True, "cards, the current one 1988"),  # ~7/8 of them
    ],
    ids=["no-rulings", "half-the-cards", "a-few-cards", "nine-tenths"],
)
def test_a_much_smaller_card_folder_is_refused(full_build, nrdb_dir, tmp_path, keep, rulings, says):
    before = (full_build / "cards" / "cards.json").read_bytes()
    src = _subset(nrdb_dir, tmp_path / "src", keep, rulings)
    assert not rulings or len(list((src / "cards").glob("*.json"))) < 0.9 * 1988
    result = CliRunner().invoke(main, ["build", "--cards", str(src), "--build-dir", str(full_build)])
    assert result.exit_code == 2 and result.stderr.count("\n") == 1, result.stderr
    assert says in result.stderr and "--force" in result.stderr, result.stderr
    assert (full_build / "cards" / "cards.json").read_bytes() == before


def test_a_smaller_card_folder_is_built_with_force(good, nrdb_dir, tmp_path):
    bdir, src, _ = good
    out = tmp_path / "b"
    shutil.copytree(bdir, out, symlinks=True)
    if (bdir / "cards").is_symlink():  # the link is relative: bring its target along
        shutil.copytree(bdir / ".v", out / ".v", dirs_exist_ok=True)
    one = tmp_path / "one"
    shutil.copytree(src, one)
    (one / "cards" / "enigma.json").unlink()
    rows = json.loads((one / "printings" / "core_set.json").read_text())
    (one / "printings" / "core_set.json").write_text(
        json.dumps([r for r in rows if r["card_id"] != "enigma"])
    )
    refused = CliRunner().invoke(main, ["build", "--cards", str(one), "--build-dir", str(out)])
    assert refused.exit_code == 2 and "has 1 cards, the current one 2" in refused.stderr
    forced = CliRunner().invoke(main, ["build", "--cards", str(one), "--force", "--build-dir", str(out)])
    assert forced.exit_code == 0, forced.stderr
    assert json.loads((out / "cards" / "meta.json").read_text())["cards"] == 1


def _judge_fifo(d: Path) -> str:
    os.mkfifo(d / "judge.html")
    return str(d / "judge.html")


def _judge_folder_link_out(d: Path) -> str:
    (d / "docs").mkdir()
    (d / "outside.html").write_bytes(_judge_doc(b"<h1>A</h1><p>x</p>"))
    os.symlink(d / "outside.html", d / "docs" / "judge.html")
    return str(d / "docs")


def _judge_folder_fifo(d: Path) -> str:
    (d / "docs").mkdir()
    os.mkfifo(d / "docs" / "judge.html")
    return str(d / "docs")


@pytest.mark.parametrize(
    ("make", "says"),
    [
        (_judge_fifo, "is a FIFO (named pipe), not a regular file"),
        (lambda d: "/dev/zero", "is a device, not a regular file"),
        (_judge_folder_link_out, "is a link leading out of"),
        (_judge_folder_fifo, "is a FIFO (named pipe)"),
    ],
    ids=["fifo", "dev-zero", "folder-link-out", "folder-fifo"],
)
def test_a_judges_source_that_is_no_regular_file_is_refused_at_once(good, tmp_path, make, says):
    bdir, _, _ = good
    spec = make(tmp_path)  # a FIFO waited 20 s for a writer; /dev/zero was read to 20 MB
    result = CliRunner().invoke(main, ["build", "--judge", spec, "--build-dir", str(bdir)])
    assert result.exit_code == 2 and result.stderr.count("\n") == 1, result.stderr
    assert result.stderr.startswith("error: ") and says in result.stderr, result.stderr
    assert not (bdir / "judge").exists()
