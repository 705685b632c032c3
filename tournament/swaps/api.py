"""Swap routes on the JSON API blueprint (/api/v1): players by access code, staff by bearer token.

Undo is part of the same POST ({"undo": [swap ids]}), so a player's changes in one submission (undo some, make
others) are all or nothing.
"""
from __future__ import annotations

from flask_babel import gettext as _

from ..errors import Refused
from ..events import loading
from ..events.api_access import shaped, staff
from ..rounds.api import PLAYER_TABLE, PLAYER_TABLE_URL, RESULT_TABLE, TABLE_URL, result_json, _player_answer
from ..rounds.schemas import PlayerRoundOut, ResultOut
from ..web.api import bp, operation, token
from . import operations as swaps
from .schemas import StaffSwapState, StaffSwapSubmission, SwapState, SwapSubmission

PLAYER = "/players/<code>/swaps"
STAFF = "/events/<int:event_id>/registrations/<int:registration_id>/swaps"
EXAMPLE = {"pairs": [], "undo": []}
REFUSALS = ("Refused (409) after the deadline, for the general, for a card not in the current main deck or "
            "sideboard, when the deck would not be legal, and for a game the table does not play (a pod plays one "
            "game: game 2 or 3 is refused). No pairs and no undo: nothing changes.")


STAFF_REGISTRATION = (token, loading.event, loading.registration)


def answer(reg, result=None, log: bool = False) -> dict:
    if result is not None:
        body = swaps.state(reg, result.game or None, table=result.table)     # the table the submission just read
    else:
        body = swaps.state(reg)
    body["made"] = [swaps.swap_json(s) for s in result.made] if result else []
    body["undone"] = [s.id for s in result.undone] if result else []
    if log:
        body["log"] = [swaps.swap_json(s) for s in swaps.swaps_of(reg)]
    return body


@bp.get(PLAYER)
@operation("players_swaps", "The player's swap window (server deadline), current deck and swaps.", tags=["players"],
           load=loading.player, response=SwapState, errors="404 429", public=True)
def player_swaps(rh):
    return answer(rh.reg)


@bp.post(PLAYER)
@operation("players_swapsSubmit", "Swap cards between main deck and sideboard one for one, and/or undo swaps; all "
           "or nothing.", tags=["players"], load=loading.player, body=SwapSubmission, response=SwapState,
           errors="400 404 409 413 415 429", public=True, description=REFUSALS, example=EXAMPLE)
def player_swaps_submit(rh):
    result = swaps.change_swaps(rh.reg, rh.body.listed("pairs"), rh.body.listed("undo"), game=rh.body.game)
    return answer(rh.reg, result)


@bp.get(STAFF)
@operation("registrations_swaps", "A player's swap state and full swap log (staff).", tags=["registrations"],
           load=STAFF_REGISTRATION, policy=loading.staff, response=StaffSwapState, errors="401 403 404")
def registration_swaps(rh):
    return answer(rh.reg, log=True)


@bp.post(STAFF)
@operation("registrations_swapsSubmit", "Enter swaps for a player (desk or judge; logged as entered by you). After "
           "the deadline: give `override_reason`.", tags=["registrations"], load=STAFF_REGISTRATION,
           policy=loading.staff, body=StaffSwapSubmission, response=StaffSwapState,
           errors="400 401 403 404 409 413 415", description=REFUSALS, example=EXAMPLE)
def registration_swaps_submit(rh):
    body = rh.body
    result = swaps.change_swaps(rh.reg, body.listed("pairs"), body.listed("undo"), user=rh.staff, game=body.game,
                                override_reason=body.override_reason)
    return answer(rh.reg, result, log=True)


# ----------------------------------------------------------------- starting games 2 and 3 of a match

START = "/games/<int(min=2, max=3):game>/start"       # game 1 starts with the round
START_WHY = ("Game 2 or 3; sideboarding for it opens when the game before it is reported and closes now (or at its "
             "stored deadline, the event's sideboard_minutes). Refused with 409 before that game is reported; "
             "starting a game already started changes nothing.")


@bp.post(PLAYER_TABLE_URL + START)
@operation("players_startGame", "Start the next game of your match: its sideboarding closes.", tags=["results"],
           load=PLAYER_TABLE, public=True, response=PlayerRoundOut, errors="400 403 404 409 429",
           description=START_WHY)
def players_start_game(rh):
    swaps.start_duel_game(rh.table, rh.url["game"], reg=rh.reg)
    return _player_answer(rh)


@bp.post(TABLE_URL + START)
@operation("results_startGame", "Start a match's next game for its players (closes its sideboarding).",
           tags=["results"], load=RESULT_TABLE, policy=staff, response=ResultOut, errors="400 401 403 404 409",
           description=START_WHY)
def results_start_game(rh):
    swaps.start_duel_game(rh.table, rh.url["game"], user=rh.user)
    return shaped(ResultOut, result_json(rh.table, staff=True))
