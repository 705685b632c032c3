"""Events, registrations, decklists and check-in: every change goes through here."""
from __future__ import annotations

import re
import secrets
import unicodedata
from dataclasses import dataclass
from datetime import datetime, timezone

import sqlalchemy as sa
from flask import current_app
from flask_babel import gettext as _

from ..auth.models import User
from ..timezones import as_utc, machine_zone
from ..cards.models import utcnow
from ..cards.names import name_key
from ..cards.repository import DbCardPool
from ..decks.checks import check_deck
from ..decks.operations import app_bracket_rules
from ..decks.domain import DeckInputError
from ..decks.parser import parse_upload, read_decklist_text
from ..decks.storage import stored_text
from .. import signals
from ..web import links, throttle
from ..errors import Forbidden, NotFound, Refused
from ..extensions import db
from ..web.lifecycle import changed, state_version
from ..rounds.pairing.cut import POD_CUTS
from ..scoring import default_prize_conditions
from .schemas import (DUEL_CUTS, EVENT_SETTINGS, TOP_CUTS, EventCreate, EventUpdate, _bool, _int,  # noqa: F401
                      clean_text)
from .models import STAFF_ROLES, AuditEntry, Decklist, Event, EventStaff, Registration
from .names import lookalike
from .structure import source, suggest

ACCESS_CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
ACCESS_CODE_LENGTH = 8
EVENT_FIELDS = EVENT_SETTINGS          # every setting, as tournament.events.schemas declares them


def log(event: Event | None, actor: str, action: str, **details) -> None:
    """Keep who did what; the event's pages then show a new state version (open phones refresh)."""
    db.session.add(AuditEntry(event_id=event.id if event else None, actor=actor, action=action, details=details))
    if event is not None:
        changed(event.id)


def actor_name(user: User | None) -> str:
    return f"{user.role}:{user.name}" if user else "player"


# ----------------------------------------------------------------- input

def clean_event_fields(data: dict, partial: bool = False) -> dict:
    """Event settings from a form or JSON, validated with their one declaration (EventCreate, or EventUpdate for
    `partial`): each refused with its sentence and field; unknown keys are refused."""
    if not isinstance(data, dict):
        raise Refused(_("Event settings must be an object of fields."))
    return (EventUpdate if partial else EventCreate).model_validate(data).fields()


# ----------------------------------------------------------------- events

MAX_ID = 2**31 - 1


def valid_id(value) -> bool:
    """An id a database integer column can hold: larger ones are simply not found."""
    return isinstance(value, int) and not isinstance(value, bool) and 0 < value <= MAX_ID


def get_event(event_id) -> Event:
    event = db.session.get(Event, event_id) if valid_id(event_id) else None
    if event is None:
        raise NotFound(_("No such event."))
    return event


def event_role(user: User | None, event: Event) -> str | None:
    """'owner', 'organizer' (co-organizer), 'judge', or None: what this user is at this event."""
    if user is None or not user.active:
        return None
    if event.organizer_id == user.id:
        return "owner"
    return next((s.role for s in event.staff if s.user_id == user.id), None)


def require_staff(user: User | None, event: Event | None = None, organizer_only: bool = False) -> User:
    """Staff act only on the events they are staff of: the owner and co-organizers manage the event,
    judges run its desk, rounds and results. Without an event: organizers only, for organizer_only."""
    if user is None or not user.active:
        raise Refused(_("Log in as an organizer or judge first."), status=401)
    if event is None:
        if organizer_only and user.role != "organizer":
            raise Forbidden(_("Only an organizer may do that."))
        return user
    role = event_role(user, event)
    if role is None:
        raise Forbidden(_("This event belongs to another organizer. Ask its organizer to add you on the event's "
                          "staff page.") if user.role == "organizer" else
                        _("You are not on this event's staff. Ask its organizer to add you on the event's staff "
                          "page."))
    if organizer_only and role == "judge":
        raise Forbidden(_("Only the event's organizers may do that; judges run the desk, rounds and results."))
    return user


def may_manage(user: User | None, event: Event) -> bool:
    """The owner and co-organizers edit settings, staff and the event's end."""
    return event_role(user, event) in ("owner", "organizer")


def add_staff(event: Event, user: User, name, role) -> "EventStaff":
    """The owner or a co-organizer adds an account to the event's staff (or changes its role)."""
    require_staff(user, event, organizer_only=True)
    if role not in STAFF_ROLES:
        raise Refused(_("Choose judge or co-organizer."), field="role")
    name = clean_text(name, "name", _("The staff member's name"), 80, required=True)
    member = db.session.execute(sa.select(User).where(User.name == name)).scalar()
    if member is None or not member.active:
        raise Refused(_("There is no active staff account named %(name)s. Create it first: "
                        "flask --app wsgi user create \"%(name)s\" --role judge", name=name), field="name")
    if member.id == event.organizer_id:
        raise Refused(_("%(name)s owns this event already.", name=name), field="name")
    entry = next((s for s in event.staff if s.user_id == member.id), None)
    if entry is None:
        entry = EventStaff(event=event, user=member, role=role, added_by=actor_name(user))
        db.session.add(entry)
    entry.role = role
    db.session.flush()
    log(event, actor_name(user), "event.staff.add", staff=member.name, role=role)
    return entry


def remove_staff(event: Event, user: User, staff_id) -> None:
    require_staff(user, event, organizer_only=True)
    entry = db.session.get(EventStaff, staff_id) if valid_id(staff_id) else None
    if entry is None or entry.event_id != event.id:
        raise NotFound(_("That person is not on this event's staff."))
    name = entry.user.name
    event.staff.remove(entry)
    db.session.flush()
    log(event, actor_name(user), "event.staff.remove", staff=name)


def create_event(organizer: User, data: dict) -> Event:
    require_staff(organizer, organizer_only=True)
    fields = clean_event_fields(data)
    if fields.get("mode") == "duel" and "scoring_profile" not in fields:
        fields["scoring_profile"] = "mtr"
    if "prize_conditions" not in fields:
        fields["prize_conditions"] = [{k: c[k] for k in ("id", "name", "kind")} for c in default_prize_conditions()]
    fields.setdefault("timezone", machine_zone())
    _top_cut_fits(fields.get("mode", "pods"), fields.get("top_cut", 0))
    _profile_fits(fields.get("mode", "pods"), fields.get("scoring_profile", "democratic"))
    event = Event(organizer_id=organizer.id, standings_seed=secrets.randbits(62), **fields)
    db.session.add(event)
    db.session.flush()
    log(event, actor_name(organizer), "event.create", name=event.name)
    return event


def update_event(event: Event, user: User, data: dict) -> Event:
    require_staff(user, event, organizer_only=True)
    fields = clean_event_fields(_known_prize_ids(event, data), partial=True)
    changed_fields = sorted(k for k, v in fields.items() if not _same_setting(getattr(event, k), v))
    if {"mode", "top_cut"} & set(changed_fields):      # an older event's top cut does not block other settings
        _top_cut_fits(fields.get("mode", event.mode), fields.get("top_cut", event.top_cut or 0))
    if {"mode", "scoring_profile"} & set(changed_fields):
        _profile_fits(fields.get("mode", event.mode), fields.get("scoring_profile", event.scoring_profile))
    if "player_cap" in changed_fields:
        _check_new_cap(event, fields["player_cap"])
    for key in changed_fields:
        setattr(event, key, fields[key])
    db.session.flush()
    if changed_fields:
        log(event, actor_name(user), "event.update", fields=changed_fields)
    if "player_cap" in changed_fields:
        fill_places(event, actor_name(user), cap=event.player_cap)      # a higher cap (or none): the next ones in
    if "status" in changed_fields:
        signals.event_status_changed.send(event, actor=actor_name(user))      # a series follows (same transaction)
    return event


def _profile_fits(mode: str, profile: str) -> None:
    """MTR scoring ranks 1v1 matches; pod standings cannot be made from it (found by the API fuzzer: a duel
    event changed to pods kept it, and finishing the event then failed)."""
    if mode == "pods" and profile == "mtr":
        raise Refused(_("MTR scoring is for 1v1 events: choose democratic, survival or cEDH scoring for pods."),
                      field="scoring_profile")


def _top_cut_fits(mode: str, top_cut: int) -> None:
    """1v1 cuts are single elimination (4 or 8); pod cuts are 4, 7, 10, 13, 16 or 40 (top seeds wait)."""
    allowed = DUEL_CUTS if mode == "duel" else POD_CUTS
    if top_cut and top_cut not in allowed:
        sizes, last = ", ".join(map(str, allowed[:-1])), allowed[-1]
        raise Refused(_("A 1v1 top cut is of %(sizes)s or %(last)s players, not %(number)s.", sizes=sizes,
                        last=last, number=top_cut) if mode == "duel" else
                      _("A pod top cut is of %(sizes)s or %(last)s players, not %(number)s.", sizes=sizes,
                        last=last, number=top_cut), field="top_cut")


def _same_setting(stored, new) -> bool:
    """A setting sent again unchanged (the whole form is sent): the log names only what changed."""
    if isinstance(stored, datetime) and isinstance(new, datetime):
        return as_utc(stored) == as_utc(new)
    if isinstance(stored, float) or isinstance(new, float):
        return stored is not None and new is not None and float(stored) == float(new)
    return stored == new


def _known_prize_ids(event: Event, data):
    """A prize condition sent again by name (the settings form has no ids) keeps its id, so the claims
    already made under it still count."""
    sent = data.get("prize_conditions") if isinstance(data, dict) else None
    if not isinstance(sent, list):
        return data
    known = {c["name"]: c["id"] for c in event.prize_conditions or []}
    return {**data, "prize_conditions": [
        {**c, "id": known[c["name"]]} if isinstance(c, dict) and not c.get("id") and isinstance(c.get("name"), str)
        and c["name"] in known else c
        for c in sent]}


def copy_event(event: Event, user: User, name: str | None = None) -> Event:
    """A new event with the same settings, no players, open for registration."""
    require_staff(user, event, organizer_only=True)
    settings = {k: getattr(event, k) for k in EVENT_FIELDS if k not in ("status", "date", "decklist_deadline")}
    name = clean_text(name, "name", _("The new event's name"), 200)
    settings["name"] = name or _("%(name)s (copy)", name=event.name)[:200]
    copy = create_event(user, settings)
    log(copy, actor_name(user), "event.copy", source_event=event.id)
    return copy


def decklists_public(event: Event) -> bool:
    return event.status == "finished" and bool(event.publish_decklists)


def events_for(user: User) -> list[Event]:
    """The events this user owns or is staff of."""
    staff_of = sa.select(EventStaff.event_id).where(EventStaff.user_id == user.id)
    stmt = (sa.select(Event).where(sa.or_(Event.organizer_id == user.id, Event.id.in_(staff_of)))
            .order_by(Event.date.desc().nulls_last(), Event.id.desc()))
    return list(db.session.execute(stmt).scalars())


# ----------------------------------------------------------------- registrations

def new_access_code() -> str:
    return "".join(secrets.choice(ACCESS_CODE_ALPHABET) for _i in range(ACCESS_CODE_LENGTH))


def normalise_code(code) -> str:
    return "".join(ch for ch in str(code or "").upper() if ch.isalnum())[:32]


def registration_by_code(code) -> Registration:
    """The registration holding this code. Wrong codes are counted per client address and refused (429)
    past the limit, except in a browser that has opened this code's page before (see tournament.web.throttle)."""
    code = normalise_code(code)
    known = throttle.knows_code(code)
    if not known:
        throttle.check("wrong_code", throttle.client_address())
    reg = db.session.execute(sa.select(Registration).where(Registration.access_code == code)       # with its event:
                             .options(sa.orm.joinedload(Registration.event))).scalar() if code else None  # one query
    if reg is None:
        throttle.count("wrong_code", throttle.client_address())
        raise NotFound(_("No registration has this access code. Check the code on your receipt."))
    if not known:
        throttle.remember_code(code)
    return reg


def _unused_access_code() -> str:
    code = new_access_code()
    while db.session.execute(sa.select(Registration.id).where(Registration.access_code == code)).first():
        code = new_access_code()
    return code


def _new_registration_waits(event: Event, user: User | None) -> bool:
    """Whether a new registration joins the waitlist; a player (not staff) is refused once it is full."""
    waits = joins_waitlist(event)
    if waits and user is None:
        _refuse_full_waitlist(event)
    return waits


def get_registration(event: Event, registration_id) -> Registration:
    reg = db.session.get(Registration, registration_id) if valid_id(registration_id) else None
    if reg is None or reg.event_id != event.id:
        raise NotFound(_("No such player in this event."))
    return reg


def register_player(event: Event, data: dict, user: User | None = None, check_same_name: bool = False,
                    with_file: bool = False, same_name_message: str | None = None) -> Registration:
    """Players register themselves before the event starts; staff also add late entries. `check_same_name`
    (the web forms, the API): a name already registered is refused until the form says it is another person
    (`same_name_ok`), so a double registration is caught while two real Jan Nováks can both play;
    `same_name_message` (with %(name)s) says how to say so where the form's words do not fit (the API).
    `with_file`: a decklist file comes with it (register_player_with_file)."""
    if not isinstance(data, dict):
        raise Refused(_("Registration must be an object of fields."))
    data = dict(data)
    same_name_ok = bool(data.pop("same_name_ok", False))
    unknown = set(data) - {"name", "contact", "player_id", "decklist", "declared_bracket"}
    if unknown:
        raise Refused(_("Unknown registration field(s): %(fields)s.", fields=", ".join(sorted(map(str, unknown)))))
    user = staff_for(user, event)
    if event.status == "finished":
        raise Refused(_("This event has finished; registration is closed."), status=409)
    late = event.status == "running"
    if late and user is None:
        raise Refused(_("The event has started. Ask at the desk for a late registration."), status=409)
    name = clean_text(data.get("name"), "name", _("Your name"), 100, required=True)
    contact = clean_text(data.get("contact"), "contact", _("The contact"), 200)
    player_id = clean_text(data.get("player_id"), "player_id", _("The player ID"), 40) or None
    bracket = data.get("declared_bracket")
    bracket = None if bracket is None else _int(bracket, "declared_bracket", _("The bracket"), 1, 5)
    if user is None and (with_file or data.get("decklist") not in (None, "")) and deadline_passed(event):
        # a new player's list after the deadline: registering is still fine, the list goes through a judge
        raise Refused(_("The decklist deadline has passed: register without a list and show your deck to a judge "
                        "at the desk."), status=409, field="decklist")
    if check_same_name and not same_name_ok:
        _lock_name(event, name)
        refuse_lookalike(event, name, api=bool(same_name_message))      # Оlga (Cyrillic О) beside Olga
    if check_same_name and not same_name_ok and db.session.execute(sa.select(Registration.id).where(
            Registration.event_id == event.id, Registration.search_key == name_key(name))).first():
        message = (same_name_message % {"name": name[:100]} if same_name_message else
                   _("%(name)s is already registered for this event. If this is a different person with the same "
                     "name, tick the box below and register again; if it is you, use the access code you got "
                     "then (the desk can look it up).", name=name))
        raise Refused(message, status=409, field="same_name_ok")
    if player_id and db.session.execute(sa.select(Registration.id).where(
            Registration.event_id == event.id, Registration.player_id == player_id)).first():
        raise Refused(_("Player ID %(player_id)s is already registered for this event.", player_id=player_id),
                      status=409, field="player_id")
    if user is None:
        throttle.spend("registration_address", throttle.client_address())
    waitlisted = _new_registration_waits(event, user)
    reg = Registration(event_id=event.id, name=name, search_key=name_key(name), contact=contact,
                       player_id=player_id, access_code=_unused_access_code(), late=late, declared_bracket=bracket,
                       waitlisted=waitlisted)
    db.session.add(reg)
    db.session.flush()
    log(event, actor_name(user), "registration.create", registration=reg.id, name=name, late=late)
    if waitlisted:
        log(event, actor_name(user), "waitlist.join", registration=reg.id, place=waitlist_place(reg))
    decklist = data.get("decklist")
    if decklist not in (None, ""):
        if not isinstance(decklist, str):
            raise Refused(_("The decklist must be text."), field="decklist")
        submit_decklist(reg, decklist.encode("utf-8"), user=user)
    return reg


@dataclass(frozen=True)
class DeckSubmission:
    decklist: Decklist
    result: dict


def deadline_passed(event: Event, now: datetime | None = None) -> bool:
    if event.decklist_deadline is None:
        return event.status != "registration"
    deadline = event.decklist_deadline
    if deadline.tzinfo is None:
        deadline = deadline.replace(tzinfo=timezone.utc)
    return (now or utcnow()) > deadline


def submit_decklist(reg: Registration, data: bytes, user: User | None = None,
                    filename: str | None = None) -> DeckSubmission:
    """Check and store a decklist. After the deadline only a judge or organizer may (logged)."""
    event = reg.event
    user = staff_for(user, event)
    if user is None and deadline_passed(event):
        raise Refused(_("The decklist deadline has passed, so your list is locked. A judge can still correct it."),
                      status=409)
    if user is None and reg.dropped_at is not None:
        raise Refused(_("You have dropped from this event."), status=409)
    if isinstance(data, str):
        data = data.encode("utf-8")
    try:
        parsed = parse_upload(data, filename)
        text = stored_text(read_decklist_text(data).removeprefix("\ufeff"), parsed)
    except DeckInputError as e:
        raise Refused(str(e), field="decklist") from None
    if user is None:
        throttle.spend("decklist", reg.id)
    result = check_deck(parsed, DbCardPool(), event.ruleset, event.banlist_add or (), event.banlist_remove or (),
                        max_bracket=event.max_bracket, declared_bracket=reg.declared_bracket,
                        brackets=app_bracket_rules())
    checked = result.to_json()
    current = reg.deck
    if current is not None and current.text == text and current.ruleset == event.ruleset and current.result == checked:
        log(event, actor_name(user), "decklist.submit", registration=reg.id, legal=result.legal, unchanged=True,
            after_deadline=deadline_passed(event))
        return DeckSubmission(current, checked)       # the same list again: nothing new to store
    if user is None:
        refuse_over_decklist_cap(event)
    deck = Decklist(registration_id=reg.id, text=text, ruleset=event.ruleset, legal=result.legal,
                    result=checked, submitted_by=actor_name(user), bracket_floor=result.bracket.get("floor"))
    db.session.add(deck)
    db.session.flush()
    reg.deck_id = deck.id
    reg.deck = deck
    log(event, actor_name(user), "decklist.submit", registration=reg.id, legal=result.legal,
        after_deadline=deadline_passed(event))
    return DeckSubmission(deck, checked)


def refuse_over_decklist_cap(event: Event) -> None:
    """Every submission is kept (the judges' history), so an event keeps at most DECKLIST_CAP_PER_EVENT of
    them from players; staff can still correct a list beyond it."""
    cap = current_app.config.get("DECKLIST_CAP_PER_EVENT", 5000)
    stored = db.session.execute(sa.select(sa.func.count()).select_from(Decklist)
                                .join(Registration, Decklist.registration_id == Registration.id)
                                .where(Registration.event_id == event.id)).scalar()
    if stored >= cap:
        raise Refused(_("This event has stored %(count)s decklist submissions, its limit. Ask a judge at the desk "
                        "to enter your list.", count=format(stored, ",")), status=409, field="decklist")


def _locked(reg: Registration) -> Registration:
    """The registration as stored now, locked until the commit: two desks tapping at once see each other.
    (The row must be fetched for populate_existing to refresh the object the request already holds.)"""
    return db.session.execute(sa.select(Registration).where(Registration.id == reg.id).with_for_update()
                              .execution_options(populate_existing=True)).scalar_one()


def check_in(reg: Registration, user: User, undo: bool = False) -> Registration:
    """Check a player in (or undo it). A second tap changes nothing and logs nothing. A player on the waitlist
    has no place yet, so cannot check in (nor be paired)."""
    require_staff(user, reg.event)
    _locked(reg)
    if reg.dropped_at is not None and not undo:
        raise Refused(_("%(name)s has dropped; undrop them first.", name=reg.name), status=409)
    if reg.waitlisted and not undo:
        raise Refused(_("%(name)s is number %(place)s on the waitlist and has no place yet: they check in once a "
                        "place frees up (a drop before round 1) or the organizer raises the player cap.",
                        name=reg.name, place=waitlist_place(reg)), status=409)
    if (reg.checked_in_at is None) == undo:
        return reg
    reg.checked_in_at = None if undo else utcnow()
    log(reg.event, actor_name(user), "checkin.undo" if undo else "checkin", registration=reg.id)
    return reg


def drop(reg: Registration, user: User, undo: bool = False) -> Registration:
    """Drop a player (or undo it). A second tap changes nothing and logs nothing."""
    require_staff(user, reg.event)
    _locked(reg)
    if (reg.dropped_at is None) == undo:
        return reg
    if undo and not reg.waitlisted:
        _refuse_undrop_over_cap(reg)
    reg.dropped_at = None if undo else utcnow()
    log(reg.event, actor_name(user), "drop.undo" if undo else "drop", registration=reg.id)
    if not undo:
        _place_freed(reg, actor_name(user))
    return reg


def drop_self(reg: Registration, confirmed: bool) -> Registration:
    """A player leaves the event from their own page; only staff can bring them back."""
    if not confirmed:
        raise Refused(_("Tick “Yes, drop me” to leave the event."), field="confirm")
    if reg.event.status == "finished":
        raise Refused(_("The event has finished."), status=409)
    if reg.dropped_at is not None:
        raise Refused(_("You have already dropped from this event."), status=409)
    reg.dropped_at = utcnow()
    log(reg.event, f"player:{reg.id}", "drop", registration=reg.id, by="the player")
    _place_freed(reg, f"player:{reg.id}")
    return reg


def rename(reg: Registration, user: User, name, same_name_ok: bool = False,
           same_name_message: str | None = None) -> Registration:
    """Correct a player's name (the desk's most common fix): every page and printout shows the new one at once,
    the log keeps the old and the new. A name another player of the event has is refused until the desk says it
    is a different person (`same_name_ok`), as at registration. The same name again changes and logs nothing."""
    require_staff(user, reg.event)
    _locked(reg)
    name = clean_text(name, "name", _("The name"), 100, required=True)
    if name == reg.name:
        return reg
    if not same_name_ok:
        _lock_name(reg.event, name)
        if db.session.execute(sa.select(Registration.id).where(
                Registration.event_id == reg.event_id, Registration.id != reg.id,
                Registration.search_key == name_key(name))).first():
            raise Refused(same_name_message % {"name": name} if same_name_message else
                          _("Another player of this event is called %(name)s. If this is a different person with "
                            "the same name, tick the box and save again.", name=name), status=409,
                          field="same_name_ok")
    old = reg.name
    reg.name = name
    reg.search_key = name_key(name)
    log(reg.event, actor_name(user), "registration.rename", registration=reg.id, old_name=old, new_name=name)
    return reg


def replace_access_code(reg: Registration, user: User) -> Registration:
    """A new access code for a player whose receipt was seen or lost: the old code opens nothing from this
    moment (no page, no result, no decklist change); the log says who replaced it and when, never a code."""
    require_staff(user, reg.event)
    _locked(reg)
    code = new_access_code()
    while code == reg.access_code or db.session.execute(
            sa.select(Registration.id).where(Registration.access_code == code)).first():
        code = new_access_code()
    reg.access_code = code
    db.session.flush()
    log(reg.event, actor_name(user), "registration.new_code", registration=reg.id)
    return reg


def public_base(event: Event) -> str | None:
    """The address the event's links and QR codes start with (tournament.web.links.base)."""
    return links.base(event.public_url)


def set_public_address(event: Event, user: User, value) -> str | None:
    """Staff set the address phones open, for this event's links and QR codes; empty: back to the address found
    at start. Refused while the server's PUBLIC_URL decides it."""
    require_staff(user, event)
    if links.configured():
        raise Refused(_("This server's configuration (PUBLIC_URL) sets the address: %(url)s. Change it there.",
                        url=links.configured()), status=409, field="public_url")
    address = links.clean_address(value)
    if address != event.public_url:
        event.public_url = address
        log(event, actor_name(user), "event.public_url", address=address or "")
    return address


def set_notes(reg: Registration, user: User, notes) -> Registration:
    require_staff(user, reg.event)
    if not isinstance(notes, str):
        raise Refused(_("Notes must be text."), field="notes")
    if len(notes) > 5000:
        raise Refused(_("The notes are %(length)s characters; the limit is 5000.", length=format(len(notes), ",")),
                      field="notes")
    if any(unicodedata.category(ch) in ("Cc", "Cs") and ch not in "\n\r\t" for ch in notes):
        raise Refused(_("The notes contain control characters; type them again as plain text."), field="notes")
    reg.notes = notes
    log(reg.event, actor_name(user), "notes", registration=reg.id)
    return reg


def event_counters(event: Event) -> dict:
    """The desk's numbers. Players on the waitlist (without a place) count only as `waitlisted`."""
    R = Registration
    placed = R.waitlisted.is_(False)
    row = db.session.execute(
        sa.select(
            sa.func.count(R.id).filter(placed),
            sa.func.count(R.checked_in_at).filter(placed),
            sa.func.count(R.dropped_at).filter(placed),
            sa.func.count(R.deck_id).filter(placed),
            sa.func.count(Decklist.id).filter(placed, Decklist.legal.is_(True)),
            sa.func.count(R.id).filter(R.waitlisted.is_(True), R.dropped_at.is_(None)),
            sa.func.count(R.paid_at).filter(placed),
        ).select_from(R).outerjoin(Decklist, Decklist.id == R.deck_id).where(R.event_id == event.id)
    ).one()
    total, checked_in, dropped, with_deck, legal, waitlisted, paid = row
    return {"registered": total, "checked_in": checked_in, "dropped": dropped,
            "legal_decks": legal, "illegal_decks": with_deck - legal, "missing_decks": total - with_deck,
            "waitlisted": waitlisted, "paid": paid}


def mark_paid(reg: Registration, user: User, undo: bool = False) -> Registration:
    """The desk marks the entry fee paid (or not). A second tap changes nothing and logs nothing."""
    require_staff(user, reg.event)
    _locked(reg)
    if (reg.paid_at is None) == undo:
        return reg
    reg.paid_at = None if undo else utcnow()
    log(reg.event, actor_name(user), "paid.undo" if undo else "paid", registration=reg.id)
    return reg


# ----------------------------------------------------------------- places: the player cap and its waitlist

def _lock_places(event: Event) -> None:
    """Who gets a place is decided one change at a time per event, until the commit, and the cap is read again
    under the lock. PostgreSQL: the event's row, FOR NO KEY UPDATE (inserts that refer to the event are not held
    up, and the commit's state version bump writes that row anyway); SQLite: the write request's lock does it."""
    db.session.execute(sa.select(Event).where(Event.id == event.id).with_for_update(key_share=True)
                       .execution_options(populate_existing=True)).scalar_one()


def places_taken(event: Event) -> int:
    """Players holding a place: registered, not on the waitlist, not dropped."""
    R = Registration
    return db.session.execute(sa.select(sa.func.count(R.id)).where(
        R.event_id == event.id, R.waitlisted.is_(False), R.dropped_at.is_(None))).scalar()


def places_left(event: Event) -> int | None:
    """Places a new player could still take (0 also while others wait); None without a cap."""
    if event.player_cap is None:
        return None
    if db.session.execute(_waiting(event).with_only_columns(Registration.id).limit(1)).first() is not None:
        return 0
    return max(0, event.player_cap - places_taken(event))


def _waiting(event: Event):
    R = Registration
    return sa.select(R).where(R.event_id == event.id, R.waitlisted.is_(True), R.dropped_at.is_(None)).order_by(R.id)


def free_places(event: Event) -> int | None:
    """Places new registrations may take now (None: no cap), under the event's places lock until the commit:
    none while others wait (first come, first served)."""
    if event.player_cap is None:
        return None
    _lock_places(event)
    if event.player_cap is None:
        return None
    return places_left(event)


def joins_waitlist(event: Event) -> bool:
    """A new registration waits when every place is taken, or when others already wait."""
    return free_places(event) == 0


def _refuse_full_waitlist(event: Event) -> None:
    """Players put themselves on the waitlist up to as many as the cap (a cap of 64: 64 may wait); past that
    only the desk adds players, so a flood of registrations cannot grow the list without end."""
    waiting = db.session.execute(sa.select(sa.func.count()).select_from(_waiting(event).subquery())).scalar()
    if waiting >= event.player_cap:
        raise Refused(_("This event is full and %(count)s players are already on its waitlist. Ask at the desk.",
                        count=waiting), status=409)


def waitlist_place(reg: Registration) -> int | None:
    """1 for the first player waiting; None without a place on the waitlist (holding a place, or dropped)."""
    if not reg.waitlisted or reg.dropped_at is not None:
        return None
    R = Registration
    return db.session.execute(sa.select(sa.func.count(R.id)).where(
        R.event_id == reg.event_id, R.waitlisted.is_(True), R.dropped_at.is_(None), R.id <= reg.id)).scalar()


def fill_places(event: Event, actor: str, **why) -> list[Registration]:
    """Give the free places to the first players waiting, in order; each promotion is logged (the player's
    page shows it at its next poll)."""
    _lock_places(event)
    if event.status == "finished":
        return []
    stmt = _waiting(event)
    if event.player_cap is not None:
        free = event.player_cap - places_taken(event)
        if free <= 0:
            return []
        stmt = stmt.limit(free)
    promoted = list(db.session.execute(stmt).scalars())
    for reg in promoted:
        reg.waitlisted = False
        reg.promoted_at = utcnow()
        log(event, actor, "waitlist.promote", registration=reg.id, **why)
    return promoted


def _place_freed(reg: Registration, actor: str) -> None:
    """A player holding a place dropped: before round 1 the first player waiting takes it."""
    if not reg.waitlisted and reg.event.status == "registration":
        fill_places(reg.event, actor, after_drop=reg.id)


def _refuse_undrop_over_cap(reg: Registration) -> None:
    event = reg.event
    if event.player_cap is None:
        return
    _lock_places(event)
    if event.player_cap is not None and places_taken(event) >= event.player_cap:
        raise Refused(_("Every place is taken (the player cap is %(cap)s), so %(name)s cannot come back: raise "
                        "the player cap in the event's settings first.", cap=event.player_cap, name=reg.name),
                      status=409)


def _check_new_cap(event: Event, cap: int | None) -> None:
    """A cap lower than the players holding a place now is refused: nobody loses a place they were given."""
    _lock_places(event)
    taken = places_taken(event)
    if cap is not None and cap < taken:
        raise Refused(_("%(count)s players hold a place already, so the player cap cannot be %(cap)s: set it to "
                        "%(count)s or more, or drop players first.", count=taken, cap=cap),
                      status=409, field="player_cap")


def structure_suggestion(event: Event) -> dict | None:
    """The rounds and top cut the table in tournament/data/rounds_by_attendance.json suggests for the players
    checked in (before anyone is: for those holding a place). None before anyone registered."""
    R = Registration
    checked_in = db.session.execute(sa.select(sa.func.count(R.id)).where(
        R.event_id == event.id, R.waitlisted.is_(False), R.dropped_at.is_(None),
        R.checked_in_at.is_not(None))).scalar()
    basis, players = ("checked_in", checked_in) if checked_in else ("registered", places_taken(event))
    found = suggest(event.mode, players)
    if found is None:
        return None
    return {"basis": basis, "players": players, "rounds": found.rounds, "top_cut": found.top_cut,
            "table_row": [found.low, found.high], "source": source()}


# ----------------------------------------------------------------- web helpers (events web pages)

def version_for_code(code) -> int | None:
    """The state version of the event a player's access code belongs to (None: no such code)."""
    code = normalise_code(code)
    if not code:
        return None
    events = current_app.extensions.setdefault("event_of_code", {})    # a code never moves to another event
    event_id = events.get(code)
    if event_id is None:
        event_id = db.session.execute(sa.select(Registration.event_id).where(Registration.access_code == code)).scalar()
        if event_id is None:
            return None
        if len(events) > 100_000:
            events.clear()
        events[code] = event_id
    return state_version(event_id)


def staff_for(user: User | None, event: Event) -> User | None:
    """The user if they may act as staff on this event (its organizer, or any judge), else None."""
    if user is None:
        return None
    try:
        return require_staff(user, event)
    except Refused:
        return None


def refuse_lookalike(event: Event, name: str, api: bool = False, exclude: int | None = None) -> None:
    """A name that looks like one already registered in the event but is written with other characters (a
    Cyrillic "О" for a Latin "O", "rn" for "m": UTS #39 skeletons, see events.names): the desk is asked to
    check it, and confirms a different person as it does for the same name."""
    stmt = sa.select(Registration.name).where(Registration.event_id == event.id)
    if exclude is not None:
        stmt = stmt.where(Registration.id != exclude)
    other = lookalike(name, db.session.execute(stmt).scalars(), key=name_key)
    if other is None:
        return
    message = _("“%(name)s” looks like “%(other)s”, who is already registered, but is written with different "
                "characters (for example a Cyrillic “О” for a Latin “O”). Check the spelling; if this is a "
                "different person, confirm it and register again.", name=name, other=other)
    if api:
        message += " " + _('(To confirm, send "same_name_ok": true.)')
    raise Refused(message, status=409, field="same_name_ok")


def _lock_name(event: Event, name: str) -> None:
    """One registration of this name in this event at a time until the commit, so fifteen taps or retries at
    once cannot all find the name free. PostgreSQL: a transaction advisory lock on (event, name), which holds
    up nobody else (a row lock on the event would also hold up every insert that refers to it); SQLite: the
    request's write lock does it already."""
    if db.session.get_bind().dialect.name == "postgresql":
        db.session.execute(sa.text("SELECT pg_advisory_xact_lock(:event, hashtext(:key))"),
                           {"event": event.id, "key": name_key(name)})


def decode_decklist(data: bytes) -> str:
    """An uploaded or sent list as text (UTF-8/16/32, with or without BOM), or refused with what to send."""
    try:
        return read_decklist_text(data)
    except DeckInputError as e:
        raise Refused(str(e), field="decklist") from None


def register_player_with_file(event: Event, data: dict, upload: bytes | None = None, filename: str | None = None,
                              user: User | None = None, check_same_name: bool = False) -> Registration:
    """register_player, plus a decklist given as an uploaded file instead of pasted text."""
    if upload is not None and isinstance(data, dict) and data.get("decklist") not in (None, ""):
        raise Refused(_("Paste a decklist or upload a file, not both."), field="decklist")
    reg = register_player(event, data, user=user, check_same_name=check_same_name, with_file=upload is not None)
    if upload is not None:
        submit_decklist(reg, upload, user=user, filename=filename)
    return reg


def deck_overview(regs: list[Registration]) -> dict[int, dict]:
    """Deck status at a glance for many registrations in one query:
    {registration id: {"status": "legal" | "illegal" | "missing", "errors": number of error findings,
    "bracket": the deck's bracket floor or None}}."""
    deck_ids = [r.deck_id for r in regs if r.deck_id is not None]
    decks: dict[int, tuple[bool, int, int | None]] = {}
    if deck_ids:
        rows = db.session.execute(sa.select(Decklist.id, Decklist.legal, Decklist.bracket_floor)
                                  .where(Decklist.id.in_(deck_ids))).all()
        illegal = [i for i, legal, _floor in rows if not legal]
        decks = {i: (bool(legal), 0, floor) for i, legal, floor in rows}
        if illegal:
            for i, result in db.session.execute(
                    sa.select(Decklist.id, Decklist.result).where(Decklist.id.in_(illegal))).all():
                findings = (result or {}).get("findings") or []
                decks[i] = (False, sum(1 for f in findings if f.get("severity") == "error"), decks[i][2])
    out = {}
    for r in regs:
        if r.deck_id is None or r.deck_id not in decks:
            out[r.id] = {"status": "missing", "errors": 0, "bracket": None}
        else:
            legal, errors, floor = decks[r.deck_id]
            out[r.id] = {"status": "legal" if legal else "illegal", "errors": errors, "bracket": floor}
    return out


# ----------------------------------------------------------------- check-in desk search

def printable(text: str) -> str:
    """Text without control characters (a NUL or an escape is no part of any name, code or player ID)."""
    return "".join(ch for ch in text if ch.isprintable() or ch == " ")


MAX_SEARCH = 300        # a scanned player link with a long host name; names and codes are cut at 100
PLAYER_LINK = re.compile(r"(?:^|/)p/([0-9A-Za-z]{4,32})/?(?:[?#].*)?$")


def code_in_link(text: str) -> str | None:
    """The access code in a player link, as a receipt's QR code holds it (http://any-host:port/p/CODE,
    ?welcome=1 or #round after it, or just /p/CODE); None when the text is no such link."""
    match = PLAYER_LINK.search(text.strip())
    return match.group(1).upper() if match else None


def search_registrations(event: Event, query: str, limit: int = 30, offset: int = 0) -> list[Registration]:
    """The check-in desk's search as you type, over name, access code and player ID.

    Names match anywhere (any script; case, accents and spaces ignored);
    access codes and player IDs match by prefix,
    so the desk narrows down while a code or ID is typed; an exact code or
    player ID comes first. Each result's deck status is loaded in the same
    round trip (no query per row).
    """
    from sqlalchemy.orm import contains_eager

    query = printable(query or "").strip()[:MAX_SEARCH]
    query = code_in_link(query) or query[:100]
    R = Registration
    stmt = (sa.select(R).where(R.event_id == event.id)
            .outerjoin(Decklist, Decklist.id == R.deck_id)
            .options(contains_eager(R.deck).load_only(Decklist.id, Decklist.legal)))
    exact = sa.false()
    if query:
        key = name_key(query)
        code = normalise_code(query)
        conditions = [R.player_id.startswith(query, autoescape=True)]
        exact = R.player_id == query
        if key:
            conditions.append(R.search_key.contains(key, autoescape=True))
        if code:
            conditions.append(R.access_code.startswith(code, autoescape=True))
            exact = sa.or_(exact, R.access_code == code)
        stmt = stmt.where(sa.or_(*conditions))
    stmt = stmt.order_by(sa.case((exact, 0), else_=1), R.name, R.id).limit(limit).offset(offset)
    return list(db.session.execute(stmt).unique().scalars())
