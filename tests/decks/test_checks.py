"""Deck checks against the real card data (../shared/cards/AtomicCards.json.gz).

Decks are built as ParsedDeck objects directly (so these tests do not depend
on the parser's conventions), except the sample decks, which go through
`parse_decklist` exactly as a player would paste them.
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from tournament.cards.domain import Card, Face
from tournament.cards.importers import read_cards
from tournament.cards.pool import MemoryCardPool
from tournament.decks.checks import CODES, DeckCheck, check_deck, valid_pair
from tournament.decks.domain import Entry, ParsedDeck, UnparsedLine
from tournament.decks.rulesets import (UnknownRuleset, effective_banlist, get_ruleset, list_rulesets,
                                       load_rulesets)

REPO = Path(__file__).resolve().parents[2]
SHARED = REPO.parent / "shared"
ATOMIC = SHARED / "cards" / "AtomicCards.json.gz"
DECKS = SHARED / "decks"
EXPECTED = json.loads((DECKS / "expected.json").read_text()) if (DECKS / "expected.json").exists() else {}

if not ATOMIC.exists():
    pytest.skip(f"{ATOMIC} not found", allow_module_level=True)

BASIC_FOR = {"W": "Plains", "U": "Island", "B": "Swamp", "R": "Mountain", "G": "Forest"}


@pytest.fixture(scope="module")
def cards() -> dict[str, Card]:
    return {c.name: c for c in read_cards(ATOMIC)}


@pytest.fixture(scope="module")
def pool(cards) -> MemoryCardPool:
    return MemoryCardPool(cards.values())


class CountingPool:
    """Wraps a pool and counts resolve() calls."""

    def __init__(self, inner):
        self.inner, self.resolve_calls, self.suggest_calls = inner, 0, 0

    def resolve(self, names):
        self.resolve_calls += 1
        return self.inner.resolve(names)

    def suggest(self, name, limit=5):
        self.suggest_calls += 1
        return self.inner.suggest(name, limit)


def build(commanders=(), main=(), sideboard=(), schemes=(), companions=(), dungeons=(), ignored=(),
          unparsed=(), fill=None, size=100) -> ParsedDeck:
    """A ParsedDeck from (count, name) pairs (a bare name means count 1), numbered like a pasted list.

    `fill` is a list of basic land names: the main deck is topped up with them,
    round robin, until generals + main deck == `size`.
    """
    line = 0
    deck = ParsedDeck()

    def entries(items, section):
        nonlocal line
        out = []
        for item in items:
            count, name = (1, item) if isinstance(item, str) else item
            line += 1
            out.append(Entry(count, name, line, section, f"{count} {name}"))
        return out

    deck.commanders = entries(commanders, "commander")
    main = list(main)
    if fill:
        have = sum(1 if isinstance(i, str) else i[0] for i in (*commanders, *main))
        missing = size - have
        per = [missing // len(fill) + (1 if i < missing % len(fill) else 0) for i in range(len(fill))]
        main += [(n, land) for n, land in zip(per, fill) if n]
    deck.main = entries(main, "main")
    deck.sideboard = entries(sideboard, "sideboard")
    deck.companions = entries(companions, "companion")
    deck.schemes = entries(schemes, "scheme")
    deck.dungeons = entries(dungeons, "dungeon")
    deck.ignored = entries(ignored, "maybeboard")
    deck.unparsed = list(unparsed)
    return deck


def basics(identity) -> list[str]:
    return [BASIC_FOR[c] for c in "WUBRG" if c in identity] or ["Wastes"]


def codes(result: DeckCheck) -> set[str]:
    return {f.code for f in result.findings if f.severity == "error"}


def findings(result: DeckCheck, code: str):
    return [f for f in result.findings if f.code == code]


def general_deck(cards, general, main=(), **kw) -> ParsedDeck:
    return build(commanders=[general], main=main, fill=basics(cards[general].color_identity), **kw)


# ---------------------------------------------------------------- the sample decks

@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_sample_deck_verdict_codes_and_commander(pool, name):
    from tournament.decks.parser import parse_decklist
    expected = EXPECTED[name]
    deck = parse_decklist((DECKS / f"{name}.txt").read_text(encoding="utf-8"))
    result = check_deck(deck, pool, expected["ruleset"])
    assert result.legal is expected["legal"], [f.message for f in result.findings]
    assert codes(result) == set(expected["codes"]), [f.message for f in result.findings]
    assert result.commanders == [expected["commander"]]
    assert result.ruleset == expected["ruleset"]
    if "flagged_cards" in expected:
        flagged = {f.card for f in result.findings if f.code in expected["codes"]}
        assert flagged == set(expected["flagged_cards"])


def test_phelddagrif_flags_exactly_the_ten_cards_of_seed_000(pool):
    from tournament.decks.parser import parse_decklist
    deck = parse_decklist((DECKS / "phelddagrif-edh-2010.txt").read_text(encoding="utf-8"))
    result = check_deck(deck, pool, "edh-2010")
    flagged = [f.card for f in findings(result, "COLOR_IDENTITY")]
    assert sorted(flagged) == sorted(EXPECTED["phelddagrif-edh-2010"]["flagged_cards"])
    assert len(flagged) == 10
    assert "Esper Panorama" not in flagged and "Shard Convergence" not in flagged
    assert result.color_identity == ["W", "U", "G"]
    by_card = {f.card: f for f in findings(result, "COLOR_IDENTITY")}
    # The message names the cause and the colours in words.
    assert "{B} in its rules text" in by_card["Elves of Deep Shadow"].message
    assert "white, blue and green" in by_card["Elves of Deep Shadow"].message
    assert "Phelddagrif" in by_card["Elves of Deep Shadow"].message
    assert "Swamp Mountain: black and red" in by_card["Badlands"].message
    assert "{R} in its mana cost" in by_card["Goblin Piker"].message
    assert "{R/W}" in by_card["Boros Guildmage"].message
    assert "Death" in by_card["Life // Death"].message
    assert all(f.line for f in by_card.values())


# ---------------------------------------------------------------- JSON shape, one resolve call

def test_to_json_shape(pool, cards):
    result = check_deck(general_deck(cards, "Phelddagrif", ["Sol Ring"]), pool, "edh-2010")
    out = result.to_json()
    assert list(out) == ["legal", "ruleset", "commanders", "color_identity", "main_count",
                         "sideboard_count", "findings", "summary", "bracket"]
    assert out["bracket"]["floor"] == 1 and out["bracket"]["reasons"] == []
    assert out["legal"] is True and out["ruleset"] == "edh-2010"
    assert out["commanders"] == ["Phelddagrif"] and out["color_identity"] == ["W", "U", "G"]
    assert out["main_count"] == 99 and out["sideboard_count"] == 0 and out["findings"] == []
    json.dumps(out)


def test_finding_json_shape(pool, cards):
    result = check_deck(general_deck(cards, "Phelddagrif", ["Goblin Piker"]), pool, "edh-2010")
    (f,) = result.to_json()["findings"]
    assert set(f) == {"code", "severity", "card", "line", "message", "suggestions", "written", "template", "params"}
    assert f["written"] is None
    assert f["code"] == "COLOR_IDENTITY" and f["severity"] == "error" and f["card"] == "Goblin Piker"
    assert f["line"] == 2


def test_resolves_every_name_in_one_call_and_suggests_only_for_unknown(pool, cards):
    counting = CountingPool(pool)
    deck = general_deck(cards, "Phelddagrif", ["Sol Ring", "Llanowar Elvs", "Counterspell"],
                        sideboard=["Negate"])
    result = check_deck(deck, counting, "edh-2010")
    assert counting.resolve_calls == 1
    assert counting.suggest_calls == 1
    (unknown,) = findings(result, "UNKNOWN_CARD")
    assert unknown.card == "Llanowar Elvs" and "Llanowar Elves" in unknown.suggestions
    assert "did you mean Llanowar Elves?" in unknown.message


# ---------------------------------------------------------------- colour identity

def test_colourless_general_allows_only_colourless_cards(pool, cards):
    general = "Traxos, Scourge of Kroog"
    assert cards[general].color_identity == ()
    deck = general_deck(cards, general, ["Sol Ring", "Lightning Bolt", "Shard Convergence", "Esper Panorama"])
    result = check_deck(deck, pool, "edh-2010")
    flagged = {f.card: f.message for f in findings(result, "COLOR_IDENTITY")}
    assert set(flagged) == {"Lightning Bolt", "Shard Convergence"}
    assert "colourless" in flagged["Lightning Bolt"]
    assert result.color_identity == []
    assert codes(result) == {"COLOR_IDENTITY"}


def test_identity_from_rules_text_thelon_and_trinisphere_reminder(pool, cards):
    # Thelon of Havenwood ({G} cost, {B} in an ability) makes a deck green and black.
    deck = general_deck(cards, "Ezuri, Renegade Leader", ["Thelon of Havenwood", "Trinisphere"])
    result = check_deck(deck, pool, "duel-cn")
    assert [f.card for f in findings(result, "COLOR_IDENTITY")] == ["Thelon of Havenwood"]
    assert "{B}" in findings(result, "COLOR_IDENTITY")[0].message


# ---------------------------------------------------------------- singleton

def test_relentless_rats_any_number(pool, cards):
    deck = general_deck(cards, "Sheoldred, Whispering One", [(30, "Relentless Rats")])
    assert check_deck(deck, pool, "edh-2010").legal


def test_seven_dwarves_up_to_seven(pool, cards):
    ok = general_deck(cards, "Zada, Hedron Grinder", [(7, "Seven Dwarves")])
    assert check_deck(ok, pool, "edh-2010").legal
    bad = general_deck(cards, "Zada, Hedron Grinder", [(8, "Seven Dwarves")])
    result = check_deck(bad, pool, "edh-2010")
    assert codes(result) == {"SINGLETON"}
    assert "up to 7" in findings(result, "SINGLETON")[0].message


def test_singleton_counts_sideboard_with_main_deck(pool, cards):
    deck = general_deck(cards, "Phelddagrif", ["Counterspell"], sideboard=["Counterspell", "Negate"])
    result = check_deck(deck, pool, "edh-2010")
    (f,) = findings(result, "SINGLETON")
    assert f.card == "Counterspell" and "lines 2 and" in f.message


def test_basic_lands_are_not_singleton(pool, cards):
    deck = general_deck(cards, "Phelddagrif", sideboard=[(3, "Forest")])
    assert check_deck(deck, pool, "edh-2010").legal


def test_general_also_in_the_99(pool, cards):
    deck = general_deck(cards, "Phelddagrif", ["Phelddagrif"])
    result = check_deck(deck, pool, "edh-2010")
    (f,) = findings(result, "SINGLETON")
    assert f.card == "Phelddagrif" and f.line == 2
    assert "already in the command zone" in f.message
    assert codes(result) == {"SINGLETON"}


# ---------------------------------------------------------------- banlists

def test_banned_card_reported_once_and_not_as_not_legal(pool, cards):
    # Library of Alexandria is on the edh-2010 list; Demonic Attorney (an ante card, Banned in
    # Vintage) is on the duel-cn list: both are BANNED only.
    result = check_deck(general_deck(cards, "Phelddagrif", ["Library of Alexandria"]), pool, "edh-2010")
    assert [(f.code, f.card) for f in result.findings] == [("BANNED", "Library of Alexandria")]
    result = check_deck(general_deck(cards, "Sheoldred, Whispering One", ["Demonic Attorney"]), pool, "duel-cn")
    assert [(f.code, f.card) for f in result.findings] == [("BANNED", "Demonic Attorney")]


def test_banlist_edits_add_and_remove(pool, cards):
    deck = general_deck(cards, "Phelddagrif", ["Sol Ring", "Library of Alexandria"])
    plain = check_deck(deck, pool, "edh-2010")
    assert [f.card for f in findings(plain, "BANNED")] == ["Library of Alexandria"]
    edited = check_deck(deck, pool, "edh-2010", banlist_add=["sol ring"], banlist_remove=["LIBRARY OF ALEXANDRIA"])
    assert [f.card for f in findings(edited, "BANNED")] == ["Sol Ring"]
    assert "by this event" in findings(edited, "BANNED")[0].message
    assert codes(edited) == {"BANNED"}
    assert edited.summary["banlist_edits"] == {"added": ["sol ring"], "removed": ["LIBRARY OF ALEXANDRIA"]}


def test_effective_banlist(pool):
    base = effective_banlist("edh-2010")
    assert "Tinker" in base.names and "Riftsweeper" not in base.names and "Grindstone" not in base.names
    edited = effective_banlist(get_ruleset("edh-2010"), add=["Sol Ring", "  sol   ring "], remove=["tinker"])
    assert "Tinker" not in edited.names and "Sol Ring" in edited.names
    assert edited.names.count("Sol Ring") == 1
    assert effective_banlist("commander").card_data_format == "commander"


def test_every_banlist_name_is_a_real_card(pool):
    for ruleset in list_rulesets():
        for name in (*ruleset.banlist, *ruleset.banned_as_general, *ruleset.pool.extra_allowed):
            card = pool.resolve([name])[name]
            assert card is not None and card.name == name, (ruleset.id, name)


def test_commander_banlist_comes_from_card_data_and_can_be_edited(pool, cards):
    deck = general_deck(cards, "Kenrith, the Returned King", ["Library of Alexandria"])
    result = check_deck(deck, pool, "commander")
    assert [(f.code, f.card) for f in result.findings] == [("BANNED", "Library of Alexandria")]
    unbanned = check_deck(deck, pool, "commander", banlist_remove=["Library of Alexandria"])
    assert unbanned.legal, [f.message for f in unbanned.findings]


def test_shahrazad_allowed_under_edh_2010_not_duel_cn(pool, cards):
    assert cards["Shahrazad"].legalities["vintage"] == "Banned"
    deck = general_deck(cards, "Phelddagrif", ["Shahrazad"])
    assert check_deck(deck, pool, "edh-2010").legal
    assert check_deck(deck, pool, "edh-czech").legal
    result = check_deck(deck, pool, "duel-cn")
    assert [(f.code, f.card) for f in result.findings] == [("BANNED", "Shahrazad")]
    # Taken off the duel-cn list by the event, it is still banned in Vintage... but the edit wins.
    assert check_deck(deck, pool, "duel-cn", banlist_remove=["Shahrazad"]).legal


def test_braids_banned_as_general_but_fine_in_the_99(pool, cards):
    as_general = general_deck(cards, "Braids, Cabal Minion")
    result = check_deck(as_general, pool, "edh-2010")
    assert codes(result) == {"BANNED_AS_COMMANDER"}
    assert findings(result, "BANNED_AS_COMMANDER")[0].line == 1
    in_the_99 = general_deck(cards, "Sheoldred, Whispering One", ["Braids, Cabal Minion"])
    assert check_deck(in_the_99, pool, "edh-2010").legal


# ---------------------------------------------------------------- card pool legality

def test_rebalanced_arena_card_not_legal_with_paper_hint(pool, cards):
    deck = general_deck(cards, "Sheoldred, Whispering One", ["A-Blood Artist"])
    result = check_deck(deck, pool, "commander")
    (f,) = findings(result, "NOT_LEGAL")
    assert f.card == "A-Blood Artist" and "Blood Artist instead" in f.message
    assert codes(check_deck(deck, pool, "edh-2010")) == {"NOT_LEGAL"}


def test_un_set_card_not_legal(pool, cards):
    assert cards["Blacker Lotus"].is_funny
    deck = general_deck(cards, "Phelddagrif", ["Blacker Lotus"])
    for ruleset in ("edh-2010", "duel-cn", "commander"):
        result = check_deck(deck, pool, ruleset)
        (f,) = findings(result, "NOT_LEGAL")
        assert f.card == "Blacker Lotus" and "Un-set" in f.message


def test_vintage_banned_card_not_legal(pool, cards):
    deck = general_deck(cards, "Phelddagrif", ["Chaos Orb"])
    result = check_deck(deck, pool, "edh-2010")
    assert [(f.code, f.card) for f in result.findings] == [("NOT_LEGAL", "Chaos Orb")]
    assert "Vintage" in result.findings[0].message


def test_restricted_is_fine_for_vintage_rulesets(pool, cards):
    deck = general_deck(cards, "Phelddagrif", ["Sol Ring", "Mystical Tutor"])
    assert check_deck(deck, pool, "edh-2010").legal


# ---------------------------------------------------------------- generals

@pytest.mark.parametrize("general, words", [
    ("Budoka Pupil", "unflipped"),
    ("Jace, the Mind Sculptor", "planeswalker"),
    ("Dark Depths", "land"),
    ("Gnarlback Rhino", "not legendary"),
])
def test_ineligible_generals(pool, general, words):
    deck = build(commanders=[general], main=[(99, "Wastes")])
    for ruleset in ("edh-2010", "duel-cn"):
        result = check_deck(deck, pool, ruleset)
        (f,) = findings(result, "COMMANDER_INELIGIBLE")
        assert words in f.message and f.line == 1


def test_flip_card_budoka_pupil_resolved_by_front_face(pool):
    result = check_deck(build(commanders=["Budoka Pupil"], main=[(99, "Forest")]), pool, "commander")
    assert result.commanders == ["Budoka Pupil // Ichiga, Who Topples Oaks"]
    assert codes(result) == {"COMMANDER_INELIGIBLE"}


def test_planeswalker_that_can_be_your_commander(pool, cards):
    deck = general_deck(cards, "Teferi, Temporal Archmage")
    assert check_deck(deck, pool, "commander").legal
    assert codes(check_deck(deck, pool, "edh-2010")) == {"COMMANDER_INELIGIBLE"}


def test_partners_under_commander(pool, cards):
    ok = build(commanders=["Thrasios, Triton Hero", "Tymna the Weaver"], fill=["Plains", "Island", "Swamp", "Forest"])
    result = check_deck(ok, pool, "commander")
    assert result.legal, [f.message for f in result.findings]
    assert result.color_identity == ["W", "U", "B", "G"]
    assert result.main_count == 98
    # Colours outside both partners are still refused.
    off = build(commanders=["Thrasios, Triton Hero", "Tymna the Weaver"], main=["Lightning Bolt"],
                fill=["Island"])
    assert codes(check_deck(off, pool, "commander")) == {"COLOR_IDENTITY"}
    # edh-2010 has one general.
    assert codes(check_deck(ok, pool, "edh-2010")) == {"COMMANDER_INELIGIBLE"}


def test_two_non_partners_invalid(pool):
    deck = build(commanders=["Phelddagrif", "Sheoldred, Whispering One"], fill=["Island", "Swamp"])
    result = check_deck(deck, pool, "commander")
    assert codes(result) == {"COMMANDER_INELIGIBLE"}
    assert "cannot be commanders together" in findings(result, "COMMANDER_INELIGIBLE")[0].message


def test_partner_with_names_each_other(pool):
    ok = build(commanders=["Pir, Imaginative Rascal", "Toothy, Imaginary Friend"], fill=["Island", "Forest"])
    assert check_deck(ok, pool, "commander").legal
    bad = build(commanders=["Pir, Imaginative Rascal", "Thrasios, Triton Hero"], fill=["Island", "Forest"])
    assert codes(check_deck(bad, pool, "commander")) == {"COMMANDER_INELIGIBLE"}


def test_friends_forever_pair(pool, cards):
    a, b = "Bjorna, Nightfall Alchemist", "Cecily, Haunted Mage"
    if a not in cards or b not in cards:
        pytest.skip("no Friends forever cards in this card data")
    deck = build(commanders=[a, b], fill=["Island", "Swamp", "Mountain"])
    assert check_deck(deck, pool, "commander").legal


def _card(name, type_line, text="", ci=(), keywords=(), mv=3.0):
    left, _, right = type_line.partition(" — ")
    words = left.split()
    sup = tuple(w for w in words if w in ("Legendary", "Basic", "Snow"))
    face = Face(name=name, type_line=type_line, supertypes=sup, types=tuple(w for w in words if w not in sup),
                subtypes=tuple(right.split()), text=text)
    return Card(name=name, faces=(face,), color_identity=tuple(ci), keywords=tuple(keywords),
                legalities={"commander": "Legal", "vintage": "Legal"}, mana_value=mv,
                can_be_commander="Creature" in face.types and "Legendary" in sup)


def test_background_and_doctor_pairs_with_constructed_cards(cards):
    # Commander Legends: Battle for Baldur's Gate (June 2022) and Doctor Who are after this card data.
    assert not any("Choose a Background" in c.text for c in cards.values())
    chooser = _card("Test Chooser", "Legendary Creature — Elf", "Choose a Background", "G", ["Choose a Background"])
    background = _card("Test Background", "Legendary Enchantment — Background",
                       "Commander creatures you own have trample.", "R")
    companion = _card("Test Companion", "Legendary Creature — Human", "Doctor's companion", "W", ["Doctor's companion"])
    doctor = _card("Test Doctor", "Legendary Creature — Time Lord Doctor", "", "U")
    plain = _card("Test Plain", "Legendary Creature — Human", "", "B")
    assert valid_pair(chooser, background) and valid_pair(background, chooser)
    assert valid_pair(companion, doctor)
    assert not valid_pair(chooser, plain) and not valid_pair(companion, plain) and not valid_pair(plain, background)
    small = MemoryCardPool([chooser, background, companion, doctor, plain, *(cards[n] for n in (
        "Forest", "Mountain", "Plains", "Island", "Swamp"))])
    ok = build(commanders=["Test Chooser", "Test Background"], fill=["Forest", "Mountain"])
    assert check_deck(ok, small, "commander").legal
    alone = build(commanders=["Test Background"], fill=["Mountain"])
    result = check_deck(alone, small, "commander")
    assert codes(result) == {"COMMANDER_INELIGIBLE"} and "Background" in result.findings[0].message
    doctor_pair = build(commanders=["Test Companion", "Test Doctor"], fill=["Plains", "Island"])
    assert check_deck(doctor_pair, small, "commander").legal
    nope = build(commanders=["Test Chooser", "Test Plain"], fill=["Forest", "Swamp"])
    assert codes(check_deck(nope, small, "commander")) == {"COMMANDER_INELIGIBLE"}


def test_no_commander(pool):
    result = check_deck(build(main=[(100, "Island")]), pool, "edh-2010")
    assert codes(result) == {"NO_COMMANDER"}
    assert result.commanders == [] and result.color_identity == []


# ---------------------------------------------------------------- sizes

def test_deck_size(pool, cards):
    short = build(commanders=["Phelddagrif"], main=[(98, "Island")])
    result = check_deck(short, pool, "edh-2010")
    assert codes(result) == {"DECK_SIZE"} and "add 1" in result.findings[0].message
    long = build(commanders=["Phelddagrif"], main=[(100, "Island")])
    assert "remove 1" in check_deck(long, pool, "edh-czech").findings[0].message


@pytest.mark.parametrize("ruleset, limit", [("edh-2010", 10), ("edh-czech", 15), ("duel-cn", 10), ("commander", 0)])
def test_sideboard_limits(pool, cards, ruleset, limit):
    side = ["Negate", "Dissolve", "Counterspell", "Mana Leak", "Daze", "Forbid", "Memory Lapse",
            "Remand", "Arcane Denial", "Power Sink", "Spell Pierce", "Miscalculation", "Exclude",
            "Hinder", "Dovin's Veto", "Lat-Nam's Legacy"][:limit]
    ok = general_deck(cards, "Phelddagrif", sideboard=side)
    assert check_deck(ok, pool, ruleset).legal, [f.message for f in check_deck(ok, pool, ruleset).findings]
    over = general_deck(cards, "Phelddagrif", sideboard=[*side, "Essence Scatter"])
    result = check_deck(over, pool, ruleset)
    assert codes(result) == {"SIDEBOARD_SIZE"}
    assert result.sideboard_count == limit + 1


def test_arena_companion_listed_twice_is_one_card(pool, cards):
    deck = general_deck(cards, "Phelddagrif", companions=["Lurrus of the Dream-Den"],
                        sideboard=["Lurrus of the Dream-Den"])
    # Lurrus is white and black: outside Phelddagrif's identity, but one card, not two.
    result = check_deck(deck, pool, "edh-2010")
    assert codes(result) == {"COLOR_IDENTITY"}
    assert result.sideboard_count == 1
    commander = build(commanders=["Tymna the Weaver"], companions=["Lurrus of the Dream-Den"],
                      sideboard=["Lurrus of the Dream-Den"], fill=["Plains", "Swamp"])
    result = check_deck(commander, pool, "commander")
    assert result.legal, [f.message for f in result.findings]


# ---------------------------------------------------------------- other codes

def test_unparsed_lines_are_errors(pool, cards):
    deck = general_deck(cards, "Phelddagrif", unparsed=[UnparsedLine(7, "x" * 40, "line too long")])
    result = check_deck(deck, pool, "edh-2010")
    assert codes(result) == {"UNPARSED_LINE"} and result.findings[0].line == 7


def test_maybeboard_is_a_warning_only(pool, cards):
    deck = general_deck(cards, "Phelddagrif", ignored=["Black Lotus", "Goblin Piker"])
    result = check_deck(deck, pool, "edh-2010")
    assert result.legal
    assert [(f.code, f.severity) for f in result.findings] == [("IGNORED", "warning")]
    assert result.summary["sections"]["maybeboard"] == 2


def test_schemes(pool, cards):
    names = sorted(n for n, c in cards.items() if "Scheme" in c.types)
    assert len(names) >= 20
    general = "Phelddagrif"
    ok = general_deck(cards, general, schemes=names[:20])
    assert check_deck(ok, pool, "edh-2010").legal
    nineteen = general_deck(cards, general, schemes=names[:19])
    result = check_deck(nineteen, pool, "edh-2010")
    assert codes(result) == {"SCHEME_DECK"} and "19 schemes" in result.findings[0].message
    three = general_deck(cards, general, schemes=[(3, names[0]), *names[1:20]])
    result = check_deck(three, pool, "edh-2010")
    assert [f.card for f in findings(result, "SCHEME_DECK")] == [names[0]]


def test_schemes_listed_in_the_main_deck_move_to_the_scheme_deck(pool, cards):
    names = sorted(n for n, c in cards.items() if "Scheme" in c.types)[:20]
    deck = general_deck(cards, "Phelddagrif", names)     # 20 schemes + general + 79 basics
    result = check_deck(deck, pool, "edh-2010")
    assert codes(result) == {"DECK_SIZE"}          # the schemes do not count toward 100
    assert result.main_count == 79 and result.summary["sections"]["scheme"] == 20
    assert "SCHEME_DECK" not in codes(result)


def test_no_scheme_check_without_schemes(pool, cards):
    assert "SCHEME_DECK" not in codes(check_deck(general_deck(cards, "Phelddagrif"), pool, "edh-2010"))


def test_dungeons_listed_not_counted(pool, cards):
    deck = general_deck(cards, "Phelddagrif", dungeons=["Lost Mine of Phandelver", "Tomb of Annihilation"])
    result = check_deck(deck, pool, "edh-2010")
    assert result.legal
    assert result.summary["dungeons"] == ["Lost Mine of Phandelver", "Tomb of Annihilation"]


def test_all_findings_reported_not_only_the_first(pool, cards):
    deck = build(
        commanders=["Phelddagrif"],
        main=["Goblin Piker", "Library of Alexandria", "Chaos Orb", (2, "Counterspell"), "Llanowar Elvs"],
        sideboard=["Negate"] * 11,
        unparsed=[UnparsedLine(120, "1x", "no card name")],
    )
    result = check_deck(deck, pool, "edh-2010")
    assert codes(result) == {"COLOR_IDENTITY", "BANNED", "NOT_LEGAL", "SINGLETON", "UNKNOWN_CARD",
                             "SIDEBOARD_SIZE", "DECK_SIZE", "UNPARSED_LINE"}
    assert not result.legal
    assert set(codes(result)) <= set(CODES)


def test_summary(pool, cards):
    deck = general_deck(cards, "Phelddagrif", ["Sol Ring", "Llanowar Elves", "Counterspell", "Wrath of God",
                                               "Tropical Island", "Craterhoof Behemoth"])
    summary = check_deck(deck, pool, "edh-2010").summary
    assert summary["color_identity"] == ["W", "U", "G"]
    assert summary["deck_size"] == 100
    assert summary["types"]["Artifact"] == 1 and summary["types"]["Creature"] == 2
    assert summary["types"]["Instant"] == 1 and summary["types"]["Sorcery"] == 1
    assert summary["types"]["Land"] == 94
    assert sum(summary["types"].values()) == 99
    assert summary["mana_curve"]["1"] == 2 and summary["mana_curve"]["2"] == 1
    assert summary["mana_curve"]["4"] == 1 and summary["mana_curve"]["7+"] == 1   # Craterhoof: 8
    assert sum(summary["mana_curve"].values()) == 5
    assert summary["sections"]["commander"] == 1 and summary["sections"]["main"] == 99


# ---------------------------------------------------------------- rulesets as data

def test_rulesets_load():
    rulesets = load_rulesets()
    assert sorted(rulesets) == ["commander", "duel-cn", "edh-2010", "edh-czech"]
    assert [r.id for r in list_rulesets()] == sorted(rulesets)
    assert {r.id: r.sideboard_max for r in rulesets.values()} == {
        "edh-2010": 10, "edh-czech": 15, "duel-cn": 10, "commander": 0}
    assert all(r.deck_size == 100 and r.singleton_includes_sideboard and r.poison_threshold == 10
               for r in rulesets.values())
    assert rulesets["duel-cn"].general_tax_kind == "death-counter" and rulesets["duel-cn"].mode == "duel"
    assert rulesets["edh-2010"].general_tax_kind == "per-cast"
    assert rulesets["edh-2010"].pool.extra_allowed == ("Shahrazad",)
    assert rulesets["duel-cn"].pool.extra_allowed == ()
    assert rulesets["commander"].banlist_from_card_data == "commander"
    assert rulesets["edh-czech"].banlist == rulesets["edh-2010"].banlist
    assert "Braids, Cabal Minion" in rulesets["edh-2010"].banned_as_general
    assert get_ruleset("edh-2010") is rulesets["edh-2010"]
    json.dumps(rulesets["duel-cn"].to_json())


def test_unknown_ruleset_lists_valid_ones(pool):
    with pytest.raises(UnknownRuleset) as err:
        get_ruleset("edh-2099")
    assert "edh-2099" in str(err.value)
    for rid in ("commander", "duel-cn", "edh-2010", "edh-czech"):
        assert rid in str(err.value)
    with pytest.raises(UnknownRuleset):
        check_deck(build(commanders=["Phelddagrif"]), pool, "nope")


def test_suggestions_are_capped_for_a_page_of_nonsense(pool):
    from tournament.decks.checks import MAX_PER_CODE, MAX_SUGGESTED
    counting = CountingPool(pool)
    deck = build(commanders=["Phelddagrif"], main=[f"Nonsense Card {i}" for i in range(60)])
    result = check_deck(deck, counting, "edh-2010")
    unknown = findings(result, "UNKNOWN_CARD")
    assert len(unknown) == MAX_PER_CODE + 1 == 51
    assert [f.card for f in unknown[:MAX_PER_CODE]] == [f"Nonsense Card {i}" for i in range(50)]
    assert unknown[-1].message.startswith("… and 10 more like the ones above (lines 52 to 61)")
    assert result.legal is False
    assert counting.suggest_calls == MAX_SUGGESTED and counting.resolve_calls == 1


def test_a_very_long_junk_name_is_shown_shortened():
    from tournament.decks.checks import LONGEST_NAME_SHOWN, shown_name
    assert shown_name("x" * 500) == "x" * LONGEST_NAME_SHOWN + "…"
    assert shown_name("Sol Ring") == "Sol Ring"
