"""Cross-version mapping by stable id, over all six real CR versions."""

from __future__ import annotations

from rules_index.mapping import across_versions, renumbered, resolve_id

VERSIONS = ["22.12", "23.08", "24.03", "25.04", "25.08", "26.03"]


def test_a_rule_in_every_version(documents):
    rows = across_versions(documents, "step_jack_out_choice")
    assert [r["version"] for r in rows] == VERSIONS
    assert all(r["present"] and r["number"] == "6.9.4c" for r in rows)
    for row in rows:
        assert row["text"] == documents[row["version"]].node("step_jack_out_choice").text
        assert set(row) == {"version", "present", "number", "title", "text"}


def test_renumbered_rule_keeps_its_id(documents):
    rows = {r["version"]: r for r in across_versions(documents, "rule_symbol_credits")}
    assert rows["22.12"]["number"] == "1.3.3"
    assert rows["26.03"]["number"] == "1.3.2"
    assert "credit" in rows["26.03"]["text"]


def test_rule_not_present_in_older_versions(documents):
    rows = {r["version"]: r for r in across_versions(documents, "rule_game_numbers")}
    assert rows["22.12"] == {
        "version": "22.12",
        "present": False,
        "number": None,
        "title": None,
        "text": None,
    }
    assert rows["26.03"]["present"] and rows["26.03"]["number"] == "1.1.3"
    present = [v for v in VERSIONS if rows[v]["present"]]
    assert present == VERSIONS[VERSIONS.index(present[0]) :], "once added, it stays"


def test_removed_rule(documents):
    rows = {r["version"]: r for r in across_versions(documents, "rule_cannot_ncigs")}
    assert rows["22.12"]["present"] and not rows["26.03"]["present"]


def test_accepts_a_list_in_any_order_and_unknown_ids(documents):
    docs = [documents["26.03"], documents["22.12"]]
    rows = across_versions(docs, "no_such_rule_id")
    assert [r["version"] for r in rows] == ["22.12", "26.03"]
    assert not any(r["present"] for r in rows)


def test_resolve_and_renumbered(documents):
    assert resolve_id(documents["22.12"], "1.3.3") == "rule_symbol_credits"
    assert resolve_id(documents["26.03"], "1.3.3") != "rule_symbol_credits"
    changes = renumbered(documents["22.12"], documents["26.03"])
    assert {"id": "rule_symbol_credits", "old": "1.3.3", "new": "1.3.2"} in changes
    for change in changes:
        assert documents["22.12"].node(change["id"]).number == change["old"]
        assert documents["26.03"].node(change["id"]).number == change["new"]
    assert renumbered(documents["26.03"], documents["26.03"]) == []
