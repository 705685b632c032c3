"""Rounds, democratic votes: casting one at a pod table, and when the table's votes may be seen."""
from __future__ import annotations

import sqlalchemy as sa
from flask_babel import gettext as _

from ...auth.models import User
from ...cards.models import utcnow
from ...errors import Refused
from ...events.models import Registration
from ...events.operations import log
from ...extensions import db
from ..models import GameTable, Vote

from .queries import lock_table, sent_before, _seated_ids
from .policy import needed_confirmers, table_actor, why_not_vote, _refuse_if


def cast_vote(table: GameTable, voter_id: int, votee_id: int, *, reg: Registration | None = None,
              user: User | None = None, send_key: str | None = None) -> Vote | None:
    """One vote per voter per game, for another player at the table; changeable until the round ends.
    `send_key`: a vote sent again with the key it was first stored with is the same write (None: nothing
    changed)."""
    actor, staff = table_actor(table, reg, user, doing="vote")
    if table.kind != "pod":
        raise Refused(_("Votes are for pod games."), status=409)
    if not staff and (reg is None or voter_id != reg.id):
        raise Refused(_("You can only cast your own vote."), status=403)
    lock_table(table)
    if sent_before(table, send_key, actor, "vote"):
        return None
    _refuse_if(why_not_vote(table, staff))
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
