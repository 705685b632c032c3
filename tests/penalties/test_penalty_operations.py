"""Recording and withdrawing penalties, and what they do to the standings, the pairings and the record."""
from __future__ import annotations

import pytest

from tournament.errors import Refused
from tournament.events.models import AuditEntry
from tournament.penalties import operations as penalties
from tournament.rounds import operations as rounds


def _table_of(rnd, reg):
    return next(t for t in rnd.tables if any(s.registration_id == reg.id for s in t.seats))


def _row(event, reg):
    return next(r for r in rounds.standings(event) if r.player == reg.id)


def test_a_pod_game_loss_enters_the_standings_once_the_result_is_final(db, pods, give, judge):
    event, rnd, regs = pods
    table = _table_of(rnd, regs[0])
    seated = [s.registration for s in table.seats]
    winner = seated[0]
    penalty = give(event, winner, "tardiness")                      # the default: a game loss, current round
    assert (penalty.kind, penalty.round_number, penalty.table_number, penalty.loss) == \
        ("game_loss", 1, table.number, "game")
    rounds.report_pod_result(table, [winner.id], user=judge)       # the table says they won anyway
    db.session.commit()
    row = _row(event, winner)
    assert row.points == 0 and row.tally.losses == 1 and row.tally.wins == 0
    others = [_row(event, r) for r in seated[1:]]
    assert all(r.tally.draws == 1 for r in others)                 # nobody left: a draw for the rest


def test_a_duel_game_loss_takes_the_next_game_not_reported(db, duel, give, judge):
    event, rnd, regs = duel
    table = next(t for t in rnd.tables if t.kind == "match")
    a, b = (s.registration for s in table.seats)
    penalty = give(event, a, "decklist_problem")
    assert (penalty.kind, penalty.game, penalty.loss) == ("game_loss", 1, "game")
    rounds.report_duel_games(table, [b.id, a.id, a.id], user=judge)
    db.session.commit()
    # game 1 was b's anyway; a won 2 and 3: a still wins 2-1
    assert _row(event, a).tally.wins == 1


def test_a_duel_match_loss_counts_before_any_result(db, duel, give):
    event, rnd, regs = duel
    table = next(t for t in rnd.tables if t.kind == "match")
    a, b = (s.registration for s in table.seats)
    give(event, a, "outside_assistance")
    assert _row(event, b).points == 3 and _row(event, b).tally.wins == 1
    assert _row(event, a).points == 0 and _row(event, a).tally.losses == 1


def test_a_disqualification_drops_the_player_keeps_results_and_leaves_them_out_of_the_next_round(
        db, pods, give, judge):
    event, rnd, regs = pods
    for t in rnd.tables:
        rounds.report_pod_result(t, [t.seats[0].registration_id], user=judge)
    rounds.finish_round(rnd, judge)
    db.session.commit()
    cheat = _table_of(rnd, regs[0]).seats[0].registration           # won round 1
    before = _row(event, cheat).points
    penalty = give(event, cheat, "cheating", round=1, note="Marked cards.")
    assert penalty.kind == "disqualification" and penalty.loss is None     # round 1 was final: kept
    assert cheat.dropped_at is not None
    assert _row(event, cheat).points == before
    rnd2 = rounds.pair_next_round(event, judge, seed=3, override_decks=True)
    assert cheat.id not in {s.registration_id for t in rnd2.tables for s in t.seats}


def test_a_disqualification_during_a_game_loses_that_game(db, pods, give, judge):
    event, rnd, regs = pods
    table = _table_of(rnd, regs[0])
    cheat = table.seats[0].registration
    penalty = give(event, cheat, "bribery_and_wagering", round=1)
    assert penalty.loss == "match"
    rounds.report_pod_result(table, [cheat.id, table.seats[1].registration_id], user=judge)
    db.session.commit()
    assert _row(event, cheat).points == 0
    assert _row(event, table.seats[1].registration).tally.wins == 1


def test_a_warning_changes_no_result_and_the_penalty_can_be_another_than_the_default(db, pods, give, judge):
    event, rnd, regs = pods
    table = _table_of(rnd, regs[0])
    player = table.seats[0].registration
    warning = give(event, player, "game_rule_violation", round=1)
    assert warning.kind == "warning" and warning.loss is None and warning.table_number == table.number
    upgraded = give(event, player, "game_rule_violation", penalty="game_loss", note="Second one today.")
    assert upgraded.kind == "game_loss"


def test_withdrawing_a_penalty_gives_the_result_back(db, pods, give, judge):
    event, rnd, regs = pods
    table = _table_of(rnd, regs[0])
    winner = table.seats[0].registration
    rounds.report_pod_result(table, [winner.id], user=judge)
    penalty = give(event, winner, "slow_play", penalty="game_loss")
    assert _row(event, winner).points == 0
    penalties.withdraw(event, judge, penalty, "Wrong player.")
    db.session.commit()
    assert _row(event, winner).tally.wins == 1
    assert penalty.withdrawn_by == "judge:Jan Judge" and penalty.withdraw_reason == "Wrong player."
    with pytest.raises(Refused, match="already withdrawn"):
        penalties.withdraw(event, judge, penalty, "Again.")
    with pytest.raises(Refused, match="required"):
        penalties.withdraw(event, judge, give(event, winner, "slow_play"), "   ")


def test_every_penalty_is_logged_with_who_and_when(db, pods, give):
    event, rnd, regs = pods
    penalty = give(event, regs[0], "slow_play", note="  Took 4 minutes\r\nfor one turn.\n")
    assert penalty.note == "Took 4 minutes\nfor one turn."
    entry = db.session.query(AuditEntry).filter_by(action="penalty.warning").one()
    assert entry.actor == "judge:Jan Judge" and entry.details["registration"] == regs[0].id
    assert entry.at is not None


def test_the_same_key_stores_one_penalty(db, pods, give):
    event, rnd, regs = pods
    first = give(event, regs[0], "slow_play", key="tap-1")
    again = give(event, regs[0], "slow_play", key="tap-1")
    assert again.id == first.id
    with pytest.raises(Refused, match="another penalty"):
        give(event, regs[1], "slow_play", key="tap-1")


@pytest.mark.parametrize("fields, message", [
    ({"infraction": "napping"}, "infraction"),
    ({"penalty": "ban"}, "penalty"),
    ({"round": 0}, "round"),
    ({"round": "1"}, "round"),
    ({"game": 4}, "game"),
    ({"note": "x" * 1001}, "note"),
    ({"key": "no spaces"}, "key"),
    ({"surprise": 1}, "surprise"),
])
def test_bad_inputs_are_refused_naming_the_field(pods, give, fields, message):
    event, rnd, regs = pods
    data = {"infraction": "slow_play", **fields}
    with pytest.raises(Refused) as refused:
        give(event, regs[0], **data)
    assert message in refused.value.message and refused.value.status == 400


def test_what_the_rules_refuse(db, pods, give, make_event, make_player, make_user, judge, organizer):
    event, rnd, regs = pods
    stranger = make_player(make_event(name="Another night"), "Other Player")
    with pytest.raises(Refused, match="No such player"):
        give(event, stranger, "slow_play")
    with pytest.raises(Refused, match="not published"):
        give(event, regs[0], "tardiness", round=2)
    with pytest.raises(Refused, match="pod plays one game"):
        give(event, regs[0], "tardiness", game=2)
    give(event, regs[0], "tardiness")
    with pytest.raises(Refused, match="already has this penalty"):
        give(event, regs[0], "decklist_problem")
    give(event, regs[1], "cheating")
    with pytest.raises(Refused, match="already disqualified"):
        give(event, regs[1], "collusion")
    outsider = make_user("Otto Outsider", "judge")
    with pytest.raises(Refused):
        give(event, regs[2], "slow_play", user=outsider)


def test_no_game_to_lose_without_a_table(db, make_round, give, judge):
    event, rnd, regs = make_round(players=5, start=True, name="Odd night", pod_size=4, leftover_policy="byes")
    bye = next(t for t in rnd.tables if t.kind == "bye").seats[0].registration
    with pytest.raises(Refused, match="no game in round 1"):
        give(event, bye, "tardiness")
    with pytest.raises(Refused, match="names a game"):
        give(event, bye, "slow_play", round=1, game=2)
    assert give(event, bye, "slow_play").loss is None


def test_before_round_one_a_loss_is_refused_and_after_the_event_everything_is(db, make_event, make_player, give,
                                                                               judge, organizer):
    event = make_event(name="Not yet")
    reg = make_player(event, "Early Bird")
    with pytest.raises(Refused, match="no round is published"):
        give(event, reg, "tardiness")
    assert give(event, reg, "unsporting_conduct_minor").round_number is None
    with pytest.raises(Refused, match="Name the round"):
        give(event, reg, "slow_play", game=1)
    event.status = "finished"
    db.session.commit()
    with pytest.raises(Refused, match="finished"):
        give(event, reg, "slow_play")
