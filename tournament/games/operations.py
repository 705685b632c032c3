"""Tracker operations: load a table's game by folding its stored events, apply an action, undo, end.

The rules live in tracker.py (pure); this module loads and stores events,
decides who may act (staff, or a player seated at the table), and at the end
fills the table's result through tournament.rounds.operations.report_pod_result.
"""
from __future__ import annotations

import secrets

import sqlalchemy as sa

from ..auth.models import User
from ..cards.models import utcnow
from ..decks.rulesets import get_ruleset
from ..errors import Refused
from ..events.models import TRACKER_VARIANTS, Registration
from ..events.operations import actor_name, log, require_staff
from ..extensions import db
from ..rounds import operations as round_ops
from ..rounds.models import GameTable, Round
from . import archenemy as arch
from .models import TrackerEvent
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
    return value.isoformat(timespec="seconds") if value else ""


def load_state(table: GameTable) -> State | None:
    """The table's game now (None: not started)."""
    rows = _rows(table)
    if not rows:
        return None
    try:
        return fold(_events(rows))
    except TrackerError as e:   # a stored log that no longer replays: say so instead of a 500
        raise Refused(f"This table's game log cannot be replayed ({e.message}); ask a judge.", status=409) from None


def _next_seq(table: GameTable) -> int:
    top = db.session.execute(sa.select(sa.func.max(TrackerEvent.seq)).where(TrackerEvent.table_id == table.id)).scalar()
    return (top or 0) + 1


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


def _scheme_cards(reg: Registration) -> list[dict]:
    """The registered scheme deck, with each scheme's ongoing flag from the card database."""
    deck = reg.deck
    if deck is None:
        return []
    from ..cards.models import Card
    from ..decks.parser import parse_decklist
    try:
        parsed = parse_decklist(deck.text)
    except Exception:  # noqa: BLE001 - an unreadable list simply has no scheme deck
        return []
    cards = []
    for e in parsed.schemes:
        card = db.session.execute(sa.select(Card).where(Card.name == e.name)).scalar()
        type_line = str(getattr(card, "type_line", "") or "") if card is not None else ""
        cards.extend({"name": e.name, "ongoing": "Ongoing" in type_line} for _ in range(e.count))
    return cards


def start_game(table: GameTable, *, variant: str | None = None, archenemy: int | None = None,
               scheme_decks: dict | None = None, seed: int | None = None,
               reg: Registration | None = None, user: User | None = None) -> State:
    """Set the table's game up: turn order, starting life, generals, tax kind, limits, scheme decks.

    `variant` None (not given): the event's variant. An Archenemy game records its archenemy on the
    table (GameTable.archenemy_id), which makes the standings score it as archenemy against team.
    """
    actor, staff = _actor(table, reg, user)
    if not staff and (archenemy is not None or variant is not None or scheme_decks is not None):
        raise Refused("Only a judge or the organizer may choose the variant, the archenemy or the scheme decks; "
                      "start the game without them to use the event's rules.", status=403, field="archenemy")
    if variant is None:
        variant = TRACKER_VARIANTS.get(table.round.event.variant or "none", "normal")
    if table.kind == "bye":
        raise Refused("A bye has no game to track.", status=409)
    if _rows(table):
        raise Refused("This table's game has already started; undo or end it instead.", status=409)
    if variant not in arch.VARIANTS:
        raise Refused(f"Choose a variant: {', '.join(arch.VARIANTS)}.", field="variant")
    seats = [s.registration_id for s in table.seats]
    regs = {s.registration_id: s.registration for s in table.seats}
    if archenemy is not None and (not isinstance(archenemy, int) or isinstance(archenemy, bool)
                                  or archenemy not in seats):
        raise Refused("The archenemy must be one of the players at this table.", field="archenemy")
    if variant != "archenemy":
        archenemy = None
    elif archenemy is None:
        counts = archenemy_counts(table)
        ranks = {row.player: row.rank for row in round_ops.standings(table.round.event)}
        archenemy = arch.choose_archenemy([arch.Candidate(p, counts.get(p, 0), ranks.get(p, 0)) for p in seats])
    seed = secrets.randbits(62) if seed is None else seed
    if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed < 2**63:
        raise Refused("The seed must be a whole number.", field="seed")
    ruleset = get_ruleset(table.round.event.ruleset)
    order = arch.turn_order(seats, variant, archenemy, seed)
    life = arch.starting_life(seats, variant, archenemy, ruleset.starting_life or 40)
    decks: dict[int, list[dict]] = {}
    if variant != "normal":
        holders = seats if variant == "rumble" else [archenemy]
        given = scheme_decks or {}
        if not isinstance(given, dict):
            raise Refused("Scheme decks must map a player to a list of schemes.", field="scheme_decks")
        for p in holders:
            cards = given.get(p, given.get(str(p)))
            if cards is None:
                cards = _scheme_cards(regs[p])
            if (not isinstance(cards, list) or len(cards) > 200
                    or not all(isinstance(c, dict) and isinstance(c.get("name"), str) and len(c["name"]) <= 150
                               for c in cards)):
                raise Refused("A scheme deck is a list of {\"name\", \"ongoing\"} schemes.", field="scheme_decks")
            problems = arch.check_scheme_deck([c["name"] for c in cards])
            if problems:
                raise Refused(f"{regs[p].name}'s scheme deck: " + " ".join(problems), field="scheme_decks")
            decks[p] = arch.deal_scheme_deck(cards, seed + p).library
    setup = Setup(players=order, names={p: regs[p].name for p in seats},
                  generals={p: _generals(regs[p]) for p in seats}, life=life,
                  tax_kind=ruleset.general_tax_kind, tax_amount=ruleset.general_tax_amount or 2,
                  general_damage=ruleset.general_damage or 21, poison_threshold=ruleset.poison_threshold or 10,
                  variant=variant, archenemy=archenemy, scheme_decks=decks)
    try:
        state = new_state(setup)
    except TrackerError as e:
        raise Refused(e.message, field=e.field) from None
    payload = setup.to_json()
    payload["seed"] = seed
    db.session.add(TrackerEvent(table_id=table.id, seq=_next_seq(table), kind="start", payload=payload,
                                actor=actor, at=utcnow()))
    table.archenemy_id = archenemy if variant == "archenemy" else None
    db.session.flush()
    log(table.round.event, actor, "tracker.start", round=table.round.number, table=table.number,
        variant=variant, archenemy=archenemy)
    return load_state(table)


def apply_action(table: GameTable, kind, payload, *, reg: Registration | None = None,
                 user: User | None = None) -> State:
    actor, _staff = _actor(table, reg, user)
    state = load_state(table)
    if state is None:
        raise Refused("Start the game first.", status=409)
    if not isinstance(kind, str):
        raise Refused("Say which action to take.", field="action")
    if kind == "end":
        raise Refused("End the game with the end action of the tracker page.", field="action")
    try:
        _new, clean = step(state, kind, payload, actor=actor)
    except TrackerError as e:
        raise Refused(e.message, field=e.field) from None
    db.session.add(TrackerEvent(table_id=table.id, seq=_next_seq(table), kind=kind, payload=clean, actor=actor,
                                at=utcnow()))
    db.session.flush()
    return load_state(table)


def undo(table: GameTable, *, reg: Registration | None = None, user: User | None = None) -> State:
    """Mark the last live change undone (kept in the log) and fold again."""
    actor, _staff = _actor(table, reg, user)
    rows = _rows(table)
    if len(rows) <= 1:
        raise Refused("There is nothing to undo.", status=409)
    last = rows[-1]
    if last.kind == "end" and table.result_state is not None and not _staff:
        raise Refused("The result has been sent; ask a judge to reopen the game.", status=409)
    last.undone = True
    last.undone_by = actor
    db.session.flush()
    log(table.round.event, actor, "tracker.undo", round=table.round.number, table=table.number,
        seq=last.seq, kind=last.kind)
    return load_state(table)


def end_game(table: GameTable, *, reg: Registration | None = None, user: User | None = None) -> State:
    """End the game and fill the table's result: survivors, elimination order, general-damage win."""
    actor, _staff = _actor(table, reg, user)
    state = load_state(table)
    if state is None:
        raise Refused("Start the game first.", status=409)
    if table.kind != "pod":
        raise Refused("This table is a 1v1 match: report its games on the round page.", status=409)
    try:
        state, clean = step(state, "end", {}, actor=actor)
    except TrackerError as e:
        raise Refused(e.message) from None
    summary = state.summary()
    prizes = None
    known = {c.get("id") for c in table.round.event.prize_conditions or []}
    if summary["general_damage_win"] is not None and GENERAL_DAMAGE_WIN in known:
        prizes = {c.condition: {"holder": c.holder_id, "value": c.value} for c in table.prize_claims}
        prizes[GENERAL_DAMAGE_WIN] = {"holder": summary["general_damage_win"]}
    round_ops.report_pod_result(table, summary["survivors"], summary["eliminated"], prizes, reg=reg, user=user)
    db.session.add(TrackerEvent(table_id=table.id, seq=_next_seq(table), kind="end", payload=clean, actor=actor,
                                at=utcnow()))
    db.session.flush()
    return load_state(table)
