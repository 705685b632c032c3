"""Rounds, who stands where: the standings over the published rounds (in the event's scoring profile), the prize
board, the top cut's outcome stage by stage, the final places and the event's statistics.

Scoring is pure (tournament.scoring, tournament.rounds.pairing.cut); this module loads its inputs.
"""
from __future__ import annotations

import dataclasses
from collections import Counter

import sqlalchemy as sa
from flask_babel import gettext as _

from ...errors import Refused
from ...events.models import Decklist, Event
from ...extensions import db
from ...penalties import queries as penalties
from ...penalties.domain import with_losses
from ...scoring import get_profile, mtr_standings, pod_standings, prize_leaders, stats
from ...scoring.domain import Bye, DuelMatch, PodGame, StandingRow
from ..models import GameTable, Round
from ..pairing.cut import StageOutcome, final_places, pod_winner

from .queries import ever_seated, players_to_seat, rounds_of, _load_tables
from .votes import votes_visible


def _scoring_inputs(event: Event, tables: list[GameTable]):
    """The published results as the scoring reads them, with the penalties in force laid over them (a match lost
    by a penalty counts at once; other penalties once the table's result is final)."""
    games, matches, byes = [], [], []
    losses = penalties.losses(event.id)
    lost_matches = {(l.round, l.player) for l in losses if l.kind == "match"}
    for t in tables:
        ids = tuple(s.registration_id for s in t.seats)
        rnd = t.round.number
        if t.kind == "bye":
            byes.append(Bye(rnd, ids[0]))
        elif t.result_state != "confirmed":
            if t.kind == "match" and any((rnd, p) in lost_matches for p in ids):
                matches.append(DuelMatch(round=rnd, table=t.number, players=(ids[0], ids[1])))
            continue                # only final results count: reported ones wait for confirmation
        elif t.kind == "pod":
            order = sorted((s for s in t.seats if s.eliminated_order is not None), key=lambda s: s.eliminated_order)
            games.append(PodGame(
                round=rnd, table=t.number, players=ids,
                survivors=frozenset(s.registration_id for s in t.seats if s.survived),
                votes={v.voter_id: v.votee_id for v in t.votes} if votes_visible(t) else {},
                eliminated=tuple(s.registration_id for s in order),
                prizes={c.condition: (c.holder_id, c.value) for c in t.prize_claims},
                archenemy=t.archenemy_id if t.archenemy_id in ids else None, draw=t.draw_kind))
        else:
            first = ids[0]
            outcome = tuple("draw" if g.winner_id is None else ("win" if g.winner_id == first else "loss")
                            for g in t.games)
            matches.append(DuelMatch(round=rnd, table=t.number, players=(ids[0], ids[1]), games=outcome))
    games, matches = with_losses(games, matches, losses)
    return games, matches, byes


def standings(event: Event, tables: list[GameTable] | None = None) -> list[StandingRow]:
    """Standings over every published round's results, in the event's scoring profile. The top cut does not
    change them (pods and 1v1 alike): they stay as they were at the cut, its seeds; the cut's own outcome is
    `cut_results`."""
    tables = _load_tables(event, finished_only=True) if tables is None else tables
    tables = [t for t in tables if not t.round.stage.startswith("top")]
    players = {r.id: r.name for r in event.registrations if not r.waitlisted}     # the waitlist never played
    games, matches, byes = _scoring_inputs(event, tables)
    if event.mode == "duel":
        return mtr_standings(matches, byes, players, event.standings_seed)
    return pod_standings(get_profile(event.scoring_profile), games, byes, players, event.standings_seed,
                         bye_points=event.bye_points,
                         archenemy_win_points=3 if event.archenemy_win_points is None else event.archenemy_win_points,
                         team_win_points=1 if event.team_win_points is None else event.team_win_points)


def scored_tables(event: Event) -> list[GameTable]:
    """The tables of every published round, loaded once for standings(event, tables) and prize_board(event, tables)."""
    return _load_tables(event, finished_only=True)


def prize_board(event: Event, tables: list[GameTable] | None = None) -> dict:
    games, _m, _b = _scoring_inputs(event, scored_tables(event) if tables is None else tables)
    return prize_leaders(games, event.prize_conditions or [])


def final_standings(event: Event) -> list[StandingRow]:
    """Everyone who played from first place to last, `rank` their place: with a top cut, whoever got furthest
    first (the final's winner first), then the standings (prize slips, a series' places)."""
    rows, _unplayed = shown_standings(event)
    by_player = {r.player: r for r in rows}
    order = [p for p in final_places([r.player for r in rows], cut_outcome(event, rounds_of(event), rows))
             if p in by_player]
    return [dataclasses.replace(by_player[p], rank=place) for place, p in enumerate(order, 1)]


def shown_standings(event: Event, tables: list[GameTable] | None = None, through: int | None = None
                    ) -> tuple[list[StandingRow], list[StandingRow]]:
    """The standings as pages and printouts show them: the players seated in a published round, ranked 1..n among
    themselves (a registered player who never sat down does not take a place), and those who never played."""
    rows = standings(event, tables)
    seated = ever_seated(event, through)
    played = [dataclasses.replace(r, rank=rank)
              for rank, r in enumerate((r for r in rows if r.player in seated), 1)]
    return played, [r for r in rows if r.player not in seated]


def _cut_seeds(event: Event, previous: list[Round], rows: list[StandingRow] | None = None) -> dict[int, int]:
    """Seed by player (1 = best): the standings at the cut (which the cut does not change; `rows` when the
    caller has them), among the players still playing when it began: checked in and not dropped, or those
    seated in its first stage."""
    first = next((r for r in previous if r.stage.startswith("top")), None)
    if first is not None:
        field = {s.registration_id for t in first.tables for s in t.seats}
    else:
        field = {r.id for r in players_to_seat(event)}
    order = [row.player for row in (standings(event) if rows is None else rows) if row.player in field]
    return {player: i + 1 for i, player in enumerate(order)}


def cut_results(event: Event, rounds: list[Round], rows: list[StandingRow] | None = None) -> list[dict]:
    """Each published stage of the top cut: who waited, who played each table (pod or match) and who went on
    (or won the final), by seed. Empty before a cut."""
    cut = [r for r in rounds if r.stage.startswith("top") and r.status != "draft"]
    if not cut:
        return []
    seed_of = _cut_seeds(event, rounds, rows)
    out = []
    for rnd in cut:
        tables = []
        for t in rnd.tables:
            if t.kind not in ("pod", "match"):
                continue
            tables.append({"number": t.number, "players": [s.registration_id for s in t.seats],
                           "winner": _cut_winner(t, seed_of)})
        waiting = [t.seats[0].registration_id for t in rnd.tables if t.kind == "bye"]
        out.append({"round": rnd.number, "stage": rnd.stage, "final": not waiting and len(tables) == 1,
                    "waiting": waiting, "tables": tables, "seed": seed_of})
    return out


def _cut_winner(table: GameTable, seed_of: dict[int, int]) -> int | None:
    """Who goes on from a cut table: a pod's one player left (of several left at time, the best seed), a
    match's winner; None while it has no confirmed result (or a match is drawn)."""
    if table.result_state != "confirmed":
        return None
    if table.kind == "match":
        return _games_winner(table)
    left = [s.registration_id for s in table.seats if s.survived]
    return pod_winner(left, seed_of)[0] if left else None


def cut_outcome(event: Event, rounds: list[Round] | None = None,
                rows: list[StandingRow] | None = None) -> list[StageOutcome]:
    """Each published stage of the top cut (everyone in it, waiting seeds too; who went on; whether it was the
    final), pods and 1v1 alike: what a final placing needs."""
    rounds = rounds_of(event) if rounds is None else rounds
    return [StageOutcome(frozenset(s["waiting"]) | {p for t in s["tables"] for p in t["players"]},
                         frozenset(t["winner"] for t in s["tables"] if t["winner"] is not None), s["final"])
            for s in cut_results(event, rounds, rows)]


def event_stats(event: Event) -> dict:
    """Meta share, win rates by commander and seat, and top-cut conversion over the published rounds."""
    rounds = rounds_of(event)
    games, matches, _byes = _scoring_inputs(event, _load_tables(event, finished_only=True))
    players = sorted(ever_seated(event))
    deck_ids = {r.deck_id: r.id for r in event.registrations if r.deck_id is not None and r.id in set(players)}
    commanders = {deck_ids[i]: list((result or {}).get("commanders") or []) for i, result in db.session.execute(
        sa.select(Decklist.id, Decklist.result).where(Decklist.id.in_(list(deck_ids))))} if deck_ids else {}
    first_cut = next((r for r in rounds if r.stage.startswith("top") and r.status != "draft"), None)
    cut = {s.registration_id for t in first_cut.tables for s in t.seats} if first_cut is not None else None
    return stats.event_stats(games, matches, commanders, players, cut)


def _winner_of(wins: Counter, ids: list[int]) -> int | None:
    """Who won more games of a match between ids[0] and ids[1]; None when they are level."""
    a, b = wins[ids[0]], wins[ids[1]]
    return None if a == b else (ids[0] if a > b else ids[1])


def _needs_a_winner(table: GameTable, **kw) -> Refused:
    return Refused(_("Table %(number)s is drawn; a single-elimination match needs a winner. "
                     "Enter the deciding game.", number=table.number), **kw)


def _games_winner(table: GameTable) -> int | None:
    """A match's winner by games won; None while it is level."""
    return _winner_of(Counter(g.winner_id for g in table.games if g.winner_id is not None),
                      [s.registration_id for s in table.seats])


def _match_winner(table: GameTable) -> int:
    winner = _games_winner(table)
    if winner is None:
        raise _needs_a_winner(table, status=409)
    return winner
