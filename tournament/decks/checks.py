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
which are not part of the deck) and COMMANDER_FROM_SIDEBOARD (how a list with
no commander section was read).

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
from tournament.decks.domain import Entry, Finding, ParsedDeck
from tournament.decks.rulesets import Ruleset, card_key, effective_banlist, get_ruleset

ERROR, WARNING = "error", "warning"

CODES = (
    "UNPARSED_LINE", "UNKNOWN_CARD", "NO_COMMANDER", "COMMANDER_INELIGIBLE", "BANNED_AS_COMMANDER",
    "DECK_SIZE", "SIDEBOARD_SIZE", "BANNED", "NOT_LEGAL", "COLOR_IDENTITY", "SINGLETON",
    "SCHEME_DECK", "BRACKET", "IGNORED", "COMMANDER_FROM_SIDEBOARD",
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
            "findings": [f.to_json() for f in self.findings],
            "summary": self.summary,
            "bracket": self.bracket,
        }


# ---------------------------------------------------------------- wording helpers

def color_words(colors: Iterable[str]) -> str:
    colors = set(colors)
    words = [COLOR_WORDS[c] for c in COLOR_ORDER if c in colors]
    if not words:
        return "colourless"
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def _and(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def _lines(entries: list[Entry]) -> str:
    nums = sorted({e.line for e in entries})
    return ("line " if len(nums) == 1 else "lines ") + _and([str(n) for n in nums])


def _plural(n: int, word: str, plural: str | None = None) -> str:
    return f"{n} {word if n == 1 else (plural or word + 's')}"


def _symbol_colors(symbol: str) -> set[str]:
    return {ch for ch in symbol if ch in COLOR_WORDS}


def identity_causes(card: Card, outside: set[str]) -> str:
    """Why a card has the colours in `outside`, for the player: its basic land types,
    colour symbols in its mana cost or rules text (reminder text does not count)."""
    faces = card.faces or (card.front,)
    multi = len(faces) > 1
    parts: list[str] = []
    basics = list(dict.fromkeys(t for f in faces for t in f.subtypes if t in BASIC_LAND_COLORS))
    if basics and {BASIC_LAND_COLORS[t] for t in basics} & outside:
        parts.append(f"is a {' '.join(basics)}: {color_words({BASIC_LAND_COLORS[t] for t in basics})}")
    found: list[str] = []
    colors: set[str] = set()
    for kind in ("mana cost", "rules text"):
        for face in faces:
            source = face.mana_cost if kind == "mana cost" else _REMINDER.sub("", face.text or "")
            syms = list(dict.fromkeys(s for s in _SYMBOL.findall(source or "") if _symbol_colors(s) & outside))
            if syms:
                colors.update(*map(_symbol_colors, syms))
                where = f"the {kind} of {face.name}" if multi else f"its {kind}"
                found.append(f"{_and(['{' + s + '}' for s in syms])} in {where}")
    if found:
        parts.append(f"has {_and(found)} ({color_words(colors & outside)})")
    parts.extend(_indicator_causes(card, faces, outside - colors))
    if not parts:
        return f"{card.name}'s colour identity includes {color_words(outside)}"
    return f"{card.name} " + ", and ".join(parts)


def _indicator_causes(card: Card, faces, outside: set[str]) -> list[str]:
    """Colours a face has without their mana symbols: "is all colors" in its text, or a colour indicator
    (Dryad Arbor, Rograkh, a transformed back face such as Ormendahl), or the two halves of a meld."""
    if card.is_meld_result and outside:
        return [f"is the melded result of two cards, and its colour identity ({color_words(outside)}) is theirs"]
    parts = []
    for i, face in enumerate(faces):
        cost = {ch for sym in _SYMBOL.findall(face.mana_cost or "") for ch in _symbol_colors(sym)}
        shown = (set(face.colors) & outside) - cost
        if not shown:
            continue
        where = "" if len(faces) == 1 else (f" on its back face, {face.name}" if i else f" on {face.name}")
        if _ALL_COLORS.search(face.text or ""):
            parts.append(f"says it is all colours{where} (so {color_words(shown)} too)")
        else:
            parts.append(f"has a {color_words(shown)} colour indicator{where}")
        outside = outside - shown
    return parts


def _general_phrase(commanders: list[Card], identity: set[str]) -> str:
    if len(commanders) == 1:
        who = f"your general {commanders[0].name}"
        verb = "allows"
    else:
        who = f"your generals {_and([c.name for c in commanders])}"
        verb = "allow"
    if not identity:
        return f"{who} {'is' if len(commanders) == 1 else 'are'} colourless, so only colourless cards are allowed"
    return f"{who} {verb} only {color_words(identity)}"


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


def _ineligible_reason(card: Card, ruleset: Ruleset) -> str | None:
    """Why this card cannot be a general on its own, or None if it can."""
    if card.is_meld_result:
        return (f"{card.name} is the melded result of two cards: it exists only on the battlefield and is never "
                "in a deck, so it cannot be your general.")
    if _is_legendary_creature(card):
        return None
    modern = ruleset.commander_rules == "commander"
    if modern and card.can_be_commander:
        return None
    front = card.front
    need = ("a commander must be a legendary creature or say it can be your commander" if modern
            else "a general must be a legendary creature")
    if card.layout == "flip" and len(card.faces) > 1 and "Legendary" in card.faces[1].supertypes:
        return (f"{card.name} is judged by its unflipped side, {front.name}, which is not a legendary "
                f"creature; {need}.")
    if "Planeswalker" in front.types:
        return f"{card.name} is a planeswalker, not a creature; {need}."
    if "Land" in front.types:
        return f"{card.name} is a land (whatever it can make), not a creature; {need}."
    if modern and _is_background(card):
        return (f"{card.name} is a Background: it can be your commander only together with a creature "
                "that has \"Choose a Background\".")
    if "Creature" in front.types:
        return f"{card.name} is not legendary; {need}."
    kind = " ".join(front.supertypes + front.types).lower() or "card"
    return f"{card.name} is a {kind}, not a creature; {need}."


# ---------------------------------------------------------------- the check

def check_deck(deck: ParsedDeck, pool: CardPool, ruleset, banlist_add: Iterable[str] = (),
               banlist_remove: Iterable[str] = (), max_bracket: int | None = None,
               declared_bracket: int | None = None, brackets: BracketRules | None = None) -> DeckCheck:
    rs = get_ruleset(ruleset)
    banlist = effective_banlist(rs, banlist_add, banlist_remove)
    findings: list[Finding] = []
    add = findings.append

    for u in deck.unparsed:
        add(Finding("UNPARSED_LINE", ERROR, f"This line could not be read ({u.reason}): {shown_name(u.text)!r}. "
                    "Write it as a count and a card name, like \"1 Sol Ring\", or remove it.", line=u.line))
    if deck.ignored:
        n = sum(e.count for e in deck.ignored)
        add(Finding("IGNORED", WARNING, f"{_plural(n, 'card')} in the maybeboard or in categories left out of "
                    f"the deck ({_lines(deck.ignored)}) {'is' if n == 1 else 'are'} not part of the deck and "
                    f"{'was' if n == 1 else 'were'} not checked.", line=deck.ignored[0].line))

    # One look-up for every name in the list.
    names = list(dict.fromkeys(e.name for lst in (deck.commanders, deck.main, deck.sideboard,
                                                   deck.companions, deck.schemes) for e in lst))
    resolved = pool.resolve(names) if names else {}
    get = resolved.get
    unknown: dict[str, Entry] = {}
    schemes: list[tuple[Entry, Card | None]] = []

    def zone(entries: list[Entry], divert_schemes: bool) -> list[tuple[Entry, Card | None]]:
        out = []
        for e in entries:
            card = get(e.name)
            if card is None:
                if e.name not in unknown:
                    unknown[e.name] = e
            elif divert_schemes and card.faces and "Scheme" in card.faces[0].types:
                schemes.append((e, card))
                continue
            out.append((e, card))
        return out

    # Sort entries into zones; schemes go to the scheme deck wherever they were listed.
    commanders = zone(deck.commanders, False)
    main = zone(deck.main, True)
    side = zone(deck.sideboard, True)
    companions = zone(deck.companions, False)
    schemes.extend(zone(deck.schemes, False))

    for i, (name, e) in enumerate(unknown.items()):
        # Suggestions cost milliseconds each: a pasted page of nonsense must not cost seconds.
        suggestions = tuple(pool.suggest(name)) if i < MAX_SUGGESTED else ()
        hint = f"; did you mean {suggestions[0]}?" if suggestions else ". Check the spelling."
        add(Finding("UNKNOWN_CARD", ERROR, f"\"{shown_name(name)}\" is not a card name we know{hint}",
                    card=shown_name(name), line=e.line, suggestions=suggestions))

    commander_count = sum(e.count for e, _ in commanders)
    main_count = sum(e.count for e, _ in main)
    side_raw = sum(e.count for e, _ in side)
    companion_count = sum(e.count for e, _ in companions)

    # Arena lists the companion in "Companion" and again in "Sideboard": one card, not two.
    absorbed: set[str] = set()
    if companions:
        companion_names = {c.name for _, c in companions if c is not None}
        absorbed = {c.name for _, c in side if c is not None and c.name in companion_names}
    side_count = side_raw - len(absorbed)
    if rs.companion == "sideboard":
        side_count += companion_count

    # ---- generals
    known_generals = list({c.name: c for _, c in commanders if c is not None}.values())
    identity = set().union(*(c.color_identity for c in known_generals)) if known_generals else set()
    general_names = {c.name for c in known_generals}
    if not commanders and (read := _command_zone_in_sideboard(main, side, rs)):
        commanders = [(Entry(e.count, e.name, e.line, "commander", e.raw), c) for e, c in read]
        side = [pair for pair in side if pair not in read]
        side_raw -= len(read)
        side_count -= len(read)
        commander_count = len(read)
        known_generals = [c for _, c in read]
        identity = set().union(*(c.color_identity for c in known_generals))
        general_names = {c.name for c in known_generals}
        add(Finding("COMMANDER_FROM_SIDEBOARD", WARNING,
                    f"The list has no Commander section, so the sideboard's {_and([c.name for c in known_generals])} "
                    f"{'was' if len(read) == 1 else 'were'} read as your "
                    f"{'general' if len(read) == 1 else 'generals'} (MTGO and XMage keep the commander in the "
                    "sideboard). If that is wrong, put the general under a \"Commander\" heading.",
                    card=known_generals[0].name, line=read[0][0].line))
    if not commanders:
        add(Finding("NO_COMMANDER", ERROR, "The list names no general. Put it under a \"Commander\" heading "
                    "(or mark it *CMDR*, or write \"Commander: <name>\") above the other cards."))
    distinct_generals = len({(c.name if c is not None else e.name) for e, c in commanders})
    if distinct_generals > rs.max_generals:
        listed = _and([c.name if c is not None else e.name for e, c in commanders])
        allowed = "one general" if rs.max_generals == 1 else f"at most {rs.max_generals} commanders"
        add(Finding("COMMANDER_INELIGIBLE", ERROR, f"{rs.name} allows {allowed}; the list names "
                    f"{distinct_generals}: {listed}.", line=commanders[rs.max_generals][0].line))
    pair_ok = (len(known_generals) == 2 and rs.commander_rules == "commander"
               and valid_pair(known_generals[0], known_generals[1]))
    seen_general: set[str] = set()
    for e, card in commanders:
        if card is None or card.name in seen_general:
            continue
        seen_general.add(card.name)
        if card_key(card.name) in rs.banned_as_general_keys:
            add(Finding("BANNED_AS_COMMANDER", ERROR, f"{card.name} is banned as a general under {rs.name}. "
                        "It may be in the deck, but choose another general.", card=card.name, line=e.line))
        reason = None if (pair_ok and _is_background(card)) else _ineligible_reason(card, rs)
        if reason:
            add(Finding("COMMANDER_INELIGIBLE", ERROR, reason, card=card.name, line=e.line))
    if (len(known_generals) == 2 and rs.max_generals >= 2 and rs.commander_rules == "commander"
            and not pair_ok):
        a, b = known_generals
        add(Finding("COMMANDER_INELIGIBLE", ERROR,
                    f"{a.name} and {b.name} cannot be commanders together: two commanders must both have "
                    "Partner, name each other with \"Partner with\", both have \"Friends forever\", or be a "
                    "\"Choose a Background\" creature with a Background, or a \"Doctor's companion\" with a "
                    "Time Lord Doctor.", card=b.name, line=commanders[-1][0].line))

    # ---- every card the player owns in the deck: legality, identity, singleton
    singleton_side = rs.singleton_includes_sideboard
    totals: dict[str, int] = {}
    where: dict[str, list[Entry]] = {}
    first: dict[str, tuple[Entry, Card]] = {}
    for zone_entries, counted in ((commanders, True), (main, True), (side, singleton_side),
                                  (companions, singleton_side)):
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
        for n in absorbed:
            totals[n] -= 1

    pool_rule = rs.pool
    fmt, allow = pool_rule.format, pool_rule.allow
    extra = pool_rule.extra_keys
    reject_funny = pool_rule.reject_funny
    banned_keys, data_format, removed_keys = banlist.keys, banlist.card_data_format, banlist.removed_keys
    check_identity = bool(known_generals)
    added_keys = {card_key(a) for a in banlist.added} if banlist.added else set()
    for n, (e, card) in first.items():
        key = card_key(n)
        legality = card.legalities.get(fmt, "Not Legal")
        if key in banned_keys:
            banned = True
        elif card.faces and card.faces[0].name != n and card_key(card.faces[0].name) in banned_keys:
            banned = True
        elif data_format:
            banned = (legality if data_format == fmt else card.legalities.get(data_format)) == "Banned" \
                and key not in removed_keys
        else:
            banned = False
        if banned:
            by_event = key in added_keys
            add(Finding("BANNED", ERROR, f"{n} is banned " + ("by this event." if by_event else f"under {rs.name}."),
                        card=n, line=e.line))
        elif legality not in allow or n.startswith("A-") or (reject_funny and card.is_funny) or card.is_meld_result:
            reason = None
            if card.is_meld_result:
                reason = (f"{n} is the melded result of two cards, not a card a deck can hold; list the two "
                          "cards that meld into it instead.")
            elif card.is_rebalanced:
                reason = (f"{n} is Arena's rebalanced version of {card.paper_name}, not a paper card; "
                          f"list {card.paper_name} instead.")
            elif card.is_funny and reject_funny:
                reason = f"{n} is an Un-set (silver-bordered) card; those are not allowed under {rs.name}."
            elif not (extra and key in extra) and not (legality == "Banned" and key in removed_keys):
                if card.is_funny:
                    reason = f"{n} is an Un-set (silver-bordered) card and is not legal under {rs.name}."
                elif legality == "Banned":
                    reason = f"{n} is banned in {fmt.capitalize()}, so it is not allowed under {rs.name}."
                else:
                    reason = f"{n} is not legal in {fmt.capitalize()}, so it is not allowed under {rs.name}."
            if reason:
                add(Finding("NOT_LEGAL", ERROR, reason, card=n, line=e.line))
        if check_identity and n not in general_names:
            ci = card.color_identity
            if ci and not identity.issuperset(ci):
                outside = set(ci) - identity
                add(Finding("COLOR_IDENTITY", ERROR,
                            identity_causes(card, outside) + "; " + _general_phrase(known_generals, identity) + ".",
                            card=n, line=e.line))
        limit = card.copy_limit
        if limit is not None and totals[n] > limit:
            total = totals[n]
            entries = where[n]
            if n in general_names:
                extra_entries = [x for x in entries if x.section != "commander"]
                if extra_entries:
                    add(Finding("SINGLETON", ERROR,
                                f"{n} is your general and is already in the command zone; remove it from the "
                                f"{'sideboard' if extra_entries[0].section == 'sideboard' else 'main deck'} "
                                f"({_lines(extra_entries)}).", card=n, line=extra_entries[0].line))
                else:
                    add(Finding("SINGLETON", ERROR, f"{n} is listed {total} times as the general; list it once.",
                                card=n, line=entries[0].line))
                continue
            allowed = "one copy" if limit == 1 else f"up to {limit} copies"
            scope = "main deck and sideboard together" if singleton_side and side else "the deck"
            add(Finding("SINGLETON", ERROR, f"{n}: {total} copies ({_lines(entries)}); {scope} may hold "
                        f"{allowed} of a card, except basic lands.", card=n, line=entries[-1].line))

    # ---- sizes
    total = commander_count + main_count
    if total != rs.deck_size:
        diff = rs.deck_size - total
        gen = "general" if commander_count <= 1 else "generals"
        add(Finding("DECK_SIZE", ERROR,
                    f"The deck has {total} cards including the {gen} ({commander_count} + {main_count}); "
                    f"{rs.name} needs exactly {rs.deck_size}: {'add' if diff > 0 else 'remove'} {abs(diff)}."))
    if side_count > rs.sideboard_max:
        if rs.sideboard_max == 0:
            msg = (f"{rs.name} has no sideboard; remove the {_plural(side_count, 'sideboard card')} "
                   "(or put them under a \"Maybeboard\" heading).")
        else:
            msg = (f"The sideboard has {side_count} cards; {rs.name} allows at most {rs.sideboard_max}: "
                   f"remove {side_count - rs.sideboard_max}.")
        add(Finding("SIDEBOARD_SIZE", ERROR, msg, line=side[0][0].line if side else None))
    elif rs.sideboard_exact and 0 < side_count != rs.sideboard_max:
        add(Finding("SIDEBOARD_SIZE", ERROR, f"The sideboard has {side_count} cards; {rs.name} needs exactly "
                    f"{rs.sideboard_max} or none.", line=side[0][0].line if side else None))
    if rs.companion == "outside" and companion_count > 1:
        add(Finding("SIDEBOARD_SIZE", ERROR, f"The list has {companion_count} companions; only one card may "
                    "start outside the deck as a companion.", line=companions[0][0].line))

    # ---- Archenemy scheme deck
    if schemes:
        scheme_totals: Counter = Counter()
        scheme_lines: dict[str, list[Entry]] = {}
        for e, card in schemes:
            if card is None:
                continue
            if not _is_scheme(card):
                add(Finding("SCHEME_DECK", ERROR, f"{card.name} is not a scheme card; move it out of the "
                            "scheme deck.", card=card.name, line=e.line))
                continue
            scheme_totals[card.name] += e.count
            scheme_lines.setdefault(card.name, []).append(e)
        scheme_count = sum(scheme_totals.values())
        if scheme_count < SCHEME_MIN:
            add(Finding("SCHEME_DECK", ERROR, f"The scheme deck has {_plural(scheme_count, 'scheme')}; an "
                        f"archenemy needs at least {SCHEME_MIN}.", line=schemes[0][0].line))
        for n, count in scheme_totals.items():
            if count > SCHEME_MAX_COPIES:
                add(Finding("SCHEME_DECK", ERROR, f"{n}: {count} copies in the scheme deck "
                            f"({_lines(scheme_lines[n])}); at most {SCHEME_MAX_COPIES} schemes may share a name.",
                            card=n, line=scheme_lines[n][0].line))

    report = bracket_report((c for zone_entries in (commanders, main) for _, c in zone_entries if c is not None),
                            brackets)
    findings.extend(bracket_findings(report, max_bracket, declared_bracket))
    findings.sort(key=lambda f: (f.line is not None, f.line or 0, _CODE_ORDER.get(f.code, 99)))

    # ---- summary
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
    color_identity = [c for c in COLOR_ORDER if c in identity]
    summary = {
        "color_identity": color_identity,
        "deck_size": total,
        "types": types,
        "mana_curve": curve,
        "sections": {
            "commander": commander_count, "main": main_count, "sideboard": side_raw,
            "companion": companion_count, "scheme": sum(e.count for e, _ in schemes),
            "dungeon": sum(e.count for e in deck.dungeons), "maybeboard": sum(e.count for e in deck.ignored),
        },
        "dungeons": list(dict.fromkeys(e.name for e in deck.dungeons)),
        "banlist_edits": {"added": list(banlist.added), "removed": list(banlist.removed)},
    }
    return DeckCheck(
        legal=not any(f.severity == ERROR for f in findings),
        ruleset=rs.id,
        commanders=list(dict.fromkeys(c.name if c is not None else e.name for e, c in commanders)),
        color_identity=color_identity,
        main_count=main_count,
        sideboard_count=side_count,
        findings=bounded(_with_spelling(findings, deck)),
        summary=summary,
        bracket=report.to_json(),
    )


def bracket_findings(report, max_bracket: int | None, declared: int | None) -> list[Finding]:
    """The bracket floor against the event's maximum (an error) and the player's declared bracket (a warning
    the staff see). The reasons say what in the list sets the floor; intent is for people to judge."""
    out = []
    why = "; ".join(report.causes)
    if max_bracket and report.floor > max_bracket:
        out.append(Finding("BRACKET", ERROR, f"This event allows decks up to bracket {max_bracket}; this list is at "
                           f"least bracket {report.floor} ({report.name}): {why}."))
    if declared and report.floor > declared:
        out.append(Finding("BRACKET", WARNING, f"You declared bracket {declared}, but this list is at least bracket "
                           f"{report.floor} ({report.name}): {why}. Declare bracket {report.floor} or change the "
                           "list; the staff see this too."))
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
        where = f" (lines {min(lines)} to {max(lines)})" if lines else ""
        out.append(Finding(code, more[0].severity, f"… and {len(more):,} more like the ones above{where}. "
                           "Fix those first, or check that this is the right file.", line=min(lines, default=None)))
    return out


def shown_name(name: str) -> str:
    return name if len(name) <= LONGEST_NAME_SHOWN else name[:LONGEST_NAME_SHOWN] + "…"
