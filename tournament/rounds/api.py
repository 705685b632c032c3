"""The rounds API: rounds and their tables, the clock, results, votes, standings and the top cut; staff by token,
players by their access code. Each view loads and authorizes as the pages do (tournament.rounds.views' loaders,
tournament.events.api_access's policies) and runs the same operation the page runs."""
from __future__ import annotations


from flask_babel import gettext as _

from ..errors import Refused
from ..events import loading
from ..events.api_access import Page, page, public, shaped, staff
from ..web.api import bp, operation
from ..penalties.queries import marks as penalty_marks
from . import operations as ops
from .presenting import timer_info
from .schemas import (AcceptIn, ConfirmIn, CutOut, DeletedOut, EndAtTimeIn, EventStatusOut, ExtensionIn,
                      FinishRoundIn, GameReportIn, LateArrivalIn, MinutesIn, MoveIn, PairIn, PlayerResultIn,
                      PlayerRoundOut, PlayerVoteIn, RemoveIn, ResultIn, ResultOut, RoundList, RoundOut,
                      StaffResultIn, StandingsOut, SwapIn, UnpublishIn, VoteIn)
from .views import result_table, round_, table

EVENT_URL = "/events/<int:event_id>"
ROUND_URL = f"{EVENT_URL}/rounds/<int:number>"
TABLE_URL = f"{ROUND_URL}/tables/<int:table_number>"
PLAYER_TABLE_URL = "/players/<code>/rounds/<int:number>/tables/<int:table_number>"

EVENT = (loading.event,)
# Staff operations check the token before loading the round: without one, a round that does not exist (a draft
# deleted, a round unpublished back to a draft) answers 401/403 as one that does, never 404 or 409 first.
ROUND = (loading.event, staff, round_)
TABLE = (loading.event, staff, round_, table)
RESULT_TABLE = (loading.event, staff, round_, result_table)
TAGS = ["rounds"]
RESULTS = ["results"]


def _visible_round(rh) -> None:
    """A round the caller may see: a draft is staff's only (to everyone else it does not exist)."""
    round_(rh)
    ops.require_visible(rh.round, rh.api_user)


def _player_table(rh) -> None:
    """/players/<code>/rounds/<number>/tables/<table_number>: a published round of the player's event, one of its
    tables (the operations refuse a player who is not seated there)."""
    rh.round = ops.require_visible(ops.get_round(rh.event, rh.url["number"]), None)
    rh.table = ops.get_table(rh.round, rh.url["table_number"])


PLAYER_TABLE = (loading.player, _player_table)


# ----------------------------------------------------------------- JSON shapes

def clock_json(rnd) -> dict:
    info = timer_info(rnd)
    return {"started": info["started"], "paused": info["paused"], "finished": info["finished"],
            "minutes": info["minutes"], "ends_at": info["ends_at"] or None, "remaining_seconds": info["remaining"]}


def round_summary(rnd) -> dict:
    return {"number": rnd.number, "stage": rnd.stage, "status": rnd.status,
            "seating_revision": rnd.seating_revision or 0, "tables": len(rnd.tables),
            "missing_results": len(ops.missing_results(rnd)) if rnd.status == "published" else 0,
            "created_at": rnd.created_at, "published_at": rnd.published_at, "started_at": rnd.started_at,
            "finished_at": rnd.finished_at, "clock": clock_json(rnd)}


def table_json(t) -> dict:
    return {"number": t.number, "kind": t.kind, "result_state": t.result_state,
            "result_revision": t.result_revision or 0, "extra_minutes": t.extra_minutes or 0,
            "seats": [{"seat": s.seat, "player_id": s.registration_id, "name": s.registration.name,
                       "dropped": s.registration.dropped_at is not None} for s in t.seats]}


def round_json(rnd, query: Page | None = None) -> dict:
    ops.with_tables(rnd)
    tables, next_offset = page(list(rnd.tables), query or Page())
    return shaped(RoundOut, {**round_summary(rnd), "table_list": [table_json(t) for t in tables],
                             "next_offset": next_offset})


def result_json(t, *, staff: bool) -> dict:
    """A table's result: the current one, who confirmed it, and every reported version. Votes show when they are
    visible (staff see them always)."""
    order = sorted((s for s in t.seats if s.eliminated_order), key=lambda s: s.eliminated_order)
    votes = None
    if t.kind == "pod" and ops.event_uses_votes(t.round.event) and (staff or ops.votes_visible(t)):
        votes = [{"voter": v.voter_id, "votee": v.votee_id} for v in sorted(t.votes, key=lambda v: v.voter_id)]
    return {"round": t.round.number, "table": t.number, "kind": t.kind, "state": t.result_state,
            "revision": t.result_revision or 0, "entered_by": t.result_by, "at": t.result_at,
            "survivors": [s.registration_id for s in t.seats if s.survived],
            "eliminated": [s.registration_id for s in order],
            "prizes": [{"condition": c.condition, "holder": c.holder_id, "value": c.value} for c in t.prize_claims],
            "draw": t.draw_kind if t.result_state else None, "archenemy": t.archenemy_id,
            "games": [g.winner_id for g in t.games], "match": match_json(t) if t.kind == "match" else None,
            "confirmed_by": sorted(ops.confirmers(t)),
            "needed": sorted(ops.needed_confirmers(t)), "votes": votes,
            "versions": [{"revision": r.revision, "actor": r.actor, "staff": r.staff,
                          "registration_id": r.registration_id, "at": r.at, "result": r.result or {},
                          "current": r.revision == t.result_revision} for r in t.reports]}


def match_json(t) -> dict:
    """Where a 1v1 match stands, and the sideboarding before its next game."""
    from ..swaps.operations import aware, is_open, next_sideboarding
    progress = ops.match_progress(t)
    w = next_sideboarding(t)
    sideboarding = None if w is None else {"game": w.game, "open": is_open(w), "opens_at": aware(w.opens_at),
                                           "deadline": aware(w.deadline), "closed_at": aware(w.closed_at)}
    return {"over": progress.over, "decided_by": progress.decided_by, "winner": progress.winner,
            "next_game": progress.next_game, "time_called": progress.time_called, "sideboarding": sideboarding}


# ----------------------------------------------------------------- rounds

@bp.get(f"{EVENT_URL}/rounds")
@operation("rounds_list", "The event's rounds (drafts for its staff only), with their clocks.", tags=TAGS,
           load=EVENT, policy=public, public=True, response=RoundList, errors="401 404",
           links={'rounds_get': {'number': '$response.body#/rounds/0/number'}})
def rounds_list(rh):
    rounds = [r for r in ops.rounds_of(rh.event) if ops.round_visible(r, rh.api_user)]
    return shaped(RoundList, {"rounds": [round_summary(r) for r in rounds]})


@bp.post(f"{EVENT_URL}/rounds")
@operation("rounds_pair", "Pair the next round as a draft (staff review it, then publish it).", tags=TAGS,
           load=EVENT, policy=staff, body=PairIn, body_required=False, response=RoundOut, status=201,
           errors="400 401 403 404 409 415",
           description="Refused with 409 while a round is unfinished or when players have no legal decklist "
                       "(unless override_decks).",
           links={'rounds_get': {'number': '$response.body#/number'}, 'rounds_publish': {'number': '$response.body#/number'}, 'rounds_swap': {'number': '$response.body#/number'}, 'rounds_delete': {'number': '$response.body#/number'}})
def rounds_pair(rh):
    rnd = ops.pair_next_round(rh.event, rh.user, override_decks=rh.body.override_decks)
    return round_json(rnd)


@bp.post(f"{EVENT_URL}/rounds/top-cut")
@operation("rounds_top_cut", "Pair the top cut's next stage as a draft.", tags=TAGS, load=EVENT, policy=staff,
           response=RoundOut, status=201, errors="401 403 404 409",
           links={'rounds_get': {'number': '$response.body#/number'}, 'rounds_publish': {'number': '$response.body#/number'}})
def rounds_top_cut(rh):
    return round_json(ops.pair_top_cut_round(rh.event, rh.user))


@bp.post(f"{EVENT_URL}/finish")
@operation("events_finish", "Finish the event: its results become final.", tags=TAGS, load=EVENT, policy=staff,
           response=EventStatusOut, errors="401 403 404 409")
def events_finish(rh):
    ops.finish_event(rh.event, rh.user)
    return {"id": rh.event.id, "status": rh.event.status}


@bp.get(ROUND_URL)
@operation("rounds_get", "A round with its tables and their seats (seat order).", tags=TAGS,
           load=(loading.event, public, _visible_round), public=True, query=Page, response=RoundOut,
           errors="400 401 404",
           description="Public once published; a draft is visible to the event's staff only.",
           links={'results_get': {'table_number': '$response.body#/table_list/0/number'}, 'tables_extension': {'table_number': '$response.body#/table_list/0/number'}, 'results_enter': {'table_number': '$response.body#/table_list/0/number'}, 'rounds_start': {}, 'rounds_finish': {}})
def rounds_get(rh):
    return round_json(rh.round, rh.query)


@bp.delete(ROUND_URL)
@operation("rounds_delete", "Delete a draft round.", tags=TAGS, load=ROUND, policy=staff, response=DeletedOut,
           errors="401 403 404 409")
def rounds_delete(rh):
    number = rh.round.number
    ops.delete_draft(rh.round, rh.user)
    return {"deleted": number}


SEATING = "400 401 403 404 409 415"
SEATING_NOTE = ("Refused with 409 at a table that already has a result, in a finished round, or when another "
                "correction of the round's seating was stored first (the answer says who).")


@bp.post(f"{ROUND_URL}/swap")
@operation("rounds_swap", "Swap two players' seats (a draft, or a published round at tables with no result).",
           tags=TAGS, load=ROUND, policy=staff, body=SwapIn, response=RoundOut, errors=SEATING,
           example={"first": 1, "second": 2}, description=SEATING_NOTE)
def rounds_swap(rh):
    ops.swap_seats(rh.round, rh.user, rh.body.first, rh.body.second, seen=rh.body.revision)
    return round_json(rh.round)


@bp.post(f"{ROUND_URL}/seating/move")
@operation("rounds_move", "Move a seated player to another seat or table (or a new table).", tags=TAGS,
           load=ROUND, policy=staff, body=MoveIn, response=RoundOut, errors=SEATING,
           example={"player": 1, "table": 2, "seat": 4},
           description="The players from that seat on move one seat down; the table left closes the gap (one "
                       "player left: a bye; none: the table is removed). " + SEATING_NOTE)
def rounds_move(rh):
    b = rh.body
    ops.move_player(rh.round, rh.user, b.player, b.table, b.seat, seen=b.revision)
    return round_json(rh.round)


@bp.post(f"{ROUND_URL}/seating/late-arrival")
@operation("rounds_late_arrival", "Seat a late arrival at a table, or alone at a new table.", tags=TAGS,
           load=ROUND, policy=staff, body=LateArrivalIn, response=RoundOut, errors=SEATING,
           example={"player": 1, "table": 3},
           description="A registered player not seated in the round; checked in now if they were not. "
                       + SEATING_NOTE)
def rounds_late_arrival(rh):
    b = rh.body
    ops.seat_late_arrival(rh.round, rh.user, b.player, b.table, b.seat, seen=b.revision)
    return round_json(rh.round)


@bp.post(f"{ROUND_URL}/seating/remove")
@operation("rounds_remove", "Remove a no-show from the round (and, with drop, from the event).", tags=TAGS,
           load=ROUND, policy=staff, body=RemoveIn, response=RoundOut, errors=SEATING,
           example={"player": 1, "drop": False}, description=SEATING_NOTE)
def rounds_remove(rh):
    ops.remove_player(rh.round, rh.user, rh.body.player, drop_player=rh.body.drop, seen=rh.body.revision)
    return round_json(rh.round)


@bp.post(f"{ROUND_URL}/unpublish")
@operation("rounds_unpublish", "Unpublish the round and pair it again as a new draft.", tags=TAGS, load=ROUND,
           policy=staff, body=UnpublishIn, body_required=False, response=RoundOut, errors=SEATING,
           description="Only while no table has a result (else 409). Answers the new draft: review it, then "
                       "publish it.",
           links={'rounds_publish': {'number': '$response.body#/number'}})
def rounds_unpublish(rh):
    return round_json(ops.unpublish_and_pair_again(rh.round, rh.user, seen=rh.body.revision))


def _round_action(name: str, summary: str, run, errors: str = "401 403 404 409"):
    """A staff button on a round: POST .../rounds/<number>/<name>, answered with the round."""
    def view(rh):
        run(rh)
        return round_json(rh.round)
    view.__name__ = f"rounds_{name}"
    bp.post(f"{ROUND_URL}/{name}")(operation(f"rounds_{name}", summary, tags=TAGS, load=ROUND, policy=staff,
                                             response=RoundOut, errors=errors)(view))


_round_action("publish", "Publish a draft round: players see their tables.",
              lambda rh: ops.publish_round(rh.round, rh.user))
_round_action("start", "Start the round's clock.", lambda rh: ops.start_round(rh.round, rh.user))
_round_action("pause", "Pause the round's clock.", lambda rh: ops.pause_round(rh.round, rh.user))
_round_action("resume", "Resume the round's paused clock.", lambda rh: ops.resume_round(rh.round, rh.user))


@bp.post(f"{ROUND_URL}/extend")
@operation("rounds_extend", "Add minutes to the whole round (every clock follows).", tags=TAGS, load=ROUND,
           policy=staff, body=MinutesIn, response=RoundOut, errors="400 401 403 404 409 415",
           example={"minutes": 5})
def rounds_extend(rh):
    ops.extend_round(rh.round, rh.user, rh.body.minutes)
    return round_json(rh.round)


@bp.post(f"{ROUND_URL}/finish")
@operation("rounds_finish", "Finish the round.", tags=TAGS, load=ROUND, policy=staff, body=FinishRoundIn,
           body_required=False, response=RoundOut, errors="400 401 403 404 409 415",
           description="Refused with 409 while results are missing, or unconfirmed unless accept_unconfirmed.")
def rounds_finish(rh):
    ops.finish_round(rh.round, rh.user, accept_unconfirmed=rh.body.accept_unconfirmed)
    return round_json(rh.round)


@bp.put(f"{TABLE_URL}/extension")
@operation("tables_extension", "Set one table's time extension.", tags=TAGS, load=TABLE, policy=staff,
           body=ExtensionIn, response=RoundOut, errors="400 401 403 404 409 415", example={"minutes": 3})
def tables_extension(rh):
    ops.extend_table(rh.table, rh.user, rh.body.minutes)
    return round_json(rh.round)


# ----------------------------------------------------------------- results and votes

def enter_result(t, body: ResultIn, *, reg=None, user=None) -> None:
    """The pages' enter_result with the API's body: a match's games, or a pod's survivors, eliminated, prizes and
    draw (staff: also the archenemy and every vote)."""
    key = getattr(body, "send_key", None)         # a player's (PlayerResultIn): the same report again is stored once
    if t.kind == "match":
        if body.games is None:
            raise Refused(_("This table is a 1v1 match: report its games."), field="games")
        ops.report_duel_games(t, list(body.games), time=body.time, reg=reg, user=user, revision=body.revision,
                              send_key=key)
        return
    if body.games is not None:
        raise Refused(_("This table is a pod: report survivors and votes."), field="games")
    if body.survivors is None:
        raise Refused(_("A pod's result needs its survivors: the players still in the game at the end ([] for none)."), field="survivors")
    prizes = {c: (None if claim is None else claim.model_dump()) for c, claim in body.prizes.items()}
    archenemy = getattr(body, "archenemy", None)
    kwargs = {} if "archenemy" not in body.model_fields_set else {"archenemy": archenemy or None}
    ops.report_pod_result(t, list(body.survivors), list(body.eliminated), prizes, reg=reg, user=user,
                          revision=body.revision, draw=body.draw, send_key=key, **kwargs)
    for voter, votee in getattr(body, "votes", {}).items():
        if not voter.isdigit():
            raise Refused(_("Both the voter and the player voted for must be at this table."), field="votes")
        ops.cast_vote(t, int(voter), votee, reg=reg, user=user)


@bp.get(f"{TABLE_URL}/result")
@operation("results_get", "A table's result, who confirmed it, and every reported version.", tags=RESULTS,
           load=RESULT_TABLE, policy=staff, response=ResultOut, errors="401 403 404 409")
def results_get(rh):
    return shaped(ResultOut, result_json(rh.table, staff=True))


@bp.put(f"{TABLE_URL}/result")
@operation("results_enter", "Enter or correct a table's result (final: it settles a dispute).", tags=RESULTS,
           load=RESULT_TABLE, policy=staff, body=StaffResultIn, response=ResultOut,
           errors="400 401 403 404 409 415", example={"survivors": [1], "eliminated": [2, 3, 4]},
           description="Pods: survivors (required), eliminated in order, prizes, draw, archenemy, votes. "
                       "Matches: games. With revision, refused with 409 when the result changed meanwhile.",
           links={'results_get': {}, 'results_accept': {'revision': '$response.body#/revision'}})
def results_enter(rh):
    enter_result(rh.table, rh.body, user=rh.user)
    return shaped(ResultOut, result_json(rh.table, staff=True))


@bp.post(f"{TABLE_URL}/result/versions/<int:revision>/accept")
@operation("results_accept", "Settle a dispute: accept one reported version as the table's result.", tags=RESULTS,
           load=RESULT_TABLE, policy=staff, body=AcceptIn, body_required=False, response=ResultOut,
           errors="400 401 403 404 409 415")
def results_accept(rh):
    ops.settle_dispute(rh.table, rh.url["revision"], rh.user, seen=rh.body.seen)
    return shaped(ResultOut, result_json(rh.table, staff=True))


@bp.post(f"{TABLE_URL}/games")
@operation("results_game", "Record one game of a 1v1 match as it ends (staff: final once the match is decided).",
           tags=RESULTS, load=RESULT_TABLE, policy=staff, body=GameReportIn, response=ResultOut,
           errors="400 401 403 404 409 415", example={"game": 1, "winner": 1},
           description="Refused with 409 for a game after the match is decided (a third win) or before the one "
                       "before it. Opens sideboarding for the next game.")
def results_game(rh):
    b = rh.body
    ops.report_game(rh.table, b.game, b.winner, time=b.time, user=rh.user, revision=b.revision)
    return shaped(ResultOut, result_json(rh.table, staff=True))


@bp.post(f"{TABLE_URL}/time")
@operation("results_time", "Time was called between games: end the match with the games played.", tags=RESULTS,
           load=RESULT_TABLE, policy=staff, body=EndAtTimeIn, body_required=False, response=ResultOut,
           errors="400 401 403 404 409 415")
def results_time(rh):
    ops.end_match_at_time(rh.table, user=rh.user, revision=rh.body.revision)
    return shaped(ResultOut, result_json(rh.table, staff=True))


@bp.put(f"{TABLE_URL}/votes/<int:voter_id>")
@operation("votes_cast", "Cast or change a player's vote for them (staff).", tags=RESULTS, load=RESULT_TABLE,
           policy=staff, body=VoteIn, response=ResultOut, errors="400 401 403 404 409 415", example={"votee": 2})
def votes_cast(rh):
    ops.cast_vote(rh.table, rh.url["voter_id"], rh.body.votee, user=rh.user)
    return shaped(ResultOut, result_json(rh.table, staff=True))


# ----------------------------------------------------------------- players, by their access code

def _player_view(rh, rnd, t):
    return shaped(PlayerRoundOut, _player_facts(rh, rnd, t))


def _player_facts(rh, rnd, t) -> dict:
    reg = rh.reg
    out = {"round": round_summary(rnd) if rnd is not None else None, "table": None, "result": None,
           "my_vote": None, "can_report": False, "can_confirm": False, "can_vote": False}
    if t is None:
        return out
    out["table"] = table_json(t)
    if t.kind == "bye":
        return out
    open_round = rnd.status == "published" and reg.dropped_at is None
    out.update(result=result_json(t, staff=False),
               my_vote=next((v.votee_id for v in t.votes if v.voter_id == reg.id), None),
               can_report=open_round and ops.why_not_report(t, False) is None,
               can_confirm=(open_round and t.result_state == "reported" and reg.id not in ops.confirmers(t)
                            and ops.why_not_confirm(t, reg.id, False) is None),
               can_vote=(open_round and t.kind == "pod" and ops.event_uses_votes(reg.event)
                         and ops.why_not_vote(t, False) is None))
    return out


@bp.get("/players/<code>/round")
@operation("players_round", "The player's latest published round, table and result, and what they may do.",
           tags=RESULTS, load=loading.player, public=True, response=PlayerRoundOut, errors="404 429")
def players_round(rh):
    rnd, seat = ops.current_seat(rh.reg)
    return _player_view(rh, rnd, seat.table if seat is not None else None)


def _player_answer(rh) -> dict:
    return _player_view(rh, rh.round, rh.table)


@bp.post(f"{PLAYER_TABLE_URL}/result")
@operation("players_report", "Report (or, differing from another player's report, dispute) the table's result.",
           tags=RESULTS, load=PLAYER_TABLE, public=True, body=PlayerResultIn, response=PlayerRoundOut,
           errors="400 403 404 409 415 429", example={"survivors": [1], "eliminated": [2, 3, 4]},
           description="The first report waits for the other players' confirmation; a different report from "
                       "another player marks the table disputed for a judge. A 1v1 match that two wins, three games "
                       "or time (\"time\": true) do not decide is stored in progress (see players_game).")
def players_report(rh):
    if rh.table.kind == "bye":
        raise Refused(_("A bye has no result to report."), status=409)
    enter_result(rh.table, rh.body, reg=rh.reg)
    return _player_answer(rh)


@bp.post(f"{PLAYER_TABLE_URL}/confirm")
@operation("players_confirm", "Confirm the table's reported result (the revision you saw).", tags=RESULTS,
           load=PLAYER_TABLE, public=True, body=ConfirmIn, response=PlayerRoundOut,
           errors="400 403 404 409 415 429", example={"revision": 1})
def players_confirm(rh):
    ops.confirm_result(rh.table, rh.reg, revision=rh.body.revision)
    return _player_answer(rh)


@bp.post(f"{PLAYER_TABLE_URL}/games")
@operation("players_game", "Report one game of your 1v1 match as it ends.", tags=RESULTS, load=PLAYER_TABLE,
           public=True, body=GameReportIn, response=PlayerRoundOut, errors="400 403 404 409 415 429",
           example={"game": 1, "winner": 1},
           description="The match needs no confirmation until it is decided (two wins, three games, or time); the "
                       "report that decides it waits for the opponent's confirmation of the whole match. The same "
                       "game reported by both players is stored once; a different winner is a dispute.")
def players_game(rh):
    if rh.table.kind != "match":
        raise Refused(_("This table is a pod: report survivors and votes."), status=409)
    b = rh.body
    ops.report_game(rh.table, b.game, b.winner, time=b.time, reg=rh.reg)
    return _player_answer(rh)


@bp.post(f"{PLAYER_TABLE_URL}/time")
@operation("players_time", "Time was called between games: end your match with the games played.", tags=RESULTS,
           load=PLAYER_TABLE, public=True, body=EndAtTimeIn, body_required=False, response=PlayerRoundOut,
           errors="400 403 404 409 415 429")
def players_time(rh):
    if rh.table.kind != "match":
        raise Refused(_("This table is a pod: report survivors and votes."), status=409)
    ops.end_match_at_time(rh.table, reg=rh.reg)
    return _player_answer(rh)


@bp.put(f"{PLAYER_TABLE_URL}/vote")
@operation("players_vote", "Cast or change your vote for another player at your table.", tags=RESULTS,
           load=PLAYER_TABLE, public=True, body=PlayerVoteIn, response=PlayerRoundOut,
           errors="400 403 404 409 415 429", example={"votee": 2})
def players_vote(rh):
    ops.cast_vote(rh.table, rh.reg.id, rh.body.votee, reg=rh.reg, send_key=rh.body.send_key)
    return _player_answer(rh)


# ----------------------------------------------------------------- standings and the top cut

def record_json(tally) -> dict[str, int]:
    """A standings row's record as numbers, from its counts (StandingRow.tally): survived and played for a
    "survived" pods record, else wins, losses, draws and intentional draws; byes in both."""
    if tally is None:
        return {}
    if tally.survived is not None:
        return {"survived": tally.survived, "played": tally.played, "byes": tally.byes}
    return {"wins": tally.wins, "losses": tally.losses, "draws": tally.draws, "intentional": tally.intentional,
            "byes": tally.byes}


def _standings_visible(rh) -> list:
    ops.require_standings_visible(rh.event, rh.api_user)
    return [r for r in ops.rounds_of(rh.event) if r.status != "draft"]


@bp.get(f"{EVENT_URL}/standings")
@operation("standings_get", "The standings with every tiebreaker and the record as numbers.", tags=["standings"],
           load=(loading.event, public), public=True, query=Page, response=StandingsOut, errors="400 401 404",
           description="Public once the first round is published (as the standings page). Players who never sat "
                       "in a published round follow, with played false.")
def standings_get(rh):
    _standings_visible(rh)
    rows, unplayed = ops.shown_standings(rh.event, ops.scored_tables(rh.event))
    dropped = {r.id for r in rh.event.registrations if r.dropped_at is not None}
    every = [(r, True) for r in rows] + [(r, False) for r in unplayed]
    chunk, next_offset = page(every, rh.query)
    columns = list(every[0][0].tiebreakers.keys()) if every else []
    marks = penalty_marks(rh.event.id)
    return {"tiebreakers": columns, "next_offset": next_offset, "standings": [
        {"rank": r.rank, "player_id": r.player, "name": r.name, "points": r.points,
         "tiebreakers": {k: float(v) for k, v in r.tiebreakers.items()}, "record": record_json(r.tally),
         "games": r.games, "byes": r.byes, "votes": r.votes, "dropped": r.player in dropped, "played": played,
         "disqualified": marks.get(r.player, {}).get("disqualified", False),
         "penalty_losses": marks.get(r.player, {}).get("losses", 0)}
        for r, played in chunk]}


@bp.get(f"{EVENT_URL}/top-cut")
@operation("standings_top_cut", "The top cut stage by stage: who played, who went on, by seed.",
           tags=["standings"], load=(loading.event, public), public=True, response=CutOut, errors="401 404")
def standings_top_cut(rh):
    published = _standings_visible(rh)
    rows, _unplayed = ops.shown_standings(rh.event)
    stages = ops.cut_results(rh.event, published, rows)
    seeds = stages[0]["seed"] if stages else {}
    return {"seeds": {str(k): v for k, v in seeds.items()},
            "stages": [{k: v for k, v in s.items() if k != "seed"} for s in stages]}
