"""The Discord bot over HTTP interactions: real Ed25519 key pairs made here, real signatures,
the real app (Flask test client) over the real build with card data.

Every answer is checked against Discord's documented limits (`discord_limits` below, written
from Discord's documentation: message and embed limits, application command naming and lengths),
and against webapp/openapi.yaml.
"""

from __future__ import annotations

import json
import re
import time

import pytest
from click.testing import CliRunner
from helpers import load_doc
from nacl.signing import SigningKey
from test_openapi_contract import check

from webapp import create_app
from webapp.cli import main
from webapp.cli.discord import register_request
from webapp.errors import BadRequest
from webapp.payloads import Rules
from webapp.payloads import cards as card_payloads
from webapp.payloads import discord as discord_payloads
from webapp.payloads import judge as judge_payloads
from webapp.payloads import rules as rule_payloads
from webapp.payloads.discord import COMMANDS, fit

BASE = "https://rules.example.org"
KEY = SigningKey.generate()
PUBLIC = KEY.verify_key.encode().hex()
URL = "/discord/interactions"


# ----------------------------------------------------------------------------------------------
# Discord's documented limits
# ----------------------------------------------------------------------------------------------

# Application commands: CHAT_INPUT names match ^[-_'\p{L}\p{N}\p{sc=Deva}\p{sc=Thai}]{1,32}$ and
# use lowercase letters where a lowercase exists; descriptions 1-100 characters; at most 25
# options, required ones first; option types 1-11; `autocomplete` only on STRING (3), INTEGER
# (4) and NUMBER (10) options and never with `choices`; at most 25 choices (name 1-100, string
# value up to 100); string options' min_length 0-6000 and max_length 1-6000; the name,
# description and every option's and choice's name, description and value together at most
# 4000 characters; at most 100 global CHAT_INPUT commands.
COMMAND_KEYS = {
    "type",
    "name",
    "name_localizations",
    "description",
    "description_localizations",
    "options",
    "default_member_permissions",
    "dm_permission",
    "nsfw",
    "contexts",
    "integration_types",
}
OPTION_KEYS = {
    "type",
    "name",
    "name_localizations",
    "description",
    "description_localizations",
    "required",
    "choices",
    "options",
    "channel_types",
    "min_value",
    "max_value",
    "min_length",
    "max_length",
    "autocomplete",
}
NAME = re.compile(r"^[-_'\w]{1,32}$")  # \w: Unicode letters and digits (and _), as \p{L}\p{N}


def command_problems(commands) -> list[str]:
    problems = []
    if not isinstance(commands, list) or not 1 <= len(commands) <= 100:
        return ["the definitions are a list of 1 to 100 commands"]
    names = [c.get("name") for c in commands]
    if len(set(names)) != len(names):
        problems.append("command names repeat")
    for c in commands:
        where = f"/{c.get('name')}"
        problems += [f"{where}: unknown key {k}" for k in set(c) - COMMAND_KEYS]
        if c.get("type", 1) != 1:
            problems.append(f"{where}: not a CHAT_INPUT command")
        name, desc = c.get("name", ""), c.get("description", "")
        if not (isinstance(name, str) and NAME.match(name) and name == name.lower()):
            problems.append(f"{where}: bad name")
        if not (isinstance(desc, str) and 1 <= len(desc) <= 100):
            problems.append(f"{where}: description must be 1-100 characters")
        total = len(name) + len(desc)
        options = c.get("options", [])
        if len(options) > 25:
            problems.append(f"{where}: more than 25 options")
        seen_optional = False
        option_names = [o.get("name") for o in options]
        if len(set(option_names)) != len(option_names):
            problems.append(f"{where}: option names repeat")
        for o in options:
            at = f"{where} {o.get('name')}"
            problems += [f"{at}: unknown key {k}" for k in set(o) - OPTION_KEYS]
            oname, odesc, otype = o.get("name", ""), o.get("description", ""), o.get("type")
            if not (isinstance(oname, str) and NAME.match(oname) and oname == oname.lower()):
                problems.append(f"{at}: bad option name")
            if not (isinstance(odesc, str) and 1 <= len(odesc) <= 100):
                problems.append(f"{at}: option description must be 1-100 characters")
            if otype not in range(1, 12):
                problems.append(f"{at}: option type must be 1-11")
            if o.get("required"):
                if seen_optional:
                    problems.append(f"{at}: a required option after an optional one")
            else:
                seen_optional = True
            if o.get("autocomplete") and (otype not in (3, 4, 10) or o.get("choices")):
                problems.append(f"{at}: autocomplete only on string/integer/number options without choices")
            choices = o.get("choices", [])
            if len(choices) > 25:
                problems.append(f"{at}: more than 25 choices")
            for ch in choices:
                if not 1 <= len(ch["name"]) <= 100 or (
                    isinstance(ch["value"], str) and len(ch["value"]) > 100
                ):
                    problems.append(f"{at}: bad choice {ch}")
                total += len(ch["name"]) + len(str(ch["value"]))
            if "min_length" in o and not 0 <= o["min_length"] <= 6000:
                problems.append(f"{at}: min_length out of 0-6000")
            if "max_length" in o and not 1 <= o["max_length"] <= 6000:
                problems.append(f"{at}: max_length out of 1-6000")
            if ("min_length" in o or "max_length" in o) and otype != 3:
                problems.append(f"{at}: min/max_length only on string options")
            total += len(oname) + len(odesc)
        if total > 4000:
            problems.append(f"{where}: more than 4000 characters in all")
    return problems


def discord_limits(answer: dict) -> None:
    """An interaction response within Discord's message, embed and autocomplete limits."""
    assert answer["type"] in (1, 4, 8)
    if answer["type"] == 8:
        choices = answer["data"]["choices"]
        assert len(choices) <= 25
        for ch in choices:
            assert 1 <= len(ch["name"]) <= 100 and isinstance(ch["value"], str) and len(ch["value"]) <= 100
        return
    if answer["type"] == 1:
        return
    data = answer["data"]
    assert data.get("content") or data.get("embeds")
    assert len(data.get("content", "")) <= 2000
    assert data["allowed_mentions"] == {"parse": []}  # a user's words never ping anyone
    embeds = data.get("embeds", [])
    assert len(embeds) <= 10
    total = 0
    for e in embeds:
        assert len(e.get("title", "")) <= 256 and len(e.get("description", "")) <= 4096
        assert len(e.get("fields", [])) <= 25
        assert (
            len(e.get("footer", {}).get("text", "")) <= 2048
            and len(e.get("author", {}).get("name", "")) <= 256
        )
        for f in e.get("fields", []):
            assert 1 <= len(f["name"]) <= 256 and 1 <= len(f["value"]) <= 1024
        total += (
            len(e.get("title", "")) + len(e.get("description", "")) + len(e.get("footer", {}).get("text", ""))
        )
        total += len(e.get("author", {}).get("name", "")) + sum(
            len(f["name"]) + len(f["value"]) for f in e.get("fields", [])
        )
        if "url" in e:
            assert e["url"].startswith(BASE + "/")
    assert total <= 6000


# ----------------------------------------------------------------------------------------------
# Signed requests through the real app
# ----------------------------------------------------------------------------------------------


def _app(build, **config):
    return create_app(
        {"TESTING": True, "BUILD_DIR": str(build), "DISCORD_PUBLIC_KEY": PUBLIC, "BASE_URL": BASE, **config}
    )


@pytest.fixture(scope="module")
def app(cards_built):
    return _app(cards_built)


@pytest.fixture(scope="module")
def rules(cards_built):
    from rules_index.store import Library

    return Rules(Library.open(cards_built))


def signed(
    client, body: bytes | dict, key: SigningKey = KEY, ts: int | str | None = None, sig: str | None = None
):
    raw = body if isinstance(body, bytes) else json.dumps(body).encode()
    stamp = str(int(time.time()) if ts is None else ts)
    signature = key.sign(stamp.encode() + raw).signature.hex() if sig is None else sig
    headers = {"X-Signature-Ed25519": signature, "X-Signature-Timestamp": stamp}
    return client.post(URL, data=raw, headers=headers, content_type="application/json")


def command(command_name: str, /, focused: str | None = None, **options: str) -> dict:
    opts = [
        {"name": k, "type": 3, "value": v, **({"focused": True} if k == focused else {})}
        for k, v in options.items()
    ]
    return {
        "type": 4 if focused else 2,
        "id": "1",
        "application_id": "2",
        "token": "t",
        "data": {"id": "3", "name": command_name, "type": 1, "options": opts},
    }


def answer(client, body) -> dict:
    resp = signed(client, body)
    assert resp.status_code == 200, resp.get_data(as_text=True)[:300]
    data = check(resp, "POST", URL)
    discord_limits(data)
    return data


def test_a_signed_ping_gets_a_pong(app):
    resp = signed(app.test_client(), {"type": 1})
    assert resp.status_code == 200 and check(resp, "POST", URL) == {"type": 1}


def test_cr_answers_with_the_rules_verbatim_text_number_version_and_link(app):
    data = answer(app.test_client(), command("cr", rule="6.9.4c"))
    embed = data["data"]["embeds"][0]
    node = load_doc("26.03").node("step_jack_out_choice")
    assert node.number == "6.9.4c"
    assert embed["description"] == " ".join(node.text.split())
    assert embed["title"].startswith("6.9.4c") and "26.03" in embed["footer"]["text"]
    assert "step_jack_out_choice" in embed["footer"]["text"]
    assert embed["url"] == f"{BASE}/id/step_jack_out_choice"
    assert "flags" not in data["data"]  # everyone sees it

    # another version: its number, its text, a link that keeps the version
    old = answer(app.test_client(), command("cr", rule="step_jack_out_choice", version="22.12"))["data"][
        "embeds"
    ][0]
    node = load_doc("22.12").node("step_jack_out_choice")
    assert old["title"].startswith(node.number) and old["description"] == " ".join(node.text.split())
    assert old["url"] == f"{BASE}/id/step_jack_out_choice?v=22.12" and "22.12" in old["footer"]["text"]


def test_cr_with_words_shows_the_best_match_and_the_others(app, rules):
    data = answer(app.test_client(), command("cr", rule="when can the runner jack out"))
    embed = data["data"]["embeds"][0]
    assert "Best match" in embed["description"]
    from webapp.payloads import search as search_payloads

    top = search_payloads.search(rules, "when can the runner jack out", None, 6, ("rules",))["results"][0]
    found = rules.find_rule(top["id"], None)
    assert found.node.id in embed["footer"]["text"]
    assert " ".join(found.node.text.split())[:100] in embed["description"]
    assert embed["fields"][0]["name"] == "Other matches"


def test_a_long_section_is_cut_cleanly_with_a_link(app, rules):
    doc = load_doc("26.03")

    def size(sec):
        return sum(len(d.text) + 12 for d in doc.descendants(sec.id) if d.kind != "example")

    longest = max((n for n in doc.nodes if n.kind == "section"), key=size)
    assert size(longest) > 4096
    embed = answer(app.test_client(), command("cr", rule=longest.number))["data"]["embeds"][0]
    url = f"{BASE}/id/{longest.id}"
    assert embed["description"].endswith(f"[read them all]({url})")
    shown = [ln for ln in embed["description"].split("\n") if ln.startswith("**")]
    payload = rule_payloads.rule(rules, rules.find(longest.number, None), descendants=True)
    texts = {
        f"**{d['number']}** {' '.join((d['text'] or d['title'] or '').split())}"
        for d in payload["descendants"]
    }
    assert shown and all(line in texts for line in shown)  # whole sub-rules, verbatim
    # the cut itself: at a word boundary, the link kept within the limit
    long = "word " * 2000
    cut = fit(long, 1024, f"{BASE}/id/x")
    assert len(cut) <= 1024 and cut.endswith(f"… [read it all]({BASE}/id/x)") and "wor…" not in cut


def test_cr_mistakes_are_ephemeral_with_the_nearest_rules(app):
    data = answer(app.test_client(), command("cr", rule="6.9.9"))["data"]
    assert data["flags"] == 64 and "no rule 6.9.9" in data["content"] and "6.9.4" in data["content"]
    data = answer(app.test_client(), command("cr", rule="6.9.4c", version="9.9"))["data"]
    assert data["flags"] == 64 and "not available" in data["content"]
    data = answer(app.test_client(), command("nosuchcommand", rule="x"))["data"]
    assert data["flags"] == 64 and "/cr" in data["content"]


def test_card_answers_with_the_card_and_ambiguous_names_ask(app, rules):
    embed = answer(app.test_client(), command("card", name="corroder"))["data"]["embeds"][0]
    card = card_payloads.card(rules, card_payloads.find(rules, "Corroder"))
    assert embed["title"] == "Corroder" and embed["description"] == card["text"]
    assert embed["url"] == f"{BASE}/c/corroder"
    assert any(f["name"] == "Strength" and f["value"] == str(card["strength"]) for f in embed["fields"])
    ask = answer(app.test_client(), command("card", name="Hostile"))["data"]
    assert ask["flags"] == 64 and "Did you mean" in ask["content"] and "embeds" not in ask
    for title in ("Hostile Takeover", "Hostile Architecture", "Hostile Infrastructure"):
        assert title in ask["content"]
    missing = answer(app.test_client(), command("card", name="zzqqxx no card"))["data"]
    assert missing["flags"] == 64 and "no card matches" in missing["content"]


def test_ruling_answers_with_the_official_rulings_verbatim(app, rules):
    card = card_payloads.find(rules, "Funhouse")
    rulings = card_payloads.rulings(rules, card)["rulings"]
    assert rulings
    embed = answer(app.test_client(), command("ruling", card="Funhouse"))["data"]["embeds"][0]
    first = rulings[0]
    body = (
        f"**Q:** {first['question']}\n**A:** {first['answer'] or ''}" if first["question"] else first["text"]
    )
    assert embed["fields"][0]["value"] == fit(body, 1024, f"{BASE}/c/{card.id}#ruling-{first['index']}")
    # words keep only the rulings that contain them
    word = max(re.findall(r"[A-Za-z]{6,}", (first["answer"] or first["text"] or "")), key=len)
    some = answer(app.test_client(), command("ruling", card="Funhouse", words=word))["data"]["embeds"][0]
    assert some["fields"] and all(
        word.lower() in f["value"].lower() for f in some["fields"] if "…" not in f["value"]
    )
    none = answer(app.test_client(), command("ruling", card="Funhouse", words="zzqqxx"))["data"]
    assert none["flags"] == 64 and "mention" in none["content"]


def test_search_and_changes(app, rules):
    embed = answer(app.test_client(), command("search", words="how many clicks does the corp get"))["data"][
        "embeds"
    ][0]
    assert embed["fields"] and all(f"({BASE}/" in f["value"] for f in embed["fields"])
    changes = judge_payloads.changes(rules, "25.08", "26.03")
    embed = answer(app.test_client(), command("changes", **{"from": "25.08", "to": "26.03"}))["data"][
        "embeds"
    ][0]
    n = changes["counts"]
    assert f"{n['added']} added, {n['removed']} removed" in embed["description"]
    assert embed["url"] == f"{BASE}/changes/25.08..26.03"
    same = answer(app.test_client(), command("changes", **{"from": "26.03", "to": "26.03"}))["data"]
    assert same["flags"] == 64 and "two different versions" in same["content"]


def test_autocomplete_offers_rule_numbers_card_names_and_versions(app):
    client = app.test_client()
    numbers = [
        c["value"] for c in answer(client, command("cr", focused="rule", rule="6.9.4"))["data"]["choices"]
    ]
    assert numbers[0] == "6.9.4" and "6.9.4c" in numbers and all(v.startswith("6.9.4") for v in numbers)
    worded = [
        c["value"] for c in answer(client, command("cr", focused="rule", rule="jack out"))["data"]["choices"]
    ]
    assert "6.1.5" in worded or "6.9.4c" in worded
    cards = [
        c["value"]
        for c in answer(client, command("card", focused="name", name="Hostile T"))["data"]["choices"]
    ]
    assert cards == ["Hostile Takeover"]
    named = [
        c["value"] for c in answer(client, command("ruling", focused="card", card="PAD"))["data"]["choices"]
    ]
    assert {"PAD Campaign", "PAD Factory", "PAD Tap"} <= set(named)
    versions = [
        c["value"]
        for c in answer(client, command("changes", focused="to", **{"from": "25.08", "to": "2"}))["data"][
            "choices"
        ]
    ]
    assert versions == ["26.03", "25.08", "25.04", "24.03", "23.08", "22.12"]
    nothing = answer(client, command("cr", focused="rule", rule="6.9.4", version="9.9"))["data"]["choices"]
    assert nothing == []


# ----------------------------------------------------------------------------------------------
# Refused: forged, replayed, malformed; not configured
# ----------------------------------------------------------------------------------------------


@pytest.fixture
def untouched(tmp_path):
    """An app over an empty build directory: if a refused request reached a command, it would
    have opened the build (and answered that nothing is built)."""
    app = _app(tmp_path)
    yield app
    assert app.extensions["nrrules.library"]._rules is None, "a refused request opened the build"


def test_forged_and_replayed_requests_get_401_and_nothing_else(untouched):
    client = untouched.test_client()
    body = json.dumps(command("cr", rule="6.9.4c")).encode()
    now = int(time.time())
    good_sig = KEY.sign(str(now).encode() + body).signature.hex()
    cases = {
        "unsigned": client.post(URL, data=body, content_type="application/json"),
        "no timestamp": client.post(
            URL, data=body, headers={"X-Signature-Ed25519": good_sig}, content_type="application/json"
        ),
        "another key": signed(client, body, key=SigningKey.generate()),
        "body changed": signed(client, body.replace(b"6.9.4c", b"1.2.1"), sig=good_sig, ts=now),
        "timestamp changed": signed(client, body, sig=good_sig, ts=now + 1),
        "stale": signed(client, body, ts=int(time.time()) - 360),
        "from the future": signed(client, body, ts=int(time.time()) + 360),
        "not hex": signed(client, body, sig="zz" * 64),
        "short signature": signed(client, body, sig=good_sig[:64]),
        "timestamp not a number": signed(client, body, ts="soon"),
        "timestamp in other digits": signed(client, body, ts="\u00b2\u00b3"),
    }
    for what, resp in cases.items():
        assert resp.status_code == 401, what
        data = check(resp, "POST", URL)
        assert "type" not in data and data["status"] == 401, what
        assert "Traceback" not in resp.get_data(as_text=True)
    assert "stale" in cases["stale"].get_json()["error"]
    big = client.post(
        URL, data=b"x" * (untouched.config["MAX_CONTENT_LENGTH"] + 1), content_type="application/json"
    )
    assert big.status_code == 413 and "too large" in big.get_json()["error"]
    # within the window, a signed one is answered (the build is empty: an ephemeral says so)
    ok = signed(client, {"type": 1}, ts=now - 200)
    assert ok.status_code == 200 and ok.get_json() == {"type": 1}


@pytest.mark.parametrize(
    ("body", "words"),
    [
        (b"not json", "not valid JSON"),
        (b"[1, 2]", "integer type"),
        (b'{"type": "1"}', "integer type"),
        (b'{"type": 3, "data": {"custom_id": "x"}}', "not supported"),
        (b'{"type": 2}', "command's name"),
        (b'{"type": 2, "data": {"name": "cr", "options": "6.9.4c"}}', "must be a list"),
        (b'{"type": 2, "data": {"name": "cr", "options": [{"name": "rule", "value": 6}]}}', "must be text"),
    ],
)
def test_signed_but_malformed_interactions_get_400_and_nothing_else(untouched, body, words):
    resp = signed(untouched.test_client(), body)
    assert resp.status_code == 400
    assert words in check(resp, "POST", URL)["error"]


def test_without_a_key_the_bot_says_it_is_not_configured(cards_built):
    for key in (None, "", "not-a-key", "ab" * 31):
        app = create_app({"TESTING": True, "BUILD_DIR": str(cards_built), "DISCORD_PUBLIC_KEY": key})
        resp = signed(app.test_client(), {"type": 1})
        assert resp.status_code == 503
        data = check(resp, "POST", URL)
        assert "DISCORD_PUBLIC_KEY" in data["error"] and "Traceback" not in resp.get_data(as_text=True)


def test_links_use_the_request_address_without_a_base_url(cards_built):
    app = _app(cards_built, BASE_URL=None)
    embed = signed(app.test_client(), command("cr", rule="6.9.4c")).get_json()["data"]["embeds"][0]
    assert embed["url"] == "http://localhost/id/step_jack_out_choice"


def test_an_answer_for_a_build_that_cannot_be_read_is_ephemeral(tmp_path):
    app = _app(tmp_path)
    data = signed(app.test_client(), command("cr", rule="6.9.4c")).get_json()["data"]
    assert data["flags"] == 64 and "nrrules build" in data["content"] and str(tmp_path) not in data["content"]


# ----------------------------------------------------------------------------------------------
# The command definitions and their registration
# ----------------------------------------------------------------------------------------------


def test_the_commands_have_the_shape_discord_documents():
    assert command_problems(COMMANDS) == []
    assert {c["name"] for c in COMMANDS} == {"cr", "card", "ruling", "search", "changes"}
    # the checker itself catches what Discord refuses
    bad = json.loads(json.dumps(COMMANDS))
    bad[0]["name"] = "CR"
    bad[1]["description"] = "x" * 101
    bad[2]["options"].reverse()  # the optional option first
    bad[3]["options"][0]["type"] = 12
    bad[4]["options"][0]["choices"] = [{"name": "a", "value": "a"}]
    problems = command_problems(bad)
    for words in (
        "/CR: bad name",
        "1-100",
        "required option after",
        "type must be 1-11",
        "autocomplete only",
    ):
        assert any(words in p for p in problems), words


def test_the_command_line_prints_the_definitions_and_the_registration(tmp_path):
    runner = CliRunner()
    printed = runner.invoke(main, ["discord", "commands"])
    assert printed.exit_code == 0 and json.loads(printed.output) == COMMANDS

    token = "MTIzNDU2Nzg5MDEyMzQ1Njc4.GabcDE.0123456789abcdefghijklmnopqrstuvwxyzAB"
    req = register_request("123456789012345678", token)
    assert req.method == "PUT"
    assert req.url == "https://discord.com/api/v10/applications/123456789012345678/commands"
    assert (
        req.headers["Authorization"] == f"Bot {token}" and req.headers["Content-Type"] == "application/json"
    )
    assert req.headers["User-Agent"].startswith("DiscordBot (")
    assert json.loads(req.body) == COMMANDS
    guild = register_request("123456789012345678", token, guild_id="987654321098765432")
    assert (
        guild.url
        == "https://discord.com/api/v10/applications/123456789012345678/guilds/987654321098765432/commands"
    )
    for app_id, tok in (
        ("12ab", token),
        ("123456789012345678", "short"),
        ("123456789012345678", token + "\r\nX-Evil: 1"),
    ):
        with pytest.raises(BadRequest):
            register_request(app_id, tok)

    dry = runner.invoke(
        main, ["discord", "register", "--application-id", "123456789012345678", "--token", token, "--dry-run"]
    )
    assert dry.exit_code == 0 and token not in dry.output
    shown = json.loads(dry.output)
    assert (
        shown["method"] == "PUT"
        and shown["json"] == COMMANDS
        and shown["headers"]["Authorization"] == "Bot ***"
    )
    bad = runner.invoke(main, ["discord", "register", "--application-id", "x", "--token", token])
    assert bad.exit_code == 2 and bad.output.startswith("error: ") and token not in bad.output
    missing = runner.invoke(
        main, ["discord", "register"], env={"DISCORD_APPLICATION_ID": None, "DISCORD_BOT_TOKEN": None}
    )
    assert missing.exit_code == 2 and "application-id" in missing.output


def test_the_payload_module_knows_every_command_it_defines():
    assert set(discord_payloads._COMMANDS) == {c["name"] for c in COMMANDS}


def test_any_interaction_is_answered_within_the_limits_or_refused_as_malformed(rules):
    """Signed but arbitrary interactions (what a buggy or hostile client could sign with a leaked
    key): every answer is within Discord's limits, every refusal a BadRequest; nothing else."""
    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as st

    text = st.one_of(
        st.sampled_from(
            ["6.9.4c", "jack out", "Hostile", "Funhouse", "25.08", "26.03", "", "6", "§6.9", "zz"]
        ),
        st.text(max_size=300),
    )
    option = st.fixed_dictionaries(
        {
            "name": st.sampled_from(["rule", "version", "name", "card", "words", "from", "to", "x"]),
            "type": st.just(3),
        },
        optional={"value": st.one_of(text, st.integers(), st.none()), "focused": st.booleans()},
    )
    interaction = st.fixed_dictionaries(
        {"type": st.sampled_from([1, 2, 4, 3, 0, "2"])},
        optional={
            "data": st.one_of(
                st.fixed_dictionaries(
                    {"name": st.sampled_from(["cr", "card", "ruling", "search", "changes", "nope"])},
                    optional={"options": st.one_of(st.lists(option, max_size=3), text)},
                ),
                text,
            )
        },
    )

    @settings(max_examples=60, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
    @given(value=st.one_of(interaction, st.integers(), st.lists(st.integers(), max_size=2)))
    def run(value):
        try:
            out = discord_payloads.respond(rules, value, BASE)
        except BadRequest as exc:
            assert exc.message
            return
        discord_limits(out)

    run()
