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


# ----------------------------------------------------------------- seating corrections (one declaration each:
# the API's body, and the bounds the round page's forms read through `bounds`)

MAX_TABLE = 100_000
MAX_SEAT = 16
SeatingRevision = Field(None, ge=0, le=1_000_000_000,
                        description="The round's seating_revision you saw: refused with 409 when another "
                                    "correction was stored since (without it, two corrections at the same moment "
                                    "still store only one).")


class SwapIn(Input):
    """Two seated players take each other's table and seat (a draft, or a published round at tables with no
    result)."""
    first: int = Field(ge=1, le=2147483647, description="A seated player's registration id.")
    second: int = Field(ge=1, le=2147483647, description="Another seated player's registration id.")
    revision: Optional[int] = SeatingRevision


class MoveIn(Input):
    """Move a seated player to another seat or table."""
    player: int = Field(ge=1, le=2147483647, description="The seated player's registration id.")
    table: Optional[int] = Field(None, ge=1, le=MAX_TABLE,
                                 description="The table to sit at (theirs: another seat there); null or left out: "
                                             "a new table.")
    seat: Optional[int] = Field(None, ge=1, le=MAX_SEAT,
                                description="The seat to take (the players from it on move one seat down); null "
                                            "or left out: the next free seat.")
    revision: Optional[int] = SeatingRevision


class LateArrivalIn(Input):
    """Seat a registered player who is not in the round (checked in now if they were not)."""
    player: int = Field(ge=1, le=2147483647, description="The late arrival's registration id.")
    table: Optional[int] = Field(None, ge=1, le=MAX_TABLE,
                                 description="The table to sit at; null or left out: a new table (a bye until "
                                             "someone joins it).")
    seat: Optional[int] = Field(None, ge=1, le=MAX_SEAT, description="The seat to take; null: the next free seat.")
    revision: Optional[int] = SeatingRevision


class RemoveIn(Input):
    """Take a no-show out of the round."""
    player: int = Field(ge=1, le=2147483647, description="The seated player's registration id.")
    drop: bool = Field(False, description="Also drop them from the event; false: removed from this round only "
                                          "(paired again next round).")
    revision: Optional[int] = SeatingRevision


class UnpublishIn(Input):
    """Unpublish the round and pair it again as a new draft."""
    revision: Optional[int] = SeatingRevision


def bounds(model: type[Input], name: str) -> tuple[int, int]:
    """(minimum, maximum) declared for a whole-number field: what the round page's form fields check."""
    found = {type(m).__name__: m for m in model.model_fields[name].metadata}
    return found["Ge"].ge, found["Le"].le


SEND_KEY_LENGTH = (8, 64)
SEND_KEY_PATTERN = r"^[A-Za-z0-9_-]+$"
SendKey = Field(None, min_length=SEND_KEY_LENGTH[0], max_length=SEND_KEY_LENGTH[1], pattern=SEND_KEY_PATTERN,
                description="A key you choose for this write (8-64 letters, digits, - or _; a random UUID): sent "
                            "again with the same key (a phone that kept it while offline), it is stored once.")


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
                                                             "for a drawn game. Without two wins, three games or "
                                                             "time, the match is stored in progress.")
    time: bool = Field(False, description="Matches: time was called and the match ended with these games.")
    revision: Optional[int] = Field(None, ge=0, le=1_000_000_000,
                                    description="The result revision you saw: refused with 409 when it changed.")


class PlayerResultIn(ResultIn):
    """A player's report: ResultIn and a send key."""
    send_key: Optional[str] = SendKey


class PlayerVoteIn(VoteIn):
    """A player's vote: VoteIn and a send key."""
    send_key: Optional[str] = SendKey


class StaffResultIn(ResultIn):
    archenemy: Optional[int] = Field(None, ge=0, le=2147483647,
                                     description="Pods: the archenemy of an Archenemy game; 0 for a game that was "
                                                 "not one; leave out to keep what the tracker recorded.")
    votes: dict[str, int] = Field(default_factory=dict, max_length=16,
                                  description="Pods of events that score votes: voter id -> the player voted for.")


class GameReportIn(Input):
    """One game of a 1v1 match, reported as it ends."""
    game: int = Field(ge=1, le=3, description="The game's number: the next one (or one already reported: the same "
                                              "result again changes nothing, a different one corrects or disputes).")
    winner: Optional[int] = Field(None, ge=1, le=2147483647,
                                  description="The game's winner (a player at the table); null: a drawn game (a "
                                              "game unfinished after time and five more turns is a draw).")
    time: bool = Field(False, description="Time was called and this was the match's last game (players: only "
                                          "once the round's clock has run out).")
    revision: Optional[int] = Field(None, ge=0, le=1_000_000_000,
                                    description="Staff: the result revision you saw (409 when it changed).")


class EndAtTimeIn(Input):
    """Time was called between games: the match ends with the games played."""
    revision: Optional[int] = Field(None, ge=0, le=1_000_000_000,
                                    description="Staff: the result revision you saw (409 when it changed).")


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
    seating_revision: int = Field(description="Bumps with every seating correction: send it back as `revision` "
                                              "with the next one.")
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
                                     "archenemy, draw; matches: games (winner ids, null for a draw), time.")
    current: bool


class SideboardingOut(Output):
    game: int = Field(description="The game it is before (2 or 3).")
    open: bool
    opens_at: UtcDateTime
    deadline: Optional[UtcDateTime] = Field(description="Stored on the server when the previous game was reported.")
    closed_at: Optional[UtcDateTime] = Field(description="When a player or staff started the game.")


class MatchOut(Output):
    over: bool = Field(description="Decided: two games won, three played, or time called.")
    decided_by: Optional[Literal["wins", "games", "time"]]
    winner: Optional[int] = Field(description="Null while in progress, or for a drawn match.")
    next_game: Optional[int] = Field(description="The game to report next; null once the match is over.")
    time_called: bool
    sideboarding: Optional[SideboardingOut] = Field(description="Before the next game: opens when the previous "
                                                                "game is reported.")


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
    match: Optional[MatchOut] = Field(description="Matches: where the match stands; null for pods.")
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
