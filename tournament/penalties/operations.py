"""Penalties: recording one (with what it does to the results), withdrawing one, and who may.

A penalty is a row (never a change to a shared list), given once per request: a key sent twice (a double tap, a
retried request) answers the penalty stored the first time. The player's row is locked while a penalty is
recorded, so two judges giving the same game loss at once store one and the second is told. The results are
never rewritten: the standings lay the penalties in force over them (tournament.penalties.domain).
"""
from __future__ import annotations

import unicodedata

import sqlalchemy as sa
from flask_babel import gettext as _

from ..auth.models import User
from ..cards.models import utcnow
from ..errors import NotFound, Refused
from ..events import audit
from ..events.models import Event, Registration
from ..events.operations import _locked, actor_name, clean_text, get_registration, log, require_staff, valid_id
from ..extensions import db
from ..i18n import N_, data_text
from ..rounds import operations as rounds
from ..rounds.models import Round
from ..web.api import parse
from . import domain, queries
from .models import NOTE_LENGTH, Penalty
from .schemas import PenaltyIn

# The log's sentences (the event log page and the API's log), registered with the event's log here so that the
# log module needs no line of its own for each feature's actions.
ACTIONS = {
    "penalty.warning": (N_("Penalties"), N_("gave %(player)s a warning (%(infraction)s)")),
    "penalty.game_loss": (N_("Penalties"), N_("gave %(player)s a game loss in round %(round)s (%(infraction)s)")),
    "penalty.match_loss": (N_("Penalties"),
                           N_("gave %(player)s a match loss in round %(round)s (%(infraction)s)")),
    "penalty.disqualification": (N_("Penalties"), N_("disqualified %(player)s (%(infraction)s)")),
    "penalty.withdraw": (N_("Penalties"), N_("withdrew a penalty of %(player)s: %(reason)s")),
}
audit.ACTIONS.update(ACTIONS)
audit.KINDS[:] = sorted({label for label, _sentence in audit.ACTIONS.values()})

PENALTY_NAMES = {"warning": N_("Warning"), "game_loss": N_("Game loss"), "match_loss": N_("Match loss"),
                 "disqualification": N_("Disqualification")}


def penalty_name(kind: str) -> str:
    return _(PENALTY_NAMES[kind]) if kind in PENALTY_NAMES else kind


def infraction_name(infraction: str) -> str:
    entry = domain.infractions().get(infraction)
    return data_text(entry["name"]) if entry else infraction


# ----------------------------------------------------------------- who may: the event's staff (owner, co-organizers,
# judges), as events.loading.staff and require_staff say; nobody once the event has finished

def _still_running(event: Event) -> None:
    if event.status == "finished":
        raise Refused(_("The event has finished: its results are final, and so are its penalties."), status=409)


# ----------------------------------------------------------------- recording

def read_input(data: dict) -> PenaltyIn:
    """A penalty from a form's or a client's values, validated with its one declaration (400 naming the field)."""
    return parse(PenaltyIn, data, "field")


def record(event: Event, user: User, given: PenaltyIn) -> tuple[Penalty, bool]:
    """Record a penalty; (the penalty, True) when stored now, (the one stored before, False) for a key already
    used. A game or match loss needs the round the player plays in; a disqualification also drops the player."""
    require_staff(user, event)
    _still_running(event)
    reg = _player(event, given.registration_id)        # locked: a retry with the same key sees the first one
    if given.key is not None:
        earlier = _by_key(event, given.key)
        if earlier is not None:
            return _same_as(earlier, given), False
    kind = given.penalty or domain.default_penalty(given.infraction)
    penalty = Penalty(event_id=event.id, registration_id=reg.id, kind=kind, infraction=given.infraction,
                      note=_note(given.note),
                      key=given.key, given_by=actor_name(user), at=utcnow())
    _place(event, reg, penalty, given)
    _refuse_twice(event, reg, penalty)
    db.session.add(penalty)
    if kind == "disqualification" and reg.dropped_at is None:
        reg.dropped_at = utcnow()            # out of the event: never paired again; results kept
    db.session.flush()
    log(event, actor_name(user), f"penalty.{kind}", registration=reg.id, penalty=penalty.id,
        infraction=domain.infractions()[given.infraction]["name"], round=penalty.round_number,
        table=penalty.table_number, game=penalty.game, loss=penalty.loss)
    return penalty, True


def _note(text: str) -> str:
    """The note as typed, trimmed, line breaks kept (the schema already refused other control characters)."""
    return unicodedata.normalize("NFC", text.replace("\r\n", "\n").strip())


def _by_key(event: Event, key: str) -> Penalty | None:
    return db.session.execute(sa.select(Penalty).where(Penalty.event_id == event.id, Penalty.key == key)).scalar()


def _same_as(earlier: Penalty, given: PenaltyIn) -> Penalty:
    if earlier.registration_id != given.registration_id or earlier.infraction != given.infraction:
        raise Refused(_("This key was used for another penalty. Send a new key for a new penalty."), field="key",
                      status=409)
    return earlier


def _player(event: Event, registration_id: int) -> Registration:
    try:
        reg = get_registration(event, registration_id)
    except NotFound:
        raise Refused(_("No such player in this event: choose the player from the list."),
                      field="registration_id") from None
    return _locked(reg)                  # two judges penalizing one player take turns


def _place(event: Event, reg: Registration, penalty: Penalty, given: PenaltyIn) -> None:
    """The round and table the penalty was given at, the duel game a game loss takes, and what it does to that
    round's result (Penalty.loss)."""
    losing = penalty.kind in ("game_loss", "match_loss")
    rnd = _round(event, given.round, needed=losing)
    if rnd is None:
        if given.game is not None:
            raise Refused(_("Name the round of the game this game loss takes."), field="round")
        return
    penalty.round_number = rnd.number
    seat = rounds.seat_of(rnd, reg)
    table = seat.table if seat is not None else None
    penalty.table_number = table.number if table is not None else None
    if losing and (table is None or table.kind == "bye"):
        raise Refused(_("%(name)s has no game in round %(round)s (not seated, or a bye): there is no game or match "
                        "to lose. Record a warning, or name the round they play in.", name=reg.name,
                        round=rnd.number), field="round", status=409)
    if given.game is not None and (table is None or not (penalty.kind == "game_loss" and table.kind == "match")):
        raise Refused(_("Only a game loss in a 1v1 match names a game: a pod plays one game a round."),
                      field="game")
    if penalty.kind == "game_loss" and table.kind == "match":
        penalty.game = given.game or domain.next_game(len(table.games))
    penalty.loss = domain.loss_of(penalty.kind, table.kind if table is not None else None,
                                  table is not None and table.result_state == "confirmed")


def _round(event: Event, number: int | None, needed: bool):
    if number is None:
        if not needed:
            return None
        rnd = rounds.current_round(event)
        if rnd is None:
            raise Refused(_("A game or match loss applies to a round's game, and no round is published yet. Record "
                            "it once the player is paired."), field="round", status=409)
        return rnd
    rnd = db.session.execute(sa.select(Round).where(Round.event_id == event.id, Round.number == number)).scalar()
    if rnd is None or rnd.status == "draft":
        raise Refused(_("Round %(number)s is not published: name a published round.", number=number),
                      field="round", status=409)
    return rnd


def _refuse_twice(event: Event, reg: Registration, penalty: Penalty) -> None:
    """One disqualification per player, one game loss per game and one match loss per round: a second is a mistake
    (two judges at once, a double tap without a key), refused with what is stored."""
    if penalty.kind == "warning":
        return
    for earlier in queries.given(event.id, reg.id):
        if earlier.withdrawn_at is not None or earlier.kind != penalty.kind:
            continue
        if penalty.kind == "disqualification":
            raise Refused(_("%(name)s is already disqualified.", name=reg.name), status=409)
        if earlier.round_number == penalty.round_number and earlier.game == penalty.game:
            raise Refused(_("%(name)s already has this penalty for round %(round)s (given by %(who)s). Withdraw "
                            "it first to record it again.", name=reg.name, round=penalty.round_number,
                            who=audit.actor_words(earlier.given_by, {})), status=409)


# ----------------------------------------------------------------- withdrawing

def get_penalty(event: Event, penalty_id) -> Penalty:
    penalty = db.session.get(Penalty, penalty_id) if valid_id(penalty_id) else None
    if penalty is None or penalty.event_id != event.id:
        raise NotFound(_("No such penalty in this event."))
    return penalty


def withdraw(event: Event, user: User, penalty: Penalty, reason) -> Penalty:
    """Withdraw a penalty given by mistake: it stays in the record with who withdrew it, when and why, and no
    longer counts. A disqualified player stays dropped: bring them back from the desk."""
    require_staff(user, event)
    _still_running(event)
    reason = clean_text(reason, "reason", _("The reason"), NOTE_LENGTH, required=True)
    locked = db.session.execute(sa.select(Penalty).where(Penalty.id == penalty.id).with_for_update()
                                .execution_options(populate_existing=True)).scalar_one()
    if locked.withdrawn_at is not None:
        raise Refused(_("This penalty was already withdrawn."), status=409)
    locked.withdrawn_at = utcnow()
    locked.withdrawn_by = actor_name(user)
    locked.withdraw_reason = reason
    db.session.flush()
    log(event, actor_name(user), "penalty.withdraw", registration=locked.registration_id, penalty=locked.id,
        reason=reason, round=locked.round_number, table=locked.table_number)
    return locked


# ----------------------------------------------------------------- reading

def penalty_json(p: Penalty, names: dict[int, str], staff: bool = True) -> dict:
    """A penalty as the API answers it (the export leaves out the note and who gave it for the public)."""
    return {"id": p.id, "registration_id": p.registration_id, "name": names.get(p.registration_id, "?"),
            "penalty": p.kind, "infraction": p.infraction,
            "infraction_name": domain.infractions().get(p.infraction, {}).get("name", p.infraction),
            "round": p.round_number, "table": p.table_number, "game": p.game, "loss": p.loss,
            "note": p.note if staff else "", "given_by": p.given_by if staff else "", "at": p.at,
            "withdrawn_at": p.withdrawn_at, "withdrawn_by": p.withdrawn_by if staff else None,
            "withdraw_reason": p.withdraw_reason if staff else None}


def listed(event: Event, staff: bool = True) -> list[dict]:
    names = {r.id: r.name for r in event.registrations}
    return [penalty_json(p, names, staff) for p in queries.given(event.id)]


def exported(event: Event, staff: bool) -> list[dict]:
    """The event's penalties as its data export lists them (tournament.penalties.schemas.ExportPenalty)."""
    return [{"player_id": p.registration_id, "round": p.round_number, "table": p.table_number, "game": p.game,
             "penalty": p.kind, "infraction": p.infraction, "loss": p.loss, "at": p.at,
             "withdrawn": p.withdrawn_at is not None, "note": p.note if staff else None,
             "given_by": p.given_by if staff else None} for p in queries.given(event.id)]
