"""Offline use in headless Chromium (Debian's `chromium` via Playwright, as in test_browser.py):
save a version on a phone-sized screen, cut the network (the server process is stopped and the
context is set offline), then read and search the saved copy; and the browser's ranking of the
saved copy agrees with the server's."""

from __future__ import annotations

import json
import os

import numpy as np
import pytest
from helpers import EVERYDAY, LATEST, TYPOS, VERSIONS
from test_browser import ARTIFACTS, ROOT, browser, page  # noqa: F401 - fixtures

from rules_index import ranker, translation, vectors
from rules_index.offline import OFFLINE_FILE, decode_post
from rules_index.search import Searcher
from webapp.liveserver import live_server

PHONE = {
    "viewport": {"width": 390, "height": 844},
    "device_scale_factor": 1,
    "is_mobile": True,
    "has_touch": True,
}


@pytest.fixture()
def own_server(build_dir):
    """A server only this test uses, so the test can cut it off."""
    log = ARTIFACTS / f"gunicorn-offline-{os.getpid()}.log"
    with live_server(
        build_dir, threads=4, env={"SECRET_KEY": "offline-test-key-of-at-least-32-bytes"}, log=log
    ) as server:
        yield server


def shot(pg, name: str, full: bool = False) -> None:
    pg.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=full)


def test_save_then_read_and_search_without_a_connection(browser, own_server, library):  # noqa: F811
    base = own_server.base
    context = browser.new_context(**PHONE)
    pg = context.new_page()
    pg.set_default_timeout(20_000)
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    try:
        pg.goto(base + "/r/6.9.4c")
        button = pg.locator("#offline-ctl .save-offline")
        assert button.inner_text() == f"Save CR {LATEST} for offline"
        button.click()
        pg.wait_for_selector(f"#offline-ctl[data-saved='{LATEST}']", timeout=60_000)
        assert "Saved for offline use: CR " + LATEST in pg.locator("#offline-ctl").inner_text()
        pg.wait_for_function("navigator.serviceWorker.controller !== null")  # the worker controls the page
        stored = pg.evaluate(
            """async () => { const out = {}; for (const k of await caches.keys()) { const c = await caches.open(k);
               for (const r of await c.keys()) out[new URL(r.url).pathname] = (await (await c.match(r)).arrayBuffer()).byteLength; }
               return out; }"""
        )
        # the search data within its budget (issue 35: 2 MB a version), the whole saved copy
        # within 4 MB; beside the rules, the reading pack (no cards in this build) and the
        # saved changes page
        reading = f"/offline/{LATEST}/reading.json"
        assert 500_000 < stored[f"/offline/{LATEST}.json"] <= 2_000_000, stored
        assert reading in stored and f"/changes/{VERSIONS[-2]}..{LATEST}" in stored, stored
        assert sum(stored.values()) <= 4_000_000, stored
        shot(pg, "offline-saved-phone", full=True)

        # Cut the network: no server process, and the browser told it is offline.
        own_server.stop()
        context.set_offline(True)
        pg.goto(base + "/id/rule_sec_run_run_ends_phase")
        pg.wait_for_selector("body[data-rendered='1']")
        notice = pg.locator("#netstatus")
        assert notice.is_visible()
        assert "offline" in notice.inner_text() and f"CR {LATEST}" in notice.inner_text()
        node = library.document(LATEST).node("rule_sec_run_run_ends_phase")
        assert pg.locator("article.rule h1 .num").inner_text() == node.number
        child = next(c for c in library.document(LATEST).children(node.id) if c.kind != "example")
        assert child.text[:40] in pg.locator(f"article.rule #{child.id}").inner_text()
        shot(pg, "offline-rule-phone")

        # Search as you type from the saved copy ranks like the server.
        expected = library.searcher(LATEST).search("jack out", limit=8)
        pg.fill(".q", "jack out")
        pg.wait_for_selector(".suggest li[role=option] a")
        first = pg.locator(".suggest li[role=option] a").first.get_attribute("href")
        assert first == "/id/" + expected[0].id
        assert pg.locator(".suggest .local").count() == 1
        shot(pg, "offline-search-phone")
        # A number jumps to its rule, rendered from the saved copy.
        pg.fill(".q", "6.9.4c")
        pg.keyboard.press("Enter")
        pg.wait_for_url("**/id/step_jack_out_choice")
        pg.wait_for_selector("body[data-rendered='1']")
        assert pg.locator("article.rule h1 .num").inner_text() == "6.9.4c"
        assert "jack out" in pg.locator("article.rule .text").inner_text()
        # "continue to (d)" is a link in the saved copy too, and previews like online
        step_ref = pg.locator('article.rule .text a.step-ref[data-id="step_move_position"]')
        assert step_ref.inner_text() == "(d)"
        step_ref.tap()
        pg.locator(".sheet[role=dialog]").wait_for()
        assert (
            pg.locator(".sheet h2 .num").inner_text()
            == library.document(LATEST).node("step_move_position").number
        )
        pg.keyboard.press("Escape")
        # A sub-rule shows its parent's text and its siblings (this one marked), as online.
        doc = library.document(LATEST)
        step = doc.node("step_jack_out_choice")
        parent = doc.node(step.parent)
        assert pg.locator("#parent-rule a.ref").inner_text() == parent.number
        assert " ".join(parent.text.split())[:30] in " ".join(pg.locator("#parent-rule").inner_text().split())
        siblings = [c.number for c in doc.children(parent.id) if c.kind != "example"]
        items = pg.locator("#siblings li")
        assert [t.split(" ")[0] for t in items.all_inner_texts()] == siblings
        assert pg.locator("#siblings li[aria-current='true']").inner_text().startswith("6.9.4c ")
        assert pg.locator("#siblings li[aria-current='true'] a").count() == 0
        shot(pg, "offline-subrule-phone", full=True)
        # A rule opening with a lowercase defined term reads as a sentence start, as online
        # (the saved copy holds the CR's own "meat damage and net damage are ...").
        meat = doc.node("rule_meat_net_damage")
        assert meat.text.startswith("meat damage")
        pg.goto(base + "/id/rule_brain_damage")
        pg.wait_for_selector("body[data-rendered='1']")
        assert (
            pg.locator(f'#siblings a[href="/id/{meat.id}"]')
            .inner_text()
            .startswith(meat.number + " Meat damage")
        )
        pg.goto(base + f"/id/{meat.id}")
        pg.wait_for_selector("body[data-rendered='1']")
        assert pg.locator("article.rule .text").inner_text().startswith("Meat damage")
        # A defined term opens its definition from the saved copy, without leaving the page.
        answer = library.graph(LATEST).rules_for_term("paid ability")
        definition = doc.node(answer["defines"][0]["id"])
        pg.goto(base + "/id/sec_paid_abilities")
        pg.wait_for_selector("body[data-rendered='1']")
        pg.locator("span.term[role=button]", has_text="paid ability").first.tap()
        sheet = pg.locator(".sheet[role=dialog]")
        sheet.wait_for()
        assert pg.url.endswith("/id/sec_paid_abilities")
        assert sheet.locator(".sheet-def .num").first.inner_text() == definition.number
        assert " ".join(definition.text.split())[:50] in " ".join(
            sheet.locator(".sheet-def").first.inner_text().split()
        )
        assert f"Used in {len(answer['uses'])} other rules" in sheet.locator(".sheet-uses").inner_text()
        shot(pg, "offline-term-phone")
        # A card page is not in the saved copy: the shell says so and offers the rules search.
        pg.goto(base + "/c/snare")
        pg.wait_for_selector("body[data-rendered='1']")
        assert pg.locator("h1.err").inner_text() == "Not in the saved copy"
        assert pg.locator("#offline-root a[href='/search?q=snare']").count() == 1
        # The full search page too.
        pg.goto(base + "/search?q=brain+damage")
        pg.wait_for_selector("body[data-rendered='1']")
        top = library.searcher(LATEST).search("brain damage", limit=1)[0]
        assert pg.locator(".results li a").first.get_attribute("href") == "/id/" + top.id
        # /all comes from the saved copy, with a heading per chapter.
        pg.goto(base + "/all#step_jack_out_choice")
        pg.wait_for_selector("body[data-rendered='1']")
        chapters = library.document(LATEST).chapters()
        assert pg.locator(".whole h2.chapter-h").count() == len(chapters)
        assert pg.locator("#step_jack_out_choice").is_visible()
    finally:
        context.close()
    assert not errors, errors


def _with_saved_index(browser, pack: str, expression: str, qs: list):  # noqa: F811
    """``expression`` evaluated in a page holding offline-search.js, with ``ix`` the saved copy's
    index built from ``pack`` and ``qs`` the list given."""
    script = (ROOT / "webapp" / "static" / "offline-search.js").read_text(encoding="utf-8")
    pg = browser.new_page()
    try:
        pg.set_content("<!doctype html><title>x</title>")
        pg.add_script_tag(content=script)
        return pg.evaluate(
            f"([pack, qs]) => {{ const ix = new NROfflineIndex(JSON.parse(pack)); return {expression}; }}",
            [pack, qs],
        )
    finally:
        pg.close()


def _per_rule(browser, pack_text: str, doc, expression: str, queries: list, named: list, every: int):  # noqa: F811
    """``expression`` evaluated with ``qs[0]`` the queries and ``qs[1]`` the pack positions of
    the rules probed: those ``named`` and every ``every``-th rule of the pack, examples left out.
    Returns (the probed rules' ids, the answer)."""
    ids = [r[0] for r in json.loads(pack_text)["rules"]]
    probe = [i for i in [*named, *ids[every:1800:every]] if doc.node(i).kind != "example"]
    return probe, _with_saved_index(browser, pack_text, expression, [queries, [ids.index(i) for i in probe]])


def test_browser_ranking_of_the_saved_copy_agrees_with_the_server(browser, library):  # noqa: F811
    """Top hit and top five of the browser's search equal the server's (ranking as the offline
    copy does: the pack's small word-vector table and model, `Searcher(word_vectors="pack")`)
    for the relevance queries (judge questions, jargon, card names), numbers, ids and deep
    links."""
    bench = ROOT / "bench"
    queries = [
        q["q"]
        for f in ("relevance_set.json", "relevance_holdout.json", "relevance_tuning.json")
        for q in json.loads((bench / f).read_text())["queries"]
    ]
    queries += [
        "6.9.4c",
        "rule 1.2.1",
        "step_jack_out_choice",
        "https://rules.nullsignal.games/?r=rule_card_precedence",
    ]
    queries += ["jak out", "PAW", "brain damage", "Hedge Fund", "R&D", "face up"]
    pack = (library.version_dir(LATEST) / OFFLINE_FILE).read_text(encoding="utf-8")
    got = _with_saved_index(browser, pack, "qs.map(q => ix.search(q, 10).map(h => h.id))", queries)
    # the saved copy has the small word-vector table (rules_index.vectors.load(pack=True))
    searcher = Searcher(library.searcher(LATEST).index_path, library.document(LATEST), word_vectors="pack")
    same_top, overlap = 0, 0.0
    for q, ids in zip(queries, got, strict=True):
        server = [h.id for h in searcher.search(q, limit=10)]
        same_top += server[:1] == ids[:1]
        overlap += len(set(server[:5]) & set(ids[:5])) / max(1, min(5, len(server)))
    n = len(queries)
    assert n > 100
    assert same_top / n >= 0.95, same_top / n
    assert overlap / n >= 0.9, overlap / n
    # exact lookups are exact
    assert got[queries.index("6.9.4c")][0] == "step_jack_out_choice"
    assert got[queries.index("rule 1.2.1")][0] == library.lookup("1.2.1", LATEST).node.id


def test_the_saved_copy_orders_short_questions_as_the_server_does(browser, library):  # noqa: F811
    """A query phrased as a question is ordered by the learned stage however short it is
    (`ranker.applies`); the browser reads the same questions as questions and ranks them as
    the server's offline-mode ranking does."""
    asked = ["what is a nested cost", "who owns a card", "how do I bid secretly", "what is a psi game?"]
    bare = ["oof influence", "bypas ice", "paid ability window", "whatever happens"]
    pack = (library.version_dir(LATEST) / OFFLINE_FILE).read_text(encoding="utf-8")
    got = _with_saved_index(
        browser, pack, "qs.map(q => [ix.analyze(q).asks, ix.search(q, 5).map(h => h.id)])", asked + bare
    )
    searcher = Searcher(library.searcher(LATEST).index_path, library.document(LATEST), word_vectors="pack")
    assert (
        [a for a, _ in got] == [searcher.analyze(q)["asks"] for q in asked + bare] == [True] * 4 + [False] * 4
    )
    for q, (_, ids) in zip(asked, got, strict=False):
        assert searcher.search_result(q).question
        assert ids == [h.id for h in searcher.search(q, limit=5)], q


def test_the_saved_copy_corrects_the_same_words_as_the_server(browser, library):  # noqa: F811
    """An everyday word the rules or their questions use is no typo in the browser either
    ("worked" is not the card Forked); a real typo is corrected as the server corrects it."""
    queries = [q for q, _ in EVERYDAY] + list(TYPOS) + ["paied abilty window", "checkpoitn", "it worked?"]
    pack = (library.version_dir(LATEST) / OFFLINE_FILE).read_text(encoding="utf-8")
    got = _with_saved_index(
        browser, pack, "qs.map(q => [ix.analyze(q).corrections, ix.analyze(q).cards])", queries
    )
    searcher = library.searcher(LATEST)
    assert got == [[searcher.analyze(q)["corrections"], searcher.analyze(q)["cards"]] for q in queries]
    assert sum(bool(c) for c, _ in got) == 4 and not any(cards for _, cards in got)


def test_the_saved_copy_reads_each_rules_bank_questions_as_the_server_does(browser, library):  # noqa: F811
    """The pack codes the question bank's stems (`rules_index.offline._asked`); the browser's
    decoding gives, rule by rule, the same stem sets the server's ranker reads."""
    pack_text = (library.version_dir(LATEST) / OFFLINE_FILE).read_text(encoding="utf-8")
    pack = json.loads(pack_text)
    ids = [r[0] for r in pack["rules"]]
    searcher = library.searcher(LATEST)
    wanted = [i for i in ("rule_flatline", "rule_not_required_to_score", "step_jack_out_choice") if i in ids]
    wanted += ids[100:1900:150]
    got = _with_saved_index(
        browser,
        pack_text,
        "qs.map(p => ix.rankerInfo(p).asked.map(s => Array.from(s).sort()))",
        [ids.index(i) for i in wanted],
    )
    checked = 0
    for node_id, sets in zip(wanted, got, strict=True):
        if library.document(LATEST).node(node_id).kind == "example":
            continue
        server = [sorted(q) for q in searcher._info(node_id).asked]
        assert sets == server, node_id
        checked += bool(server)
    assert checked >= 8  # most rules have questions, so this compares real data


def test_the_saved_copy_reads_the_word_vectors_as_the_server_does(browser, library):  # noqa: F811
    """The browser's query vector (the pack's small table) and each rule's vector score equal
    the server's (`Searcher._pack_scores`) to float precision, stop words and unknown words
    included."""
    pack_text = (library.version_dir(LATEST) / OFFLINE_FILE).read_text(encoding="utf-8")
    pack = json.loads(pack_text)
    assert pack["index"]["ranker"]["vectors"]["dim"] == vectors.PACK_DIM
    doc = library.document(LATEST)
    small = Searcher(library.searcher(LATEST).index_path, doc, word_vectors="pack")
    queries = [
        "runner has no cards in hand and takes net damage",
        "can the Runner trash an agenda when accessing it?",
        "what happens when the corp cannot draw",
        "does brain damage lower my hand size",
        "zzzz qqqq",  # no known word: no vector
    ]
    probe, got = _per_rule(
        browser,
        pack_text,
        doc,
        "qs[0].map(q => { const v = ix.queryVector(q); return v && [Array.from(v), qs[1].map(p => ix.vectorScore(v, p))]; })",
        queries,
        ["rule_flatline", "step_jack_out_choice"],
        200,
    )
    small.search(queries[0])  # makes the rules' pack vectors
    compared = 0
    for q, answer in zip(queries, got, strict=True):
        server = small.vectors.embed(vectors.stems(q))
        if server is None:
            assert answer is None, q
            continue
        vec, scores = answer
        assert np.allclose(vec, server, atol=1e-5), q
        want = [float(small._pack_rules[i] @ server) for i in probe]
        assert np.allclose(scores, want, atol=1e-5), q
        compared += 1
    assert compared == 4 and any(abs(x) > 1e-3 for x in want)
    # the rules the vectors add to a question's pool (`Searcher._vector_pool`): the same ones,
    # in the same order, by the same pack vectors
    ids = [r[0] for r in pack["rules"]]
    pools = _with_saved_index(
        browser,
        pack_text,
        "qs.map(q => { const v = ix.queryVector(q); return v ? ix.vectorPool(v, new Set()) : []; })",
        queries,
    )
    model = ranker.load(pack=True)
    for q, positions in zip(queries, pools, strict=True):
        assert [ids[p] for p in positions] == small._vector_pool(small.query_vector(q), set(), model), q
    assert sum(len(p) == ranker.VECTOR_POOL for p in pools) == 4
    small.close()


def test_a_copy_saved_in_the_old_format_still_searches(browser, library):  # noqa: F811
    """A copy saved before the posting lists were coded (format 1: JSON number lists, no word
    vectors nor translation table, the lite model's weights) still searches with the new offline-search.js, ranking
    as a server without vectors does."""
    pack = json.loads((library.version_dir(LATEST) / OFFLINE_FILE).read_text(encoding="utf-8"))
    ix = pack["index"]

    def plain(coded: str) -> list[int]:
        out, last = [], 0
        for doc, score in sorted(decode_post(coded).items()):
            out += [doc - last, score]
            last = doc
        return out

    for field in ("post", "title", "terms", "asked_card_post"):
        ix[field] = {stem: plain(coded) for stem, coded in ix[field].items()}
    for entry in ix["cards"].values():
        entry[1] = plain(entry[1]) if isinstance(entry[1], str) else entry[1]
    lite = ranker.load(lite=True)
    ix["ranker"].pop("vectors")
    ix["ranker"].pop("translation")
    ix["ranker"]["weights"] = list(lite.weights)
    pack["format"] = 1
    queries = [
        "runner has no cards in hand and takes net damage",
        "can the runner trash an agenda",
        "what happens when the corp cannot draw a card",
        "jack out",
        "Hedge Fund",
        "brain damage",
        "6.9.4c",
    ]
    got = _with_saved_index(browser, json.dumps(pack), "qs.map(q => ix.search(q, 5).map(h => h.id))", queries)
    searcher = Searcher(library.searcher(LATEST).index_path, library.document(LATEST), word_vectors=False)
    same = sum(
        ids[:1] == [h.id for h in searcher.search(q, limit=5)][:1]
        for q, ids in zip(queries, got, strict=True)
    )
    assert all(got) and same >= len(queries) - 1, (got, same)


def test_the_saved_copy_reads_the_translation_table_as_the_server_does(browser, library):  # noqa: F811
    """The pack's cut-down translation table (`translation.Table.for_pack`) and the pack
    model's weights for it; the browser's three ``t_*`` scores of each rule equal the server's
    pack searcher's (`Searcher._translations`) to float precision, unknown words included."""
    pack_text = (library.version_dir(LATEST) / OFFLINE_FILE).read_text(encoding="utf-8")
    pack = json.loads(pack_text)
    block = pack["index"]["ranker"]["translation"]
    model = ranker.load(pack=True)
    assert model is not None and model.names == ranker.PACK_FEATURES
    assert block["weights"] == list(model.weights[-len(ranker.TRANSLATION_FEATURES) :])
    doc = library.document(LATEST)
    small = Searcher(library.searcher(LATEST).index_path, doc, word_vectors="pack")
    assert small.translation is translation.load(pack=True)
    queries = [
        "runner has no cards in hand and takes net damage",
        "my breaker is too weak for this ice, how do I pump it up",
        "does brain damage lower my hand size",
        "can the Runner trash an agenda when accessing it?",
        "zzzz qqqq",  # no word the table knows: every rule scores NONE
    ]
    probe, got = _per_rule(
        browser,
        pack_text,
        doc,
        "qs[0].map(q => ix.translationScores(q, qs[1]))",
        queries,
        ["rule_flatline", "step_jack_out_choice", "sec_damage"],
        150,
    )
    values = set()
    for q, answer in zip(queries, got, strict=True):
        want = small._translations(q, probe)
        assert np.allclose(answer, want, rtol=0, atol=1e-9), q
        values.update(v for row in want for v in row)
    assert got[-1] == [[translation.NONE] * 3] * len(probe)
    assert len(values) > 30  # real, varied scores
    small.close()


@pytest.mark.parametrize(
    ("block", "damage"),
    [
        ("vectors", {"codes": "not base64 at all!"}),
        ("vectors", {"rules": "AAAA"}),  # too few numbers for the rules
        ("vectors", {"dim": 0}),
        ("vectors", {"scale": [1.0]}),
        ("translation", {"codes": "not base64 at all!"}),
        ("translation", {"cols": "AAAA"}),  # too few columns for the probabilities
        ("translation", {"sizes": [1, 2]}),
        ("translation", {"weights": [1.0]}),
        ("translation", {"asked": None}),
        ("translation", {"mix": "not a number"}),
        ("translation", {"counts": "not a list"}),
    ],
)
def test_a_damaged_ranker_block_is_turned_off_without_breaking_search(browser, library, block, damage):  # noqa: F811
    """A saved copy whose word-vector or translation block is damaged searches as one without
    that block (the other features' sums), no error."""
    pack = json.loads((library.version_dir(LATEST) / OFFLINE_FILE).read_text(encoding="utf-8"))
    queries = [
        "runner has no cards in hand and takes net damage",
        "my breaker is too weak, how do I pump it",
        "can the runner trash an agenda",
        "jack out",
    ]
    damaged = json.loads(json.dumps(pack))
    damaged["index"]["ranker"][block].update(damage)
    pack["index"]["ranker"][block] = None
    expression = "qs.map(q => ix.search(q, 10).map(h => h.id))"
    got = _with_saved_index(browser, json.dumps(damaged), expression, queries)
    assert got == _with_saved_index(browser, json.dumps(pack), expression, queries)
    assert all(got)


def test_the_saved_copy_answers_hostile_queries_without_failing(browser, library):  # noqa: F811
    """Odd and hostile queries (empty, control characters, markup, huge, stop words only, other
    scripts, long questions that reach the learned stage and its word vectors) give a list of
    real rules or nothing: no exception, no markup echoed into a hit."""
    pack = (library.version_dir(LATEST) / OFFLINE_FILE).read_text(encoding="utf-8")
    long_question = "can the runner trash an agenda when accessing it from R&D during a run " * 40
    queries = [
        "",
        "   ",
        "\u0000\u0007\u202e",
        "<script>alert(1)</script>",
        "the the the and of what when can does",
        "x" * 20_000,
        long_question,
        "¿puede el runner destruir un acuerdo? 🃏 דמי",
        "6.9.4z",
        "rule_does_not_exist+",
        "flatlining runner takes brain damage with an empty grip and no hand",
    ]
    got = _with_saved_index(
        browser,
        pack,
        "qs.map(q => { try { return ix.search(q, 10).map(h => [h.id, h.snippet || '']); } catch (e) { return 'error: ' + e; } })",
        queries,
    )
    ids = {n.id for n in library.document(LATEST).nodes}
    for q, hits in zip(queries, got, strict=True):
        assert isinstance(hits, list), (q[:40], hits)
        assert all(h[0] in ids for h in hits), q[:40]
        assert not any("<script" in h[1] for h in hits), q[:40]
    # the questions found something; the long one has a word vector (the learned stage reads it)
    assert got[queries.index(long_question)] and got[-1]
    assert got[0] == [] and got[1] == []
    vec = _with_saved_index(
        browser, pack, "qs.map(q => ix.queryVector(q) && ix.queryVector(q).length)", queries
    )
    assert vec[queries.index(long_question)] == vectors.PACK_DIM
    assert vec[queries.index("x" * 20_000)] is None  # no known word: no vector


def test_the_saved_copy_reads_a_long_post_by_its_question_as_the_server_does(browser, library):  # noqa: F811
    """A query over 200 characters (a forum post) is searched by its question in the browser as
    on the server (`question.focus`, without the card names the server adds from its card data)."""
    from rules_index.question import focus

    board = (
        "My opponent had a rezzed piece of ice protecting R&D and I had two icebreakers installed "
        "with four credits in my pool after installing a program earlier in the turn. "
    )
    posts = [
        board * 6 + "When can the Runner jack out? And can I jack out before paying?",
        board * 6 + "I think the run just ended there.",  # no question: its last sentences
        ("word " * 300).strip() + "?",  # one sentence longer than the limit: its end
        board * 3 + '"Can I jack out?" he asked.\n\u202eIs that legal?\x00 ' + board,
        "short question?",
        "",
    ]
    pack = (library.version_dir(LATEST) / OFFLINE_FILE).read_text(encoding="utf-8")
    got = _with_saved_index(
        browser,
        pack,
        "qs.map(q => [NROfflineIndex.focus(q), ix.search(q.length > 200 ? NROfflineIndex.focus(q) : q, 5).map(h => h.id)])",
        posts,
    )
    searcher = Searcher(library.searcher(LATEST).index_path, library.document(LATEST), word_vectors="pack")
    for post, (focused, ids) in zip(posts, got, strict=True):
        assert focused == focus(post), post[:60]
        assert len(focused) <= 200
        assert ids == [h.id for h in searcher.search(focus(post), limit=5)], post[:60]
    assert got[0][0] == "When can the Runner jack out? And can I jack out before paying?"
    assert got[0][1]
