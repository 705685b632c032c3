"""Rounds, who may do what: whether a round is visible, who acts at a table, and why a result, a confirmation or
a vote is refused now (views, templates and the API use these; the operations enforce them)."""
from __future__ import annotations

import sqlalchemy as sa
from flask_babel import gettext as _, lazy_gettext as _l

from ...auth.models import User
from ...errors import NotFound, Refused
from ...events.models import Event, Registration
from ...events.operations import actor_name, staff_for
from ...extensions import db
from ...scoring import get_profile
from ..models import GameTable, Round


def event_uses_votes(event: Event) -> bool:
    """Democratic votes are cast at pod tables when the event's scoring profile scores them."""
    if event.mode != "pods":
        return False
    try:
        return bool(get_profile(event.scoring_profile).uses_votes)
    except Exception:   # noqa: BLE001 - an unknown profile id: fall back to the seed's rule
        return event.scoring_profile == "democratic"


def standings_visible(event: Event, user: User | None) -> bool:
    """The standings (page, API): the event's staff at any time; everyone once a round is published."""
    return staff_for(user, event) is not None or db.session.execute(sa.select(Round.id).where(
        Round.event_id == event.id, Round.status != "draft").limit(1)).first() is not None


def require_standings_visible(event: Event, user: User | None) -> None:
    if not standings_visible(event, user):
        raise NotFound(_("The standings are shown once the first round is published."))


def round_visible(rnd: Round, user: User | None) -> bool:
    """Drafts are for the event's staff only: to everyone else they do not exist."""
    return rnd.status != "draft" or staff_for(user, rnd.event) is not None


def require_visible(rnd: Round, user: User | None) -> Round:
    if not round_visible(rnd, user):
        raise NotFound(_("Round %(number)s does not exist yet.", number=rnd.number))
    return rnd


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
    if table.kind == "match" and table.result_state is None and table.games:
        return _("The match is still in progress: it is confirmed once it is decided (two games won, or time "
                 "called).")
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
