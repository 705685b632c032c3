"""Series: events counted together, players recognised across them, standings over the series.

A series builds on events and rounds and they do not import it: it follows an event's status through
tournament.signals (connected here, so whenever the series' models are loaded, which create_app always does).
"""
from __future__ import annotations

from ..signals import event_status_changed


@event_status_changed.connect
def _follow_event_status(event, *, actor: str) -> None:
    """A finished event is recorded in its series; a reopened one stops counting (same transaction)."""
    from .operations import event_status_changed as follow     # loaded on first use: operations imports rounds
    follow(event, actor)
