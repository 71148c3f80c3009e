"""The rule graph, checked against the real documents' own links, cards and terms."""

from __future__ import annotations

import json
import re

import networkx as nx
import pytest

from rules_index.graph import EDGE_KINDS, RuleGraph, card_key, term_key


@pytest.fixture(scope="module")
def graphs(documents) -> dict[str, RuleGraph]:
    return {version: RuleGraph(doc) for version, doc in documents.items()}


@pytest.fixture(scope="module")
def graph(graphs) -> RuleGraph:
    return graphs["26.03"]


def _owner(doc, node):
    while node.kind == "example":
        node = doc.node(node.parent)
    return node


def _edges(g, kind):
    return {(u, v) for u, v, k in g.edges(keys=True) if k == kind}


def test_graph_is_a_directed_graph_of_kinded_edges(graph):
    assert isinstance(graph.g, nx.DiGraph)
    assert {data["kind"] for _, _, data in graph.g.edges(data=True)} == set(EDGE_KINDS)
    assert all(key == data["kind"] for _, _, key, data in graph.g.edges(keys=True, data=True))


def test_nodes_are_rules_cards_and_terms(documents, graphs):
    for version, doc in documents.items():
        g = graphs[version].g
        rules = {n for n, d in g.nodes(data=True) if d["type"] == "rule"}
        assert rules == {n.id for n in doc.nodes if n.kind != "example"}, version
        cards = {n for n, d in g.nodes(data=True) if d["type"] == "card"}
        assert cards == {card_key(c.name) for n in doc.nodes for c in n.cards}, version
        terms = {n for n, d in g.nodes(data=True) if d["type"] == "term"}
        assert terms == {term_key(t) for n in doc.nodes for t in n.terms}, version


def test_cites_edges_agree_with_the_document_links(documents, graphs):
    """Every reference in a rule (or its examples) is a cites edge, and every cites edge comes
    from such a reference, with its anchor text."""
    for version, doc in documents.items():
        g = graphs[version].g
        expected: dict[tuple[str, str], list[str]] = {}
        for node in doc.nodes:
            source = _owner(doc, node).id
            for ref in node.refs:
                target = _owner(doc, doc.node(ref.target)).id
                expected.setdefault((source, target), []).append(ref.text)
        assert _edges(g, "cites") == set(expected), version
        for (u, v), texts in expected.items():
            data = g.edges[u, v, "cites"]
            assert data["text"] == texts[0]
            assert set(data["texts"]) == set(texts)


def test_contains_next_mentions_defines_agree_with_the_document(documents, graphs):
    for version, doc in documents.items():
        g = graphs[version].g
        rules = [n for n in doc.nodes if n.kind != "example"]
        assert _edges(g, "contains") == {(n.parent, n.id) for n in rules if n.parent}, version
        assert _edges(g, "next") == {(a.id, b.id) for a, b in zip(rules, rules[1:], strict=False)}, version
        mentions = {(_owner(doc, n).id, card_key(c.name)) for n in doc.nodes for c in n.cards}
        assert _edges(g, "mentions") == mentions, version
        defines = {(_owner(doc, n).id, term_key(t)) for n in doc.nodes for t in n.terms}
        assert _edges(g, "defines") == defines, version


def test_backlinks_are_the_exact_inverse_of_cites(graph):
    rule_ids = [n for n, d in graph.g.nodes(data=True) if d["type"] == "rule"]
    cites = {(a, c["id"]) for a in rule_ids for c in graph.cites(a)}
    cited_by = {(c["id"], b) for b in rule_ids for c in graph.cited_by(b)}
    assert cites == cited_by
    assert len(cites) == len(_edges(graph.g, "cites"))


def test_cites_and_cited_by_of_a_known_rule(graph):
    cites = graph.cites("6.9.4c")  # numbers resolve through lookup
    assert cites == [
        {
            "id": "rule_sec_run_run_ends_phase",
            "number": "6.9.6",
            "title": "Run Ends Phase",
            "text": "step 6.9.6",
        }
    ]
    backlinks = {c["id"] for c in graph.cited_by("rule_sec_run_run_ends_phase")}
    assert "step_jack_out_choice" in backlinks
    with pytest.raises(KeyError):
        graph.cites("6.9.99")


def test_examples_are_folded_into_their_rule(documents, graph):
    doc = documents["26.03"]
    example = next(n for n in doc.nodes if n.kind == "example" and n.cards)
    assert example.id not in graph.g
    owner = _owner(doc, example).id
    for card in example.cards:
        assert graph.g.has_edge(owner, card_key(card.name), "mentions")


def test_neighbourhood_is_json_nodes_and_links(graph):
    hood = graph.neighbourhood("step_jack_out_choice", k=1)
    json.dumps(hood)
    ids = {n["id"] for n in hood["nodes"]}
    assert {"step_jack_out_choice", "rule_sec_run_movement_phase", "rule_sec_run_run_ends_phase"} <= ids
    assert {"step_before_jack_out_paw", "step_move_position"} <= ids  # "next" neighbours
    assert all(set(n) == {"id", "label", "type", "number", "depth"} for n in hood["nodes"])
    assert all(link["source"] in ids and link["target"] in ids for link in hood["links"])

    only_cites = graph.neighbourhood("step_jack_out_choice", k=1, kinds=["cites"])
    assert {n["id"] for n in only_cites["nodes"]} == {"step_jack_out_choice", "rule_sec_run_run_ends_phase"}
    assert only_cites["links"] == [
        {"source": "step_jack_out_choice", "target": "rule_sec_run_run_ends_phase", "kind": "cites"}
    ]
    two = graph.neighbourhood("step_jack_out_choice", k=2, kinds=["cites"])
    assert len(two["nodes"]) > len(only_cites["nodes"])
    assert {n["depth"] for n in two["nodes"]} == {0, 1, 2}
    with pytest.raises(ValueError):
        graph.neighbourhood("step_jack_out_choice", kinds=["bogus"])


def test_shortest_path_follows_citations(graph):
    assert graph.shortest_path("6.9.4c", "6.9.6") == ["step_jack_out_choice", "rule_sec_run_run_ends_phase"]
    # 1.1.2 cites section 1.9, which contains 1.9.5e (core damage counters).
    path = graph.shortest_path("1.1.2", "1.9.5e")
    assert path == [
        "rule_requirements",
        "sec_counters_and_tokens",
        "rule_counter_types",
        "rule_type_core_damage_counter",
    ]
    assert graph.shortest_path("1.1.2", "1.9.5e", kinds=["cites"]) is None
    # Citations only: a longer chain, every step a cites edge.
    cites_only = nx.subgraph_view(graph.g, filter_edge=lambda u, v, k: k == "cites")
    source, target, distance = next(
        (s, t, d)
        for s in graph.g
        if graph.g.nodes[s]["type"] == "rule"
        for t, d in nx.single_source_shortest_path_length(cites_only, s).items()
        if d >= 2
    )
    path = graph.shortest_path(source, target, kinds=["cites"])
    assert path[0] == source and path[-1] == target and len(path) == distance + 1
    assert all(graph.g.has_edge(a, b, "cites") for a, b in zip(path, path[1:], strict=False))
    # Edges are followed forward only: nothing leads from a chapter 11 summary back to 1.1.2.
    assert graph.shortest_path("11.4.4c", "1.1.2") is None
    assert graph.shortest_path("nope_nope", "6.9.6") is None


def test_most_cited_counts_distinct_citing_rules(graph):
    top = graph.most_cited(5)
    assert len(top) == 5
    counts = [t["count"] for t in top]
    assert counts == sorted(counts, reverse=True)
    for item in top:
        assert item["count"] == len(graph.cited_by(item["id"]))
    rules = [n for n, d in graph.g.nodes(data=True) if d["type"] == "rule"]
    assert max(len(graph.cited_by(n)) for n in rules) == counts[0]


def test_rules_mentioning_card(graph, documents):
    doc = documents["26.03"]
    rules = graph.rules_mentioning_card("the cleaners")  # case-insensitive
    expected = {_owner(doc, n).id for n in doc.nodes for c in n.cards if c.name == "The Cleaners"}
    assert {r["id"] for r in rules} == expected
    assert "rule_suffer_or_take_damage" in expected
    assert graph.rules_mentioning_card("Cleaners") == rules  # partial name falls back to contains
    assert graph.rules_mentioning_card("no such card anywhere") == []


def test_rules_for_term(graph):
    core = graph.rules_for_term("core damage")
    assert [d["id"] for d in core["defines"]] == ["rule_core_damage"]
    uses = {d["id"] for d in core["uses"]}
    assert "rule_brain_damage" in uses and "rule_core_damage" not in uses
    for rule_id in uses:
        assert "core damage" in graph.rule_text(rule_id).lower()
    assert graph.rules_for_term("nonexistent term") == {"term": "nonexistent term", "defines": [], "uses": []}


def test_rules_for_term_finds_what_a_scan_of_every_rule_finds(graph):
    """The word index only narrows the rules the term pattern is tried on: for every defined
    term (and terms with "&", ":" or a hyphen) the uses are those of a plain scan."""
    terms = sorted({d["term"] for _, d in graph.g.nodes(data=True) if d["type"] == "term"})
    assert len(terms) > 150
    for term in [*terms, "r&d", "android: netrunner", "non-", "-", "run"]:
        found = graph.rules_for_term(term)
        words = found["term"]
        pattern = re.compile(r"(?<![\w-])" + re.escape(words).replace(r"\ ", r"\s+") + r"(?![\w-])", re.I)
        defining = {d["id"] for d in found["defines"]}
        scan = [r for r in graph._folded if r not in defining and pattern.search(graph.rule_text(r))]
        assert [u["id"] for u in found["uses"]] == scan, term


def test_graph_builds_for_every_version(graphs, documents):
    for version, rg in graphs.items():
        assert rg.g.graph["version"] == version
        assert rg.resolve("step_jack_out_choice") == "step_jack_out_choice"
        assert rg.cites("step_jack_out_choice")[0]["id"] == "rule_sec_run_run_ends_phase"
