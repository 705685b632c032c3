"""Penalties as stored, read for the standings and the pages (imports no other feature's operations, so the
rounds' standings can read it)."""
from __future__ import annotations

import sqlalchemy as sa

from ..extensions import db
from .domain import Loss
from .models import Penalty


def given(event_id: int, registration_id: int | None = None, round_number: int | None = None) -> list[Penalty]:
    """The event's penalties (withdrawn ones too), oldest first; of one player or one round when asked."""
    query = sa.select(Penalty).where(Penalty.event_id == event_id)
    if registration_id is not None:
        query = query.where(Penalty.registration_id == registration_id)
    if round_number is not None:
        query = query.where(Penalty.round_number == round_number)
    return list(db.session.execute(query.order_by(Penalty.at, Penalty.id)).scalars())


def penalised(event_id: int) -> frozenset[int]:
    """The registrations with a penalty in force (most players have none: their page needs no query)."""
    return frozenset(db.session.execute(
        sa.select(Penalty.registration_id).where(Penalty.event_id == event_id, Penalty.withdrawn_at.is_(None))
        .distinct()).scalars())


def losses(event_id: int) -> list[Loss]:
    """What the event's penalties in force do to the results: one Loss per game or match loss."""
    rows = db.session.execute(
        sa.select(Penalty.registration_id, Penalty.round_number, Penalty.loss, Penalty.game)
        .where(Penalty.event_id == event_id, Penalty.loss.is_not(None), Penalty.round_number.is_not(None),
               Penalty.withdrawn_at.is_(None)))
    return [Loss(player, rnd, loss, game) for player, rnd, loss, game in rows]


def marks(event_id: int) -> dict[int, dict]:
    """Per player with a penalty in force: {"warnings": n, "losses": n, "disqualified": bool} (standings)."""
    out: dict[int, dict] = {}
    rows = db.session.execute(sa.select(Penalty.registration_id, Penalty.kind)
                              .where(Penalty.event_id == event_id, Penalty.withdrawn_at.is_(None)))
    for player, kind in rows:
        mark = out.setdefault(player, {"warnings": 0, "losses": 0, "disqualified": False})
        if kind == "warning":
            mark["warnings"] += 1
        elif kind == "disqualification":
            mark["disqualified"] = True
        else:
            mark["losses"] += 1
    return out
