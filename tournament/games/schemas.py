"""The tracker's start, declared once: the page's start button and the API's start parse it (the bounds the
OpenAPI document shows), and tournament.games.operations.start_game reads what it parsed."""
from __future__ import annotations

from typing import Literal, Optional

from flask_babel import gettext as _
from pydantic import BeforeValidator, Field
from typing import Annotated

from ..errors import Refused
from ..web.api import Input
from .archenemy import SCHEME_LIST_CHARS, SCHEME_SOURCES, VARIANTS


def _scheme_text(value, info):
    """A pasted scheme list: text, at most SCHEME_LIST_CHARS characters (refused in words, not a 500)."""
    if value is None:
        return None
    if not isinstance(value, str):
        raise Refused(_("The scheme list must be text: one scheme card a line, like \"2 Feed the Machine\"."),
                      field="scheme_decks")
    if len(value) > SCHEME_LIST_CHARS:
        raise Refused(_("The scheme list is %(length)s characters; paste at most %(limit)s (a scheme deck's names "
                        "fit many times over).", length=format(len(value), ","), limit=format(SCHEME_LIST_CHARS, ",")),
                      field="scheme_decks")
    return value


class SchemeDeckIn(Input):
    """One player's scheme deck: the registered decklist's schemes ("registered"), a list pasted here ("list",
    with `text`), both checked against the card data (scheme cards only, at least 20, at most two of a name),
    or the scheme cards the player brought on paper ("paper": not checked, and the event log says so)."""
    source: Literal[SCHEME_SOURCES] = Field(description="registered, list or paper.")
    text: Annotated[Optional[Annotated[str, Field(max_length=SCHEME_LIST_CHARS)]], BeforeValidator(_scheme_text),
                    Field(description="source list: the scheme cards, one a line (\"2 Feed the Machine\", \"1x "
                                      "Know Naught but Fire\" or just the name).")] = None


class StartIn(Input):
    """Start the table's game. A player at the table starts it in the event's variant with the suggested
    archenemy (the player archenemy least often in the event, then by standings) and may give the scheme decks;
    staff may also choose another variant or archenemy."""
    variant: Optional[Literal[VARIANTS]] = Field(None, description="normal, archenemy or rumble (Supervillain "
                                                                     "Rumble); leave out for the event's.")
    archenemy: Optional[int] = Field(None, ge=1, le=2147483647,
                                     description="Archenemy games: the registration id of the archenemy, a player "
                                                 "at the table (staff only); leave out for the suggested one.")
    seed: Optional[int] = Field(None, ge=0, le=2**63 - 1, description="The turn order's and shuffles' seed "
                                                                       "(replayable); leave out for a random one.")
    scheme_decks: Optional[dict[str, SchemeDeckIn]] = Field(
        None, max_length=16, description="Registration id -> scheme deck, for the archenemy (every player in a "
                                         "Supervillain Rumble). A holder left out plays the registered list's "
                                         "schemes, refused when it has none.")


def start_settings(start: StartIn) -> dict:
    """The start settings given (the operation's keyword arguments): what was left out stays its default."""
    return start.model_dump(exclude_unset=True, exclude_none=True)
