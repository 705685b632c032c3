"""Events with results for the printing tests: a pods event and a duel event, names in every script."""
from __future__ import annotations

import pytest
from pdf_helpers import NAMES, PRIZES

from tournament.events import operations as events
from tournament.rounds import operations as rounds


@pytest.fixture
def pods_event(db, make_event, make_player, judge):
    """Eight players, round 1 finished with results, votes and prize claims; round 2 paired and published."""
    event = make_event(name="Friday <i>EDH</i> 金曜日", prize_conditions=PRIZES, banlist_add=["Sol Ring"],
                       banlist_remove=["Balance"])
    regs = []
    for name in NAMES:
        regs.append(make_player(event, name))
    for reg in regs:
        events.check_in(reg, judge)
    db.session.commit()
    rnd = rounds.pair_next_round(event, judge, seed=7, override_decks=True)
    rounds.publish_round(rnd, judge)
    rounds.start_round(rnd, judge)
    for t in rnd.tables:
        ids = [s.registration_id for s in t.seats]
        rounds.report_pod_result(t, ids[:1], ids[1:], prizes={"combat_damage": {"holder": ids[0], "value": 12 + t.number},
                                                               "general_damage_win": {"holder": ids[1]}}, user=judge)
        for voter in ids:
            rounds.cast_vote(t, voter, ids[0] if voter != ids[0] else ids[1], user=judge)
    rounds.finish_round(rnd, judge)
    rnd2 = rounds.pair_next_round(event, judge, seed=8, override_decks=True)
    rounds.publish_round(rnd2, judge)
    db.session.commit()
    return event


@pytest.fixture
def duel_event(db, make_event, make_player, judge):
    """Five players 1v1 (one bye), round 1 finished."""
    event = make_event(name="Duel Night", ruleset="duel-cn", mode="duel", paper_size="Letter")
    regs = [make_player(event, n) for n in NAMES[:5]]
    for reg in regs:
        events.check_in(reg, judge)
    db.session.commit()
    rnd = rounds.pair_next_round(event, judge, seed=3, override_decks=True)
    rounds.publish_round(rnd, judge)
    for t in rnd.tables:
        if t.kind == "match":
            a, b = [s.registration_id for s in t.seats]
            rounds.report_duel_games(t, [a, b, a], user=judge)
    rounds.finish_round(rnd, judge)
    db.session.commit()
    return event
