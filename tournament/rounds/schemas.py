"""The rounds API's input and output schemas (pydantic): the bounds the API parses with and the OpenAPI document
shows. Rules the schemas cannot say (who is seated where, what a round's state allows) stay in the operations."""
from __future__ import annotations

from typing import Literal, Optional

from pydantic import Field

from ..web.api import Input, Output

from ..events.api_access import UtcDateTime
from .operations import MAX_EXTENSION_MINUTES

PlayerId = Field(ge=1, le=2147483647)
Stage = Field(min_length=1, max_length=20, description="swiss, pods, or the top cut's stage (top8, top4, ...).")
RoundStatus = Literal["draft", "published", "finished"]
TableKind = Literal["pod", "match", "bye"]
ResultState = Optional[Literal["reported", "disputed", "confirmed"]]
DrawKind = Literal["time", "intentional", "board"]




# ----------------------------------------------------------------- input

class PairIn(Input):
    override_decks: bool = Field(False, description="Pair players whose decklist is missing or not legal too "
                                                    "(otherwise such players refuse the pairing with a 409).")


class MinutesIn(Input):
    minutes: int = Field(ge=1, le=MAX_EXTENSION_MINUTES, description="Whole minutes to add to the round.")


class ExtensionIn(Input):
    minutes: int = Field(ge=0, le=MAX_EXTENSION_MINUTES, description="The table's extension in minutes (0: none).")


class FinishRoundIn(Input):
    accept_unconfirmed: bool = Field(False, description="Finish even though some results are reported but not "
                                                        "confirmed by every player (they count as reported).")


class SwapIn(Input):
    first: int = Field(ge=1, le=2147483647, description="A seated player's registration id.")
    second: int = Field(ge=1, le=2147483647, description="Another seated player's registration id.")


class PrizeClaimIn(Input):
    holder: int = Field(ge=1, le=2147483647, description="The player at the table who holds the prize.")
    value: Optional[float] = Field(None, ge=0, lt=1e9, description="The value, for a condition that counts one.")


class VoteIn(Input):
    votee: int = Field(ge=1, le=2147483647, description="The player voted for (another player at the table).")


class ResultIn(Input):
    """A pod's result (survivors, eliminated, prizes, draw; staff also the archenemy and every vote) or a 1v1
    match's games (each game's winner, null for a drawn game)."""
    survivors: Optional[list[int]] = Field(None, max_length=16, description="Pods: the players still alive at the "
                                                                              "end (or when time was called).")
    eliminated: list[int] = Field(default_factory=list, max_length=16,
                                  description="Pods: the players knocked out, the first out first.")
    prizes: dict[str, Optional[PrizeClaimIn]] = Field(default_factory=dict, max_length=20,
                                                      description="Pods: alternate prize condition id -> holder.")
    draw: Optional[DrawKind] = Field(None, description="Pods: why a game with several (or no) players left is "
                                                       "drawn; unnamed, time or the board state.")
    games: Optional[list[Optional[int]]] = Field(None, min_length=1, max_length=3,
                                                 description="Matches: each game's winner (a player id) or null "
                                                             "for a drawn game.")
    revision: Optional[int] = Field(None, ge=0, le=1_000_000_000,
                                    description="The result revision you saw: refused with 409 when it changed.")


class StaffResultIn(ResultIn):
    archenemy: Optional[int] = Field(None, ge=0, le=2147483647,
                                     description="Pods: the archenemy of an Archenemy game; 0 for a game that was "
                                                 "not one; leave out to keep what the tracker recorded.")
    votes: dict[str, int] = Field(default_factory=dict, max_length=16,
                                  description="Pods of events that score votes: voter id -> the player voted for.")


class ConfirmIn(Input):
    revision: int = Field(ge=0, le=1_000_000_000, description="The result revision you agree with.")


class AcceptIn(Input):
    seen: Optional[int] = Field(None, ge=0, le=1_000_000_000,
                                description="The table's revision when you chose: refused with 409 if it changed.")


# ----------------------------------------------------------------- output

class SeatOut(Output):
    seat: int = Field(description="1 takes the first turn.")
    player_id: int
    name: str
    dropped: bool


class TableOut(Output):
    number: int
    kind: TableKind
    result_state: ResultState
    result_revision: int
    extra_minutes: int
    seats: list[SeatOut] = Field(description="In seat order.")


class ClockOut(Output):
    started: bool
    paused: bool
    finished: bool
    minutes: int = Field(description="The event's round length.")
    ends_at: Optional[UtcDateTime] = Field(description="The deadline (UTC); null before the round starts.")
    remaining_seconds: Optional[int]


class RoundSummary(Output):
    number: int
    stage: str
    status: RoundStatus
    tables: int
    missing_results: int
    created_at: UtcDateTime
    published_at: Optional[UtcDateTime]
    started_at: Optional[UtcDateTime]
    finished_at: Optional[UtcDateTime]
    clock: ClockOut


class RoundList(Output):
    rounds: list[RoundSummary]


class RoundOut(RoundSummary):
    table_list: list[TableOut] = Field(description="This page of the round's tables, by number.")
    next_offset: Optional[int] = Field(description="The next page's offset; null on the last page.")


class VersionOut(Output):
    revision: int
    actor: str = Field(description="'player:ID' or 'judge:NAME' / 'organizer:NAME'.")
    staff: bool
    registration_id: Optional[int]
    at: UtcDateTime
    result: dict = Field(description="Pods: survivors, eliminated, prizes {condition: [holder, value]}, "
                                     "archenemy, draw; matches: games (winner ids, null for a draw).")
    current: bool


class VoteOut(Output):
    voter: int
    votee: int


class PrizeOut(Output):
    condition: str
    holder: int
    value: Optional[float]


class ResultOut(Output):
    round: int
    table: int
    kind: Literal["pod", "match"]
    state: ResultState
    revision: int
    entered_by: Optional[str]
    at: Optional[UtcDateTime]
    survivors: list[int] = Field(description="Pods: the players left at the end.")
    eliminated: list[int] = Field(description="Pods: the first out first.")
    prizes: list[PrizeOut]
    draw: Optional[str]
    archenemy: Optional[int]
    games: list[Optional[int]] = Field(description="Matches: each game's winner; null for a drawn game.")
    confirmed_by: list[int]
    needed: list[int] = Field(description="Who must confirm (the players still in the event).")
    votes: Optional[list[VoteOut]] = Field(description="Null while the votes are hidden (or not scored).")
    versions: list[VersionOut]


class PlayerRoundOut(Output):
    round: Optional[RoundSummary] = Field(description="The latest published round; null before the first.")
    table: Optional[TableOut] = Field(description="The player's table in it; null when not seated.")
    result: Optional[ResultOut] = Field(description="The table's result as the player sees it.")
    my_vote: Optional[int]
    can_report: bool
    can_confirm: bool
    can_vote: bool


class StandingOut(Output):
    rank: int
    player_id: int
    name: str
    points: float
    tiebreakers: dict[str, float] = Field(description="In the scoring profile's order, by column id.")
    record: dict[str, int] = Field(description="Duel: wins, losses, draws; pods: survived, played.")
    games: int
    byes: int
    votes: int
    dropped: bool
    played: bool = Field(description="False: registered but never seated in a published round.")
    disqualified: bool = Field(False, description="Disqualified (a penalty): results kept, not paired again.")
    penalty_losses: int = Field(0, ge=0, description="Game and match losses given as penalties (in force).")


class StandingsOut(Output):
    tiebreakers: list[str] = Field(description="The tiebreaker columns, in order.")
    standings: list[StandingOut]
    next_offset: Optional[int]


class CutTableOut(Output):
    number: int
    players: list[int]
    winner: Optional[int]


class CutStageOut(Output):
    round: int
    stage: str
    final: bool
    waiting: list[int]
    tables: list[CutTableOut]


class CutOut(Output):
    seeds: dict[str, int] = Field(description="Player id -> seed at the cut (1 = best).")
    stages: list[CutStageOut]


class DeletedOut(Output):
    deleted: int = Field(description="The number of the round deleted.")


class EventStatusOut(Output):
    id: int
    status: str
