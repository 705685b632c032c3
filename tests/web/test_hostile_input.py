"""Input no form expects: deeply nested JSON on every form endpoint, control characters in the desk search."""
from __future__ import annotations

import pytest

DEEP = "[" * 50_000 + "]" * 50_000


@pytest.fixture
def setup(db, make_event, make_player, judge, login):
    event = make_event(name="Hostile")
    reg = make_player(event, "Ada")
    login(judge)
    return event, reg


def form_endpoints(event, reg) -> list[str]:
    e, r, c = event.id, reg.id, reg.access_code
    return [f"/events/{e}/registrations/{r}/notes", f"/events/{e}/registrations/{r}/checkin",
            f"/events/{e}/registrations/{r}/drop", f"/events/{e}/registrations", f"/events/{e}/register",
            f"/events/{e}/edit", f"/events/{e}/rounds", f"/p/{c}/deck", f"/p/{c}/result", f"/p/{c}/confirm",
            f"/p/{c}/vote", f"/p/{c}/swap", f"/p/{c}/tracker"]


def test_deeply_nested_json_is_refused_not_a_500(client, setup):
    event, reg = setup
    for url in form_endpoints(event, reg):
        response = client.post(url, data=DEEP, content_type="application/json")
        assert response.status_code < 500, (url, response.status_code)


@pytest.mark.parametrize("q", ["a\x00b", "\x00", "\x1b[31m", "Ada\x00"])
def test_control_characters_in_the_desk_search(client, setup, q):
    event, reg = setup
    response = client.get(f"/events/{event.id}/desk/search", query_string={"q": q})
    assert response.status_code == 200
    names = [row["name"] for row in response.get_json()["results"]]
    assert client.get(f"/events/{event.id}/desk", query_string={"q": q}).status_code == 200
    if q == "Ada\x00":
        assert names == ["Ada"]
