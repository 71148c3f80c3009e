"""Pages, JSON twins and CLI commands for judges' documents, rule history and changes."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from webapp import create_app
from webapp.cli import main


@pytest.fixture(scope="module")
def client(judge_build_dir):
    app = create_app({"TESTING": True, "BUILD_DIR": str(judge_build_dir), "SECRET_KEY": "judge-test"})
    return app.test_client()


def test_judge_item_page_and_json(client):
    item_id = "timing-structure-of-a-run.movement-phase"
    data = client.get(f"/api/judge/{item_id}").get_json()
    assert data["source"] == "judge" and data["title"] == "Movement Phase"
    jack = next(ln for ln in data["timing"] if ln["label"] == "4.c")
    assert jack["id"] == "step_jack_out_choice" and jack["url"] == "/id/step_jack_out_choice?v=23.08"
    page = client.get(f"/j/{item_id}")
    assert page.status_code == 200
    body = page.get_data(as_text=True)
    assert 'href="/id/step_jack_out_choice?v=23.08"' in body and "Movement Phase" in body
    missing = client.get("/api/judge/no.such.item")
    assert missing.status_code == 404 and "no judge item" in missing.get_json()["error"]
    assert client.get("/j/no.such.item").status_code == 404


def test_judge_search_api(client):
    data = client.get("/api/judge/search?q=player+drew+too+many+cards").get_json()
    assert data["results"][0]["id"].endswith("if-a-player-draws-too-many")
    assert all(r["source"] == "judge" for r in data["results"])
    assert client.get("/api/judge/search").status_code == 400
    assert client.get("/api/judge/search?q=x&limit=0").status_code == 400


def test_rule_page_lists_judge_items_and_history(client):
    body = client.get("/id/step_jack_out_choice").get_data(as_text=True)
    assert 'href="/j/timing-structure-of-a-run.movement-phase"' in body
    body = client.get("/r/6.1.5").get_data(as_text=True)
    assert 'id="history"' in body and "<del>rule </del><ins>section </ins>" in body


def test_history_api(client):
    data = client.get("/api/history/6.1.5").get_json()
    assert data["id"] == "rule_jacking_out" and len(data["versions"]) == 6
    changed = [c for c in data["changes"] if c["reworded"]]
    assert [(c["from"], c["to"]) for c in changed] == [("25.08", "26.03")]
    assert data["versions"][-1]["url"] == "/id/rule_jacking_out"  # latest: no version in the link
    assert data["versions"][0]["url"] == "/id/rule_jacking_out?v=22.12"
    paw = client.get("/api/history/step_initiation_paw").get_json()
    assert paw["first"] == "25.04"
    assert client.get("/api/history/99.99.99").status_code == 404


def test_changes_page_and_json(client):
    data = client.get("/api/changes/24.03..25.04").get_json()
    rows = {r["id"] for s in data["sections"] for r in s["rules"]}
    for entry in data["summary"]:
        for t in entry["targets"]:
            if t["changed"]:
                assert t["id"] in rows
    assert "rule_host_corp_card_uninstall" in rows
    page = client.get("/changes/24.03..25.04")
    assert page.status_code == 200
    body = page.get_data(as_text=True)
    assert 'id="summary"' in body and 'id="c-rule_host_corp_card_uninstall"' in body
    assert client.get("/api/changes/24.03..99.99").status_code == 404
    assert client.get("/api/changes/garbage").status_code == 400
    assert client.get("/api/changes/25.08..25.08").status_code == 400


def test_cli_history_changes_and_judge(judge_build_dir):
    runner = CliRunner()
    out = runner.invoke(main, ["history", "6.1.5", "--build-dir", str(judge_build_dir)])
    assert out.exit_code == 0 and "[-rule-]" in out.output and "{+section+}" in out.output
    out = runner.invoke(main, ["changes", "25.08", "26.03", "--json", "--build-dir", str(judge_build_dir)])
    assert out.exit_code == 0
    data = json.loads(out.output)
    assert data["from"] == "25.08" and data["counts"]["added"] > 0
    out = runner.invoke(main, ["changes", "25.08", "99.99", "--build-dir", str(judge_build_dir)])
    assert out.exit_code == 2 and out.output.startswith("error:") and "Traceback" not in out.output
    out = runner.invoke(main, ["judge", "three", "warnings", "--build-dir", str(judge_build_dir)])
    assert out.exit_code == 0 and out.output.startswith("Warning  [penalties.warning]")


def test_cli_build_judge_bad_input(tmp_path):
    bad = tmp_path / "x.html"
    bad.write_text("<html><body><p>No headings here at all, only words.</p></body></html>")
    out = CliRunner().invoke(main, ["build", "--judge", str(bad), "--build-dir", str(tmp_path / "b")])
    assert out.exit_code == 2 and "no headings" in out.output


def test_cli_judge_json_is_the_api_body(client, judge_build_dir):
    out = CliRunner().invoke(
        main, ["judge", "three", "warnings", "-n", "5", "--json", "--build-dir", str(judge_build_dir)]
    )
    assert out.exit_code == 0, out.output
    api = client.get("/api/judge/search?q=three%20warnings&limit=5").get_json()
    assert json.loads(out.output) == api and api["results"]
