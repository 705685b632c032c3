"""What the Nu HTML Checker and a screen reader need from every page, checked over the rendered pages: no id
used twice (a label, a link to #id or aria-labelledby would reach the wrong element), one <main>, an <h1>."""
from __future__ import annotations

from collections import Counter
from html.parser import HTMLParser

import pytest

from tests.test_i18n_pages import pages  # noqa: F401  (the fixture: every page of a running event)


class _Outline(HTMLParser):
    """The ids, the landmark and heading tags of one page (the standard library's tolerant parser)."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.ids: Counter[str] = Counter()
        self.tags: Counter[str] = Counter()

    def handle_starttag(self, tag, attrs):
        self.tags[tag] += 1
        for name, value in attrs:
            if name == "id":
                self.ids[value or ""] += 1

    handle_startendtag = handle_starttag


def outline(html: str) -> _Outline:
    parser = _Outline()
    parser.feed(html)
    parser.close()
    return parser


def test_the_parser_sees_a_duplicate_id():
    page = outline('<form><input type="hidden" id="csrf_token"></form><form><input id="csrf_token"/></form>')
    assert page.ids["csrf_token"] == 2


@pytest.mark.parametrize("locale", ["en", "ja"])
def test_no_page_uses_an_id_twice_and_each_has_a_main_and_a_heading(app, client, login, organizer, pages, locale):
    public, staff, _event = pages
    reader = app.test_client()
    login(organizer)
    app.config["WTF_CSRF_ENABLED"] = True                 # as served: every form carries its token
    problems = {}
    for url, c in [(u, reader) for u in public] + [(u, client) for u in staff]:
        response = c.get(url, headers={"Accept-Language": locale})
        assert response.status_code == 200, url
        html = response.get_data(as_text=True)
        if url.endswith("/rounds/1") or url.endswith("/desk"):
            assert html.count('name="csrf_token"') > 1, url   # the tokens that once all said id="csrf_token"
        page = outline(html)
        twice = sorted(i for i, n in page.ids.items() if n > 1)
        fragment = url.endswith("/round")                 # the player's round box, polled into the page
        missing = [] if fragment else [tag for tag in ("main", "h1") if page.tags[tag] != 1]
        if twice or missing or "" in page.ids:
            problems[url] = {"ids used twice": twice, "not exactly one": missing}
    assert problems == {}, "\n".join(f"{u}: {p}" for u, p in problems.items())


def test_the_favicon_answers_and_pages_link_it(app, client):
    response = client.get("/favicon.ico")
    assert response.status_code == 200 and response.mimetype == "image/svg+xml"
    assert response.get_data(as_text=True).lstrip().startswith("<svg")
    assert 'rel="icon" href="/static/favicon.svg"' in client.get("/auth/login").get_data(as_text=True)
