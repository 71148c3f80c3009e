"""Flask test-client tests for the board editor, the stepper and the engine JSON API."""

from __future__ import annotations

import copy
import gzip
import json
import re
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest

from webapp import create_app
from webapp.caches import cache

EXAMPLES = Path(__file__).resolve().parent.parent / "webapp" / "examples"


@pytest.fixture(scope="module")
def app(build_dir):
    return create_app({"TESTING": True, "BUILD_DIR": str(build_dir), "SECRET_KEY": "engine-test-key"})


@pytest.fixture()
def client(app):
    return app.test_client()


@pytest.fixture()
def board():
    return json.loads((EXAMPLES / "01-hq-ice-wall.json").read_text())


def start(client, board, structure="run", params=None, **extra):
    body = {"board": board, "structure": structure, "params": {"server": "hq"} if params is None else params}
    body.update(extra)
    return client.post("/api/engine/sessions", json=body)


def decide(client, token, decision):
    return client.post(f"/api/engine/sessions/{token}/decisions", json={"decision": decision})


def token_of(url: str) -> str:
    return parse_qs(urlsplit(url).query)["s"][0]


# ----- structures, examples, validation ---------------------------------------------------------


def test_structures(client):
    data = client.get("/api/engine/structures").get_json()
    by_id = {s["id"]: s for s in data["structures"]}
    assert {"run", "corp_turn", "runner_turn"} <= set(by_id)
    assert "server" in by_id["run"]["params"]
    assert client.get("/api/engine/structures?v=22.12").status_code == 200
    bad = client.get("/api/engine/structures?v=0.1")
    assert bad.status_code == 404 and "not available" in bad.get_json()["error"]


def test_examples_are_valid_and_startable(client):
    data = client.get("/api/engine/examples").get_json()
    assert len(data["examples"]) >= 3
    for ex in data["examples"]:
        v = client.post("/api/engine/validate", json={"board": ex["board"]}).get_json()
        assert v == {"valid": True, "problems": []}, ex["name"]
        server = next(iter(ex["board"]["servers"]))
        resp = start(client, ex["board"], params={"server": server})
        assert resp.status_code == 201, (ex["name"], resp.get_json())


def test_validate_reports_field_paths(client, board):
    bad = copy.deepcopy(board)
    bad["servers"]["hq"]["ice"][0]["rez_cost"] = -2
    bad["runner"]["credits"] = "lots"
    bad["servers"]["remote1"] = {"ice": [], "content": {"name": "X", "type": "operation"}}
    data = client.post("/api/engine/validate", json={"board": bad}).get_json()
    assert data["valid"] is False
    paths = {p["path"] for p in data["problems"]}
    assert {"servers.hq.ice[0].rez_cost", "runner.credits", "servers.remote1.content.type"} <= paths
    assert all(p["message"] and ":" not in p["path"] for p in data["problems"])


def test_validate_bad_bodies(client):
    not_json = client.post("/api/engine/validate", data="board", content_type="text/plain")
    assert not_json.status_code == 415 and "JSON" in not_json.get_json()["error"]
    broken = client.post("/api/engine/validate", data="{not json", content_type="application/json")
    assert broken.status_code == 400 and "not valid JSON" in broken.get_json()["error"]
    listy = client.post("/api/engine/validate", json=[1, 2])
    assert listy.status_code == 400
    huge = client.post(
        "/api/engine/validate", data='{"board": "' + "x" * 400_000 + '"}', content_type="application/json"
    )
    assert huge.status_code == 413
    assert "too large" in huge.get_json()["error"]


# ----- sessions ----------------------------------------------------------------------------------


def test_start_run(client, board):
    resp = start(client, board)
    assert resp.status_code == 201
    data = resp.get_json()
    assert resp.headers["Location"].startswith("/api/engine/sessions/")
    assert resp.headers["Cache-Control"] == "no-store"
    assert data["structure"] == "run" and data["params"] == {"server": "hq"}
    assert data["finished"] is False
    assert data["current_step"]["number"] and data["current_step"]["text"]
    assert data["current_step"]["url"] == "/id/" + data["current_step"]["id"]
    assert data["decisions"] and all({"id", "label", "player"} <= set(d) for d in data["decisions"])
    first = data["trace"][0]
    assert first["step"] == "step_initiation_announce"
    assert first["step_number"] and first["rule_links"][0]["url"].startswith("/id/")
    assert data["undo_token"] is None
    again = client.get(resp.headers["Location"]).get_json()
    assert again["token"] == data["token"] and again["trace"] == data["trace"]


def run_to_end(client, data, choose, limit=200):
    seen = [data]
    for _ in range(limit):
        if data["finished"]:
            return seen
        resp = decide(client, data["token"], choose(data["decisions"]))
        assert resp.status_code == 200, resp.get_json()
        data = resp.get_json()
        seen.append(data)
    raise AssertionError("session did not finish")


def test_step_run_to_its_end(client, board):
    data = start(client, board).get_json()

    def choose(decisions):  # break every subroutine when possible, then keep going
        ids = [d["id"] for d in decisions]
        return next(
            (i for i in ids if i.startswith("break:")), next((i for i in ids if i != "jack_out"), ids[0])
        )

    states = run_to_end(client, data, choose)
    final = states[-1]
    assert final["finished"] is True
    assert final["decisions"] == [] and final["current_step"] is None
    assert final["outcome"]["runs"][0]["server"] == "hq"
    assert final["outcome"]["run"] == "successful"
    lengths = [s["trace_length"] for s in states]
    assert lengths == sorted(lengths) and lengths[-1] > lengths[0]
    # a step's answer carries what it fired, not the whole trace; the pieces add up to it
    assert all("trace" not in s for s in states[1:])
    whole = client.get(f"/api/engine/sessions/{final['token']}").get_json()["trace"]
    assert len(whole) == final["trace_length"]
    pieces = [e for s in states for e in s["events"]]
    assert pieces == whole
    with_trace = client.post(
        f"/api/engine/sessions/{states[-2]['token']}/decisions?trace=1",
        json={"decision": states[-1]["decisions_taken"][-1]},
    ).get_json()
    assert with_trace["trace"] == whole
    # every fired step is a real rule with a number in this version
    assert all(e["step_number"] for e in whole if e.get("step"))
    # a finished session takes no decisions
    late = decide(client, final["token"], "pass")
    assert late.status_code == 409


def test_a_decision_names_each_fired_rule_once_with_its_text(client, board, documents):
    """With texts=1, `rules` holds every step and rule the new events name, once each, with the
    session's version's number and text."""
    data = start(client, board).get_json()
    old = start(client, board, v="22.12").get_json()
    for state in (data, old):
        doc_here = documents[state["version"]]
        plain = decide(client, state["token"], state["decisions"][0]["id"]).get_json()
        assert "rules" not in plain  # texts only when asked for
        nxt = client.post(
            f"/api/engine/sessions/{state['token']}/decisions?texts=1",
            json={"decision": state["decisions"][0]["id"]},
        ).get_json()
        assert nxt["events"] == plain["events"] and nxt["token"] == plain["token"]
        named = [rid for e in nxt["events"] for rid in ([e["step"]] if e["step"] else []) + e["rules"]]
        assert named and list(nxt["rules"]) == list(dict.fromkeys(named))
        for rid, card in nxt["rules"].items():
            node = doc_here.node(rid)
            assert (card["id"], card["number"], card["text"]) == (rid, node.number, node.text)
            suffix = "" if state is data else "?v=22.12"
            assert card["url"] == f"/id/{rid}{suffix}"
        # texts travel once, in `rules`, not in every event
        assert not any("rule_texts" in e or "step_text" in e for e in nxt["events"])


def test_end_the_run_subroutine_ends_the_run(client, board):
    data = start(client, board).get_json()
    states = run_to_end(
        client, data, lambda ds: "pass" if any(d["id"] == "pass" for d in ds) else ds[0]["id"]
    )
    assert states[-1]["outcome"]["run"] == "unsuccessful"
    trace = client.get(f"/api/engine/sessions/{states[-1]['token']}").get_json()["trace"]
    fired = [e for e in trace if "rule_end_the_run" in e["rules"]]
    assert fired and fired[0]["step"] == "step_subroutine_resolution"
    assert fired[0]["rule_links"] == [
        {"id": "rule_end_the_run", "number": fired[0]["rule_numbers"][0], "url": "/id/rule_end_the_run"}
    ]


def test_undo_returns_to_previous_state(client, board):
    first = start(client, board).get_json()
    second = decide(client, first["token"], first["decisions"][0]["id"]).get_json()
    assert second["undo_token"] == first["token"]
    undone = client.get(f"/api/engine/sessions/{second['undo_token']}").get_json()
    assert undone["trace"] == first["trace"] and undone["decisions"] == first["decisions"]


def test_illegal_decision(client, board):
    data = start(client, board).get_json()
    resp = decide(client, data["token"], "steal")
    assert resp.status_code == 409
    body = resp.get_json()
    assert "not legal" in body["error"]
    assert set(body["legal"]) == {d["id"] for d in data["decisions"]}
    missing = client.post(f"/api/engine/sessions/{data['token']}/decisions", json={})
    assert missing.status_code == 400 and "decision is required" in missing.get_json()["error"]


def test_bad_tokens(client, app, board):
    data = start(client, board).get_json()
    token = data["token"]
    flipped = token[:-3] + ("AAA" if not token.endswith("AAA") else "BBB")
    for bad in (flipped, "garbage", "x" * 20000):
        resp = client.get(f"/api/engine/sessions/{bad}")
        assert resp.status_code == 400, bad[:20]
        assert "token" in resp.get_json()["error"]
    other = create_app({"TESTING": True, "BUILD_DIR": app.config["BUILD_DIR"], "SECRET_KEY": "another-key"})
    resp = other.test_client().get(f"/api/engine/sessions/{token}")
    assert resp.status_code == 400 and "SECRET_KEY" in resp.get_json()["error"]


def test_token_works_on_any_worker_with_the_same_key(app, client, board):
    data = start(client, board).get_json()
    twin = create_app(
        {"TESTING": True, "BUILD_DIR": app.config["BUILD_DIR"], "SECRET_KEY": "engine-test-key"}
    )
    other = twin.test_client().get(f"/api/engine/sessions/{data['token']}").get_json()
    assert other["trace"] == data["trace"] and other["decisions"] == data["decisions"]


@pytest.mark.parametrize(
    "body, needle",
    [
        ({"structure": "run", "params": {"server": "hq"}}, "board is required"),
        ({"board": "nope", "structure": "run"}, "board"),
        (
            {"board": {"version": 1, "servers": {"hq": {"ice": [{"rez_cost": -1}]}}}, "structure": "run"},
            "the board is invalid: servers.hq.ice[0].name: is required",
        ),
        ({"board": "BOARD", "structure": "dance"}, "unknown structure 'dance'"),
        ({"board": "BOARD"}, "structure is required"),
        ({"board": "BOARD", "structure": "run", "params": {}}, "server"),
        ({"board": "BOARD", "structure": "run", "params": {"server": "remote7"}}, "remote7"),
        ({"board": "BOARD", "structure": "run", "params": {"server": "hq"}, "seed": "x"}, "seed"),
        ({"board": "BOARD", "structure": "run", "params": {"server": "hq"}, "v": "3.1"}, "not available"),
    ],
)
def test_start_bad_requests(client, board, body, needle):
    body = {k: (board if v == "BOARD" else v) for k, v in body.items()}
    resp = client.post("/api/engine/sessions", json=body)
    assert 400 <= resp.status_code < 500
    data = resp.get_json()
    assert needle.lower() in data["error"].lower(), data


def test_malformed_board_problems_have_paths(client, board):
    bad = copy.deepcopy(board)
    bad["servers"]["hq"]["ice"][0]["subroutines"] = [{"effect": "explode"}]
    resp = start(client, bad)
    assert resp.status_code == 400
    problems = resp.get_json()["problems"]
    assert problems[0]["path"] == "servers.hq.ice[0].subroutines[0].effect"
    assert "explode" in problems[0]["message"]


def test_whole_turn(client, board):
    resp = start(client, board, structure="runner_turn", params={})
    assert resp.status_code == 201, resp.get_json()
    data = resp.get_json()
    ids = [d["id"] for d in data["decisions"]]
    assert data["current_step"]["id"] == "step_runner_turn_action"
    assert {"credit", "draw", "run:hq", "run:rd", "run:archives"} <= set(ids)


def test_session_in_older_version(client, board, documents):
    data = start(client, board, v="24.03").get_json()
    assert data["version"] == "24.03"
    step = data["current_step"]
    assert step["number"] == documents["24.03"].node(step["id"]).number
    assert step["url"].endswith("?v=24.03")


# ----- HTML: editor and stepper -----------------------------------------------------------------


def test_editor_page(client):
    resp = client.get("/editor")
    assert resp.status_code == 200
    html = resp.get_data(as_text=True)
    assert 'id="boardjson"' in html and 'name="structure"' in html
    assert 'data-example="02-remote-agenda"' in html
    assert re.search(r'<script src="/static/editor\.js\?h=[0-9a-f]+" defer></script>', html)
    remote = client.get("/editor?example=02-remote-agenda").get_data(as_text=True)
    assert "Send a Message" in remote
    assert client.get("/editor?example=nope").status_code == 404


def test_editor_starts_empty_and_an_example_names_its_server(client):
    html = client.get("/editor").get_data(as_text=True)
    board = json.loads(
        re.search(r'id="boardjson"[^>]*>([^<]*)</textarea>', html).group(1).replace("&#34;", '"')
    )
    assert board["servers"] == {}  # an empty board; the examples are links above the picture
    assert 'aria-current="true">Empty board</a>' in html
    remote = client.get("/editor?example=remote-run").get_data(as_text=True)
    assert '<option value="remote1" selected>Server 1</option>' in remote  # the run follows the board
    assert 'aria-current="true">Example: ' in remote


def test_decision_in_place_brings_the_page_part(client, board):
    """`html=1`: the decision's JSON twin carries the stepper page's main part, the same as the
    page draws for the new position (one template), and the title; no trace unless asked."""
    data = start(client, board).get_json()
    first = data["decisions"][0]["id"]
    resp = client.post(f"/api/engine/sessions/{data['token']}/decisions?html=1", json={"decision": first})
    answer = resp.get_json()
    assert resp.status_code == 200 and "trace" not in answer
    assert answer["title"] == "Run on HQ" and answer["html"].lstrip().startswith('<div class="st"')
    plain = decide(client, data["token"], first).get_json()
    assert plain["token"] == answer["token"] and "html" not in plain
    page = client.get(answer["url"]).get_data(as_text=True)
    assert answer["html"].strip() in page
    again = client.get(f"/api/engine/sessions/{answer['token']}?html=1").get_json()
    assert again["html"] == answer["html"] and again["trace"]
    with_trace = client.post(
        f"/api/engine/sessions/{data['token']}/decisions?html=1&trace=1", json={"decision": first}
    ).get_json()
    assert len(with_trace["trace"]) == with_trace["trace_length"]


def test_editor_form_without_javascript(client, board):
    ok = client.post("/editor", data={"board": json.dumps(board), "structure": "run", "server": "hq"})
    assert ok.status_code == 303 and ok.headers["Location"].startswith("/step?s=")
    broken = client.post("/editor", data={"board": "{oops", "structure": "run", "server": "hq"})
    assert broken.status_code == 400 and "not valid JSON" in broken.get_data(as_text=True)
    bad = copy.deepcopy(board)
    bad["corp"]["credits"] = -5
    resp = client.post("/editor", data={"board": json.dumps(bad), "structure": "run", "server": "hq"})
    html = resp.get_data(as_text=True)
    assert resp.status_code == 400
    assert '<li data-path="corp.credits"><code>corp.credits</code>: must be a non-negative integer' in html
    # the user's text is kept so it can be fixed
    assert "&#34;credits&#34;: -5" in html


def test_editor_loads_board_from_session(client, board):
    board["corp"]["credits"] = 17
    board["servers"]["remote1"] = {
        "content": {"name": "Project Vitruvius", "type": "agenda", "agenda_points": 2}
    }
    data = start(client, board, params={"server": "remote1"}, v="25.04").get_json()
    html = client.get(f"/editor?s={data['token']}").get_data(as_text=True)
    assert "&#34;credits&#34;: 17" in html
    assert '<option value="run" data-params="server" selected>' in html
    assert '<option value="remote1" selected>Server 1</option>' in html
    assert '<input type="hidden" name="v" value="25.04">' in html


def test_stepper_page_and_form_decisions(client, board):
    data = start(client, board).get_json()
    resp = client.get(data["url"])
    assert resp.status_code == 200
    html = resp.get_data(as_text=True)
    assert f">{data['current_step']['number']}</a>" in html
    for d in data["decisions"]:
        assert f'value="{d["id"]}"' in html
    assert html.count("<li>") >= len(data["trace"])
    assert 'class="ref fired"' in html
    # press a button without JavaScript: POST, then a redirect to the new position
    resp = client.post("/step", data={"s": data["token"], "decision": data["decisions"][0]["id"]})
    assert resp.status_code == 303
    new_token = token_of(resp.headers["Location"])
    after = client.get(resp.headers["Location"]).get_data(as_text=True)
    assert 'id="undo"' in after
    assert 'id="recent"' in after and 'id="recent"' not in html
    assert f'href="/step?s={data["token"]}"' in after
    # reloading the same URL gives exactly the same page
    assert client.get(f"/step?s={new_token}").data == client.get(f"/step?s={new_token}").data


def test_stepper_finished_page(client, board):
    data = start(client, board).get_json()
    final = run_to_end(client, data, lambda ds: ds[0]["id"])[-1]
    html = client.get(final["url"]).get_data(as_text=True)
    assert 'id="finished"' in html and "Run on HQ" in html
    assert 'id="decisions"' not in html


def test_stepper_bad_input(client, board):
    assert client.get("/step").status_code == 302
    bad = client.get("/step?s=not-a-token")
    assert bad.status_code == 400 and "token is invalid" in bad.get_data(as_text=True)
    data = start(client, board).get_json()
    illegal = client.post("/step", data={"s": data["token"], "decision": "steal"})
    assert illegal.status_code == 409 and "not legal" in illegal.get_data(as_text=True)
    none = client.post("/step", data={"s": data["token"]})
    assert none.status_code == 400


def test_session_cache_is_transparent(app, client, board):
    plain = create_app(
        {
            "TESTING": True,
            "BUILD_DIR": app.config["BUILD_DIR"],
            "SECRET_KEY": "engine-test-key",
            "SESSION_CACHE_SIZE": 0,
        }
    )
    pc = plain.test_client()
    a = start(client, board).get_json()
    b = start(pc, board).get_json()
    for _ in range(6):
        assert a == b
        if a["finished"]:
            break
        choice = a["decisions"][0]["id"]
        a = decide(client, a["token"], choice).get_json()
        b = decide(pc, b["token"], choice).get_json()
    assert 0 < len(cache("sessions", app)) <= app.config["SESSION_CACHE_SIZE"]
    assert cache("sessions", plain) is None and cache("answers", plain) is None


def test_engine_answers_are_kept_per_exact_request(app, client, board):
    """A repeated decision (a retry on bad wifi, a double tap) gets the same bytes back, gzipped
    when asked for; other flags, other decisions and illegal ones are answered on their own."""
    data = start(client, board).get_json()
    token, choice = data["token"], data["decisions"][0]["id"]
    first = decide(client, token, choice)
    again = decide(client, token, choice)
    assert first.status_code == again.status_code == 200
    assert first.get_data() == again.get_data()
    gz = client.post(
        f"/api/engine/sessions/{token}/decisions",
        json={"decision": choice},
        headers={"Accept-Encoding": "gzip"},
    )
    assert gz.headers["Content-Encoding"] == "gzip" and "Accept-Encoding" in gz.headers["Vary"]
    assert gzip.decompress(gz.get_data()) == first.get_data()
    assert "rules" not in first.get_json()
    texts = client.post(f"/api/engine/sessions/{token}/decisions?texts=1", json={"decision": choice})
    assert "rules" in texts.get_json() and texts.get_json()["events"] == first.get_json()["events"]
    for _ in range(2):
        illegal = decide(client, token, "no_such_decision")
        assert illegal.status_code == 409 and illegal.get_json()["legal"]
    answers = cache("answers", app)
    assert 0 < len(answers) <= app.config["SESSION_CACHE_SIZE"]
    assert 0 < answers.weight <= app.config["ANSWER_CACHE_BYTES"]
    # a GET of the new position answers from the same kind of cache, with an ETag
    url = f"/api/engine/sessions/{first.get_json()['token']}"
    got = client.get(url)
    assert got.status_code == 200 and got.headers["ETag"]
    assert client.get(url, headers={"If-None-Match": got.headers["ETag"]}).status_code == 304


def test_a_deep_position_replays_from_the_cached_start_without_moving_it(build_dir):
    """A worker that has only seen a session's start answers a deep position from a copy of it;
    the start itself must answer as before."""

    def fresh(cache: int):
        return create_app(
            {
                "TESTING": True,
                "BUILD_DIR": str(build_dir),
                "SECRET_KEY": "engine-test-key",
                "SESSION_CACHE_SIZE": cache,
            }
        ).test_client()

    walker, worker, plain = fresh(0), fresh(64), fresh(0)
    remote = json.loads((EXAMPLES / "02-remote-agenda.json").read_text())
    state = start(walker, remote, params={"server": "remote1"}).get_json()
    first = state["token"]
    for _ in range(4):
        if state["finished"]:
            break
        state = decide(walker, state["token"], state["decisions"][0]["id"]).get_json()
    deep = state["token"]
    assert len(state["decisions_taken"]) >= 3
    # the worker sees the start, then the deep position, then the start again
    before = worker.get(f"/api/engine/sessions/{first}?trace=1").get_json()
    assert (
        worker.get(f"/api/engine/sessions/{deep}").get_json()
        == plain.get(f"/api/engine/sessions/{deep}").get_json()
    )
    again = worker.get(f"/api/engine/sessions/{first}?texts=1").get_json()
    want = plain.get(f"/api/engine/sessions/{first}?texts=1").get_json()
    assert again == want and again["trace"] == before["trace"] and again["board"] == before["board"]


def test_board_text_is_escaped_everywhere(client, board):
    evil = "<script>alert(1)</script>"
    board["servers"]["hq"]["ice"][0]["name"] = evil
    data = start(client, board).get_json()
    for url in (data["url"], f"/editor?s={data['token']}"):
        html = client.get(url).get_data(as_text=True)
        assert evil not in html
        assert "&lt;script&gt;alert(1)" in html  # shown as text


def test_cached_sessions_are_never_moved_by_later_decisions(client, build_dir, board):
    """Sessions are cached per position and later requests move on from them: every answer must
    equal a server without the cache, whatever order positions are revisited in."""
    uncached = create_app(
        {
            "TESTING": True,
            "BUILD_DIR": str(build_dir),
            "SECRET_KEY": "engine-test-key",
            "SESSION_CACHE_SIZE": 0,
        }
    ).test_client()
    state = start(client, board).get_json()
    tokens = [state["token"]]
    for _ in range(4):
        if state["finished"]:
            break
        state = decide(client, state["token"], state["decisions"][-1]["id"]).get_json()
        tokens.append(state["token"])
    # revisit every position, oldest first and then again newest first, taking every decision
    for token in tokens + tokens[::-1]:
        here = client.get(f"/api/engine/sessions/{token}").get_json()
        assert here == uncached.get(f"/api/engine/sessions/{token}").get_json()
        for d in here["decisions"]:
            got = client.post(f"/api/engine/sessions/{token}/decisions", json={"decision": d["id"]})
            want = uncached.post(f"/api/engine/sessions/{token}/decisions", json={"decision": d["id"]})
            assert got.status_code == want.status_code == 200
            assert got.get_json() == want.get_json()
