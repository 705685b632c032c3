"""Rounds, seating corrections: swap two players, move a player to another seat or table, seat a late arrival,
remove a no-show (from this round, or dropped from the event), and unpublish a round to pair it again.

Each correction is one operation that staff run from the round page or the API. It is logged with who and when,
adds a line to the round's "why these pairings", and changes the event's state version (open phones and the
projector show it within seconds). The pairing history that avoids repeat opponents is read from the seats, so
it follows the corrected tables.

Two judges correcting the same round at once: every correction compares and sets the round's
`seating_revision` (the one the judge saw, when given, else the one read now); the first stores its change,
the other is refused with a 409 that says who changed the seating, and changes nothing. The rules of what a
table may hold are pure (tournament.rounds.pairing.corrections).
"""
from __future__ import annotations

import sqlalchemy as sa
from flask_babel import gettext as _

from ...auth.models import User
from ...decks.domain import N_, Text
from ...errors import Refused
from ...events.models import AuditEntry, Registration
from ...events.operations import actor_name, check_in, drop, log, require_staff, valid_id
from ...extensions import db
from ..models import DuelGame, GameTable, ResultReport, Round, Seat, Vote
from ..pairing.corrections import capacity, placed, seat_range, shape
from .pairing import pair_next_round, pair_top_cut_round, why_json
from .queries import lock_table

SEATING_ACTIONS = ("round.swap_seats", "round.seating.swap", "round.seating.move", "round.seating.add",
                   "round.seating.remove", "round.unpublish")


# ----------------------------------------------------------------- one correction at a time

class SeatingChanged(Refused):
    """Another correction of this round's seating was stored first (or after the caller loaded the round)."""

    def __init__(self, rnd: Round, who: str | None):
        if who:
            message = _("%(who)s changed the seating of round %(round)s after you loaded it, so your change was "
                        "not made. Reload the round to see the tables as they are now, then try again.",
                        who=who, round=rnd.number)
        else:
            message = _("The seating of round %(round)s changed after you loaded it, so your change was not made. "
                        "Reload the round to see the tables as they are now, then try again.", round=rnd.number)
        super().__init__(message, status=409, field="revision")


def _last_corrector(rnd: Round) -> str | None:
    actor = db.session.execute(sa.select(AuditEntry.actor).where(AuditEntry.event_id == rnd.event_id,
                                                                 AuditEntry.action.in_(SEATING_ACTIONS))
                               .order_by(AuditEntry.id.desc()).limit(1)).scalar()
    return actor.partition(":")[2] or actor if actor else None


def _claim(rnd: Round, user: User, seen: int | None) -> None:
    """Compare and set the round's seating revision: on PostgreSQL the UPDATE holds the round's row until the
    commit, so a second correction waits, finds the revision moved on, and is refused; on SQLite the request's
    write lock orders them the same way."""
    require_staff(user, rnd.event)
    revision = db.session.execute(sa.select(Round.seating_revision).where(Round.id == rnd.id)).scalar()
    if revision is None or (seen is not None and seen != revision):
        raise SeatingChanged(rnd, _last_corrector(rnd))
    done = db.session.execute(sa.update(Round).where(Round.id == rnd.id, Round.seating_revision == revision)
                              .values(seating_revision=revision + 1)
                              .execution_options(synchronize_session=False))
    if done.rowcount != 1:
        raise SeatingChanged(rnd, _last_corrector(rnd))
    db.session.refresh(rnd)


def _require_open(rnd: Round, *, sizes: bool) -> None:
    """A round whose seats may still change: not finished; the top cut's seats follow the seeds (swaps only)."""
    if rnd.status == "finished":
        raise Refused(_("Round %(round)s is finished: its seats can no longer be changed.", round=rnd.number),
                      status=409)
    if sizes and rnd.stage.startswith("top"):
        raise Refused(_("The top cut's tables follow the seeds: swap two players, or unpublish the round and pair "
                        "the stage again."), status=409)


def _has_result(table: GameTable) -> bool:
    if table.result_state is not None:
        return True
    for model in (ResultReport, DuelGame, Vote):        # a reported version, a game of a match, a vote cast
        if db.session.execute(sa.select(model.id).where(model.table_id == table.id).limit(1)).first():
            return True
    return False


def _lock_unplayed(tables: list[GameTable]) -> None:
    """Lock the tables a correction touches (a result reported meanwhile waits for it), each without a result."""
    for t in sorted(tables, key=lambda t: t.id):
        lock_table(t)
        if _has_result(t):
            raise Refused(_("Table %(table)s already has a result entered, so its seats can no longer be changed.",
                            table=t.number), status=409)


# ----------------------------------------------------------------- reading the input

def _player(rnd: Round, player_id) -> Registration:
    reg = db.session.get(Registration, player_id) if valid_id(player_id) else None
    if reg is None or reg.event_id != rnd.event_id:
        raise Refused(_("Player %(id)s is not registered in this event: choose one of its players.",
                        id=player_id), field="player")
    return reg


def _seat_of(rnd: Round, reg: Registration, field: str = "player") -> Seat:
    seat = db.session.execute(sa.select(Seat).where(Seat.round_id == rnd.id, Seat.registration_id == reg.id)).scalar()
    if seat is None:
        raise Refused(_("%(name)s is not seated in round %(round)s.", name=reg.name, round=rnd.number), field=field)
    return seat


def _table(rnd: Round, number) -> GameTable | None:
    """The table a correction names; None (no number) is a new table."""
    if number is None:
        return None
    table = db.session.execute(sa.select(GameTable).where(GameTable.round_id == rnd.id, GameTable.number == number)
                               ).scalar() if valid_id(number) else None
    if table is None:
        raise Refused(_("Round %(round)s has no table %(table)s: choose one of its tables, or leave the table empty "
                        "for a new one.", round=rnd.number, table=number), field="table")
    return table


def _order(table: GameTable | None) -> list[int]:
    return [] if table is None else [s.registration_id for s in table.seats]


def _check_place(rnd: Round, table: GameTable | None, order: list[int], seat: int | None, same: bool) -> None:
    """The seat exists (1 to one past the last) and the table has room."""
    number = table.number if table is not None else _next_table_number(rnd)
    low, high = seat_range(len(order), same)
    if seat is not None and not low <= seat <= high:
        raise Refused(_("Table %(table)s takes seat %(low)s to %(high)s here: choose one of them, or leave the seat "
                        "empty for the next free one.", table=number, low=low, high=high), field="seat")
    event = rnd.event
    if not same and len(order) >= capacity(event.mode, event.pod_size):
        raise Refused(_("Table %(table)s is full (%(count)s players): choose another table or a new one, or swap "
                        "two players instead.", table=number, count=len(order)), status=409, field="table")


def _next_table_number(rnd: Round) -> int:
    return (db.session.execute(sa.select(sa.func.max(GameTable.number)).where(GameTable.round_id == rnd.id))
            .scalar() or 0) + 1


# ----------------------------------------------------------------- storing the new seating

def _new_table(rnd: Round) -> GameTable:
    table = GameTable(round_id=rnd.id, number=_next_table_number(rnd), kind="bye")
    db.session.add(table)
    db.session.flush()
    return table


def _apply(rnd: Round, orders: list[tuple[GameTable, list[int]]], arriving: int | None = None) -> None:
    """Store each touched table's players in seat order: seats move (a temporary negative number first, so no
    two rows ever share a seat), a player in no order leaves the round, `arriving` gets a new seat, a table left
    empty is removed and the others take the kind their number of players gives (pod, match, bye)."""
    seats = {s.registration_id: s for t, _o in orders for s in t.seats}
    for s in seats.values():
        s.seat = -s.id
    db.session.flush()
    if arriving is not None:
        seats[arriving] = Seat(round_id=rnd.id, registration_id=arriving, table_id=orders[-1][0].id, seat=0)
        db.session.add(seats[arriving])
    placed_ids = {p for _t, order in orders for p in order}
    for player, s in seats.items():
        if player not in placed_ids:
            db.session.delete(s)
    db.session.flush()
    for table, order in orders:
        for number, player in enumerate(order, 1):
            seats[player].table_id, seats[player].seat = table.id, number
    db.session.flush()
    for table, order in orders:
        db.session.expire(table, ["seats"])
        kind = shape(rnd.event.mode, len(order)).kind
        if kind is None:
            db.session.delete(table)
        else:
            table.kind = kind
    db.session.flush()
    for s in seats.values():
        if s in db.session and not sa.inspect(s).deleted:
            db.session.expire(s)
    db.session.expire(rnd, ["tables"])


def _note(rnd: Round, user: User, template: str, **params) -> None:
    """A line in the round's "why these pairings": who corrected what."""
    rnd.why = [*(rnd.why or []), *why_json([Text(template, who=user.name, **params)])]


def _shape_notes(rnd: Round, orders: list[tuple[GameTable, list[int]]], before: dict[int, str]) -> None:
    for table, order in orders:
        kind = shape(rnd.event.mode, len(order)).kind
        if kind is None:
            rnd.why = [*rnd.why, *why_json([Text(N_("Table %(table)s is empty and was removed."),
                                                 table=table.number)])]
        elif kind == "bye" and before.get(table.id, "bye") != "bye":
            rnd.why = [*rnd.why, *why_json([Text(N_("Table %(table)s has one player left: a bye."),
                                                 table=table.number)])]


# ----------------------------------------------------------------- the corrections

def swap_seats(rnd: Round, user: User, first_id: int, second_id: int, *, seen: int | None = None) -> None:
    """Two players take each other's table and seat: in a draft, or after publishing at tables with no result."""
    _claim(rnd, user, seen)
    _require_open(rnd, sizes=False)
    a = db.session.execute(sa.select(Seat).where(Seat.round_id == rnd.id, Seat.registration_id == first_id)).scalar()
    b = db.session.execute(sa.select(Seat).where(Seat.round_id == rnd.id, Seat.registration_id == second_id)).scalar()
    if a is None or b is None or a.id == b.id:
        raise Refused(_("Choose two different players who are seated in this round."))
    ta, tb = a.table, b.table
    before = {"a": (ta.number, a.seat), "b": (tb.number, b.seat)}
    if rnd.status == "published":
        _lock_unplayed([ta] if ta.id == tb.id else [ta, tb])
    swapped = {first_id: second_id, second_id: first_id}
    tables = [ta] if ta.id == tb.id else [ta, tb]
    _apply(rnd, [(t, [swapped.get(p, p) for p in _order(t)]) for t in tables])
    if rnd.status == "draft":
        log(rnd.event, actor_name(user), "round.swap_seats", round=rnd.number, players=[first_id, second_id],
            before=before)
        return
    names = {p: db.session.get(Registration, p).name for p in (first_id, second_id)}
    log(rnd.event, actor_name(user), "round.seating.swap", round=rnd.number, players=[first_id, second_id],
        registration=first_id, other=names[second_id], before=before, table=before["a"][0])
    _note(rnd, user, N_("%(who)s swapped %(first)s (table %(first_table)s, seat %(first_seat)s) and %(second)s "
                        "(table %(second_table)s, seat %(second_seat)s)."),
          first=names[first_id], first_table=before["a"][0], first_seat=before["a"][1],
          second=names[second_id], second_table=before["b"][0], second_seat=before["b"][1])


def move_player(rnd: Round, user: User, player_id: int, table_number: int | None = None, seat: int | None = None,
                *, seen: int | None = None) -> GameTable:
    """Move a seated player to a seat at another table (None: a new table), or to another seat at theirs;
    the players from that seat on move one seat down, and the table they left closes the gap."""
    _claim(rnd, user, seen)
    _require_open(rnd, sizes=True)
    reg = _player(rnd, player_id)
    here = _seat_of(rnd, reg)
    source, target = here.table, _table(rnd, table_number)
    same = target is not None and target.id == source.id
    _lock_unplayed([source] if same or target is None else [source, target])
    order = _order(source) if same else _order(target)
    _check_place(rnd, target, order, seat, same)
    if same and (seat is None or seat == here.seat):
        raise Refused(_("%(name)s already sits at table %(table)s, seat %(seat)s.", name=reg.name,
                        table=source.number, seat=here.seat), status=409, field="seat")
    before = {t.id: t.kind for t in (source, target) if t is not None}
    was = (source.number, here.seat)
    target = target or _new_table(rnd)
    new_order = placed(order, reg.id, seat)
    orders = [(source, new_order)] if same else [(source, [p for p in _order(source) if p != reg.id]),
                                                 (target, new_order)]
    _apply(rnd, orders)
    now = new_order.index(reg.id) + 1
    log(rnd.event, actor_name(user), "round.seating.move", round=rnd.number, registration=reg.id,
        table=target.number, seat=now, before=list(was))
    _note(rnd, user, N_("%(who)s moved %(player)s from table %(from_table)s, seat %(from_seat)s, to table "
                        "%(table)s, seat %(seat)s."),
          player=reg.name, from_table=was[0], from_seat=was[1], table=target.number, seat=now)
    _shape_notes(rnd, orders, before)
    return target


def seat_late_arrival(rnd: Round, user: User, player_id: int, table_number: int | None = None,
                      seat: int | None = None, *, seen: int | None = None) -> GameTable:
    """Seat a player who is not in the round (a late arrival: checked in now if they were not) at a table, or
    alone at a new table (a bye until someone joins it)."""
    _claim(rnd, user, seen)
    _require_open(rnd, sizes=True)
    reg = _player(rnd, player_id)
    if reg.dropped_at is not None:
        raise Refused(_("%(name)s has dropped from the event: bring them back at the desk first.", name=reg.name),
                      status=409, field="player")
    there = db.session.execute(sa.select(Seat).where(Seat.round_id == rnd.id, Seat.registration_id == reg.id)
                               ).scalar()
    if there is not None:
        raise Refused(_("%(name)s is already seated in round %(round)s, at table %(table)s: move them instead.",
                        name=reg.name, round=rnd.number, table=there.table.number), status=409, field="player")
    target = _table(rnd, table_number)
    if target is not None:
        _lock_unplayed([target])
    order = _order(target)
    _check_place(rnd, target, order, seat, False)
    if reg.checked_in_at is None:
        check_in(reg, user)
    target = target or _new_table(rnd)
    new_order = placed(order, reg.id, seat)
    _apply(rnd, [(target, new_order)], arriving=reg.id)
    now = new_order.index(reg.id) + 1
    log(rnd.event, actor_name(user), "round.seating.add", round=rnd.number, registration=reg.id,
        table=target.number, seat=now)
    _note(rnd, user, N_("%(who)s seated %(player)s, who arrived late, at table %(table)s, seat %(seat)s."),
          player=reg.name, table=target.number, seat=now)
    return target


def remove_player(rnd: Round, user: User, player_id: int, *, drop_player: bool = False,
                  seen: int | None = None) -> None:
    """Take a no-show out of the round (the table closes the gap; one player left is a bye, none removes the
    table); `drop_player` also drops them from the event, else they are paired again next round."""
    _claim(rnd, user, seen)
    _require_open(rnd, sizes=True)
    reg = _player(rnd, player_id)
    here = _seat_of(rnd, reg)
    table = here.table
    _lock_unplayed([table])
    was = (table.number, here.seat)
    orders = [(table, [p for p in _order(table) if p != reg.id])]
    before = {table.id: table.kind}
    _apply(rnd, orders)
    log(rnd.event, actor_name(user), "round.seating.remove", round=rnd.number, registration=reg.id,
        table=was[0], seat=was[1], dropped=drop_player)
    if drop_player:
        drop(reg, user)
        _note(rnd, user, N_("%(who)s removed %(player)s from table %(table)s (did not show up) and dropped them "
                            "from the event."), player=reg.name, table=was[0])
    else:
        _note(rnd, user, N_("%(who)s removed %(player)s from table %(table)s for this round only (did not show "
                            "up)."), player=reg.name, table=was[0])
    _shape_notes(rnd, orders, before)


def unpublish_and_pair_again(rnd: Round, user: User, *, seen: int | None = None) -> Round:
    """Take a published round back and pair it again as a new draft (a new seed; the top cut's stage again),
    while no table has a result; the players' pages and the projector go back to the round before."""
    _claim(rnd, user, seen)
    if rnd.status == "draft":
        raise Refused(_("Round %(round)s is a draft: use “Delete and pair again”.", round=rnd.number), status=409)
    if rnd.status == "finished":
        raise Refused(_("Round %(round)s is finished: it can no longer be paired again.", round=rnd.number),
                      status=409)
    tables = list(db.session.execute(sa.select(GameTable).where(GameTable.round_id == rnd.id)
                                     .order_by(GameTable.id).with_for_update()).scalars())
    played = [t.number for t in sorted(tables, key=lambda t: t.number) if _has_result(t)]
    if played:
        raise Refused(_("Round %(round)s cannot be paired again: a result is already entered at table "
                        "%(tables)s. Correct the seats one by one instead (move, swap, seat or remove a player).",
                        round=rnd.number, tables=", ".join(str(n) for n in played)), status=409)
    event, number, seed, stage = rnd.event, rnd.number, rnd.seed, rnd.stage
    log(event, actor_name(user), "round.unpublish", round=number, seed=seed, stage=stage)
    db.session.delete(rnd)
    db.session.flush()
    again = pair_top_cut_round(event, user) if stage.startswith("top") else pair_next_round(event, user,
                                                                                          override_decks=True)
    again.why = [*why_json([Text(N_("Round %(round)s was published, then unpublished by %(who)s and paired again "
                                    "(the first pairing's seed was %(seed)s)."), round=number, who=user.name,
                                 seed=seed)]), *(again.why or [])]
    return again
