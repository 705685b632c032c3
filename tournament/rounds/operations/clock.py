"""Rounds, the round's course: publish, start the clock, pause, resume and extend it, finish the round, and
finish the event (features built on events listen to tournament.signals.event_status_changed)."""
from __future__ import annotations

from datetime import timedelta

from flask_babel import gettext as _, ngettext

from ...auth.models import User
from ...cards.models import utcnow
from ...errors import Refused
from ...events.models import Event
from ...events.operations import actor_name, log, require_staff
from ... import backups, signals
from ...web.lifecycle import after_commit
from ...timezones import as_utc
from ..models import GameTable, Round

from .queries import missing_results, rounds_of, unconfirmed_results


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


def publish_and_start(rnd: Round, user: User) -> Round:
    """Publish the tables and start the clock as one change: every open phone fetches its round box once for the
    round start (publishing, then starting a moment later, changes every page twice)."""
    publish_round(rnd, user)
    return start_round(rnd, user)


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
    signals.event_status_changed.send(event, actor=actor_name(user))      # a series records it (same transaction)
    after_commit(backups.after_round, rounds[-1].number, "event-finished")
    return event


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
