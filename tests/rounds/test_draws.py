"""Draws as data: why a pod game was drawn, whether the event allows intentional draws, how profiles score
each kind, and what the event does when time is called."""
from __future__ import annotations

import pytest

from tests.printing.pdf_helpers import pdf_text
from tournament.errors import Refused
from tournament.events import operations as events
from tournament.printing import operations as printing
from tournament.rounds import operations as rounds
from tournament.scoring import pod_standings
from tournament.scoring.domain import PodGame
from tournament.scoring.profiles import ScoringProfileError, get_profile, profile_from_dict


def ids_of(table):
    return [s.registration_id for s in table.seats]


def test_a_drawn_pod_says_why_and_a_win_cannot_be_a_draw(db, make_round, judge):
    event, rnd, _regs = make_round(players=8, start=True, scoring_profile="cedh")
    first, second = rnd.tables
    a = ids_of(first)
    rounds.report_pod_result(first, a[:2], a[2:], user=judge)
    assert first.draw_kind == "time"                      # two left, nobody said why: time was called
    rounds.report_pod_result(first, a[:2], a[2:], user=judge, draw="intentional")
    assert first.draw_kind == "intentional"
    assert first.reports[-1].result["draw"] == "intentional"
    rounds.report_pod_result(first, [], a, user=judge)
    assert first.draw_kind == "board"                     # nobody left
    rounds.report_pod_result(first, a[:1], a[1:], user=judge)
    assert first.draw_kind is None
    # One player left is a win, whatever a form still showing an earlier draw sends.
    rounds.report_pod_result(second, ids_of(second)[:1], ids_of(second)[1:], user=judge, draw="time")
    assert second.draw_kind is None
    for bad in ("tie", 3, ["time"]):
        with pytest.raises(Refused, match="A draw is one of: time, intentional, board"):
            rounds.report_pod_result(second, ids_of(second)[:2], [], user=judge, draw=bad)


def test_a_result_from_before_draw_kinds_reported_again_is_not_a_dispute(db, make_round):
    event, rnd, regs = make_round(players=8, start=True, scoring_profile="cedh")
    table = rnd.tables[0]
    by_id = {r.id: r for r in regs}
    a, b = (by_id[i] for i in ids_of(table)[:2])
    rounds.report_pod_result(table, [a.id, b.id], [], reg=a)
    table.draw_kind = None                          # as the migration leaves a result stored before it
    rounds.report_pod_result(table, [a.id, b.id], [], reg=b)
    assert table.result_state == "reported" and b.id in rounds.confirmers(table)


def test_an_archenemy_game_one_side_won_is_not_a_draw(db, make_round, judge, organizer):
    event, rnd, _regs = make_round(players=8, start=True, scoring_profile="cedh")
    table = rnd.tables[0]
    arch, *team = ids_of(table)
    rounds.report_pod_result(table, team[:2], [arch], user=judge, archenemy=arch, draw="intentional")
    assert table.draw_kind is None                  # the archenemy is out: the team won
    rounds.report_pod_result(table, [arch, team[0]], team[1:], user=judge, archenemy=arch)
    assert table.draw_kind == "time"                # both sides alive at time


def test_an_event_may_refuse_intentional_draws(db, make_round, judge, organizer):
    event, rnd, regs = make_round(players=8, start=True, scoring_profile="cedh")
    events.update_event(event, organizer, {"intentional_draws": False})
    table = rnd.tables[0]
    me = next(r for r in regs if r.id == ids_of(table)[0])
    with pytest.raises(Refused, match="does not allow intentional draws") as refused:
        rounds.report_pod_result(table, ids_of(table)[:2], [], reg=me, draw="intentional")
    assert refused.value.status == 409
    assert table.result_state is None
    rounds.report_pod_result(table, ids_of(table)[:2], [], reg=me, draw="time")
    assert table.draw_kind == "time" and table.result_state == "reported"
    with pytest.raises(Refused, match="A draw is one of: time, board"):
        rounds.report_pod_result(table, ids_of(table)[:2], [], reg=me, draw="agreed")
    # staff record what happened at the table, also an intentional draw the event's rules refuse
    rounds.report_pod_result(table, ids_of(table)[:2], [], user=judge, draw="intentional")
    assert table.draw_kind == "intentional"


def test_the_same_survivors_with_another_kind_of_draw_is_a_dispute(db, make_round):
    event, rnd, regs = make_round(players=8, start=True, scoring_profile="cedh")
    table = rnd.tables[0]
    by_id = {r.id: r for r in regs}
    a, b = (by_id[i] for i in ids_of(table)[:2])
    rounds.report_pod_result(table, [a.id, b.id], [], reg=a, draw="intentional")
    rounds.report_pod_result(table, [a.id, b.id], [], reg=b, draw="time")
    assert table.result_state == "disputed"


def game(table, survivors, draw=None):
    return PodGame(round=1, table=table, players=(1, 2, 3, 4) if table == 1 else (5, 6, 7, 8),
                   survivors=frozenset(survivors), draw=draw)


def test_profiles_score_each_kind_of_draw():
    players = {i: f"P{i}" for i in range(1, 9)}
    cedh = get_profile("cedh")
    assert cedh.draw_kinds == {"time": 1, "intentional": 1, "board": 1}
    rows = {r.player: r for r in pod_standings(cedh, [game(1, [1, 2], "intentional"), game(2, [5])], [], players, 3)}
    assert [rows[i].points for i in (1, 2, 3, 4)] == [1.0] * 4       # everyone at a drawn table: 1
    assert (rows[5].points, rows[6].points) == (5.0, 0.0)
    assert rows[1].record == "0-0-1 (1 intentional)" and rows[5].record == "1-0-0"
    harsh = profile_from_dict({**cedh.raw, "id": "harsh", "draw_kinds": {"intentional": 0, "time": 1}})
    rows = {r.player: r for r in pod_standings(harsh, [game(1, [1, 2], "intentional"), game(2, [5, 6], "time")],
                                               [], players, 3)}
    assert rows[1].points == 0.0 and rows[5].points == 1.0
    rows = {r.player: r for r in pod_standings(harsh, [game(1, [], "board")], [], players, 3)}
    assert rows[1].points == 1.0                                     # not named: the profile's draw
    with pytest.raises(ScoringProfileError, match="draw_kinds"):
        profile_from_dict({**cedh.raw, "id": "bad", "draw_kinds": {"forfeit": 1}})


def test_the_rules_sheet_says_what_happens_at_time_and_about_draws(db, make_event, organizer):
    event = make_event(scoring_profile="cedh", end_of_round="extra_turns", end_of_round_turns=3,
                       intentional_draws=False)
    rules = " ".join(pdf_text(printing.build_document(event, "rules")[0]).split())
    assert "Time! The active player finishes the turn, then 3 more turns are played" in rules
    assert "Intentional draws are not allowed: play the game out." in rules
    assert "reported as time called, draw by board state (points: time called 1, draw by board state 1)" in rules
    events.update_event(event, organizer, {"end_of_round": "draw_at_time", "intentional_draws": True})
    rules = " ".join(pdf_text(printing.build_document(event, "rules")[0]).split())
    assert "The game stops at once" in rules and "Intentional draws are allowed." in rules


@pytest.mark.parametrize("data, field", [({"end_of_round": "sudden_death"}, "end_of_round"),
                                         ({"end_of_round_turns": 0}, "end_of_round_turns"),
                                         ({"end_of_round_turns": "5"}, "end_of_round_turns"),
                                         ({"intentional_draws": "no"}, "intentional_draws")])
def test_bad_draw_settings_are_refused(db, make_event, organizer, data, field):
    event = make_event()
    with pytest.raises(Refused) as refused:
        events.update_event(event, organizer, data)
    assert refused.value.field == field


def test_a_reported_version_says_how_it_was_drawn():
    from tournament.rounds.presenting import version_text
    names = {1: "Ann", 2: "Bo"}
    assert version_text("pod", {"survivors": [1, 2], "draw": "intentional"}, names) == \
        "survived: Ann, Bo; drawn (intentional draw)"
    assert version_text("pod", {"survivors": [1]}, names) == "survived: Ann"


def test_a_reported_version_names_its_prize_claims_with_or_without_a_value():
    from tournament.rounds.presenting import version_text
    names = {1: "Ann", 2: "Bo"}
    prizes = {"damage": "Most damage", "gd": "General damage win"}
    text = version_text("pod", {"survivors": [1], "prizes": {"damage": [2, 12.5], "gd": [1, None]}}, names, prizes)
    assert text == "survived: Ann; Most damage: Bo (12.5); General damage win: Ann"
