"""The scheme-list check (pure): a pasted list or a registered decklist's schemes against real card data from
../shared/cards (RULES.md "Archenemy", CR 904.3: at least 20 scheme cards, at most two of an English name)."""
import pytest

from tournament.cards.importers import card_from_mtgjson
from tournament.decks.parser import parse_decklist
from tournament.games import archenemy as arch

from tests.games.schemecards import ATOMIC_CARDS, real_cards, scheme_list

pytestmark = pytest.mark.skipif(not ATOMIC_CARDS.exists(), reason=f"{ATOMIC_CARDS} not found")


def pool():
    """name as written -> Card, as the card look-up answers (case-insensitively, by the English name)."""
    data = real_cards()["file"]["data"]
    cards = {name: card_from_mtgjson(name, faces) for name, faces in data.items()}
    return {**cards, **{name.lower(): card for name, card in cards.items()}}


def check(text, hints=None):
    listed = arch.read_scheme_list(parse_decklist(text))
    cards = pool()
    return arch.scheme_deck(listed, {n: cards.get(n) for _c, n, _l in listed.entries}, hints)


def test_twenty_real_schemes_two_of_each_make_a_deck_with_ongoing_flags():
    names = real_cards()["schemes"]
    deck, problems = check(scheme_list(names))
    assert problems == []
    assert len(deck) == 20 and [c["name"] for c in deck[:2]] == [names[0]] * 2
    ongoing = set(real_cards()["ongoing"])
    assert "Because I Have Willed It" in ongoing and "Feed the Machine" not in ongoing
    assert all(c["ongoing"] == (c["name"] in ongoing) for c in deck)
    assert any(c["ongoing"] for c in deck) and not all(c["ongoing"] for c in deck)


def test_the_ways_players_write_a_line():
    text = "2x Feed the Machine\n1 Know Naught but Fire\nKnow Naught but Fire\n// my schemes\n\n" + \
        scheme_list([n for n in real_cards()["schemes"] if n not in ("Feed the Machine", "Know Naught but Fire")],
                    count=16)
    deck, problems = check(text)
    assert problems == [] and len(deck) == 20
    assert [c["name"] for c in deck].count("Know Naught but Fire") == 2


def test_nineteen_schemes_are_refused():
    deck, problems = check(scheme_list(real_cards()["schemes"], count=19))
    assert len(deck) == 19 and [str(p) for p in problems] == [
        "The scheme deck has 19 schemes; an archenemy needs at least 20."]


def test_three_copies_of_a_name_are_refused_however_they_are_written():
    names = real_cards()["schemes"]
    text = "2 Feed the Machine\n1 feed the machine\n" + scheme_list([n for n in names if n != "Feed the Machine"],
                                                                    count=18)
    _deck, problems = check(text)
    assert [str(p) for p in problems] == [
        "Feed the Machine: 3 copies; at most 2 schemes may share a name."]


def test_a_card_that_is_not_a_scheme_is_refused_with_its_line():
    text = scheme_list(real_cards()["schemes"]) + "\n1 Lightning Bolt"
    deck, problems = check(text)
    assert len(deck) == 20
    assert [str(p) for p in problems] == [
        "Line 11: Lightning Bolt is not a scheme card; a scheme deck holds only scheme cards."]


def test_an_unknown_name_and_html_are_named_not_run():
    text = '<script>alert("x")</script>\n2 Feed the Machin\n' + scheme_list(real_cards()["schemes"], count=18)
    _deck, problems = check(text, {"Feed the Machin": ["Feed the Machine"]})
    words = [str(p) for p in problems]
    assert words[0] == ('Line 1: <script>alert("x")</script> is not a card in the card data; check the '
                        'spelling.')          # the page writes it with textContent; JSON carries it as data
    assert words[1] == "Line 2: Feed the Machin is not a card in the card data; did you mean Feed the Machine?"
    assert words[2] == "The scheme deck has 18 schemes; an archenemy needs at least 20."


def test_an_unreadable_line_and_a_huge_list():
    _deck, problems = check("0 Feed the Machine\n" + scheme_list(real_cards()["schemes"]))
    assert str(problems[0]).startswith("Line 1: ")
    _deck, problems = check("500 Feed the Machine")
    assert [str(p) for p in problems][-1] == "The list has 500 cards; a scheme deck here holds at most 200."


def test_a_registered_decklist_schemes_section_and_schemes_listed_elsewhere():
    names = real_cards()["schemes"]
    text = ("Commander\n1 Phelddagrif\n\nDeck\n1 Sol Ring\n2 " + names[0] + "\n\nSchemes\n" +
            scheme_list(names[1:], count=18))
    parsed = parse_decklist(text)
    cards = pool()
    listed = arch.registered_schemes(parsed, {e.name: cards.get(e.name) for e in parsed.main + parsed.schemes})
    deck, problems = arch.scheme_deck(listed, cards)
    assert problems == [] and len(deck) == 20 and "Sol Ring" not in {c["name"] for c in deck}
