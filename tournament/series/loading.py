"""What series URLs load, and who may use them: each loader and policy written once, for every page and the API.

Loaders take the request handler (tournament.web.handler.RH), read the URL's
values and set what they load on it; an unknown id is a 404. Policies answer
True or refuse with a message that says who may (401 / 403).
"""
from __future__ import annotations

from . import operations as ops


def series(rh) -> None:
    """/series/<series_id>/...: rh.series."""
    rh.series = ops.get_series(rh.url["series_id"])


def person(rh) -> None:
    """.../players/<person_id>: rh.person, a player of rh.series."""
    rh.person = ops.person_of(rh.series, rh.url["person_id"])


def owner(rh) -> bool:
    """The series' organizer: only they change its settings, add and remove events, decide who is who, export it."""
    ops.require_series_owner(rh.user, rh.series)
    return True
