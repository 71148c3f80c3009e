"""Per-record schemas (issue 38, `scraper.schema`): every card, printing and ruling record and every
judges' document record is checked field by field (types, ranges, lengths, id forms, known
values, counts) when the build is made AND when it is opened. A damaged record is refused with
its id and the field's path; the good build stays as it was (built) and served (opened).

The hostile inputs of the issue's list each have a test: nested JSON 100,000 deep, a 5,000-digit
integer, a lone surrogate, a symlink to /dev/zero, a 3 GB sparse file, a FIFO named *.json and a
1 MB text are in tests/test_hostile_sources.py (the safe reader); 200,000 "[" in a card's text
and 10,000 rulings on one card are here, beside the schema's own cases."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner
from helpers import JUDGE_PATH, cr_path
from test_cards import _small_folder

from rules_index.cards import CardsNotBuilt, CardStore, build_cards
from rules_index.integrity import manifest
from rules_index.judge import JudgeDamaged, JudgeStore, build_judge
from rules_index.store import Library, build
from rules_index.unified import available_sources, unavailable_sources
from scraper import ScrapeError
from scraper.nrdb import load
from scraper.schema import CARD, JUDGE_DOCUMENT, RULING, problem
from webapp.cli import main


@pytest.fixture(scope="module")
def good(tmp_path_factory, nrdb_dir) -> tuple[Path, Path]:
    """CR 26.03, three real cards with their rulings and the real judges' excerpt, built; the
    card folder it was built from."""
    root = tmp_path_factory.mktemp("records")
    bdir = root / "build"
    build(str(cr_path("26.03")), bdir)
    src = _small_folder(nrdb_dir, root / "nrdb")
    build_cards(str(src), bdir)
    build_judge(str(JUDGE_PATH), bdir)
    return bdir, src


def _edit_card(src: Path, card_id: str, **fields) -> None:
    path = src / "cards" / f"{card_id}.json"
    path.write_text(json.dumps({**json.loads(path.read_text()), **fields}))


def _rulings(src: Path, card_id: str, rows: list[dict]) -> None:
    (src / "rulings" / f"{card_id}.json").write_text(json.dumps(rows))


def _ruling(n: int, **extra) -> dict:
    return {"card_id": "snare", "text_ruling": f"Ruling {n}.", "date_update": "2024-01-01", **extra}


# name -> (how to damage a copy of the good folder, what the one error line must say)
BUILD_CASES = {
    "strength -5": (
        lambda s: _edit_card(s, "ice_wall", strength=-5),
        "card 'ice_wall': strength: -5 is below 0",
    ),
    "cost 1000": (lambda s: _edit_card(s, "snare", cost=1000), "card 'snare': cost: 1000 is above 99"),
    "unknown type": (
        lambda s: _edit_card(s, "ice_wall", card_type_id="spaceship"),
        "card 'ice_wall': card_type_id: 'spaceship' is not a known value",
    ),
    "unknown side": (
        lambda s: _edit_card(s, "ice_wall", side_id="neutral"),
        "card 'ice_wall': side_id: 'neutral' is not a known value",
    ),
    "unknown faction": (
        lambda s: _edit_card(s, "snare", faction_id="martians"),
        "card 'snare': faction_id: 'martians' is not a known value",
    ),
    "subtype climbing out": (
        lambda s: _edit_card(s, "ice_wall", subtypes=["../x"]),
        "card 'ice_wall': subtypes[0]: '../x' is not of the form",
    ),
    "100 subtypes": (
        lambda s: _edit_card(s, "ice_wall", subtypes=["barrier"] * 100),
        "card 'ice_wall': subtypes: has 100 entries, more than 30",
    ),
    "a title of 1,000 characters": (
        lambda s: _edit_card(s, "snare", title="S" * 1000),
        "card 'snare': title: is 1000 characters, more than 300",
    ),
    "cost as words": (lambda s: _edit_card(s, "snare", cost="four"), "'cost' is 'four', not a whole number"),
    "200,000 [ in a card's text": (
        lambda s: _edit_card(s, "snare", text="[" * 200_000),
        "text is 200000 characters",
    ),
    "10,000 rulings on a card": (
        lambda s: _rulings(s, "snare", [_ruling(n) for n in range(10_000)]),
        "card 'snare' has more than 500 rulings",
    ),
    "a ruling dated 'yesterday'": (
        lambda s: _rulings(s, "snare", [_ruling(1, date_update="yesterday")]),
        "ruling 1 of card 'snare': date_update: 'yesterday' is not of the form",
    ),
    "a printing of 1,000 copies": (
        lambda s: (s / "printings" / "core_set.json").write_text(
            json.dumps(
                [
                    {**p, "quantity": 1000} if p["card_id"] == "snare" else p
                    for p in json.loads((s / "printings" / "core_set.json").read_text())
                ]
            )
        ),
        ": quantity: 1000 is above 99",
    ),
}


@pytest.mark.parametrize("case", list(BUILD_CASES))
def test_a_damaged_record_is_refused_at_build_naming_its_id_and_field(good, tmp_path, case):
    bdir, src = good
    damage, says = BUILD_CASES[case]
    bad = shutil.copytree(src, tmp_path / "bad")
    damage(bad)
    before = (bdir / "cards" / "cards.json").read_bytes()
    result = CliRunner().invoke(main, ["build", "--cards", str(bad), "--build-dir", str(bdir), "--force"])
    assert result.exit_code == 2 and isinstance(result.exception, SystemExit), (
        result.output,
        result.exception,
    )
    err = result.stderr
    assert err.startswith("error: ") and err.count("\n") == 1, err
    assert says in err and str(bad) in err, err  # the file, the record's id and the field's path
    assert "Traceback" not in result.output
    assert (bdir / "cards" / "cards.json").read_bytes() == before  # the good build is untouched


def test_the_real_card_data_passes_every_record_schema(nrdb_dir):
    data = load(str(nrdb_dir))
    assert len(data.cards) > 1900 and len(data.rulings) > 800
    assert all(problem(c, CARD) is None for c in data.cards.values())
    assert all(problem(r, RULING) is None for r in data.rulings)


def test_a_strength_of_minus_five_is_read_as_a_problem_and_zero_is_not():
    card = {"id": "x", "title": "X", "card_type_id": "ice", "side_id": "corp", "faction_id": "nbn"}
    assert problem({**card, "strength": 0}, CARD) is None
    assert problem({**card, "strength": -5}, CARD) == "strength: -5 is below 0"
    assert problem({**card, "strength": True}, CARD) == "strength: is True, not a whole number"
    assert problem({**card, "subtypes": "barrier"}, CARD) == "subtypes: is str, not a list"
    assert problem({**card, "faction_id": "nbn"}, CARD, {"factions": {"anarch"}}).startswith("faction_id")
    assert problem({k: v for k, v in card.items() if k != "title"}, CARD) == "title: is missing"


# ----- when a build is opened: a record that passes no schema is refused ---------------------


def _reseal(folder: Path, rel: str, data: bytes) -> None:
    """Write ``rel`` and record its new checksum, as a build would: only the schema can catch it."""
    (folder / rel).write_bytes(data)
    meta = json.loads((folder / "meta.json").read_text())
    meta["files"] = manifest(folder)
    (folder / "meta.json").write_text(json.dumps(meta))


def _private_copy(bdir: Path, dest: Path, name: str) -> Path:
    """A copy of the build whose ``name`` build is a folder of its own (not shared with `bdir`)."""
    shutil.copytree(bdir, dest, symlinks=True)
    target = (dest / name).resolve()
    (dest / name).unlink()
    shutil.copytree(target, dest / name)
    return dest / name


@pytest.mark.parametrize(
    ("edit", "says"),
    [
        (lambda raw: raw["cards"][0].update(strength=-5), "card 'account_siphon': strength: -5 is below 0"),
        (lambda raw: raw["cards"][1].update(side_id="neutral"), "card 'ice_wall': side_id: 'neutral'"),
        (lambda raw: raw["cards"][2].update(cost="9"), "card 'snare': cost: is '9', not a whole number"),
        (
            lambda raw: raw["cards"][1].update(id="../../x"),
            "card '../../x': id: '../../x' is not of the form",
        ),
        (lambda raw: raw["rulings"][0].update(date_update=5), "rulings[0] (of card "),
        (lambda raw: raw["rulings"][0].update(card_id="nobody"), "card_id: 'nobody' is not among the cards"),
        (
            lambda raw: raw["printings"][0].update(card_set_id="../s"),
            "card_set_id: '../s' is not of the form",
        ),
    ],
    ids=["strength", "side", "cost-string", "id-climbing", "ruling-date", "ruling-orphan", "printing-set"],
)
def test_a_damaged_record_in_a_sealed_card_build_is_refused_when_opened(good, tmp_path, edit, says):
    bdir, _ = good
    folder = _private_copy(bdir, tmp_path / "b", "cards")
    raw = json.loads((folder / "cards.json").read_text())
    raw["cards"].sort(key=lambda c: c["id"])
    edit(raw)
    _reseal(folder, "cards.json", json.dumps(raw).encode())
    with pytest.raises(CardsNotBuilt, match="the card build is damaged") as err:
        CardStore.open(tmp_path / "b")
    assert says in str(err.value), str(err.value)
    assert str(tmp_path) not in str(err.value)  # no server path in what a page may show


@pytest.mark.parametrize(
    ("edit", "says"),
    [
        (lambda d: d["items"][3].update(order=-1), "items[3](id "),
        (lambda d: d["items"][0].update(kind="poem"), "kind: 'poem' is not a known value"),
        (lambda d: d["items"][0].update(id="../../etc"), "id: '../../etc' is not of the form"),
        (lambda d: d["sections"][0].update(level="1"), "sections[0]"),
        (
            lambda d: d["items"][1]["lines"].append({"label": None, "depth": 0, "text": 5, "html": ""}),
            "text: is int",
        ),
        (lambda d: d.update(generator="word"), "[0].generator: 'word' is not a known value"),
    ],
    ids=["order", "kind", "id", "level", "line-text", "generator"],
)
def test_a_damaged_record_in_a_sealed_judges_build_is_refused_when_opened(good, tmp_path, edit, says):
    bdir, _ = good
    folder = _private_copy(bdir, tmp_path / "b", "judge")
    docs = json.loads((folder / "documents.json").read_text())
    edit(docs[0])
    _reseal(folder, "documents.json", json.dumps(docs).encode())
    with pytest.raises(JudgeDamaged, match="documents.json: ") as err:
        JudgeStore.open(tmp_path / "b")
    assert says in str(err.value), str(err.value)
    # the rules are served without it, and search says the judges' build is left out
    lib = Library.open(tmp_path / "b")
    assert lib.document("26.03").node("rule_using") is not None
    assert "judge" not in available_sources(lib) and "judge" in unavailable_sources(lib)


def test_the_real_judges_document_passes_its_schema(good):
    bdir, _ = good
    docs = json.loads((bdir / "judge" / "documents.json").read_text())
    assert docs and all(problem(d, JUDGE_DOCUMENT) is None for d in docs)
    assert JudgeStore.open(bdir).items()


def test_a_judges_source_making_an_unservable_record_is_refused_at_build(good, tmp_path):
    """A paragraph of 250,000 characters is read by the flattener, but no item may be longer
    than 200,000: refused at build, before anything is published."""
    bdir, _ = good
    out = tmp_path / "b"
    shutil.copytree(bdir, out, symlinks=True)
    before = (out / "judge").resolve()
    doc = tmp_path / "judge.html"
    item = "<p>" + "x" * 250_000 + "</p>"  # one paragraph longer than any item may be
    doc.write_text(
        '<html><head><meta name="generator" content="LibreOffice"><title>J</title></head><body>'
        f"<h1>Timing</h1>{item}</body></html>"
    )
    with pytest.raises(
        ScrapeError,
        match=r"cannot be served: items\[0\]\(id .timing\.x+\.\.\.\)\.(title|text): is 2\d{5} characters, more than 200000",
    ):
        build_judge(str(doc), out, force=True)
    assert (out / "judge").resolve() == before


def _publish_sealed(bdir: Path, name: str, origin: Path, label: str, rel: str, edit) -> Path:
    """A copy of the build ``origin`` with ``rel`` edited and resealed, swapped in under ``name``
    as `store.publish` swaps a build (a link replaced atomically)."""
    new = origin.parent / label
    shutil.copytree(origin, new)
    raw = json.loads((new / rel).read_text())
    edit(raw)
    _reseal(new, rel, json.dumps(raw).encode())
    link = bdir / f".link-{label}"
    link.symlink_to(new.relative_to(bdir))
    link.replace(bdir / name)
    return new


def _card(raw: dict, card_id: str) -> dict:
    return next(c for c in raw["cards"] if c["id"] == card_id)


@pytest.mark.parametrize("name", ["cards", "judge"])
def test_a_running_library_keeps_serving_the_good_build_when_a_damaged_one_lands(good, tmp_path, name):
    bdir, _ = good
    out = tmp_path / "b"
    shutil.copytree(bdir, out, symlinks=True)
    shelf = (bdir / name).resolve().parent.name
    shutil.copytree(bdir / shelf, out / shelf, dirs_exist_ok=True)  # its own builds, not shared
    lib = Library.open(out)
    served = lib.cards() if name == "cards" else lib.judge()
    assert served is not None
    if name == "cards":
        damage = lambda raw: _card(raw, "ice_wall").update(strength=-5)  # noqa: E731
        better = lambda raw: _card(raw, "ice_wall").update(title="Ice Wall (reprinted)")  # noqa: E731
        rel = "cards.json"
    else:
        damage = lambda docs: docs[0]["items"][0].update(kind="poem")  # noqa: E731
        better = lambda docs: docs[0]["items"][0].update(title="A sound new title")  # noqa: E731
        rel = "documents.json"
    origin = (out / name).resolve()
    _publish_sealed(out, name, origin, f"{name}-damaged", rel, damage)
    assert lib.follow(now=True) is False  # nothing new is served
    now = lib.cards() if name == "cards" else lib.judge()
    assert now is served and name not in lib.source_problems and name in available_sources(lib)
    _publish_sealed(out, name, origin, f"{name}-sound", rel, better)
    assert lib.follow(now=True) is True
    now = lib.cards() if name == "cards" else lib.judge()
    assert now is not served and name in available_sources(lib)
    if name == "cards":
        assert now.card("ice_wall").title == "Ice Wall (reprinted)"
    else:
        assert now.items()[0].title == "A sound new title"
