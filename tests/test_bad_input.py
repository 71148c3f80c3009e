"""Bad input to the scraper and `nrrules build`: one clear message, non-zero exit, no traceback,
and a good build is never damaged."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from helpers import cr_path

from rules_index.store import Library, build
from scraper import ScrapeError, parse_html
from scraper.source import fetch_url


def run_cli(*args: str, env_build_dir=None) -> subprocess.CompletedProcess:
    cmd = [sys.executable, "-c", "from webapp.cli import main; main()", *args]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=120)


def cr_text(version: str) -> str:
    return cr_path(version).read_text(encoding="utf-8")


BAD_FILES = {
    "empty.html": (b"", "the file is empty"),
    "blank.html": (b"   \n\n  ", "the file is empty"),
    "image.html": (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(64), "binary file"),
    "notes.html": (b"just some notes, no markup at all\n", "not an HTML document"),
    "blog.html": (
        b"<!DOCTYPE html><html><head><title>My blog</title></head><body><h1>Hi</h1></body></html>",
        "not a Netrunner Comprehensive Rules document",
    ),
}


@pytest.mark.parametrize("name", sorted(BAD_FILES))
def test_bad_files_get_one_clear_message(tmp_path, name):
    data, message = BAD_FILES[name]
    path = tmp_path / name
    path.write_bytes(data)
    with pytest.raises(ScrapeError) as info:
        parse_html(data, str(path))
    assert message in str(info.value)
    assert str(path) in str(info.value)
    proc = run_cli("build", "--source", str(path), "--build-dir", str(tmp_path / "b"))
    assert proc.returncode == 2
    assert message in proc.stderr and str(path) in proc.stderr
    assert "Traceback" not in proc.stderr + proc.stdout
    assert not (tmp_path / "b").exists() or not any((tmp_path / "b").iterdir())


def test_truncated_document(tmp_path):
    text = cr_text("26.03")
    path = tmp_path / "cr-26.03.html"
    path.write_text(text[: len(text) // 2], encoding="utf-8")
    proc = run_cli("build", "--source", str(path), "--build-dir", str(tmp_path / "b"))
    assert proc.returncode == 2
    assert "truncated" in proc.stderr and str(path) in proc.stderr
    assert "Traceback" not in proc.stderr


def test_wrong_encoding(tmp_path):
    text = cr_text("26.03")
    assert "Méliès" in text
    path = tmp_path / "cr-26.03.html"
    path.write_bytes(text.encode("latin-1", errors="replace"))
    with pytest.raises(ScrapeError, match="not valid UTF-8"):
        parse_html(path.read_bytes(), str(path))
    proc = run_cli("build", "--source", str(path), "--build-dir", str(tmp_path / "b"))
    assert proc.returncode == 2 and "UTF-8" in proc.stderr and "Traceback" not in proc.stderr


def test_utf16_with_bom_is_read(tmp_path):
    data = cr_text("22.12").encode("utf-16")
    doc = parse_html(data, "cr-22.12.html")
    assert doc.node("step_jack_out_choice").number == "6.9.4c"


def test_duplicate_ids(tmp_path):
    text = cr_text("22.12").replace('id="rule_if_able"', 'id="rule_card_precedence"', 1)
    path = tmp_path / "cr-22.12.html"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ScrapeError) as info:
        parse_html(path.read_bytes(), str(path))
    assert "duplicate" in info.value.message and "rule_card_precedence" in str(info.value)


def test_unknown_version_is_a_clear_error(tmp_path):
    path = tmp_path / "rules.html"
    path.write_bytes(cr_path("22.12").read_bytes())
    proc = run_cli("build", "--source", str(path), "--build-dir", str(tmp_path / "b"))
    assert proc.returncode == 2
    assert "does not state its CR version" in proc.stderr and "--version" in proc.stderr


def test_missing_path_and_empty_folder(tmp_path):
    proc = run_cli("build", "--source", str(tmp_path / "nope.html"), "--build-dir", str(tmp_path / "b"))
    assert proc.returncode == 2 and "no such file" in proc.stderr
    (tmp_path / "empty").mkdir()
    proc = run_cli("build", "--source", str(tmp_path / "empty"), "--build-dir", str(tmp_path / "b"))
    assert proc.returncode == 2 and "no .html files" in proc.stderr


def test_numbering_disagreement_fails_and_keeps_the_good_build(tmp_path):
    bdir = tmp_path / "b"
    build(str(cr_path("22.12")), bdir)
    before = (bdir / "22.12" / "document.json").read_bytes()
    # a link that names the wrong step: the build must refuse it
    text = cr_text("22.12").replace(">step 6.9.6</a>", ">step 6.9.7</a>", 1)
    bad = tmp_path / "cr-22.12.html"
    bad.write_text(text, encoding="utf-8")
    proc = run_cli("build", "--source", str(bad), "--build-dir", str(bdir))
    assert proc.returncode == 2
    assert "disagreement" in proc.stderr and "6.9.7" in proc.stderr
    assert "Traceback" not in proc.stderr
    assert (bdir / "22.12" / "document.json").read_bytes() == before
    assert Library.open(bdir).document("22.12").node("step_jack_out_choice").number == "6.9.4c"


def test_url_404_and_other_site(http_server, tmp_path):
    base, _ = http_server
    with pytest.raises(ScrapeError, match="HTTP 404"):
        fetch_url(f"{base}/missing.html", tmp_path / "cache")
    proc = run_cli("build", "--source", f"{base}/missing.html", "--build-dir", str(tmp_path / "b"))
    assert proc.returncode == 2 and "HTTP 404" in proc.stderr and f"{base}/missing.html" in proc.stderr
    proc = run_cli("build", "--source", f"{base}/other.html", "--build-dir", str(tmp_path / "b"))
    assert proc.returncode == 2
    assert "not a Netrunner Comprehensive Rules document" in proc.stderr and "Cooking blog" in proc.stderr


def test_url_fetch_uses_conditional_requests(http_server, tmp_path):
    base, _ = http_server
    cache = tmp_path / "cache"
    first = fetch_url(f"{base}/index.html", cache)
    assert first.note is None and len(first.data) > 1_000_000
    meta = json.loads(next(cache.glob("*.json")).read_text())
    assert meta["last_modified"]  # the server's validator was stored
    second = fetch_url(f"{base}/index.html", cache)
    assert second.note and "not modified" in second.note  # answered 304, served from cache
    assert second.data == first.data


def test_offline_message_shows_how_to_use_a_file(tmp_path):
    url = "http://127.0.0.1:9/cr.html"  # discard port: nothing listens there
    with pytest.raises(ScrapeError) as info:
        fetch_url(url, tmp_path / "cache", timeout=3)
    msg = str(info.value)
    assert url in msg and "offline" in msg and "--source" in msg


def test_offline_with_a_cached_copy_uses_it(http_server, tmp_path):
    base, root = http_server
    cache = tmp_path / "cache"
    fetch_url(f"{base}/cr-22.12.html", cache)
    # same cache entry, server now unreachable: simulate by pointing the key's URL elsewhere
    key_files = list(cache.glob("*.body"))
    assert len(key_files) == 1
    url = "http://127.0.0.1:9/cr-22.12.html"
    import hashlib

    key = hashlib.sha256(url.encode()).hexdigest()[:24]
    key_files[0].rename(cache / f"{key}.body")
    next(cache.glob("*.json")).rename(cache / f"{key}.json")
    src = fetch_url(url, cache, timeout=3)
    assert src.note and "offline" in src.note and src.data.startswith(b"<!DOCTYPE html>")
