"""Sideboard swaps: the window with its stored deadline, submitting and undoing swaps, deck versions.

Rules (RULES.md "Starting a game" step 2, "1v1 matches"):

* When a table's game starts (rounds.operations.start_round sets
  GameTable.started_at) its swap window opens; the deadline is stored on the
  server (`SwapWindow.deadline` = start + Event.swap_seconds) the first time
  anyone looks at it, so changing the event setting later does not move an
  open window, and reloading a page never resets it.
* A 1v1 match sideboards before games 2 and 3: the window opens when the
  previous game is reported (tournament.signals.duel_game_reported), its
  deadline stored then (Event.sideboard_minutes, default 3), and closes when
  either player (or staff) starts the game (`start_duel_game`) or at the
  deadline, when the game counts as started. Game N's deck starts as game
  N-1's. After game 1's deadline a match player's swaps are for game 2.
* Each table (round) starts again from the registered list.
* Every change is one transaction that first locks the player's registration
  row (SELECT ... FOR UPDATE on PostgreSQL; SQLite serialises writers), so
  concurrent submissions for one player are applied one after the other and
  none is lost or applied twice. DeckVersion.revision is an optimistic lock
  as well, and a check constraint keeps general(s) + main deck at the deck size.
* Staff (judges, the organizer) may enter swaps for a player (logged as
  entered by them); after the deadline only staff, with a reason (logged).
"""
from __future__ import annotations

import unicodedata

from dataclasses import dataclass
from datetime import datetime, timedelta, timezone

import sqlalchemy as sa
from flask_babel import gettext as _
from sqlalchemy.exc import IntegrityError, OperationalError

from ..auth.models import User
from ..cards.models import utcnow
from ..cards.repository import DbCardPool
from ..decks.checks import read_with_cards
from ..decks.operations import app_bracket_rules
from ..decks.parser import parse_decklist
from ..decks.rulesets import get_ruleset
from ..errors import NotFound, Refused
from ..events.models import Registration
from ..events.operations import actor_name, log, staff_for, valid_id
from ..extensions import db
from ..i18n import message_text
from ..timezones import clock_text
from ..web.lifecycle import conflict_kind, wants_write_lock
from ..rounds.models import GameTable
from . import domain
from .domain import DeckLists, Pair, SwapError
from .models import DeckVersion, Swap, SwapWindow

MAX_REASON = 500


def aware(value: datetime | None) -> datetime | None:
    """SQLite hands back naive datetimes; every stored time is UTC."""
    if value is not None and value.tzinfo is None:
        return value.replace(tzinfo=timezone.utc)
    return value


def iso(value: datetime | None) -> str | None:
    value = aware(value)
    return value.isoformat() if value else None


# ----------------------------------------------------------------- where the player plays

def current_table(reg: Registration) -> GameTable | None:
    """The player's table in the current round while it is open (byes have no game)."""
    from ..rounds.operations import current_seat
    rnd, seat = current_seat(reg)
    if rnd is None or seat is None or rnd.status != "published" or seat.table.kind == "bye":
        return None
    return seat.table


def _windows(table: GameTable) -> dict[int, SwapWindow]:
    return {w.game: w for w in db.session.execute(
        sa.select(SwapWindow).where(SwapWindow.table_id == table.id)).scalars()}


def _get_or_create(model, lookup: dict, make):
    """The row matching `lookup`, created by `make()` if missing; a concurrent creator's row wins."""
    row = db.session.execute(sa.select(model).filter_by(**lookup)).scalar()
    if row is not None:
        return row
    try:
        with db.session.begin_nested():
            row = make()
            db.session.add(row)
            db.session.flush()
        return row
    except IntegrityError:
        return db.session.execute(sa.select(model).filter_by(**lookup)).scalar_one()
    except OperationalError as e:
        if wants_write_lock() or conflict_kind(e) != "busy":
            raise
        return make()       # a page read while the database is held: the row as it will be stored at a later look


def window(table: GameTable, game: int = 1) -> SwapWindow | None:
    """The swap window before `game` at this table, stored on first use; None until it can open."""
    if table.started_at is None or table.kind == "bye":
        return None
    if game == 1:
        event = table.round.event
        start = aware(table.started_at)
        return _get_or_create(SwapWindow, {"table_id": table.id, "game": 1}, lambda: SwapWindow(
            table_id=table.id, game=1, opens_at=start, deadline=start + timedelta(seconds=event.swap_seconds)))
    if table.kind != "match" or game not in (2, 3):
        return None
    stored = _windows(table).get(game)
    if stored is not None:
        return stored
    return open_sideboarding(table, game)


def open_sideboarding(table: GameTable, game: int) -> SwapWindow | None:
    """Sideboarding before game 2 or 3 of a match, once the game before it is reported and the match goes on:
    opens at that report, closes at the event's minutes later (stored now) or when the game is started."""
    from ..rounds.operations import match_progress
    if table.kind != "match" or game not in (2, 3) or table.started_at is None:
        return None
    previous = next((g for g in table.games if g.number == game - 1), None)
    progress = match_progress(table)
    if previous is None or previous.reported_at is None or (progress.over and len(progress.games) < game):
        return None
    opens = aware(previous.reported_at)
    minutes = table.round.event.sideboard_minutes or 3
    return _get_or_create(SwapWindow, {"table_id": table.id, "game": game}, lambda: SwapWindow(
        table_id=table.id, game=game, opens_at=opens, deadline=opens + timedelta(minutes=minutes)))


def next_sideboarding(table: GameTable) -> SwapWindow | None:
    """The stored sideboarding window before the match's next game (read only); None when there is none."""
    from ..rounds.operations import match_progress
    if table.kind != "match":
        return None
    number = match_progress(table).next_game
    return _windows(table).get(number) if number in (2, 3) else None


def _closed(w: SwapWindow, now: datetime) -> bool:
    return w.closed_at is not None or (w.deadline is not None and now > aware(w.deadline))


def last_started_game(table: GameTable, now: datetime | None = None) -> int:
    """The latest game under way: 1, or game 2 or 3 once its sideboarding closed (started, or its deadline)."""
    windows, now = _windows(table), now or utcnow()
    return max([1] + [n for n in (2, 3) if windows.get(n) and _closed(windows[n], now)])


def target_game(table: GameTable, now: datetime | None = None) -> int | None:
    """The game the player's swaps are for now: 1 in pods; in a match the next game once game 1's window
    has closed; None when a match's third game is under way."""
    if table.kind != "match":
        return 1
    now = now or utcnow()
    last = last_started_game(table, now)
    if last == 1:
        w = window(table, 1)
        if w is not None and now <= aware(w.deadline):
            return 1
        return 2
    return last + 1 if last < 3 else None


def is_open(w: SwapWindow | None, now: datetime | None = None) -> bool:
    if w is None or w.closed_at is not None:
        return False
    now = now or utcnow()
    if now < aware(w.opens_at):
        return False
    return w.deadline is None or now <= aware(w.deadline)


def window_json(w: SwapWindow | None, now: datetime | None = None) -> dict | None:
    if w is None:
        return None
    now = now or utcnow()
    deadline = aware(w.deadline)
    left = max(0.0, (deadline - now).total_seconds()) if deadline and w.closed_at is None else None
    if w.closed_at is not None:
        left = 0.0
    return {"game": w.game, "open": is_open(w, now), "opens_at": iso(w.opens_at), "deadline": iso(deadline),
            "closed_at": iso(w.closed_at), "seconds_left": left, "no_limit": deadline is None,
            "server_time": iso(now)}


# ----------------------------------------------------------------- deck versions

def registered_lists(reg: Registration) -> DeckLists:
    if reg.deck is None:
        raise Refused(_("%(name)s has no registered decklist, so there is nothing to swap. Submit the list "
                        "(or ask a judge) first.", name=reg.name), status=409)
    parsed, resolved = read_with_cards(parse_decklist(reg.deck.text), DbCardPool())
    return domain.lists_from_parsed(parsed, lambda n: resolved[n].name if resolved.get(n) is not None else n)


def deck_version(reg: Registration, table: GameTable, game: int = 1) -> DeckVersion:
    """The deck `reg` plays in `game` at `table`, made from the registered list (or the previous game's)."""
    def make():
        if game > 1:
            base = deck_version(reg, table, game - 1)
            lists, decklist_id = DeckLists.from_json(
                {"generals": base.generals, "main": base.main, "sideboard": base.sideboard}), base.decklist_id
        else:
            lists, decklist_id = registered_lists(reg), reg.deck_id
        return DeckVersion(registration_id=reg.id, table_id=table.id, game=game, decklist_id=decklist_id,
                           generals=list(lists.generals), main=lists.main, sideboard=lists.sideboard,
                           general_count=len(lists.generals), main_count=lists.main_count,
                           deck_size=len(lists.generals) + lists.main_count)
    return _get_or_create(DeckVersion, {"registration_id": reg.id, "table_id": table.id, "game": game}, make)


def version_lists(v: DeckVersion) -> DeckLists:
    return DeckLists(tuple(v.generals or ()), dict(v.main or {}), dict(v.sideboard or {}))


def swaps_of(reg: Registration, table: GameTable | None = None, game: int | None = None,
             active_only: bool = False) -> list[Swap]:
    stmt = sa.select(Swap).where(Swap.registration_id == reg.id)
    if table is not None:
        stmt = stmt.where(Swap.table_id == table.id)
    if game is not None:
        stmt = stmt.where(Swap.game == game)
    if active_only:
        stmt = stmt.where(Swap.undone_at.is_(None))
    return list(db.session.execute(stmt.order_by(Swap.at, Swap.id)).scalars())


# ----------------------------------------------------------------- changing the deck

@dataclass
class SwapResult:
    registration: Registration
    table: GameTable | None
    game: int | None
    made: list[Swap]
    undone: list[Swap]


def _lock(reg: Registration) -> None:
    """Serialise every change to one player's deck (a no-op on SQLite, whose writers are serial anyway)."""
    db.session.execute(sa.select(Registration.id).where(Registration.id == reg.id).with_for_update())


def _whole(value) -> int | None:
    """A JSON integer: 2 or 2.0 (JSON does not tell them apart); None for anything else."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    if isinstance(value, float):
        return int(value) if value.is_integer() else None
    return value


def _clean_reason(value) -> str | None:
    if value is None:
        return None
    if not isinstance(value, str):
        raise Refused(_("The override reason must be text."), field="override_reason")
    if any(unicodedata.category(ch) in ("Cc", "Cs") and ch not in "\t\n\r" for ch in value):
        raise Refused(_("The override reason contains control characters; type it again as plain text."),
                      field="override_reason")
    value = " ".join(value.split())
    if len(value) > MAX_REASON:
        raise Refused(_("The override reason is %(length)s characters; the limit is %(limit)s.", length=len(value),
                        limit=MAX_REASON), field="override_reason")
    return value or None


def _closed_message(w: SwapWindow | None, table: GameTable, game: int) -> str:
    if w is None:
        return _("Sideboarding for game %(game)s has not opened yet.", game=game)
    if w.closed_at is not None:
        return _("Game %(game)s has started, so sideboarding for it is closed.", game=game)
    deadline = clock_text(w.deadline, table.round.event)
    if game > 1:
        return _("Sideboarding for game %(game)s closed at %(time)s (%(minutes)s minutes after game %(previous)s was "
                 "reported), so game %(game)s has started. If something went wrong, ask a judge.", game=game,
                 time=deadline, minutes=table.round.event.sideboard_minutes, previous=game - 1)
    return _("The swap window for table %(table)s closed at %(time)s (%(seconds)s seconds after the game started). "
             "Swaps are no longer accepted; if something went wrong, ask a judge.", table=table.number,
             time=deadline, seconds=table.round.event.swap_seconds)


def change_swaps(reg: Registration, pairs=(), undo=(), *, user: User | None = None, game: int | None = None,
                 override_reason=None) -> SwapResult:
    """Make `pairs` and undo the swaps with ids in `undo`, all or nothing.

    `user` is staff entering for the player (None: the player, by access code). After the deadline only staff
    with an override reason. Nothing to do (no pairs, no undo) changes nothing and answers the current state.
    """
    staff, actor, reason = _swap_actor(reg, user, override_reason)
    pairs, undo, game = _swap_input(pairs, undo, game)
    table = current_table(reg)
    if not pairs and not undo:
        return SwapResult(reg, table, target_game(table) if table and table.started_at else None, [], [])
    _check_swap_table(reg, table, staff)
    _lock(reg)
    now = utcnow()
    game, override = _swap_game(table, game, now, staff, reason)
    version = deck_version(reg, table, game)
    db.session.refresh(version)          # the latest committed lists, read under the lock
    lists = version_lists(version)
    undone = _swaps_to_undo(reg, table, game, undo)
    after = _validated(reg.event, lists, undone, pairs)
    made = _new_swaps(reg, table, game, lists, undone, pairs, actor, now, override)
    for s in undone:
        s.undone_at = now
        s.undone_by = actor
        s.undo_reason = override
    db.session.add_all(made)
    version.main = after.main
    version.sideboard = after.sideboard
    version.main_count = after.main_count
    version.updated_at = now
    db.session.flush()
    _log_swaps(reg, table, game, made, undone, actor, staff, override)
    return SwapResult(reg, table, game, made, undone)


def _swap_actor(reg: Registration, user: User | None, override_reason) -> tuple:
    """(staff, actor, override reason): who enters the swaps; only the event's staff enter them for a player,
    and only a judge gives an override reason."""
    staff = staff_for(user, reg.event)
    if user is not None and staff is None:
        raise Refused(_("Only the event's staff can enter swaps for a player."), status=403)
    actor = actor_name(staff) if staff else "player"
    reason = _clean_reason(override_reason)
    if reason and not staff:
        raise Refused(_("Only a judge can override the swap window."), status=403, field="override_reason")
    return staff, actor, reason


def _swap_input(pairs, undo, game) -> tuple[list[Pair], list[int], int | None]:
    """The request read: the pairs to make, the swap ids to undo, the game (1, 2 or 3, or None: the next)."""
    try:
        pairs = domain.parse_pairs(list(pairs) if isinstance(pairs, tuple) else pairs)
    except SwapError as e:
        raise Refused(message_text(e.message), field="pairs") from None
    if not isinstance(undo, (list, tuple)) or not all(_whole(i) is not None for i in undo):
        raise Refused(_("`undo` must be a list of swap ids."), field="undo")
    undo = [_whole(i) for i in undo]
    if game is not None and _whole(game) not in (1, 2, 3):
        raise Refused(_("The game must be 1, 2 or 3."), field="game")
    return pairs, undo, _whole(game) if game is not None else None


def _check_swap_table(reg: Registration, table: GameTable | None, staff) -> None:
    """Swaps need an event with sideboards, a player still in it (staff may enter for a dropped one) and a
    started game at a published table."""
    if not uses_sideboards(reg.event):
        raise Refused(_("This event does not use sideboards, so there is nothing to swap."), status=409)
    if reg.dropped_at is not None and not staff:
        raise Refused(_("You have dropped from this event."), status=409)
    if table is None:
        raise Refused(_("You are not seated at a table of a published round, so there is no swap window."),
                      status=409)
    if table.started_at is None:
        raise Refused(_("The game at table %(number)s has not started yet; the swap window opens when it starts.",
                        number=table.number), status=409)


def _swap_game(table: GameTable, game: int | None, now, staff, reason: str | None) -> tuple[int, str | None]:
    """(the game the swaps are for, the override reason when its window is closed): a closed window takes
    staff with a reason."""
    target = target_game(table, now)
    game = game or target
    if game is None:
        raise Refused(_("The match's third game has started; there is no more sideboarding."), status=409)
    if game != 1 and table.kind != "match":
        raise Refused(_("Only 1v1 matches have games 2 and 3."), field="game")
    w = window(table, game)
    if is_open(w, now):
        return game, None
    message = _closed_message(w, table, game)
    if not staff:
        raise Refused(message, status=409)
    if not reason:
        raise Refused(_("%(message)s To override as a judge, give a reason.", message=message), status=409,
                      field="override_reason")
    return game, reason


def _swaps_to_undo(reg: Registration, table: GameTable, game: int, undo: list[int]) -> list[Swap]:
    """The player's active swaps for this game with the ids in `undo` (each once); refused if one is not."""
    if not undo:
        return []
    active = {s.id: s for s in swaps_of(reg, table, game, active_only=True)}
    undone = []
    for sid in dict.fromkeys(undo):
        s = active.get(sid)
        if s is None:
            raise Refused(_("One of the swaps to undo is not one of yours for this game that can still be "
                            "undone (it may be undone already). Reload the page to see your swaps."), status=409,
                          field="undo")
        undone.append(s)
    return undone


def _inverse(undone: list[Swap]) -> list[Pair]:
    """The pairs that take back `undone`, the last made first."""
    return list(reversed([Pair(s.card_in, s.card_out) for s in undone]))


def _validated(event, lists, undone: list[Swap], pairs: list[Pair]):
    """The lists after the undos and the new pairs, checked as a whole against the event's deck rules."""
    try:
        return domain.validate_swaps(lists, [*_inverse(undone), *pairs], DbCardPool(), event.ruleset,
                                     event.banlist_add or (), event.banlist_remove or (),
                                     max_bracket=event.max_bracket, brackets=app_bracket_rules())
    except SwapError as e:
        raise Refused(message_text(e.message), status=409, field="pairs") from None


def _new_swaps(reg: Registration, table: GameTable, game: int, lists, undone: list[Swap], pairs: list[Pair],
               actor: str, now, override: str | None) -> list[Swap]:
    """A Swap row per pair, naming the cards as the lists have them (after the undos), not as typed."""
    made = []
    applied = domain.apply_pairs(lists, _inverse(undone)) if undone else lists
    for p in pairs:
        real_out = domain._find(applied.main, p.card_out)
        real_in = domain._find(applied.sideboard, p.card_in)
        applied = domain.apply_pairs(applied, [Pair(real_out, real_in)])
        made.append(Swap(registration_id=reg.id, table_id=table.id, game=game, card_out=real_out, card_in=real_in,
                         entered_by=actor, at=now, override_reason=override))
    return made


def _log_swaps(reg: Registration, table: GameTable, game: int, made: list[Swap], undone: list[Swap], actor: str,
               staff, override: str | None) -> None:
    """The audit entry: "swap", or "swap.override" with the judge's reason."""
    details = dict(registration=reg.id, round=table.round.number, table=table.number, game=game,
                   swaps=[[s.card_out, s.card_in] for s in made], undone=[s.id for s in undone],
                   swap_ids=[s.id for s in made])
    if staff:
        details["entered_for"] = reg.name
    if override:
        details["override_reason"] = override
    log(reg.event, actor, "swap.override" if override else "swap", **details)


def submit_swaps(reg: Registration, pairs, *, user: User | None = None, game: int | None = None,
                 override_reason=None) -> list[Swap]:
    return change_swaps(reg, pairs, (), user=user, game=game, override_reason=override_reason).made


def undo_swap(reg: Registration, swap_id: int, *, user: User | None = None, override_reason=None) -> Swap:
    s = db.session.get(Swap, swap_id) if valid_id(swap_id) else None
    if s is None or s.registration_id != reg.id:
        raise NotFound(_("No such swap for this player."))
    change_swaps(reg, (), [swap_id], user=user, game=s.game, override_reason=override_reason)
    return s


# ----------------------------------------------------------------- duel games

def start_duel_game(table: GameTable, number: int, *, user: User | None = None,
                    reg: Registration | None = None) -> SwapWindow:
    """Start game 2 or 3 of a match (either player taps "Start game N", or staff close its sideboarding): its
    sideboarding closes and each player's deck for it is kept. Tapping again once it has started changes nothing."""
    event = table.round.event
    staff = staff_for(user, event)
    if staff is None and (reg is None or reg.id not in {s.registration_id for s in table.seats}):
        raise Refused(_("Only the players at this table or staff can start its next game."), status=403)
    if staff is None and reg.dropped_at is not None:
        raise Refused(_("You have dropped from the event, so you cannot start a game. Ask a judge if this is wrong."),
                      status=403)
    actor = actor_name(staff) if staff else f"player:{reg.id}"
    if table.kind != "match":
        raise Refused(_("Only a 1v1 match has games 2 and 3."), status=409)
    if table.started_at is None:
        raise Refused(_("The match has not started; start the round first."), status=409)
    if isinstance(number, bool) or number not in (2, 3):
        raise Refused(_("Start game 2 or game 3 (game 1 starts with the round)."), field="number")
    from ..rounds.operations import lock_table
    lock_table(table)
    now = utcnow()
    last = last_started_game(table, now)
    if number <= last:
        w = _windows(table)[number]
        if w.closed_at is None:             # its deadline passed: the game started then
            w.closed_at = aware(w.deadline)
        return w
    if number != last + 1:
        raise Refused(_("Game %(last)s is the latest game started; the next one is game %(next)s.", last=last,
                        next=last + 1), status=409)
    w = window(table, number)
    if w is None:
        raise Refused(_("Report game %(previous)s first: sideboarding for game %(game)s opens when it is reported.",
                        previous=number - 1, game=number), status=409)
    for seat in table.seats:
        _lock(seat.registration)
    w.closed_at = now
    for seat in table.seats:
        if seat.registration.deck is not None:
            deck_version(seat.registration, table, number)
    db.session.flush()
    log(event, actor, "duel.game_start", round=table.round.number, table=table.number, game=number)
    return w


# ----------------------------------------------------------------- reading

def swap_json(s: Swap) -> dict:
    return {"id": s.id, "registration_id": s.registration_id, "table_id": s.table_id, "game": s.game,
            "out": s.card_out, "in": s.card_in, "entered_by": s.entered_by, "at": iso(s.at),
            "override_reason": s.override_reason, "undone_at": iso(s.undone_at), "undone_by": s.undone_by}


def uses_sideboards(event) -> bool:
    """The event allows sideboards and its ruleset has room for one (today's Commander rules have none)."""
    return bool(event.sideboard_enabled) and get_ruleset(event.ruleset).sideboard_max != 0


def state(reg: Registration, game: int | None = None, table: GameTable | None | bool = False) -> dict:
    """What the player's swap page shows: table, window (with the server's deadline), deck, swaps. `table`: the
    player's current table when the caller has just read it (a submission's answer), else it is read here."""
    table = current_table(reg) if table is False else table
    now = utcnow()
    out = {"registration_id": reg.id, "name": reg.name, "sideboard_enabled": uses_sideboards(reg.event),
           "table": None, "game": None, "window": None, "deck": None, "swaps": [], "server_time": iso(now)}
    if table is None or not out["sideboard_enabled"]:
        return out
    out["table"] = {"id": table.id, "round": table.round.number, "number": table.number, "kind": table.kind,
                    "started_at": iso(table.started_at)}
    if table.started_at is None:
        return out
    target = target_game(table, now)
    game = game or target
    if game is None:
        game = 3
    out["game"] = game
    out["window"] = window_json(window(table, game), now)
    if reg.deck is not None:
        v = db.session.execute(sa.select(DeckVersion).where(
            DeckVersion.registration_id == reg.id, DeckVersion.table_id == table.id,
            DeckVersion.game == game)).scalar()
        if v is not None:
            lists = version_lists(v)
        elif game > 1:
            lists = version_lists(deck_version(reg, table, game))
        else:
            lists = registered_lists(reg)
        out["deck"] = {"generals": list(lists.generals), "main": lists.main, "sideboard": lists.sideboard,
                       "main_count": lists.main_count, "deck_size": len(lists.generals) + lists.main_count}
    out["swaps"] = [swap_json(s) for s in swaps_of(reg, table, game)]
    return out


def table_log(table: GameTable) -> list[Swap]:
    return list(db.session.execute(sa.select(Swap).where(Swap.table_id == table.id)
                                   .order_by(Swap.at, Swap.id)).scalars())


def versions_of(reg: Registration) -> list[DeckVersion]:
    return list(db.session.execute(sa.select(DeckVersion).where(DeckVersion.registration_id == reg.id)
                                   .order_by(DeckVersion.table_id, DeckVersion.game)).scalars())
