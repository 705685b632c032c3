"""Sideboard swaps as plain data: a deck's lists, swap pairs, and whether the result is legal.

No Flask, no database. The legality of the deck after the swaps is decided by
`tournament.decks.checks.check_deck` on the resulting list (colour identity,
singleton, banlist, deck size), not by rules re-implemented here.

Decisions:

* A swap is one card out of the main deck for one card in from the sideboard,
  so the main deck keeps its count; the general(s) never change.
* Several pairs in one submission are applied in order and accepted or refused
  together. A pair may bring in a card an earlier pair of the same submission
  put into the sideboard (a chain), but never the same physical card twice.
* "The deck stays legal": after the swaps, every error `check_deck` finds
  about a card that is in the general's zone or the main deck, or about the
  deck as a whole (deck size, no general), refuses the submission. Problems
  only about cards left in the sideboard (a sideboard card outside the
  general's colours, the sideboard's size) were accepted at registration and
  do not block swaps: they block only bringing that card in.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from ..decks.checks import DeckCheck, check_deck
from ..decks.domain import N_, Entry, ParsedDeck, Text, TextList

MAX_PAIRS = 15                     # the largest sideboard any ruleset allows
SIDEBOARD_ONLY_CODES = frozenset({"SIDEBOARD_SIZE", "IGNORED"})


class SwapError(ValueError):
    """A refused swap; `message` is worded for the player (a Text: the English sentence, which
    tournament.i18n.message_text words in the reader's language), `pair` is the 0-based pair at fault."""

    def __init__(self, message: str, pair: int | None = None, findings: list[dict] | None = None):
        super().__init__(message)
        self.message = message
        self.pair = pair
        self.findings = findings or []


@dataclass(frozen=True)
class DeckLists:
    """The cards a player plays with: general(s), main deck and sideboard, as name -> count."""
    generals: tuple[str, ...]
    main: dict[str, int] = field(default_factory=dict)
    sideboard: dict[str, int] = field(default_factory=dict)

    @property
    def main_count(self) -> int:
        return sum(self.main.values())

    @property
    def sideboard_count(self) -> int:
        return sum(self.sideboard.values())

    def to_json(self) -> dict:
        return {"generals": list(self.generals), "main": _sorted(self.main), "sideboard": _sorted(self.sideboard)}

    @classmethod
    def from_json(cls, data: dict) -> "DeckLists":
        return cls(tuple(data.get("generals") or ()), dict(data.get("main") or {}), dict(data.get("sideboard") or {}))


@dataclass(frozen=True)
class Pair:
    card_out: str
    card_in: str


def _sorted(cards: dict[str, int]) -> dict[str, int]:
    return {k: cards[k] for k in sorted(cards, key=str.casefold) if cards[k] > 0}


def lists_from_parsed(deck: ParsedDeck, canonical=lambda name: name) -> DeckLists:
    """A parsed decklist's lists, names made canonical (the pool's spelling) by `canonical`.

    Companions listed apart count as sideboard cards (they are swapped like one).
    Absorbed duplicates (Arena's companion listed twice) are merged by name.
    """
    def counts(entries) -> Counter:
        c: Counter = Counter()
        for e in entries:
            c[canonical(e.name)] += e.count
        return c

    side = counts(deck.sideboard)
    for name, n in counts(deck.companions).items():
        side[name] = max(side[name], n)
    generals = tuple(dict.fromkeys(canonical(e.name) for e in deck.commanders))
    return DeckLists(generals, dict(counts(deck.main)), dict(side))


def _find(cards: dict[str, int], name: str) -> str | None:
    """The key in `cards` that `name` means (case-insensitive), or None."""
    if cards.get(name, 0) > 0:
        return name
    folded = name.casefold().strip()
    return next((k for k, n in cards.items() if n > 0 and k.casefold() == folded), None)


def _pair_error(problem: Text, i: int, count: int) -> SwapError:
    """The problem with pair i, after "Swap 2: " when the submission has several pairs."""
    return SwapError(Text(N_("Swap %(number)s: %(problem)s"), number=i + 1, problem=problem) if count > 1 else problem,
                     i)


def apply_pairs(lists: DeckLists, pairs: list[Pair]) -> DeckLists:
    """The lists after the pairs, in order; SwapError for a pair the current lists cannot make."""
    if not pairs:
        raise SwapError(Text(N_("Choose at least one card out and one card in.")))
    if len(pairs) > MAX_PAIRS:
        raise SwapError(Text(N_("%(count)s swaps at once is more than the sideboard can hold; send at most %(max)s."),
                             count=len(pairs), max=MAX_PAIRS))
    main, side = dict(lists.main), dict(lists.sideboard)
    generals = {g.casefold() for g in lists.generals}
    for i, p in enumerate(pairs):
        if not p.card_out or not p.card_in:
            raise _pair_error(Text(N_("name a card to take out and a card to bring in.")), i, len(pairs))
        if p.card_out.casefold().strip() in generals or p.card_in.casefold().strip() in generals:
            raise _pair_error(Text(N_("your general cannot be swapped; it stays in the command zone.")), i,
                              len(pairs))
        out = _find(main, p.card_out)
        if out is None:
            raise _pair_error(
                Text(N_("%(card)s is not in your main deck any more (an earlier swap took it out)."), card=p.card_out)
                if _find(lists.main, p.card_out) else
                Text(N_("%(card)s is not in your main deck; choose a card from your current main deck."),
                     card=p.card_out), i, len(pairs))
        came_in = _find(side, p.card_in)
        if came_in is None:
            raise _pair_error(
                Text(N_("%(card)s is not in your sideboard any more (an earlier swap brought it in)."), card=p.card_in)
                if _find(lists.sideboard, p.card_in) else
                Text(N_("%(card)s is not in your sideboard; choose a card from your current sideboard."),
                     card=p.card_in), i, len(pairs))
        main[out] -= 1
        side[out] = side.get(out, 0) + 1
        side[came_in] -= 1
        main[came_in] = main.get(came_in, 0) + 1
        main, side = _sorted(main), _sorted(side)
    return DeckLists(lists.generals, main, side)


def to_parsed(lists: DeckLists) -> ParsedDeck:
    """The lists as a parsed deck (one line per card, generals first) for check_deck."""
    deck = ParsedDeck()
    line = 0
    for section, target, cards in (("commander", deck.commanders, {g: 1 for g in lists.generals}),
                                   ("main", deck.main, lists.main), ("sideboard", deck.sideboard, lists.sideboard)):
        for name, count in cards.items():
            line += 1
            target.append(Entry(count=count, name=name, line=line, section=section, raw=f"{count} {name}"))
    return deck


def blocking_errors(lists: DeckLists, check: DeckCheck) -> list[dict]:
    """The check's errors that concern the cards played (general, main deck) or the deck as a whole."""
    played = {n.casefold() for n in (*lists.generals, *lists.main)}
    out = []
    for f in check.errors:
        if f.code in SIDEBOARD_ONLY_CODES:
            continue
        if f.card is not None and f.card.casefold() not in played:
            continue
        out.append(f.to_json())
    return out


def check_lists(lists: DeckLists, pool, ruleset: str, banlist_add=(), banlist_remove=(), **limits) -> list[dict]:
    """`limits`: the event's max_bracket and bracket rules (a swap may not lift the deck over the maximum)."""
    return blocking_errors(lists, check_deck(to_parsed(lists), pool, ruleset, banlist_add, banlist_remove, **limits))


def validate_swaps(lists: DeckLists, pairs: list[Pair], pool, ruleset: str, banlist_add=(),
                   banlist_remove=(), **limits) -> DeckLists:
    """The lists after the pairs when the result is a legal deck of the same size; SwapError otherwise."""
    after = apply_pairs(lists, pairs)
    assert after.main_count == lists.main_count and after.generals == lists.generals
    errors = check_lists(after, pool, ruleset, banlist_add, banlist_remove, **limits)
    if errors:
        raise SwapError(Text(N_("After these swaps the deck would not be legal: %(problems)s Nothing was swapped; "
                                "choose other cards."),
                             problems=TextList([_FindingText.of(e) for e in errors[:5]], "words")), findings=errors)
    return after


class _FindingText(Text):
    """A stored finding (Finding.to_json()) as a Text: its English message, worded again from its template."""

    @classmethod
    def of(cls, finding: dict) -> str:
        if not finding.get("template"):
            return finding["message"]          # a finding without its template stays as it was written
        self = str.__new__(cls, finding["message"])
        self.template, self.params, self.forms = finding["template"], finding.get("params") or {}, \
            tuple(finding["forms"]) if finding.get("forms") else None
        return self


def parse_pairs(raw) -> list[Pair]:
    """[{"out": name, "in": name}, ...] -> pairs; SwapError for anything else."""
    if not isinstance(raw, list):
        raise SwapError(Text(N_("Send the swaps as a list of {\"out\": card, \"in\": card} pairs.")))
    pairs = []
    for i, item in enumerate(raw):
        if not isinstance(item, dict):
            raise SwapError(Text(N_("Swap %(number)s must be an object with \"out\" and \"in\"."), number=i + 1), i)
        if set(item) - {"out", "in"}:
            raise SwapError(Text(N_("Swap %(number)s: send only \"out\" and \"in\"."), number=i + 1), i)
        out, into = item.get("out"), item.get("in")
        if not isinstance(out, str) or not isinstance(into, str) or not out.strip() or not into.strip() \
                or len(out) > 200 or len(into) > 200:
            raise SwapError(Text(N_("Swap %(number)s: name the card out and the card in (text, at most 200 "
                                    "characters)."), number=i + 1), i)
        pairs.append(Pair(out.strip(), into.strip()))
    return pairs
