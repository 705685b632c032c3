"""Penalty routes on the JSON API blueprint (/api/v1): the event's staff by bearer token."""
from __future__ import annotations

from ..events import loading
from ..events.api_access import shaped, staff
from ..web.api import bp, operation
from . import operations as ops
from .schemas import PenaltyIn, PenaltyList, PenaltyOut, WithdrawIn

PENALTIES = "/events/<int:event_id>/penalties"
EXAMPLE = {"registration_id": 12, "infraction": "tardiness", "round": 2, "note": "Arrived 12 minutes late."}
REFUSALS = ("The penalty defaults to the infraction's (tournament/data/infractions.json). A game or match loss "
            "needs a round in which the player sits at a table (default: the current round); in a 1v1 match a game "
            "loss takes `game` (default: the first game not reported yet). A disqualification also drops the "
            "player; their results are kept. Refused (409) once the event has finished, for a second "
            "disqualification, game loss for the same game or match loss for the same round, and for a key "
            "already used for another penalty; the same key again answers the penalty stored the first time "
            "(nothing new is stored).")


def penalty_of(rh) -> None:
    """.../penalties/<penalty_id>: rh.penalty of rh.event."""
    rh.penalty = ops.get_penalty(rh.event, rh.url["penalty_id"])


def _answer(event, penalty) -> PenaltyOut:
    return shaped(PenaltyOut, ops.penalty_json(penalty, {r.id: r.name for r in event.registrations}))


@bp.get(PENALTIES)
@operation("penalties_list", "The event's penalties, withdrawn ones included (staff).", tags=["penalties"],
           load=(loading.event,), policy=staff, response=PenaltyList, errors="401 403 404")
def penalties_list(rh):
    return shaped(PenaltyList, {"penalties": ops.listed(rh.event)})


@bp.post(PENALTIES)
@operation("penalties_give", "Record a penalty for a player: a warning, game loss, match loss or "
           "disqualification, with its infraction and note.", tags=["penalties"], load=(loading.event,),
           policy=staff, body=PenaltyIn, response=PenaltyOut, status=201,
           errors="400 401 403 404 409 413 415", description=REFUSALS, example=EXAMPLE,
           links={"penalties_withdraw": {"penalty_id": "$response.body#/id"}})
def penalties_give(rh):
    penalty, _new = ops.record(rh.event, rh.user, rh.body)
    return _answer(rh.event, penalty)


@bp.post(PENALTIES + "/<int:penalty_id>/withdraw")
@operation("penalties_withdraw", "Withdraw a penalty given by mistake: kept in the record with who, when and "
           "why; it no longer counts.", tags=["penalties"], load=(loading.event, penalty_of), policy=staff,
           body=WithdrawIn, response=PenaltyOut, errors="400 401 403 404 409 413 415",
           description="A disqualified player stays dropped: bring them back from the desk if they play on. "
                       "Refused (409) once the event has finished or when already withdrawn.")
def penalties_withdraw(rh):
    return _answer(rh.event, ops.withdraw(rh.event, rh.user, rh.penalty, rh.body.reason))
