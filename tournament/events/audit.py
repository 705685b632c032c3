"""The event's log in words ("Olga checked in Šárka Dvořáková"), with filters: who, what, table, player."""
from __future__ import annotations

import sqlalchemy as sa
from flask_babel import get_translations, gettext as _, lazy_pgettext, pgettext

from ..extensions import db
from ..i18n import N_
from ..rounds.presenting import actor_text
from .models import AuditEntry

IMPORTED = "imported:"       # the actor of an audit entry that came from an imported file

MAX_SHOWN = 500


def _n(singular: str, plural: str) -> tuple[str, str]:
    """Marks a plural message for the catalogs; ngettext picks the form where it is shown."""
    return singular, plural


# action -> (what it is, in the filter; the sentence after the actor's name). The labels are also the
# filter's ?kind= values (English, as the URL has them): translated only where they are shown. A plural
# sentence is (singular, plural), counted by PLURAL_BY[action].
ACTIONS = {
    "event.create": (N_("Event created"), N_("created the event")),
    "event.update": (N_("Settings changed"), N_("changed the settings: %(fields)s")),
    "event.copy": (N_("Event copied"), N_("copied the settings of another event")),
    "event.import": (N_("Event imported"), N_("imported the event")),
    "event.finish": (N_("Event finished"), N_("finished the event")),
    "event.staff.add": (N_("Staff changed"), N_("added %(staff)s to the staff as %(role)s")),
    "event.staff.remove": (N_("Staff changed"), N_("removed %(staff)s from the staff")),
    "registration.create": (N_("Registrations"), N_("registered %(player)s")),
    "registration.rename": (N_("Registrations"), N_("renamed %(old_name)s to %(new_name)s")),
    "registration.new_code": (N_("Registrations"), N_("gave %(player)s a new access code (the old one no longer "
                                                      "works)")),
    "event.public_url": (N_("Settings changed"), N_("set the address phones open to %(address)s")),
    "players.import": (N_("Registrations"), _n("imported %(count)s players", "imported %(count)s players")),
    "decklist.submit": (N_("Decklists"), N_("submitted the decklist of %(player)s (not legal)")),
    "checkin": (N_("Check-ins"), N_("checked in %(player)s")),
    "checkin.undo": (N_("Check-ins"), N_("undid the check-in of %(player)s")),
    "drop": (N_("Drops"), N_("dropped %(player)s")),
    "drop.undo": (N_("Drops"), N_("brought %(player)s back into the event")),
    "notes": (N_("Notes"), N_("wrote notes on %(player)s")),
    "waitlist.join": (N_("Waitlist"), N_("put %(player)s on the waitlist as number %(place)s")),
    "waitlist.promote": (N_("Waitlist"), N_("gave %(player)s a place from the waitlist")),
    "paid": (N_("Payments"), N_("marked %(player)s as paid")),
    "paid.undo": (N_("Payments"), N_("marked %(player)s as not paid")),
    "round.pair": (N_("Pairings"), N_("paired round %(round)s")),
    "round.pair.unready_decks": (N_("Pairings"),
                                 N_("seated players without a legal deck in round %(round)s: %(players)s")),
    "round.swap_seats": (N_("Pairings"), N_("swapped two seats in the draft of round %(round)s")),
    "round.delete_draft": (N_("Pairings"), N_("deleted the draft of round %(round)s")),
    "round.seating.swap": (N_("Pairings"), N_("swapped %(player)s and %(other)s in round %(round)s")),
    "round.seating.move": (N_("Pairings"), N_("moved %(player)s to table %(table)s, seat %(seat)s in round "
                                              "%(round)s")),
    "round.seating.add": (N_("Pairings"), N_("seated %(player)s (late arrival) at table %(table)s, seat %(seat)s "
                                             "in round %(round)s")),
    "round.seating.remove": (N_("Pairings"), N_("removed %(player)s from table %(table)s in round %(round)s")),
    "round.unpublish": (N_("Pairings"), N_("unpublished round %(round)s to pair it again")),
    "round.publish": (N_("Rounds"), N_("published round %(round)s")),
    "round.start": (N_("Rounds"), N_("started round %(round)s")),
    "round.finish": (N_("Rounds"), N_("finished round %(round)s")),
    "round.finish_override": (N_("Rounds"), N_("finished round %(round)s, accepting unconfirmed results")),
    "round.pause": (N_("Round clock"), N_("paused the clock of round %(round)s")),
    "round.resume": (N_("Round clock"), N_("resumed the clock of round %(round)s")),
    "round.extend": (N_("Round clock"), _n("added %(minutes)s minutes to round %(round)s",
                                           "added %(minutes)s minutes to round %(round)s")),
    "table.extend": (N_("Round clock"),
                     _n("gave table %(table)s of round %(round)s an extension of %(minutes)s minutes",
                        "gave table %(table)s of round %(round)s an extension of %(minutes)s minutes")),
    "result.report": (N_("Results"), N_("reported the result of table %(table)s, round %(round)s")),
    "result.dispute": (N_("Results"),
                       N_("reported a different result at table %(table)s, round %(round)s: disputed")),
    "result.enter": (N_("Results"), N_("entered the result of table %(table)s, round %(round)s")),
    "result.correct": (N_("Results"), N_("corrected the result of table %(table)s, round %(round)s")),
    "result.confirm": (N_("Results"), N_("confirmed the result of table %(table)s, round %(round)s")),
    "vote": (N_("Votes"), N_("voted at table %(table)s, round %(round)s")),
    "swap": (N_("Swaps"), N_("swapped sideboard cards at table %(table)s, round %(round)s")),
    "swap.override": (N_("Swaps"), N_("entered a sideboard swap for %(player)s at table %(table)s, round "
                                      "%(round)s (judge override: %(override_reason)s)")),
    "duel.game_start": (N_("Results"), N_("started game %(game)s at table %(table)s, round %(round)s")),
    "tracker.start": (N_("Game tracker"), N_("started the game tracker at table %(table)s, round %(round)s")),
    "tracker.undo": (N_("Game tracker"), N_("undid a tracker tap at table %(table)s, round %(round)s")),
}
PLURAL_BY = {"players.import": "count", "round.extend": "minutes", "table.extend": "minutes"}
KINDS = sorted({label for label, _sentence in ACTIONS.values()})

# The sentence of an entry whose details say more (a late entry, a legal deck, the role given, no fields).
LATE_ENTRY = N_("registered %(player)s (late entry)")
LEGAL_DECK = N_("submitted the decklist of %(player)s (legal)")
STAFF_AS = {"judge": N_("added %(staff)s to the staff as judge"),
            "organizer": N_("added %(staff)s to the staff as organizer")}
NO_FIELDS = N_("changed the settings: nothing")
# A tracker start's archenemy and where each scheme deck came from (games.archenemy.SCHEME_SOURCES).
TRACKER_ARCHENEMY = N_("archenemy: %(player)s")
SCHEME_DECK_FROM = {"registered": N_("scheme deck of %(player)s: the registered decklist's (%(cards)s cards)"),
                    "list": N_("scheme deck of %(player)s: a pasted list (%(cards)s cards, checked)"),
                    "paper": N_("scheme deck of %(player)s: scheme cards on paper, not checked")}
DETECTED_ADDRESS = N_("went back to the address phones open that the server found at start")

# The event settings as "changed the settings: …" lists them (the stored field names, in words).
SETTING_WORDS = {
    "name": lazy_pgettext("event setting", "name"),
    "date": lazy_pgettext("event setting", "date"),
    "venue": lazy_pgettext("event setting", "venue"),
    "ruleset": lazy_pgettext("event setting", "ruleset"),
    "banlist_add": lazy_pgettext("event setting", "banlist add"),
    "banlist_remove": lazy_pgettext("event setting", "banlist remove"),
    "mode": lazy_pgettext("event setting", "mode"),
    "pod_size": lazy_pgettext("event setting", "pod size"),
    "sideboard_enabled": lazy_pgettext("event setting", "sideboard enabled"),
    "swap_seconds": lazy_pgettext("event setting", "swap seconds"),
    "sideboard_minutes": lazy_pgettext("event setting", "sideboard minutes"),
    "scoring_profile": lazy_pgettext("event setting", "scoring profile"),
    "round_minutes": lazy_pgettext("event setting", "round minutes"),
    "decklist_deadline": lazy_pgettext("event setting", "decklist deadline"),
    "paper_size": lazy_pgettext("event setting", "paper size"),
    "status": lazy_pgettext("event setting", "status"),
    "leftover_policy": lazy_pgettext("event setting", "leftover policy"),
    "top_cut": lazy_pgettext("event setting", "top cut"),
    "bye_points": lazy_pgettext("event setting", "bye points"),
    "prize_conditions": lazy_pgettext("event setting", "prize conditions"),
    "hide_votes": lazy_pgettext("event setting", "hide votes"),
    "publish_decklists": lazy_pgettext("event setting", "publish decklists"),
    "timezone": lazy_pgettext("event setting", "timezone"),
    "planned_rounds": lazy_pgettext("event setting", "planned rounds"),
    "variant": lazy_pgettext("event setting", "variant"),
    "archenemy_win_points": lazy_pgettext("event setting", "archenemy win points"),
    "team_win_points": lazy_pgettext("event setting", "team win points"),
    "max_bracket": lazy_pgettext("event setting", "max bracket"),
    "bracket_pods": lazy_pgettext("event setting", "bracket pods"),
    "cut_seating": lazy_pgettext("event setting", "cut seating"),
    "cut_draw": lazy_pgettext("event setting", "drawn cut pod"),
    "cut_deal": lazy_pgettext("event setting", "cut pod deal"),
    "cut_top40": lazy_pgettext("event setting", "top 40 shape"),
    "odd_pods": lazy_pgettext("event setting", "smaller pods"),
    "end_of_round": lazy_pgettext("event setting", "end of round"),
    "end_of_round_turns": lazy_pgettext("event setting", "end of round turns"),
    "intentional_draws": lazy_pgettext("event setting", "intentional draws"),
    "language": lazy_pgettext("event setting", "language"),
    "player_cap": lazy_pgettext("event setting", "player cap"),
    "entry_fee": lazy_pgettext("event setting", "entry fee"),
}

# Who did it: the actor's name with its role and where the entry came from, as one phrase each.
ACTOR_NOTES = {
    ("organizer", False): N_("%(name)s (organizer)"),
    ("judge", False): N_("%(name)s (judge)"),
    ("", True): N_("%(name)s (from an imported file)"),
    ("organizer", True): N_("%(name)s (organizer, from an imported file)"),
    ("judge", True): N_("%(name)s (judge, from an imported file)"),
}


def actor_words(actor: str, names: dict[int, str]) -> str:
    """"judge:Jan Judge" -> "Jan Judge (judge)"; "player:12" -> the player's name (actor_text's words);
    "imported:judge:Petr" -> "Petr (judge, from an imported file)": never taken for a local account."""
    actor = actor or ""
    imported = actor.startswith(IMPORTED)
    actor = actor.removeprefix(IMPORTED)
    kind = actor.partition(":")[0]
    who = actor_text(actor, names) or _("someone")
    role = kind if kind in ("organizer", "judge") else ""
    words = ACTOR_NOTES.get((role, imported))
    return _(words, name=who) if words else who


def listed(items) -> str:
    """Names or words one after another ("a, b, c"; 「a、b、c」 in Japanese and Chinese)."""
    return pgettext("list separator", ", ").join(str(item) for item in items)


def _listed(value) -> list:
    """A detail that is a list in some entries and a count in others (event.import's players)."""
    return value if isinstance(value, list) else []


def _text(value) -> str:
    return value if isinstance(value, str) else ""


def _setting(field) -> str:
    words = SETTING_WORDS.get(field) if isinstance(field, str) else None
    return str(words) if words is not None else str(field).replace("_", " ")


def sentence(entry: AuditEntry, names: dict[int, str]) -> str:
    """What the entry's actor did, in the reader's language (the actor is in the log's own column)."""
    details = dict(entry.details or {})
    label, text = ACTIONS.get(entry.action, (None, None))
    if text is None:
        return _("did %(action)s", action=entry.action.replace(".", " ").replace("_", " "))
    player = details.get("registration") if isinstance(details.get("registration"), int) else None
    fields = [_setting(f) for f in _listed(details.get("fields"))]
    values = {k: v for k, v in details.items() if isinstance(v, (str, int, float))}
    values.update(
        player=names.get(player) or _text(details.get("name")) or _text(details.get("entered_for")) or _("a player"),
        fields=listed(fields),
        players=listed(p.get("name", "?") for p in _listed(details.get("players")) if isinstance(p, dict)),
    )
    if entry.action == "registration.create" and details.get("late"):
        text = LATE_ENTRY
    elif entry.action == "decklist.submit" and details.get("legal"):
        text = LEGAL_DECK
    elif entry.action == "event.staff.add" and details.get("role") in STAFF_AS:
        text = STAFF_AS[details["role"]]
    elif entry.action == "event.update" and not fields:
        text = NO_FIELDS
    elif entry.action == "event.public_url" and not details.get("address"):
        text = DETECTED_ADDRESS
    try:
        if isinstance(text, tuple):
            count = details.get(PLURAL_BY[entry.action])
            count = count if isinstance(count, int) else 0
            return get_translations().ngettext(*text, count) % _Missing(values)
        if entry.action == "tracker.start":
            return listed([_(text) % _Missing(values), *_tracker_start(details, names)])
        return _(text) % _Missing(values)
    except (ValueError, TypeError, KeyError):
        return _(label).lower()


def _tracker_start(details: dict, names: dict[int, str]) -> list[str]:
    """An Archenemy start's archenemy and each scheme deck's source, in words."""
    words = []
    if isinstance(details.get("archenemy"), int):
        words.append(_(TRACKER_ARCHENEMY, player=names.get(details["archenemy"]) or _("a player")))
    decks = details.get("scheme_decks")
    for player, deck in (decks.items() if isinstance(decks, dict) else ()):
        source = deck.get("source") if isinstance(deck, dict) else None
        if source in SCHEME_DECK_FROM:
            who = names.get(int(player)) if str(player).isascii() and str(player).isdigit() else None
            words.append(_(SCHEME_DECK_FROM[source], player=who or _("a player"), cards=deck.get("cards", "?")))
    return words


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
    kind, _sep, who = (actor or "").partition(":")
    return int(who) if kind == "player" and who.isdigit() else None
