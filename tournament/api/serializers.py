"""Models -> plain JSON values for the API. The shapes are documented in openapi.py (tested)."""
from __future__ import annotations

from datetime import date, datetime, timezone

from flask import current_app

from ..events.models import Decklist, Event, Registration
from ..events.operations import deadline_passed, public_base, structure_suggestion, waitlist_place
from ..web import links

# The web page a player's link opens (their receipt's QR code); "page" is null
# if the web layer does not define it.
PLAYER_PAGE_ENDPOINT = "events.player_page"


def iso_datetime(value: datetime | None) -> str | None:
    """UTC, ISO 8601 with offset; SQLite hands back naive datetimes that were stored as UTC."""
    if value is None:
        return None
    if value.tzinfo is None:
        value = value.replace(tzinfo=timezone.utc)
    return value.astimezone(timezone.utc).isoformat()


def iso_date(value: date | None) -> str | None:
    return value.isoformat() if value else None


def event_json(event: Event, counters: dict | None = None) -> dict:
    out = {
        "id": event.id,
        "name": event.name,
        "date": iso_date(event.date),
        "venue": event.venue or "",
        "ruleset": event.ruleset,
        "banlist_add": list(event.banlist_add or []),
        "banlist_remove": list(event.banlist_remove or []),
        "mode": event.mode,
        "pod_size": event.pod_size,
        "sideboard_enabled": bool(event.sideboard_enabled),
        "swap_seconds": event.swap_seconds,
        "sideboard_minutes": event.sideboard_minutes,
        "scoring_profile": event.scoring_profile,
        "round_minutes": event.round_minutes,
        "decklist_deadline": iso_datetime(event.decklist_deadline),
        "decklists_locked": deadline_passed(event),
        "paper_size": event.paper_size,
        "status": event.status,
        "leftover_policy": event.leftover_policy,
        "top_cut": event.top_cut,
        "bye_points": None if event.bye_points is None else int(event.bye_points),
        "prize_conditions": [dict(c) for c in event.prize_conditions or []],
        "hide_votes": bool(event.hide_votes),
        "variant": event.variant or "none",
        "archenemy_win_points": 3 if event.archenemy_win_points is None else event.archenemy_win_points,
        "team_win_points": 1 if event.team_win_points is None else event.team_win_points,
        "publish_decklists": bool(event.publish_decklists),
        "timezone": event.timezone,
        "language": event.language,
        "planned_rounds": event.planned_rounds,
        "max_bracket": event.max_bracket,
        "bracket_pods": bool(event.bracket_pods),
        "cut_seating": event.cut_seating or "seed",
        "cut_draw": event.cut_draw or "table",
        "cut_deal": event.cut_deal or "snake",
        "cut_top40": event.cut_top40 or "ten_pods",
        "odd_pods": event.odd_pods or "low",
        "end_of_round": event.end_of_round or "finish_turn",
        "end_of_round_turns": event.end_of_round_turns,
        "intentional_draws": event.intentional_draws is not False,
        "player_cap": event.player_cap,
        "entry_fee": event.entry_fee or None,
        "suggested_structure": structure_suggestion(event),
        "created_at": iso_datetime(event.created_at),
    }
    if counters is not None:
        out["counters"] = dict(counters)
    return out


def event_brief(event: Event) -> dict:
    """What a player's page needs to know about the event."""
    return {
        "id": event.id,
        "name": event.name,
        "date": iso_date(event.date),
        "venue": event.venue or "",
        "ruleset": event.ruleset,
        "mode": event.mode,
        "status": event.status,
        "decklist_deadline": iso_datetime(event.decklist_deadline),
        "decklists_locked": deadline_passed(event),
    }


def deck_check_json(deck: Decklist | None) -> dict | None:
    """The stored deck check (DeckCheck.to_json()) with when and by whom it was submitted."""
    if deck is None:
        return None
    result = dict(deck.result or {})
    return {
        "legal": bool(result.get("legal", deck.legal)),
        "ruleset": result.get("ruleset", deck.ruleset),
        "commanders": list(result.get("commanders", [])),
        "color_identity": list(result.get("color_identity", [])),
        "main_count": result.get("main_count", 0),
        "sideboard_count": result.get("sideboard_count", 0),
        "findings": list(result.get("findings", [])),
        "summary": result.get("summary", {}),
        **({"bracket": result["bracket"]} if "bracket" in result else {}),
        "submitted_at": iso_datetime(deck.submitted_at),
        "submitted_by": deck.submitted_by,
    }


def player_links(code: str, event: Event | None = None) -> dict:
    """From the event's address (tournament.web.links), never the request's Host; the path alone when none is
    known."""
    start = public_base(event) if event is not None else links.base()
    page = None
    if PLAYER_PAGE_ENDPOINT in current_app.view_functions:
        page = links.external(start, PLAYER_PAGE_ENDPOINT, code=code)
    return {"page": page, "api": links.external(start, "api.player_get", code=code)}


def registration_summary(reg: Registration) -> dict:
    """One row of the check-in desk."""
    return {
        "id": reg.id,
        "event_id": reg.event_id,
        "name": reg.name,
        "contact": reg.contact or "",
        "player_id": reg.player_id,
        "declared_bracket": reg.declared_bracket,
        "access_code": reg.access_code,
        "late": bool(reg.late),
        "checked_in": reg.checked_in_at is not None,
        "checked_in_at": iso_datetime(reg.checked_in_at),
        "dropped": reg.dropped_at is not None,
        "dropped_at": iso_datetime(reg.dropped_at),
        "notes": reg.notes or "",
        "deck_status": reg.deck_status,
        "waitlisted": bool(reg.waitlisted),
        "waitlist_place": waitlist_place(reg),
        "promoted_at": iso_datetime(reg.promoted_at),
        "paid": reg.paid_at is not None,
        "paid_at": iso_datetime(reg.paid_at),
        "created_at": iso_datetime(reg.created_at),
    }


def registration_json(reg: Registration) -> dict:
    """Everything staff see about one registration, with the latest deck check."""
    out = registration_summary(reg)
    out["links"] = player_links(reg.access_code, reg.event)
    out["decklist"] = reg.deck.text if reg.deck is not None else None
    out["deck"] = deck_check_json(reg.deck)
    return out


def player_json(reg: Registration) -> dict:
    """A player's own registration: no staff notes."""
    out = registration_json(reg)
    del out["notes"]
    out["event"] = event_brief(reg.event)
    return out
