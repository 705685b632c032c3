"""The standings page names the cEDH tiebreakers with their formulas; the settings form saves the cut options."""
from __future__ import annotations

from markupsafe import escape

from tests.conftest import play_pod_rounds


def test_cedh_standings_page_shows_owr_oowr_opp_and_their_formulas(client, db, make_event, make_player, judge,
                                                                   organizer, login):
    event = make_event(name="cEDH <b>open</b>", scoring_profile="cedh", leftover_policy="byes")
    regs = [make_player(event, f"<i>P{i}</i>") for i in range(9)]
    play_pod_rounds(db, event, judge, regs)
    login(organizer)
    page = client.get(f"/events/{event.id}/standings").get_data(as_text=True)
    head = page.split("<thead>", 1)[1].split("</thead>", 1)[0]
    assert head.index(">OWR</abbr>") < head.index(">OOWR</abbr>") < head.index(">Opp. points</abbr>")
    legend = page.split('id="tiebreak-legend"', 1)[1].split("</dl>", 1)[0]
    assert "<dt>OWR</dt><dd>" + str(escape("Opponents' win rate: the average of your opponents' win rates "
                                          "(wins / games played)")) in legend
    assert "(cEDH: 3 at 0.2)" in legend and "<dt>OOWR</dt>" in legend and "<dt>Opp. points</dt>" in legend
    assert "<i>P" not in page
    # The API gives every value of the profile's tiebreakers.
    body = client.get(f"/api/v1/events/{event.id}/standings").get_json()
    assert body["tiebreakers"] == ["OWR", "OOWR", "OPP"]
    assert all(set(row["tiebreakers"]) == {"OWR", "OOWR", "OPP"} for row in body["standings"])
    bye = [row for row in body["standings"] if row["tiebreakers"]["OWR"] == 0.2]
    assert len(bye) == 1          # 9 players: two pods of 4 and a bye, whose 3 phantom opponents are at 0.2


def test_settings_form_saves_the_cut_options(client, db, make_event, organizer, login):
    event = make_event(name="Saturday cEDH")
    login(organizer)
    page = client.get(f"/events/{event.id}/edit").get_data(as_text=True)
    assert 'name="cut_draw"' in page and 'name="cut_deal"' in page and 'name="odd_pods"' in page
    form = {"name": "Saturday cEDH", "ruleset": "edh-2010", "mode": "pods", "pod_size": 4, "swap_seconds": 180,
            "scoring_profile": "cedh", "round_minutes": 90, "timezone": "UTC", "paper_size": "A4",
            "status": "registration", "variant": "none", "archenemy_win_points": 3, "team_win_points": 1,
            "leftover_policy": "threes", "top_cut": 16, "cut_seating": "seed", "end_of_round": "finish_turn",
            "cut_draw": "survivor", "cut_deal": "straight", "odd_pods": "high"}
    response = client.post(f"/events/{event.id}/edit", data=form)
    assert response.status_code == 302
    db.session.expire_all()
    assert (event.cut_draw, event.cut_deal, event.odd_pods) == ("survivor", "straight", "high")
    response = client.post(f"/events/{event.id}/edit", data={**form, "cut_deal": "<script>x</script>"})
    assert response.status_code == 400 and "<script>x" not in response.get_data(as_text=True)
    db.session.expire_all()
    assert event.cut_deal == "straight"
