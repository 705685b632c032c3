"""Seating corrections after a round is published, as rules over plain values (no database): how many seats a
table may have, what a table is once players come and go, and where a player sits when moved in.

A table of one player is a bye; a 1v1 event's match has two seats; a pod has at most one seat more than the
event's pod size (the leftover rule's pods of p + 1). Seats are the turn order and have no gaps: a player
moved in at seat k takes it and the players from seat k on move one seat down; a player leaving closes the gap.
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class TableShape:
    """What a table becomes with `players` seated: its kind, or None when it is empty (it is removed)."""
    kind: str | None


def capacity(mode: str, pod_size: int) -> int:
    """The most players a table may seat in this event."""
    return 2 if mode == "duel" else pod_size + 1


def shape(mode: str, players: int) -> TableShape:
    if players <= 0:
        return TableShape(None)
    if players == 1:
        return TableShape("bye")
    return TableShape("match" if mode == "duel" else "pod")


def seat_range(size_before: int, same_table: bool) -> tuple[int, int]:
    """The seats a player may be put in at a table of `size_before` players (counting them when they already
    sit there): 1 to one past the last seat, or to the last seat for a move within the table."""
    return 1, size_before if same_table else size_before + 1


def placed(order: list[int], player: int, seat: int | None) -> list[int]:
    """The table's players in seat order after `player` takes `seat` (None: the next free seat at the end)."""
    rest = [p for p in order if p != player]
    at = len(rest) if seat is None else seat - 1
    return rest[:at] + [player] + rest[at:]
