"""Deck checks: a parsed decklist, the card pool and a ruleset -> findings.

`check_deck` is a pure function (no Flask, no database of its own): the pool
answers every name in one `resolve` call, and `suggest` is asked only for
names that matched nothing. Every problem is reported, not only the first,
each worded for the player who submitted the list.

Codes (severity "error" makes the deck illegal):

UNKNOWN_CARD, UNPARSED_LINE, NO_COMMANDER, COMMANDER_INELIGIBLE,
BANNED_AS_COMMANDER, DECK_SIZE, SIDEBOARD_SIZE, SINGLETON, COLOR_IDENTITY,
BANNED, NOT_LEGAL, SCHEME_DECK, BRACKET (over the event's maximum; a warning
when over the player's declared bracket); and the warnings IGNORED (maybeboard cards,
which are not part of the deck), COMMANDER_FROM_SIDEBOARD (how a list with
no commander section was read), ENCODING (the file was read as Windows-1252),
READ_AS_NOTE (words after a card left out of its name: "1 Sol Ring - ramp",
"1 Sol Ring // ramp" when "Sol Ring // ramp" is no card) and READ_AS_HEADING
(a bare "Removal" above a group, when no card has that name).

Decisions where the rules leave room (see RULES.md):

* `main_count` is the main deck without the general(s); the deck size rule
  is general(s) + main deck == ruleset.deck_size.
* A companion is one of the sideboard cards under rulesets with a sideboard
  (`companion: "sideboard"`); under `commander` (`"outside"`) one companion
  may start outside the deck. Arena lists the companion in its Companion
  section *and* in the sideboard: that sideboard copy is the companion, not a
  second card.
* Singleton counts general(s), main deck, sideboard and companion together
  (`singleton_includes_sideboard`).
* A card on the event's banlist is reported once, as BANNED, and not also as
  NOT_LEGAL. A card the event took off the banlist passes the pool check even
  when the card data marks it "Banned" in the pool's format (the organizer's
  edit wins); "Not Legal" cards (un-sets, Alchemy) stay NOT_LEGAL.
* Scheme cards found in the main deck or sideboard move to the scheme deck;
  the scheme deck is checked only when the list has schemes.
* Dungeons are listed in the summary and not checked or counted.
* Did-you-mean suggestions are looked up for the first MAX_SUGGESTED unknown
  names only; further unknown names are reported without suggestions.
"""
from __future__ import annotations

import json
import re
from collections import Counter
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Iterable

from tournament.cards.domain import COLOR_ORDER, Card
from tournament.cards.names import printed_part
from tournament.cards.pool import CardPool
from tournament.decks.brackets import BracketRules, bracket_report
from tournament.decks.domain import N_, Entry, Finding, Number, ParsedDeck, ReadNote, Text, TextList, _n
from tournament.decks.rulesets import Ruleset, card_key, effective_banlist, get_ruleset

ERROR, WARNING = "error", "warning"

CODES = (
    "UNPARSED_LINE", "UNKNOWN_CARD", "NO_COMMANDER", "COMMANDER_INELIGIBLE", "BANNED_AS_COMMANDER",
    "DECK_SIZE", "SIDEBOARD_SIZE", "BANNED", "NOT_LEGAL", "COLOR_IDENTITY", "SINGLETON",
    "SCHEME_DECK", "BRACKET", "IGNORED", "COMMANDER_FROM_SIDEBOARD", "ENCODING", "READ_AS_NOTE",
    "READ_AS_HEADING",
)
_CODE_ORDER = {c: i for i, c in enumerate(CODES)}

COLOR_WORDS = {"W": "white", "U": "blue", "B": "black", "R": "red", "G": "green"}
BASIC_LAND_COLORS = {"Plains": "W", "Island": "U", "Swamp": "B", "Mountain": "R", "Forest": "G"}
# Each card counts once in the summary, under the first of its types in this order.
TYPE_ORDER = ("Creature", "Planeswalker", "Battle", "Land", "Instant", "Sorcery", "Artifact", "Enchantment")
CURVE_KEYS = ("0", "1", "2", "3", "4", "5", "6", "7+")
ARCHENEMY_RULES = json.loads((Path(__file__).resolve().parent.parent / "data" / "variants" / "archenemy.json")
                             .read_text(encoding="utf-8"))
SCHEME_MIN, SCHEME_MAX_COPIES = ARCHENEMY_RULES["scheme_deck_min"], ARCHENEMY_RULES["scheme_max_copies"]
MAX_SUGGESTED = 20          # unknown names per deck that get did-you-mean suggestions
MAX_GENERALS_LISTED = 10    # generals named in the result; a list of 2,000 "generals" is counted, not copied
MAX_LINES_LISTED = 20       # line numbers named in one finding
MAX_FINDINGS_BYTES = 12_000  # findings kept in a check's JSON (a real illegal deck's ten: ~6 KB); the rest are counted
MAX_PER_CODE = 50           # findings of one kind shown one by one; the rest are counted in one more
LONGEST_NAME_SHOWN = 120    # no card name is this long: a pasted page shows its start
_PRIMARY_TYPE: dict[tuple[str, ...], str] = {}     # a front face's types -> its summary type

_SYMBOL = re.compile(r"\{([^{}]*)\}")
_REMINDER = re.compile(r"\([^()]*\)")
_ALL_COLORS = re.compile(r"\bis (?:all colors|every color)\b", re.I)


@dataclass
class DeckCheck:
    legal: bool
    ruleset: str
    commanders: list[str]
    color_identity: list[str]
    main_count: int
    sideboard_count: int
    findings: list[Finding] = field(default_factory=list)
    summary: dict = field(default_factory=dict)
    bracket: dict = field(default_factory=dict)

    @property
    def errors(self) -> list[Finding]:
        return [f for f in self.findings if f.severity == ERROR]

    @property
    def warnings(self) -> list[Finding]:
        return [f for f in self.findings if f.severity != ERROR]

    @property
    def codes(self) -> set[str]:
        """The error codes (warnings left out)."""
        return {f.code for f in self.findings if f.severity == ERROR}

    def to_json(self) -> dict:
        return {
            "legal": self.legal,
            "ruleset": self.ruleset,
            "commanders": list(self.commanders),
            "color_identity": list(self.color_identity),
            "main_count": self.main_count,
            "sideboard_count": self.sideboard_count,
            "findings": findings_within(self.findings, MAX_FINDINGS_BYTES),
            "summary": self.summary,
            "bracket": self.bracket,
        }


# ---------------------------------------------------------------- wording helpers
# Every sentence a player reads is a Text: an English template (marked N_ or _n for the extractor) with its
# parameters; card names, counts and line numbers are values, words are Texts of their own.

COLOR_TEXTS = {"W": N_("white"), "U": N_("blue"), "B": N_("black"), "R": N_("red"), "G": N_("green")}
COLORLESS = N_("colourless")
# Type words of a card that is named as a general but is not a creature ("is a legendary artifact").
TYPE_WORDS = {"legendary": N_("legendary"), "basic": N_("basic"), "snow": N_("snow"), "world": N_("world"),
              "ongoing": N_("ongoing"), "artifact": N_("artifact"), "enchantment": N_("enchantment"),
              "instant": N_("instant"), "sorcery": N_("sorcery"), "battle": N_("battle"),
              "kindred": N_("kindred"), "tribal": N_("tribal"), "conspiracy": N_("conspiracy"),
              "scheme": N_("scheme"), "dungeon": N_("dungeon"), "plane": N_("plane"),
              "phenomenon": N_("phenomenon"), "vanguard": N_("vanguard"), "card": N_("card")}
# The basic land types, as the card's type line has them ("is a Swamp Mountain").
BASIC_LAND_TEXTS = {"Plains": N_("Plains"), "Island": N_("Island"), "Swamp": N_("Swamp"),
                    "Mountain": N_("Mountain"), "Forest": N_("Forest")}


def color_words(colors: Iterable[str]) -> str:
    return str(colors_text(colors))


def colors_text(colors: Iterable[str]) -> Text | TextList:
    """"white, blue and green" (or "colourless"), as a Text for the reader's language."""
    colors = set(colors)
    words = [Text(COLOR_TEXTS[c]) for c in COLOR_ORDER if c in colors]
    if not words:
        return Text(COLORLESS)
    return words[0] if len(words) == 1 else TextList(words)


def general_names(names: list[str]) -> TextList:
    """The generals named in a sentence: the first MAX_GENERALS_LISTED, then "…"."""
    if len(names) <= MAX_GENERALS_LISTED:
        return TextList(names)
    return TextList([shown_name(n) for n in names[:MAX_GENERALS_LISTED]], "comma", True)


def _lines(entries: list[Entry]) -> Text:
    """"line 4" or "lines 4, 9 and 12"."""
    nums = sorted({e.line for e in entries})
    return Text(_n("line %(lines)s", "lines %(lines)s"), num=len(nums),
                lines=TextList(nums) if len(nums) <= MAX_LINES_LISTED else TextList(nums[:MAX_LINES_LISTED], "comma", True))


def _symbol_colors(symbol: str) -> set[str]:
    return {ch for ch in symbol if ch in COLOR_WORDS}


_FOUND_IN = {("mana cost", False): N_("%(symbols)s in its mana cost"),
             ("rules text", False): N_("%(symbols)s in its rules text"),
             ("mana cost", True): N_("%(symbols)s in the mana cost of %(face)s"),
             ("rules text", True): N_("%(symbols)s in the rules text of %(face)s")}


def identity_causes(card: Card, outside: set[str]) -> TextList | None:
    """Why a card has the colours in `outside`, for the player: its basic land types,
    colour symbols in its mana cost or rules text (reminder text does not count).
    Each cause is said of the card ("is a Swamp: black", "has {R} in its mana cost (red)");
    None when the card data shows none of them."""
    faces = card.faces or (card.front,)
    multi = len(faces) > 1
    parts: list[Text] = []
    basics = list(dict.fromkeys(t for f in faces for t in f.subtypes if t in BASIC_LAND_COLORS))
    if basics and {BASIC_LAND_COLORS[t] for t in basics} & outside:
        parts.append(Text(N_("is a %(types)s: %(colors)s"),
                          types=TextList([Text(BASIC_LAND_TEXTS[t]) for t in basics], "types"),
                          colors=colors_text({BASIC_LAND_COLORS[t] for t in basics})))
    found: list[Text] = []
    colors: set[str] = set()
    for kind in ("mana cost", "rules text"):
        for face in faces:
            source = face.mana_cost if kind == "mana cost" else _REMINDER.sub("", face.text or "")
            syms = list(dict.fromkeys(s for s in _SYMBOL.findall(source or "") if _symbol_colors(s) & outside))
            if syms:
                colors.update(*map(_symbol_colors, syms))
                symbols = TextList(["{" + s + "}" for s in syms])
                found.append(Text(_FOUND_IN[kind, True], symbols=symbols, face=face.name) if multi
                             else Text(_FOUND_IN[kind, False], symbols=symbols))
    if found:
        parts.append(Text(N_("has %(found)s (%(colors)s)"), found=TextList(found),
                          colors=colors_text(colors & outside)))
    parts.extend(_indicator_causes(card, faces, outside - colors))
    return TextList(parts, "clauses") if parts else None


def _indicator_causes(card: Card, faces, outside: set[str]) -> list[Text]:
    """Colours a face has without their mana symbols: "is all colors" in its text, or a colour indicator
    (Dryad Arbor, Rograkh, a transformed back face such as Ormendahl), or the two halves of a meld."""
    if card.is_meld_result and outside:
        return [Text(N_("is the melded result of two cards, and its colour identity (%(colors)s) is theirs"),
                     colors=colors_text(outside))]
    parts = []
    for i, face in enumerate(faces):
        cost = {ch for sym in _SYMBOL.findall(face.mana_cost or "") for ch in _symbol_colors(sym)}
        shown = (set(face.colors) & outside) - cost
        if not shown:
            continue
        colors = colors_text(shown)
        if _ALL_COLORS.search(face.text or ""):
            if len(faces) == 1:
                parts.append(Text(N_("says it is all colours (so %(colors)s too)"), colors=colors))
            elif i:
                parts.append(Text(N_("says it is all colours on its back face, %(face)s (so %(colors)s too)"),
                                  face=face.name, colors=colors))
            else:
                parts.append(Text(N_("says it is all colours on %(face)s (so %(colors)s too)"),
                                  face=face.name, colors=colors))
        elif len(faces) == 1:
            parts.append(Text(N_("has a %(colors)s colour indicator"), colors=colors))
        elif i:
            parts.append(Text(N_("has a %(colors)s colour indicator on its back face, %(face)s"),
                              colors=colors, face=face.name))
        else:
            parts.append(Text(N_("has a %(colors)s colour indicator on %(face)s"), colors=colors, face=face.name))
        outside = outside - shown
    return parts


def _general_phrase(commanders: list[Card], identity: set[str]) -> Text:
    if len(commanders) == 1:
        name = commanders[0].name
        if not identity:
            return Text(N_("your general %(general)s is colourless, so only colourless cards are allowed"),
                        general=name)
        return Text(N_("your general %(general)s allows only %(colors)s"), general=name,
                    colors=colors_text(identity))
    names = general_names([c.name for c in commanders])
    if not identity:
        return Text(N_("your generals %(generals)s are colourless, so only colourless cards are allowed"),
                    generals=names)
    return Text(N_("your generals %(generals)s allow only %(colors)s"), generals=names,
                colors=colors_text(identity))


def identity_text(card: Card, outside: set[str], commanders: list[Card], identity: set[str]) -> Text:
    """The COLOR_IDENTITY finding: why the card has colours outside the general's, and what the general allows."""
    causes = identity_causes(card, outside)
    generals = _general_phrase(commanders, identity)
    if causes is None:
        return Text(N_("%(card)s's colour identity includes %(colors)s; %(generals)s."), card=card.name,
                    colors=colors_text(outside), generals=generals)
    return Text(N_("%(card)s %(causes)s; %(generals)s."), card=card.name, causes=causes, generals=generals)


def _is_scheme(card: Card) -> bool:
    return "Scheme" in card.front.types


# ---------------------------------------------------------------- generals

def _is_legendary_creature(card: Card) -> bool:
    front = card.front
    return "Legendary" in front.supertypes and "Creature" in front.types


def _is_background(card: Card) -> bool:
    front = card.front
    return "Legendary" in front.supertypes and "Enchantment" in front.types and "Background" in front.subtypes


def _has(card: Card, ability: str) -> bool:
    """A keyword ability, by the card data's keyword list or its own rules text."""
    return ability in card.keywords or ability.casefold() in (card.text or "").casefold()


def _partner_with_target(card: Card) -> str | None:
    text = card.text or ""
    i = text.find("Partner with ")
    if i < 0:
        return None
    rest = text[i + len("Partner with "):]
    for stop in (" (", "\n"):
        rest = rest.split(stop, 1)[0]
    return rest.strip()


def _is_time_lord_doctor(card: Card) -> bool:
    sub = " ".join(card.front.subtypes)
    return _is_legendary_creature(card) and "Doctor" in card.front.subtypes and "Time Lord" in sub


def valid_pair(a: Card, b: Card) -> bool:
    """Two commanders together under today's rules: partner, partner with, friends forever,
    choose a Background, or Doctor's companion."""
    pw_a, pw_b = _partner_with_target(a), _partner_with_target(b)
    if pw_a or pw_b:
        if pw_a and pw_b and card_key(pw_a) == card_key(b.name) and card_key(pw_b) == card_key(a.name):
            return True
    elif "Partner" in a.keywords and "Partner" in b.keywords:
        return True
    if _has(a, "Friends forever") and _has(b, "Friends forever"):
        return True
    for x, y in ((a, b), (b, a)):
        if _has(x, "Choose a Background") and _is_background(y):
            return True
        if _has(x, "Doctor's companion") and _is_time_lord_doctor(y):
            return True
    return False


def _command_zone_in_sideboard(main, side, rs: Ruleset) -> list | None:
    """MTGO's and XMage's convention: with no commander section, a sideboard of one or two single cards that
    can be generals (together), beside a 99- or 98-card main deck, is the command zone."""
    if not 1 <= len(side) <= 2 or any(e.count != 1 or c is None for e, c in side):
        return None
    if sum(e.count for e, _ in main) + len(side) != rs.deck_size:
        return None
    cards = [c for _, c in side]
    if len(cards) == 1:
        return side if _ineligible_reason(cards[0], rs) is None else None
    if rs.max_generals >= 2 and rs.commander_rules == "commander" and valid_pair(*cards):
        return side
    return None


def _ineligible_reason(card: Card, ruleset: Ruleset) -> Text | None:
    """Why this card cannot be a general on its own, or None if it can."""
    if card.is_meld_result:
        return Text(N_("%(card)s is the melded result of two cards: it exists only on the battlefield and is "
                       "never in a deck, so it cannot be your general."), card=card.name)
    if _is_legendary_creature(card):
        return None
    modern = ruleset.commander_rules == "commander"
    if modern and card.can_be_commander:
        return None
    front = card.front
    need = (Text(N_("a commander must be a legendary creature or say it can be your commander")) if modern
            else Text(N_("a general must be a legendary creature")))
    if card.layout == "flip" and len(card.faces) > 1 and "Legendary" in card.faces[1].supertypes:
        return Text(N_("%(card)s is judged by its unflipped side, %(front)s, which is not a legendary "
                       "creature; %(need)s."), card=card.name, front=front.name, need=need)
    if "Planeswalker" in front.types:
        return Text(N_("%(card)s is a planeswalker, not a creature; %(need)s."), card=card.name, need=need)
    if "Land" in front.types:
        return Text(N_("%(card)s is a land (whatever it can make), not a creature; %(need)s."), card=card.name,
                    need=need)
    if modern and _is_background(card):
        return Text(N_("%(card)s is a Background: it can be your commander only together with a creature "
                       "that has \"Choose a Background\"."), card=card.name)
    if "Creature" in front.types:
        return Text(N_("%(card)s is not legendary; %(need)s."), card=card.name, need=need)
    words = " ".join(front.supertypes + front.types).lower().split() or ["card"]
    kind = TextList([Text(TYPE_WORDS[w]) if w in TYPE_WORDS else w for w in words], "words")
    return Text(N_("%(card)s is a %(kind)s, not a creature; %(need)s."), card=card.name, kind=kind, need=need)


# ---------------------------------------------------------------- the check
# check_deck is a pipeline: each step below adds one family of findings to one list, in the order the steps
# run. The final sort is stable, so that order decides which of two findings on the same line comes first.

Zone = list[tuple[Entry, Card | None]]         # a zone's entries, each with its card (None: an unknown name)


@dataclass
class _Zones:
    """The list as the rules count it, shared by the steps: each entry with its card in its zone (schemes
    moved to the scheme deck), the zones' card counts, and the generals once they are read."""
    commanders: Zone
    main: Zone
    side: Zone
    companions: Zone
    schemes: Zone
    unknown: dict[str, Entry]                   # names the pool does not know, each with its first entry
    commander_count: int = 0
    main_count: int = 0
    side_raw: int = 0                           # sideboard entries as listed
    side_count: int = 0                         # the sideboard as the size rule counts it
    companion_count: int = 0
    absorbed: set[str] = field(default_factory=set)     # companions Arena also lists in the sideboard
    generals: list[Card] = field(default_factory=list)  # the known general cards, each once
    identity: set[str] = field(default_factory=set)     # their combined colour identity
    general_names: set[str] = field(default_factory=set)


def check_deck(deck: ParsedDeck, pool: CardPool, ruleset, banlist_add: Iterable[str] = (),
               banlist_remove: Iterable[str] = (), max_bracket: int | None = None,
               declared_bracket: int | None = None, brackets: BracketRules | None = None) -> DeckCheck:
    """Every finding for one list, each step one family of findings; the result says whether it is legal."""
    rs = get_ruleset(ruleset)
    banlist = effective_banlist(rs, banlist_add, banlist_remove)
    findings: list[Finding] = []
    add = findings.append
    z, deck, read = _sort_zones(deck, pool)
    _read_findings(read, add)
    _line_findings(deck, add)
    _unknown_findings(z.unknown, pool, add)
    _count_zones(z, rs)
    _read_generals(z, rs, add)
    _general_count_findings(z, rs, add)
    _general_card_findings(z, rs, add)
    _card_findings(z, rs, banlist, add)
    total = z.commander_count + z.main_count
    _deck_size_finding(z, rs, total, add)
    _sideboard_findings(z, rs, add)
    if z.schemes:
        _scheme_findings(z.schemes, add)
    report = bracket_report((c for zone_entries in (z.commanders, z.main) for _, c in zone_entries if c is not None),
                            brackets)
    findings.extend(bracket_findings(report, max_bracket, declared_bracket))
    findings.sort(key=lambda f: (f.line is not None, f.line or 0, _CODE_ORDER.get(f.code, 99)))
    color_identity = [c for c in COLOR_ORDER if c in z.identity]
    return DeckCheck(
        legal=not any(f.severity == ERROR for f in findings),
        ruleset=rs.id,
        commanders=[shown_name(n) for n in list(dict.fromkeys(c.name if c is not None else e.name
                                                               for e, c in z.commanders))[:MAX_GENERALS_LISTED]],
        color_identity=color_identity,
        main_count=z.main_count,
        sideboard_count=z.side_count,
        findings=bounded(_with_spelling(findings, deck)),
        summary=_summary(z, deck, banlist, total, color_identity),
        bracket=report.to_json(),
    )


def _line_findings(deck: ParsedDeck, add) -> None:
    """Lines that name no card (UNPARSED_LINE), and the maybeboard left out of the check (IGNORED): the
    player learns that these lines were not read as cards before anything is said about the cards."""
    for u in deck.unparsed:
        reason = u.why if u.why is not None else Text(u.reason.replace("%", "%%"))
        add(Finding.of("UNPARSED_LINE", ERROR, Text(
            N_("This line could not be read (%(reason)s): %(text)s. Write it as a count and a card name, like "
               "\"1 Sol Ring\", or remove it."), reason=reason, text=repr(shown_name(u.text))), line=u.line))
    if deck.ignored:
        n = sum(e.count for e in deck.ignored)
        add(Finding.of("IGNORED", WARNING, Text(
            _n("%(num)d card in the maybeboard or in categories left out of the deck (%(lines)s) is not part of "
               "the deck and was not checked.",
               "%(num)d cards in the maybeboard or in categories left out of the deck (%(lines)s) are not part "
               "of the deck and were not checked."), num=n, lines=_lines(deck.ignored)),
            line=deck.ignored[0].line))


def _sort_zones(deck: ParsedDeck, pool: CardPool) -> tuple[_Zones, ParsedDeck, list[ReadNote]]:
    """One pool look-up for every name in the list (a database pool answers it in one query), then each
    entry with its card in its zone; schemes go to the scheme deck wherever they were listed. The deck comes
    back with the lines only the card data could read settled (ParsedDeck.fallbacks), with what was read
    as a note or heading."""
    names = list(dict.fromkeys(e.name for lst in (deck.commanders, deck.main, deck.sideboard,
                                                   deck.companions, deck.schemes) for e in lst))
    names.extend(name for name, _ in deck.fallbacks.values() if name is not None)
    get = (pool.resolve(names) if names else {}).get
    deck, read = _settle_fallbacks(deck, get)
    unknown: dict[str, Entry] = {}
    schemes: Zone = []
    commanders = _zone(deck.commanders, get, unknown, None)
    main = _zone(deck.main, get, unknown, schemes)
    side = _zone(deck.sideboard, get, unknown, schemes)
    companions = _zone(deck.companions, get, unknown, None)
    schemes.extend(_zone(deck.schemes, get, unknown, None))
    return _Zones(commanders, main, side, companions, schemes, unknown), deck, read


def read_with_cards(deck: ParsedDeck, pool: CardPool) -> tuple[ParsedDeck, dict]:
    """The deck as the check reads it (notes and headings settled by the card data, see ParsedDeck.fallbacks)
    and every name it holds resolved, in one look-up: for code that uses a stored list's cards (swaps)."""
    names = list(dict.fromkeys([*(e.name for e in deck.entries()),
                                *(name for name, _ in deck.fallbacks.values() if name is not None)]))
    resolved = pool.resolve(names) if names else {}
    return _settle_fallbacks(deck, resolved.get)[0], resolved


def _settle_fallbacks(deck: ParsedDeck, get) -> tuple[ParsedDeck, list[ReadNote]]:
    """A line whose whole name is no card but which reads another way: "1 Sol Ring // ramp" as Sol Ring
    with a note, a bare "Removal" above a group as a heading (left out). A name the card data knows always
    stays a card ("Fire // Ice", a heading that is a card's name)."""
    read = list(deck.notes)
    if not deck.fallbacks:
        return deck, read
    changed = {}
    for attr in ("commanders", "main", "sideboard", "companions", "schemes"):
        kept = []
        for e in getattr(deck, attr):
            fallback = deck.fallbacks.get(e.line)
            if fallback is None or get(e.name) is not None:
                kept.append(e)
            elif fallback[0] is None:
                read.append(ReadNote(e.line, "heading", fallback[1]))
            elif get(fallback[0]) is not None:
                read.append(ReadNote(e.line, "note", fallback[1]))
                kept.append(Entry(e.count, fallback[0], e.line, e.section, e.raw))
            else:
                kept.append(e)
        changed[attr] = kept
    return replace(deck, **changed), read


_READ_AS = {
    "note": _n("%(num)d note after a card was left out of its name: %(notes)s. Check that the card is the one you "
               "meant.",
               "%(num)d notes after cards were left out of their names: %(notes)s. Check that each card is the one "
               "you meant."),
    "heading": _n("%(num)d line was read as a category heading, not a card: %(notes)s. If it is a card, write it "
                  "with a count, like \"1 Sol Ring\".",
                  "%(num)d lines were read as category headings, not cards: %(notes)s. If one is a card, write it "
                  "with a count, like \"1 Sol Ring\"."),
}
_READ_CODES = {"note": "READ_AS_NOTE", "heading": "READ_AS_HEADING"}
MAX_NOTES_SHOWN = 10


def _read_findings(read: list[ReadNote], add) -> None:
    """ENCODING, READ_AS_NOTE and READ_AS_HEADING: one warning each, saying what the reader took how."""
    for note in read:
        if note.kind == "encoding":
            add(Finding.of("ENCODING", WARNING, Text(N_(
                "This file is not UTF-8, so it was read as %(encoding)s (what Windows' Notepad calls \"ANSI\"). "
                "Check that accented card names read right; next time save the file as UTF-8 (in Notepad: File, "
                "Save as, Encoding: UTF-8)."), encoding=note.text)))
    for kind, code in _READ_CODES.items():
        notes = sorted((n for n in read if n.kind == kind), key=lambda n: n.line or 0)
        if not notes:
            continue
        shown = [Text(N_("line %(line)s: %(text)s"), line=n.line, text=f"“{n.text}”") for n in notes[:MAX_NOTES_SHOWN]]
        add(Finding.of(code, WARNING, Text(_READ_AS[kind], num=len(notes),
                                           notes=TextList(shown, "semicolon", len(notes) > MAX_NOTES_SHOWN)),
                       line=notes[0].line))


def _zone(entries: list[Entry], get, unknown: dict[str, Entry], schemes: Zone | None) -> Zone:
    """The entries with their cards; an unknown name is noted once (its first entry), and with `schemes`
    given a scheme card is moved there instead of staying in this zone."""
    out = []
    for e in entries:
        card = get(e.name)
        if card is None:
            if e.name not in unknown:
                unknown[e.name] = e
        elif schemes is not None and card.faces and "Scheme" in card.faces[0].types:
            schemes.append((e, card))
            continue
        out.append((e, card))
    return out


def _unknown_findings(unknown: dict[str, Entry], pool: CardPool, add) -> None:
    """UNKNOWN_CARD, with a did-you-mean for the first MAX_SUGGESTED names only: suggestions cost
    milliseconds each, and a pasted page of nonsense must not cost seconds."""
    for i, (name, e) in enumerate(unknown.items()):
        suggestions = tuple(pool.suggest(name)) if i < MAX_SUGGESTED else ()
        if suggestions:
            text = Text(N_("\"%(card)s\" is not a card name we know; did you mean %(suggestion)s?"),
                        card=shown_name(name), suggestion=suggestions[0])
        else:
            text = Text(N_("\"%(card)s\" is not a card name we know. Check the spelling."), card=shown_name(name))
        add(Finding.of("UNKNOWN_CARD", ERROR, text, card=shown_name(name), line=e.line, suggestions=suggestions))


def _count_zones(z: _Zones, rs: Ruleset) -> None:
    """The zones' card counts. Arena lists the companion in "Companion" and again in "Sideboard": one card,
    not two; under a ruleset whose companion is a sideboard card, it counts in the sideboard."""
    z.commander_count = sum(e.count for e, _ in z.commanders)
    z.main_count = sum(e.count for e, _ in z.main)
    z.side_raw = sum(e.count for e, _ in z.side)
    z.companion_count = sum(e.count for e, _ in z.companions)
    if z.companions:
        companion_names = {c.name for _, c in z.companions if c is not None}
        z.absorbed = {c.name for _, c in z.side if c is not None and c.name in companion_names}
    z.side_count = z.side_raw - len(z.absorbed)
    if rs.companion == "sideboard":
        z.side_count += z.companion_count


def _read_generals(z: _Zones, rs: Ruleset, add) -> None:
    """The generals and their colour identity: the commander section's known cards, or, with no commander
    section, the sideboard read as the command zone the way MTGO and XMage keep it."""
    z.generals = list({c.name: c for _, c in z.commanders if c is not None}.values())
    z.identity = set().union(*(c.color_identity for c in z.generals)) if z.generals else set()
    z.general_names = {c.name for c in z.generals}
    if not z.commanders and (read := _command_zone_in_sideboard(z.main, z.side, rs)):
        _generals_from_sideboard(z, read, add)


def _generals_from_sideboard(z: _Zones, read: Zone, add) -> None:
    """Move the sideboard cards read as the command zone to the commanders, and say so (a warning: the
    player can put the general under a heading if that reading is wrong)."""
    z.commanders = [(Entry(e.count, e.name, e.line, "commander", e.raw), c) for e, c in read]
    z.side = [pair for pair in z.side if pair not in read]
    z.side_raw -= len(read)
    z.side_count -= len(read)
    z.commander_count = len(read)
    z.generals = [c for _, c in read]
    z.identity = set().union(*(c.color_identity for c in z.generals))
    z.general_names = {c.name for c in z.generals}
    add(Finding.of("COMMANDER_FROM_SIDEBOARD", WARNING, Text(
        _n("The list has no Commander section, so the sideboard's %(cards)s was read as your general (MTGO and "
           "XMage keep the commander in the sideboard). If that is wrong, put the general under a "
           "\"Commander\" heading.",
           "The list has no Commander section, so the sideboard's %(cards)s were read as your generals (MTGO "
           "and XMage keep the commander in the sideboard). If that is wrong, put the general under a "
           "\"Commander\" heading."), num=len(read), cards=general_names([c.name for c in z.generals])),
        card=z.generals[0].name, line=read[0][0].line))


def _general_count_findings(z: _Zones, rs: Ruleset, add) -> None:
    """No general at all (NO_COMMANDER), or more distinct generals than the ruleset allows."""
    commanders = z.commanders
    if not commanders:
        add(Finding.of("NO_COMMANDER", ERROR, Text(N_(
            "The list names no general. Put it under a \"Commander\" heading (or mark it *CMDR*, or write "
            "\"Commander: <name>\") above the other cards."))))
    distinct_generals = len({(c.name if c is not None else e.name) for e, c in commanders})
    if distinct_generals > rs.max_generals:
        listed = general_names([c.name if c is not None else e.name for e, c in commanders])
        if rs.max_generals == 1:
            text = Text(N_("%(ruleset)s allows one general; the list names %(count)d: %(cards)s."),
                        ruleset=rs.name, count=distinct_generals, cards=listed)
        else:
            text = Text(N_("%(ruleset)s allows at most %(max)d commanders; the list names %(count)d: %(cards)s."),
                        ruleset=rs.name, max=rs.max_generals, count=distinct_generals, cards=listed)
        add(Finding.of("COMMANDER_INELIGIBLE", ERROR, text, line=commanders[rs.max_generals][0].line))


def _general_card_findings(z: _Zones, rs: Ruleset, add) -> None:
    """Each general once: banned as a general, or not a card that can be one; then whether two generals
    may be commanders together (a Background is fine only beside its "Choose a Background" creature)."""
    generals = z.generals
    together = len(generals) == 2 and rs.commander_rules == "commander"
    pair_ok = together and valid_pair(generals[0], generals[1])
    seen_general: set[str] = set()
    for e, card in z.commanders:
        if card is None or card.name in seen_general:
            continue
        seen_general.add(card.name)
        if card_key(card.name) in rs.banned_as_general_keys:
            add(Finding.of("BANNED_AS_COMMANDER", ERROR, Text(
                N_("%(card)s is banned as a general under %(ruleset)s. It may be in the deck, but choose another "
                   "general."), card=card.name, ruleset=rs.name), card=card.name, line=e.line))
        reason = None if (pair_ok and _is_background(card)) else _ineligible_reason(card, rs)
        if reason:
            add(Finding.of("COMMANDER_INELIGIBLE", ERROR, reason, card=card.name, line=e.line))
    if together and rs.max_generals >= 2 and not pair_ok:
        a, b = generals
        add(Finding.of("COMMANDER_INELIGIBLE", ERROR, Text(
            N_("%(first)s and %(card)s cannot be commanders together: two commanders must both have Partner, "
               "name each other with \"Partner with\", both have \"Friends forever\", or be a \"Choose a "
               "Background\" creature with a Background, or a \"Doctor's companion\" with a Time Lord Doctor."),
            first=a.name, card=b.name), card=b.name, line=z.commanders[-1][0].line))


# ---- every card the player owns in the deck: legality, identity, singleton

@dataclass(frozen=True)
class _PoolRule:
    """What the legality step asks of every card, looked up once per deck."""
    ruleset: str                    # the ruleset's name, for the messages
    format: str                     # the card data's format the pool follows ("commander")
    allow: tuple[str, ...]          # the legalities that pass ("Legal", ...)
    extra: frozenset[str]           # name keys the ruleset allows whatever the card data says
    reject_funny: bool
    banned_keys: frozenset[str]
    data_format: str | None         # the format whose "Banned" the banlist also follows
    removed_keys: frozenset[str]    # cards the event took off the banlist
    added_keys: set[str]            # cards the event put on the banlist

    @classmethod
    def of(cls, rs: Ruleset, banlist) -> _PoolRule:
        pool_rule = rs.pool
        added_keys = {card_key(a) for a in banlist.added} if banlist.added else set()
        return cls(rs.name, pool_rule.format, pool_rule.allow, pool_rule.extra_keys, pool_rule.reject_funny,
                   banlist.keys, banlist.card_data_format, banlist.removed_keys, added_keys)


def _card_findings(z: _Zones, rs: Ruleset, banlist, add) -> None:
    """Each card the player owns in the deck, once: legality (BANNED, NOT_LEGAL), colour identity outside
    the generals' (checked only when a general is known), and copies over the card's limit (SINGLETON)."""
    totals, where, first = _owned_cards(z, rs.singleton_includes_sideboard)
    rule = _PoolRule.of(rs, banlist)
    identity, general_names = z.identity, z.general_names
    check_identity = bool(z.generals)
    whole_deck = rs.singleton_includes_sideboard and bool(z.side)
    for n, (e, card) in first.items():
        _legality_finding(n, e, card, rule, add)
        if check_identity and n not in general_names:
            ci = card.color_identity
            if ci and not identity.issuperset(ci):
                add(Finding.of("COLOR_IDENTITY", ERROR,
                               identity_text(card, set(ci) - identity, z.generals, identity), card=n, line=e.line))
        limit = card.copy_limit
        if limit is not None and totals[n] > limit:
            if n in general_names:
                _general_copies_finding(n, totals[n], where[n], add)
            else:
                _singleton_finding(n, totals[n], limit, where[n], whole_deck, add)


def _owned_cards(z: _Zones, singleton_side: bool) -> tuple[dict[str, int], dict[str, list[Entry]], dict]:
    """Per card name: the copies that count for the singleton rule, every entry that lists it, and its first
    (entry, card). The sideboard and companion count only under `singleton_side`; then a companion Arena
    lists twice counts once."""
    totals: dict[str, int] = {}
    where: dict[str, list[Entry]] = {}
    first: dict[str, tuple[Entry, Card]] = {}
    for zone_entries, counted in ((z.commanders, True), (z.main, True), (z.side, singleton_side),
                                  (z.companions, singleton_side)):
        for e, card in zone_entries:
            if card is None:
                continue
            n = card.name
            w = where.get(n)
            if w is None:
                first[n] = (e, card)
                where[n] = [e]
                totals[n] = e.count if counted else 0
            else:
                w.append(e)
                if counted:
                    totals[n] += e.count
    if singleton_side:
        for n in z.absorbed:
            totals[n] -= 1
    return totals, where, first


def _legality_finding(n: str, e: Entry, card: Card, rule: _PoolRule, add) -> None:
    """BANNED (the event's banlist, reported once and not also as NOT_LEGAL), else NOT_LEGAL when the card
    is outside the pool: the card data's legality, Arena's rebalanced cards, Un-cards, meld results."""
    key = card_key(n)
    legality = card.legalities.get(rule.format, "Not Legal")
    if _is_banned(n, card, key, legality, rule):
        text = (Text(N_("%(card)s is banned by this event."), card=n) if key in rule.added_keys
                else Text(N_("%(card)s is banned under %(ruleset)s."), card=n, ruleset=rule.ruleset))
        add(Finding.of("BANNED", ERROR, text, card=n, line=e.line))
    elif (legality not in rule.allow or n.startswith("A-") or (rule.reject_funny and card.is_funny)
          or card.is_meld_result):
        reason = _not_legal_reason(n, card, key, legality, rule)
        if reason:
            add(Finding.of("NOT_LEGAL", ERROR, reason, card=n, line=e.line))


def _is_banned(n: str, card: Card, key: str, legality: str, rule: _PoolRule) -> bool:
    """On the banlist by its name or its front face's, or "Banned" in the card data's format the banlist
    follows, unless the event took it off the banlist (the organizer's edit wins)."""
    banned_keys = rule.banned_keys
    if key in banned_keys:
        return True
    if card.faces and card.faces[0].name != n and card_key(card.faces[0].name) in banned_keys:
        return True
    data_format = rule.data_format
    if data_format:
        return (legality if data_format == rule.format else card.legalities.get(data_format)) == "Banned" \
            and key not in rule.removed_keys
    return False


def _not_legal_reason(n: str, card: Card, key: str, legality: str, rule: _PoolRule) -> Text | None:
    """Why a card outside the pool is not allowed, in the player's terms; None when the ruleset allows it
    anyway (its extra cards, or a card the event took off the banlist)."""
    if card.is_meld_result:
        return Text(N_("%(card)s is the melded result of two cards, not a card a deck can hold; list the "
                       "two cards that meld into it instead."), card=n)
    if card.is_rebalanced:
        return Text(N_("%(card)s is Arena's rebalanced version of %(paper)s, not a paper card; list "
                       "%(paper)s instead."), card=n, paper=card.paper_name)
    ruleset, fmt = rule.ruleset, rule.format
    if card.is_funny and rule.reject_funny:
        return Text(N_("%(card)s is an Un-set (silver-bordered) card; those are not allowed under "
                       "%(ruleset)s."), card=n, ruleset=ruleset)
    if (rule.extra and key in rule.extra) or (legality == "Banned" and key in rule.removed_keys):
        return None
    if card.is_funny:
        return Text(N_("%(card)s is an Un-set (silver-bordered) card and is not legal under "
                       "%(ruleset)s."), card=n, ruleset=ruleset)
    if legality == "Banned":
        return Text(N_("%(card)s is banned in %(format)s, so it is not allowed under %(ruleset)s."),
                    card=n, format=fmt.capitalize(), ruleset=ruleset)
    return Text(N_("%(card)s is not legal in %(format)s, so it is not allowed under "
                   "%(ruleset)s."), card=n, format=fmt.capitalize(), ruleset=ruleset)


def _general_copies_finding(n: str, total: int, entries: list[Entry], add) -> None:
    """SINGLETON for a general: a copy in the deck beside the command zone, or the general listed twice."""
    extra_entries = [x for x in entries if x.section != "commander"]
    if extra_entries:
        template = (N_("%(card)s is your general and is already in the command zone; remove it from "
                       "the sideboard (%(lines)s).") if extra_entries[0].section == "sideboard"
                    else N_("%(card)s is your general and is already in the command zone; remove it "
                            "from the main deck (%(lines)s)."))
        add(Finding.of("SINGLETON", ERROR, Text(template, card=n, lines=_lines(extra_entries)),
                       card=n, line=extra_entries[0].line))
    else:
        add(Finding.of("SINGLETON", ERROR, Text(
            N_("%(card)s is listed %(count)d times as the general; list it once."), card=n, count=total),
            card=n, line=entries[0].line))


def _singleton_finding(n: str, total: int, limit: int, entries: list[Entry], whole_deck: bool, add) -> None:
    """SINGLETON: more copies than the card's limit, in the deck or (`whole_deck`) main deck and sideboard."""
    if whole_deck:
        template = (N_("%(card)s: %(count)d copies (%(lines)s); main deck and sideboard together may hold "
                       "one copy of a card, except basic lands.") if limit == 1 else
                    N_("%(card)s: %(count)d copies (%(lines)s); main deck and sideboard together may hold "
                       "up to %(limit)d copies of a card, except basic lands."))
    else:
        template = (N_("%(card)s: %(count)d copies (%(lines)s); the deck may hold one copy of a card, "
                       "except basic lands.") if limit == 1 else
                    N_("%(card)s: %(count)d copies (%(lines)s); the deck may hold up to %(limit)d copies "
                       "of a card, except basic lands."))
    add(Finding.of("SINGLETON", ERROR, Text(template, card=n, count=total, lines=_lines(entries), limit=limit),
                   card=n, line=entries[-1].line))


# ---- sizes, the scheme deck, the summary

def _deck_size_finding(z: _Zones, rs: Ruleset, total: int, add) -> None:
    """DECK_SIZE: general(s) + main deck must be exactly the ruleset's deck size; says how many to add or
    remove."""
    if total == rs.deck_size:
        return
    diff = rs.deck_size - total
    one = z.commander_count <= 1
    if diff > 0:
        template = (N_("The deck has %(total)d cards including the general (%(generals)d + %(main)d); "
                       "%(ruleset)s needs exactly %(size)d: add %(diff)d.") if one else
                    N_("The deck has %(total)d cards including the generals (%(generals)d + %(main)d); "
                       "%(ruleset)s needs exactly %(size)d: add %(diff)d."))
    else:
        template = (N_("The deck has %(total)d cards including the general (%(generals)d + %(main)d); "
                       "%(ruleset)s needs exactly %(size)d: remove %(diff)d.") if one else
                    N_("The deck has %(total)d cards including the generals (%(generals)d + %(main)d); "
                       "%(ruleset)s needs exactly %(size)d: remove %(diff)d."))
    add(Finding.of("DECK_SIZE", ERROR, Text(template, total=total, generals=z.commander_count, main=z.main_count,
                                            ruleset=rs.name, size=rs.deck_size, diff=abs(diff))))


def _sideboard_findings(z: _Zones, rs: Ruleset, add) -> None:
    """SIDEBOARD_SIZE: over the ruleset's maximum (or any sideboard where it has none), not the exact size a
    ruleset may require, or more than one companion starting outside the deck."""
    side_count, side = z.side_count, z.side
    if side_count > rs.sideboard_max:
        if rs.sideboard_max == 0:
            text = Text(_n("%(ruleset)s has no sideboard; remove the %(num)d sideboard card (or put them under a "
                           "\"Maybeboard\" heading).",
                           "%(ruleset)s has no sideboard; remove the %(num)d sideboard cards (or put them under a "
                           "\"Maybeboard\" heading)."), ruleset=rs.name, num=side_count)
        else:
            text = Text(N_("The sideboard has %(count)d cards; %(ruleset)s allows at most %(max)d: remove "
                           "%(diff)d."), count=side_count, ruleset=rs.name, max=rs.sideboard_max,
                        diff=side_count - rs.sideboard_max)
        add(Finding.of("SIDEBOARD_SIZE", ERROR, text, line=side[0][0].line if side else None))
    elif rs.sideboard_exact and 0 < side_count != rs.sideboard_max:
        add(Finding.of("SIDEBOARD_SIZE", ERROR, Text(
            N_("The sideboard has %(count)d cards; %(ruleset)s needs exactly %(size)d or none."), count=side_count,
            ruleset=rs.name, size=rs.sideboard_max), line=side[0][0].line if side else None))
    if rs.companion == "outside" and z.companion_count > 1:
        add(Finding.of("SIDEBOARD_SIZE", ERROR, Text(
            N_("The list has %(count)d companions; only one card may start outside the deck as a companion."),
            count=z.companion_count), line=z.companions[0][0].line))


def _scheme_findings(schemes: Zone, add) -> None:
    """The Archenemy scheme deck (SCHEME_DECK): only scheme cards, at least SCHEME_MIN of them, at most
    SCHEME_MAX_COPIES sharing a name."""
    scheme_totals: Counter = Counter()
    scheme_lines: dict[str, list[Entry]] = {}
    for e, card in schemes:
        if card is None:
            continue
        if not _is_scheme(card):
            add(Finding.of("SCHEME_DECK", ERROR, Text(
                N_("%(card)s is not a scheme card; move it out of the scheme deck."), card=card.name),
                card=card.name, line=e.line))
            continue
        scheme_totals[card.name] += e.count
        scheme_lines.setdefault(card.name, []).append(e)
    scheme_count = sum(scheme_totals.values())
    if scheme_count < SCHEME_MIN:
        add(Finding.of("SCHEME_DECK", ERROR, Text(
            _n("The scheme deck has %(num)d scheme; an archenemy needs at least %(min)d.",
               "The scheme deck has %(num)d schemes; an archenemy needs at least %(min)d."),
            num=scheme_count, min=SCHEME_MIN), line=schemes[0][0].line))
    for n, count in scheme_totals.items():
        if count > SCHEME_MAX_COPIES:
            add(Finding.of("SCHEME_DECK", ERROR, Text(
                N_("%(card)s: %(count)d copies in the scheme deck (%(lines)s); at most %(max)d schemes may share "
                   "a name."), card=n, count=count, lines=_lines(scheme_lines[n]), max=SCHEME_MAX_COPIES),
                card=n, line=scheme_lines[n][0].line))


def _summary(z: _Zones, deck: ParsedDeck, banlist, total: int, color_identity: list[str]) -> dict:
    """What the deck page shows beside the findings: colours, size, card types, mana curve, section counts,
    dungeons and the event's banlist edits."""
    types, curve = _types_and_curve(z.main)
    return {
        "color_identity": color_identity,
        "deck_size": total,
        "types": types,
        "mana_curve": curve,
        "sections": {
            "commander": z.commander_count, "main": z.main_count, "sideboard": z.side_raw,
            "companion": z.companion_count, "scheme": sum(e.count for e, _ in z.schemes),
            "dungeon": sum(e.count for e in deck.dungeons), "maybeboard": sum(e.count for e in deck.ignored),
        },
        "dungeons": list(dict.fromkeys(e.name for e in deck.dungeons)),
        "banlist_edits": {"added": list(banlist.added), "removed": list(banlist.removed)},
    }


def _types_and_curve(main: Zone) -> tuple[dict[str, int], dict[str, int]]:
    """The main deck's cards per primary type (each card once, under the first of TYPE_ORDER its front face
    has) and its non-land cards per mana value (7 and more together)."""
    types = dict.fromkeys(TYPE_ORDER, 0)
    types["other"] = 0
    curve = dict.fromkeys(CURVE_KEYS, 0)
    for e, card in main:
        if card is None:
            continue
        front_types = card.faces[0].types if card.faces else ()
        kind = _PRIMARY_TYPE.get(front_types)
        if kind is None:
            kind = _PRIMARY_TYPE[front_types] = next((t for t in TYPE_ORDER if t in front_types), "other")
        types[kind] += e.count
        if "Land" not in front_types:
            mv = int(card.mana_value)
            curve[CURVE_KEYS[mv if mv < 7 else 7]] += e.count
    return types, curve


def bracket_findings(report, max_bracket: int | None, declared: int | None) -> list[Finding]:
    """The bracket floor against the event's maximum (an error) and the player's declared bracket (a warning
    the staff see). The reasons say what in the list sets the floor; intent is for people to judge."""
    out = []
    why = TextList(report.causes, "semicolon")
    name = Text(report.name) if report.name else ""
    if max_bracket and report.floor > max_bracket:
        out.append(Finding.of("BRACKET", ERROR, Text(
            N_("This event allows decks up to bracket %(max)d; this list is at least bracket %(floor)d (%(name)s): "
               "%(why)s."), max=max_bracket, floor=report.floor, name=name, why=why)))
    if declared and report.floor > declared:
        out.append(Finding.of("BRACKET", WARNING, Text(
            N_("You declared bracket %(declared)d, but this list is at least bracket %(floor)d (%(name)s): %(why)s. "
               "Declare bracket %(floor)d or change the list; the staff see this too."),
            declared=declared, floor=report.floor, name=name, why=why)))
    return out


def _with_spelling(findings: list[Finding], deck: ParsedDeck) -> list[Finding]:
    """A card written in another language ("1 祖神兽", "《ゴブリンの長槍使い/Goblin Piker》") is named in
    its findings as the card data has it, with the player's own spelling beside it."""
    written = {e.line: e.name for e in deck.entries() if not e.name.isascii()}
    if not written:
        return findings
    out = []
    for f in findings:
        spelling = printed_part(written[f.line]) if f.card and f.line in written else None
        if spelling and spelling != f.card:
            f = replace(f, message=f.message.replace(f.card, f"{f.card} ({spelling})", 1), written=spelling)
        out.append(f)
    return out


def bounded(findings: list[Finding]) -> list[Finding]:
    """At most MAX_PER_CODE findings of each code, then one that counts the rest: a list of 2,000 junk
    lines gets a readable answer, and storing it costs kilobytes, not megabytes."""
    seen: dict[str, int] = {}
    rest: dict[str, list[Finding]] = {}
    out: list[Finding] = []
    for f in findings:
        seen[f.code] = seen.get(f.code, 0) + 1
        if seen[f.code] <= MAX_PER_CODE:
            out.append(f)
        else:
            rest.setdefault(f.code, []).append(f)
    for code, more in rest.items():
        lines = [f.line for f in more if f.line is not None]
        if lines:
            text = Text(N_("… and %(count)s more like the ones above (lines %(first)s to %(last)s). Fix those first, "
                           "or check that this is the right file."), count=Number(len(more)), first=min(lines),
                        last=max(lines))
        else:
            text = Text(N_("… and %(count)s more like the ones above. Fix those first, or check that this is the "
                           "right file."), count=Number(len(more)))
        out.append(Finding.of(code, more[0].severity, text, line=min(lines, default=None)))
    return out


def findings_within(findings: list[Finding], budget: int) -> list[dict]:
    """The findings as JSON, in order, up to `budget` bytes; the rest counted in one more (an error when one
    of them is), so a stored check stays near a real deck's size."""
    out: list[dict] = []
    used = 0
    for i, f in enumerate(findings):
        as_json = f.to_json()
        used += len(json.dumps(as_json, ensure_ascii=False).encode("utf-8"))
        if used > budget and i < len(findings) - 1:
            rest = findings[i:]
            severity = ERROR if any(r.severity == ERROR for r in rest) else WARNING
            text = Text(N_("… and %(count)s more findings. Fix the ones above first, or check that this is the "
                           "right file."), count=Number(len(rest)))
            out.append(Finding.of(rest[0].code, severity, text, line=rest[0].line).to_json())
            break
        out.append(as_json)
    return out


def shown_name(name: str) -> str:
    return name if len(name) <= LONGEST_NAME_SHOWN else name[:LONGEST_NAME_SHOWN] + "…"
