"""Questions citing rules as document expansion (`rules_index.expansion`): which questions reach
which rule, and how a real build takes them in, notices when they change and stays atomic."""

from __future__ import annotations

import json
import re
import shutil

import pytest
from click.testing import CliRunner
from helpers import LATEST, cr_path

from rules_index.expansion import judge_questions, question_log, questions_key, ruling_questions
from rules_index.integrity import clean_leftovers
from rules_index.offline import decode_post
from rules_index.search import index_words
from rules_index.store import Library, build, refresh_questions
from scraper.judge import parse_judge
from scraper.nrdb import load
from webapp.cli import main as cli


@pytest.fixture(scope="module")
def asked(nrdb_dir):
    return ruling_questions(load(str(nrdb_dir)).rulings)


def test_a_question_reaches_the_rule_it_cites_by_number(doc_latest, asked):
    log = question_log(doc_latest, asked, index_words)
    # NISEI's Uprising notes ask what "using" a hardware is and cite the rule defining "use".
    assert doc_latest.node("rule_using").number == "9.1.6"
    assert any('"using" a hardware' in q for q in log["rule_using"].split("\n"))
    # Rulings written before the CR cite the old run steps ("step 4.5" of a run): two-part
    # numbers are never read, so section 4.5 (score areas) gets nothing.
    assert any("step 4.5" in text for _, text in asked)
    assert doc_latest.number_index()["4.5"].id not in log
    # Every question is a real ruling's, and the rules are real rules, never examples.
    questions = {q for q, _ in asked}
    for rule_id, text in log.items():
        assert doc_latest.node(rule_id).kind != "example"
        assert all(q in questions for q in text.split("\n"))


def test_a_number_naming_no_rule_or_another_rule_adds_nothing(doc_latest):
    asked = [
        ("Can the Runner jack out now?", "Can the Runner jack out now? See rule 6.9.9z."),
        # 1.15.1a exists, but this question shares no distinctive word with it: a renumbered rule
        ("Does Hedge Fund give 9 credits?", "Does Hedge Fund give 9 credits? See rule 1.15.1a."),
        ("Is an optional ability used?", "Is an optional ability used? Rule 9.1.6 says it is."),
    ]
    log = question_log(doc_latest, asked, index_words)
    assert list(log) == ["rule_using"]
    assert questions_key(asked) == questions_key(list(reversed(asked))) != ""
    # only questions citing a rule number count: others change nothing
    assert questions_key(asked + [("Any?", "No number here.")]) == questions_key(asked)
    assert questions_key([("Any?", "No number here.")]) == ""


def test_judges_faq_items_are_questions(doc_latest):
    from helpers import JUDGE_PATH

    items = parse_judge(JUDGE_PATH.read_bytes(), JUDGE_PATH.name).items
    found = judge_questions(items)
    assert found and len(found) == sum(1 for i in items if i.kind == "faq")
    assert all(q and q in text for q, text in found)


def test_a_build_takes_in_the_questions_of_the_card_build_and_notices_their_change(tmp_path, nrdb_dir):
    from rules_index.cards import build_cards

    source = str(cr_path(LATEST))
    assert build(source, tmp_path)[0].status == "built"
    plain_meta = json.loads((tmp_path / LATEST / "meta.json").read_text())
    assert plain_meta["questions"] == ""  # no card build: the rules index is built without it
    question = 'What is "using" a hardware for the purposes of The Back?'
    before = [h.id for h in Library.open(tmp_path).searcher(LATEST).search(question, limit=10)]
    assert before[:1] != ["rule_using"]
    offline_before = json.loads((tmp_path / LATEST / "offline.json").read_text())

    build_cards(str(nrdb_dir), tmp_path)
    assert refresh_questions(tmp_path) == [LATEST]
    assert refresh_questions(tmp_path) == []  # current now
    meta = json.loads((tmp_path / LATEST / "meta.json").read_text())
    assert meta["questions"] not in ("", plain_meta["questions"])
    lib = Library.open(tmp_path)
    after = [h.id for h in lib.searcher(LATEST).search(question, limit=10)]
    # the question now finds the rule it cites, in the first five and higher than before
    assert "rule_using" in after[:5]
    assert "rule_using" not in before or before.index("rule_using") > after.index("rule_using")
    # The offline pack is written from the expanded index too: "hardware" (in the question,
    # not in 9.1.6's text) now finds 9.1.6 offline.
    assert "hardware" not in lib.document(LATEST).node("rule_using").text
    position = [r[0] for r in offline_before["rules"]].index("rule_using")

    def offline_docs(pack: dict) -> set[int]:
        return set(decode_post(pack["index"]["post"][index_words("hardware")[0]]))

    offline = json.loads((tmp_path / LATEST / "offline.json").read_text())
    assert position not in offline_docs(offline_before)
    assert position in offline_docs(offline)
    assert build(source, tmp_path)[0].status == "unchanged"

    # The card build goes away: the next build notices and rebuilds the version without it.
    (tmp_path / "cards").unlink()
    assert build(source, tmp_path)[0].status == "built"
    assert json.loads((tmp_path / LATEST / "meta.json").read_text())["questions"] == ""
    # each swap retired the build it replaced; the clean-up of a later build removes them
    clean_leftovers(tmp_path, min_age=0)
    assert len([d for d in (tmp_path / ".v").iterdir() if d.name.startswith(LATEST)]) == 1


def test_cli_build_with_cards_re_indexes_the_rules(tmp_path, nrdb_dir):
    cr = tmp_path / "cr"
    cr.mkdir()
    shutil.copy(cr_path(LATEST), cr / cr_path(LATEST).name)
    out = tmp_path / "build"
    runner = CliRunner()
    first = runner.invoke(cli, ["build", "--source", str(cr), "--build-dir", str(out)])
    assert first.exit_code == 0, first.output
    # each version's build says what its phases took (issue 37)
    assert re.search(
        r"\n    parse [\d.]+ s, document [\d.]+ s, questions [\d.]+ s, index [\d.]+ s", first.output
    )
    second = runner.invoke(cli, ["build", "--cards", str(nrdb_dir), "--build-dir", str(out)])
    assert second.exit_code == 0, second.output
    assert f"{LATEST}: re-indexed with the questions" in second.output
    # ... and so does the re-index the card build causes, as it goes
    assert re.search(
        rf"{LATEST}: re-indexed .*, [\d.]+ s \(load [\d.]+ s, .*index [\d.]+ s, vectors", second.output
    )
    third = runner.invoke(cli, ["build", "--cards", str(nrdb_dir), "--build-dir", str(out)])
    assert "re-indexed" not in third.output


def test_a_card_build_whose_questions_change_no_rule_of_a_version_does_not_re_index_it(tmp_path, nrdb_dir):
    """Issue 37: a version is re-indexed only when what its index holds changes (`asked_key`);
    a new ruling citing a number no rule of it has only brings its meta.json's key up to date."""
    import shutil

    from rules_index.cards import build_cards

    bdir = tmp_path / "b"
    build(str(cr_path(LATEST)), bdir)
    build_cards(str(nrdb_dir), bdir)
    assert refresh_questions(bdir) == [LATEST]
    target = (bdir / LATEST).resolve()
    key = json.loads((bdir / LATEST / "meta.json").read_text())["questions"]
    folder = tmp_path / "nrdb"
    shutil.copytree(nrdb_dir, folder)
    path = folder / "rulings" / "acacia.json"
    rulings = json.loads(path.read_text())
    question = "Can the Runner jack out during the approach to Acacia? See rule 6.9.9z."
    rulings.append({**rulings[0], "question": question, "answer": "No."})
    path.write_text(json.dumps(rulings))
    assert build_cards(str(folder), bdir).status == "built"
    phases: list[tuple[str, str]] = []
    assert refresh_questions(bdir, on_phase=lambda v, name: phases.append((v, name))) == []
    assert phases == [(LATEST, "load"), (LATEST, "questions")]  # no index phase ran
    meta = json.loads((bdir / LATEST / "meta.json").read_text())
    assert meta["questions"] not in ("", key)  # the new key: current, so `build` leaves it
    assert (bdir / LATEST).resolve() == target
    assert build(str(cr_path(LATEST)), bdir)[0].status == "unchanged"
    assert Library.open(bdir).searcher(LATEST).search("jack out")

    # a ruling citing one of its rules with a word of it does change it: re-indexed
    rulings.append(
        {**rulings[0], "question": "Is an optional ability used? See rule 9.1.6.", "answer": "Yes."}
    )
    path.write_text(json.dumps(rulings))
    build_cards(str(folder), bdir)
    assert refresh_questions(bdir, on_phase=lambda v, name: phases.append((v, name))) == [LATEST]
    assert (LATEST, "index") in phases and (bdir / LATEST).resolve() != target
