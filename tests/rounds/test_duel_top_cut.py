"""A 1v1 top cut: single elimination from the standings at the cut, which the cut does not change, and a
cut result that the next stage was paired from cannot be corrected behind its back."""
from __future__ import annotations

import pytest

from tournament.errors import Refused
from tournament.events import operations as events
from tournament.rounds import operations as rounds


def _play(db, judge, rnd, winner_of=lambda ids: ids[0]):
    rounds.publish_round(rnd, judge)
    rounds.start_round(rnd, judge)
    for table in rnd.tables:
        if table.kind == "match":
            ids = [s.registration_id for s in table.seats]
            w = winner_of(ids)
            rounds.report_duel_games(table, [w, w], user=judge)
    rounds.finish_round(rnd, judge)
    db.session.commit()


@pytest.fixture
def duel_cut(db, make_event, make_player, judge):
    event = make_event(name="Duel cut", mode="duel", ruleset="duel-cn", top_cut=4)
    regs = [make_player(event, f"Duelist {i}") for i in range(1, 9)]
    for reg in regs:
        events.check_in(reg, judge)
    for _ in range(2):
        _play(db, judge, rounds.pair_next_round(event, judge, seed=5, override_decks=True))
    return event


def test_the_standings_stay_as_at_the_cut_and_the_bracket_is_shown_apart(app, db, duel_cut, judge):
    event = duel_cut
    before = [(r.player, r.points) for r in rounds.standings(event)]
    seeds = [p for p, _ in before[:4]]
    semis = rounds.pair_top_cut_round(event, judge)
    _play(db, judge, semis, winner_of=lambda ids: ids[1])          # the lower seed wins each semifinal
    final = rounds.pair_top_cut_round(event, judge)
    assert sorted(s.registration_id for s in final.tables[0].seats) == sorted([seeds[3], seeds[2]])
    _play(db, judge, final, winner_of=lambda ids: seeds[3] if seeds[3] in ids else ids[0])
    assert [(r.player, r.points) for r in rounds.standings(event)] == before       # 6 match points stay out
    cut = rounds.cut_results(event, rounds.rounds_of(event))
    assert [s["stage"] for s in cut] == ["top4", "top2"] and cut[-1]["final"]
    assert cut[-1]["tables"][0]["winner"] == seeds[3] and cut[0]["seed"][seeds[3]] == 4
    page = app.test_client().get(f"/events/{event.id}/standings").get_data(as_text=True)
    section = page.split('id="top-cut"', 1)[1].split("</section>", 1)[0]
    assert "won the final and the event" in section and "Duelist" in section
    # the prize slips go by the cut: the 4th seed won the final, the 3rd lost it, then the semifinal losers
    from tournament.printing import operations as printing
    names = {r.id: r.name for r in event.registrations}
    with app.test_request_context():
        slips = printing.prize_data(event, None).slips[:4]
    assert [(s.title, s.name) for s in slips] == [
        ("1st place", names[seeds[3]]), ("2nd place", names[seeds[2]]), ("3rd place", names[seeds[0]]),
        ("4th place", names[seeds[1]])]


def _semifinal_played(db, event, judge):
    """The semifinals played (the first seat of each match won): table 1 and its loser."""
    semis = rounds.pair_top_cut_round(event, judge)
    _play(db, judge, semis)
    table = semis.tables[0]
    return table, [s.registration_id for s in table.seats][1]


def test_a_cut_result_the_next_stage_was_paired_from_cannot_be_corrected(db, duel_cut, judge):
    event = duel_cut
    table, loser = _semifinal_played(db, event, judge)
    final = rounds.pair_top_cut_round(event, judge)                 # a draft, paired from the semifinals
    with pytest.raises(Refused, match="delete its draft first") as refused:
        rounds.report_duel_games(table, [loser, loser], user=judge)
    assert refused.value.status == 409
    rounds.publish_round(final, judge)
    db.session.commit()
    with pytest.raises(Refused, match="can no longer be corrected"):
        rounds.report_duel_games(table, [loser, loser], user=judge)


def test_a_cut_result_can_be_corrected_before_the_next_stage_is_paired(db, duel_cut, judge):
    event = duel_cut
    table, loser = _semifinal_played(db, event, judge)
    rounds.report_duel_games(table, [loser, loser], user=judge)
    db.session.commit()
    final = rounds.pair_top_cut_round(event, judge)
    assert loser in {s.registration_id for s in final.tables[0].seats}


@pytest.mark.parametrize("games", ["split", "draws"])
def test_a_drawn_cut_match_is_refused_when_reported(db, duel_cut, judge, games):
    semis = rounds.pair_top_cut_round(duel_cut, judge)
    rounds.publish_round(semis, judge)
    rounds.start_round(semis, judge)
    table = semis.tables[0]
    a, b = [s.registration_id for s in table.seats]
    played = [a, b] if games == "split" else [None]
    with pytest.raises(Refused, match="needs a winner"):
        rounds.report_duel_games(table, played, time=True, user=judge)    # level at time
    rounds.report_duel_games(table, played, user=judge)                   # level, no time: the match goes on
    assert table.result_state is None
    rounds.report_duel_games(table, [a, b, b], user=judge)                 # the deciding game: fine
    assert table.result_state == "confirmed"


def test_cut_rounds_are_not_counted_against_the_planned_rounds(app, db, make_event, make_player, judge):
    from tournament.rounds.presenting import round_title
    event = make_event(name="Planned", mode="duel", ruleset="duel-cn", top_cut=4, planned_rounds=2)
    for reg in [make_player(event, f"P{i}") for i in range(8)]:
        events.check_in(reg, judge)
    for _ in range(2):
        _play(db, judge, rounds.pair_next_round(event, judge, seed=5, override_decks=True))
    cut = rounds.pair_top_cut_round(event, judge)
    with app.test_request_context():
        assert round_title(cut, event) == "Round 3 — top 4 cut"
