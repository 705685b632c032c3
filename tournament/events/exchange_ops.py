"""Import and export operations: players from CSV, whole events to and from JSON/CSV.

Every import checks the whole file before it stores anything: a file with one
bad row is refused with the row number and the problem of every bad row, and
nothing is added to the session. The caller commits once on success (and,
like every operation, rolls back after a refusal).
"""
from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field
from datetime import datetime

import sqlalchemy as sa

from ..auth.models import User
from ..cards.models import utcnow
from ..cards.names import name_key
from ..cards.repository import DbCardPool
from ..decks.checks import check_deck
from ..decks.domain import DeckInputError
from ..decks.operations import app_bracket_rules
from ..decks.parser import parse_upload
from ..decks.rulesets import UnknownRuleset, get_ruleset
from ..errors import Refused
from ..extensions import db
from .exchange import (FORMAT, MAX_PLAYER_ROWS, MAX_PROBLEMS_LISTED, VERSION, ExchangeInputError, PlayerRow,
                       PlayersFile, RowProblem, duplicate_player_ids, dump_event_json, iso, load_event_json,
                       parse_timestamp, read_players_csv, write_csv)
from .audit import IMPORTED
from .models import AuditEntry, Decklist, Event, Registration
from .operations import (ACCESS_CODE_ALPHABET, ACCESS_CODE_LENGTH, EVENT_FIELDS, actor_name, clean_event_fields,
                         clean_text, create_event, log, new_access_code, normalise_code, require_staff,
                         submit_decklist, free_places, waitlist_place)

MAX_SUBMISSIONS_PER_PLAYER = 100
WEB_IMPORT_DECKLISTS = 1_000       # re-checked inside one web request (about a second each hundred)
MAX_IMPORT_DECKLISTS = 50_000      # the cap per import, also on the server's command line
MAX_NOTES = 5000
_CHUNK = 500


class ImportRefused(Refused):
    """A refused import, with every problem found (row number and what is wrong)."""

    def __init__(self, problems: list[RowProblem], status: int = 400):
        self.problems = problems
        count = len({(p.label, p.row) for p in problems})
        labels = {p.label for p in problems}
        unit = _plural(labels.pop().lower() if len(labels) == 1 else "entry", count)
        listed = " ".join(_sentence(str(p)) for p in problems[:5])
        more = f" And {len(problems) - 5} more." if len(problems) > 5 else ""
        self.summary = f"{count} {unit} {'has a problem' if count == 1 else 'have problems'}; nothing was imported."
        super().__init__(f"{self.summary} {listed}{more}", status=status)

    @property
    def listed(self) -> list[RowProblem]:
        return self.problems[:MAX_PROBLEMS_LISTED]


def _sentence(text: str) -> str:
    return text if text.endswith((".", "!", "?")) else text + "."


def _plural(word: str, count: int) -> str:
    if count == 1:
        return word
    return word[:-1] + "ies" if word.endswith("y") else word + "s"


def _refuse_input(e: ExchangeInputError):
    raise Refused(e.message, status=413 if e.kind == "too_large" else 400) from None


# ----------------------------------------------------------------- players from CSV

@dataclass
class PlayersImport:
    file: PlayersFile
    registrations: list[Registration] = field(default_factory=list)
    dry_run: bool = False

    @property
    def rows(self) -> list[PlayerRow]:
        return self.file.rows


def _clean_row(row: PlayerRow) -> tuple[dict, list[RowProblem]]:
    """The row's fields as register_player would store them, and what is wrong with them."""
    values: dict = {}
    problems = []
    for name, label, limit, required in (("name", "The name", 100, True), ("contact", "The contact", 200, False),
                                         ("player_id", "The player ID", 40, False)):
        try:
            values[name] = clean_text(getattr(row, name), name, label, limit, required=required)
        except Refused as e:
            problems.append(RowProblem(row.row, e.message))
    values["decklist"] = row.decklist if row.decklist.strip() else ""
    if values["decklist"]:
        try:
            parse_upload(values["decklist"].encode("utf-8"))
        except DeckInputError as e:
            problems.append(RowProblem(row.row, f"The decklist cannot be read: {e}"))
    return values, problems


def _chunks(items: list, size: int = _CHUNK):
    for i in range(0, len(items), size):
        yield items[i:i + size]


def _registered_ids(event: Event, player_ids: list[str]) -> dict[str, str]:
    """Player ID -> name of the player already registered with it in this event."""
    found: dict[str, str] = {}
    for chunk in _chunks(sorted(set(player_ids))):
        found.update(db.session.execute(sa.select(Registration.player_id, Registration.name).where(
            Registration.event_id == event.id, Registration.player_id.in_(chunk))).all())
    return found


def import_players(event: Event, user: User | None, data: bytes, dry_run: bool = False) -> PlayersImport:
    """Register every player of a CSV file in the event, or none.

    With ``dry_run`` the file is checked the same way and nothing is stored:
    the result lists the rows that would be imported."""
    require_staff(user, event, organizer_only=True)
    if event.status == "finished":
        raise Refused("This event has finished; players can no longer be added.", status=409)
    try:
        players = read_players_csv(data)
    except ExchangeInputError as e:
        _refuse_input(e)
    problems = list(players.problems)
    cleaned = []
    for row in players.rows:
        values, row_problems = _clean_row(row)
        cleaned.append(values)
        problems.extend(row_problems)
    wanted = {v["player_id"] for v in cleaned if v.get("player_id")}
    taken = _registered_ids(event, sorted(wanted))
    for row, values in zip(players.rows, cleaned):
        pid = values.get("player_id")
        if pid in taken:
            problems.append(RowProblem(row.row, f"Player ID {pid} is already registered for this event "
                                                f"({taken[pid]})."))
    if problems:
        raise ImportRefused(sorted(problems, key=lambda p: p.row))
    result = PlayersImport(file=players, dry_run=dry_run)
    if dry_run:
        return result
    # The same records register_player makes, written in bulk: one insert for all rows, not a flush per row.
    late = event.status == "running"
    actor = actor_name(user)
    codes = _fresh_codes(len(cleaned), set())
    free = free_places(event)           # past the player cap, the file's next rows join the waitlist in order
    registrations = [Registration(event_id=event.id, name=v["name"], search_key=name_key(v["name"]),
                                  contact=v["contact"], player_id=v["player_id"] or None, access_code=code, late=late,
                                  waitlisted=free is not None and i >= free)
                     for i, (v, code) in enumerate(zip(cleaned, codes))]
    db.session.add_all(registrations)
    db.session.flush()
    db.session.add_all([AuditEntry(event_id=event.id, actor=actor, action="registration.create",
                                   details={"registration": r.id, "name": r.name, "late": late})
                        for r in registrations])
    waiting = [r for r in registrations if r.waitlisted]
    if waiting:
        first = waitlist_place(waiting[0])
        db.session.add_all([AuditEntry(event_id=event.id, actor=actor, action="waitlist.join",
                                       details={"registration": r.id, "place": first + i})
                            for i, r in enumerate(waiting)])
    for reg, values in zip(registrations, cleaned):
        if values["decklist"]:
            submit_decklist(reg, values["decklist"].encode("utf-8"), user=user)
    log(event, actor, "players.import", count=len(registrations), registrations=[r.id for r in registrations])
    db.session.flush()
    result.registrations = registrations
    return result


# ----------------------------------------------------------------- export

@dataclass(frozen=True)
class Export:
    data: bytes
    filename: str
    mimetype: str


def _slug(text: str) -> str:
    ascii_text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    return re.sub(r"[^A-Za-z0-9]+", "-", ascii_text).strip("-").lower()[:60] or "event"


def _submissions(event: Event) -> dict[int, list[Decklist]]:
    out: dict[int, list[Decklist]] = {}
    stmt = (sa.select(Decklist).join(Registration, Registration.id == Decklist.registration_id)
            .where(Registration.event_id == event.id).order_by(Decklist.id))
    for deck in db.session.execute(stmt).scalars():
        out.setdefault(deck.registration_id, []).append(deck)
    return out


def _settings(event: Event) -> dict:
    out = {}
    for key in EVENT_FIELDS:
        value = getattr(event, key)
        out[key] = iso(value) if key in ("date", "decklist_deadline") else value
    out["banlist_add"] = list(out["banlist_add"] or [])
    out["banlist_remove"] = list(out["banlist_remove"] or [])
    return out


def event_document(event: Event, exported_by: str) -> dict:
    """The whole event as a plain JSON-ready dict (see exchange.py for the layout)."""
    submissions = _submissions(event)
    players = []
    for reg in event.registrations:
        decks = submissions.get(reg.id, [])
        players.append({
            "id": reg.id,
            "name": reg.name,
            "contact": reg.contact,
            "player_id": reg.player_id,
            "declared_bracket": reg.declared_bracket,
            "access_code": reg.access_code,
            "late": reg.late,
            "checked_in_at": iso(reg.checked_in_at),
            "dropped_at": iso(reg.dropped_at),
            "notes": reg.notes,
            "waitlisted": bool(reg.waitlisted),
            "promoted_at": iso(reg.promoted_at),
            "paid_at": iso(reg.paid_at),
            "created_at": iso(reg.created_at),
            "deck_status": reg.deck_status,
            "current_decklist": reg.deck_id,
            "decklists": [{
                "id": d.id,
                "text": d.text,
                "ruleset": d.ruleset,
                "legal": d.legal,
                "result": d.result,
                "submitted_at": iso(d.submitted_at),
                "submitted_by": d.submitted_by,
            } for d in decks],
        })
    audit = db.session.execute(sa.select(AuditEntry).where(AuditEntry.event_id == event.id)
                               .order_by(AuditEntry.id)).scalars()
    return {
        "format": FORMAT,
        "version": VERSION,
        "exported_at": iso(utcnow()),
        "exported_by": exported_by,
        "event": {"id": event.id, "organizer": event.organizer.name if event.organizer else None,
                  "created_at": iso(event.created_at)},
        "settings": _settings(event),
        "players": players,
        "audit_log": [{"actor": a.actor, "action": a.action, "details": a.details, "at": iso(a.at)} for a in audit],
        "rounds": [],
        "stats": _stats(event),
    }


def _stats(event: Event) -> dict:
    """The event's numbers (tournament.scoring.stats), for readers of the export; an import ignores them."""
    from ..rounds.operations import event_stats
    return event_stats(event)


def player_rows(event: Event) -> list[dict]:
    """One plain row per player for the CSV export."""
    rows = []
    for reg in event.registrations:
        deck = reg.deck
        rows.append({
            "name": reg.name, "contact": reg.contact, "player_id": reg.player_id or "",
            "access_code": reg.access_code, "checked_in": reg.checked_in_at is not None,
            "dropped": reg.dropped_at is not None, "late": reg.late, "waitlisted": bool(reg.waitlisted),
            "paid": reg.paid_at is not None, "deck_status": reg.deck_status,
            "commanders": (deck.result or {}).get("commanders", []) if deck else [],
            "decklist": deck.text if deck else "",
        })
    return rows


def build_export(event: Event, fmt: str, exported_by: str) -> Export:
    """The export file, without a permission check (the command line; views use export_event)."""
    stem = f"event-{event.id}-{_slug(event.name)}"
    if fmt == "json":
        return Export(dump_event_json(event_document(event, exported_by)), stem + ".json", "application/json")
    if fmt == "csv":
        return Export(write_csv(player_rows(event)), stem + ".csv", "text/csv; charset=utf-8")
    raise Refused("The export format must be json or csv.", field="format")


def export_event(event: Event, user: User | None, fmt: str) -> Export:
    """Staff only: the event's organizer, or a judge."""
    require_staff(user, event)
    return build_export(event, fmt, actor_name(user))


# ----------------------------------------------------------------- import an exported event

@dataclass
class _Submission:
    source_id: object
    text: str
    ruleset: str
    submitted_at: datetime
    submitted_by: str
    legal: bool
    result: dict
    was_legal: object


@dataclass
class _Player:
    number: int
    source_id: object
    name: str
    contact: str
    player_id: str | None
    access_code: str | None
    late: bool
    checked_in_at: datetime | None
    dropped_at: datetime | None
    notes: str
    created_at: datetime
    submissions: list[_Submission]
    current: int | None            # index into submissions
    declared_bracket: int | None = None
    waitlisted: bool = False
    paid_at: datetime | None = None
    promoted_at: datetime | None = None


@dataclass
class EventImport:
    event: Event
    notes: list[str] = field(default_factory=list)
    players: int = 0
    decklists: int = 0


class _Problems(list):
    def add(self, number: int, message: str, label: str = "Player", name: str = "") -> None:
        self.append(RowProblem(number, message, label, name))


def _text(value, label: str, limit: int, required: bool = False) -> str:
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        value = str(value)
    return clean_text(value, "", label, limit, required=required)


def _timestamp(value, label: str, default=None):
    if value is None:
        return default
    try:
        return parse_timestamp(value)
    except ValueError:
        raise Refused(f"{label} is not a date and time like 2026-12-05T10:00:00+00:00.") from None


def _read_settings(document: dict) -> dict:
    settings = document.get("settings")
    if not isinstance(settings, dict):
        raise Refused("The file has no event settings (\"settings\" must be an object).")
    known = {k: v for k, v in settings.items() if k in EVENT_FIELDS}
    try:
        return clean_event_fields(known)
    except Refused as e:
        raise Refused(f"The event settings: {e.message}", field=e.field) from None


def _read_submissions(raw, player: int, who: str, problems: _Problems, settings: dict,
                      pool: DbCardPool, declared: int | None = None) -> list[_Submission]:
    if raw is None:
        return []
    if not isinstance(raw, list):
        problems.add(player, "\"decklists\" must be a list.", name=who)
        return []
    if len(raw) > MAX_SUBMISSIONS_PER_PLAYER:
        problems.add(player, f"{len(raw)} decklist submissions; the limit is {MAX_SUBMISSIONS_PER_PLAYER}.", name=who)
        return []
    out = []
    for n, item in enumerate(raw, 1):
        where = f"Decklist {n}"
        if not isinstance(item, dict) or not isinstance(item.get("text"), str):
            problems.add(player, f"{where} must be an object with its \"text\".", name=who)
            continue
        try:
            submitted_at = _timestamp(item.get("submitted_at"), "The submission time", utcnow())
            submitted_by = _text(item.get("submitted_by"), "Who submitted it", 120) or "import"
            parsed = parse_upload(item["text"].encode("utf-8"))
        except Refused as e:
            problems.add(player, f"{where}: {e.message}", name=who)
            continue
        except DeckInputError as e:
            problems.add(player, f"{where} cannot be read: {e}", name=who)
            continue
        try:
            ruleset = get_ruleset(item.get("ruleset")).id
        except UnknownRuleset:
            ruleset = settings["ruleset"]
        check = check_deck(parsed, pool, ruleset, settings.get("banlist_add") or (),
                           settings.get("banlist_remove") or (), max_bracket=settings.get("max_bracket"),
                           declared_bracket=declared, brackets=app_bracket_rules())
        out.append(_Submission(item.get("id"), item["text"], ruleset, submitted_at, submitted_by, check.legal,
                               check.to_json(), item.get("legal")))
    return out


def _read_player(raw, number: int, problems: _Problems, settings: dict, pool: DbCardPool) -> _Player | None:
    if not isinstance(raw, dict):
        problems.add(number, "Each player must be an object of fields.")
        return None
    shown = raw.get("name") if isinstance(raw.get("name"), str) else ""
    who = shown.strip()[:40]
    before = len(problems)
    values = {}
    for key, label, limit, required in (("name", "The name", 100, True), ("contact", "The contact", 200, False),
                                        ("player_id", "The player ID", 40, False),
                                        ("notes", "The notes", MAX_NOTES, False)):
        try:
            if key == "notes":
                notes = raw.get("notes") or ""
                if not isinstance(notes, str) or len(notes) > MAX_NOTES:
                    raise Refused(f"The notes must be text of at most {MAX_NOTES} characters.")
                values[key] = notes
            else:
                values[key] = _text(raw.get(key), label, limit, required)
        except Refused as e:
            problems.add(number, e.message, name=who)
    late = raw.get("late", False)
    if late is None:
        late = False
    if not isinstance(late, bool):
        problems.add(number, "\"late\" must be true or false.", name=who)
    waitlisted = raw.get("waitlisted") or False
    if not isinstance(waitlisted, bool):
        problems.add(number, "\"waitlisted\" must be true or false.", name=who)
    times = {}
    for key, label in (("checked_in_at", "The check-in time"), ("dropped_at", "The drop time"),
                       ("created_at", "The registration time"), ("paid_at", "The payment time"),
                       ("promoted_at", "The time off the waitlist")):
        try:
            times[key] = _timestamp(raw.get(key), label)
        except Refused as e:
            problems.add(number, e.message, name=who)
    code = raw.get("access_code")
    code = normalise_code(code) if isinstance(code, str) and code.strip() else None
    declared = _declared_bracket(raw.get("declared_bracket"))
    submissions = _read_submissions(raw.get("decklists"), number, who, problems, settings, pool, declared)
    current = None
    if "current_decklist" not in raw:
        current = len(submissions) - 1 if submissions else None
    elif raw["current_decklist"] is not None:
        ids = [s.source_id for s in submissions]
        if raw["current_decklist"] in ids:
            current = ids.index(raw["current_decklist"])
        elif len(problems) == before:
            problems.add(number, f"The current decklist {raw['current_decklist']!r} is not among the "
                                 "player's decklists.", name=who)
    if len(problems) > before:
        return None
    return _Player(number=number, source_id=raw.get("id"), name=values["name"], contact=values["contact"],
                   player_id=values["player_id"] or None, access_code=code, late=late,
                   checked_in_at=times["checked_in_at"], dropped_at=times["dropped_at"], notes=values["notes"],
                   created_at=times["created_at"] or utcnow(), submissions=submissions, current=current,
                   declared_bracket=declared, waitlisted=waitlisted, paid_at=times["paid_at"],
                   promoted_at=times["promoted_at"])


def _declared_bracket(value) -> int | None:
    """An older export has none; a value that is not a bracket 1-5 is left out rather than refusing the file."""
    return value if isinstance(value, int) and not isinstance(value, bool) and 1 <= value <= 5 else None


def _read_audit(raw, problems: _Problems) -> list[dict]:
    if raw is None:
        return []
    if not isinstance(raw, list):
        raise Refused("The audit log in the file must be a list.")
    out = []
    for n, item in enumerate(raw, 1):
        if not isinstance(item, dict):
            problems.add(n, "Each entry must be an object.", "Audit entry")
            continue
        try:
            actor = _text(item.get("actor"), "The actor", 120, required=True)
            action = _text(item.get("action"), "The action", 60, required=True)
            at = _timestamp(item.get("at"), "The time", utcnow())
        except Refused as e:
            problems.add(n, e.message, "Audit entry")
            continue
        details = item.get("details")
        if details is None:
            details = {}
        if not isinstance(details, dict):
            problems.add(n, "\"details\" must be an object.", "Audit entry")
            continue
        out.append({"actor": actor, "action": action, "details": details, "at": at})
    return out


def valid_code(code: str | None) -> bool:
    """A code this app could have made: guessing one is as hard as guessing any other."""
    return (code is not None and len(code) == ACCESS_CODE_LENGTH
            and all(ch in ACCESS_CODE_ALPHABET for ch in code))


def count_submissions(raw_players: list) -> int:
    return sum(len(p["decklists"]) for p in raw_players
               if isinstance(p, dict) and isinstance(p.get("decklists"), list))


def _taken_codes(codes: list[str]) -> set[str]:
    taken: set[str] = set()
    for chunk in _chunks(sorted(set(codes))):
        taken.update(db.session.execute(sa.select(Registration.access_code)
                                        .where(Registration.access_code.in_(chunk))).scalars())
    return taken


def _fresh_codes(count: int, avoid: set[str]) -> list[str]:
    """``count`` new access codes, in use nowhere and not in ``avoid`` (which they are added to)."""
    out: list[str] = []
    while len(out) < count:
        batch = {new_access_code() for _ in range(count - len(out))} - avoid
        for code in batch - _taken_codes(list(batch)):
            out.append(code)
            avoid.add(code)
    return out




def imported_actor(actor: str, id_map: dict[int, int]) -> str:
    """What the file says did it, marked as the file's word: "imported:judge:Petr" is never the local Petr.
    A player's id is mapped to their new registration, so the log still names them."""
    kind, _, who = actor.partition(":")
    if kind == "player" and who.isdigit() and int(who) in id_map:
        actor = f"player:{id_map[int(who)]}"
    elif kind == "player":
        actor = "player"
    return (IMPORTED + actor)[:120]


def _refuse_too_many_decklists(count: int, limit: int) -> None:
    if count <= min(limit, MAX_IMPORT_DECKLISTS):
        return
    if limit < MAX_IMPORT_DECKLISTS and count <= MAX_IMPORT_DECKLISTS:
        raise Refused(f"The file holds {count:,} decklist submissions; a web import re-checks at most {limit:,} "
                      f"while you wait. Import it on the server instead, where every list is re-checked with a "
                      f"progress bar: flask --app wsgi event import FILE --organizer NAME", status=413)
    raise Refused(f"The file holds {count:,} decklist submissions; an import may hold at most "
                  f"{MAX_IMPORT_DECKLISTS:,}.", status=413)


def _names_list(names: list[str], limit: int = 10) -> str:
    shown = ", ".join(names[:limit])
    return shown + (f" and {len(names) - limit} more" if len(names) > limit else "")


def import_event(organizer: User | None, data: bytes, max_decklists: int | None = None,
                 progress=None) -> EventImport:
    """Recreate an exported event as a new event owned by ``organizer``.

    New ids; the same settings, players, check-in and drop state, notes and
    decklist submissions (each re-checked against the current card data);
    players keep their access codes unless a code is already in use, in
    which case they get a new one and the result's notes say so. The
    exported audit log is kept, each entry marked as imported (never as signed by a user here), followed
    by an ``event.import`` entry. Codes that are not of this app's alphabet and length are replaced.

    Every list is re-checked, so a file with more than ``max_decklists`` submissions is refused: the web
    import takes 1,000, the command line (with a progress bar: ``progress(n)`` after each player) 50,000."""
    require_staff(organizer, organizer_only=True)
    try:
        document = load_event_json(data)
    except ExchangeInputError as e:
        _refuse_input(e)
    settings = _read_settings(document)
    raw_players = _raw_players(document, max_decklists)
    players, audit = _read_players_and_audit(document, raw_players, settings, progress)
    invalid, renamed = _assign_codes(players)
    notes = _import_notes(document, players, invalid, renamed)
    event = create_event(organizer, settings)
    registrations, id_map, decklists = _store_players(event, players)
    for entry in audit:
        details = dict(entry["details"])
        if isinstance(details.get("registration"), int) and details["registration"] in id_map:
            details["registration"] = id_map[details["registration"]]
        db.session.add(AuditEntry(event_id=event.id, actor=imported_actor(entry["actor"], id_map),
                                  action=entry["action"], details={**details, "imported": True}, at=entry["at"]))
    source = document.get("event") if isinstance(document.get("event"), dict) else {}
    log(event, actor_name(organizer), "event.import", source_event=source.get("id"),
        exported_at=document.get("exported_at") if isinstance(document.get("exported_at"), str) else None,
        players=len(registrations), decklists=decklists, new_access_codes=len(renamed))
    db.session.flush()
    return EventImport(event=event, notes=notes, players=len(registrations), decklists=decklists)


def _raw_players(document: dict, max_decklists: int | None) -> list:
    """The file's players as written, refused before any is read when there are too many of them or of
    their decklists (every list is re-checked)."""
    raw_players = document.get("players")
    if raw_players is None:
        raw_players = []
    if not isinstance(raw_players, list):
        raise Refused("The players in the file must be a list.")
    if len(raw_players) > MAX_PLAYER_ROWS:
        raise Refused(f"The file has {len(raw_players):,} players; the limit is {MAX_PLAYER_ROWS:,}.")
    _refuse_too_many_decklists(count_submissions(raw_players),
                               WEB_IMPORT_DECKLISTS if max_decklists is None else max_decklists)
    return raw_players


def _read_players_and_audit(document: dict, raw_players: list, settings: dict,
                            progress) -> tuple[list[_Player], list[dict]]:
    """Every player (decklists re-checked) and audit entry read; ImportRefused with every problem found, so
    nothing is stored from a file with one bad row."""
    problems = _Problems()
    pool = DbCardPool()
    players = []
    for n, raw in enumerate(raw_players, 1):
        player = _read_player(raw, n, problems, settings, pool)
        if player is not None:
            players.append(player)
        if progress is not None:
            progress(1)
    problems.extend(duplicate_player_ids(
        [PlayerRow(p.number, p.name, player_id=p.player_id or "") for p in players], label="Player"))
    audit = _read_audit(document.get("audit_log"), problems)
    if problems:
        raise ImportRefused(sorted(problems, key=lambda p: (p.label != "Player", p.row)))
    return players, audit


def _assign_codes(players: list[_Player]) -> tuple[list[str], list[str]]:
    """Keep each player's access code unless this app could not have made it or another registration
    (anywhere) already has it; the others get fresh codes. Returns the names of the players whose code was
    invalid and of those whose code was taken."""
    invalid = [p.name for p in players if p.access_code and not valid_code(p.access_code)]
    for p in players:
        if not valid_code(p.access_code):
            p.access_code = None
    taken = _taken_codes([p.access_code for p in players if p.access_code])
    used: set[str] = set(taken)
    renamed: list[str] = []
    for p in players:
        if p.access_code and p.access_code not in used:
            used.add(p.access_code)
        else:
            if p.access_code:
                renamed.append(p.name)
            p.access_code = None
    missing = [p for p in players if p.access_code is None]
    for p, code in zip(missing, _fresh_codes(len(missing), used)):
        p.access_code = code
    return invalid, renamed


def _import_notes(document: dict, players: list[_Player], invalid: list[str], renamed: list[str]) -> list[str]:
    """What the organizer should know after the import: new access codes (print new receipts), decks whose
    legality changed on the re-check, and rounds the file holds but this version does not import."""
    notes: list[str] = []
    if invalid:
        notes.append(f"{len(invalid)} player{'s' if len(invalid) != 1 else ''} had an access code this app does not "
                     f"make ({ACCESS_CODE_LENGTH} characters of {ACCESS_CODE_ALPHABET}), so a new one was made: "
                     f"{_names_list(invalid)}. Print new receipts for them.")
    if renamed:
        notes.append(f"{len(renamed)} player{'s' if len(renamed) != 1 else ''} got a new access code because "
                     f"the old one is already in use here: {_names_list(renamed)}. Print new receipts for them.")
    changed = [p.name for p in players if p.current is not None
               and isinstance(p.submissions[p.current].was_legal, bool)
               and p.submissions[p.current].was_legal != p.submissions[p.current].legal]
    if changed:
        notes.append(f"Re-checked against the current card data, {len(changed)} current "
                     f"deck{'s' if len(changed) != 1 else ''} changed legality: {_names_list(changed)}.")
    rounds = document.get("rounds")
    if isinstance(rounds, list) and rounds:
        notes.append(f"The file holds {len(rounds)} round(s); this version imports settings, players and "
                     "decklists only, not rounds.")
    return notes


def _store_players(event: Event, players: list[_Player]) -> tuple[list[Registration], dict[int, int], int]:
    """The registrations and their decklists, each player's current one set; returns the registrations,
    the file's player ids mapped to the new ones, and how many decklists were stored."""
    registrations = [Registration(event_id=event.id, name=p.name, search_key=name_key(p.name), contact=p.contact,
                                  player_id=p.player_id, access_code=p.access_code, late=p.late,
                                  checked_in_at=p.checked_in_at, dropped_at=p.dropped_at, notes=p.notes,
                                  created_at=p.created_at, declared_bracket=p.declared_bracket,
                                  waitlisted=p.waitlisted, paid_at=p.paid_at, promoted_at=p.promoted_at)
                     for p in players]
    db.session.add_all(registrations)
    db.session.flush()
    id_map = {}
    decks_by_player = []
    for p, reg in zip(players, registrations):
        if isinstance(p.source_id, int) and not isinstance(p.source_id, bool):
            id_map[p.source_id] = reg.id
        decks = [Decklist(registration_id=reg.id, text=s.text, ruleset=s.ruleset, legal=s.legal, result=s.result,
                          bracket_floor=(s.result.get("bracket") or {}).get("floor"),
                          submitted_at=s.submitted_at, submitted_by=s.submitted_by) for s in p.submissions]
        decks_by_player.append(decks)
        db.session.add_all(decks)
    db.session.flush()
    decklists = 0
    for p, reg, decks in zip(players, registrations, decks_by_player):
        decklists += len(decks)
        if p.current is not None:
            reg.deck_id = decks[p.current].id
            reg.deck = decks[p.current]
    return registrations, id_map, decklists
