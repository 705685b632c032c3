"""Tracker operations: a table's game is its event log plus a snapshot of the state now.

The rules live in tracker.py (pure); this module stores events, decides who
may act (staff, or a player seated at the table), and at the end fills the
table's result through tournament.rounds.operations.report_pod_result.

Every write takes the table's lock first (round_ops.lock_table: a row lock on
PostgreSQL; on SQLite the request already holds the write lock), so taps at
one table take turns and each sees the one before it. A tap reads the
snapshot (TrackerGame), applies one step, appends its event with the next seq
and rewrites the snapshot: the same few rows however long the game. Undo
marks the last live event undone and folds the log again (rare). A missing
snapshot (a game started before snapshots) or one that does not match the log
is rebuilt by folding once.
"""
from __future__ import annotations

import secrets

import sqlalchemy as sa
from flask_babel import gettext as _

from ..auth.models import User
from ..cards.models import utcnow
from ..decks.rulesets import get_ruleset
from ..errors import Refused
from ..events.models import TRACKER_VARIANTS, Registration
from ..events.operations import log
from ..extensions import db
from ..i18n import message_text
from ..rounds import operations as round_ops
from ..timezones import as_utc
from ..rounds.models import GameTable, Round
from . import archenemy as arch
from ..web.api import parse
from .models import TrackerEvent, TrackerGame
from .schemas import SchemeDeckIn, StartIn
from .tracker import Event, Setup, State, TrackerError, fold, new_state, step

GENERAL_DAMAGE_WIN = "general_damage_win"


def _actor(table: GameTable, reg: Registration | None, user: User | None) -> tuple[str, bool]:
    return round_ops.table_actor(table, reg, user, doing="use its tracker")


def _rows(table: GameTable) -> list[TrackerEvent]:
    return list(db.session.execute(sa.select(TrackerEvent).where(TrackerEvent.table_id == table.id,
                                                                 TrackerEvent.undone.is_(False))
                                   .order_by(TrackerEvent.seq)).scalars())


def _events(rows: list[TrackerEvent]) -> list[Event]:
    return [Event(r.seq, r.kind, dict(r.payload or {}), r.actor, _iso(r.at)) for r in rows]


def _iso(value) -> str:
    """An event's time as the log shows it (UTC; SQLite hands times back without their zone)."""
    return as_utc(value).isoformat(timespec="seconds") if value else ""


def _last_seqs_columns(table: GameTable):
    """(the last stored event's seq, the last live event's seq): two index lookups, not a scan of the log."""
    by_seq = sa.select(TrackerEvent.seq).where(TrackerEvent.table_id == table.id).order_by(TrackerEvent.seq.desc())
    return (by_seq.limit(1).scalar_subquery(),
            by_seq.where(TrackerEvent.undone.is_(False)).limit(1).scalar_subquery())


def _last_seqs(table: GameTable) -> tuple[int | None, int | None]:
    row = db.session.execute(sa.select(*_last_seqs_columns(table))).one()
    return row[0], row[1]


def _read(table: GameTable) -> tuple[TrackerGame | None, int | None, int | None]:
    """The snapshot row and the log's last seqs, read by one statement (so they agree with each other
    even while others commit taps at this table)."""
    row = db.session.execute(sa.select(TrackerGame, *_last_seqs_columns(table))
                             .where(TrackerGame.table_id == table.id)
                             .execution_options(populate_existing=True)).one_or_none()
    if row is None:
        return None, *_last_seqs(table)
    return row[0], row[1], row[2]


def _replay(rows: list[TrackerEvent]) -> State:
    try:
        return fold(_events(rows))
    except TrackerError as e:   # a stored log that no longer replays: say so instead of a 500
        raise Refused(_("This table's game log cannot be replayed (%(problem)s); ask a judge.",
                        problem=message_text(e.message)),
                      status=409) from None


def _save(table: GameTable, snap: TrackerGame | None, state: State, last_seq: int) -> TrackerGame:
    """Write the snapshot of `state` (its seq is the last live event's); `last_seq` is the last stored event's."""
    if snap is None:
        snap = TrackerGame(table_id=table.id)
        db.session.add(snap)
    snap.state = state.to_snapshot()
    snap.seq = state.seq
    snap.last_seq = last_seq
    snap.updated_at = utcnow()
    return snap


def _game(table: GameTable, *, locked: bool) -> tuple[TrackerGame | None, State | None]:
    """The table's snapshot row and state (None, None: not started). `locked`: the caller holds the table's lock,
    so the snapshot may be rewritten; a reader without it takes it only to rebuild a missing or stale one."""
    snap, last, live = _read(table)
    if snap is not None and live is not None and snap.seq == live and snap.last_seq == last:
        try:
            return snap, State.from_snapshot(snap.state)
        except TrackerError:
            pass                                  # a snapshot of another version: rebuilt below
    if snap is None and live is None:
        return None, None                         # not started
    if not locked:                                # missing or stale: rebuild it, taking turns with the writers
        round_ops.lock_table(table)
        return _game(table, locked=True)
    if live is None:                              # a snapshot whose events are gone
        db.session.delete(snap)
        db.session.flush()
        return None, None
    state = _replay(_rows(table))
    snap = _save(table, snap, state, last)
    db.session.flush()
    return snap, state


def load_state(table: GameTable) -> State | None:
    """The table's game now (None: not started), read from its snapshot."""
    return _game(table, locked=False)[1]


def _append(table: GameTable, snap: TrackerGame, state: State, kind: str, clean: dict, actor: str, now) -> State:
    """Store the event `step` just made (seq: the next at this table) and the snapshot after it."""
    seq = snap.last_seq + 1
    state.seq = seq
    state.log[-1].seq = seq
    db.session.add(TrackerEvent(table_id=table.id, seq=seq, kind=kind, payload=clean, actor=actor, at=now))
    _save(table, snap, state, seq)
    db.session.flush()
    return state


def archenemy_counts(table: GameTable) -> dict[int, int]:
    """How often each player has been the archenemy in this event's earlier tracked games."""
    rows = db.session.execute(
        sa.select(TrackerEvent.payload).join(GameTable, GameTable.id == TrackerEvent.table_id).join(Round)
        .where(Round.event_id == table.round.event_id, TrackerEvent.kind == "start",
               TrackerEvent.undone.is_(False), TrackerEvent.table_id != table.id)).scalars()
    counts: dict[int, int] = {}
    for payload in rows:
        a = (payload or {}).get("archenemy")
        if (payload or {}).get("variant") == "archenemy" and isinstance(a, int):
            counts[a] = counts.get(a, 0) + 1
    return counts


def _generals(reg: Registration) -> list[str]:
    deck = reg.deck
    names = list((deck.result or {}).get("commanders") or []) if deck is not None else []
    return [str(n)[:80] for n in names][:2] or ["General"]


def _parsed_list(reg: Registration):
    """The registered decklist as the parser reads it (None: no list)."""
    from ..decks.parser import parse_decklist
    deck = reg.deck
    if deck is None or not (deck.text or "").strip():
        return None
    try:
        return parse_decklist(deck.text)
    except (ValueError, TypeError):      # a list the parser refuses as a whole: it has no scheme deck
        return None


def _resolve(names, suggest: bool = True) -> tuple[dict, dict[str, list[str]]]:
    """The names' cards (one query) and, with `suggest`, did-you-mean names for the first few unknown ones."""
    from ..cards.repository import DbCardPool
    pool = DbCardPool()
    cards = pool.resolve(names)
    unknown = [n for n, card in cards.items() if card is None][:5] if suggest else []
    return cards, {n: pool.suggest(n, 3) for n in unknown}


def registered_scheme_list(reg: Registration) -> arch.SchemeList:
    """The registered decklist's scheme cards (its "Schemes" section and scheme cards listed elsewhere)."""
    parsed = _parsed_list(reg)
    if parsed is None:
        return arch.SchemeList([], [])
    cards, _hints = _resolve((e.name for e in [*parsed.main, *parsed.sideboard, *parsed.schemes]), suggest=False)
    return arch.registered_schemes(parsed, cards)


def registered_scheme_count(reg: Registration) -> int:
    return sum(count for count, _name, _line in registered_scheme_list(reg).entries)


def _scheme_deck(reg: Registration, given) -> tuple[str, list[dict]]:
    """One holder's scheme deck (source, cards): as given (a SchemeDeckIn), else the registered list's; checked
    against the card data and the Archenemy rules unless it was brought on paper."""
    from ..decks.domain import DeckInputError
    from ..decks.parser import parse_decklist
    source = "registered" if given is None else given.source
    if source == "paper":
        return source, []
    if source == "registered":
        listed = registered_scheme_list(reg)
        if not listed.entries:
            raise Refused(_("%(name)s's registered decklist has no scheme cards: paste their scheme list, or "
                            "choose \"scheme cards brought on paper\".", name=reg.name), field="scheme_decks")
    else:
        if not (given.text or "").strip():
            raise Refused(_("Paste %(name)s's scheme list: one scheme card a line, like \"2 Feed the Machine\".",
                            name=reg.name), field="scheme_decks")
        try:
            listed = arch.read_scheme_list(parse_decklist(given.text))
        except DeckInputError as e:          # binary, control characters: not a list of names at all
            raise Refused(_("%(name)s's scheme list cannot be read: %(problem)s", name=reg.name,
                            problem=message_text(e.text or str(e))), field="scheme_decks") from None
    cards, hints = _resolve(name for _count, name, _line in listed.entries)
    deck, problems = arch.scheme_deck(listed, cards, hints)
    if problems:
        raise Refused(_("%(name)s's scheme deck: %(problems)s", name=reg.name,
                        problems="\n" + "\n".join(message_text(x) for x in problems[:12])),
                      field="scheme_decks")           # a problem a line (the tracker shows them so)
    return source, deck


def start_game(table: GameTable, *, variant: str | None = None, archenemy: int | None = None,
               scheme_decks: dict | None = None, seed: int | None = None,
               reg: Registration | None = None, user: User | None = None) -> State:
    """Set the table's game up: turn order, starting life, generals, tax kind, limits, scheme decks.

    The input is a StartIn's (tournament.games.schemas): `variant` None (not given) is the event's;
    `scheme_decks` maps a holder's registration id to a SchemeDeckIn (or its dict). An Archenemy game records
    its archenemy on the table (GameTable.archenemy_id), which makes the standings score it as archenemy
    against team; the log says where each scheme deck came from ("paper": not checked).
    """
    start = parse(StartIn, {"variant": variant, "archenemy": archenemy, "seed": seed,
                            "scheme_decks": _plain(scheme_decks)}, "start setting")
    actor, staff = _actor(table, reg, user)
    variant = _start_variant(table, staff, start.variant, start.archenemy)
    if table.kind == "bye":
        raise Refused(_("A bye has no game to track."), status=409)
    round_ops.lock_table(table)
    _snap, started = _game(table, locked=True)
    if started is not None:
        raise Refused(_("This table's game has already started; undo or end it instead."), status=409)
    seats = [s.registration_id for s in table.seats]
    regs = {s.registration_id: s.registration for s in table.seats}
    archenemy = _start_archenemy(table, seats, variant, start.archenemy)
    seed = secrets.randbits(62) if start.seed is None else start.seed
    ruleset = get_ruleset(table.round.event.ruleset)
    order = arch.turn_order(seats, variant, archenemy, seed)
    life = arch.starting_life(seats, variant, archenemy, ruleset.starting_life or 40)
    sources, decks = _start_scheme_decks(variant, seats, archenemy, start.scheme_decks or {}, regs, seed)
    setup = Setup(players=order, names={p: regs[p].name for p in seats},
                  generals={p: _generals(regs[p]) for p in seats}, life=life,
                  tax_kind=ruleset.general_tax_kind, tax_amount=ruleset.general_tax_amount or 2,
                  general_damage=ruleset.general_damage or 21, poison_threshold=ruleset.poison_threshold or 10,
                  variant=variant, archenemy=archenemy, scheme_decks=decks, scheme_sources=sources)
    try:
        new_state(setup)
    except TrackerError as e:
        raise Refused(message_text(e.message), field=e.field) from None
    return _record_start(table, setup, seed, actor)


def _plain(scheme_decks):
    """scheme_decks as StartIn reads it: SchemeDeckIn models (an operation's caller) as their dicts."""
    if not isinstance(scheme_decks, dict):
        return scheme_decks
    return {str(k): v.model_dump() if isinstance(v, SchemeDeckIn) else v for k, v in scheme_decks.items()}


def suggested_archenemy(table: GameTable) -> int | None:
    """The archenemy the tracker suggests: the player archenemy least often in this event, then by standings."""
    seats = [s.registration_id for s in table.seats]
    if not seats:
        return None
    counts = archenemy_counts(table)
    ranks = {row.player: row.rank for row in round_ops.standings(table.round.event)}
    return arch.choose_archenemy([arch.Candidate(p, counts.get(p, 0), ranks.get(p, 0)) for p in seats])


def start_choices(table: GameTable) -> dict:
    """What the tracker's start offers before the game: the event's variant, the suggested archenemy, and how
    many scheme cards each player's registered decklist holds (0: paste a list or play them on paper)."""
    return {"variant": TRACKER_VARIANTS.get(table.round.event.variant or "none", "normal"),
            "suggested_archenemy": suggested_archenemy(table),
            "registered_schemes": {str(s.registration_id): registered_scheme_count(s.registration)
                                   for s in table.seats},
            "scheme_deck_min": arch.SCHEME_MIN, "scheme_max_copies": arch.SCHEME_MAX_COPIES}


def _start_variant(table: GameTable, staff, variant: str | None, archenemy) -> str:
    """The game's variant: the event's unless staff choose another; only staff choose the archenemy (players
    at the table may give the scheme decks)."""
    event_variant = TRACKER_VARIANTS.get(table.round.event.variant or "none", "normal")
    if not staff and (archenemy is not None or variant not in (None, event_variant)):
        raise Refused(_("Only a judge or the organizer may choose another variant or the archenemy; start the "
                        "game with the event's rules and the suggested archenemy, or ask a judge."), status=403,
                      field="archenemy")
    return event_variant if variant is None else variant


def _start_archenemy(table: GameTable, seats: list[int], variant: str, archenemy) -> int | None:
    """The archenemy of an Archenemy game: the one chosen (a player at the table), else the suggested one;
    None for other variants."""
    if archenemy is not None and archenemy not in seats:
        raise Refused(_("The archenemy must be one of the players at this table."), field="archenemy")
    if variant != "archenemy":
        return None
    return suggested_archenemy(table) if archenemy is None else archenemy


def _start_scheme_decks(variant: str, seats: list[int], archenemy: int | None, given: dict,
                        regs: dict[int, Registration], seed: int) -> tuple[dict[int, str], dict[int, list[dict]]]:
    """Each holder's scheme deck (the archenemy; everyone in a Rumble): its source and its cards shuffled."""
    if variant == "normal":
        if given:
            raise Refused(_("Only an Archenemy game or a Supervillain Rumble has scheme decks."),
                          field="scheme_decks")
        return {}, {}
    holders = seats if variant == "rumble" else [archenemy]
    for key in given:
        if not (key.isascii() and key.isdigit() and len(key) <= 10) or int(key) not in holders:
            raise Refused(_("A scheme deck is for the archenemy (every player in a Supervillain Rumble); "
                            "%(key)s is not one at this table.", key=repr(key[:20])), field="scheme_decks")
    sources, decks = {}, {}
    for p in holders:
        sources[p], cards = _scheme_deck(regs[p], given.get(str(p)))
        decks[p] = arch.deal_scheme_deck(cards, seed + p).library
    return sources, decks


def _record_start(table: GameTable, setup: Setup, seed: int, actor: str) -> State:
    """Store the "start" event (the setup and its seed), the table's first snapshot and its archenemy, and
    log it; the game's state is the fold of that one event."""
    payload = setup.to_json()
    payload["seed"] = seed
    now = utcnow()
    seq = (_last_seqs(table)[0] or 0) + 1
    db.session.add(TrackerEvent(table_id=table.id, seq=seq, kind="start", payload=payload, actor=actor, at=now))
    state = fold([Event(seq, "start", payload, actor, _iso(now))])
    _save(table, None, state, seq)
    table.archenemy_id = setup.archenemy if setup.variant == "archenemy" else None
    db.session.flush()
    log(table.round.event, actor, "tracker.start", round=table.round.number, table=table.number,
        variant=setup.variant, archenemy=setup.archenemy,
        scheme_decks={str(p): {"source": source, "cards": len(setup.scheme_decks.get(p) or []),
                               "checked": source != "paper"} for p, source in setup.scheme_sources.items()})
    return state


def apply_action(table: GameTable, kind, payload, *, reg: Registration | None = None,
                 user: User | None = None) -> State:
    """One tap: lock the table, read its snapshot, step, append the event, rewrite the snapshot."""
    actor, _staff = _actor(table, reg, user)
    round_ops.lock_table(table)
    snap, state = _game(table, locked=True)
    if state is None:
        raise Refused(_("Start the game first."), status=409)
    if not isinstance(kind, str):
        raise Refused(_("Say which action to take."), field="action")
    if kind == "end":
        raise Refused(_("End the game with the end action of the tracker page."), field="action")
    now = utcnow()
    try:
        new, clean = step(state, kind, payload, actor=actor, at=_iso(now))
    except TrackerError as e:
        raise Refused(message_text(e.message), field=e.field) from None
    return _append(table, snap, new, kind, clean, actor, now)


def undo(table: GameTable, *, reg: Registration | None = None, user: User | None = None) -> State:
    """Mark the last live change undone (kept in the log), fold the rest again and rewrite the snapshot."""
    actor, _staff = _actor(table, reg, user)
    round_ops.lock_table(table)
    snap, _state = _game(table, locked=True)
    rows = _rows(table)
    if len(rows) <= 1:
        raise Refused(_("There is nothing to undo."), status=409)
    last = rows[-1]
    if last.kind == "end" and table.result_state is not None and not _staff:
        raise Refused(_("The result has been sent; ask a judge to reopen the game."), status=409)
    last.undone = True
    last.undone_by = actor
    state = _replay(rows[:-1])
    _save(table, snap, state, snap.last_seq)
    db.session.flush()
    log(table.round.event, actor, "tracker.undo", round=table.round.number, table=table.number,
        seq=last.seq, kind=last.kind)
    return state


def end_game(table: GameTable, *, reg: Registration | None = None, user: User | None = None) -> State:
    """End the game and fill the table's result: survivors, elimination order, general-damage win."""
    actor, _staff = _actor(table, reg, user)
    round_ops.lock_table(table)
    snap, state = _game(table, locked=True)
    if state is None:
        raise Refused(_("Start the game first."), status=409)
    if table.kind != "pod":
        raise Refused(_("This table is a 1v1 match: report its games on the round page."), status=409)
    now = utcnow()
    try:
        state, clean = step(state, "end", {}, actor=actor, at=_iso(now))
    except TrackerError as e:
        raise Refused(message_text(e.message)) from None
    summary = state.summary()
    prizes = None
    known = {c.get("id") for c in table.round.event.prize_conditions or []}
    if summary["general_damage_win"] is not None and GENERAL_DAMAGE_WIN in known:
        prizes = {c.condition: {"holder": c.holder_id, "value": c.value} for c in table.prize_claims}
        prizes[GENERAL_DAMAGE_WIN] = {"holder": summary["general_damage_win"]}
    round_ops.report_pod_result(table, summary["survivors"], summary["eliminated"], prizes, reg=reg, user=user)
    return _append(table, snap, state, "end", clean, actor, now)
