"""The swap pages: the player's page with the server deadline, the no-JavaScript form, staff logs."""
import re

from tournament.swaps import operations as swaps

from conftest import expire_window, main_cards  # noqa: I100

OUT = main_cards()


def test_player_swap_page_shows_the_stored_deadline_and_takes_a_form_post(app, client, db, started_table):
    _event, table, regs = started_table()
    code = regs[0].access_code
    page = client.get(f"/p/{code}/swap").get_data(as_text=True)
    deadline = re.search(r'data-deadline="([^"]+)"', page).group(1)
    assert deadline and 'id="swap-countdown" data-state="open"' in page and "Lightning Bolt" in page
    again = client.get(f"/p/{code}/swap").get_data(as_text=True)
    assert re.search(r'data-deadline="([^"]+)"', again).group(1) == deadline      # a reload does not reset it
    app.config["WTF_CSRF_ENABLED"] = False
    r = client.post(f"/p/{code}/swap", data={"out": [OUT[0], ""], "in": ["Lightning Bolt", ""]})
    assert r.status_code == 302
    assert [s.card_in for s in swaps.swaps_of(regs[0])] == ["Lightning Bolt"]
    r = client.post(f"/p/{code}/swap", data={"out": ["Kenrith, the Returned King"], "in": ["Grindstone"]})
    assert r.status_code == 409 and "general cannot be swapped" in r.get_data(as_text=True)
    expire_window(db, table)
    page = client.get(f"/p/{code}/swap").get_data(as_text=True)
    assert 'data-state="closed"' in page and "closed" in page


def test_staff_logs_and_entering_for_a_player(app, client, db, started_table, judge, login):
    event, table, regs = started_table(n=2, mode="duel")
    swaps.submit_swaps(regs[0], [{"out": OUT[0], "in": "Lightning Bolt"}])
    db.session.commit()
    assert client.get(f"/events/{event.id}/players/{regs[0].id}/swaps").status_code == 302   # log in first
    login(judge)
    app.config["WTF_CSRF_ENABLED"] = False
    page = client.get(f"/events/{event.id}/rounds/1/tables/{table.number}/swaps").get_data(as_text=True)
    assert "Lightning Bolt" in page and "Start game 2" not in page          # game 1 is not reported yet
    r = client.post(f"/events/{event.id}/players/{regs[1].id}/swaps",
                    data={"out": [OUT[1]], "in": ["Grindstone"]})
    assert r.status_code == 302
    page = client.get(f"/events/{event.id}/players/{regs[1].id}/swaps").get_data(as_text=True)
    assert "Grindstone" in page and "Jan Judge (judge)" in page and "judge:Jan" not in page
    # times on the event's clock with its zone, the table by round and number (never a database id)
    assert re.search(r"<td>\d\d:\d\d:\d\d UTC</td>", page) and f"<td>1.{table.number}</td>" in page
    expire_window(db, table)
    r = client.post(f"/events/{event.id}/rounds/1/tables/{table.number}/games/2/start")
    assert r.status_code == 409 and "Report game 1 first" in r.get_data(as_text=True)
    from tournament.rounds import operations as rounds
    rounds.report_game(table, 1, regs[0].id, user=judge)
    db.session.commit()
    page = client.get(f"/events/{event.id}/rounds/1/tables/{table.number}/swaps").get_data(as_text=True)
    assert "Start game 2" in page
    r = client.post(f"/events/{event.id}/rounds/1/tables/{table.number}/games/2/start")
    assert r.status_code == 302
    assert swaps.last_started_game(table) == 2


def test_the_swap_form_comes_before_the_decklist_and_closes_with_a_reason(app, client, db, started_table):
    """Under a 3-minute clock the form sits right under the countdown; the pickers offer the player's own cards
    to type into; after the deadline every picker and the button are disabled and the page says why."""
    _event, table, regs = started_table()
    code = regs[0].access_code
    page = client.get(f"/p/{code}/swap").get_data(as_text=True)
    assert page.index('id="swap-window"') < page.index('id="swap-form"') < page.index('id="swap-deck"')
    assert page.count('list="swap-out-options"') == 3 and page.count('list="swap-in-options"') == 3
    out_options = page.split('<datalist id="swap-out-options">', 1)[1].split("</datalist>", 1)[0]
    in_options = page.split('<datalist id="swap-in-options">', 1)[1].split("</datalist>", 1)[0]
    assert f'<option value="{OUT[0]}">' in out_options and "Lightning Bolt" not in out_options
    assert '<option value="Lightning Bolt">' in in_options and "Kenrith" not in in_options   # the general stays
    assert re.search(r'<fieldset class="swap-pairs" id="swap-fields"\s*>', page)             # open: enabled
    assert re.search(r'id="swap-closed-reason"\s+hidden', page)
    expire_window(db, table)
    closed = client.get(f"/p/{code}/swap").get_data(as_text=True)
    assert re.search(r'<fieldset class="swap-pairs" id="swap-fields"\s+disabled', closed)
    reason = closed.split('id="swap-closed-reason"', 1)[1].split("</p>", 1)[0]
    assert not reason.lstrip().startswith("hidden") and "the swap window for this game is closed" in reason
