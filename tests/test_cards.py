"""NetrunnerDB card data beside the rules: the real v2 snapshot from ../shared/nrdb, built into a
real build directory with a real Whoosh index, and the same data served by a real HTTP server."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

from rules_index.cards import CardsNotBuilt, CardStore, build_cards, cited_numbers, name_key
from rules_index.integrity import clean_leftovers
from scraper import ScrapeError
from scraper.nrdb import Ruling, load


@pytest.fixture(scope="module")
def store(cards_built) -> CardStore:
    return CardStore.open(cards_built)


def _count_records(folder: Path) -> int:
    return sum(len(json.loads(f.read_text())) for f in folder.glob("*.json"))


# ----- counts -------------------------------------------------------------------------------


def test_counts_match_the_snapshot(store, nrdb_dir):
    assert len(store) == len(list((nrdb_dir / "cards").glob("*.json"))) == 1988
    assert store.info.printings == _count_records(nrdb_dir / "printings")
    assert store.info.rulings == _count_records(nrdb_dir / "rulings")
    assert len({r.card_id for c in store.cards() for r in store.rulings(c.id)}) == len(
        list((nrdb_dir / "rulings").glob("*.json"))
    )
    assert store.info.standard["snapshot"] == "standard_32"
    assert store.info.standard["restriction"] == "standard_ban_list_25_10"


def test_card_fields_from_the_data(store, nrdb_dir):
    raw = json.loads((nrdb_dir / "cards" / "ice_wall.json").read_text())
    card = store.card("ice_wall")
    assert card is not None
    assert (card.title, card.card_type_id, card.strength, card.cost) == (
        raw["title"],
        "ice",
        raw["strength"],
        raw["cost"],
    )
    assert card.subtypes == ("barrier",)
    assert {p.id for p in store.printings("ice_wall")} >= {"01103"}


# ----- lookup -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("query", "card_id"),
    [
        ("Snare!", "snare"),
        ("snare", "snare"),
        ("snare!", "snare"),
        ("Sn@re!", "snare"),
        ("SNARE", "snare"),
        ("deja vu", "deja_vu"),
        ("Déjà Vu", "deja_vu"),
        ("expose", "expose"),
        ("ice wall", "ice_wall"),
        ("ice_wall", "ice_wall"),  # card id
        ("01103", "ice_wall"),  # NetrunnerDB code
    ],
)
def test_lookup_forgives_case_punctuation_and_accents(store, query, card_id):
    found = store.find(query)
    assert found, query
    assert found[0].id == card_id


def test_lookup_of_nonsense_finds_nothing(store):
    assert store.find("zzqqxx nothing like a card") == []
    assert store.find("!!!") == []
    assert store.find("") == []


def test_name_key_folds():
    assert name_key("Déjà Vu") == name_key("deja-vu") == "dejavu"
    assert name_key("Sn@re!") == "snre"


# ----- the rules ------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def library(cards_built):
    from rules_index.store import Library

    return Library.open(cards_built)


def test_every_cr_card_mention_resolves_through_its_code(store, library):
    known_codes = {p.id for c in store.cards() for p in store.printings(c.id)}
    newest = max(int(c) for c in known_codes if c.isdigit())
    for version, doc in library.documents().items():
        mentioned = 0
        for node in doc.nodes:
            for m in node.cards:
                if m.code is None:
                    continue
                mentioned += 1
                card = store.by_code(m.code)
                if card is None:
                    # only cards printed after the snapshot (a newer set) may be missing
                    assert int(m.code) > newest, (version, node.id, m.name, m.code)
                    continue
                # the code leads to the card the rule names (the CR may shorten the name)
                assert name_key(m.name.split(":")[0])[:5] in name_key(card.title), (m.name, card.title)
        assert mentioned > 100, version
    mentions = store.mentions(library.document("25.08"))
    assert len(mentions) > 250
    assert all(library.document("25.08").node(rule_id) for ids in mentions.values() for rule_id in ids)


def test_rules_mentioning_a_card_and_rules_cited_by_its_rulings(store, library):
    doc = library.document()
    mentions = store.mentions(doc)
    # some card is mentioned by the rules, and that rule's card list names it
    card_id, rules = next(iter(mentions.items()))
    node = doc.node(rules[0])
    assert any(
        name_key(store.card(card_id).title).startswith(name_key(c.name)[:5]) for c in node.cards
    ) or any(doc.node(e) and doc.node(e).cards for e in node.examples)
    cited = {cid: store.cited_rules(cid, doc) for cid in store._data.rulings_of}
    cited = {k: v for k, v in cited.items() if v}
    assert cited, "some ruling cites a CR rule by number"
    for pairs in cited.values():
        for number, rule_id in pairs:
            assert doc.node(rule_id).number == number


def test_cited_numbers_parse_rule_citations():
    r = Ruling(
        "x",
        "2024-01-01",
        True,
        text_ruling="See rule 1.15.10b and CR 1.4, and section 6.5.2. Also 3 credits.",
    )
    assert cited_numbers(r) == ["1.15.10b", "1.4", "6.5.2"]


# ----- rulings and search -------------------------------------------------------------------


def test_known_cards_rulings_newest_first_and_found_by_question(store, nrdb_dir):
    raw = json.loads((nrdb_dir / "rulings" / "funhouse.json").read_text())
    rulings = store.rulings("funhouse")
    assert len(rulings) == len(raw)
    dates = [r.date_update for r in rulings]
    assert dates == sorted(dates, reverse=True)
    asked = [r for r in rulings if r.question]
    assert asked
    # the words of the question (without the source heading), never the card's name
    question = re.sub(r"\[[^\]]*\]\([^)]*\)", " ", asked[0].question.splitlines()[-1])
    assert "funhouse" not in question.lower()
    hits = store.search(question, sources=("rulings",), limit=5)
    assert any(h.card_id == "funhouse" and h.source == "rulings" for h in hits), hits
    assert all(h.source == "rulings" for h in hits)


def test_card_name_is_the_first_hit(store):
    hits = store.search("Snare!", limit=5)
    assert hits[0].card_id == "snare" and hits[0].source == "cards"
    only_cards = store.search("end the run net damage", sources=("cards",), limit=10)
    assert only_cards and all(h.source == "cards" for h in only_cards)


def test_search_ranks_by_words_as_rank_does(store):
    """The card box ranks with the same scorer as the merged search (`CardStore.rank`), after
    the cards named by the query."""
    for query in ("choosing to take the tag", "end the run net damage", "trash a resource"):
        ranked, _ = store.rank(query, ("rulings",), 10)
        expected = [(r.card_id, r.ruling) for r in ranked["rulings"]]
        assert expected
        assert [
            (h.card_id, h.ruling) for h in store.search(query, sources=("rulings",), limit=10)
        ] == expected
    named = [m.card_id for m in store.named("ice wall", 10)]
    hits = store.search("ice wall", sources=("cards",), limit=10)
    assert [h.card_id for h in hits[: len(named)]] == named
    assert len({h.card_id for h in hits}) == len(hits)  # a named card is not listed twice


@pytest.mark.parametrize("query", ["", "   ", "(((", 'title:"', "*", "AND OR NOT", "x" * 5000, "a:b:c"])
def test_search_never_raises(store, query):
    assert isinstance(store.search(query), list)


# ----- legality -----------------------------------------------------------------------------


def test_standard_legality(store, nrdb_dir):
    snare = store.legality("snare")  # Core Set, rotated long ago
    assert not snare.legal and snare.status == "rotated"
    assert store.legality("hedge_fund").legal  # reprinted in System Gateway
    banned = json.loads(
        (nrdb_dir / "restrictions" / "standard" / "standard_ban_list_25_10.json").read_text()
    )["banned"]
    first = store.legality(banned[0])
    assert not first.legal and first.status == "banned"
    assert first.restriction == "standard_ban_list_25_10"


# ----- building -----------------------------------------------------------------------------


def _small_folder(nrdb_dir: Path, dest: Path) -> Path:
    """A valid v2 folder with three real cards, their printings and rulings."""
    ids = ["ice_wall", "account_siphon", "snare"]
    for sub in ("cards", "printings", "rulings"):
        (dest / sub).mkdir(parents=True)
    for cid in ids:
        shutil.copy(nrdb_dir / "cards" / f"{cid}.json", dest / "cards")
        if (nrdb_dir / "rulings" / f"{cid}.json").exists():
            shutil.copy(nrdb_dir / "rulings" / f"{cid}.json", dest / "rulings")
    core = json.loads((nrdb_dir / "printings" / "core_set.json").read_text())
    (dest / "printings" / "core_set.json").write_text(json.dumps([p for p in core if p["card_id"] in ids]))
    for name in ("card_types.json", "factions.json", "card_sets.json", "card_subtypes.json"):
        shutil.copy(nrdb_dir / name, dest)
    return dest


def test_rebuilt_only_when_the_source_changes(tmp_path, nrdb_dir):
    folder = _small_folder(nrdb_dir, tmp_path / "src")
    out = tmp_path / "build"
    first = build_cards(str(folder), out)
    assert (first.status, first.cards) == ("built", 3)
    assert build_cards(str(folder), out).status == "unchanged"
    card = json.loads((folder / "cards" / "ice_wall.json").read_text())
    card["strength"] = 7
    (folder / "cards" / "ice_wall.json").write_text(json.dumps(card))
    assert build_cards(str(folder), out).status == "built"
    assert CardStore.open(out).card("ice_wall").strength == 7
    # the replaced build stays for servers still reading it, until a build LEFTOVER_AGE later
    assert len(list((out / ".v").iterdir())) == 2
    assert clean_leftovers(out, min_age=0) and len(list((out / ".v").iterdir())) == 1


def _bad(folder: Path, what: str) -> None:
    if what == "no cards":
        shutil.rmtree(folder / "cards")
        (folder / "cards").mkdir()
    elif what == "broken json":
        (folder / "cards" / "snare.json").write_text('{"id": "snare", "title": ')
    elif what == "unknown card ruling":
        (folder / "rulings" / "no_such_card.json").write_text(
            json.dumps([{"card_id": "no_such_card", "date_update": "2024-01-01", "text_ruling": "x"}])
        )
    elif what == "unknown card printing":
        (folder / "printings" / "extra.json").write_text(
            json.dumps([{"id": "99999", "card_id": "nobody", "card_set_id": "core_set", "position": 1}])
        )
    elif what == "ruling without text":
        (folder / "rulings" / "snare.json").write_text(json.dumps([{"card_id": "snare"}]))


@pytest.mark.parametrize(
    ("what", "message"),
    [
        ("no cards", "contains no cards/*.json"),
        ("broken json", "broken JSON at line 1"),
        ("unknown card ruling", "'no_such_card', which is not among the cards"),
        ("unknown card printing", "'nobody', which is not among the cards"),
        ("ruling without text", "neither question + answer nor text_ruling"),
    ],
)
def test_bad_input_is_one_clear_error_and_keeps_the_good_build(tmp_path, nrdb_dir, what, message):
    folder = _small_folder(nrdb_dir, tmp_path / "src")
    out = tmp_path / "build"
    good = build_cards(str(folder), out)
    _bad(folder, what)
    with pytest.raises(ScrapeError) as err:
        build_cards(str(folder), out)
    assert message in str(err.value)
    assert "\n" not in str(err.value) and "Traceback" not in str(err.value)
    store = CardStore.open(out)
    assert len(store) == good.cards and store.card("snare") is not None


def test_missing_folder_and_unbuilt_directory(tmp_path):
    with pytest.raises(ScrapeError, match="no such folder"):
        load(str(tmp_path / "nope"))
    with pytest.raises(CardsNotBuilt, match="nrrules build --cards"):
        CardStore.open(tmp_path)


def test_library_hook(cards_built, build_dir):
    from rules_index.store import Library, LibraryError

    with_cards = Library.open(cards_built)
    assert with_cards.cards().card("ice_wall").title == "Ice Wall"
    assert with_cards.cards() is with_cards.cards()
    with pytest.raises(LibraryError, match="nrrules build --cards"):
        Library.open(build_dir).cards()  # the plain build has no card data


# ----- the same data over HTTP --------------------------------------------------------------


@pytest.fixture(scope="module")
def api(http_server, nrdb_dir):
    """NetrunnerDB-style API resources (one JSON answer each) on a real loopback server."""
    base, root = http_server
    api_dir = root / "api"
    api_dir.mkdir(exist_ok=True)
    small = _small_folder(nrdb_dir, root / "small-src")
    for name, folder in (("api", nrdb_dir), ("small", small)):
        out = root / name
        out.mkdir(exist_ok=True)
        for resource in ("cards", "printings", "rulings", "formats", "card_pools"):
            rows = []
            for f in sorted((folder / resource).rglob("*.json")) if (folder / resource).is_dir() else []:
                value = json.loads(f.read_text())
                rows.extend(value if isinstance(value, list) else [value])
            (out / resource).write_text(json.dumps({"data": rows}))
        rows = []
        for f in sorted((nrdb_dir / "restrictions").rglob("*.json")):
            rows.append(json.loads(f.read_text()))
        (out / "restrictions").write_text(json.dumps(rows))
        for table in ("card_types", "card_subtypes", "factions", "card_sets", "sides", "card_cycles"):
            shutil.copy(nrdb_dir / f"{table}.json", out / table)
    # an API that answers HTML, and one that lacks its cards
    (root / "html").mkdir(exist_ok=True)
    (root / "html" / "cards").write_text("<!DOCTYPE html><html><body>Maintenance</body></html>")
    (root / "empty").mkdir(exist_ok=True)
    return base


def test_build_from_an_api_url_matches_the_folder(api, tmp_path, store):
    result = build_cards(f"{api}/api/", tmp_path / "b", cache_dir=tmp_path / "http")
    assert (result.cards, result.printings, result.rulings) == (
        len(store),
        store.info.printings,
        store.info.rulings,
    )
    over_http = CardStore.open(tmp_path / "b")
    assert over_http.legality("snare") == store.legality("snare")
    assert over_http.info.standard == store.info.standard
    # a second build revalidates from the cache and changes nothing
    assert build_cards(f"{api}/api/", tmp_path / "b", cache_dir=tmp_path / "http").status == "unchanged"


@pytest.mark.parametrize(
    ("path", "message"),
    [("html/", "answered HTML, not JSON"), ("empty/", "HTTP 404"), ("nothing-here/", "HTTP 404")],
)
def test_bad_api_answers(api, tmp_path, path, message, nrdb_dir):
    out = tmp_path / "b"
    build_cards(f"{api}/small/", out, cache_dir=tmp_path / "http")
    with pytest.raises(ScrapeError) as err:
        build_cards(f"{api}/{path}", out, cache_dir=tmp_path / "http")
    assert message in str(err.value) and err.value.source.startswith(api)
    assert len(CardStore.open(out)) == 3


def test_card_api_without_a_connection_says_how_to_build_from_a_folder(tmp_path):
    """No connection and nothing cached: the error names the URL and suggests a local NetrunnerDB
    folder (--cards), not a CR file."""
    url = "http://127.0.0.1:9/api/"  # discard port: nothing listens there
    with pytest.raises(ScrapeError) as info:
        build_cards(url, tmp_path / "b", cache_dir=tmp_path / "http")
    msg = str(info.value)
    assert url + "cards" in msg and "offline" in msg and "--cards" in msg and "--source" not in msg
    assert not (tmp_path / "b").exists() or not any((tmp_path / "b").iterdir())


# ----- the command line: bad input is one error line, the good build stays ---------------------


@pytest.mark.parametrize(
    ("what", "message"),
    [
        ("no cards", "contains no cards/*.json"),
        ("broken json", "broken JSON at line 1"),
        ("unknown card ruling", "'no_such_card', which is not among the cards"),
        ("html url", "answered HTML, not JSON"),
        ("404 url", "HTTP 404"),
    ],
)
def test_cli_build_cards_bad_input(api, tmp_path, nrdb_dir, what, message):
    from click.testing import CliRunner

    from webapp.cli import main

    folder = _small_folder(nrdb_dir, tmp_path / "src")
    out = tmp_path / "build"
    run = CliRunner().invoke
    env = {"XDG_CACHE_HOME": str(tmp_path / "xdg")}
    ok = run(main, ["build", "--cards", str(folder), "--build-dir", str(out)], env=env)
    assert ok.exit_code == 0 and "cards: built, 3 cards" in ok.output
    before = sorted(p.name for p in (out / ".v").iterdir())
    if what.endswith("url"):
        spec = f"{api}/html/" if what == "html url" else f"{api}/nothing-here/"
    else:
        _bad(folder, what)
        spec = str(folder)
    bad = run(main, ["build", "--cards", spec, "--build-dir", str(out)], env=env)
    lines = bad.output.strip().splitlines()
    assert bad.exit_code == 2, bad.output
    assert len(lines) == 1 and lines[0].startswith("error: ") and message in lines[0]
    assert sorted(p.name for p in (out / ".v").iterdir()) == before  # nothing new, nothing lost
    assert len(CardStore.open(out)) == 3
    assert not [p for p in out.iterdir() if p.name.startswith((".tmp-", ".link-"))]


def test_card_build_waits_for_the_build_lock_and_is_readable(tmp_path, nrdb_dir):
    import stat
    import threading

    from rules_index.integrity import build_lock

    folder = _small_folder(nrdb_dir, tmp_path / "src")
    out = tmp_path / "build"
    out.mkdir()
    done = threading.Event()
    with build_lock(out):
        worker = threading.Thread(target=lambda: (build_cards(str(folder), out), done.set()))
        worker.start()
        assert not done.wait(1.5)  # a CR build holds the lock: the card build waits
        assert not (out / "cards").exists()
    worker.join(60)
    assert done.is_set() and len(CardStore.open(out)) == 3
    mode = stat.S_IMODE((out / "cards").resolve().stat().st_mode)
    assert mode == 0o755  # readable by the service user, like the CR versions


# ----- which Standard is current ------------------------------------------------------------


def test_current_standard_follows_the_dates_not_the_list_order(nrdb_dir):
    from rules_index.cards import current_snapshot, standard_legality

    data = load(str(nrdb_dir))
    fmt = data.formats["standard"]
    marked = [s for s in fmt.snapshots if s.active]
    assert len(marked) == 1  # NetrunnerDB marks one snapshot active as of its publication
    published = "2025-09-17"  # the snapshot's commit date (../shared/README.md)
    assert current_snapshot(data, fmt, published) == marked[0]
    last = fmt.snapshots[-1]
    ban_list = data.restrictions[last.restriction_id]
    assert last != marked[0] and ban_list.date_start > published  # listed, not yet in force then
    assert current_snapshot(data, fmt, ban_list.date_start) == last
    # a card the newer ban list bans is legal before it takes effect and banned after
    older = data.restrictions[marked[0].restriction_id]
    newly = sorted(ban_list.banned - older.banned - older.restricted)
    assert newly
    before, info_before = standard_legality(data, published)
    after, info_after = standard_legality(data, ban_list.date_start)
    assert before[newly[0]].legal and not after[newly[0]].legal and after[newly[0]].status == "banned"
    assert (info_before["snapshot"], info_after["snapshot"]) == (marked[0].id, last.id)
    assert info_after["date_start"] == ban_list.date_start and info_after["active_in_data"] == marked[0].id
    # a card of a rotated cycle is not legal on either date
    assert before["snare"].status == after["snare"].status == "rotated"
    assert not before["snare"].legal and not after["snare"].legal


def test_store_computes_legality_for_the_date_asked(store, nrdb_dir):
    """Standard legality is not frozen at build time: the store computes it for the day asked
    (by default today, UTC), so a ban list that takes effect after the build counts from then."""
    from rules_index.cards import standard_legality, today_utc

    data = load(str(nrdb_dir))
    fmt = data.formats["standard"]
    marked = next(s for s in fmt.snapshots if s.active)
    ban_list = data.restrictions[fmt.snapshots[-1].restriction_id]
    older = data.restrictions[marked.restriction_id]
    newly = sorted(ban_list.banned - older.banned - older.restricted)[0]
    before = store.legality(newly, today="2025-09-17")
    after = store.legality(newly, today=ban_list.date_start)
    assert before.legal and before.restriction == older.id and before.as_of == "2025-09-17"
    assert not after.legal and after.status == "banned"
    assert (after.restriction_name, after.restriction_date) == (ban_list.name, ban_list.date_start)
    today = store.standard()[1]
    assert today["as_of"] == today_utc() == store.legality("hedge_fund").as_of
    expected, _ = standard_legality(data, today_utc())
    assert all(store.legality(cid) == expected[cid] for cid in ("snare", "hedge_fund", newly))


def test_long_snippets_are_cut_at_whole_words(store):
    """A card or ruling shown in search results is cut around the query's first word, at word
    boundaries: never half a word at either end."""
    seen = 0
    for query in ("end the run net damage", "trash a resource", "choosing to take the tag", "rez"):
        for hit in store.search(query, limit=20):
            source = store.card(hit.card_id).stripped_text if hit.source == "cards" else None
            if not hit.snippet.startswith("… ") and not hit.snippet.endswith(" …"):
                continue
            seen += 1
            body = hit.snippet.removeprefix("… ").removesuffix(" …")
            words = body.split()
            assert words, hit
            if source is not None:
                flat = " ".join(source.split())
                at = flat.find(body)
                assert at >= 0, (hit.card_id, body)
                assert at == 0 or flat[at - 1] == " ", (hit.card_id, body)
                after = at + len(body)
                assert after == len(flat) or flat[after] in " ,;:", (hit.card_id, body)
    assert seen >= 3  # some snippets really were cut


def test_the_name_matcher_forgives_typos_plurals_parts_and_prefixes(store):
    """`CardStore.match`: the one card-name matcher (issue 34), on the real NetrunnerDB data."""

    def first(typed):
        found = store.match(typed, 5)
        return (store.card(found[0].card_id).title, found[0].how) if found else None

    assert first("Tollbooth") == ("Tollbooth", "exact")
    assert first("tolbooth") == ("Tollbooth", "typo")  # a letter left out
    assert first("funhose") == ("Funhouse", "typo")
    assert first("corodder") == ("Corroder", "typo")  # two edits in an 8-letter name
    assert first("hostile takover") == ("Hostile Takeover", "typo")
    assert first("Mediums") == ("Medium", "plural")
    assert first("reality plus") == ("NBN: Reality Plus", "part")  # an identity's name after its colon
    assert first("turning wheel") == ("The Turning Wheel", "part")
    assert first("alice") == ("Alice Merchant: Clan Agitator", "prefix")
    assert first("steelskin") == ("Steelskin Scarring", "prefix")
    # words every card text uses are no typos, and 3 letters are too few to correct
    for typed in ("score", "jack out", "runs", "tags", "credits", "tol", "zzzzzzzzzz"):
        assert not any(m.how == "typo" for m in store.match(typed, 5)), typed
    # too many edits: no card ("tlbth" is three away from Tollbooth)
    assert first("tlbth") is None
    # parts naming several cards (every NBN identity) name none
    assert all(m.how == "prefix" for m in store.match("nbn", 5))


def test_the_name_matcher_finds_the_cards_a_post_names(store):
    post = (
        "My opponent had a Tollbooth on R&D and I had Corroder with an Ice Wall behind it; "
        "then Hostile Takeover was scored. Can I run again? I'd tollbooth it again."
    )
    titles = [store.card(cid).title for cid in store.matcher.mentioned(post)]
    assert titles == ["Tollbooth", "Corroder", "Ice Wall", "Hostile Takeover"]
    assert store.matcher.mentioned("run " * 1000) == []  # words, not capitalised one-word names
