"""An event's numbers at its end: the commanders played, how they and each seat did, who reached the top cut.

Pure: games and decks in, plain dicts out (the stats page, its charts and the JSON export read the same).
A pod game is won by its one player left (a drawn game is won by nobody); a 1v1 match by the player with more
game wins. Commanders are the generals of each player's current list, partners joined with " + ".
"""
from __future__ import annotations

from typing import Iterable, Mapping, Sequence

from .domain import DuelMatch, PodGame
from .standings import archenemy_outcome

NO_LIST = "(no decklist)"


def rate(wins: int, games: int) -> float:
    return round(100 * wins / games, 1) if games else 0.0


def _pod_results(games: Iterable[PodGame]):
    """(player, seat from 1, won) for every seat of every pod game: its one player left, or in an Archenemy game
    the side that won (as the standings' records count them)."""
    for g in games:
        outcome = archenemy_outcome(g) if g.archenemy is not None else None
        if outcome == "archenemy":
            winners = {g.archenemy}
        elif outcome == "team":
            winners = {p for p in g.players if p != g.archenemy}
        else:
            winners = set(g.survivors) if len(g.survivors) == 1 else set()
        for seat, player in enumerate(g.players, 1):
            yield player, seat, player in winners


def _duel_results(matches: Iterable[DuelMatch]):
    for m in matches:
        a, b = m.players
        wa, wb = m.games.count("win"), m.games.count("loss")
        yield a, 1, wa > wb
        yield b, 2, wb > wa


def event_stats(games: Sequence[PodGame], matches: Sequence[DuelMatch], commanders: Mapping[int, Sequence[str]],
                players: Iterable[int], cut: Iterable[int] | None = None) -> dict:
    """Meta share, win rate by commander and by seat, and conversion into the top cut (`cut`: the players
    seated in its first stage; None when the event has no cut)."""
    players = list(players)
    deck_of = {p: " + ".join(sorted(commanders.get(p) or ())) or NO_LIST for p in players}   # partners in any order
    results = list(_pod_results(games)) + list(_duel_results(matches))

    meta: dict[str, int] = {}
    for p in players:
        meta[deck_of[p]] = meta.get(deck_of[p], 0) + 1
    by_commander: dict[str, list[int]] = {}
    by_seat: dict[int, list[int]] = {}
    for player, seat, won in results:
        row = by_commander.setdefault(deck_of.get(player, NO_LIST), [0, 0])
        row[0] += 1
        row[1] += won
        seat_row = by_seat.setdefault(seat, [0, 0])
        seat_row[0] += 1
        seat_row[1] += won
    conversion = None
    if cut is not None:
        made = set(cut)
        conversion = {}
        for p in players:
            row = conversion.setdefault(deck_of[p], [0, 0])
            row[0] += 1
            row[1] += p in made
        conversion = (len(made), conversion)
    return summary(len(players), len(games) + len(matches), meta, by_commander, by_seat, conversion)


def summary(players: int, games: int, meta: Mapping[str, int], by_commander: Mapping[str, Sequence[int]],
            by_seat: Mapping[int, Sequence[int]], conversion: tuple[int, Mapping[str, Sequence[int]]] | None) -> dict:
    """The stats as the page, its charts and the export show them, from counts: players per commander,
    [games, wins] per commander and per seat, and (players in the cut, [players, in the cut] per commander)."""
    out = {
        "players": players,
        "games": games,
        "meta": [{"commander": c, "players": n, "share": rate(n, players)}
                 for c, n in sorted(meta.items(), key=lambda kv: (-kv[1], kv[0]))],
        "commanders": [{"commander": c, "games": g, "wins": w, "win_rate": rate(w, g)}
                       for c, (g, w) in sorted(by_commander.items(), key=lambda kv: (-kv[1][0], kv[0]))],
        "seats": [{"seat": s, "games": g, "wins": w, "win_rate": rate(w, g)} for s, (g, w) in sorted(by_seat.items())],
    }
    if conversion is not None:
        made, rows = conversion
        out["top_cut"] = {"players": made, "commanders": [
            {"commander": c, "players": n, "in_cut": k, "conversion": rate(k, n)}
            for c, (n, k) in sorted(rows.items(), key=lambda kv: (-kv[1][1], -kv[1][0], kv[0]))]}
    return out
