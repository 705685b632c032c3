"""What tracker URLs load, and who may use them (see tournament.events.loading for the shape).

The staff's tracker is at a table's URL (the event, round and table loaders of events and rounds); a player's
is at /p/<code>/tracker: the table their access code sits at in the current round.
"""
from __future__ import annotations

from flask import request
from flask_babel import gettext as _

from ..errors import Refused
from ..rounds import operations as round_ops
from . import operations as ops


def seated_table(rh) -> None:
    """/p/<code>/tracker, after tournament.events.loading.player: the round now and rh.reg's table in it
    (rh.round, rh.table); not seated is a 404, a bye a 409 (no game to track)."""
    rnd, seat = round_ops.current_seat(rh.reg)
    if seat is None:
        raise Refused(_("You are not seated at a table in the current round."), status=404)
    if seat.table.kind == "bye":
        raise Refused(_("You have a bye this round: there is no game to track."), status=409)
    rh.round, rh.table = rnd, seat.table


def at_table(rh) -> bool:
    """A player's tracker: the players at rh.table, not dropped, in a published round. The page is the player's
    own; an action is also the event's staff's when they tap on a player's page (each action asks again)."""
    ops._actor(rh.table, rh.reg, rh.user if request.method == "POST" else None)
    return True
