"""The event's log in words ("Olga checked in Šárka Dvořáková"), with filters: who, what, table, player."""
from __future__ import annotations

import sqlalchemy as sa

from ..extensions import db
from ..rounds.presenting import actor_text
from .models import AuditEntry

IMPORTED = "imported:"       # the actor of an audit entry that came from an imported file

MAX_SHOWN = 500

# action -> (what it is, in the filter; the sentence after the actor's name)
ACTIONS = {
    "event.create": ("Event created", "created the event"),
    "event.update": ("Settings changed", "changed the settings: {fields}"),
    "event.copy": ("Event copied", "copied the settings of another event"),
    "event.import": ("Event imported", "imported the event"),
    "event.finish": ("Event finished", "finished the event"),
    "event.staff.add": ("Staff changed", "added {staff} to the staff as {role}"),
    "event.staff.remove": ("Staff changed", "removed {staff} from the staff"),
    "registration.create": ("Registrations", "registered {player}{late}"),
    "players.import": ("Registrations", "imported {count} players"),
    "decklist.submit": ("Decklists", "submitted the decklist of {player} ({legal})"),
    "checkin": ("Check-ins", "checked in {player}"),
    "checkin.undo": ("Check-ins", "undid the check-in of {player}"),
    "drop": ("Drops", "dropped {player}"),
    "drop.undo": ("Drops", "brought {player} back into the event"),
    "notes": ("Notes", "wrote notes on {player}"),
    "round.pair": ("Pairings", "paired round {round}"),
    "round.pair.unready_decks": ("Pairings", "seated players without a legal deck in round {round}: {players}"),
    "round.swap_seats": ("Pairings", "swapped two seats in the draft of round {round}"),
    "round.delete_draft": ("Pairings", "deleted the draft of round {round}"),
    "round.publish": ("Rounds", "published round {round}"),
    "round.start": ("Rounds", "started round {round}"),
    "round.finish": ("Rounds", "finished round {round}"),
    "round.finish_override": ("Rounds", "finished round {round}, accepting unconfirmed results"),
    "round.pause": ("Round clock", "paused the clock of round {round}"),
    "round.resume": ("Round clock", "resumed the clock of round {round}"),
    "round.extend": ("Round clock", "added {minutes} minutes to round {round}"),
    "table.extend": ("Round clock", "gave table {table} of round {round} an extension of {minutes} minutes"),
    "result.report": ("Results", "reported the result of table {table}, round {round}"),
    "result.dispute": ("Results", "reported a different result at table {table}, round {round}: disputed"),
    "result.enter": ("Results", "entered the result of table {table}, round {round}"),
    "result.correct": ("Results", "corrected the result of table {table}, round {round}"),
    "result.confirm": ("Results", "confirmed the result of table {table}, round {round}"),
    "vote": ("Votes", "voted at table {table}, round {round}"),
    "swap": ("Swaps", "swapped sideboard cards at table {table}, round {round}"),
    "swap.override": ("Swaps", "entered a sideboard swap for {player} at table {table}, round {round} "
                               "(judge override: {override_reason})"),
    "duel.game_start": ("Results", "started game {game} at table {table}, round {round}"),
    "tracker.start": ("Game tracker", "started the game tracker at table {table}, round {round}"),
    "tracker.undo": ("Game tracker", "undid a tracker tap at table {table}, round {round}"),
}
KINDS = sorted({label for label, _ in ACTIONS.values()})


def actor_words(actor: str, names: dict[int, str]) -> str:
    """"judge:Jan Judge" -> "Jan Judge (judge)"; "player:12" -> the player's name (actor_text's words);
    "imported:judge:Petr" -> "Petr (judge, from an imported file)": never taken for a local account."""
    actor = actor or ""
    imported = actor.startswith(IMPORTED)
    actor = actor.removeprefix(IMPORTED)
    kind = actor.partition(":")[0]
    who = actor_text(actor, names) or "someone"
    role = [kind] if kind in ("organizer", "judge") else []
    notes = role + (["from an imported file"] if imported else [])
    return f"{who} ({', '.join(notes)})" if notes else who


def _listed(value) -> list:
    """A detail that is a list in some entries and a count in others (event.import's players)."""
    return value if isinstance(value, list) else []


def _text(value) -> str:
    return value if isinstance(value, str) else ""


def sentence(entry: AuditEntry, names: dict[int, str]) -> str:
    details = dict(entry.details or {})
    label, text = ACTIONS.get(entry.action, (None, None))
    if text is None:
        return f"did {entry.action.replace('.', ' ').replace('_', ' ')}"
    player = details.get("registration") if isinstance(details.get("registration"), int) else None
    values = {k: v for k, v in details.items() if isinstance(v, (str, int, float))}
    values.update(
        player=names.get(player) or _text(details.get("name")) or _text(details.get("entered_for")) or "a player",
        late=" (late entry)" if details.get("late") else "",
        legal="legal" if details.get("legal") else "not legal",
        fields=", ".join(str(f).replace("_", " ") for f in _listed(details.get("fields"))) or "nothing",
        players=", ".join(p.get("name", "?") for p in _listed(details.get("players")) if isinstance(p, dict)),
    )
    try:
        return text.format_map(_Missing(values))
    except (ValueError, IndexError):
        return label.lower()


class _Missing(dict):
    def __missing__(self, key):
        return "?"


def entries(event, names: dict[int, str], who: str = "", kind: str = "", table: int | None = None,
            player: int | None = None) -> list[dict]:
    """The newest first, at most MAX_SHOWN, filtered as the page asks."""
    rows = db.session.execute(sa.select(AuditEntry).where(AuditEntry.event_id == event.id)
                              .order_by(AuditEntry.id.desc())).scalars()
    out, who = [], who.casefold().strip()
    for entry in rows:
        details = entry.details or {}
        label = ACTIONS.get(entry.action, ("Other", ""))[0]
        actor = actor_words(entry.actor, names)
        if kind and label != kind:
            continue
        if who and who not in actor.casefold():
            continue
        if table is not None and details.get("table") != table:
            continue
        if player is not None and player not in (details.get("registration"), details.get("voter"),
                                                 _player_of(entry.actor)):
            continue
        out.append({"at": entry.at, "actor": actor, "what": sentence(entry, names), "kind": label,
                    "round": details.get("round"), "table": details.get("table")})
        if len(out) >= MAX_SHOWN:
            break
    return out


def _player_of(actor: str) -> int | None:
    kind, _, who = (actor or "").partition(":")
    return int(who) if kind == "player" and who.isdigit() else None
