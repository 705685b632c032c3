"""Rounds, results: a pod's or a match's result reported by a player or entered by staff, confirmed by the other
players, or settled by staff; every version kept (ResultReport) and logged."""
from __future__ import annotations

import sqlalchemy as sa
from flask_babel import gettext as _

from ...auth.models import User
from ...cards.models import utcnow
from ...errors import Refused
from ...events.models import Registration
from ...events.operations import log
from ...extensions import db
from ..models import GameTable, PrizeClaim, ResultConfirmation, ResultReport
from ...scoring.draws import DRAW_KINDS, default_draw

from .queries import lock_table, sent_before, _name, _seated_ids
from .policy import confirmers, needed_confirmers, table_actor, why_not_confirm, why_not_report, _refuse_if


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
        return {"games": [g.winner_id for g in table.games], "time": table.time_called_at is not None}
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
    action = ("result.enter" if before is None else "result.correct") if staff else (
        "result.dispute" if state == "disputed" else "result.report")
    _version(table, actor, staff, reg, state, action, before)


def _version(table: GameTable, actor: str, staff: bool, reg: Registration | None, state: str | None,
             action: str, before: dict, **details) -> None:
    """A new revision of the table's result (a pod's or a match's): stored as the table's, kept as a version,
    logged."""
    after = _result_snapshot(table)
    table.result_revision = (table.result_revision or 0) + 1
    table.result_state = state
    table.result_by = actor
    table.result_at = utcnow()
    _add_row(table, "reports", ResultReport(revision=table.result_revision, actor=actor, staff=staff,
                                            registration_id=reg.id if reg is not None and not staff else None,
                                            result=after, at=table.result_at))
    if state == "reported":
        _add_confirmation(table, reg.id, new_revision=True)
    log(table.round.event, actor, action, round=table.round.number, table=table.number,
        revision=table.result_revision, before=before, after=after, **details)


def _add_row(table: GameTable, collection: str, row) -> None:
    """Add a row to one of the table's collections without reading the rows it already has (a report needs
    none of the earlier versions); a collection already read is kept up to date."""
    if collection in sa.inspect(table).unloaded:
        row.table_id = table.id
        db.session.add(row)
    else:
        getattr(table, collection).append(row)


def _last_reporter(table: GameTable) -> int | None:
    return table.reports[-1].registration_id if table.reports else None


def _add_confirmation(table: GameTable, reg_id: int, new_revision: bool = False) -> None:
    """A player agrees with the current revision; everyone still in the event agreed: confirmed. A revision
    just made has only its reporter's confirmation, so the earlier ones are not read for it."""
    unread = new_revision and "confirmations" in sa.inspect(table).unloaded
    _add_row(table, "confirmations", ResultConfirmation(registration_id=reg_id, revision=table.result_revision))
    db.session.flush()
    if needed_confirmers(table) <= ({reg_id} if unread else confirmers(table)):
        table.result_state = "confirmed"


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
                      revision: int | None = None, draw: str | None = None,
                      send_key: str | None = None) -> GameTable:
    """Survivors at the end (or at time), optional elimination order and prize claims.

    `draw`: why a game with nobody or two or more players left is drawn (time, intentional, board;
    tournament/data/draws.json); unnamed, it is time with players left and the board state with nobody.
    An intentional draw is refused when the event does not allow them.

    `archenemy` (staff only): the player who was the archenemy of an Archenemy game at this
    table, or None for a game that was not one; KEEP (default) leaves what the tracker recorded.

    `send_key`: a report sent again with the key it was first stored with (a phone that kept it while the
    connection was down) is the same write: it changes nothing.
    """
    actor, staff = table_actor(table, reg, user)
    if table.kind != "pod":
        raise Refused(_("This table is a 1v1 match: report its games."), status=409)
    lock_table(table)
    if sent_before(table, send_key, actor, "result"):
        return table
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
