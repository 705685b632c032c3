"""The swap routes' inputs and answers, declared once (the API parses with them; the OpenAPI document is
generated from them). change_swaps checks every value in words; these say what it takes."""
from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any, ClassVar, Literal

from pydantic import Field
from pydantic.json_schema import WithJsonSchema

from ..web.api import Output

from ..events.schemas import FILLED, TEXT, Body

GAMES = (1, 3)
OVERRIDE_REASON_LENGTH = 500
Game = Annotated[int, Field(ge=GAMES[0], le=GAMES[1])]
CardCounts = Annotated[dict[str, Annotated[int, Field(ge=1)]], Field(description="Card name -> count.")]


Out = Output


class Swap(Out):
    id: int
    registration_id: int
    table_id: int
    game: Game
    out: str
    in_: str = Field(alias="in")
    entered_by: str = Field(description="\"player\", or the staff member who entered it.")
    at: datetime
    override_reason: str | None
    undone_at: datetime | None
    undone_by: str | None


class SwapWindow(Out):
    game: Game
    open: bool
    opens_at: datetime
    deadline: datetime | None = Field(description="Stored on the server; null: until the game starts.")
    closed_at: datetime | None
    seconds_left: Annotated[float, Field(ge=0)] | None
    no_limit: bool
    server_time: datetime


class SwapTable(Out):
    id: int
    round: int
    number: int
    kind: Literal["pod", "match"]
    started_at: datetime | None


class SwapDeck(Out):
    generals: list[str]
    main: CardCounts
    sideboard: CardCounts
    main_count: Annotated[int, Field(ge=0)]
    deck_size: Annotated[int, Field(ge=0)]


class SwapState(Out):
    """The player's table, swap window, current deck and swaps."""
    registration_id: int
    name: str
    sideboard_enabled: bool
    server_time: datetime
    table: SwapTable | None
    game: Game | None
    window: SwapWindow | None
    deck: SwapDeck | None
    swaps: list[Swap] = Field(description="This game's swaps, undone ones included.")
    made: list[Swap]
    undone: list[int]


class StaffSwapState(SwapState):
    log: list[Swap] = Field(description="Every swap of this player in the event.")


_PAIR = {"type": "object", "additionalProperties": False, "required": ["out", "in"], "properties": {
    "out": {"type": "string", "maxLength": 200, "minLength": 1, "pattern": FILLED},
    "in": {"type": "string", "maxLength": 200, "minLength": 1, "pattern": FILLED}}}


class SwapSubmission(Body):
    """Swap cards one for one and/or undo swaps; all or nothing. No pairs and no undo: nothing changes."""
    what: ClassVar[str] = "swap"
    pairs: Annotated[Any, WithJsonSchema({
        "type": ["array", "null"], "items": _PAIR,
        "description": "Card out of the main deck, card in from the sideboard; applied in order."})] = None
    undo: Annotated[Any, WithJsonSchema({"type": ["array", "null"], "items": {"type": "integer"},
                                         "description": "Ids of this game's swaps to undo."})] = None
    game: Annotated[Any, WithJsonSchema({"type": ["integer", "null"], "minimum": GAMES[0], "maximum": GAMES[1],
                                         "description": "Default: the game the window is open for."})] = None

    def listed(self, name: str) -> list:
        """The field as sent (None: an empty list); change_swaps refuses what is not a list."""
        value = getattr(self, name)
        return [] if value is None else value


class StaffSwapSubmission(SwapSubmission):
    override_reason: Annotated[Any, WithJsonSchema({
        "type": ["string", "null"], "maxLength": OVERRIDE_REASON_LENGTH, "pattern": TEXT,
        "description": "Required after the deadline; logged with who and why."})] = None
