"""Archenemy (RULES.md, seed 004): who is the archenemy, turn order, scheme decks. Pure functions."""
from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field

from ..decks.checks import ARCHENEMY_RULES, SCHEME_MAX_COPIES, SCHEME_MIN
from ..decks.domain import N_, Text

VARIANTS = ("normal", "archenemy", "rumble")
ARCHENEMY_LIFE = ARCHENEMY_RULES["archenemy_life"]
TEAM_LIFE = ARCHENEMY_RULES["team_life"]


@dataclass(frozen=True)
class Candidate:
    player: int
    times_archenemy: int = 0
    rank: int = 0          # standings rank, 1 is best; 0 = unranked (sorts last)


def choose_archenemy(candidates: list[Candidate]) -> int:
    """The player who has been archenemy least often; ties go to the better standings rank, then seat order."""
    if not candidates:
        raise ValueError("A pod needs players to choose an archenemy from.")
    order = {c.player: i for i, c in enumerate(candidates)}
    best = min(candidates, key=lambda c: (c.times_archenemy, c.rank if c.rank > 0 else 10**9, order[c.player]))
    return best.player


def turn_order(seats: list[int], variant: str, archenemy: int | None = None, seed: int = 0) -> list[int]:
    """Seat order rotated so the right player goes first: the archenemy, or a seeded random one in a Rumble."""
    seats = list(seats)
    if not seats:
        return seats
    if variant == "archenemy":
        if archenemy not in seats:
            raise ValueError("The archenemy must be one of the players at the table.")
        first = seats.index(archenemy)
    elif variant == "rumble":
        first = random.Random(seed).randrange(len(seats))
    else:
        first = 0
    return seats[first:] + seats[:first]


def starting_life(players: list[int], variant: str, archenemy: int | None, default: int) -> dict[int, int]:
    if variant == "archenemy":
        return {p: ARCHENEMY_LIFE if p == archenemy else TEAM_LIFE for p in players}
    if variant == "rumble":
        return {p: ARCHENEMY_LIFE for p in players}
    return {p: default for p in players}


def check_scheme_deck(names: list[str]) -> list[str]:
    """Problems with a scheme deck: at least 20 schemes, at most two of a name (empty list: fine). Each is a
    Text (the English sentence, worded in the reader's language where it is shown)."""
    problems = []
    if len(names) < SCHEME_MIN:
        problems.append(Text(N_("The scheme deck has %(count)s schemes; an archenemy needs at least %(min)s."),
                             count=len(names), min=SCHEME_MIN))
    for name, n in sorted(Counter(names).items()):
        if n > SCHEME_MAX_COPIES:
            problems.append(Text(N_("%(name)s: %(count)s copies; at most %(max)s schemes may share a name."),
                                 name=name, count=n, max=SCHEME_MAX_COPIES))
    return problems


@dataclass
class SchemeDeck:
    """A scheme deck in the command zone: face-down cards (top first) and ongoing schemes face up."""
    library: list[dict] = field(default_factory=list)     # {"name", "ongoing"}
    ongoing: list[dict] = field(default_factory=list)
    last: dict | None = None                               # the scheme most recently set in motion

    def copy(self) -> "SchemeDeck":
        return SchemeDeck([dict(c) for c in self.library], [dict(c) for c in self.ongoing],
                          dict(self.last) if self.last else None)

    def to_json(self) -> dict:
        return {"cards_left": len(self.library), "ongoing": [c["name"] for c in self.ongoing],
                "last": self.last["name"] if self.last else None}


def deal_scheme_deck(cards: list[dict], seed: int) -> SchemeDeck:
    """Shuffle a scheme deck from a seed (replayable): cards are {"name", "ongoing"}."""
    deck = [{"name": str(c["name"]), "ongoing": bool(c.get("ongoing"))} for c in cards]
    random.Random(seed).shuffle(deck)
    return SchemeDeck(library=deck)


def set_in_motion(deck: SchemeDeck) -> SchemeDeck:
    """Turn over the top scheme; a non-ongoing scheme then goes to the bottom, an ongoing one stays face up."""
    if not deck.library:
        raise ValueError(Text(N_("The scheme deck is empty: every scheme is ongoing and face up.")))
    d = deck.copy()
    top = d.library.pop(0)
    d.last = top
    if top["ongoing"]:
        d.ongoing.append(top)
    else:
        d.library.append(top)
    return d


def abandon(deck: SchemeDeck, name: str) -> SchemeDeck:
    """An ongoing scheme is abandoned: it goes face down to the bottom of its owner's scheme deck."""
    d = deck.copy()
    for i, c in enumerate(d.ongoing):
        if c["name"] == name:
            d.library.append(d.ongoing.pop(i))
            return d
    raise ValueError(Text(N_("%(name)s is not an ongoing scheme in motion."), name=str(name)[:60]))
