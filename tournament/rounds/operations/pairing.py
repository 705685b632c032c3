"""Rounds, pairing: a draft round paired from the standings (pods, brackets, Swiss) or the top cut's next stage,
reviewed by staff (delete the draft; corrections of its seats: seating) before it is published.

The pairing rules are pure functions (tournament.rounds.pairing); this module loads their inputs and stores
what they decide.
"""
from __future__ import annotations

import secrets

import sqlalchemy as sa
from flask_babel import gettext as _, ngettext

from ...auth.models import User
from ...errors import Refused
from ...events.models import Decklist, Event, Registration
from ...events.operations import actor_name, deck_overview, log, require_staff
from ...extensions import db
from ...i18n import english_text
from ..models import GameTable, Round, Seat
from ..pairing import next_elimination_round, pair_pods, pair_swiss, pair_top_cut
from ..pairing.brackets import pair_pods_in_brackets
from ..pairing.inputs import entrants_for, table_history
from ..pairing.quiet import collection_paused
from ..pairing.cut import POD_CUTS, advancing, cut_stage, pod_winner, valid_cut
from ...decks.brackets import bracket_rules
from ...decks.domain import N_, Text, TextList, json_value

from .queries import players_to_seat, rounds_of, _load_tables, _name
from .ranking import standings, _cut_seeds, _match_winner


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
                               round_number=number, odd_pods=event.odd_pods or "low")
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
        matches = next_elimination_round(winners)
        stage = f"top{len(winners)}"
    else:
        size = size or event.top_cut
        if size not in (4, 8):
            raise Refused(_("Choose a top cut of 4 or 8 in the event settings."), status=409,     # the event's state
                          field="top_cut")
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
            rule = event.cut_draw or "table"
            if table.result_state != "confirmed" or not (left or rule == "table"):
                raise Refused(_("Table %(number)s has no confirmed result with the player who goes on. Enter or "
                                "confirm it first.", number=table.number), status=409)
            winner, by_seed = pod_winner(left, seed_of, [s.registration_id for s in table.seats], rule)
            winners.append(winner)
            if by_seed:
                notes.append(Text(N_("Table %(table)s was drawn with several players left: the best seed among "
                                     "them, %(name)s (seed %(seed)s), goes on."), table=table.number,
                                  name=_name(event, winner), seed=seed_of[winner]) if rule == "survivor" else
                             Text(N_("Table %(table)s was drawn: the highest-ranked player at the table, %(name)s "
                                     "(seed %(seed)s), goes on."), table=table.number,
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
    stage = cut_stage(players, event.cut_seating or "seed", deal=event.cut_deal or "snake",
                      top40=event.cut_top40 or "ten_pods")
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

