"""The penalty inputs and answers, declared once: the API parses bodies with them, the staff page's form takes
its choices and bounds from them, the operation validates with them, and the OpenAPI document is generated from
them. What they cannot say (the player is seated in that round, the event still runs) the operations check."""
from __future__ import annotations

from typing import Literal, Optional

from pydantic import Field

from ..events.api_access import UtcDateTime
from ..events.schemas import FILLED, TEXT
from ..web.api import Input, Output
from .domain import INFRACTIONS
from .models import KEY_LENGTH, LOSSES, NOTE_LENGTH, PENALTIES

ROUNDS = (1, 1000)
GAMES = (1, 3)
KEY_PATTERN = "^[A-Za-z0-9_-]+$"

PenaltyKind = Literal[PENALTIES]
Infraction = Literal[INFRACTIONS]


class PenaltyIn(Input):
    """A penalty for a player: the infraction (its default penalty unless `penalty` says another), the round it was
    given in (a game or match loss applies to that round's game), a note."""
    registration_id: int = Field(ge=1, le=2147483647, description="The player's registration id.")
    infraction: Infraction = Field(description="The infraction, as tournament/data/infractions.json names it.")
    penalty: Optional[PenaltyKind] = Field(None, description="Default: the infraction's penalty.")
    round: Optional[int] = Field(None, ge=ROUNDS[0], le=ROUNDS[1],
                                 description="The round it was given in. Default for a game or match loss: the "
                                             "current round; a warning or disqualification may name none.")
    game: Optional[int] = Field(None, ge=GAMES[0], le=GAMES[1],
                                description="1v1: the game a game loss takes (default: the first game not "
                                            "reported yet). Pods play one game a round.")
    note: str = Field("", max_length=NOTE_LENGTH, pattern=TEXT, description="What happened, for the record.")
    key: Optional[str] = Field(None, min_length=1, max_length=KEY_LENGTH, pattern=KEY_PATTERN,
                               description="A key of your own for this penalty: sending the same key again "
                                           "(a retry) answers the penalty stored the first time.")


class WithdrawIn(Input):
    reason: str = Field(min_length=1, max_length=NOTE_LENGTH, pattern=FILLED,
                        description="Why the penalty is withdrawn (kept with who withdrew it and when).")


class PenaltyOut(Output):
    id: int
    registration_id: int
    name: str
    penalty: PenaltyKind
    infraction: str = Field(description="The infraction's id in tournament/data/infractions.json.")
    infraction_name: str
    round: Optional[int]
    table: Optional[int] = Field(description="The player's table in that round when the penalty was given.")
    game: Optional[int]
    loss: Optional[Literal[LOSSES]] = Field(description="What it does to that round's result: a game or the match "
                                                        "lost; null: nothing (a warning, a bye).")
    note: str
    given_by: str
    at: UtcDateTime
    withdrawn_at: Optional[UtcDateTime]
    withdrawn_by: Optional[str]
    withdraw_reason: Optional[str]


class PenaltyList(Output):
    penalties: list[PenaltyOut] = Field(description="Oldest first; withdrawn ones included.")


class ExportPenalty(Output):
    """A penalty in the event's data export (the note and who gave it only for the event's staff)."""
    player_id: int
    round: Optional[int]
    table: Optional[int]
    game: Optional[int]
    penalty: PenaltyKind
    infraction: str = Field(description="The infraction's id in tournament/data/infractions.json.")
    loss: Optional[Literal[LOSSES]] = Field(description="What it does to that round's result: a game or the match "
                                                        "lost; null: nothing.")
    at: UtcDateTime
    withdrawn: bool = Field(description="Withdrawn penalties no longer count.")
    note: Optional[str] = Field(description="Staff only; null for the public.")
    given_by: Optional[str] = Field(description="Staff only; null for the public.")
