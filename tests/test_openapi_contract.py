"""The JSON API answers what webapp/openapi.yaml says it answers.

Each request below is made against the real app, and its answer is validated against the
response schema the OpenAPI document gives for that path, method and status (JSON Schema
2020-12, as OpenAPI 3.1 uses). Every field of every answered object must also be documented,
so a field added to the code and forgotten in the document fails here.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
import yaml
from click.testing import CliRunner
from jsonschema import Draft202012Validator
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

from webapp import create_app
from webapp.cli import main

ROOT = Path(__file__).resolve().parent.parent
BASE = "urn:nrrules-openapi"


def _absolute(node: Any) -> Any:
    """The document with every local `#/...` reference made absolute, so that any piece of it
    is a schema that resolves on its own through the registry."""
    if isinstance(node, dict):
        return {
            k: (BASE + v if k == "$ref" and isinstance(v, str) and v.startswith("#") else _absolute(v))
            for k, v in node.items()
        }
    if isinstance(node, list):
        return [_absolute(v) for v in node]
    return node


SPEC = _absolute(yaml.safe_load((ROOT / "webapp" / "openapi.yaml").read_text(encoding="utf-8")))
REGISTRY = Registry().with_resource(BASE, Resource.from_contents(SPEC, default_specification=DRAFT202012))
BOARD = json.loads((ROOT / "webapp" / "examples" / "02-remote-agenda.json").read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def client(build_dir):
    app = create_app(
        {"TESTING": True, "BUILD_DIR": str(build_dir), "SECRET_KEY": "contract-key-of-at-least-32-bytes-long"}
    )
    return app.test_client()


def _resolve(node: dict[str, Any]) -> dict[str, Any]:
    while "$ref" in node:
        node = REGISTRY.resolver(BASE).lookup(node["$ref"]).contents
    return node


def _template(path: str) -> str:
    """The OpenAPI path template a concrete path matches."""
    for template in SPEC["paths"]:
        pattern = "^" + re.sub(r"\\\{\w+\\\}", "[^/]+", re.escape(template)) + "$"
        if re.match(pattern, path):
            return template
    raise AssertionError(f"{path} is not in openapi.yaml")


def response_schema(method: str, path: str, status: int) -> dict[str, Any]:
    operation = SPEC["paths"][_template(path)][method.lower()]
    responses = operation["responses"]
    assert str(status) in responses, f"{method} {path} answered {status}, which is not documented"
    response = _resolve(responses[str(status)])
    return response["content"]["application/json"]["schema"]


def undocumented_fields(instance: Any, schema: dict[str, Any], where: str = "") -> list[str]:
    """Object fields the schema does not name (where it names its fields)."""
    schema = _resolve(schema)
    out: list[str] = []
    for key in ("oneOf", "anyOf"):
        if key in schema:  # the branch the instance matches decides
            for branch in schema[key]:
                if Draft202012Validator(branch, registry=REGISTRY).is_valid(instance):
                    return undocumented_fields(instance, branch, where)
    if isinstance(instance, dict) and "properties" in schema:
        props = schema["properties"]
        extra = schema.get("additionalProperties")
        for name, value in instance.items():
            if name in props:
                out += undocumented_fields(value, props[name], f"{where}.{name}")
            elif isinstance(extra, dict):
                out += undocumented_fields(value, extra, f"{where}.{name}")
            elif extra is not True:
                out.append(f"{where}.{name}")
    elif isinstance(instance, dict) and isinstance(schema.get("additionalProperties"), dict):
        for name, value in instance.items():
            out += undocumented_fields(value, schema["additionalProperties"], f"{where}.{name}")
    elif isinstance(instance, list) and isinstance(schema.get("items"), dict):
        for i, value in enumerate(instance[:50]):
            out += undocumented_fields(value, schema["items"], f"{where}[{i}]")
    return out


def check(resp, method: str, path: str, status: int | None = None) -> Any:
    """The answer (a response, or the JSON body a CLI command printed with the `status` its API
    twin answers) validated against the document; returns its JSON."""
    data = resp if status is not None else resp.get_json()
    assert data is not None, f"{method} {path}: not JSON"
    schema = response_schema(method, path, status or resp.status_code)
    errors = sorted(Draft202012Validator(schema, registry=REGISTRY).iter_errors(data), key=str)
    assert not errors, f"{method} {path}: " + "; ".join(
        f"{'/'.join(map(str, e.absolute_path))}: {e.message}" for e in errors[:5]
    )
    extra = undocumented_fields(data, schema)
    assert not extra, f"{method} {path}: fields not in openapi.yaml: {extra[:10]}"
    return data


GETS = [
    ("/api/versions", 200),
    # rules by number: a rule, a step, a section, a chapter, with sub-rules
    ("/api/rules/6.9.4c", 200),
    ("/api/rules/1.2.1", 200),
    ("/api/rules/6.9", 200),
    ("/api/rules/6", 200),
    ("/api/rules/6.9.4+", 200),
    ("/api/rules/6.9.4?children=1", 200),
    # by stable id, in the latest and an older version
    ("/api/rules/rule_paid_ability", 200),
    ("/api/rules/step_jack_out_choice?v=22.12", 200),
    # deep links and what people paste
    ("/api/lookup?q=6.9.4c", 200),
    ("/api/lookup?q=rule%206.9.4c", 200),
    ("/api/lookup?q=https%3A%2F%2Frules.nullsignal.games%2F%3Fr%3Dstep_jack_out_choice", 200),
    ("/api/lookup?q=%2Fid%2Frule_paid_ability&v=24.03", 200),
    ("/api/rules/6.9.4c/refs", 200),
    ("/api/rules/step_jack_out_choice/refs?v=23.08", 200),
    ("/api/rules/rule_paid_ability/graph?k=2", 200),
    ("/api/rules/6.9.4c/graph?kinds=cites,contains", 200),
    ("/api/rules/6.9.4c/versions", 200),
    ("/api/rules/rule_game_numbers/versions", 200),
    ("/api/search?q=jack%20out&limit=5", 200),
    ("/api/search?q=6.9.4c", 200),
    ("/api/search?q=step_jack_out_choice&v=22.12", 200),
    ("/api/search?q=PAW", 200),
    ("/api/search?q=zzzzqqqqxx", 200),
    ("/api/search?q=mrkt", 200),
    ("/api/search?q=6.9.4z", 200),
    ("/api/search?q=jack%20out&source=rules", 200),
    ("/api/engine/structures", 200),
    ("/api/engine/structures?v=22.12", 200),
    ("/api/engine/examples", 200),
    ("/api/terms/paid%20ability", 200),
    ("/api/terms/R%26D?v=22.12", 200),
    # misses and bad input: every error status a GET can answer
    ("/api/rules/99.99.99", 404),
    ("/api/rules/no_such_rule_id", 404),
    ("/api/rules/6.9.4c?v=0.1", 404),
    ("/api/rules/" + "9" * 301, 400),
    ("/api/lookup?q=", 400),
    ("/api/lookup?q=6.9.9", 404),
    ("/api/rules/6.9.9/refs", 404),
    ("/api/rules/" + "9" * 301 + "/refs", 400),
    ("/api/rules/6.9.4c/graph?k=9", 400),
    ("/api/rules/6.9.4c/graph?k=x", 400),
    ("/api/rules/6.9.4c/graph?kinds=bogus", 400),
    ("/api/rules/no_such_rule_id/graph", 404),
    ("/api/rules/6.9.4c/versions?v=nope", 404),
    ("/api/rules/" + "9" * 301 + "/versions", 400),
    ("/api/search?q=", 400),
    ("/api/search?q=" + "x" * 2001, 400),
    ("/api/search?q=x&limit=0", 400),
    ("/api/search?q=x&v=9.9", 404),
    ("/api/search?q=x&source=bogus", 400),
    ("/api/search?q=x&source=judge", 404),
    ("/api/engine/structures?v=9.9", 404),
    ("/api/engine/sessions/not-a-token", 400),
    ("/api/terms/zzqqxx", 404),
    ("/api/terms/" + "y" * 101, 400),
    ("/api/terms/paid%20ability?v=9.9", 404),
]


@pytest.mark.parametrize(("url", "status"), GETS)
def test_get_answers_match_the_document(client, url, status):
    resp = client.get(url)
    assert resp.status_code == status, resp.get_data(as_text=True)[:300]
    check(resp, "GET", url.split("?")[0])


def test_engine_answers_match_the_document(client):
    bad = client.post("/api/engine/validate", json={"board": {"version": 1, "servers": {"hq": {"ice": "x"}}}})
    assert check(bad, "POST", "/api/engine/validate")["valid"] is False
    body = {"board": BOARD, "structure": "run", "params": {"server": "remote1"}}
    started = client.post("/api/engine/sessions?texts=1", json=body)
    assert started.status_code == 201
    state = check(started, "POST", "/api/engine/sessions")
    assert state["rules"]
    invalid = client.post("/api/engine/sessions", json={**body, "board": {"version": 1, "servers": 3}})
    assert invalid.status_code == 400 and check(invalid, "POST", "/api/engine/sessions")["problems"]
    steps = 0
    while not state["finished"] and steps < 6:
        path = f"/api/engine/sessions/{state['token']}/decisions"
        flags = "?trace=1&texts=1" if steps % 2 else ""
        resp = client.post(path + flags, json={"decision": state["decisions"][0]["id"]})
        assert resp.status_code == 200
        state = check(resp, "POST", path)
        steps += 1
    assert steps >= 3
    path = f"/api/engine/sessions/{state['token']}"
    assert check(client.get(path), "GET", path)["trace"]
    illegal = client.post(path + "/decisions", json={"decision": "no_such_decision"})
    assert illegal.status_code == 409 and "legal" in check(illegal, "POST", path + "/decisions")
    broken = client.get("/api/engine/sessions/not-a-token")
    assert broken.status_code == 400 and check(broken, "GET", "/api/engine/sessions/not-a-token")


def test_step_command_prints_a_documented_session(build_dir):
    """`nrrules step --json` prints the Session of GET /api/engine/sessions/{token}: finished
    (every stop takes its first decision) and waiting at a step."""
    runner = CliRunner()
    board = str(ROOT / "webapp" / "examples" / "02-remote-agenda.json")
    for decide in ([], ["-d", "pass"]):
        result = runner.invoke(
            main,
            ["step", board, "--server", "remote1", *decide, "--json", "--build-dir", str(build_dir)],
            env={"SECRET_KEY": "contract-key-of-at-least-32-bytes-long"},
        )
        assert result.exit_code == 0, result.output
        state = check(json.loads(result.stdout), "GET", "/api/engine/sessions/t", 200)
        assert state["finished"] is not bool(decide) and state["trace"]


def test_undocumented_fields_are_caught():
    """The field check itself: a field the Session schema does not name is reported."""
    schema = SPEC["components"]["schemas"]["Session"]
    assert undocumented_fields({"token": "t", "surprise": 1}, schema) == [".surprise"]
    assert undocumented_fields({"token": "t", "events": [{"step": "s", "oops": 2}]}, schema) == [
        ".events[0].oops"
    ]


def test_every_error_status_is_documented_and_answered(client, tmp_path):
    """415 (not JSON), 409 (illegal decision, above) and 503 (nothing built) answer in the
    documented error shape."""
    body = {"board": BOARD, "structure": "run", "params": {"server": "remote1"}}
    not_json = client.post("/api/engine/sessions", data=json.dumps(body), content_type="text/plain")
    assert not_json.status_code == 415 and "JSON" in check(not_json, "POST", "/api/engine/sessions")["error"]
    empty = create_app({"TESTING": True, "BUILD_DIR": str(tmp_path), "SECRET_KEY": "k"}).test_client()
    for url in ("/api/versions", "/api/rules/6.9.4c", "/api/search?q=jack"):
        resp = empty.get(url)
        assert resp.status_code == 503
        assert "nrrules build" in check(resp, "GET", url.split("?")[0])["error"]
