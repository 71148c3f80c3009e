"""Short links to stepper sessions (webapp/shortlinks.py): `/s/<id>` made from a session's token
(API and a form that works without JavaScript), opened by another app instance sharing the
directory (as another worker would), bounded in count, refusing changed files and forged tokens,
and saying so plainly when a link is unknown or cannot be kept. The old long links still open."""

from __future__ import annotations

import os
import re

import lxml.html
import pytest
from test_openapi_contract import check
from test_trace_lines import PICKS, tollbooth_board

from webapp import create_app
from webapp.shortlinks import ID_LENGTH, ShareStore, short_id

KEY = "share-test-key-of-at-least-32-bytes-long"


def app_client(build_dir, share_dir, **config):
    app = create_app(
        {
            "TESTING": True,
            "BUILD_DIR": str(build_dir),
            "SECRET_KEY": KEY,
            "SHARE_DIR": str(share_dir),
            **config,
        }
    )
    return app.test_client()


@pytest.fixture()
def shares(tmp_path):
    return tmp_path / "shares"


@pytest.fixture()
def client(build_dir, shares):
    return app_client(build_dir, shares)


def start(client) -> dict:
    r = client.post(
        "/api/engine/sessions",
        json={"board": tollbooth_board(), "structure": "run", "params": {"server": "remote1"}},
    )
    assert r.status_code == 201
    return r.get_json()


def tokens(client, n: int) -> list[str]:
    """The session's tokens after 0, 1, ... n-1 decisions of the Tollbooth / Ice Wall run."""
    st = start(client)
    out = [st["token"]]
    for pick in PICKS[: n - 1]:
        st = client.post(f"/api/engine/sessions/{st['token']}/decisions", json={"decision": pick}).get_json()
        out.append(st["token"])
    return out


def share_field(client, token: str) -> tuple[str, lxml.html.HtmlElement]:
    r = client.get(f"/step?s={token}")
    assert r.status_code == 200
    root = lxml.html.fromstring(r.get_data(as_text=True))
    return root.get_element_by_id("share-url").get("value"), root


def test_short_link_round_trip(client, shares):
    token = tokens(client, 3)[-1]
    long_url, root = share_field(client, token)
    assert long_url == f"http://localhost/step?s={token}"  # no short link until one is asked for
    assert root.xpath("//button[@id='short-make']")

    r = client.post(f"/api/engine/sessions/{token}/short")
    data = check(r, "POST", f"/api/engine/sessions/{token}/short")
    assert r.status_code == 201
    sid = data["id"]
    assert re.fullmatch(rf"[a-z2-7]{{{ID_LENGTH}}}", sid) and sid == short_id(token)
    assert data["url"] == f"http://localhost/s/{sid}" and data["long_url"] == long_url
    assert len(data["url"]) < 40 < len(long_url)
    assert (shares / sid).read_text() == token  # the token, in a file named by its hash
    # the same position gets the same link, written once
    again = client.post(f"/api/engine/sessions/{token}/short").get_json()
    assert again["id"] == sid and [p.name for p in shares.iterdir() if not p.name.startswith(".")] == [sid]

    r = client.get(f"/s/{sid}")
    assert r.status_code == 303 and r.headers["Location"] == f"/step?s={token}"
    assert client.get(f"/s/{sid.upper()}").headers["Location"] == f"/step?s={token}"  # read out loud
    # the page now offers the short link, in the field and the summary; the long one one tap away
    shown, root = share_field(client, token)
    assert shown == data["url"]
    assert root.get_element_by_id("share-summary").text_content().endswith(data["url"])
    assert root.get_element_by_id("share-long").get("value") == long_url
    assert not root.xpath("//button[@id='short-make']")
    # and so does its JSON twin's page part (cached per short link state)
    part = client.get(f"/api/engine/sessions/{token}?html=1").get_json()["html"]
    assert f'value="{data["url"]}"' in part
    # the old long link still opens the same position
    assert client.get(f"/step?s={token}").status_code == 200


def test_short_link_without_javascript(client, shares):
    token = tokens(client, 2)[-1]
    _, root = share_field(client, token)
    form = root.get_element_by_id("make-short")
    assert form.get("action") == "/step/short" and form.get("method") == "post"
    fields = {i.get("name"): i.get("value") for i in form.xpath(".//input")}
    r = client.post("/step/short", data=fields)
    assert r.status_code == 303 and r.headers["Location"] == f"/step?s={token}#share"
    shown, _ = share_field(client, token)
    assert shown == f"http://localhost/s/{short_id(token)}"


def test_another_worker_opens_it(build_dir, shares):
    """Two app instances (as two workers or processes) share the directory and nothing else."""
    one, two = app_client(build_dir, shares), app_client(build_dir, shares)
    token = tokens(one, 2)[-1]
    sid = one.post(f"/api/engine/sessions/{token}/short").get_json()["id"]
    assert two.get(f"/s/{sid}").headers["Location"] == f"/step?s={token}"


def test_unknown_changed_or_malformed_links_say_so(client, shares):
    token = tokens(client, 1)[0]
    sid = client.post(f"/api/engine/sessions/{token}/short").get_json()["id"]
    for bad in ("aaaaaaaaaaaa", "..%2F..%2Fetc", "x" * 500, sid[:-1], "%2E%2E"):
        r = client.get(f"/s/{bad}")
        assert r.status_code == 404, bad
        body = r.get_data(as_text=True)
        if "%2F" not in bad:  # a slash leaves the route: the site's own 404
            assert "not known on this server" in body and "the long link" in body
        assert str(shares) not in body and "Traceback" not in body
    # a file changed on disk no longer hashes to its name: refused, never replayed
    (shares / sid).write_text(token[:-2] + "xx")
    assert client.get(f"/s/{sid}").status_code == 404
    # a forged or damaged token gets no short link, and nothing is written
    before = sorted(os.listdir(shares))
    r = client.post(f"/api/engine/sessions/{token[:-3]}abc/short")
    assert r.status_code == 400 and "SECRET_KEY" in r.get_json()["error"]
    assert client.post("/step/short", data={"s": "not-a-token"}).status_code == 400
    assert sorted(os.listdir(shares)) == before


def test_the_directory_is_bounded_and_keeps_links_in_use(build_dir, shares):
    client = app_client(build_dir, shares, SHARE_MAX=4)
    toks = tokens(client, 5)
    ids = [client.post(f"/api/engine/sessions/{t}/short").get_json()["id"] for t in toks[:4]]
    for age, sid in enumerate(ids):
        os.utime(shares / sid, (age + 1, age + 1))  # made in this order, long ago
    assert client.get(f"/s/{ids[0]}").status_code == 303  # the oldest, opened now
    client.post(f"/api/engine/sessions/{toks[4]}/short")  # one over the bound
    kept = ShareStore(shares, 4).entries()
    assert len(kept) <= 4
    names = {e.name for e in kept}
    # kept: the one in use, the newest and the most recent of the rest; dropped: the least recent
    assert {ids[0], ids[3], short_id(toks[4])} <= names, names
    assert ids[1] not in names
    assert client.get(f"/s/{ids[1]}").status_code == 404


def test_a_directory_that_cannot_be_written(build_dir, tmp_path):
    blocker = tmp_path / "a-file"
    blocker.write_text("not a directory")
    client = app_client(build_dir, blocker / "shares")
    token = tokens(client, 1)[0]
    r = client.post(f"/api/engine/sessions/{token}/short")
    assert r.status_code == 503
    msg = r.get_json()["error"]
    assert "short links cannot be kept" in msg and "long link" in msg and str(tmp_path) not in msg
    # the stepper and its long link are unaffected
    shown, _ = share_field(client, token)
    assert shown.endswith(f"/step?s={token}")
