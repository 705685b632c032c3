"""What event URLs load, and who may use them: each loader and policy written once, for every page and the API.

Loaders take the request handler (tournament.web.handler.RH), read the URL's
values and set what they load on it; an unknown id is a 404. Policies answer
True or refuse with a message that says who may (401 / 403).
"""
from __future__ import annotations

from flask_babel import gettext as _

from ..errors import NotFound
from . import operations as ops


def event(rh) -> None:
    """/events/<event_id>/...: rh.event."""
    rh.event = ops.get_event(rh.url["event_id"])


def registration(rh) -> None:
    """.../registrations/<registration_id>: rh.reg, a player of rh.event."""
    rh.reg = ops.get_registration(rh.event, rh.url["registration_id"])


def player(rh) -> None:
    """/p/<code>/...: the registration the access code opens (rh.reg) and its event; wrong codes are counted."""
    rh.reg = ops.registration_by_code(rh.url["code"])
    rh.event = rh.reg.event


def staff(rh) -> bool:
    """The event's staff: its owner, co-organizers and judges."""
    ops.require_staff(rh.user, rh.event)
    return True


def organizers(rh) -> bool:
    """The event's owner and co-organizers (settings, staff, the event's end)."""
    ops.require_staff(rh.user, rh.event, organizer_only=True)
    return True


def anyone(rh) -> bool:
    return True


def organizer_account(rh) -> bool:
    """An organizer's account, for what belongs to no event yet (a new event, an imported one): not a judge."""
    ops.require_staff(rh.user, organizer_only=True)
    return True


def decklist_readers(rh) -> bool:
    """The event's decklists: its staff always; everyone once it has finished, when it publishes them."""
    if ops.staff_for(rh.user, rh.event) is None and not ops.decklists_public(rh.event):
        raise NotFound(_("The decklists of this event are not public."))
    return True
