"""Fixtures for sideboard swaps: events whose players have legal Kenrith decks with a 10-card sideboard."""
from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest

from tournament.events import operations as events
from tournament.rounds import operations as rounds

KENRITH = Path(events.__file__).resolve().parents[1] / "data" / "demo_decks" / "kenrith.txt"
SIDEBOARD = ["Lightning Bolt", "Goblin Piker", "Riftsweeper", "Grindstone", "Boros Guildmage", "Utter End",
             "Toxic Deluge", "Blasphemous Act", "Generous Gift", "Elves of Deep Shadow"]
GENERAL = "Kenrith, the Returned King"


def kenrith_text(sideboard=SIDEBOARD) -> str:
    text = open(KENRITH, encoding="utf-8").read().rstrip()
    if sideboard:
        text += "\n\nSideboard\n" + "\n".join(f"1 {n}" for n in sideboard) + "\n"
    return text


def main_cards() -> list[str]:
    """Non-basic main-deck cards of the Kenrith list, in list order."""
    lines = open(KENRITH, encoding="utf-8").read().split("Deck", 1)[1].splitlines()
    names = [line.split(" ", 1)[1].strip() for line in lines if line[:1].isdigit()]
    return [n for n in names if n not in ("Plains", "Island", "Swamp", "Mountain", "Forest")]


@pytest.fixture
def started_table(db, make_event, make_player, judge, starter_cards):
    """started_table(n=4, mode="pods", decks=None, **settings) -> (event, table, regs); the round is started."""
    def make(n=4, decks=None, **settings):
        event = make_event(**settings)
        regs = []
        for i in range(n):
            text = decks[i] if decks else kenrith_text()
            regs.append(make_player(event, f"Player {i + 1}", decklist=text))
        for reg in regs:
            events.check_in(reg, judge)
        rnd = rounds.pair_next_round(event, judge, seed=7, override_decks=True)
        rounds.publish_round(rnd, judge)
        rounds.start_round(rnd, judge)
        db.session.commit()
        table = next(t for t in rnd.tables if t.kind != "bye")
        seated = [s.registration for s in table.seats]
        return event, table, seated
    return make


def expire_window(db, table, game: int = 1) -> None:
    """Move the stored deadline of the table's swap window one second into the past."""
    from tournament.cards.models import utcnow
    from tournament.swaps.operations import window
    w = window(table, game)
    w.opens_at = utcnow() - timedelta(seconds=200)
    w.deadline = utcnow() - timedelta(seconds=1)
    db.session.commit()
