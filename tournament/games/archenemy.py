"""Archenemy (RULES.md, seed 004): who is the archenemy, turn order, scheme decks. Pure functions."""
from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field

from ..cards.domain import Card
from ..decks.checks import ARCHENEMY_RULES, SCHEME_MAX_COPIES, SCHEME_MIN
from ..decks.domain import N_, ParsedDeck, Text, TextList, _n

VARIANTS = ("normal", "archenemy", "rumble")
# Where a scheme deck comes from: the registered decklist's schemes, a list pasted at the table (both checked
# against the card data), or the scheme cards the player brought on paper (not checked; the log says so).
SCHEME_SOURCES = ("registered", "list", "paper")
SCHEME_LIST_CHARS = 20_000        # a pasted scheme list: 20 lines of names fit 50 times over
SCHEME_DECK_MAX = 200             # scheme cards in one deck (the rules set no maximum; 200 is ten decks)
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
    paper: bool = False                                    # brought on paper: the table keeps it, not the tracker

    def copy(self) -> "SchemeDeck":
        return SchemeDeck([dict(c) for c in self.library], [dict(c) for c in self.ongoing],
                          dict(self.last) if self.last else None, self.paper)

    def to_json(self) -> dict:
        return {"cards_left": len(self.library), "ongoing": [c["name"] for c in self.ongoing],
                "last": self.last["name"] if self.last else None, "paper": self.paper}


def deal_scheme_deck(cards: list[dict], seed: int) -> SchemeDeck:
    """Shuffle a scheme deck from a seed (replayable): cards are {"name", "ongoing"}."""
    deck = [{"name": str(c["name"]), "ongoing": bool(c.get("ongoing"))} for c in cards]
    random.Random(seed).shuffle(deck)
    return SchemeDeck(library=deck)


def set_in_motion(deck: SchemeDeck) -> SchemeDeck:
    """Turn over the top scheme; a non-ongoing scheme then goes to the bottom, an ongoing one stays face up."""
    if deck.paper:
        raise ValueError(Text(N_("This scheme deck is on paper: set its schemes in motion at the table.")))
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


# ---------------------------------------------------------------- a scheme deck from a list of cards

@dataclass(frozen=True)
class SchemeList:
    """A list of scheme cards read from a decklist or a paste: each named card with its count and line."""
    entries: list[tuple[int, str, int]]          # (count, name as written, line)
    problems: list[Text]                         # lines that could not be read


def read_scheme_list(parsed: ParsedDeck, registered: bool = False) -> SchemeList:
    """The lines naming cards. A paste is all scheme cards, whatever section headers it has (the maybeboard
    aside); of a registered decklist, the "Schemes" section and, once `registered_schemes` knows the cards,
    the scheme cards listed elsewhere (as the deck check moves them)."""
    sections = [parsed.schemes] if registered else [parsed.commanders, parsed.main, parsed.sideboard,
                                                    parsed.companions, parsed.schemes, parsed.dungeons]
    entries = [(e.count, e.name, e.line) for section in sections for e in section]
    problems = [] if registered else [Text(N_("Line %(line)s: %(reason)s"), line=u.line, reason=u.why or u.reason)
                                      for u in parsed.unparsed]
    return SchemeList(sorted(entries, key=lambda e: e[2]), problems)


def registered_schemes(parsed: ParsedDeck, cards: dict[str, Card | None]) -> SchemeList:
    """A registered decklist's scheme deck: its "Schemes" section, and scheme cards listed in another section
    (the deck check moves them to the scheme deck too). `cards`: each name of the list resolved."""
    elsewhere = [(e.count, e.name, e.line) for section in (parsed.main, parsed.sideboard) for e in section
                 if _is_scheme(cards.get(e.name))]
    own = read_scheme_list(parsed, registered=True)
    return SchemeList(sorted(own.entries + elsewhere, key=lambda e: e[2]), [])


def _is_scheme(card: Card | None) -> bool:
    return card is not None and "Scheme" in card.front.types


def scheme_deck(listed: SchemeList, cards: dict[str, Card | None],
                suggestions: dict[str, list[str]] | None = None) -> tuple[list[dict], list[Text]]:
    """The scheme deck a list makes, checked against the card data and the Archenemy rules (RULES.md,
    904.3): every line a known scheme card, at least SCHEME_MIN cards, at most SCHEME_MAX_COPIES of a name
    (counted by the card's English name, however it was written), at most SCHEME_DECK_MAX in all.

    Returns (the cards {"name", "ongoing"} in list order, the problems); a deck with problems is not played."""
    suggestions = suggestions or {}
    problems = list(listed.problems)
    deck: list[dict] = []
    for count, written, line in listed.entries:
        card = cards.get(written)
        if card is None:
            hint = suggestions.get(written) or []
            problems.append(Text(N_("Line %(line)s: %(name)s is not a card in the card data; did you mean "
                                    "%(suggestions)s?"), line=line, name=written[:80],
                                 suggestions=TextList(hint[:3], "comma")) if hint else
                            Text(N_("Line %(line)s: %(name)s is not a card in the card data; check the "
                                    "spelling."), line=line, name=written[:80]))
        elif not _is_scheme(card):
            problems.append(Text(N_("Line %(line)s: %(name)s is not a scheme card; a scheme deck holds only "
                                    "scheme cards."), line=line, name=card.name))
        else:
            deck.extend({"name": card.name, "ongoing": "Ongoing" in card.front.supertypes} for _i in range(count))
    total = sum(count for count, _name, _line in listed.entries)
    if total > SCHEME_DECK_MAX:
        problems.append(Text(_n("The list has %(num)s card; a scheme deck here holds at most %(max)s.",
                                "The list has %(num)s cards; a scheme deck here holds at most %(max)s."),
                             num=total, max=SCHEME_DECK_MAX))
    else:
        problems.extend(check_scheme_deck([c["name"] for c in deck]))
    return deck, problems
