"""Reading aids on rule pages, /all, home, search and error pages (issue 14), on the real CR."""

from __future__ import annotations

import re

import pytest
from helpers import LATEST

from webapp import create_app


@pytest.fixture(scope="module")
def client(build_dir):
    return create_app({"BUILD_DIR": str(build_dir), "TESTING": True}).test_client()


def page(client, url: str) -> str:
    r = client.get(url)
    assert r.status_code == 200, (url, r.status_code)
    return r.get_data(as_text=True)


def test_sub_rule_shows_parent_and_siblings(client, library):
    doc = library.document(LATEST)
    node = doc.node("step_jack_out_choice")
    parent = doc.node(node.parent)
    html = page(client, "/r/6.9.4c")
    context = re.search(r'<p class="context parent".*?</p>', html, re.S).group(0)
    assert f'href="/id/{parent.id}">{parent.number}</a>' in context
    siblings = re.search(r'<ol class="siblings".*?</ol>', html, re.S).group(0)
    items = re.findall(r"<li[^>]*>", siblings)
    expected = [c for c in doc.children(parent.id) if c.kind != "example"]
    assert len(items) == len(expected)
    current = [i for i, li in enumerate(items) if "aria-current" in li]
    assert current == [[c.id for c in expected].index(node.id)]
    # a rule that is not a sub-rule has no such context
    assert 'class="siblings"' not in page(client, "/r/6.9")


def test_in_text_step_references_are_links(client, library):
    doc = library.document(LATEST)
    html = page(client, "/r/6.9.4c")
    d = doc.node("step_jack_out_choice")
    target = doc.node("step_move_position")
    assert target.number == d.number[:-1] + "d"
    assert (
        f'<a class="ref step-ref" data-id="{target.id}" href="/id/{target.id}" title="{target.number}">(d)</a>'
        in html
    )
    # the appendix's "go to (2)" names a phase of the same structure
    number = next(n.number for n in doc.nodes if n.kind == "timing_step" and "go to (2)" in n.text)
    appendix = page(client, f"/r/{number}")
    link = re.search(r'step-ref" data-id="([^"]+)"[^>]*>\(2\)</a>', appendix)
    phase = doc.node(link.group(1))
    assert phase.kind == "timing_phase" and phase.number.endswith(".2")
    # in an older version the link stays in that version
    old = page(client, "/r/6.9.4c?v=24.03")
    assert re.search(r'step-ref" data-id="[^"]+" href="/id/[^"?]+\?v=24\.03"', old)


def test_titles_only_where_the_cr_marks_them(client, library):
    for v in ("22.12", LATEST):
        node = library.document(v).node("rule_damage_types")
        assert node.title is None and node.text.startswith("The three types of damage")
    html = page(client, "/r/10.4.2c")
    crumbs = re.search(r'<nav class="crumbs".*?</nav>', html, re.S).group(0)
    assert ">10.4.2</a>" in crumbs and "three types" not in crumbs
    # real headings keep their titles
    assert library.document(LATEST).node("rule_sec_run_movement_phase").title == "Movement Phase"


def test_terms_at_a_sentence_start_are_capitalised(client, library):
    node = library.document(LATEST).node("rule_meat_net_damage")
    assert node.html.startswith('<span class="term">meat damage</span>')  # as the CR prints it
    html = page(client, "/r/10.4.2")
    assert '<span class="term">Meat damage</span> and <span class="term">net damage</span>' in html
    # so do the plain-text labels of siblings and of "Cites"/"Cited by" entries
    assert f'href="/id/{node.id}">{node.number} Meat damage and net damage' in page(client, "/r/10.4.2c")


def test_cites_and_cited_by_say_what_a_bare_number_is(client, library):
    doc = library.document(LATEST)
    html = page(client, "/r/6.9.6")
    cited = re.search(r'<ul id="cited-by">.*?</ul>', html, re.S).group(0)
    labels = re.findall(r'<span class="ctx">([^<]*)</span>', cited)
    assert labels and all(labels)
    for nid, label in zip(re.findall(r'data-id="([^"]+)"', cited), labels, strict=True):
        n = doc.node(nid)
        assert label.replace("&#39;", "'").rstrip("…").strip() in (n.title or " ".join(n.text.split()))


def test_copy_with_citation_names_version_and_number(client):
    html = page(client, "/r/6.9.4c?v=24.03")
    button = re.search(r'<button type="button" class="cite"[^>]*>', html).group(0)
    assert 'data-cite="CR 24.03, 6.9.4c"' in button
    assert 'data-url="http://localhost/id/step_jack_out_choice?v=24.03"' in button


def test_whole_cr_has_headings_and_contents(client, library):
    doc = library.document(LATEST)
    html = page(client, "/all")
    chapters = doc.chapters()
    assert len(re.findall(r'<h2 class="sub chapter-h" id="', html)) == len(chapters)
    sections = [n for n in doc.nodes if n.kind == "section"]
    assert len(re.findall(r'<h3 class="sub section-h" id="', html)) == len(sections)
    toc = re.search(r'<details class="tocbox" id="toc">.*?</details>', html, re.S).group(0)
    assert all(f'href="#{s.id}"' in toc for s in sections)
    assert 'id="step_jack_out_choice"' in html


def test_home_change_links_name_their_rules(client, library):
    doc = library.document(LATEST)
    assert doc.changes
    html = page(client, "/")
    changes = re.search(r'<ul class="changes">.*?</ul>', html, re.S).group(0)
    texts = re.findall(r'<a class="ref"[^>]*>([^<]*)</a>', changes)
    assert texts and not any(re.fullmatch(r"\[\d+\]", t) for t in texts)
    numbers = {n.number for n in doc.nodes if n.number}
    assert all(t in numbers or doc.node(t) for t in texts)


def test_search_for_a_missing_number_offers_neighbours(client):
    html = page(client, "/search?q=6.9.4z")
    near = re.search(r'<p class="suggestions".*?</p>', html, re.S).group(0)
    assert 'href="/r/6.9.4h"' in near
    assert "No rule matches" not in html
    assert 'class="suggestions"' not in page(client, "/search?q=jack+out+rules")


def test_missing_rule_in_a_missing_chapter_suggests_nothing_unrelated(client, library):
    r = client.get("/r/99.9.9")
    assert r.status_code == 404
    assert "Did you mean" not in r.get_data(as_text=True)
    assert library.lookup("99.9.9", LATEST).suggestions == []
    assert "6.9.4h" in library.lookup("6.9.4z", LATEST).suggestions


def test_error_footer_names_no_empty_version(client):
    html = client.get("/no/such/page").get_data(as_text=True)
    footer = re.search(r'<footer class="foot">.*?</footer>', html, re.S).group(0)
    assert "CR ·" not in footer and "CR  ·" not in footer


def test_page_chrome_for_access(client):
    html = page(client, "/r/6.9.4c")
    assert '<a class="skip" href="#main">' in html and '<main id="main"' in html
    assert '<meta name="color-scheme" content="light dark">' in html
    box = re.search(r'<input type="search"[^>]*>', html).group(0)
    assert 'role="combobox"' in box and 'aria-controls="suggest"' in box and 'aria-expanded="false"' in box
    assert '<ul class="suggest" id="suggest" role="listbox"' in html
