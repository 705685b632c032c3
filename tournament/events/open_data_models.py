"""The open data format ("edh-open-data", version 1) declared once, as pydantic models: the API answers with them
(its OpenAPI document shows them) and the JSON Schema files in tournament/data/schemas/ are generated from them
(`python -m tournament.events.open_data_models` rewrites them; a test checks they are current)."""
from __future__ import annotations

import json
from datetime import date as Date
from pathlib import Path
from typing import Literal, Optional

import pydantic
from pydantic import Field

SCHEMAS = Path(__file__).resolve().parents[1] / "data" / "schemas"
BASE_URL = "urn:edh-tournament:schemas:"


class Out(pydantic.BaseModel):
    model_config = pydantic.ConfigDict(extra="forbid")


class OpenEvent(Out):
    id: int
    name: str
    date: Optional[Date]
    status: str = Field(description="registration, running or finished.")
    mode: Literal["pods", "duel"]
    variant: str
    pod_size: int
    scoring_profile: str
    top_cut: int
    rounds: int = Field(description="Published rounds (the top cut's included).")
    generals_public: bool = Field(description="Whether the event shows its decklists: else every general is [].")


class OpenPlayer(Out):
    player_id: int = Field(description="The player's number in this event (not an identity across events).")
    name: str
    general: list[str] = Field(description="The commander(s) of the player's decklist; [] when not public.")
    dropped: bool
    dropped_after_round: Optional[int] = Field(description="The last round published before the drop (0: before "
                                                           "round 1); null if the player did not drop.")


class OpenSeat(Out):
    seat: int = Field(ge=1, description="1 takes the first turn (the starting player).")
    starting_player: bool
    player_id: int
    general: list[str]
    outcome: Optional[Literal["survived", "eliminated", "draw", "win", "loss", "bye"]] = Field(
        description="Pods: survived, eliminated, or draw (survived a drawn game); matches: win, loss or draw; "
                    "null while the table has no result.")
    eliminated_order: Optional[int] = Field(description="Pods: 1 for the first player out.")
    game_wins: Optional[int] = Field(description="Matches: games won.")
    votes_received: Optional[int] = Field(description="Pods: the votes this player received.")


class OpenResult(Out):
    state: Literal["reported", "disputed", "confirmed"]
    survivors: list[int]
    eliminated: list[int] = Field(description="The first out first.")
    draw: Optional[str] = Field(description="Pods: time, intentional or board for a drawn game.")
    games: list[Optional[int]] = Field(description="Matches: each game's winner; null for a drawn game.")


class OpenVote(Out):
    voter: int
    votee: int


class OpenTable(Out):
    round: int
    stage: str = Field(description="swiss, or the top cut's stage (top16, top4, ...).")
    table: int
    kind: Literal["pod", "match", "bye"]
    seats: list[OpenSeat] = Field(description="In seat order, seat 1 first.")
    result: Optional[OpenResult]
    votes: list[OpenVote] = Field(description="Empty while the votes are hidden or not scored.")


class OpenDrop(Out):
    player_id: int
    after_round: int


class OpenStanding(Out):
    rank: int
    player_id: int
    name: str
    points: float
    tiebreakers: dict[str, float] = Field(description="Every tiebreaker by its printed name, in the profile's order.")
    record: dict[str, int] = Field(description="survived, played, byes; or wins, losses, draws, intentional, byes.")
    dropped: bool


class OpenEventBody(Out):
    event: OpenEvent
    players: list[OpenPlayer]
    tables: list[OpenTable] = Field(description="Every published round's tables, round by round.")
    drops: list[OpenDrop]
    standings: list[OpenStanding] = Field(description="The standings before any top cut, as the standings page.")


class OpenData(OpenEventBody):
    """An event's open data."""
    format: Literal["edh-open-data"]
    version: Literal[1]


class OpenSeries(Out):
    id: int
    name: str


class OpenEntry(Out):
    event_id: int
    player_id: int


class OpenPerson(Out):
    person_id: int
    name: str
    entries: list[OpenEntry] = Field(description="This person's player number at each event.")


class OpenSeriesData(Out):
    """A series' open data: its events (oldest first) and who is who across them."""
    format: Literal["edh-open-data"]
    version: Literal[1]
    series: OpenSeries
    people: list[OpenPerson]
    events: list[OpenEventBody]


FILES = {"open-data-v1.schema.json": OpenData, "open-data-series-v1.schema.json": OpenSeriesData}


def json_schema(name: str) -> dict:
    model = FILES[name]
    return {"$schema": "https://json-schema.org/draft/2020-12/schema", "$id": BASE_URL + name,
            **model.model_json_schema(mode="serialization")}


def write_schemas() -> None:
    SCHEMAS.mkdir(parents=True, exist_ok=True)
    for name in FILES:
        (SCHEMAS / name).write_text(json.dumps(json_schema(name), indent=2, ensure_ascii=False) + "\n",
                                    encoding="utf-8")


if __name__ == "__main__":
    write_schemas()
