"""Pods within Commander brackets: nobody sits with a deck of another bracket unless a bracket is too small
for a pod, and then the round's notes say who joined whom."""
from __future__ import annotations

import pytest

from tournament.events import operations as events
from tournament.rounds import operations as rounds
from tournament.rounds.pairing.brackets import bracket_groups, pair_pods_in_brackets
from tournament.rounds.pairing.domain import Entrant


def seated(pairing) -> list[int]:
    return sorted([i for pod in pairing.pods for i in pod.seats] + list(pairing.byes))


@pytest.mark.parametrize("seed", range(5))
def test_every_pod_holds_one_bracket(seed):
    brackets = {i: (2 if i <= 12 else 3 if i <= 20 else 4) for i in range(1, 29)}
    entrants = [Entrant(id=i) for i in brackets]
    pairing = pair_pods_in_brackets(entrants, brackets, pod_size=4, seed=seed, round_number=1)
    assert seated(pairing) == list(brackets)
    for pod in pairing.pods:
        assert len({brackets[i] for i in pod.seats}) == 1, pod
    assert [p.table for p in pairing.pods] == list(range(1, len(pairing.pods) + 1))
    first = {brackets[i] for i in pairing.pods[0].seats}
    assert first == {4}                                   # tables from the highest bracket down
    assert pairing == pair_pods_in_brackets(entrants, brackets, pod_size=4, seed=seed, round_number=1)


def test_a_bracket_too_small_for_a_pod_joins_the_next_and_the_notes_say_so():
    brackets = {1: 1, 2: 1, **{i: 2 for i in range(3, 11)}, **{i: 4 for i in range(11, 14)}}
    groups, _ = bracket_groups(brackets, 4)
    # Bracket 1 (2 players) joins bracket 2; bracket 4 (3 players), the highest, joins the group below it.
    assert [g for g, _ in groups] == [(1, 2, 4)]
    brackets[14] = 4
    groups, _ = bracket_groups(brackets, 4)
    assert [(g, len(ids)) for g, ids in groups] == [((4,), 4), ((1, 2), 10)]
    pairing = pair_pods_in_brackets([Entrant(id=i) for i in brackets], brackets, pod_size=4, seed=1, round_number=1)
    assert seated(pairing) == sorted(brackets)
    assert "Bracket 1 has 2 players, fewer than a pod: they play with bracket 2." in pairing.why
    assert {brackets[i] for i in pairing.pods[0].seats} == {4}
    assert all(4 not in {brackets[i] for i in pod.seats} for pod in pairing.pods[1:])


def test_one_bracket_for_everybody_is_a_plain_round():
    brackets = {i: 3 for i in range(1, 10)}
    pairing = pair_pods_in_brackets([Entrant(id=i) for i in brackets], brackets, pod_size=4, seed=3, round_number=1)
    assert seated(pairing) == list(brackets)
    assert sum(len(p.seats) for p in pairing.pods) + len(pairing.byes) == 9


def test_pairing_an_event_seats_by_declared_bracket_then_deck_floor(db, make_event, make_player, judge):
    event = make_event(bracket_pods=True)
    regs = [make_player(event, f"Casual {i}", declared_bracket=2) for i in range(4)]
    regs += [make_player(event, f"Upgraded {i}", declared_bracket=3) for i in range(4)]
    regs += [make_player(event, f"Undeclared {i}") for i in range(4)]          # no deck: seated as Core (2)
    for reg in regs:
        events.check_in(reg, judge)
    rnd = rounds.pair_next_round(event, judge, seed=11, override_decks=True)
    db.session.commit()
    by_id = {r.id: r.name.split()[0] for r in regs}
    for table in rnd.tables:
        kinds = {by_id[s.registration_id] for s in table.seats}
        assert kinds in ({"Casual"}, {"Undeclared"}, {"Casual", "Undeclared"}, {"Upgraded"}), kinds
    assert any("pods within declared brackets" in line for line in rounds.why_lines(rnd))


def test_a_bracket_that_would_need_a_pod_the_field_does_not_joins_the_next():
    # 15 players: the field would be 4+4+4+3; three brackets of 5 would each be a pod of 5.
    brackets = {i: 1 if i <= 5 else 2 if i <= 10 else 3 for i in range(1, 16)}
    groups, notes = bracket_groups(brackets, 4)
    assert [g for g, _ in groups] == [(1, 2, 3)]
    assert notes[0] == "Bracket 1 has 5 players, on their own they would need a pod of 5: they play with bracket 2"
    pairing = pair_pods_in_brackets([Entrant(id=i) for i in brackets], brackets, pod_size=4, seed=2, round_number=1)
    assert sorted(len(p.seats) for p in pairing.pods) == [3, 4, 4, 4]
    # 8 + 6 seat apart: 4+4 and 3+3 are pods the field makes anyway.
    brackets = {i: 2 if i <= 8 else 3 for i in range(1, 15)}
    assert [g for g, _ in bracket_groups(brackets, 4)[0]] == [(3,), (2,)]
