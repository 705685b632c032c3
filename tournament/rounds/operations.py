"""Rounds: pairing, publishing, the timer, results, votes, prizes and standings.

Pairing and scoring are pure functions (tournament.rounds.pairing,
tournament.scoring); this module loads their inputs from the database and
stores what they decide.
"""
from __future__ import annotations

import dataclasses

import secrets
from collections import Counter
from datetime import timedelta

import sqlalchemy as sa
from flask_babel import gettext as _, lazy_gettext as _l, ngettext
from sqlalchemy.orm import selectinload, subqueryload

from ..auth.models import User
from ..cards.models import utcnow
from ..errors import NotFound, Refused
from ..events.models import Decklist, Event, Registration
from ..events.operations import actor_name, deck_overview, log, require_staff, staff_for, valid_id
from .. import backups
from ..extensions import db
from ..i18n import english_text
from ..lifecycle import after_commit
from ..timezones import as_utc
from ..scoring import get_profile, mtr_standings, pod_standings, prize_leaders
from ..scoring.domain import Bye, DuelMatch, PodGame, StandingRow
from .models import DuelGame, GameTable, PrizeClaim, ResultConfirmation, ResultReport, Round, Seat, Vote
from .pairing import pair_pods, pair_swiss, pair_top_cut
from .pairing.brackets import pair_pods_in_brackets
from .pairing.inputs import entrants_for, table_history
from .pairing.quiet import collection_paused
from .pairing.cut import POD_CUTS, StageOutcome, advancing, cut_stage, final_places, pod_winner, valid_cut
from ..decks.brackets import bracket_rules
from ..decks.domain import N_, Text, TextList, json_value
from ..scoring import stats
from ..scoring.draws import DRAW_KINDS, default_draw

# ----------------------------------------------------------------- loading

def get_round(event: Event, number) -> Round:
    rnd = None
    if valid_id(number):
        rnd = db.session.execute(sa.select(Round).where(Round.event_id == event.id, Round.number == number)).scalar()
    if rnd is None:
        raise NotFound(_("Round %(number)s does not exist yet.", number=number))
    return rnd


def _table_loads(*, results: bool = True, reports: bool = False) -> list:
    """What a page of tables shows, each in one statement whatever the number of tables.

    subqueryload repeats the tables' own WHERE as a subquery instead of listing their ids, so a
    collection costs one statement at any size (selectinload splits long id lists into chunks of
    500); a seat's registration comes in the same statement as the seat.
    """
    loads = [subqueryload(GameTable.seats).joinedload(Seat.registration)]
    if results:
        loads += [subqueryload(GameTable.games), subqueryload(GameTable.votes), subqueryload(GameTable.prize_claims),
                  subqueryload(GameTable.confirmations)]
    if reports:
        loads.append(subqueryload(GameTable.reports))
    return loads


def with_tables(rnd: Round, *, results: bool = True) -> Round:
    """Load a round's tables with what its pages show (results: also games, votes, prizes, confirmations
    and every reported version; else the seating only), in a fixed number of statements whatever its size."""
    tables = (sa.select(GameTable).where(GameTable.round_id == rnd.id)
              .options(*_table_loads(results=results, reports=results)).order_by(GameTable.number))
    loaded = list(db.session.execute(tables).scalars())
    if "tables" in sa.inspect(rnd).unloaded:
        sa.orm.attributes.set_committed_value(rnd, "tables", loaded)
    for t in loaded:
        sa.orm.attributes.set_committed_value(t, "round", rnd)
    return rnd


def get_table(rnd: Round, number) -> GameTable:
    table = None
    if valid_id(number):
        table = db.session.execute(sa.select(GameTable).where(GameTable.round_id == rnd.id,
                                                             GameTable.number == number)).scalar()
    if table is None:
        raise NotFound(_("Round %(round)s has no table %(number)s.", round=rnd.number, number=number))
    return table


def rounds_of(event: Event) -> list[Round]:
    return list(db.session.execute(sa.select(Round).where(Round.event_id == event.id).order_by(Round.number)).scalars())


def _load_tables(event: Event, finished_only: bool = False) -> list[GameTable]:
    stmt = (sa.select(GameTable).join(Round).where(Round.event_id == event.id)
            .options(*_table_loads(), sa.orm.contains_eager(GameTable.round))
            .order_by(Round.number, GameTable.number))
    if finished_only:
        stmt = stmt.where(Round.status != "draft")
    return list(db.session.execute(stmt).unique().scalars())


def seat_of(rnd: Round, reg: Registration) -> Seat | None:
    return db.session.execute(sa.select(Seat).where(Seat.round_id == rnd.id, Seat.registration_id == reg.id)).scalar()


# ----------------------------------------------------------------- standings

def _scoring_inputs(event: Event, tables: list[GameTable]):
    games, matches, byes = [], [], []
    for t in tables:
        ids = tuple(s.registration_id for s in t.seats)
        rnd = t.round.number
        if t.kind == "bye":
            byes.append(Bye(rnd, ids[0]))
        elif t.result_state != "confirmed":
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
    return games, matches, byes


def standings(event: Event, tables: list[GameTable] | None = None) -> list[StandingRow]:
    """Standings over every published round's results, in the event's scoring profile. The top cut does not
    change them (pods and 1v1 alike): they stay as they were at the cut, its seeds; the cut's own outcome is
    `cut_results`."""
    tables = _load_tables(event, finished_only=True) if tables is None else tables
    tables = [t for t in tables if not t.round.stage.startswith("top")]
    players = {r.id: r.name for r in event.registrations}
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


# ----------------------------------------------------------------- pairing

def players_to_seat(event: Event) -> list[Registration]:
    """Checked in and not dropped: late entries are seated, dropped players are not."""
    return [r for r in event.registrations if r.checked_in_at is not None and r.dropped_at is None]


def final_standings(event: Event) -> list[StandingRow]:
    """Everyone who played from first place to last, `rank` their place: with a top cut, whoever got furthest
    first (the final's winner first), then the standings (prize slips, a series' places)."""
    rows, _unplayed = shown_standings(event)
    by_player = {r.player: r for r in rows}
    order = [p for p in final_places([r.player for r in rows], cut_outcome(event, rounds_of(event), rows))
             if p in by_player]
    return [dataclasses.replace(by_player[p], rank=place) for place, p in enumerate(order, 1)]


def ever_seated(event: Event, through: int | None = None) -> set[int]:
    """Players seated in a published round (a table or a bye), up to round `through`: the others never played."""
    query = (sa.select(Seat.registration_id).distinct().join(Round, Round.id == Seat.round_id)
             .where(Round.event_id == event.id, Round.status != "draft"))
    if through is not None:
        query = query.where(Round.number <= through)
    return set(db.session.execute(query).scalars())


def shown_standings(event: Event, tables: list[GameTable] | None = None, through: int | None = None
                    ) -> tuple[list[StandingRow], list[StandingRow]]:
    """The standings as pages and printouts show them: the players seated in a published round, ranked 1..n among
    themselves (a registered player who never sat down does not take a place), and those who never played."""
    rows = standings(event, tables)
    seated = ever_seated(event, through)
    played = [dataclasses.replace(r, rank=rank)
              for rank, r in enumerate((r for r in rows if r.player in seated), 1)]
    return played, [r for r in rows if r.player not in seated]


def unready_decks(event: Event) -> list[tuple[Registration, str]]:
    """Checked-in players whose decklist is missing or not legal, with "missing" or "illegal"."""
    players = players_to_seat(event)
    overview = deck_overview(players)
    return [(r, overview[r.id]["status"]) for r in players if overview[r.id]["status"] != "legal"]


class UnreadyDecks(Refused):
    """Pairing would seat players without a legal deck: the organizer fixes that or pairs anyway."""

    def __init__(self, unready: list[tuple[Registration, str]]):
        shown = ", ".join(_("%(name)s (no decklist)", name=r.name) if status == "missing" else
                          _("%(name)s (deck not legal)", name=r.name) for r, status in unready[:10])
        n = len(unready)
        if n > 10:
            message = ngettext("%(num)d checked-in player has no legal deck: %(players)s and %(more)d more. Fix the "
                               "decks (or drop the players) at the desk, or pair anyway: that is recorded in the "
                               "event log.",
                               "%(num)d checked-in players have no legal deck: %(players)s and %(more)d more. Fix "
                               "the decks (or drop the players) at the desk, or pair anyway: that is recorded in "
                               "the event log.", n, players=shown, more=n - 10)
        else:
            message = ngettext("%(num)d checked-in player has no legal deck: %(players)s. Fix the decks (or drop the "
                               "players) at the desk, or pair anyway: that is recorded in the event log.",
                               "%(num)d checked-in players have no legal deck: %(players)s. Fix the decks (or drop "
                               "the players) at the desk, or pair anyway: that is recorded in the event log.",
                               n, players=shown)
        super().__init__(message, status=409, field="override_decks")


def player_brackets(players: list[Registration]) -> dict[int, int]:
    """Each player's bracket for seating: the one they declared, else their deck's floor, else Core."""
    deck_ids = [r.deck_id for r in players if r.deck_id is not None and not r.declared_bracket]
    floors = dict(db.session.execute(sa.select(Decklist.id, Decklist.bracket_floor)
                                     .where(Decklist.id.in_(deck_ids))).all()) if deck_ids else {}
    default = bracket_rules().undeclared
    return {r.id: r.declared_bracket or floors.get(r.deck_id) or default for r in players}


def pair_next_round(event: Event, user: User, seed: int | None = None, *, override_decks: bool = False) -> Round:
    """Pair a draft round from the standings so far; staff review it before publishing. Players whose deck
    is missing or not legal are seated only when staff say so (`override_decks`, logged with their names)."""
    require_staff(user, event)
    previous = rounds_of(event)
    if previous and previous[-1].status != "finished":
        raise Refused(_("Round %(number)s is not finished yet: enter its missing results and finish it first, or "
                        "delete its draft.", number=previous[-1].number), status=409)
    if event.status == "finished":
        raise Refused(_("The event has finished."), status=409)
    if previous and previous[-1].stage.startswith("top"):
        raise Refused(_("The top cut has begun: pair its next round with \"Pair the top cut\", or finish the event."),
                      status=409)
    players = players_to_seat(event)
    if len(players) < 2:
        raise Refused(_("At least two checked-in players are needed to pair a round. Check players in at the desk."),
                      status=409)
    unready = unready_decks(event)
    if unready and not override_decks:
        raise UnreadyDecks(unready)
    number = len(previous) + 1
    seed = secrets.randbits(62) if seed is None else seed
    rnd = Round(event_id=event.id, number=number, seed=seed, status="draft",
                stage="pods" if event.mode == "pods" else "swiss")
    db.session.add(rnd)
    db.session.flush()
    with collection_paused():
        tables = _load_tables(event, finished_only=True)
        entrants = entrants_for([(r.id, r.name) for r in players], standings(event, tables),
                                table_history(tables, event.pod_size), event.pod_size)
        if event.mode == "pods" and event.bracket_pods:
            result = pair_pods_in_brackets(entrants, player_brackets(players), pod_size=event.pod_size,
                                           leftover=event.leftover_policy, seed=seed, round_number=number)
        elif event.mode == "pods":
            result = pair_pods(entrants, pod_size=event.pod_size, leftover=event.leftover_policy, seed=seed,
                               round_number=number)
        else:
            result = pair_swiss(entrants, seed=seed, round_number=number)
    if event.mode == "pods":
        for pod in result.pods:
            _add_table(rnd, pod.table, "pod", pod.seats)
        bye_ids = list(result.byes)
    else:
        for match in result.matches:
            _add_table(rnd, match.table, "match", match.players)
        bye_ids = [result.bye] if result.bye is not None else []
    first_bye_table = len(rnd.tables) + 1
    for i, reg_id in enumerate(bye_ids):
        _add_table(rnd, first_bye_table + i, "bye", (reg_id,))
    rnd.why = why_json(result.why)
    db.session.flush()
    if event.status == "registration":
        event.status = "running"
    log(event, actor_name(user), "round.pair", round=number, seed=seed, tables=len(rnd.tables))
    if unready:
        log(event, actor_name(user), "round.pair.unready_decks", round=number,
            players=[{"id": r.id, "name": r.name, "deck": status} for r, status in unready])
    return rnd


def pair_top_cut_round(event: Event, user: User, size: int | None = None) -> Round:
    """The next round of the top cut: single elimination for 1v1 (top 4 / top 8); for pods, stages down to a
    final pod with the top seeds waiting (`pairing.cut`)."""
    require_staff(user, event)
    previous = rounds_of(event)
    if not previous or previous[-1].status != "finished":
        raise Refused(_("Finish the current round before pairing the top cut."), status=409)
    if event.status == "finished":
        raise Refused(_("The event has finished."), status=409)
    if event.mode == "pods":
        return _pair_pod_cut(event, user, previous, size)
    last = previous[-1]
    number = len(previous) + 1
    if last.stage.startswith("top"):
        winners = [_match_winner(t) for t in last.tables if t.kind == "match"]
        if len(winners) < 2:
            raise Refused(_("The top cut is over: the event has its winner."), status=409)
        from .pairing import next_elimination_round
        matches = next_elimination_round(winners)
        stage = f"top{len(winners)}"
    else:
        size = size or event.top_cut
        if size not in (4, 8):
            raise Refused(_("Choose a top cut of 4 or 8 in the event settings."), field="top_cut")
        seeds = [row.player for row in standings(event)
                 if db.session.get(Registration, row.player).dropped_at is None][:size]
        if len(seeds) < size:
            raise Refused(_("Only %(count)s players remain; a top %(size)s needs %(size)s.", count=len(seeds),
                            size=size), status=409)
        matches = pair_top_cut(seeds, size)
        stage = f"top{size}"
    rnd = Round(event_id=event.id, number=number, seed=0, status="draft", stage=stage,
                why=why_json([Text(N_("Single elimination (%(stage)s): bracket order from the standings."),
                                   stage=stage)]))
    db.session.add(rnd)
    db.session.flush()
    for m in matches:
        _add_table(rnd, m.table, "match", m.players)
    db.session.flush()
    log(event, actor_name(user), "round.pair", round=number, stage=stage)
    return rnd


def why_json(lines) -> list:
    """A round's `why` as stored: each line a message ({"template", "params"}), shown in the reader's language by
    i18n.message_text (a round stored before holds plain English strings, shown as they are)."""
    return [json_value(line) for line in lines]


def why_lines(rnd: Round) -> list[str]:
    """A round's `why` in English, line by line (the API, exports, tests)."""
    return [english_text(line) for line in rnd.why or ()]


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


def _pair_pod_cut(event: Event, user: User, previous: list[Round], size: int | None) -> Round:
    seed_of = _cut_seeds(event, previous)
    last = previous[-1]
    notes: list[str] = []
    if last.stage.startswith("top"):
        pods = [t for t in last.tables if t.kind == "pod"]
        waiting = [t.seats[0].registration_id for t in last.tables if t.kind == "bye"]
        if len(pods) == 1 and not waiting:
            raise Refused(_("The top cut is over: its final has been played."), status=409)
        winners = []
        for table in pods:
            left = [s.registration_id for s in table.seats if s.survived]
            if table.result_state != "confirmed" or not left:
                raise Refused(_("Table %(number)s has no confirmed result with the player who goes on. Enter or "
                                "confirm it first.", number=table.number), status=409)
            winner, by_seed = pod_winner(left, seed_of)
            winners.append(winner)
            if by_seed:
                notes.append(Text(N_("Table %(table)s was drawn with several players left: the best seed among "
                                     "them, %(name)s (seed %(seed)s), goes on."), table=table.number,
                                  name=_name(event, winner), seed=seed_of[winner]))
        players = advancing(winners, waiting, seed_of)
        gone = [p for p in players if db.session.get(Registration, p).dropped_at is not None]
        if gone:
            raise Refused(_("%(players)s dropped, but the next stage of the top cut needs all %(count)s who go on. "
                            "Undo the drop at the desk, or finish the event.",
                            players=", ".join(_name(event, p) for p in gone), count=len(players)), status=409)
    else:
        size = size or event.top_cut
        if not valid_cut(size or 0) or size not in POD_CUTS:
            raise Refused(_("Choose a pod top cut (4, 7, 10, 13, 16 or 40) in the event settings."), field="top_cut")
        players = [p for p, _seed in sorted(seed_of.items(), key=lambda kv: kv[1])][:size]
        if len(players) < size:
            raise Refused(_("Only %(count)s players remain; a top %(size)s needs %(size)s.", count=len(players),
                            size=size), status=409)
    stage = cut_stage(players, event.cut_seating or "seed")
    rnd = Round(event_id=event.id, number=len(previous) + 1, seed=0, status="draft", stage=f"top{len(players)}",
                why=why_json([*stage.why, *notes, Text(N_("Seeds are the standings at the cut: %(seeds)s."),
                                                       seeds=TextList([f"{seed_of[p]}. {_name(event, p)}"
                                                                       for p in players], "comma"))]))
    db.session.add(rnd)
    db.session.flush()
    for pod in stage.pods:
        _add_table(rnd, pod.table, "pod", pod.seats)
    for i, player in enumerate(stage.waiting):
        _add_table(rnd, len(stage.pods) + 1 + i, "bye", (player,))
    db.session.flush()
    log(event, actor_name(user), "round.pair", round=rnd.number, stage=rnd.stage)
    return rnd


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


def _name(event: Event, reg_id: int, missing: str = "player {id}") -> str:
    """A player of this event by name; `missing` (with {id}) for an id that is not one."""
    reg = db.session.get(Registration, reg_id)
    return reg.name if reg is not None and reg.event_id == event.id else missing.format(id=reg_id)


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


def _add_table(rnd: Round, number: int, kind: str, reg_ids) -> GameTable:
    table = GameTable(round_id=rnd.id, number=number, kind=kind)
    rnd.tables.append(table)
    for seat_no, reg_id in enumerate(reg_ids, 1):
        table.seats.append(Seat(round_id=rnd.id, registration_id=reg_id, seat=seat_no))
    return table


def delete_draft(rnd: Round, user: User) -> None:
    require_staff(user, rnd.event)
    if rnd.status != "draft":
        raise Refused(_("Only a draft can be deleted; this round is published."), status=409)
    log(rnd.event, actor_name(user), "round.delete_draft", round=rnd.number, seed=rnd.seed)
    db.session.delete(rnd)
    db.session.flush()


def swap_seats(rnd: Round, user: User, first_id: int, second_id: int) -> None:
    """A judge swaps two players' places (table and seat) before the pairing is published."""
    require_staff(user, rnd.event)
    if rnd.status != "draft":
        raise Refused(_("Seats can only be swapped before the round is published."), status=409)
    a = db.session.execute(sa.select(Seat).where(Seat.round_id == rnd.id, Seat.registration_id == first_id)).scalar()
    b = db.session.execute(sa.select(Seat).where(Seat.round_id == rnd.id, Seat.registration_id == second_id)).scalar()
    if a is None or b is None or a.id == b.id:
        raise Refused(_("Choose two different players who are seated in this round."))
    before = {"a": (a.table.number, a.seat), "b": (b.table.number, b.seat)}
    a_place, b_place = (a.table_id, a.seat), (b.table_id, b.seat)
    a.seat = -a.seat
    db.session.flush()
    b.table_id, b.seat = a_place
    db.session.flush()
    a.table_id, a.seat = b_place
    db.session.flush()
    db.session.expire(a)
    db.session.expire(b)
    for t in rnd.tables:
        db.session.expire(t, ["seats"])
    log(rnd.event, actor_name(user), "round.swap_seats", round=rnd.number,
        players=[first_id, second_id], before=before)


def publish_round(rnd: Round, user: User) -> Round:
    require_staff(user, rnd.event)
    if rnd.status != "draft":
        raise Refused(_("This round is already published."), status=409)
    rnd.status = "published"
    rnd.published_at = utcnow()
    log(rnd.event, actor_name(user), "round.publish", round=rnd.number)
    after_commit(backups.after_round, rnd.number, "published")
    return rnd


def start_round(rnd: Round, user: User) -> Round:
    """Start the round timer (a stored deadline) and every table's game."""
    require_staff(user, rnd.event)
    if rnd.status != "published":
        raise Refused(_("Publish the pairings before starting the round."), status=409)
    if rnd.started_at is not None:
        raise Refused(_("The round has already started."), status=409)
    now = utcnow()
    rnd.started_at = now
    rnd.ends_at = now + timedelta(minutes=rnd.event.round_minutes)
    for t in rnd.tables:
        if t.kind != "bye" and t.started_at is None:
            t.started_at = now
    log(rnd.event, actor_name(user), "round.start", round=rnd.number, ends_at=rnd.ends_at.isoformat())
    return rnd


MAX_EXTENSION_MINUTES = 120


def _running_clock(rnd: Round, user: User) -> None:
    require_staff(user, rnd.event)
    if rnd.status != "published" or rnd.started_at is None or rnd.ends_at is None:
        raise Refused(_("The round clock is not running: start the round first."), status=409)


def _minutes(value, what: str, lo: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= MAX_EXTENSION_MINUTES:
        raise Refused(_("%(what)s must be a whole number of minutes from %(lo)s to %(hi)s.", what=what, lo=lo,
                        hi=MAX_EXTENSION_MINUTES), field="minutes")
    return value


def pause_round(rnd: Round, user: User) -> Round:
    """Stop the clock (a fire alarm, a venue problem): the time left is kept until it is resumed."""
    _running_clock(rnd, user)
    if rnd.paused_at is not None:
        raise Refused(_("The round clock is already paused."), status=409)
    rnd.paused_at = utcnow()
    log(rnd.event, actor_name(user), "round.pause", round=rnd.number)
    return rnd


def resume_round(rnd: Round, user: User) -> Round:
    """Start the clock again: the deadline moves on by the time it stood still."""
    _running_clock(rnd, user)
    if rnd.paused_at is None:
        raise Refused(_("The round clock is not paused."), status=409)
    stood = utcnow() - as_utc(rnd.paused_at)
    rnd.ends_at = as_utc(rnd.ends_at) + stood
    rnd.paused_at = None
    log(rnd.event, actor_name(user), "round.resume", round=rnd.number, paused_seconds=int(stood.total_seconds()),
        ends_at=rnd.ends_at.isoformat())
    return rnd


def extend_round(rnd: Round, user: User, minutes) -> Round:
    """More time for every table (the round started late, a long announcement)."""
    _running_clock(rnd, user)
    minutes = _minutes(minutes, _("The time added"), 1)
    rnd.ends_at = as_utc(rnd.ends_at) + timedelta(minutes=minutes)
    log(rnd.event, actor_name(user), "round.extend", round=rnd.number, minutes=minutes,
        ends_at=rnd.ends_at.isoformat())
    return rnd


def extend_table(table: GameTable, user: User, minutes) -> GameTable:
    """A table's own time extension (a judge call, a deck check): its clock ends that much later."""
    _running_clock(table.round, user)
    if table.kind == "bye":
        raise Refused(_("A bye has no clock."), status=409)
    minutes = _minutes(minutes, _("A table's extension"), 0)
    before = table.extra_minutes or 0
    table.extra_minutes = minutes
    log(table.round.event, actor_name(user), "table.extend", round=table.round.number, table=table.number,
        minutes=minutes, before=before)
    return table


def finish_event(event: Event, user: User) -> Event:
    """The last round is over: results are final from now on (for staff too), the standings are the final
    ones, and the decklists become public when the event says so."""
    require_staff(user, event, organizer_only=True)
    if event.status == "finished":
        raise Refused(_("The event has already finished."), status=409)
    rounds = rounds_of(event)
    if not rounds:
        raise Refused(_("No round has been played yet: there is nothing to finish."), status=409)
    if rounds[-1].status != "finished":
        raise Refused(_("Round %(number)s is not finished yet: finish it (or delete its draft) first.",
                        number=rounds[-1].number), status=409)
    event.status = "finished"
    log(event, actor_name(user), "event.finish", rounds=len(rounds), decklists_public=bool(event.publish_decklists))
    from ..series.operations import event_status_changed      # series builds on rounds
    event_status_changed(event, actor_name(user))
    after_commit(backups.after_round, rounds[-1].number, "event-finished")
    return event


def missing_results(rnd: Round) -> list[GameTable]:
    return [t for t in rnd.tables if t.kind != "bye" and t.result_state is None]


def unconfirmed_results(rnd: Round) -> list[GameTable]:
    """Tables with a result that is only reported, or disputed: not final until confirmed or settled."""
    return [t for t in rnd.tables if t.kind != "bye" and t.result_state in ("reported", "disputed")]


def finish_round(rnd: Round, user: User, accept_unconfirmed: bool = False) -> Round:
    """Close the round. Unconfirmed or disputed tables need staff to accept them as they stand (logged)."""
    require_staff(user, rnd.event)
    if rnd.status != "published":
        raise Refused(_("Only a published round can be finished."), status=409)
    missing = missing_results(rnd)
    if missing:
        raise Refused(_("Results are missing for table %(tables)s.",
                        tables=", ".join(str(t.number) for t in missing)), status=409)
    pending = unconfirmed_results(rnd)
    if pending and not accept_unconfirmed:
        disputed = [t for t in pending if t.result_state == "disputed"]
        tables = ", ".join(str(t.number) for t in pending)
        if disputed:
            message = ngettext("%(num)d table is not confirmed yet (table %(tables)s), %(disputed)d of them disputed. "
                               "Settle or confirm them, or finish anyway to accept the results as they stand.",
                               "%(num)d tables are not confirmed yet (table %(tables)s), %(disputed)d of them "
                               "disputed. Settle or confirm them, or finish anyway to accept the results as they "
                               "stand.", len(pending), tables=tables, disputed=len(disputed))
        else:
            message = ngettext("%(num)d table is not confirmed yet (table %(tables)s). Settle or confirm them, or "
                               "finish anyway to accept the results as they stand.",
                               "%(num)d tables are not confirmed yet (table %(tables)s). Settle or confirm them, or "
                               "finish anyway to accept the results as they stand.", len(pending), tables=tables)
        raise Refused(message, status=409)
    if pending:
        log(rnd.event, actor_name(user), "round.finish_override", round=rnd.number,
            tables=[{"table": t.number, "state": t.result_state, "revision": t.result_revision} for t in pending])
        for t in pending:
            t.result_state = "confirmed"
    rnd.status = "finished"
    rnd.finished_at = utcnow()
    log(rnd.event, actor_name(user), "round.finish", round=rnd.number)
    after_commit(backups.after_round, rnd.number, "finished")
    return rnd


# ----------------------------------------------------------------- who may do what (views, templates, API use these)

def event_uses_votes(event: Event) -> bool:
    """Democratic votes are cast at pod tables when the event's scoring profile scores them."""
    if event.mode != "pods":
        return False
    try:
        return bool(get_profile(event.scoring_profile).uses_votes)
    except Exception:   # noqa: BLE001 - an unknown profile id: fall back to the seed's rule
        return event.scoring_profile == "democratic"


def round_visible(rnd: Round, user: User | None) -> bool:
    """Drafts are for the event's staff only: to everyone else they do not exist."""
    return rnd.status != "draft" or staff_for(user, rnd.event) is not None


def require_visible(rnd: Round, user: User | None) -> Round:
    if not round_visible(rnd, user):
        raise NotFound(_("Round %(number)s does not exist yet.", number=rnd.number))
    return rnd


def current_round(event: Event) -> Round | None:
    """The round players see: the latest one that is published (or finished)."""
    return db.session.execute(sa.select(Round).where(Round.event_id == event.id, Round.status != "draft")
                              .order_by(Round.number.desc()).limit(1)).scalar()


def current_seat(reg: Registration) -> tuple[Round | None, Seat | None]:
    """The player's current round and seat in it (None when not seated): one definition for every page."""
    rnd = current_round(reg.event)
    if rnd is None:
        return None, None
    seat = db.session.execute(sa.select(Seat).where(Seat.round_id == rnd.id, Seat.registration_id == reg.id)
                              .options(selectinload(Seat.table).selectinload(GameTable.seats)
                                       .joinedload(Seat.registration))).scalar()
    return rnd, seat


_NOT_AT_TABLE = {
    "report its result": _l("Only the players at this table or staff can report its result."),
    "confirm its result": _l("Only the players at this table or staff can confirm its result."),
    "vote": _l("Only the players at this table or staff can vote."),
    "use its tracker": _l("Only the players at this table or staff can use its tracker."),
}
_DROPPED = {
    "report its result": _l("You have dropped from the event, so you cannot report its result. Ask a judge if this "
                            "is wrong."),
    "confirm its result": _l("You have dropped from the event, so you cannot confirm its result. Ask a judge if this "
                             "is wrong."),
    "vote": _l("You have dropped from the event, so you cannot vote. Ask a judge if this is wrong."),
    "use its tracker": _l("You have dropped from the event, so you cannot use its tracker. Ask a judge if this is "
                          "wrong."),
}


def table_actor(table: GameTable, reg: Registration | None, user: User | None,
                doing: str = "report its result") -> tuple[str, bool]:
    """Who is acting at a table (its players or the event's staff), and whether they are staff.
    `doing`: one of the actions of _NOT_AT_TABLE (what the refusals name)."""
    event = table.round.event
    if table.round.status == "draft":
        raise Refused(_("Publish the round first: its pairings are still a draft."), status=409)
    if staff_for(user, event) is not None:
        return actor_name(user), True
    if reg is None or reg.event_id != event.id or not any(s.registration_id == reg.id for s in table.seats):
        raise Refused(_NOT_AT_TABLE.get(doing) or f"Only the players at this table or staff can {doing}.",
                      status=403)
    if reg.dropped_at is not None:
        raise Refused(_DROPPED.get(doing) or
                      f"You have dropped from the event, so you cannot {doing}. Ask a judge if this is wrong.",
                      status=403)
    return f"player:{reg.id}", False


def confirmers(table: GameTable) -> set[int]:
    """Who has confirmed the table's current result revision."""
    return {c.registration_id for c in table.confirmations if c.revision == table.result_revision}


def needed_confirmers(table: GameTable) -> set[int]:
    """Every player still in the event at the table must agree (a dropped player cannot)."""
    return {s.registration_id for s in table.seats if s.registration.dropped_at is None}


def why_not_report(table: GameTable, staff: bool) -> str | None:
    """None when a result may be reported now; else what to do instead."""
    if table.kind == "bye":
        return _("A bye has no result to report.")
    if table.round.event.status == "finished":
        return _("The event has finished: its results are final.")
    if staff:
        return _why_not_correct_cut(table)
    if table.round.status == "finished":
        return _("This round is finished; ask a judge to correct it.")
    if table.result_state == "confirmed":
        return _("This result is confirmed; ask a judge to correct it.")
    if table.result_state == "disputed":
        return _("The players at this table reported different results: a judge will settle it.")
    return None


def _why_not_correct_cut(table: GameTable) -> str | None:
    """A top cut table whose result the next stage was paired from: who went on is settled by that pairing."""
    rnd = table.round
    if not rnd.stage.startswith("top"):
        return None
    later = db.session.scalar(sa.select(Round).where(Round.event_id == rnd.event_id, Round.number > rnd.number)
                              .order_by(Round.number).limit(1))
    if later is None:
        return None
    if later.status == "draft":
        return _("Round %(next)s is paired from this result: delete its draft first, then correct table "
                 "%(table)s and pair it again.", next=later.number, table=table.number)
    return _("Round %(next)s is paired from this result and published: table %(table)s can no longer be "
             "corrected.", next=later.number, table=table.number)


def why_not_confirm(table: GameTable, reg_id: int | None, staff: bool, revision: int | None = None) -> str | None:
    if table.kind == "bye" or table.result_state is None:
        return _("There is no result to confirm yet.")
    if table.round.event.status == "finished":
        return _("The event has finished: its results are final.")
    if table.round.status == "finished" and not staff:
        return _("This round is finished; its results are final.")
    if table.result_state == "disputed" and not staff:
        return _("The players at this table reported different results: a judge will settle it.")
    if revision is not None and revision != table.result_revision:
        return _("The result changed since you opened the page: look at it again before you confirm.")
    return None


def why_not_vote(table: GameTable, staff: bool) -> str | None:
    if table.kind != "pod" or not event_uses_votes(table.round.event):
        return _("Votes are for pod games of events that score them.")
    if table.round.event.status == "finished":
        return _("The event has finished: its results are final.")
    if table.round.status == "finished" and not staff:
        return _("This round is finished; votes are closed.")
    return None


def _refuse_if(reason: str | None, status: int = 409) -> None:
    if reason:
        raise Refused(reason, status=status)


def _seated_ids(table: GameTable) -> list[int]:
    return [s.registration_id for s in table.seats]


def _clean_ids(values, table: GameTable, field: str, label: str) -> list[int]:
    if values is None:
        return []
    if not isinstance(values, (list, tuple)) or not all(isinstance(v, int) and not isinstance(v, bool)
                                                       for v in values):
        raise Refused(_("%(label)s must be a list of player ids.", label=label), field=field)
    seated = set(_seated_ids(table))
    stray = [v for v in values if v not in seated]
    if stray:
        raise Refused(_("%(label)s: player %(player)s is not at table %(table)s.", label=label,
                        player=_name(table.round.event, stray[0], missing="#{id}"), table=table.number), field=field)
    if len(set(values)) != len(values):
        raise Refused(_("%(label)s lists a player twice.", label=label), field=field)
    return list(values)


def _result_snapshot(table: GameTable) -> dict:
    if table.kind == "match":
        return {"games": [g.winner_id for g in table.games]}
    return {"survivors": sorted(s.registration_id for s in table.seats if s.survived),
            "eliminated": [s.registration_id for s in sorted(table.seats, key=lambda s: s.eliminated_order or 99)
                           if s.eliminated_order],
            "prizes": {c.condition: [c.holder_id, c.value] for c in table.prize_claims},
            "archenemy": table.archenemy_id, "draw": _stored_draw(table)}


def _stored_draw(table: GameTable) -> str | None:
    """The draw kind of a pod result; a result stored before kinds existed reads as the kind it would get now,
    so the same result reported again is not taken for a different one."""
    if table.draw_kind is not None or table.result_state is None:
        return table.draw_kind
    left = [s.registration_id for s in table.seats if s.survived]
    arch = table.archenemy_id
    if arch is not None and (arch not in left or len(left) == 1):
        return None
    return default_draw(len(left))


def _record(table: GameTable, actor: str, staff: bool, reg: Registration | None, before: dict | None,
            seen_revision: int | None) -> None:
    """Store a new version of the table's result, or recognise a repeat or a dispute.

    Staff: the result is final (and settles a dispute). A player: the first report is "reported"
    with the reporter's own confirmation; the same result again only confirms it; their own
    correction before anyone else agreed is a new revision; anything else that differs marks the
    table disputed, keeping every version for staff.
    """
    after = _result_snapshot(table)
    event = table.round.event
    if not staff and before is not None and after == before:
        if table.result_state == "reported" and reg.id not in confirmers(table):
            _add_confirmation(table, reg.id)
        return
    if staff:
        state = "confirmed"
    elif before is None:
        state = "reported"
    elif (table.result_state == "reported" and seen_revision in (None, table.result_revision)
          and _last_reporter(table) == reg.id and confirmers(table) <= {reg.id}):
        state = "reported"
    else:
        state = "disputed"
    table.result_revision = (table.result_revision or 0) + 1
    table.result_state = state
    table.result_by = actor
    table.result_at = utcnow()
    table.reports.append(ResultReport(revision=table.result_revision, actor=actor, staff=staff,
                                      registration_id=reg.id if reg is not None and not staff else None,
                                      result=after, at=table.result_at))
    if state == "reported":
        _add_confirmation(table, reg.id)
    action = ("result.enter" if before is None else "result.correct") if staff else (
        "result.dispute" if state == "disputed" else "result.report")
    log(event, actor, action, round=table.round.number, table=table.number, revision=table.result_revision,
        before=before, after=after)


def _last_reporter(table: GameTable) -> int | None:
    return table.reports[-1].registration_id if table.reports else None


def _add_confirmation(table: GameTable, reg_id: int) -> None:
    table.confirmations.append(ResultConfirmation(registration_id=reg_id, revision=table.result_revision))
    db.session.flush()
    if needed_confirmers(table) <= confirmers(table):
        table.result_state = "confirmed"


def lock_table(table: GameTable) -> GameTable:
    """Writes at one table take turns (PostgreSQL: a row lock; SQLite: the request's write lock),
    and then read the table as it is now."""
    db.session.execute(sa.select(GameTable.id).where(GameTable.id == table.id).with_for_update())
    db.session.expire(table)
    return table


def _check_changeable(table: GameTable, staff: bool, seen: int | None = None) -> dict | None:
    """The stored result before a change (None: none yet). Staff who name the revision they saw are refused
    when it is no longer the table's: two judges at one table, or a page opened before a colleague's entry."""
    _refuse_if(why_not_report(table, staff))
    if staff and seen is not None and seen != (table.result_revision or 0):
        raise Refused(_("Table %(number)s: the result changed since you opened the page (someone else entered "
                        "or accepted one). Look at it again, then enter yours if it is still wrong.",
                        number=table.number), status=409)
    if table.result_state is None:
        return None
    return _result_snapshot(table)


KEEP = object()   # report_pod_result(archenemy=KEEP): leave the table's archenemy as it is


def report_pod_result(table: GameTable, survivors, eliminated=None, prizes=None, *,
                      reg: Registration | None = None, user: User | None = None, archenemy=KEEP,
                      revision: int | None = None, draw: str | None = None) -> GameTable:
    """Survivors at the end (or at time), optional elimination order and prize claims.

    `draw`: why a game with nobody or two or more players left is drawn (time, intentional, board;
    tournament/data/draws.json); unnamed, it is time with players left and the board state with nobody.
    An intentional draw is refused when the event does not allow them.

    `archenemy` (staff only): the player who was the archenemy of an Archenemy game at this
    table, or None for a game that was not one; KEEP (default) leaves what the tracker recorded.
    """
    actor, staff = table_actor(table, reg, user)
    if table.kind != "pod":
        raise Refused(_("This table is a 1v1 match: report its games."), status=409)
    lock_table(table)
    before = _check_changeable(table, staff, revision)
    if archenemy is not KEEP:
        if not staff:
            raise Refused(_("Only a judge or the organizer may set the archenemy."), field="archenemy", status=403)
        if archenemy is not None and (isinstance(archenemy, bool) or archenemy not in _seated_ids(table)):
            raise Refused(_("The archenemy must be a player at table %(number)s.", number=table.number),
                          field="archenemy")
        table.archenemy_id = archenemy
    survivors = _clean_ids(survivors, table, "survivors", _("Survivors"))
    eliminated = _clean_ids(eliminated, table, "eliminated", _("Eliminated"))
    if set(survivors) & set(eliminated):
        raise Refused(_("A player cannot both survive and be eliminated."), field="eliminated")
    for s in table.seats:
        s.survived = s.registration_id in survivors
        s.eliminated_order = eliminated.index(s.registration_id) + 1 if s.registration_id in eliminated else None
    _set_prizes(table, prizes)
    if not survivors and not staff:
        raise Refused(_("Tick the players still alive at the end (or when time was called): at least one. "
                        "If everyone lost at once, ask a judge to enter the result."), field="survivors")
    if not survivors and table.round.stage.startswith("top"):
        raise Refused(_("A top-cut pod needs the player who goes on: enter its winner (or the players left when time "
                        "was called; the best seed of them goes on)."), field="survivors")
    table.draw_kind = _draw_kind(table, draw, survivors, staff)
    db.session.flush()
    _record(table, actor, staff, reg, before, revision)
    return table


def _draw_kind(table: GameTable, draw, survivors: list[int], staff: bool) -> str | None:
    """The kind of a drawn game, None for a decided one: one player left, or an Archenemy game one side won
    (a draw choice sent with it, e.g. a form still showing an earlier result, is not a draw)."""
    arch = table.archenemy_id
    if len(survivors) == 1 or (arch is not None and (arch not in survivors or len(survivors) == 1)):
        return None
    allowed = [k for k in DRAW_KINDS if k != "intentional" or table.round.event.intentional_draws is not False
               or staff]
    if draw in (None, ""):
        return default_draw(len(survivors))
    if not isinstance(draw, str) or draw not in DRAW_KINDS:
        raise Refused(_("A draw is one of: %(kinds)s.", kinds=", ".join(allowed)), field="draw")
    if draw not in allowed:
        raise Refused(_("This event does not allow intentional draws (its rules): play the game out, or ask a "
                        "judge."), field="draw", status=409)
    return draw


def _set_prizes(table: GameTable, prizes) -> None:
    if prizes is None:
        return
    if not isinstance(prizes, dict):
        raise Refused(_("Prize claims must map a condition to its holder and value."), field="prizes")
    known = {c["id"]: c for c in table.round.event.prize_conditions or []}
    seated = set(_seated_ids(table))
    for claim in list(table.prize_claims):
        table.prize_claims.remove(claim)
    db.session.flush()
    for cid, claim in prizes.items():
        if cid not in known:
            raise Refused(_("Unknown prize condition %(id)s.", id=repr(str(cid)[:60])), field="prizes")
        if claim in (None, "", {}):
            continue
        if not isinstance(claim, dict) or not isinstance(claim.get("holder"), int) or claim["holder"] not in seated:
            raise Refused(_("%(prize)s: choose a player at this table.", prize=known[cid]["name"]), field="prizes")
        value = claim.get("value")
        if value is not None:
            try:
                value = float(value)
            except (TypeError, ValueError):
                raise Refused(_("%(prize)s: the value must be a number.", prize=known[cid]["name"]),
                              field="prizes") from None
            if not (0 <= value < 1e9):
                raise Refused(_("%(prize)s: the value must be between 0 and 1,000,000,000.", prize=known[cid]["name"]),
                              field="prizes")
        table.prize_claims.append(PrizeClaim(condition=cid, holder_id=claim["holder"], value=value))


def report_duel_games(table: GameTable, winners, *, reg: Registration | None = None,
                      user: User | None = None, revision: int | None = None) -> GameTable:
    """Game by game: each entry is the winner's player id, or None for a drawn game."""
    actor, staff = table_actor(table, reg, user)
    if table.kind != "match":
        raise Refused(_("This table is a pod: report survivors and votes."), status=409)
    lock_table(table)
    before = _check_changeable(table, staff, revision)
    if not isinstance(winners, (list, tuple)) or not 1 <= len(winners) <= 3:
        raise Refused(_("Report one to three games."), field="games")
    seated = _seated_ids(table)
    tally = Counter()
    for i, w in enumerate(winners, 1):
        if w is not None and (not isinstance(w, int) or isinstance(w, bool) or w not in seated):
            raise Refused(_("Game %(number)s: the winner must be one of the two players, or a draw.", number=i),
                          field="games")
        if max(tally.values(), default=0) >= 2:
            raise Refused(_("Game %(number)s cannot be played: the match was already won 2–%(lost)s.", number=i,
                            lost=sum(tally.values()) - 2), field="games")
        if w is not None:
            tally[w] += 1
    if table.round.stage.startswith("top") and _winner_of(tally, seated) is None:
        raise _needs_a_winner(table, field="games", status=400)
    for g in list(table.games):
        table.games.remove(g)
    db.session.flush()
    for i, w in enumerate(winners, 1):
        table.games.append(DuelGame(number=i, winner_id=w))
    db.session.flush()
    _record(table, actor, staff, reg, before, revision)
    return table


def confirm_result(table: GameTable, reg: Registration | None = None, user: User | None = None,
                   revision: int | None = None) -> GameTable:
    """Another player at the table agrees with the result they saw (its revision); staff confirm it for
    everyone. Confirming twice is harmless; confirming a result that has changed is refused."""
    actor, staff = table_actor(table, reg, user, doing="confirm its result")
    lock_table(table)
    _refuse_if(why_not_confirm(table, reg.id if reg else None, staff, revision))
    if staff:
        table.result_state = "confirmed"
    elif table.result_state == "confirmed" or reg.id in confirmers(table):
        return table
    else:
        _add_confirmation(table, reg.id)
    log(table.round.event, actor, "result.confirm", round=table.round.number, table=table.number,
        revision=table.result_revision)
    return table


def settle_dispute(table: GameTable, revision: int, user: User, seen: int | None = None) -> GameTable:
    """Staff accept one reported version of a disputed (or any) result as the final one. `seen`: the table's
    revision on the page the choice was made on (a colleague's decision since then is not overwritten)."""
    require_staff(user, table.round.event)
    chosen = next((r for r in table.reports if r.revision == revision), None)
    if chosen is None or not chosen.result:
        raise Refused(_("Table %(number)s has no version %(revision)s to accept.", number=table.number,
                        revision=revision), status=404)
    data = chosen.result
    if table.kind == "match":
        return report_duel_games(table, data.get("games") or [], user=user, revision=seen)
    prizes = {c: {"holder": v[0], "value": v[1]} for c, v in (data.get("prizes") or {}).items()}
    return report_pod_result(table, data.get("survivors") or [], data.get("eliminated") or [], prizes, user=user,
                             draw=data.get("draw"), revision=seen)


def cast_vote(table: GameTable, voter_id: int, votee_id: int, *, reg: Registration | None = None,
              user: User | None = None) -> Vote:
    """One vote per voter per game, for another player at the table; changeable until the round ends."""
    actor, staff = table_actor(table, reg, user, doing="vote")
    if table.kind != "pod":
        raise Refused(_("Votes are for pod games."), status=409)
    if not staff and (reg is None or voter_id != reg.id):
        raise Refused(_("You can only cast your own vote."), status=403)
    _refuse_if(why_not_vote(table, staff))
    lock_table(table)
    seated = _seated_ids(table)
    for v in (voter_id, votee_id):
        if not isinstance(v, int) or isinstance(v, bool) or v not in seated:
            raise Refused(_("Both the voter and the player voted for must be at this table."), field="vote")
    if voter_id == votee_id:
        raise Refused(_("Vote for one of the other players at your table, not yourself."), field="vote")
    vote = db.session.execute(sa.select(Vote).where(Vote.table_id == table.id, Vote.voter_id == voter_id)).scalar()
    before = vote.votee_id if vote else None
    if vote is not None and vote.votee_id == votee_id:
        return vote                       # the same vote again (a double tap): nothing changes
    if vote is None:
        vote = Vote(voter_id=voter_id, votee_id=votee_id)
        table.votes.append(vote)
    else:
        vote.votee_id = votee_id
        vote.cast_at = utcnow()
    db.session.flush()
    log(table.round.event, actor, "vote", round=table.round.number, table=table.number, voter=voter_id,
        votee=votee_id, before=before)
    return vote


def votes_visible(table: GameTable) -> bool:
    """Votes stay hidden (from the table and the public standings) until everyone still in the event has
    voted or the round is finished, if the event says so."""
    if not table.round.event.hide_votes or table.round.status == "finished":
        return True
    return {v.voter_id for v in table.votes} >= needed_confirmers(table)
