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


def test_a_build_reads_other_versions_from_their_rows_as_from_their_documents(build_dir):
    """`Library.summaries` (what a rule page's "in other versions" reads; `nrrules rule` no
    longer parses five whole documents for it) gives every rule of every version exactly as
    the parsed documents do; a version already loaded is its document."""
    from rules_index.store import Library, Rows

    light, full = Library.open(build_dir), Library.open(build_dir)
    summaries, documents = light.summaries(), full.documents()
    assert sorted(summaries) == sorted(documents) and len(summaries) == 6
    assert all(isinstance(s, Rows) for s in summaries.values())  # no document was parsed
    ids = {n.id for d in documents.values() for n in d.nodes}
    assert len(ids) > 1900
    for node_id in sorted(ids):
        assert across_versions(summaries, node_id) == across_versions(documents, node_id), node_id
    light.document(documents[max(documents)].version)
    assert not isinstance(light.summaries()[max(documents)], Rows)


def test_a_damaged_rows_file_is_not_read_the_document_is(build_dir, tmp_path):
    """Rows that differ from what the build wrote (same size: a changed byte) are not read: the
    version's document is; a truncated file makes the version unavailable, as any file of a
    build does (`integrity`), in `summaries` as in `documents`."""
    import shutil

    from rules_index.store import ROWS_FILE, Library, Rows

    copy = tmp_path / "build"
    shutil.copytree(build_dir, copy, symlinks=True)
    rows = copy / "25.08" / ROWS_FILE
    data = rows.read_bytes()
    changed = data.replace(b'"6.9.4c"', b'"6.9.4x"', 1)
    assert changed != data and len(changed) == len(data)
    rows.write_bytes(changed)
    summaries = Library.open(copy).summaries()
    assert not isinstance(summaries["25.08"], Rows) and isinstance(summaries["25.04"], Rows)
    assert summaries["25.08"].node("step_jack_out_choice").number == "6.9.4c"
    rows.write_bytes(data[:-10])
    broken = Library.open(copy)
    assert "25.08" not in broken.summaries() and "25.08" not in broken.documents()
