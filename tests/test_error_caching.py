"""Errors are never stored by a CDN or browser: no `Cache-Control: public` on a 4xx or 5xx."""

from __future__ import annotations

import pytest

from webapp import create_app


@pytest.fixture(scope="module")
def client(build_dir):
    return create_app({"TESTING": True, "BUILD_DIR": str(build_dir), "SECRET_KEY": "errors"}).test_client()


@pytest.mark.parametrize(
    ("url", "status"),
    [
        ("/api/rules/6.9.9", 404),
        ("/api/rules/6.9.4c?v=0.1", 404),
        ("/api/rules/6.9.4c/graph?kinds=bogus", 400),
        ("/r/6.9.9", 404),
        ("/no/such/page", 404),
        ("/static/no-such-file.css", 404),
    ],
)
def test_errors_are_not_cacheable(client, url, status):
    resp = client.get(url)
    assert resp.status_code == status
    assert resp.headers.get("Cache-Control") == "no-store"


def test_good_answers_stay_cacheable(client):
    resp = client.get("/api/rules/6.9.4c")
    assert resp.status_code == 200 and "public" in resp.headers.get("Cache-Control", "")
