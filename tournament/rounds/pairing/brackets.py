"""Pods within Commander brackets: players meet decks of the bracket they declared.

Each bracket's players are seated by `pair_pods` on their own, so repeats,
seat balance and points work as in any round. A bracket that cannot be seated
on its own the way the whole field would be (fewer players than a pod, a pod
size the event's leftover policy would not make, or byes when the field
needs none) joins the next bracket up (or, for the highest, the one below),
and `why` says so. Pure: the caller says each player's bracket.
"""
from __future__ import annotations

from typing import Iterable, Mapping

from .domain import Entrant, Pod, PodPairing
from .pods import pair_pods
from .sizes import plan_pod_sizes


def bracket_groups(brackets: Mapping[int, int], pod_size: int, leftover: str = "threes"
                   ) -> tuple[list[tuple[tuple[int, ...], list[int]]], list[str]]:
    """[(brackets in the group, player ids)], highest first, and the merges made."""
    groups = [((b,), sorted(i for i, x in brackets.items() if x == b)) for b in sorted(set(brackets.values()))]
    field_sizes, field_byes, _ = plan_pod_sizes(len(brackets), pod_size, leftover)
    fits = set(field_sizes) | {pod_size}

    def why_not(n: int) -> str | None:
        if n < pod_size:
            return "fewer than a pod"
        sizes, byes, _ = plan_pod_sizes(n, pod_size, leftover)
        if not set(sizes) <= fits:
            return f"on their own they would need a pod of {min(set(sizes) - fits)}"
        if byes > field_byes:
            return "on their own some would get a bye"
        return None

    notes = []
    while len(groups) > 1:
        small = next((k for k, (_, ids) in enumerate(groups) if why_not(len(ids))), None)
        if small is None:
            break
        into = small + 1 if small + 1 < len(groups) else small - 1
        (a, ids_a), (b, ids_b) = groups[small], groups[into]
        notes.append(f"{_label(a)} has {len(ids_a)} player{'s' if len(ids_a) != 1 else ''}, "
                     f"{why_not(len(ids_a))}: they play with {_label(b).lower()}")
        merged = (tuple(sorted(a + b)), sorted(ids_a + ids_b))
        low, high = min(small, into), max(small, into)
        groups[low:high + 1] = [merged]
    return list(reversed(groups)), notes


def _label(group: tuple[int, ...]) -> str:
    if len(group) == 1:
        return f"Bracket {group[0]}"
    return "Brackets " + ", ".join(map(str, group[:-1])) + f" and {group[-1]}"


def pair_pods_in_brackets(entrants: Iterable[Entrant], brackets: Mapping[int, int], *, pod_size: int = 4,
                          leftover: str = "threes", seed: int | str, round_number: int) -> PodPairing:
    """Seat each bracket group apart; tables are numbered from the highest bracket down."""
    players = {e.id: e for e in entrants}
    groups, notes = bracket_groups({i: brackets[i] for i in players}, pod_size, leftover)
    pods: list[Pod] = []
    byes: list[int] = []
    why = [f"Round {round_number}: pods within declared brackets."] + [n + "." for n in notes]
    for group, ids in groups:
        result = pair_pods([players[i] for i in ids], pod_size=pod_size, leftover=leftover,
                           seed=f"{seed}:{'-'.join(map(str, group))}", round_number=round_number)
        offset = len(pods)
        pods.extend(Pod(table=offset + p.table, seats=p.seats) for p in result.pods)
        byes.extend(result.byes)
        why.extend(f"{_label(group)}: {line}" for line in result.why)
    return PodPairing(pods=tuple(pods), byes=tuple(byes), why=tuple(why))
