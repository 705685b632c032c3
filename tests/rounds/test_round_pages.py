"""The organizer's round page of a big event shows its tables in pages (a 2,000-player event has 500 pods: the
whole page took seconds to build during a round start); every way to a table (a saved or refused result, "Go
to table", the missing-results list) lands on the page that shows it."""
from __future__ import annotations

import re

import pytest

from tournament.rounds import presenting
from tournament.rounds.presenting import page_number, table_pages


@pytest.fixture
def paged(make_round, login, judge, monkeypatch):
    """Four pods, two to a page."""
    monkeypatch.setattr(presenting, "TABLES_PER_PAGE", 2)
    event, rnd, regs = make_round(players=16, seed=8, name="Big hall")
    login(judge)
    return event, rnd, f"/events/{event.id}/rounds/1"


def tables_on(html: str) -> list[int]:
    return [int(n) for n in re.findall(r'<article class="card table-card[^"]*" id="table-(\d+)"', html)]


def test_each_page_shows_its_tables_and_links_the_others(client, paged):
    event, rnd, base = paged
    first = client.get(base).get_data(as_text=True)
    assert tables_on(first) == [1, 2]
    assert "Tables (4)" in first                                  # the heading still counts every table
    nav = re.search(r'<nav[^>]*id="table-pages".*?</nav>', first, re.S).group(0)
    assert f'href="{base}#tables" class="current" aria-current="page">Tables 1–2<' in nav
    assert f'href="{base}?page=2#tables">Tables 3–4<' in nav
    assert tables_on(client.get(f"{base}?page=2").get_data(as_text=True)) == [3, 4]


@pytest.mark.parametrize("asked, shown", [("99", [3, 4]), ("0", [1, 2]), ("-1", [1, 2]), ("abc", [1, 2]),
                                          ("<script>", [1, 2]), ("2" * 40, [3, 4])])
def test_a_page_out_of_range_or_not_a_number_shows_a_page_that_exists(client, paged, asked, shown):
    event, rnd, base = paged
    response = client.get(base, query_string={"page": asked})
    assert response.status_code == 200 and tables_on(response.get_data(as_text=True)) == shown


def test_a_saved_result_and_go_to_table_land_on_the_page_showing_the_table(client, paged):
    event, rnd, base = paged
    table = rnd.tables[2]
    saved = client.post(f"{base}/tables/{table.number}/result",
                        data={f"t{table.number}-survivors": [str(table.seats[0].registration_id)]})
    assert saved.status_code == 302 and saved.headers["Location"].endswith(f"{base}?page=2#table-3")
    assert client.get(f"{base}/jump?table=3").headers["Location"].endswith(f"{base}?page=2#table-3")
    assert client.get(f"{base}/jump?table=2").headers["Location"].endswith(f"{base}#table-2")


def test_a_refused_result_is_shown_on_the_page_of_its_table_with_its_error(client, paged):
    event, rnd, base = paged
    table = rnd.tables[3]
    refused = client.post(f"{base}/tables/{table.number}/result", data={f"t{table.number}-survivors": ["999999"]})
    html = refused.get_data(as_text=True)
    assert refused.status_code == 400 and tables_on(html) == [3, 4]
    assert 'aria-current="page">Tables 3–4<' in html


def test_the_missing_results_list_links_to_each_table_on_its_page(client, paged):
    event, rnd, base = paged
    html = client.get(base).get_data(as_text=True)
    missing = re.search(r'<p class="missing-tables">.*?</p>', html, re.S).group(0)
    assert 'href="#table-1"' in missing and 'href="#table-2"' in missing
    assert f'href="{base}?page=2#table-3"' in missing and f'href="{base}?page=2#table-4"' in missing


def test_a_filtered_view_is_paged_too_and_keeps_its_filter(client, db, paged, judge):
    from tournament.rounds import operations as rounds
    event, rnd, base = paged
    rounds.report_pod_result(rnd.tables[0], [rnd.tables[0].seats[0].registration_id], user=judge)
    db.session.commit()
    html = client.get(f"{base}?show=missing").get_data(as_text=True)
    assert tables_on(html) == [2, 3] and "Tables (3 of 4)" in html
    assert f'href="{base}?show=missing&amp;page=2#tables">Tables 4–4<' in html
    assert tables_on(client.get(f"{base}?show=missing&page=2").get_data(as_text=True)) == [4]


def test_a_small_event_has_one_page_and_no_page_links(client, make_round, login, judge):
    event, rnd, regs = make_round(players=16, seed=8, name="Small hall")
    login(judge)
    html = client.get(f"/events/{event.id}/rounds/1").get_data(as_text=True)
    assert tables_on(html) == [1, 2, 3, 4] and 'id="table-pages"' not in html


def test_pages_of_a_2000_player_event():
    tables = [type("T", (), {"number": n})() for n in range(1, 501)]
    pages = table_pages(tables)
    assert len(pages) == 10 and pages[0] == (1, 1, 50) and pages[-1] == (10, 451, 500)
    assert table_pages([]) == []
    assert page_number("10", 10) == 10 and page_number("11", 10) == 10 and page_number(None, 0) == 1
