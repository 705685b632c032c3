"""Rounds, 1v1 matches game by game: each game reported as it ends (by either player or staff), the match ended at
time (the MTR's end-of-match procedure), or every game entered at once by staff (and a dispute settled that way).

A match in progress has no result to confirm (its table's result_state stays NULL, its games are stored); the
report that decides it (two wins, three games, or time called) makes it "reported", and the other player confirms
the whole match. Every change is a new revision of the table's result, kept with who and when (ResultReport) and
logged; a game reported differently by the two players marks the table disputed for a judge.

The rules are tournament.scoring.match (plain data); this module loads and stores.
"""
from __future__ import annotations

from datetime import timedelta

from flask_babel import gettext as _

from ...auth.models import User
from ...cards.models import utcnow
from ...errors import Refused
from ...events.models import Registration
from ...events.operations import log, require_staff
from ...extensions import db
from ...scoring.match import MAX_GAMES, MatchProgress, progress_of, why_not_game, with_game
from ...signals import duel_game_reported
from ...timezones import as_utc, clock_text
from ..models import DuelGame, GameTable

from .queries import lock_table, sent_before, _seated_ids
from .policy import confirmers, table_actor, why_not_report, _refuse_if
from .ranking import _needs_a_winner
from .results import report_pod_result, _add_confirmation, _result_snapshot, _version


def match_progress(table: GameTable) -> MatchProgress:
    """The match as stored: its reported games in order, whether time was called."""
    return progress_of(_seated_ids(table), [g.winner_id for g in table.games], table.time_called_at is not None)


def time_is_up(table: GameTable, now=None) -> bool:
    """The round's clock (with the table's extension) has run out, or no clock runs: players may end at time."""
    rnd = table.round
    ends = as_utc(rnd.ends_at)
    if ends is None:
        return rnd.started_at is None
    if rnd.paused_at is not None:
        return False
    return (now or utcnow()) >= ends + timedelta(minutes=table.extra_minutes or 0)


def _match_table(table: GameTable, reg: Registration | None, user: User | None, revision: int | None):
    """Who acts, whether staff, and the match before the change (the table locked, its result changeable)."""
    actor, staff = table_actor(table, reg, user)
    if table.kind != "match":
        raise Refused(_("This table is a pod: report survivors and votes."), status=409)
    lock_table(table)
    _refuse_if(why_not_report(table, staff))
    if staff and revision is not None and revision != (table.result_revision or 0):
        raise Refused(_("Table %(number)s: the result changed since you opened the page (someone else entered "
                        "or accepted one). Look at it again, then enter yours if it is still wrong.",
                        number=table.number), status=409)
    return actor, staff


def _winner_id(table: GameTable, winner, number: int, field: str = "winner") -> int | None:
    if winner is not None and (isinstance(winner, bool) or not isinstance(winner, int)
                               or winner not in _seated_ids(table)):
        raise Refused(_("Game %(number)s: the winner must be one of the two players, or a draw.", number=number),
                      field=field)
    return winner


def _check_time(table: GameTable, staff: bool) -> None:
    if staff or time_is_up(table):
        return
    ends = clock_text(table.round.ends_at, table.round.event) if table.round.ends_at else ""
    raise Refused(_("Time has not been called yet (the round ends at %(time)s). Report the game as it ended, or "
                    "ask a judge.", time=ends), field="time", status=409)


def _store(table: GameTable, progress: MatchProgress, actor: str, changed: int | None) -> None:
    """Make the table's games and time mark what `progress` says; `changed`: the game whose report is new."""
    now = utcnow()
    stored = {g.number: g for g in table.games}
    for number, winner in enumerate(progress.games, 1):
        game = stored.pop(number, None)
        if game is None:
            table.games.append(DuelGame(number=number, winner_id=winner, reported_at=now, reported_by=actor))
        elif game.winner_id != winner or number == changed:
            game.winner_id, game.reported_at, game.reported_by = winner, now, actor
    for game in stored.values():
        table.games.remove(game)
    if progress.time_called and table.time_called_at is None:
        table.time_called_at = now
    elif not progress.time_called:
        table.time_called_at = None
    db.session.flush()


def _decided_state(table: GameTable, progress: MatchProgress, staff: bool, field: str) -> str | None:
    """The result state a change leaves: None while the match is in progress; decided, "confirmed" from staff,
    else "reported" (the other player confirms). A top-cut match cannot end level."""
    if not progress.over:
        return None
    if progress.winner is None and table.round.stage.startswith("top"):
        raise _needs_a_winner(table, field=field, status=400)
    return "confirmed" if staff else "reported"


def _own_correction(table: GameTable, reg: Registration, number: int) -> bool:
    """A player changing their own report of the latest game while nobody else has agreed with it."""
    latest = table.games[-1] if table.games else None
    if latest is None or latest.number != number or latest.reported_by != f"player:{reg.id}":
        return False
    return table.result_state is None or (table.result_state == "reported" and confirmers(table) <= {reg.id})


def report_game(table: GameTable, number, winner, *, time: bool = False, reg: Registration | None = None,
                user: User | None = None, revision: int | None = None) -> GameTable:
    """Game `number` of a match has ended: `winner` won it (a player id; None: a draw, as an unfinished game at
    time is). `time`: time was called and this was the match's last game.

    The next game is recorded (sideboarding for the one after it opens); the same report again (the other
    player's phone) changes nothing, or confirms the match it decided; a different one is the reporter's own
    correction of the latest game nobody else agreed with yet, else a dispute. Staff change what they like.
    """
    actor, staff = _match_table(table, reg, user, revision)
    if isinstance(number, bool) or not isinstance(number, int) or not 1 <= number <= MAX_GAMES:
        raise Refused(_("A match has games 1, 2 and 3."), field="game")
    winner = _winner_id(table, winner, number)
    if time:
        _check_time(table, staff)
    progress = match_progress(table)
    before = _result_snapshot(table)
    why = why_not_game(progress, number)
    if why == "over":
        raise Refused(_match_over(table, progress), field="game", status=409)
    if why == "skipped":
        raise Refused(_("Report game %(next)s first: game %(number)s comes after it.", next=len(progress.games) + 1,
                        number=number), field="game", status=409)
    after = with_game(progress, number, winner, time)
    if after == progress or (progress.over and after.games == progress.games):     # time adds nothing to it
        _repeat(table, reg, staff, actor)
        return table
    known = number <= len(progress.games)
    if known and progress.games[number - 1] != winner and not staff and not _own_correction(table, reg, number):
        _store(table, after, actor, number)
        _version(table, actor, staff, reg, "disputed", "result.dispute", before, game=number)
        return table
    state = _decided_state(table, after, staff, "game")
    _store(table, after, actor, number)
    _version(table, actor, staff, reg, state, "result.game", before, game=number, time=bool(time))
    if not after.over and not known:
        duel_game_reported.send(table, game=number, at=table.result_at)
    return table


def _repeat(table: GameTable, reg: Registration | None, staff: bool, actor: str) -> None:
    """The same report again: stored once. The other player's repeat of the deciding game agrees with it."""
    if staff or table.result_state != "reported" or reg.id in confirmers(table):
        return
    _add_confirmation(table, reg.id)
    log(table.round.event, actor, "result.confirm", round=table.round.number, table=table.number,
        revision=table.result_revision)


def _match_over(table: GameTable, progress: MatchProgress) -> str:
    names = {s.registration_id: s.registration.name for s in table.seats}
    if progress.winner is None:
        score = _score_text(*progress.score(progress.players[0]))
        return _("The match is over (a draw, %(score)s): no further game is played.", score=score)
    score = _score_text(*progress.score(progress.winner))
    return _("The match is over: %(name)s won %(score)s. No further game is played.", name=names[progress.winner],
             score=score)


def _score_text(won: int, lost: int, drawn: int) -> str:
    """2–1, or 1–1–1 with the drawn games."""
    return "–".join(str(n) for n in ((won, lost, drawn) if drawn else (won, lost)))


def end_match_at_time(table: GameTable, *, reg: Registration | None = None, user: User | None = None,
                      revision: int | None = None) -> GameTable:
    """Time was called between games (no game was under way): the match ends with the games played, decided by
    the games won; the other player confirms it."""
    actor, staff = _match_table(table, reg, user, revision)
    progress = match_progress(table)
    if progress.over:
        if progress.time_called:
            _repeat(table, reg, staff, actor)
            return table
        raise Refused(_match_over(table, progress), status=409)
    if not progress.games:
        raise Refused(_("Report game 1 first: a game unfinished when the extra turns are over is a draw."),
                      field="game", status=409)
    _check_time(table, staff)
    before = _result_snapshot(table)
    after = MatchProgress(progress.players, progress.games, True)
    state = _decided_state(table, after, staff, "time")
    _store(table, after, actor, None)
    _version(table, actor, staff, reg, state, "result.time", before)
    return table


def report_duel_games(table: GameTable, winners, *, time: bool = False, reg: Registration | None = None,
                      user: User | None = None, revision: int | None = None,
                      send_key: str | None = None) -> GameTable:
    """Every game at once (a judge's result slip, a settled dispute, a player's whole report): each entry is the
    winner's player id, or None for a drawn game; `time`: the match ended at time. A match that two wins, three
    games or time do not decide is stored in progress: nobody confirms it yet. `send_key`: as report_pod_result's
    (the same report sent again changes nothing)."""
    actor, staff = _match_table(table, reg, user, revision)
    if sent_before(table, send_key, actor, "result"):
        return table
    if not isinstance(winners, (list, tuple)) or not 1 <= len(winners) <= MAX_GAMES:
        raise Refused(_("Report one to three games."), field="games")
    if time:
        _check_time(table, staff)
    progress = progress_of(_seated_ids(table), [], False)
    for i, w in enumerate(winners, 1):
        w = _winner_id(table, w, i, field="games")
        if progress.over:
            raise Refused(_("Game %(number)s cannot be played: the match was already won 2–%(lost)s.", number=i,
                            lost=len(progress.games) - 2), field="games")
        progress = with_game(progress, i, w)
    after = MatchProgress(progress.players, progress.games, bool(time))
    stored = match_progress(table)
    before = _result_snapshot(table)
    if after == stored and (staff or table.games):
        _repeat(table, reg, staff, actor)
        return table
    if not staff and _conflicts(table, stored, after, reg):
        state = "disputed"
    else:
        state = _decided_state(table, after, staff, "games")
    _store(table, after, actor, None)
    action = "result.dispute" if state == "disputed" else ("result.enter" if staff else "result.report")
    _version(table, actor, staff, reg, state, action, before)
    if not after.over and state != "disputed":
        duel_game_reported.send(table, game=len(after.games), at=table.result_at)
    return table


def _conflicts(table: GameTable, stored: MatchProgress, after: MatchProgress, reg: Registration) -> bool:
    """A player's whole report that contradicts games already reported (a game's winner, fewer games, time),
    unless every one of those reports was theirs and nobody else has agreed with them."""
    same = (after.games[:len(stored.games)] == stored.games and (after.time_called or not stored.time_called))
    if same:
        return False
    mine = all(g.reported_by == f"player:{reg.id}" for g in table.games)
    agreed = table.result_state not in (None, "reported") or not confirmers(table) <= {reg.id}
    return not mine or agreed


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
        ended = data["time"] if "time" in data else True    # a version stored before games were reported one by one
        return report_duel_games(table, data.get("games") or [], time=bool(ended), user=user, revision=seen)
    prizes = {c: {"holder": v[0], "value": v[1]} for c, v in (data.get("prizes") or {}).items()}
    return report_pod_result(table, data.get("survivors") or [], data.get("eliminated") or [], prizes, user=user,
                             draw=data.get("draw"), revision=seen)
