"""Found where it is looked for: "Changes" and "Judges' documents" in every page's nav, the
judges' documents listed at /j/, and the changes page with a chapter jump list, collapsible
chapters and every rule number a link (the "Not in the summary" entries too)."""

from __future__ import annotations

import lxml.html
import pytest

from webapp import create_app


@pytest.fixture(scope="module")
def client(judge_build_dir):
    app = create_app({"TESTING": True, "BUILD_DIR": str(judge_build_dir), "SECRET_KEY": "test-secret"})
    return app.test_client()


@pytest.fixture(scope="module")
def bare_client(build_dir):
    """A build without judges' documents."""
    app = create_app({"TESTING": True, "BUILD_DIR": str(build_dir), "SECRET_KEY": "test-secret"})
    return app.test_client()


def nav_links(page: str) -> dict[str, str]:
    root = lxml.html.fromstring(page)
    return {a.text_content().strip(): a.get("href") for a in root.xpath("//nav[@class='topnav']/a")}


def test_every_page_type_has_changes_and_judges_documents_in_the_nav(client):
    for url in ("/", "/r/6.9.4c", "/search?q=jack+out", "/changes/25.08..26.03", "/editor", "/j/"):
        links = nav_links(client.get(url).get_data(as_text=True))
        assert links.get("Changes") == "/changes", (url, links)
        assert links.get("Judges' documents") == "/j/", (url, links)
        # the links sit in a menu a phone opens (one header row); its button has a name
        page = client.get(url).get_data(as_text=True)
        assert '<details class="navmenu" id="navmenu"><summary aria-label="Menu' in page


def test_changes_goes_to_the_latest_pair(client):
    versions = [v["version"] for v in client.get("/api/versions").get_json()["versions"]]
    r = client.get("/changes")
    assert r.status_code == 302
    assert r.headers["Location"].endswith(f"/changes/{versions[-2]}..{versions[-1]}")
    assert client.get(r.headers["Location"]).status_code == 200


def test_judges_documents_index_lists_every_item(client, judge_library):
    store = judge_library.judge()
    r = client.get("/j/")
    assert r.status_code == 200
    page = r.get_data(as_text=True)
    root = lxml.html.fromstring(page)
    hrefs = {a.get("href") for a in root.xpath("//main//a")}
    assert {f"/j/{i.id}" for i in store.items()} <= hrefs
    assert len(root.xpath("//main//details[@class='chap']")) >= 2  # sections fold
    assert client.get("/j").status_code == 301


def test_no_judges_documents_no_nav_link_and_an_honest_404(bare_client):
    links = nav_links(bare_client.get("/").get_data(as_text=True))
    assert "Judges' documents" not in links and links["Changes"] == "/changes"
    r = bare_client.get("/j/")
    assert r.status_code == 404 and "nrrules build --judge" in r.get_data(as_text=True)


def test_changes_page_jump_list_chapters_and_links(client):
    data = client.get("/api/changes/25.08..26.03").get_json()
    page = client.get("/changes/25.08..26.03").get_data(as_text=True)
    root = lxml.html.fromstring(page)
    # a jump list to every chapter with changes, the summary and the entries not in it
    jump = [a.get("href") for a in root.xpath("//nav[@id='jump']//a")]
    assert jump[:2] == ["#summary", "#unmentioned-h"]
    assert jump[2:] == [f"#{ch['anchor']}" for ch in data["chapters"]]
    for href in jump:
        assert root.xpath(f"//*[@id='{href[1:]}']"), href
    # chapters are collapsible, each holding its changed rules; together they hold every one
    chapters = root.xpath("//details[@class='chap']")
    assert len(chapters) == len(data["chapters"]) > 2
    in_chapters = {li.get("id") for d in chapters for li in d.xpath(".//li[starts-with(@id, 'c-')]")}
    assert in_chapters == {f"c-{r['id']}" for s in data["sections"] for r in s["rules"]}
    assert [ch["number"] for ch in data["chapters"]] == sorted(
        {(s["number"] or "").split(".")[0] for s in data["sections"]}, key=int
    )
    assert sum(ch["count"] for ch in data["chapters"]) == len(in_chapters)
    # every "Not in the summary" number links to its diff on the page, and the rule's page
    unmentioned = root.xpath("//ul[@id='unmentioned']/li")
    assert len(unmentioned) == len(data["unmentioned"]) > 0
    for li, u in zip(unmentioned, data["unmentioned"], strict=True):
        first = li.xpath("./a")[0]
        assert first.get("href") == f"#c-{u['id']}" and first.text == (u["number"] or u["old_number"])
        assert li.xpath("./a[@class='rulepage']")[0].get("href") == u["url"]
    # removed rules link to the older version's page
    removed = [u for u in data["unmentioned"] if not u["number"]]
    assert removed and all(u["url"].endswith("?v=25.08") for u in removed)
    # summary targets that were removed still link (to the older version)
    for s in data["summary"]:
        for t in s["targets"]:
            assert t["url"] or not (t["number"] or t["old_number"]), t
    # symbols in diffs are glyphs
    assert "1[credit]" not in page.replace('title="credit">[credit]', "")
