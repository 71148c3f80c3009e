"""Rule history across the six real CR versions and what changed between two versions."""

from __future__ import annotations

import json

import pytest
from helpers import VERSIONS

from rules_index.history import changes, diff_html, history, word_diff


def _rebuild(ops, side):
    return "".join(t for op, t in ops if op == "=" or op == side)


def test_6_1_5_changes_only_rule_to_section(documents):
    node_id = next(n.id for n in documents["26.03"].nodes if n.number == "6.1.5")
    h = history(documents, node_id)
    assert h["present_in"] == VERSIONS
    changed = [c for c in h["changes"] if c["reworded"]]
    assert [(c["from"], c["to"]) for c in changed] == [("25.08", "26.03")]
    ops = changed[0]["diff"]
    assert [o for o in ops if o[0] != "="] == [["-", "rule "], ["+", "section "]]
    old, new = documents["25.08"].node(node_id).text, documents["26.03"].node(node_id).text
    assert _rebuild(ops, "-") == old and _rebuild(ops, "+") == new
    assert "<del>rule </del><ins>section </ins>" in diff_html(ops)


def test_step_jack_out_choice(documents):
    h = history(documents, "step_jack_out_choice")
    assert h["present_in"] == VERSIONS
    assert {v["number"] for v in h["versions"]} == {"6.9.4c"}
    for step in h["changes"]:
        old = documents[step["from"]].node("step_jack_out_choice")
        new = documents[step["to"]].node("step_jack_out_choice")
        assert step["reworded"] == (old.text != new.text or old.examples != new.examples)
        assert not step["renumbered"]


def test_step_initiation_paw_is_new_in_25_04(documents):
    h = history(documents, "step_initiation_paw")
    assert h["first"] == "25.04"
    assert [v["present"] for v in h["versions"]] == [False, False, False, True, True, True]
    assert [v["number"] for v in h["versions"] if v["present"]] == ["6.9.1e"] * 3
    assert history(documents, "no_such_rule_anywhere") is None
    c = changes(documents["24.03"], documents["25.04"])
    added = [r for s in c["sections"] for r in s["rules"] if r["id"] == "step_initiation_paw"]
    assert added and added[0]["change"] == ["added"]


def test_changes_24_03_to_25_04_contain_the_summary_rules(documents):
    old, new = documents["24.03"], documents["25.04"]
    c = changes(old, new)
    rows = {r["id"]: r for s in c["sections"] for r in s["rules"]}
    assert len(c["summary"]) == len(new.changes) > 0
    for entry in c["summary"]:
        for t in entry["targets"]:
            if t["changed"]:
                assert t["id"] in rows
            for inner in t["changed_within"]:
                assert inner in rows
        assert entry["confirmed"] == any(t["changed"] or t["changed_within"] for t in entry["targets"])
    named = {t for ch in new.changes for t in ch.targets}
    assert "rule_host_corp_card_uninstall" in named and rows["rule_host_corp_card_uninstall"]["change"] == [
        "added"
    ]
    assert c["summary_stats"]["confirmed"] >= 0.8 * len(new.changes)
    # every row's claim holds against the two documents
    for node_id, row in rows.items():
        a, b = old.node(node_id), new.node(node_id)
        if "added" in row["change"]:
            assert a is None and b is not None
        elif "removed" in row["change"]:
            assert b is None and a is not None
        else:
            assert ("renumbered" in row["change"]) == (a.number != b.number)
    for u in c["unmentioned"]:
        assert u["id"] in rows and u["id"] not in named
    counts = c["counts"]
    assert counts["added"] == sum(1 for n in new.nodes if n.kind != "example" and old.node(n.id) is None)


@pytest.mark.parametrize(
    ("old", "new", "changed"),
    [
        ("a b c", "a x c d", [["-", "b "], ["+", "x "], ["+", "d"]]),
        ("same", "same", []),
        ("", "new", [["+", "new"]]),
    ],
)
def test_word_diff(old, new, changed):
    ops = word_diff(old, new)
    assert [o for o in ops if o[0] != "="] == changed
    assert _rebuild(ops, "+") == new


def test_build_stores_consecutive_pairs(library, build_dir, documents):
    stored = library.history()
    path = build_dir / ".history.json"
    versions = sorted(documents, key=lambda v: tuple(map(int, v.split("."))))
    pairs = json.loads(path.read_text(encoding="utf-8"))["pairs"]
    assert set(pairs) == {f"{a}..{b}" for a, b in zip(versions, versions[1:], strict=False)}
    assert stored.changes("25.08", "26.03") == pairs["25.08..26.03"]
    # any other pair is computed, exactly as `changes` gives it
    direct = changes(documents["22.12"], documents["26.03"])
    assert stored.changes("22.12", "26.03") == direct
    assert direct["counts"]["reworded"] > 0
