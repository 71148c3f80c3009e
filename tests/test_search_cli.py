"""`nrrules search/refs/graph/path/most-cited/card/term/across` on a real build directory."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from rules_index.store import build
from webapp.cli import main


@pytest.fixture(scope="module")
def build_dir(cr_dir, tmp_path_factory):
    path = tmp_path_factory.mktemp("cli-build")
    for version in ("22.12", "26.03"):
        build(str(cr_dir / f"cr-{version}.html"), path)
    return path


@pytest.fixture()
def run(build_dir):
    runner = CliRunner()

    def invoke(*args):
        result = runner.invoke(main, [*args, "--build-dir", str(build_dir)])
        assert "Traceback" not in result.output
        return result

    return invoke


def test_search_text_and_json(run):
    out = run("search", "jack out", "-n", "3")
    assert out.exit_code == 0, out.output
    assert "CR 26.03" in out.output and "[rule_jacking_out]" in out.output
    data = json.loads(run("search", "jack", "out", "--json").output)
    assert data["version"] == "26.03" and data["query"] == "jack out"
    assert data["results"][0]["id"] in {"rule_jacking_out", "step_jack_out_choice"}
    assert set(data["results"][0]) >= {
        "id",
        "number",
        "title",
        "kind",
        "snippet",
        "breadcrumb",
        "score",
        "match",
    }


def test_search_version_selection(run):
    old = json.loads(run("search", "1.3.3", "--version", "22.12", "--json").output)
    new = json.loads(run("search", "1.3.3", "--json").output)
    assert old["version"] == "22.12" and old["results"][0]["id"] == "rule_symbol_credits"
    assert new["results"][0]["id"] != "rule_symbol_credits"


def test_search_errors(run):
    bad = run("search", "x", "--version", "99.9")
    assert bad.exit_code == 2 and bad.output.startswith("error: CR version '99.9' is not available")
    none = run("search", "zzzzqqqq")
    assert none.exit_code == 1
    hostile = run("search", '"unbalanced NOT OR *', "--json")
    assert hostile.exit_code == 0 and isinstance(json.loads(hostile.output)["results"], list)


def test_refs(run):
    out = run("refs", "6.9.4c")
    assert out.exit_code == 0
    assert "cites (1):" in out.output and "[rule_sec_run_run_ends_phase]" in out.output
    data = json.loads(run("refs", "rule 6.9.6", "--json").output)
    assert data["id"] == "rule_sec_run_run_ends_phase"
    assert "step_jack_out_choice" in {c["id"] for c in data["cited_by"]}
    missing = run("refs", "6.9.9")
    assert missing.exit_code == 1
    assert "error: no rule 6.9.9 in CR 26.03; nearest: 6.9, " in missing.output


def test_graph_path_and_queries(run):
    hood = json.loads(run("graph", "step_jack_out_choice", "--kinds", "cites", "--json").output)
    assert {n["id"] for n in hood["nodes"]} == {"step_jack_out_choice", "rule_sec_run_run_ends_phase"}
    assert run("graph", "6.9.4c", "--kinds", "bogus").exit_code == 2
    path = json.loads(run("path", "1.1.2", "1.9.5e", "--json").output)
    assert [p["number"] for p in path["path"]] == ["1.1.2", "1.9", "1.9.5", "1.9.5e"]
    assert run("path", "1.1.2", "1.9.5e", "--cites-only").exit_code == 1
    top = json.loads(run("most-cited", "-n", "3", "--json").output)["rules"]
    assert len(top) == 3 and top[0]["count"] >= top[-1]["count"]
    card = json.loads(run("card", "The", "Cleaners", "--json").output)
    assert "rule_suffer_or_take_damage" in {r["id"] for r in card["rules"]}
    assert run("card", "No Such Card Here").exit_code == 1
    term = json.loads(run("term", "core damage", "--json").output)
    assert [d["id"] for d in term["defines"]] == ["rule_core_damage"]


def test_across_versions(run):
    data = json.loads(run("across", "1.3.2", "--json").output)
    assert data["id"] == "rule_symbol_credits"
    assert [(r["version"], r["number"]) for r in data["versions"]] == [("22.12", "1.3.3"), ("26.03", "1.3.2")]
    gone = json.loads(run("across", "rule_game_numbers", "--json").output)
    assert [r["present"] for r in gone["versions"]] == [False, True]


def test_nothing_built(tmp_path):
    result = CliRunner().invoke(main, ["search", "jack out", "--build-dir", str(tmp_path)])
    assert result.exit_code == 2
    assert result.output.startswith("error: no CR versions are built")
