"""Headers on every response, no inline script anywhere, and access codes kept out of cookies and logs."""
from __future__ import annotations

import base64
import re
import zlib
from pathlib import Path

import pytest

from tournament.web import CONTENT_SECURITY_POLICY, loggable_path

TEMPLATES = Path(__file__).resolve().parents[2] / "templates"
PASSWORD = "correct horse battery"    # conftest.PASSWORD


def assert_headers(response, private: bool):
    h = response.headers
    assert h["Content-Security-Policy"] == CONTENT_SECURITY_POLICY
    assert "script-src 'self'" in h["Content-Security-Policy"] and "unsafe-inline" not in h["Content-Security-Policy"]
    assert "frame-ancestors 'none'" in h["Content-Security-Policy"] and h["X-Frame-Options"] == "DENY"
    assert h["X-Content-Type-Options"] == "nosniff"
    assert h["Referrer-Policy"] == "same-origin"       # never off the site; back to it (HTTPS form posts need it)
    if private:
        assert h["Cache-Control"] == "no-store"


def test_every_kind_of_response_carries_the_headers(app, client, db, make_event, make_player, organizer, login):
    event = make_event()
    code = make_player(event, "Anna").access_code
    public = [client.get("/"), client.get("/auth/login"), client.get(f"/events/{event.id}/register"),
              client.get("/static/style.css"), client.get("/nowhere"), client.get("/api/v1/openapi.json"),
              client.get(f"/events/{event.id}/rounds/projector"), client.post("/healthz")]
    for response in public:
        assert_headers(response, private=False)
    player = [client.get(f"/p/{code}"), client.get(f"/p/{code}/round"), client.get(f"/p/{code}/receipt"),
              client.get(f"/api/v1/players/{code}"), client.get("/p/WRONGCODE")]
    for response in player:
        assert_headers(response, private=True)
    tag = player[1].headers.get("ETag")
    if tag:
        assert_headers(client.get(f"/p/{code}/round", headers={"If-None-Match": tag}), private=True)
    login(organizer)
    for path in (f"/events/{event.id}", f"/events/{event.id}/desk", f"/events/{event.id}/export.csv",
                 f"/events/{event.id}/staff", "/auth/account", "/events"):
        assert_headers(client.get(path), private=True)


def _inline_problems(text: str) -> list[str]:
    problems = []
    for m in re.finditer(r"<script\b([^>]*)>", text):
        attrs = m.group(1)
        if "src=" not in attrs and 'type="application/json"' not in attrs:
            problems.append(m.group(0))
    problems += re.findall(r"\son[a-z]+\s*=", text)
    problems += re.findall(r"javascript:", text)
    problems += re.findall(r"\sstyle\s*=", text)
    problems += re.findall(r"<style\b", text)
    return problems


def test_no_template_has_inline_script_or_style():
    found = {p.name: _inline_problems(p.read_text()) for p in TEMPLATES.rglob("*.html")}
    assert {name: probs for name, probs in found.items() if probs} == {}


def test_the_check_itself_finds_inline_script():
    assert _inline_problems('<button onclick="x()">') and _inline_problems("<script>alert(1)</script>")
    assert _inline_problems('<a href="javascript:void(0)">') and _inline_problems('<p style="color:red">')
    assert not _inline_problems('<script src="/static/page.js" defer></script>')


def _session_text(client) -> str:
    cookie = client.get_cookie("session")
    if cookie is None:
        return ""
    data = cookie.value
    compressed = data.startswith(".")
    payload = data.lstrip(".").split(".")[0]
    raw = base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4))
    return (zlib.decompress(raw) if compressed else raw).decode()


def test_a_late_registration_at_the_desk_keeps_the_code_out_of_the_cookie(client, db, make_event, judge, login):
    event = make_event()
    login(judge)
    response = client.post(f"/events/{event.id}/registrations", data={"name": "Latecomer", "back": "desk"})
    assert response.status_code == 302 and "q=Latecomer" in response.headers["Location"]
    code = event.registrations[0].access_code
    assert code not in _session_text(client)
    page = client.get(response.headers["Location"]).get_data(as_text=True)
    assert "Registered Latecomer" in page and code in page        # on the player's row, not in the message


@pytest.mark.parametrize("path", ["/p/ABCD2345", "/p/ABCD2345/round", "/api/v1/players/ABCD2345/decklist"])
def test_logged_paths_show_a_hash_of_the_code(path):
    logged = loggable_path(path)
    assert "ABCD2345" not in logged and re.search(r"code#[0-9a-f]{8}", logged)
    assert loggable_path("/events/3/desk") == "/events/3/desk"
