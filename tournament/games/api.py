"""The tracker on the API: read a table's game state and make the taps the tracker page makes (start, a change,
undo, end), staff by token at any table, a player by their access code at their own table of the current round.
The same operations as the tracker page (tournament.games.operations)."""
from __future__ import annotations

from copy import copy
from typing import Any, Literal, Optional

import pydantic
from flask_babel import gettext as _
from pydantic import Field

from ..errors import Refused
from ..events import loading
from ..events.api_access import staff
from ..rounds import operations as round_ops
from ..rounds.views import round_, table
from ..web.api import bp, operation, parse
from . import operations as ops
from .archenemy import VARIANTS
from .schemas import StartIn, start_settings
from .tracker import MAX_DELTA
from .views import _state_json

TAGS = ["tracker"]
TABLE_URL = "/events/<int:event_id>/rounds/<int:number>/tables/<int:table_number>/tracker"
ACTIONS = ("start", "life", "general_damage", "cast", "command_zone", "poison", "eliminate", "venture", "scheme",
           "abandon", "undo", "end")
PlayerRef = Optional[int]


class TrackerAction(pydantic.BaseModel):
    """One tap. `start` takes the fields of StartIn (POST .../tracker/start: variant, archenemy, seed,
    scheme_decks); life: player, delta; general_damage: victim, owner, general, amount; cast / command_zone:
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
    # start: StartIn's own fields (declared there once; `tap` parses the start with StartIn itself)
    variant: StartIn.model_fields["variant"].annotation = copy(StartIn.model_fields["variant"])
    archenemy: StartIn.model_fields["archenemy"].annotation = copy(StartIn.model_fields["archenemy"])
    seed: StartIn.model_fields["seed"].annotation = copy(StartIn.model_fields["seed"])
    scheme_decks: StartIn.model_fields["scheme_decks"].annotation = copy(StartIn.model_fields["scheme_decks"])


class TrackerPlayer(pydantic.BaseModel):
    model_config = pydantic.ConfigDict(extra="forbid")
    id: int
    name: str
    seat: int


class StartChoices(pydantic.BaseModel):
    model_config = pydantic.ConfigDict(extra="forbid")
    variant: Literal[VARIANTS] = Field(description="The event's variant: the game's unless staff choose another.")
    suggested_archenemy: Optional[int] = Field(description="The player archenemy least often in this event (then "
                                                           "by standings): the archenemy unless staff choose.")
    registered_schemes: dict[str, int] = Field(description="Registration id -> scheme cards in the registered "
                                                           "decklist (0: paste a list or play them on paper).")
    scheme_deck_min: int
    scheme_max_copies: int


class TrackerOut(pydantic.BaseModel):
    model_config = pydantic.ConfigDict(extra="forbid")
    table: int
    round: int
    kind: Literal["pod", "match", "bye"]
    result_state: Optional[Literal["reported", "disputed", "confirmed"]]
    players: list[TrackerPlayer] = Field(description="In seat order.")
    state: Optional[dict[str, Any]] = Field(description="The game: turn order, each player's life, poison, "
                                                        "generals (casts, tax), general damage, scheme decks "
                                                        "(cards left, ongoing, paper), the summary, the latest "
                                                        "log entries, seq; null before the game starts.")
    setup: Optional[StartChoices] = Field(description="Before the game starts (else null): what the start "
                                                      "offers.")


def tap(t, body: TrackerAction, *, reg=None, user=None) -> dict:
    """The tracker page's action, from the API's body (the same operations, in the same way)."""
    payload = body.model_dump(exclude_unset=True, exclude_none=True, exclude={"action"})     # null: not given
    if body.action == "start":
        start = parse(StartIn, payload, "start setting")
        ops.start_game(t, reg=reg, user=user, **start_settings(start))
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


@bp.post(TABLE_URL + "/start")
@operation("tracker_start", "Start a table's game: the variant, the archenemy and the scheme decks (each the "
           "registered list's schemes, a pasted list checked against the card data, or cards on paper).",
           tags=TAGS, load=STAFF_TABLE, policy=staff, body=StartIn, body_required=False, response=TrackerOut,
           errors="400 401 403 404 409 415",
           example={"variant": "archenemy", "archenemy": 12,
                    "scheme_decks": {"12": {"source": "list", "text": "2 Feed the Machine\n2 Know Naught but Fire"}}})
def tracker_start(rh):
    ops.start_game(rh.table, user=rh.user, **start_settings(rh.body))
    return _state_json(rh.table)


@bp.post("/players/<code>/tracker/start")
@operation("players_tracker_start", "Start the game at the player's own table: the event's variant and the "
           "suggested archenemy; the scheme decks may be given.", tags=TAGS, load=PLAYER_TABLE, public=True,
           body=StartIn, body_required=False, response=TrackerOut, errors="400 403 404 409 415 429",
           example={"scheme_decks": {"12": {"source": "paper"}}})
def players_tracker_start(rh):
    ops.start_game(rh.table, reg=rh.reg, **start_settings(rh.body))
    return _state_json(rh.table)
