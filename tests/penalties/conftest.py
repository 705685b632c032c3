"""Fixtures of the penalty tests: a running pods event and a running 1v1 event."""
from __future__ import annotations

import pytest

from tournament.penalties import operations as penalties


@pytest.fixture
def pods(make_round):
    """8 players (cEDH scoring: wins, losses, draws), round 1 published and started: two pods of 4 (seed 7)."""
    return make_round(players=8, start=True, name="Pods night", pod_size=4, scoring_profile="cedh")


@pytest.fixture
def duel(make_round):
    """4 players in 1v1 best-of-three matches (duel-cn, mtr), round 1 published and started."""
    return make_round(players=4, start=True, name="Duel night", ruleset="duel-cn", mode="duel",
                      scoring_profile="mtr")


@pytest.fixture
def give(db, judge):
    """give(event, reg, infraction, **fields) -> Penalty, as a judge records it (committed)."""
    def do(event, reg, infraction, user=None, **fields):
        data = {"registration_id": reg.id, "infraction": infraction, **fields}
        penalty, _new = penalties.record(event, user or judge, penalties.read_input(data))
        db.session.commit()
        return penalty
    return do

