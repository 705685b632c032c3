"""The tracker on the API: read a table's game state and make the taps the tracker page makes (start, a change,
undo, end), staff by token at any table, a player by their access code at their own table of the current round.
The same operations as the tracker page (tournament.games.operations)."""
from __future__ import annotations

from typing import Any, Literal, Optional

import pydantic
from flask_babel import gettext as _
from pydantic import Field

from ..errors import Refused
from ..events import loading
from ..events.api_access import staff
from ..rounds import operations as round_ops
from ..rounds.views import round_, table
from ..web.api import bp, operation
from . import operations as ops
from .tracker import MAX_DELTA
from .views import _state_json

TAGS = ["tracker"]
TABLE_URL = "/events/<int:event_id>/rounds/<int:number>/tables/<int:table_number>/tracker"
ACTIONS = ("start", "life", "general_damage", "cast", "command_zone", "poison", "eliminate", "venture", "scheme",
           "abandon", "undo", "end")
PlayerRef = Optional[int]


class TrackerAction(pydantic.BaseModel):
    """One tap. `start` takes variant, archenemy, seed, scheme_decks (staff: another variant, the archenemy, the
    scheme decks); life: player, delta; general_damage: victim, owner, general, amount; cast / command_zone:
    owner, general; poison: player, delta; eliminate: player, reason; venture: player, dungeon, room,
    initiative; scheme / abandon: player, scheme; undo and end take nothing."""
    model_config = pydantic.ConfigDict(extra="forbid", strict=True)
    action: Literal[ACTIONS]
    player: Optional[int] = Field(None, ge=1, le=2147483647)
    victim: Optional[int] = Field(None, ge=1, le=2147483647)
    owner: Optional[int] = Field(None, ge=1, le=2147483647)
    general: Optional[int] = Field(None, ge=0, le=10, description="Which of the owner's generals (0: the first).")
    delta: Optional[int] = Field(None, ge=-MAX_DELTA, le=MAX_DELTA)
    amount: Optional[int] = Field(None, ge=1, le=MAX_DELTA)
    reason: Optional[Literal["conceded", "other"]] = None
    dungeon: Optional[str] = Field(None, max_length=80)
    room: Optional[str] = Field(None, max_length=80)
    initiative: Optional[bool] = None
    scheme: Optional[str] = Field(None, max_length=150)
    variant: Optional[str] = Field(None, min_length=1, max_length=20)
    archenemy: Optional[int] = Field(None, ge=1, le=2147483647)
    seed: Optional[int] = Field(None, ge=0, le=2**63 - 1)
    scheme_decks: Optional[dict[str, list[dict[str, Any]]]] = Field(None, max_length=16)


class TrackerPlayer(pydantic.BaseModel):
    model_config = pydantic.ConfigDict(extra="forbid")
    id: int
    name: str
    seat: int


class TrackerOut(pydantic.BaseModel):
    model_config = pydantic.ConfigDict(extra="forbid")
    table: int
    round: int
    kind: Literal["pod", "match", "bye"]
    result_state: Optional[Literal["reported", "disputed", "confirmed"]]
    players: list[TrackerPlayer] = Field(description="In seat order.")
    state: Optional[dict[str, Any]] = Field(description="The game: turn order, each player's life, poison, "
                                                        "generals (casts, tax), general damage, the summary, the "
                                                        "latest log entries, seq; null before the game starts.")


def tap(t, body: TrackerAction, *, reg=None, user=None) -> dict:
    """The tracker page's action, from the API's body (the same operations, in the same way)."""
    payload = body.model_dump(exclude_unset=True, exclude_none=True, exclude={"action"})     # null: not given
    if body.action == "start":
        unknown = set(payload) - {"variant", "archenemy", "seed", "scheme_decks"}
        if unknown:
            key = sorted(unknown)[0]
            raise Refused(_("Unknown start setting %(key)s.", key=repr(key)), field=key)
        ops.start_game(t, reg=reg, user=user, **payload)
    elif body.action == "undo":
        ops.undo(t, reg=reg, user=user)
    elif body.action == "end":
        ops.end_game(t, reg=reg, user=user)
    else:
        ops.apply_action(t, body.action, payload, reg=reg, user=user)
    return _state_json(t)


def _players_table(rh) -> None:
    """/players/<code>/tracker: the player's table in the current round (not a bye)."""
    _rnd, seat = round_ops.current_seat(rh.reg)
    if seat is None:
        raise Refused(_("You are not seated at a table in the current round."), status=404)
    if seat.table.kind == "bye":
        raise Refused(_("You have a bye this round: there is no game to track."), status=409)
    rh.table = seat.table


STAFF_TABLE = (loading.event, round_, table)
PLAYER_TABLE = (loading.player, _players_table)


@bp.get(TABLE_URL)
@operation("tracker_get", "A table's tracked game.", tags=TAGS, load=STAFF_TABLE, policy=staff,
           response=TrackerOut, errors="401 403 404")
def tracker_get(rh):
    return _state_json(rh.table)


@bp.post(TABLE_URL)
@operation("tracker_act", "A tap on a table's tracker: start, a change, undo or end (end fills the result).",
           tags=TAGS, load=STAFF_TABLE, policy=staff, body=TrackerAction, response=TrackerOut,
           errors="400 401 403 404 409 415", example={"action": "life", "player": 1, "delta": -3})
def tracker_act(rh):
    return tap(rh.table, rh.body, user=rh.user)


@bp.get("/players/<code>/tracker")
@operation("players_tracker_get", "The tracked game at the player's table of the current round.", tags=TAGS,
           load=PLAYER_TABLE, public=True, response=TrackerOut, errors="403 404 409 429")
def players_tracker_get(rh):
    ops._actor(rh.table, rh.reg, None)      # a dropped player, or a draft: refused as on the tracker page
    return _state_json(rh.table)


@bp.post("/players/<code>/tracker")
@operation("players_tracker_act", "A tap on the player's own table's tracker.", tags=TAGS, load=PLAYER_TABLE,
           public=True, body=TrackerAction, response=TrackerOut, errors="400 403 404 409 415 429",
           example={"action": "life", "player": 1, "delta": -1})
def players_tracker_act(rh):
    return tap(rh.table, rh.body, reg=rh.reg)
