"""Pod top cuts as cEDH events run them: top seeds wait, the others play pods down to a final of four."""
from __future__ import annotations

import pytest
import sqlalchemy as sa

from tournament.errors import Refused
from tournament.events import operations as events
from tournament.rounds import operations as rounds
from tournament.rounds.pairing.cut import POD_CUTS, advancing, cut_stage, pod_winner, stages, valid_cut

from tests.conftest import play_pod_rounds

SHAPES = {   # size -> [(players, waiting, pods), ...] down to the final
    4: [(4, 0, 1)],
    7: [(7, 3, 1), (4, 0, 1)],
    10: [(10, 2, 2), (4, 0, 1)],
    13: [(13, 1, 3), (4, 0, 1)],
    16: [(16, 0, 4), (4, 0, 1)],
    40: [(40, 0, 10), (10, 2, 2), (4, 0, 1)],
}


@pytest.mark.parametrize("size", POD_CUTS)
@pytest.mark.parametrize("seating", ["seed", "choice"])
def test_every_cut_size_waits_the_top_seeds_and_ends_in_a_final_of_four(size, seating):
    assert stages(size) == SHAPES[size]
    players = list(range(101, 101 + size))                      # seed k is player 100 + k
    seed_of = {p: p - 100 for p in players}
    for n, waiting, pods in SHAPES[size]:
        assert len(players) == n
        stage = cut_stage(players, seating)
        assert stage.waiting == tuple(players[:waiting])           # the best seeds wait
        assert len(stage.pods) == pods and all(len(p.seats) == 4 for p in stage.pods)
        seated = sorted(s for p in stage.pods for s in p.seats)
        assert seated == sorted(players[waiting:])
        for pod in stage.pods:                                     # seats by seed: best seed in seat 1
            assert list(pod.seats) == sorted(pod.seats, key=seed_of.get)
        assert ("chosen in seed order" in " ".join(stage.why)) == (seating == "choice")
        if n == 4:
            assert stage.final and "final" in stage.why[0]
            break
        winners = [pod.seats[-1] for pod in stage.pods]            # the lowest seed of each pod wins
        players = advancing(winners, stage.waiting, seed_of)
        assert players == sorted([*stage.waiting, *winners], key=seed_of.get)


def test_pods_are_dealt_in_a_snake_so_each_has_one_of_each_quarter():
    stage = cut_stage(list(range(1, 17)))
    assert [p.seats for p in stage.pods] == [(1, 8, 9, 16), (2, 7, 10, 15), (3, 6, 11, 14), (4, 5, 12, 13)]
    stage = cut_stage(list(range(1, 11)))
    assert stage.waiting == (1, 2) and [p.seats for p in stage.pods] == [(3, 6, 7, 10), (4, 5, 8, 9)]
    assert stage.why[0].startswith("Top 10: seeds 1-2 wait for the next stage; seeds 3-10 play 2 pods")


def test_a_drawn_cut_pod_sends_on_the_best_seed_left():
    seed_of = {11: 4, 12: 5, 13: 6, 14: 7}
    assert pod_winner([13], seed_of) == (13, False)
    assert pod_winner([14, 12], seed_of) == (12, True)
    with pytest.raises(ValueError):
        pod_winner([], seed_of)


@pytest.mark.parametrize("size", [0, 1, 2, 3, 5, 6, 8, 9, 12, 41, True])
def test_sizes_that_do_not_come_down_to_four_are_refused(size):
    assert not valid_cut(size)
    with pytest.raises(ValueError):
        stages(size)


def test_a_player_seeded_twice_is_refused():
    with pytest.raises(ValueError):
        cut_stage([1, 2, 3, 3])


# ---------------------------------------------------------------- through the operations

def test_a_top_7_in_a_pod_event(db, make_event, make_player, judge):
    event = make_event(top_cut=7, scoring_profile="survival", cut_draw="survivor")
    regs = [make_player(event, f"Player {i:02d}") for i in range(1, 13)]
    play_pod_rounds(db, event, judge, regs, count=2)
    before = [(r.player, r.points) for r in rounds.standings(event)]
    seeds = [p for p, _ in before[:7]]

    cut = rounds.pair_top_cut_round(event, judge)
    assert cut.stage == "top7" and cut.status == "draft"
    [pod] = [t for t in cut.tables if t.kind == "pod"]
    assert [s.registration_id for s in pod.seats] == seeds[3:]           # seeds 4-7, seat 1 to seed 4
    assert [t.seats[0].registration_id for t in cut.tables if t.kind == "bye"] == seeds[:3]
    assert any("seeds 1-3 wait" in line for line in rounds.why_lines(cut))
    rounds.publish_round(cut, judge)
    rounds.start_round(cut, judge)
    # Seed 7 and seed 5 are left when time is called: seed 5 goes on.
    rounds.report_pod_result(pod, [seeds[6], seeds[4]], [seeds[3], seeds[5]], user=judge)
    rounds.finish_round(cut, judge)
    db.session.commit()
    assert [(r.player, r.points) for r in rounds.standings(event)] == before    # standings as at the cut
    with pytest.raises(Refused, match="top cut has begun"):
        rounds.pair_next_round(event, judge, override_decks=True)

    final = rounds.pair_top_cut_round(event, judge)
    assert final.stage == "top4"
    [table] = final.tables
    assert [s.registration_id for s in table.seats] == [seeds[0], seeds[1], seeds[2], seeds[4]]
    assert any("the best seed among them" in line and "(seed 5)" in line for line in rounds.why_lines(final))
    rounds.publish_round(final, judge)
    rounds.start_round(final, judge)
    rounds.report_pod_result(table, [seeds[2]], [seeds[0], seeds[1], seeds[4]], user=judge)
    rounds.finish_round(final, judge)
    db.session.commit()
    with pytest.raises(Refused, match="top cut is over"):
        rounds.pair_top_cut_round(event, judge)


def test_a_cut_round_finishes_only_with_every_pods_result(db, make_event, make_player, judge):
    event = make_event(top_cut=10, scoring_profile="survival")
    regs = [make_player(event, f"Player {i:02d}") for i in range(1, 13)]
    play_pod_rounds(db, event, judge, regs, count=2)
    cut = rounds.pair_top_cut_round(event, judge)
    rounds.publish_round(cut, judge)
    rounds.start_round(cut, judge)
    pods = [t for t in cut.tables if t.kind == "pod"]
    assert len(pods) == 2 and len(cut.tables) == 4
    ids = [s.registration_id for s in pods[0].seats]
    rounds.report_pod_result(pods[0], ids[:1], ids[1:], user=judge)
    with pytest.raises(Refused):
        rounds.finish_round(cut, judge)          # table 2 has no result yet
    db.session.rollback()


@pytest.mark.parametrize("mode, size, ok", [("pods", 7, True), ("pods", 40, True), ("pods", 8, False),
                                            ("duel", 8, True), ("duel", 7, False), ("duel", 10, False)])
def test_the_top_cut_setting_suits_the_mode(db, make_event, organizer, mode, size, ok):
    settings = {"mode": mode, "ruleset": "duel-cn" if mode == "duel" else "edh-2010"}
    if ok:
        assert make_event(top_cut=size, **settings).top_cut == size
    else:
        with pytest.raises(Refused, match="top cut is of"):
            make_event(top_cut=size, **settings)
    event = make_event(**settings)
    if not ok:
        with pytest.raises(Refused, match="top cut is of"):
            events.update_event(event, organizer, {"top_cut": size})
    with pytest.raises(Refused):
        events.update_event(event, organizer, {"cut_seating": "random"})


def test_too_few_players_for_the_cut(db, make_event, make_player, judge):
    event = make_event(top_cut=16)
    regs = [make_player(event, f"Player {i:02d}") for i in range(1, 9)]
    play_pod_rounds(db, event, judge, regs, count=1)
    with pytest.raises(Refused, match="Only 8 players remain; a top 16 needs 16"):
        rounds.pair_top_cut_round(event, judge)
    assert db.session.execute(sa.select(sa.func.count()).select_from(rounds.Round)).scalar() == 1


def test_the_cut_seeds_only_players_still_playing_and_survives_a_drop(db, make_event, make_player, judge):
    event = make_event(top_cut=7, scoring_profile="survival")
    regs = [make_player(event, f"Player {i:02d}") for i in range(1, 13)]
    no_show = make_player(event, "Never Came")                       # registered, never checked in
    play_pod_rounds(db, event, judge, regs, count=2)
    cut = rounds.pair_top_cut_round(event, judge)
    seated = {s.registration_id for t in cut.tables for s in t.seats}
    assert no_show.id not in seated and len(seated) == 7
    [pod] = [t for t in cut.tables if t.kind == "pod"]
    rounds.publish_round(cut, judge)
    rounds.start_round(cut, judge)
    with pytest.raises(Refused, match="needs the player who goes on"):
        rounds.report_pod_result(pod, [], [s.registration_id for s in pod.seats], user=judge)
    ids = [s.registration_id for s in pod.seats]
    rounds.report_pod_result(pod, ids[:1], ids[1:], user=judge)
    rounds.finish_round(cut, judge)
    waiting = db.session.get(rounds.Registration, cut.tables[1].seats[0].registration_id)
    events.drop(waiting, judge)
    db.session.commit()
    with pytest.raises(Refused, match=f"{waiting.name} dropped, but the next stage of the top cut needs all 4"):
        rounds.pair_top_cut_round(event, judge)
    events.drop(waiting, judge, undo=True)
    db.session.commit()
    final = rounds.pair_top_cut_round(event, judge)
    assert len(final.tables) == 1 and waiting.id in {s.registration_id for s in final.tables[0].seats}


def test_an_older_pod_event_with_a_1v1_cut_can_still_change_other_settings(db, make_event, organizer):
    event = make_event()
    event.top_cut = 8                                 # allowed for any mode before pod cuts existed
    db.session.commit()
    events.update_event(event, organizer, {"venue": "The back room", "top_cut": 8})   # the form sends it again
    assert event.venue == "The back room"
    events.update_event(event, organizer, {"top_cut": 4})
    with pytest.raises(Refused, match="A pod top cut is of 4, 7, 10, 13, 16 or 40 players, not 8"):
        events.update_event(event, organizer, {"top_cut": 8})
    assert event.top_cut == 4
