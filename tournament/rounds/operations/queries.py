"""Rounds, loading: a round, its tables and seats, the current round, who is to be seated; each written once.

The bottom of tournament.rounds.operations: it imports none of its sibling modules.
"""
from __future__ import annotations

import sqlalchemy as sa
from flask_babel import gettext as _
from sqlalchemy.orm import joinedload, selectinload, subqueryload

from ...errors import NotFound
from ...events.models import Event, Registration
from ...events.operations import valid_id
from ...extensions import db
from ..models import GameTable, Round, Seat, SentForm


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


def with_results(tables: list[GameTable]) -> list[GameTable]:
    """These tables of one round (already loaded with their seats) with their results and every reported
    version: the round page of a big event shows one page of tables, and loading 500 tables' results took half
    its time. Chosen by their range of numbers, so the statement is the same at any size (no list of ids)."""
    if tables:
        numbers = [t.number for t in tables]
        db.session.execute(sa.select(GameTable).where(GameTable.round_id == tables[0].round_id,
                                                      GameTable.number.between(min(numbers), max(numbers)))
                           .options(*_table_loads(results=True, reports=True))
                           .execution_options(populate_existing=True)).scalars().all()
    return tables


def tables_before(rnd: Round, number: int) -> int:
    """How many of the round's tables come before table `number` (its position on the round page), counted
    by the database: a result saved at table 480 no longer loads the round's 500 tables to find its page."""
    return db.session.execute(sa.select(sa.func.count(GameTable.id))
                              .where(GameTable.round_id == rnd.id, GameTable.number < number)).scalar_one()


def get_table(rnd: Round, number) -> GameTable:
    table = None
    if valid_id(number):
        table = db.session.execute(sa.select(GameTable).where(GameTable.round_id == rnd.id,
                                                             GameTable.number == number)
                                   .options(selectinload(GameTable.seats).joinedload(Seat.registration))).scalar()
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


def players_to_seat(event: Event) -> list[Registration]:
    """Checked in and not dropped: late entries are seated, dropped players (and the waitlist) are not."""
    return [r for r in event.registrations if r.checked_in_at is not None and r.dropped_at is None
            and not r.waitlisted]


def ever_seated(event: Event, through: int | None = None) -> set[int]:
    """Players seated in a published round (a table or a bye), up to round `through`: the others never played."""
    query = (sa.select(Seat.registration_id).distinct().join(Round, Round.id == Seat.round_id)
             .where(Round.event_id == event.id, Round.status != "draft"))
    if through is not None:
        query = query.where(Round.number <= through)
    return set(db.session.execute(query).scalars())


def _name(event: Event, reg_id: int, missing: str = "player {id}") -> str:
    """A player of this event by name; `missing` (with {id}) for an id that is not one."""
    reg = db.session.get(Registration, reg_id)
    return reg.name if reg is not None and reg.event_id == event.id else missing.format(id=reg_id)


def missing_results(rnd: Round) -> list[GameTable]:
    return [t for t in rnd.tables if t.kind != "bye" and t.result_state is None]


def unconfirmed_results(rnd: Round) -> list[GameTable]:
    """Tables with a result that is only reported, or disputed: not final until confirmed or settled."""
    return [t for t in rnd.tables if t.kind != "bye" and t.result_state in ("reported", "disputed")]


def current_round(event: Event) -> Round | None:
    """The round players see: the latest one that is published (or finished)."""
    return db.session.execute(sa.select(Round).where(Round.event_id == event.id, Round.status != "draft")
                              .order_by(Round.number.desc()).limit(1)).scalar()


def latest_round_id(event_id: int):
    """The id of the round players see (the latest published or finished one), as a subquery."""
    return (sa.select(Round.id).where(Round.event_id == event_id, Round.status != "draft")
            .order_by(Round.number.desc()).limit(1).scalar_subquery())


def current_seat(reg: Registration) -> tuple[Round | None, Seat | None]:
    """The player's current round and seat in it (None when not seated): one definition for every page."""
    latest = latest_round_id(reg.event_id)
    seat = db.session.execute(sa.select(Seat).where(Seat.round_id == latest, Seat.registration_id == reg.id)
                              .options(joinedload(Seat.table).joinedload(GameTable.round),
                                       joinedload(Seat.table).selectinload(GameTable.seats)
                                       .joinedload(Seat.registration))).scalar()
    if seat is not None:                # seated: the round came with the seat (one query fewer on every box)
        return seat.table.round, seat
    return current_round(reg.event), None


def _seated_ids(table: GameTable) -> list[int]:
    return [s.registration_id for s in table.seats]


def lock_table(table: GameTable) -> GameTable:
    """Writes at one table take turns (PostgreSQL: a row lock; SQLite: the request's write lock),
    and then read the table as it is now."""
    if db.session.get_bind().dialect.name == "sqlite":
        return table    # SQLite has no row locks: a write holds the database's lock from its first read, and a
                        # re-read inside one transaction sees the same snapshot, so reading again changes nothing
    db.session.execute(sa.select(GameTable.id).where(GameTable.id == table.id).with_for_update())
    db.session.expire(table)
    return table


def sent_before(table: GameTable, key: str | None, actor: str, kind: str) -> bool:
    """A form sent with a send key (a phone's kept report or vote, sent again when the connection came back):
    True when this key was already stored at this table for this kind of write (result, vote), so this is the
    same write again; else the key is kept with the write. Call it with the table locked (lock_table), so the
    same key sent twice at once takes turns and the second finds the first; the unique (table, kind, key) is
    the last guard."""
    if not key:
        return False
    found = db.session.execute(sa.select(SentForm.id).where(SentForm.table_id == table.id, SentForm.kind == kind,
                                                            SentForm.key == key)).scalar()
    if found is not None:
        return True
    db.session.add(SentForm(table_id=table.id, key=key, kind=kind, actor=actor))
    return False
