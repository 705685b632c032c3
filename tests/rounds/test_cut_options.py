"""Cut-stage options per event (issue 27): who goes on from a drawn cut pod, and how cut pods are dealt."""
from __future__ import annotations

import pytest

from tournament.events import operations as events
from tournament.events.schemas import EventSettings
from tournament.rounds import operations as rounds
from tournament.rounds.pairing.cut import cut_stage, pod_winner, stages


SEED_OF = {11: 4, 12: 5, 13: 6, 14: 7}      # player -> seed, at one cut pod seated 11, 12, 13, 14


def test_drawn_pod_table_rule_sends_on_the_highest_ranked_player_at_the_table():
    # Time called with seeds 5 and 7 alive: the addendum's rule sends on seed 4, eliminated or not.
    assert pod_winner([14, 12], SEED_OF, [11, 12, 13, 14], "table") == (11, True)
    # Nobody left (a draw by everyone dying): still seed 4.
    assert pod_winner([], SEED_OF, [11, 12, 13, 14], "table") == (11, True)
    # A sole survivor wins whatever the rule.
    assert pod_winner([13], SEED_OF, [11, 12, 13, 14], "table") == (13, False)


def test_drawn_pod_survivor_rule_sends_on_the_best_seed_left():
    assert pod_winner([14, 12], SEED_OF, [11, 12, 13, 14], "survivor") == (12, True)
    with pytest.raises(ValueError):
        pod_winner([], SEED_OF, [11, 12, 13, 14], "survivor")
    with pytest.raises(ValueError):
        pod_winner([12, 14], SEED_OF, [11, 12, 13, 14], "coin flip")


def test_top_16_snake_deal():
    stage = cut_stage(list(range(1, 17)), deal="snake")
    assert [p.seats for p in stage.pods] == [(1, 8, 9, 16), (2, 7, 10, 15), (3, 6, 11, 14), (4, 5, 12, 13)]


def test_top_16_straight_deal():
    stage = cut_stage(list(range(1, 17)), deal="straight")
    assert [p.seats for p in stage.pods] == [(1, 5, 9, 13), (2, 6, 10, 14), (3, 7, 11, 15), (4, 8, 12, 16)]
    assert any("dealt straight" in line for line in stage.why)


def test_straight_deal_in_a_top_10_and_a_top_40():
    stage = cut_stage(list(range(1, 11)), deal="straight")
    assert stage.waiting == (1, 2) and [p.seats for p in stage.pods] == [(3, 5, 7, 9), (4, 6, 8, 10)]
    stage = cut_stage(list(range(1, 41)), deal="straight")
    assert stage.pods[0].seats == (1, 11, 21, 31) and stage.pods[9].seats == (10, 20, 30, 40)
    assert stages(40) == [(40, 0, 10), (10, 2, 2), (4, 0, 1)]


def test_a_final_has_one_pod_whatever_the_deal():
    assert cut_stage([1, 2, 3, 4], deal="straight").pods[0].seats == (1, 2, 3, 4)
    with pytest.raises(ValueError):
        cut_stage(list(range(1, 17)), deal="<b>zigzag</b>")


@pytest.mark.parametrize("field, bad", [("cut_draw", "coin"), ("cut_deal", "<script>x</script>")])
def test_settings_refuse_unknown_options(field, bad):
    with pytest.raises(Exception) as info:
        EventSettings.model_validate({field: bad})
    assert field in str(info.value) or "must be" in str(info.value)


@pytest.mark.parametrize("deal, first_pod", [(None, (1, 8, 9, 16)), ("snake", (1, 8, 9, 16)),
                                             ("straight", (1, 5, 9, 13))])
def test_an_event_top_16_deals_as_its_settings_say(db, make_event, make_player, judge, deal, first_pod):
    settings = {"top_cut": 16, "scoring_profile": "survival"}
    if deal:
        settings["cut_deal"] = deal
    event = make_event(**settings)
    regs = [make_player(event, f"Player {i:02d}") for i in range(1, 21)]
    play_pod_rounds(db, event, judge, regs, count=2)
    seeds = [r.player for r in rounds.standings(event)][:16]
    cut = rounds.pair_top_cut_round(event, judge)
    pod1 = next(t for t in cut.tables if t.kind == "pod" and t.number == 1)
    assert tuple(seeds.index(s.registration_id) + 1 for s in pod1.seats) == first_pod


@pytest.mark.parametrize("rule, goes_on", [(None, 4), ("table", 4), ("survivor", 5)])
def test_an_event_drawn_cut_pod_follows_its_rule(db, make_event, make_player, judge, rule, goes_on):
    settings = {"top_cut": 7, "scoring_profile": "survival"}
    if rule:
        settings["cut_draw"] = rule
    event = make_event(**settings)
    regs = [make_player(event, f"Player {i:02d}") for i in range(1, 13)]
    play_pod_rounds(db, event, judge, regs, count=2)
    seeds = [r.player for r in rounds.standings(event)][:7]
    cut = rounds.pair_top_cut_round(event, judge)
    [pod] = [t for t in cut.tables if t.kind == "pod"]
    rounds.publish_round(cut, judge)
    rounds.start_round(cut, judge)
    # Seeds 5 and 7 are left when time is called; seed 4 was eliminated.
    rounds.report_pod_result(pod, [seeds[6], seeds[4]], [seeds[3], seeds[5]], user=judge)
    rounds.finish_round(cut, judge)
    db.session.commit()
    final = rounds.pair_top_cut_round(event, judge)
    [table] = final.tables
    assert [s.registration_id for s in table.seats] == [*seeds[:3], seeds[goes_on - 1]]
    assert any(f"(seed {goes_on}), goes on" in line for line in rounds.why_lines(final))


# ----------------------------------------------------------------- where the 3-pods go (Swiss rounds)

from tournament.rounds.pairing.domain import Entrant        # noqa: E402
from tournament.rounds.pairing.pods import pair_pods        # noqa: E402

from tests.conftest import play_pod_rounds


def _field_after_a_round():
    """11 players with distinct points (player 1 best), no meetings yet: pods of 4, 4 and 3."""
    return [Entrant(id=i, points=float(20 - i), rank=i, seats=(1,) if i % 4 == 1 else (0, 1)) for i in range(1, 12)]


def test_three_pods_at_low_standings_by_default():
    pairing = pair_pods(_field_after_a_round(), pod_size=4, seed=1, round_number=2)
    by_table = {p.table: set(p.seats) for p in pairing.pods}
    assert by_table == {1: {1, 2, 3, 4}, 2: {5, 6, 7, 8}, 3: {9, 10, 11}}


def test_three_pods_at_high_standings():
    pairing = pair_pods(_field_after_a_round(), pod_size=4, seed=1, round_number=2, odd_pods="high")
    by_table = {p.table: set(p.seats) for p in pairing.pods}
    assert by_table == {1: {1, 2, 3}, 2: {4, 5, 6, 7}, 3: {8, 9, 10, 11}}
    assert any("top of the standings" in line for line in pairing.why)
    with pytest.raises(ValueError):
        pair_pods(_field_after_a_round(), pod_size=4, seed=1, round_number=2, odd_pods="middle")


def test_an_event_setting_puts_the_three_pods_high(db, make_event, make_player, judge):
    event = make_event(scoring_profile="survival", odd_pods="high")
    regs = [make_player(event, f"Player {i:02d}") for i in range(1, 12)]
    for reg in regs:
        events.check_in(reg, judge)
    rnd = rounds.pair_next_round(event, judge, seed=5, override_decks=True)
    rounds.publish_round(rnd, judge)
    rounds.start_round(rnd, judge)
    for table in rnd.tables:
        ids = [s.registration_id for s in table.seats]
        rounds.report_pod_result(table, ids[:1], ids[1:], user=judge)
    rounds.finish_round(rnd, judge)
    db.session.commit()
    second = rounds.pair_next_round(event, judge, seed=6, override_decks=True)
    assert sorted(len(t.seats) for t in second.tables) == [3, 4, 4]
    assert any("top of the standings" in line for line in rounds.why_lines(second))
    default = make_event(name="Other night", scoring_profile="survival")
    assert default.odd_pods == "low"


# ----------------------------------------------------------------- the shape of a top 40

def test_top_40_ten_pods_by_default():
    stage = cut_stage(list(range(1, 41)))
    assert stage.waiting == () and len(stage.pods) == 10
    assert stage.pods[0].seats == (1, 20, 21, 40) and stage.pods[9].seats == (10, 11, 30, 31)
    assert stages(40) == stages(40, "ten_pods") == [(40, 0, 10), (10, 2, 2), (4, 0, 1)]


def test_top_40_sixteen_wait_seats_17_to_40_in_six_snake_pods():
    stage = cut_stage(list(range(1, 41)), top40="sixteen_wait")
    assert stage.waiting == tuple(range(1, 17))
    assert [p.seats for p in stage.pods] == [(17, 28, 29, 40), (18, 27, 30, 39), (19, 26, 31, 38),
                                             (20, 25, 32, 37), (21, 24, 33, 36), (22, 23, 34, 35)]
    assert stage.why[0].startswith("Top 40: seeds 1-16 wait for the next stage; seeds 17-40 play 6 pods")
    assert "22 go on" in stage.why[0]
    assert stages(40, "sixteen_wait") == [(40, 16, 6), (22, 2, 5), (7, 3, 1), (4, 0, 1)]
    straight = cut_stage(list(range(1, 41)), deal="straight", top40="sixteen_wait")
    assert straight.pods[0].seats == (17, 23, 29, 35) and straight.pods[5].seats == (22, 28, 34, 40)


def test_sixteen_wait_changes_only_a_stage_of_40():
    for size in (4, 7, 10, 13, 16, 22):
        assert cut_stage(list(range(1, size + 1)), top40="sixteen_wait") == cut_stage(list(range(1, size + 1)))
    stage = cut_stage(list(range(1, 23)), top40="sixteen_wait")       # the stage after: all 22 who go on
    assert stage.waiting == (1, 2)
    assert [p.seats for p in stage.pods] == [(3, 12, 13, 22), (4, 11, 14, 21), (5, 10, 15, 20), (6, 9, 16, 19),
                                             (7, 8, 17, 18)]
    with pytest.raises(ValueError):
        cut_stage(list(range(1, 41)), top40="<i>sixteen</i>")
    with pytest.raises(ValueError):
        stages(40, "")


@pytest.mark.parametrize("bad", ["sixteen", "<script>x</script>", "", 16, "TEN_PODS"])
def test_settings_refuse_an_unknown_top_40_shape(bad):
    with pytest.raises(Exception) as info:
        EventSettings.model_validate({"cut_top40": bad})
    assert "cut_top40" in str(info.value) or "must be" in str(info.value)


@pytest.mark.parametrize("shape", [None, "ten_pods", "sixteen_wait"])
def test_an_event_top_40_follows_its_shape_to_the_final(db, make_event, make_player, judge, shape):
    settings = {"top_cut": 40, "scoring_profile": "survival"}
    if shape:
        settings["cut_top40"] = shape
    event = make_event(**settings)
    regs = [make_player(event, f"Player {i:02d}") for i in range(1, 45)]
    play_pod_rounds(db, event, judge, regs, count=2)
    seeds = [r.player for r in rounds.standings(event)][:40]
    seed = {p: i + 1 for i, p in enumerate(seeds)}
    cut = rounds.pair_top_cut_round(event, judge)
    pods = sorted((t for t in cut.tables if t.kind == "pod"), key=lambda t: t.number)
    waiting = sorted(seed[t.seats[0].registration_id] for t in cut.tables if t.kind == "bye")
    if shape == "sixteen_wait":
        assert waiting == list(range(1, 17))
        assert [tuple(seed[s.registration_id] for s in t.seats) for t in pods][:2] == [(17, 28, 29, 40),
                                                                                       (18, 27, 30, 39)]
        expected_next = 22
    else:
        assert waiting == [] and len(pods) == 10
        assert tuple(seed[s.registration_id] for s in pods[0].seats) == (1, 20, 21, 40)
        expected_next = 10
    rounds.publish_round(cut, judge)
    rounds.start_round(cut, judge)
    for table in pods:                               # the last seed at each pod wins it
        ids = [s.registration_id for s in table.seats]
        rounds.report_pod_result(table, ids[-1:], ids[:-1], user=judge)
    rounds.finish_round(cut, judge)
    db.session.commit()
    second = rounds.pair_top_cut_round(event, judge)
    assert second.stage == f"top{expected_next}"
    went_on = sorted(seed[s.registration_id] for t in second.tables for s in t.seats)
    winners = sorted(seed[t.seats[-1].registration_id] for t in pods)
    assert went_on == sorted(waiting + winners)
