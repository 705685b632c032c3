"""The 3-minute swap and between-game sideboarding through the real operations and database."""
import pytest
import sqlalchemy as sa

from tournament.errors import Refused
from tournament.events.models import AuditEntry
from tournament.swaps import operations as swaps
from tournament.swaps.models import DeckVersion, Swap

from conftest import GENERAL, SIDEBOARD, expire_window, kenrith_text, main_cards  # noqa: I100

OUT = main_cards()


def version(db, reg, table, game=1):
    return db.session.execute(sa.select(DeckVersion).where(DeckVersion.registration_id == reg.id,
                                                           DeckVersion.table_id == table.id,
                                                           DeckVersion.game == game)).scalar_one()


def test_a_legal_swap_is_accepted_and_kept_in_the_game_version(db, started_table):
    event, table, regs = started_table()
    reg = regs[0]
    made = swaps.submit_swaps(reg, [{"out": OUT[20], "in": "Lightning Bolt"}])
    db.session.commit()
    assert [(s.card_out, s.card_in, s.entered_by) for s in made] == [(OUT[20], "Lightning Bolt", "player")]
    v = version(db, reg, table)
    assert "Lightning Bolt" in v.main and OUT[20] not in v.main and OUT[20] in v.sideboard
    assert v.main_count == 99 and v.general_count == 1 and v.generals == [GENERAL]
    state = swaps.state(reg)
    assert state["window"]["open"] and 170 < state["window"]["seconds_left"] <= 180
    assert state["deck"]["main_count"] == 99 and state["swaps"][0]["in"] == "Lightning Bolt"
    entry = db.session.execute(sa.select(AuditEntry).where(AuditEntry.action == "swap")).scalar_one()
    assert entry.actor == "player" and entry.details["swaps"] == [[OUT[20], "Lightning Bolt"]]
    # the other players' decks are untouched
    assert swaps.state(regs[1])["deck"]["main"] == swaps.state(regs[2])["deck"]["main"]


def test_names_are_matched_without_case(db, started_table):
    _event, table, regs = started_table()
    made = swaps.submit_swaps(regs[0], [{"out": OUT[3].upper(), "in": "lightning bolt"}])
    assert (made[0].card_out, made[0].card_in) == (OUT[3], "Lightning Bolt")


def test_after_the_deadline_the_player_is_refused(db, started_table):
    _event, table, regs = started_table()
    expire_window(db, table)
    with pytest.raises(Refused, match="closed at .* UTC") as e:
        swaps.submit_swaps(regs[0], [{"out": OUT[0], "in": "Lightning Bolt"}])
    assert e.value.status == 409
    assert not swaps.state(regs[0])["window"]["open"]


def test_the_deadline_is_stored_not_recomputed(db, started_table):
    event, table, regs = started_table()
    first = swaps.state(regs[0])["window"]["deadline"]
    event.swap_seconds = 10
    db.session.commit()
    assert swaps.state(regs[0])["window"]["deadline"] == first


def test_the_general_cannot_be_swapped(db, started_table):
    _event, _table, regs = started_table()
    with pytest.raises(Refused, match="general cannot be swapped"):
        swaps.submit_swaps(regs[0], [{"out": GENERAL, "in": "Lightning Bolt"}])


def test_a_card_not_in_the_sideboard_is_refused(db, started_table):
    _event, _table, regs = started_table()
    with pytest.raises(Refused, match="Sol Ring is not in your sideboard"):
        swaps.submit_swaps(regs[0], [{"out": OUT[0], "in": "Sol Ring"}])
    with pytest.raises(Refused, match="Black Lotus is not in your sideboard"):
        swaps.submit_swaps(regs[0], [{"out": OUT[0], "in": "Black Lotus"}])
    with pytest.raises(Refused, match="Lightning Bolt is not in your main deck"):
        swaps.submit_swaps(regs[0], [{"out": "Lightning Bolt", "in": "Goblin Piker"}])


def mono_green_deck(sideboard) -> str:
    return ("Commander\n1 Greta Greenwood\n\nDeck\n98 Forest\n1 Sol Ring\n\nSideboard\n"
            + "\n".join(f"1 {n}" for n in sideboard) + "\n")


def test_a_swap_breaking_colour_identity_is_refused(db, started_table, make_card):
    make_card("Greta Greenwood", "Legendary Creature — Elf Druid", "{2}{G}", color_identity=("G",))
    deck = mono_green_deck(["Lightning Bolt", "Grindstone"])      # Bolt is outside the general's colours
    _event, table, regs = started_table(n=2, decks=[deck, deck])
    reg = regs[0]
    with pytest.raises(Refused, match="Lightning Bolt") as e:
        swaps.submit_swaps(reg, [{"out": "Forest", "in": "Lightning Bolt"}])
    assert "would not be legal" in e.value.message
    # the off-colour card may stay in the sideboard: other swaps are fine
    swaps.submit_swaps(reg, [{"out": "Forest", "in": "Grindstone"}])
    assert version(db, reg, table).main["Forest"] == 97


def test_a_swap_breaking_singleton_is_refused(db, started_table, make_card):
    make_card("Greta Greenwood", "Legendary Creature — Elf Druid", "{2}{G}", color_identity=("G",))
    deck = mono_green_deck(["Sol Ring"])                              # a second Sol Ring
    _event, _table, regs = started_table(n=2, decks=[deck, deck])
    with pytest.raises(Refused, match="Sol Ring: 2 copies"):
        swaps.submit_swaps(regs[0], [{"out": "Forest", "in": "Sol Ring"}])


def test_a_card_banned_by_the_event_after_registration_cannot_come_in(db, started_table):
    event, _table, regs = started_table()
    event.banlist_add = ["Lightning Bolt"]
    db.session.commit()
    with pytest.raises(Refused, match="Lightning Bolt is banned by this event"):
        swaps.submit_swaps(regs[0], [{"out": OUT[0], "in": "Lightning Bolt"}])


def test_undo_until_the_deadline(db, started_table):
    _event, table, regs = started_table()
    reg = regs[0]
    before = swaps.state(reg)["deck"]
    made = swaps.submit_swaps(reg, [{"out": OUT[1], "in": "Utter End"}, {"out": OUT[2], "in": "Grindstone"}])
    db.session.commit()
    swaps.undo_swap(reg, made[0].id)
    db.session.commit()
    deck = swaps.state(reg)["deck"]
    assert "Utter End" not in deck["main"] and OUT[1] in deck["main"] and "Grindstone" in deck["main"]
    assert made[0].undone_at is not None and made[0].undone_by == "player"
    with pytest.raises(Refused, match="undone already"):
        swaps.undo_swap(reg, made[0].id)
    swaps.undo_swap(reg, made[1].id)
    db.session.commit()
    assert swaps.state(reg)["deck"] == before
    again = swaps.submit_swaps(reg, [{"out": OUT[1], "in": "Utter End"}])
    db.session.commit()
    expire_window(db, table)
    with pytest.raises(Refused, match="closed"):
        swaps.undo_swap(reg, again[0].id)


def test_several_pairs_are_all_or_nothing(db, started_table):
    _event, table, regs = started_table()
    reg = regs[0]
    before = swaps.state(reg)["deck"]
    with pytest.raises(Refused, match="Swap 3: .*not in your sideboard"):
        swaps.submit_swaps(reg, [{"out": OUT[0], "in": "Lightning Bolt"}, {"out": OUT[1], "in": "Goblin Piker"},
                                 {"out": OUT[2], "in": "Sol Ring"}])
    db.session.rollback()
    assert swaps.state(reg)["deck"] == before and swaps.swaps_of(reg) == []
    with pytest.raises(Refused, match="Swap 2: .*any more"):
        swaps.submit_swaps(reg, [{"out": OUT[0], "in": "Lightning Bolt"}, {"out": OUT[0], "in": "Goblin Piker"}])
    db.session.rollback()
    made = swaps.submit_swaps(reg, [{"out": OUT[i], "in": SIDEBOARD[i]} for i in range(10)])
    db.session.commit()
    deck = swaps.state(reg)["deck"]
    assert len(made) == 10 and set(SIDEBOARD) <= set(deck["main"]) and deck["main_count"] == 99
    assert set(deck["sideboard"]) == set(OUT[:10])


def test_staff_enter_swaps_for_a_player_and_judges_override_after_the_deadline(db, started_table, judge):
    event, table, regs = started_table()
    reg = regs[0]
    made = swaps.submit_swaps(reg, [{"out": OUT[0], "in": "Lightning Bolt"}], user=judge)
    assert made[0].entered_by == "judge:Jan Judge"
    db.session.commit()
    expire_window(db, table)
    with pytest.raises(Refused, match="give a reason"):
        swaps.submit_swaps(reg, [{"out": OUT[1], "in": "Riftsweeper"}], user=judge)
    with pytest.raises(Refused, match="Only a judge"):
        swaps.submit_swaps(reg, [{"out": OUT[1], "in": "Riftsweeper"}], override_reason="please")
    made = swaps.submit_swaps(reg, [{"out": OUT[1], "in": "Riftsweeper"}], user=judge,
                              override_reason="The phone died at 2:50; the player told me the swap in time.")
    db.session.commit()
    assert made[0].override_reason.startswith("The phone died")
    entries = db.session.execute(sa.select(AuditEntry).where(AuditEntry.action.like("swap%"))
                                 .order_by(AuditEntry.id)).scalars().all()
    assert [(e.action, e.actor) for e in entries] == [("swap", "judge:Jan Judge"), ("swap.override", "judge:Jan Judge")]
    assert entries[1].details["override_reason"].startswith("The phone died")
    assert entries[1].details["entered_for"] == reg.name
    assert [s.id for s in swaps.table_log(table)] == [s.id for s in swaps.swaps_of(reg)]


def test_no_sideboard_no_swaps_and_no_started_game_no_window(db, started_table, make_event, make_player):
    event, _table, regs = started_table()
    event.sideboard_enabled = False
    db.session.commit()
    with pytest.raises(Refused, match="does not use sideboards"):
        swaps.submit_swaps(regs[0], [{"out": OUT[0], "in": "Lightning Bolt"}])
    other = make_event()
    lone = make_player(other, "Lone", decklist=kenrith_text())
    with pytest.raises(Refused, match="not seated"):
        swaps.submit_swaps(lone, [{"out": OUT[0], "in": "Lightning Bolt"}])
    assert swaps.state(lone)["window"] is None
    assert swaps.change_swaps(lone, [], []).made == []             # nothing to do: no change, no refusal


def test_duel_sideboarding_between_games(db, started_table, judge):
    from tournament.rounds import operations as rounds
    event, table, regs = started_table(n=2, mode="duel")
    assert table.kind == "match" and event.sideboard_minutes == 3
    a, b = regs
    swaps.submit_swaps(a, [{"out": OUT[0], "in": "Lightning Bolt"}])        # game 1: the timed window
    db.session.commit()
    assert swaps.state(a)["game"] == 1
    expire_window(db, table)
    # game 1's window closed: sideboarding for game 2 opens only when game 1 is reported
    state = swaps.state(a)
    assert state["game"] == 2 and state["window"] is None
    with pytest.raises(Refused, match="Sideboarding for game 2 has not opened yet"):
        swaps.submit_swaps(a, [{"out": "Lightning Bolt", "in": "Toxic Deluge"}])
    with pytest.raises(Refused, match="Report game 1 first"):
        swaps.start_duel_game(table, 2, reg=a)
    rounds.report_game(table, 1, a.id, reg=b)
    db.session.commit()
    state = swaps.state(a)
    w = state["window"]
    assert state["game"] == 2 and w["open"] and 179 <= w["seconds_left"] <= 180       # 3 minutes, on the server
    assert "Lightning Bolt" in state["deck"]["main"]
    made = swaps.submit_swaps(a, [{"out": "Lightning Bolt", "in": "Toxic Deluge"}])
    db.session.commit()
    assert made[0].game == 2
    with pytest.raises(Refused, match="general cannot"):
        swaps.submit_swaps(a, [{"out": GENERAL, "in": "Grindstone"}])
    with pytest.raises(Refused, match="next one is game 2"):
        swaps.start_duel_game(table, 3, user=judge)
    game2 = swaps.start_duel_game(table, 2, reg=b)
    db.session.commit()
    assert game2.closed_at is not None
    assert swaps.start_duel_game(table, 2, reg=a).closed_at == game2.closed_at      # the other tap: no change
    v1, v2 = version(db, a, table, 1), version(db, a, table, 2)
    assert "Lightning Bolt" in v1.main and "Toxic Deluge" not in v1.main
    assert "Toxic Deluge" in v2.main and "Lightning Bolt" not in v2.main and v2.main_count == 99
    assert version(db, b, table, 2).main == version(db, b, table, 1).main
    # game 2 started: its deck is fixed; game 3's sideboarding waits for game 2's report
    assert swaps.state(a)["game"] == 3 and swaps.state(a)["window"] is None
    with pytest.raises(Refused, match="Game 2 has started"):
        swaps.submit_swaps(a, [{"out": OUT[5], "in": "Grindstone"}], game=2)
    rounds.report_game(table, 2, b.id, reg=a)
    db.session.commit()
    swaps.submit_swaps(a, [{"out": OUT[5], "in": "Grindstone"}])
    # nobody taps "Start game 3": at the stored deadline the game has started and sideboarding is closed
    expire_window(db, table, 3)
    with pytest.raises(Refused, match=r"Sideboarding for game 3 closed at .* \(3 minutes after game 2 was reported\)"):
        swaps.submit_swaps(a, [{"out": OUT[6], "in": "Riftsweeper"}], game=3)
    with pytest.raises(Refused, match="third game"):
        swaps.submit_swaps(a, [{"out": OUT[6], "in": "Riftsweeper"}])
    db.session.rollback()
    assert "Grindstone" in version(db, a, table, 3).main and "Grindstone" not in version(db, a, table, 2).main
    actions = db.session.execute(sa.select(AuditEntry.action).where(AuditEntry.action == "duel.game_start")).all()
    assert len(actions) == 1


def test_no_sideboarding_after_the_deciding_game(db, started_table, judge):
    from tournament.rounds import operations as rounds
    _event, table, regs = started_table(n=2, mode="duel")
    a, b = regs
    rounds.report_game(table, 1, a.id, reg=a)
    swaps.start_duel_game(table, 2, user=judge)             # staff close sideboarding for the players
    rounds.report_game(table, 2, a.id, reg=a)               # 2-0: the match is over
    db.session.commit()
    assert swaps.window(table, 3) is None
    with pytest.raises(Refused, match="Report game 2 first|has already started|next one"):
        swaps.start_duel_game(table, 3, reg=b)


def test_the_database_keeps_general_plus_main_at_the_deck_size(db, started_table):
    _event, table, regs = started_table()
    swaps.submit_swaps(regs[0], [{"out": OUT[0], "in": "Lightning Bolt"}])
    db.session.commit()
    v = version(db, regs[0], table)
    v.main_count = 98
    with pytest.raises(sa.exc.IntegrityError):
        db.session.commit()
    db.session.rollback()
    assert db.session.execute(sa.select(sa.func.count(Swap.id))).scalar() == 1


def test_a_swap_cannot_leave_the_deck_over_the_events_maximum_bracket(db, started_table):
    event, _table, regs = started_table()
    # The Kenrith list holds five Game Changers (bracket 4); the organizer then caps the event at bracket 3.
    event.max_bracket = 3
    db.session.commit()
    with pytest.raises(Refused, match="This event allows decks up to bracket 3; this list is at least bracket 4"):
        swaps.submit_swaps(regs[0], [{"out": OUT[20], "in": "Lightning Bolt"}])
    event.max_bracket = 4
    db.session.commit()
    assert swaps.submit_swaps(regs[0], [{"out": OUT[20], "in": "Lightning Bolt"}])
