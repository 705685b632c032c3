"""`flask deck check`: exit codes, JSON shape, stdin, unreadable input.

Uses the `runner`, `app` and `load_cards` fixtures of tests/conftest.py, and a
small MTGJSON-shaped card file written here (real cards, real facts) so the
test database loads in milliseconds.
"""
from __future__ import annotations

import json

import pytest

VINTAGE = {"commander": "Legal", "duel": "Legal", "legacy": "Legal", "vintage": "Legal"}


def face(name, type_, mana="", text="", ci="", mv=0, legalities=None, **extra):
    left, _, right = type_.partition(" — ")
    words = left.split()
    sup = [w for w in words if w in ("Legendary", "Basic", "Snow")]
    return {"name": name, "type": type_, "manaCost": mana, "text": text, "colorIdentity": list(ci),
            "colors": [c for c in ci if c in mana], "layout": "normal", "supertypes": sup,
            "types": [w for w in words if w not in sup], "subtypes": right.split(),
            "legalities": legalities or VINTAGE, "manaValue": mv, **extra}


CARDS = {
    "Phelddagrif": [face("Phelddagrif", "Legendary Creature — Phelddagrif", "{1}{G}{W}{U}",
                         "{G}: Phelddagrif gains trample until end of turn. Target opponent creates a 1/1 green "
                         "Hippo creature token.", "WUG", 4, leadershipSkills={"commander": True})],
    "Sol Ring": [face("Sol Ring", "Artifact", "{1}", "{T}: Add {C}{C}.", "", 1,
                      {"commander": "Legal", "duel": "Banned", "legacy": "Banned", "vintage": "Restricted"})],
    "Counterspell": [face("Counterspell", "Instant", "{U}{U}", "Counter target spell.", "U", 2)],
    "Goblin Piker": [face("Goblin Piker", "Creature — Goblin Warrior", "{1}{R}",
                          "Goblin Piker can't block.", "R", 2)],
    "Library of Alexandria": [face("Library of Alexandria", "Land", "",
                                   "{T}: Add {C}.\n{T}: Draw a card. Activate only if you have exactly seven cards in hand.",
                                   "", 0, {"commander": "Banned", "duel": "Banned", "legacy": "Banned",
                                           "vintage": "Restricted"})],
    "Llanowar Elves": [face("Llanowar Elves", "Creature — Elf Druid", "{G}", "{T}: Add {G}.", "G", 1)],
    "Forest": [face("Forest", "Basic Land — Forest", "", "({T}: Add {G}.)", "G")],
    "Plains": [face("Plains", "Basic Land — Plains", "", "({T}: Add {W}.)", "W")],
    "Island": [face("Island", "Basic Land — Island", "", "({T}: Add {U}.)", "U")],
}


def decklist(*extra: str, lands: int | None = None) -> str:
    cards = ["Sol Ring", "Counterspell", *extra]
    lands = 99 - len(cards) if lands is None else lands
    per = [lands // 3 + (1 if i < lands % 3 else 0) for i in range(3)]
    body = "\n".join(f"1 {c}" for c in cards)
    return (f"Commander\n1 Phelddagrif\n\nDeck\n{body}\n"
            f"{per[0]} Forest\n{per[1]} Plains\n{per[2]} Island\n")


@pytest.fixture
def cards(tmp_path, load_cards):
    path = tmp_path / "cards.json"
    path.write_text(json.dumps({"meta": {"date": "2022-04-25", "version": "5.2.0"}, "data": CARDS}),
                    encoding="utf-8")
    return load_cards(path)


@pytest.fixture
def deck_file(tmp_path):
    def write(content, name="deck.txt"):
        path = tmp_path / name
        if isinstance(content, str):
            content = content.encode("utf-8")
        path.write_bytes(content)
        return str(path)
    return write


def run(runner, *args, input=None):
    return runner.invoke(args=["deck", "check", *args], input=input)


def test_legal_deck_exit_0_and_json_shape(runner, cards, deck_file):
    result = run(runner, deck_file(decklist()), "--ruleset", "edh-2010", "--json")
    assert result.exit_code == 0, result.output
    out = json.loads(result.stdout)
    assert list(out) == ["file", "legal", "ruleset", "commanders", "color_identity", "main_count",
                         "sideboard_count", "findings", "summary", "bracket"]
    assert out["file"].endswith("deck.txt") and result.stdout.count("\n") == 1      # one line per file
    assert out["legal"] is True and out["ruleset"] == "edh-2010"
    assert out["commanders"] == ["Phelddagrif"] and out["color_identity"] == ["W", "U", "G"]
    assert out["main_count"] == 99 and out["sideboard_count"] == 0 and out["findings"] == []
    assert isinstance(out["summary"], dict) and out["summary"]["types"]["Land"] == 97


def test_legal_deck_readable_report(runner, cards, deck_file):
    result = run(runner, deck_file(decklist()), "--ruleset", "edh-2010")
    assert result.exit_code == 0
    assert "LEGAL under" in result.stdout and "Phelddagrif" in result.stdout


def test_illegal_deck_exit_1_with_findings_and_lines(runner, cards, deck_file):
    path = deck_file(decklist("Goblin Piker", "Library of Alexandria", "Llanowar Elvs"))
    result = run(runner, path, "--ruleset", "edh-2010")
    assert result.exit_code == 1, result.output
    assert "NOT LEGAL" in result.stdout
    assert "line 7" in result.stdout and "COLOR_IDENTITY" in result.stdout   # Goblin Piker
    assert "BANNED" in result.stdout and "UNKNOWN_CARD" in result.stdout
    assert "did you mean Llanowar Elves?" in result.stdout
    as_json = json.loads(run(runner, path, "--ruleset", "edh-2010", "--json").stdout)
    assert as_json["legal"] is False
    assert {f["code"] for f in as_json["findings"]} == {"COLOR_IDENTITY", "BANNED", "UNKNOWN_CARD"}
    piker = next(f for f in as_json["findings"] if f["code"] == "COLOR_IDENTITY")
    assert piker["line"] == 7 and piker["card"] == "Goblin Piker"


def test_ban_and_unban_options(runner, cards, deck_file):
    path = deck_file(decklist("Library of Alexandria"))
    assert run(runner, path, "--ruleset", "edh-2010").exit_code == 1
    assert run(runner, path, "--ruleset", "edh-2010", "--unban", "Library of Alexandria").exit_code == 0
    banned = run(runner, path, "--ruleset", "edh-2010", "--unban", "Library of Alexandria",
                 "--ban", "Sol Ring", "--ban", "Counterspell", "--json")
    assert banned.exit_code == 1
    assert sorted(f["card"] for f in json.loads(banned.stdout)["findings"]) == ["Counterspell", "Sol Ring"]


def test_commander_ruleset_uses_card_data_banlist(runner, cards, deck_file):
    path = deck_file(decklist("Library of Alexandria"))
    result = run(runner, path, "--ruleset", "commander", "--json")
    assert result.exit_code == 1
    assert [(f["code"], f["card"]) for f in json.loads(result.stdout)["findings"]] == [
        ("BANNED", "Library of Alexandria")]


def test_unknown_ruleset_exit_2_message_on_stderr(runner, cards, deck_file):
    result = run(runner, deck_file(decklist()), "--ruleset", "edh-2099", "--json")
    assert result.exit_code == 2
    assert result.stdout == ""
    assert "edh-2099" in result.stderr and "edh-2010" in result.stderr and "commander" in result.stderr


def test_stdin(runner, cards):
    result = run(runner, "-", "--ruleset", "edh-2010", "--json", input=decklist().encode("utf-8"))
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["legal"] is True
    bad = run(runner, "-", "--ruleset", "edh-2010", input=decklist("Goblin Piker").encode("utf-8"))
    assert bad.exit_code == 1 and "stdin: NOT LEGAL" in bad.stdout


@pytest.mark.parametrize("content, words", [
    (b"", "empty"),
    (b"   \n\n \t\n", "empty"),
    (bytes(range(256)) * 64, "binary"),
    (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + b"\x00\xff" * 500, "binary"),
    (("1 Sol Ring\n" * 500_000).encode(), "MB"),                     # a 5 MB paste
    ("ジェネラル\n1 ゴブリンの長槍使い\n".encode("shift_jis"), "UTF-8"),   # neither UTF-8 nor Windows-1252 text
])
def test_unreadable_input_exit_2(runner, cards, deck_file, content, words):
    result = run(runner, deck_file(content), "--ruleset", "edh-2010", "--json")
    assert result.exit_code == 2, result.output
    assert result.stdout == ""
    assert words in result.stderr


def test_unreadable_stdin_exit_2(runner, cards):
    result = run(runner, "-", "--ruleset", "edh-2010", input=b"")
    assert result.exit_code == 2 and result.stdout == "" and "empty" in result.stderr


def test_missing_file_exit_2(runner, cards, tmp_path):
    result = run(runner, str(tmp_path / "nope.txt"), "--ruleset", "edh-2010")
    assert result.exit_code == 2 and result.stdout == "" and "No file" in result.stderr
    result = run(runner, str(tmp_path), "--ruleset", "edh-2010")
    assert result.exit_code == 2 and "directory" in result.stderr


def test_ten_thousand_character_line(runner, cards, deck_file):
    # The parser reports an over-long line as unparsed; the check turns it into an error finding.
    text = decklist() + "1 " + "x" * 10_000 + "\n"
    result = run(runner, deck_file(text), "--ruleset", "edh-2010", "--json")
    if result.exit_code == 2:
        assert result.stdout == "" and result.stderr
        return
    assert result.exit_code == 1, result.output
    (f,) = json.loads(result.stdout)["findings"]
    assert f["code"] == "UNPARSED_LINE" and f["line"] == text.count("\n")
    assert len(f["message"]) < 400


def test_empty_card_database_hint(runner, deck_file):
    result = run(runner, deck_file(decklist()), "--ruleset", "edh-2010")
    assert result.exit_code == 1
    assert "cards import" in result.stderr


DEK = """<?xml version="1.0" encoding="utf-8"?>
<Deck xmlns:xsd="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
  <NetDeckID>0</NetDeckID>
  <PreconstructedDeckID>0</PreconstructedDeckID>
  <Cards CatID="1" Quantity="1" Sideboard="false" Name="Phelddagrif" Annotation="0" />
  <Cards CatID="2" Quantity="1" Sideboard="false" Name="Goblin Piker" Annotation="0" />
</Deck>
"""
CSV = "Count,Name\n1,Phelddagrif\n1,Sol Ring\n33,Forest\n"


def test_several_files_in_one_process_one_json_line_each(runner, cards, deck_file):
    a = deck_file(decklist(), "a.txt")
    b = deck_file(DEK, "b.dek")
    c = deck_file(CSV, "c.csv")
    result = run(runner, a, b, c, "--ruleset", "edh-2010", "--json")
    lines = result.stdout.splitlines()
    assert len(lines) == 3, result.output
    answers = [json.loads(line) for line in lines]
    assert [x["file"] for x in answers] == [a, b, c]
    assert [x["legal"] for x in answers] == [True, False, False]
    codes = [{f["code"] for f in x["findings"] if f["severity"] == "error"} for x in answers]
    assert codes == [set(), {"NO_COMMANDER", "DECK_SIZE"}, {"NO_COMMANDER", "DECK_SIZE"}], codes
    assert result.exit_code == 1


def test_exit_status_is_the_worst_of_all_files(runner, cards, deck_file, tmp_path):
    good = deck_file(decklist(), "good.txt")
    assert run(runner, good, good, "--ruleset", "edh-2010").exit_code == 0
    missing = str(tmp_path / "missing.txt")
    result = run(runner, good, missing, deck_file(decklist("Goblin Piker"), "bad.txt"), "--ruleset", "edh-2010",
                 "--json")
    assert result.exit_code == 2
    assert len(result.stdout.splitlines()) == 2                    # the unreadable one prints nothing there
    assert f"{missing}: No file" in result.stderr
    mixed = run(runner, "-", good, "--ruleset", "edh-2010", input=decklist().encode("utf-8"))
    assert mixed.exit_code == 0 and "stdin: LEGAL" in mixed.stdout and f"{good}: LEGAL" in mixed.stdout


def test_no_path_is_a_usage_error(runner, cards):
    result = run(runner, "--ruleset", "edh-2010")
    assert result.exit_code == 2 and "PATH" in result.output


# ---------------------------------------------------------------- python -m tournament.decks check (no app start)

def light(app, *args, input=None):
    from click.testing import CliRunner

    from tournament.decks.checking import main
    url = app.config["SQLALCHEMY_DATABASE_URI"]
    url = url if isinstance(url, str) else url.render_as_string(hide_password=False)
    return CliRunner().invoke(main, ["check", *args, "--database", url], input=input)


def test_the_check_without_the_app_gives_the_same_answers(app, db, cards, deck_file):
    good, bad = deck_file(decklist(), "good.txt"), deck_file(decklist("Goblin Piker"), "bad.txt")
    result = light(app, good, bad, "--ruleset", "edh-2010", "--json")
    assert result.exit_code == 1, result.output
    first, second = (json.loads(line) for line in result.stdout.splitlines())
    assert first["legal"] is True and first["commanders"] == ["Phelddagrif"]
    assert [f["code"] for f in second["findings"]] == ["COLOR_IDENTITY"]
    with app.test_request_context():
        flask_run = run(app.test_cli_runner(), good, bad, "--ruleset", "edh-2010", "--json")
    assert flask_run.stdout == result.stdout


def test_the_check_without_the_app_reports_an_unreadable_file_and_checks_the_others(app, db, cards, deck_file):
    cod = ('<?xml version="1.0" encoding="UTF-8"?>\n<cockatrice_deck version="1">\n<zone name="main">\n'
           '<card number="1" name="Sol Ring"/>\n<card number="1" name="Counterspell"/>\n'
           '<card number="32" name="Forest"/>\n<card number="32" name="Plains"/>\n<card number="33" name="Island"/>\n'
           '</zone>\n<zone name="side">\n<card number="1" name="Phelddagrif"/>\n</zone>\n</cockatrice_deck>\n')
    paths = [deck_file(cod, "deck.cod"), deck_file(b"\x00\x01\x02binary" * 40, "photo.txt"),
             str(deck_file(decklist(), "x.txt")).replace("x.txt", "missing.txt")]
    result = light(app, *paths, "--ruleset", "edh-2010")
    assert result.exit_code == 2
    assert "deck.cod: LEGAL" in result.stdout and "General: Phelddagrif" in result.stdout
    assert "photo.txt: This is not a text decklist" in result.stderr and "Export the deck as text" in result.stderr
    assert "missing.txt: No file at" in result.stderr and "Check the path" in result.stderr


def test_a_missing_or_broken_database_is_a_message_not_a_traceback(tmp_path, deck_file):
    from click.testing import CliRunner

    from tournament.decks.checking import main
    not_a_database = tmp_path / "notes.sqlite"
    not_a_database.write_text("shopping list\n" * 100)
    for url, words in ((f"sqlite:///{tmp_path}/nothing/here.sqlite", "There is no card database at"),
                       (f"sqlite:///{not_a_database}", "Cannot read the card database at"),
                       ("postgresql://nobody@127.0.0.1:1/none", "Cannot read the card database at")):
        result = CliRunner().invoke(main, ["check", deck_file(decklist()), "--ruleset", "edh-2010",
                                           "--database", url])
        assert result.exit_code == 2, (url, result.output)
        assert words in result.stderr and "flask cards import" in result.stderr, url
        assert result.stdout == ""


def test_the_check_without_the_app_imports_no_flask():
    import subprocess
    import sys
    code = ("import sys, tournament.decks.checking, tournament.cards.sqlpool, tournament.decks.parser; "
            "print(sorted(m for m in sys.modules if m.split('.')[0] in ('flask', 'flask_sqlalchemy', 'alembic', "
            "'reportlab', 'pydantic', 'sqlalchemy')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         cwd=str(__import__("pathlib").Path(__file__).resolve().parents[2]))
    assert out.stdout.strip() == "[]"
