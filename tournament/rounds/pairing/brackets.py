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

from ...decks.domain import N_, Text, TextList, _n
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
            return Text(N_("fewer than a pod"))
        sizes, byes, _ = plan_pod_sizes(n, pod_size, leftover)
        if not set(sizes) <= fits:
            return Text(N_("on their own they would need a pod of %(size)s"), size=min(set(sizes) - fits))
        if byes > field_byes:
            return Text(N_("on their own some would get a bye"))
        return None

    notes = []
    while len(groups) > 1:
        small = next((k for k, (_, ids) in enumerate(groups) if why_not(len(ids))), None)
        if small is None:
            break
        into = small + 1 if small + 1 < len(groups) else small - 1
        (a, ids_a), (b, ids_b) = groups[small], groups[into]
        notes.append(Text(_n("%(bracket)s has %(num)d player, %(reason)s: they play with %(other)s",
                             "%(bracket)s has %(num)d players, %(reason)s: they play with %(other)s"),
                          num=len(ids_a), bracket=_label(a), reason=why_not(len(ids_a)), other=_label(b, lower=True)))
        merged = (tuple(sorted(a + b)), sorted(ids_a + ids_b))
        low, high = min(small, into), max(small, into)
        groups[low:high + 1] = [merged]
    return list(reversed(groups)), notes


def _label(group: tuple[int, ...], lower: bool = False) -> str:
    """'Bracket 2', 'Brackets 1, 2 and 3' (in a sentence: 'bracket 2')."""
    # TRANSLATORS: the lower-case "bracket 2" ends "…: they play with bracket 2" (the group a small bracket joins).
    if len(group) == 1:
        return Text(N_("bracket %(number)s") if lower else N_("Bracket %(number)s"), number=group[0])
    # TRANSLATORS: "brackets 1, 2 and 3" likewise ends "…: they play with brackets 1, 2 and 3".
    return Text(N_("brackets %(numbers)s") if lower else N_("Brackets %(numbers)s"), numbers=TextList(group, "and"))


def pair_pods_in_brackets(entrants: Iterable[Entrant], brackets: Mapping[int, int], *, pod_size: int = 4,
                          leftover: str = "threes", seed: int | str, round_number: int) -> PodPairing:
    """Seat each bracket group apart; tables are numbered from the highest bracket down."""
    players = {e.id: e for e in entrants}
    groups, notes = bracket_groups({i: brackets[i] for i in players}, pod_size, leftover)
    pods: list[Pod] = []
    byes: list[int] = []
    why = [Text(N_("Round %(round)s: pods within declared brackets."), round=round_number)] + [
        Text(N_("%(note)s."), note=n) for n in notes]
    for group, ids in groups:
        result = pair_pods([players[i] for i in ids], pod_size=pod_size, leftover=leftover,
                           seed=f"{seed}:{'-'.join(map(str, group))}", round_number=round_number)
        offset = len(pods)
        pods.extend(Pod(table=offset + p.table, seats=p.seats) for p in result.pods)
        byes.extend(result.byes)
        why.extend(Text(N_("%(group)s: %(line)s"), group=_label(group), line=line) for line in result.why)
    return PodPairing(pods=tuple(pods), byes=tuple(byes), why=tuple(why))
