"""Web pages for events: the organizer's settings and dashboard, the player's page, the check-in desk.

Views are thin: a form checks the input's shape, one operation decides and
changes, the request commits once, then POST/redirect/GET. A refusal is
shown next to its form field with its 4xx status.
"""
from __future__ import annotations

from datetime import datetime, timezone
from functools import lru_cache
import qrcode
import qrcode.image.svg
from flask import Blueprint, flash, g, jsonify, redirect, render_template, request, url_for
from flask_babel import gettext as _, lazy_gettext as _l, ngettext
from jinja2 import pass_context
from markupsafe import Markup, escape

from ..auth.access import login_required
from ..decks.messages import colour_words
from ..decks.rulesets import get_ruleset
from ..errors import NotFound, Refused
from ..i18n import clock_text as i18n_clock_text, data_text, when_text
from ..rounds.presenting import name_key
from ..web import (EXPIRED, polled, form_error_text, form_failed, json_error, json_fields, json_request,
                   refusal, refuse_into, refused_json, staff_event, staff_required, whole_number)
from . import audit, operations as ops
from .forms import (MODE_LABELS, SCORING_LABELS, STATUS_LABELS, ActionForm, CopyEventForm, DecklistForm,
                    EventForm, NotesForm, RegistrationForm, StaffForm, uploaded)

bp = Blueprint("events", __name__)



# ----------------------------------------------------------------- helpers

@bp.before_request
def _json_bodies_are_objects_of_text():
    """Forms also read JSON bodies (Flask-WTF); anything but an object of text fields is refused here."""
    if request.method == "POST" and request.is_json:
        try:
            json_fields()
        except Refused as e:
            return refused_json(e)
    return None


def upload_of(form) -> tuple[bytes | None, str | None]:
    if not uploaded(form.upload):
        return None, None
    storage = form.upload.data
    storage.stream.seek(0)          # a retried request reads the upload again
    return storage.read(), storage.filename


@lru_cache(maxsize=4096)
def _qr_path_svg(data: str) -> str:
    """The drawn QR code of one URL. Kept per URL: drawing one is most of a player page's cost, and every
    open phone reloads its page when a round starts."""
    image = qrcode.make(data, image_factory=qrcode.image.svg.SvgPathImage)
    return image.to_string(encoding="unicode")


def qr_svg(data: str) -> Markup:
    """An inline SVG QR code (path only, no Pillow); the content is our own URL; its label in the
    reader's language (the drawing is cached, the label is not)."""
    label = escape(_("QR code of your player link"))
    return Markup(_qr_path_svg(data).replace("<svg ", f'<svg role="img" aria-label="{label}" ', 1))


def player_url(reg) -> str:
    return url_for("events.player_page", code=reg.access_code, _external=True)


def desk_query() -> str:
    """The search box's text without control characters, as the search reads it."""
    q = request.values.get("q", "")
    return ops.printable(q).strip()[:ops.MAX_SEARCH] if isinstance(q, str) else ""


def desk_row(reg, deck: dict) -> dict:
    return {"id": reg.id, "name": reg.name, "access_code": reg.access_code, "player_id": reg.player_id,
            "checked_in": reg.checked_in_at is not None, "dropped": reg.dropped_at is not None,
            "deck_status": deck["status"], "deck_errors": deck["errors"], "late": bool(reg.late),
            "notes": reg.notes or "", "bracket_flag": bracket_flag(reg.declared_bracket, deck.get("bracket"))}


def bracket_flag(declared: int | None, floor: int | None) -> str:
    """For staff at the desk: a deck whose bracket floor is above what its player declared."""
    if declared and floor and floor > declared:
        return _("bracket %(floor)s > declared %(declared)s", floor=floor, declared=declared)
    return ""


def annotate(text: str, findings: list[dict]) -> tuple[list[tuple[int, str, list[dict]]], list[dict]]:
    """The submitted list line by line, each with the findings about that line; and the findings
    that are about the whole deck (no line, or a line the text does not have)."""
    text = (text or "").replace("\r\n", "\n").replace("\r", "\n")
    if text.startswith("\ufeff"):
        text = text[1:]
    lines = text.split("\n")
    while lines and not lines[-1].strip():
        lines.pop()
    by_line: dict[int, list[dict]] = {}
    general = []
    for f in findings or []:
        n = f.get("line")
        if isinstance(n, int) and 1 <= n <= len(lines):
            by_line.setdefault(n, []).append(f)
        else:
            general.append(f)
    return [(i, line, by_line.get(i, [])) for i, line in enumerate(lines, 1)], general


def _event_in(ctx):
    return ctx.get("event") or getattr(ctx.get("reg"), "event", None)


@pass_context
def when(ctx, value, seconds: bool = False) -> str:
    """A stored time on the page's event's clock ("2026-12-05 10:30 CET"); UTC where there is no event."""
    return when_text(value, _event_in(ctx), seconds)


@pass_context
def clock_at(ctx, value) -> str:
    """A time of day on the event's clock ("10:30:15 CET")."""
    return i18n_clock_text(value, _event_in(ctx))


def who(actor: str | None) -> str:
    """An audit actor in words ("Jan Judge (judge)", "a player"), never "judge:Jan Judge"."""
    return audit.actor_words(actor or "", {})


@bp.app_context_processor
def _labels():
    return {"MODE_LABELS": MODE_LABELS, "SCORING_LABELS": SCORING_LABELS, "STATUS_LABELS": STATUS_LABELS,
            "when": when, "clock_at": clock_at, "who": who}


def ruleset_name(ruleset_id: str) -> str:
    try:
        return data_text(get_ruleset(ruleset_id).name)
    except Exception:   # an event keeps its id even if a ruleset file is gone
        return ruleset_id


# ----------------------------------------------------------------- organizer and judge pages

@bp.get("/events")
@login_required
def list_events():
    return render_template("events/list.html", events=ops.events_for(g.user))


@bp.route("/events/new", methods=["GET", "POST"])
@login_required
def new_event():
    ops.require_staff(g.user, organizer_only=True)
    form = EventForm(new=True)
    status = 200
    if form.validate_on_submit():
        try:
            event = ops.create_event(g.user, form.settings())
        except Refused as e:
            status = refuse_into(form, e)
        else:
            flash(_("Created %(name)s.", name=event.name))
            return redirect(url_for("events.dashboard", event_id=event.id))
    elif request.method == "POST":
        status = form_failed(form)
    return render_template("events/form.html", form=form, event=None), status


@bp.route("/events/<int:event_id>/edit", methods=["GET", "POST"])
@login_required
def edit_event(event_id):
    event = staff_event(event_id, organizer_only=True)
    form = EventForm()
    status = 200
    if request.method == "GET":
        form.fill(event)
    elif form.validate_on_submit():
        try:
            ops.update_event(event, g.user, form.settings())
        except Refused as e:
            status = refuse_into(form, e)
        else:
            flash(_("Settings saved."))
            return redirect(url_for("events.dashboard", event_id=event.id))
    else:
        status = form_failed(form)
    return render_template("events/form.html", form=form, event=event, copy_form=CopyEventForm()), status


@bp.post("/events/<int:event_id>/copy")
@login_required
def copy_event(event_id):
    event = staff_event(event_id, organizer_only=True)
    form = CopyEventForm()
    if not form.validate_on_submit():
        if "csrf_token" in form.errors:
            raise Refused(EXPIRED)
        raise Refused(" ".join(str(e) for errs in form.errors.values() for e in errs), field="name")
    new = ops.copy_event(event, g.user, form.name.data.strip() if form.name.data else None)
    flash(_("Copied the settings of %(name)s into a new event. Check the date and deadline.", name=event.name))
    return redirect(url_for("events.edit_event", event_id=new.id))


def _dashboard(event, late_form=None, status=200):
    regs = list(event.registrations)
    return render_template(
        "events/dashboard.html", event=event, ruleset=ruleset_name(event.ruleset),
        counters=ops.event_counters(event), registrations=regs, decks=ops.deck_overview(regs),
        late_form=late_form or RegistrationForm(formdata=None),
        can_edit=ops.may_manage(g.user, event),
        register_url=url_for("events.register", event_id=event.id, _external=True),
        deadline_passed=ops.deadline_passed(event)), status


@bp.get("/events/<int:event_id>")
@login_required
def dashboard(event_id):
    event = staff_event(event_id)
    return _dashboard(event)


@bp.post("/events/<int:event_id>/registrations")
@login_required
def late_registration(event_id):
    """Staff add a player at the desk (a late entry once the event runs)."""
    event = staff_event(event_id)
    form = RegistrationForm()
    back = "desk" if form.back.data == "desk" else "dashboard"
    if form.validate_on_submit():
        upload, filename = upload_of(form)
        try:
            reg = ops.register_player_with_file(event, form.player_data(), upload, filename, user=g.user,
                                                check_same_name=True)
        except Refused as e:
            status = refuse_into(form, e)
        else:
            # never the code itself: flashes ride in the cookie
            if reg.late:
                flash(_("Registered %(name)s (late). Their access code is on their row; print their receipt "
                        "from there.", name=reg.name))
            else:
                flash(_("Registered %(name)s. Their access code is on their row; print their receipt from there.",
                        name=reg.name))
            return redirect(url_for("events.desk", event_id=event.id, q=reg.name) if back == "desk"
                            else url_for("events.dashboard", event_id=event.id))
    else:
        status = form_failed(form)
    if back == "desk":
        return _desk(event, "", late_form=form, status=status)
    return _dashboard(event, late_form=form, status=status)


# ----------------------------------------------------------------- players (no account: the access code)

@bp.route("/events/<int:event_id>/register", methods=["GET", "POST"])
def register(event_id):
    event = ops.get_event(event_id)
    form = RegistrationForm()
    status = 200
    if form.validate_on_submit():
        upload, filename = upload_of(form)
        try:
            reg = ops.register_player_with_file(event, form.player_data(), upload, filename, check_same_name=True)
        except Refused as e:
            status = refuse_into(form, e)
        else:
            flash(_("You are registered. Keep your access code: it opens your page. Print or save the receipt."))
            return redirect(url_for("events.player_page", code=reg.access_code, welcome=1))
    elif request.method == "POST":
        status = form_failed(form)
    return render_template("players/register.html", event=event, form=form, ruleset=ruleset_name(event.ruleset),
                           deadline_passed=ops.deadline_passed(event)), status


def _player_page(reg, form=None, status=200):
    event = reg.event
    staff = ops.staff_for(g.get("user"), event)
    deck = reg.deck
    lines, general = annotate(deck.text, deck.result.get("findings", [])) if deck else ([], [])
    if form is None:
        form = DecklistForm(formdata=None)
        if deck is not None:
            form.decklist.data = deck.text
    from ..rounds.player import player_round
    locked = ops.deadline_passed(event) and staff is None
    dropped_lock = reg.dropped_at is not None and staff is None
    url = player_url(reg)
    return render_template(
        "players/player.html", reg=reg, event=event, ruleset=ruleset_name(event.ruleset), deck=deck,
        result=deck.result if deck else None, lines=lines, general=general, form=form, locked=locked,
        dropped_lock=dropped_lock, staff=staff, player_url=url, qr=qr_svg(url),
        colour_words=colour_words(deck.result.get("color_identity", [])) if deck else "",
        welcome=request.args.get("welcome") == "1", yr=player_round(reg)), status


@bp.get("/p/<code>")
@polled(ops.version_for_code)
def player_page(code):
    return _player_page(ops.registration_by_code(code))


@bp.post("/p/<code>/drop")
def player_drop(code):
    reg = ops.registration_by_code(code)
    form = ActionForm()
    if not form.validate_on_submit():
        flash(EXPIRED, "error")
        return _player_page(reg, status=400)
    try:
        ops.drop_self(reg, request.form.get("confirm") == "yes")
    except Refused as e:
        message, status = refusal(e)
        flash(message, "error")
        return _player_page(reg, status=status)
    flash(_("You have dropped from the event. If that was a mistake, talk to a judge."))
    return redirect(url_for("events.player_page", code=reg.access_code))


@bp.get("/events/<int:event_id>/log")
@staff_required
def event_log(event_id):
    """Who did what and when, in words, newest first; filter by who, what, table or player."""
    event = staff_event(event_id)
    names = {r.id: r.name for r in event.registrations}
    kind = request.args.get("kind", "") if request.args.get("kind", "") in audit.KINDS else ""
    who = ops.printable(request.args.get("who", ""))[:100]
    player = whole_number(request.args.get("player"), 9)
    player = player if player in names else None
    table = whole_number(request.args.get("table"))
    rows = audit.entries(event, names, who=who, kind=kind, table=table, player=player)
    players = sorted(names.items(), key=lambda item: name_key(item[1]))
    kinds = sorted(((k, _(k)) for k in audit.KINDS), key=lambda item: item[1])   # ?kind= stays English
    return render_template("events/log.html", event=event, rows=rows, kinds=kinds, kind=kind, who=who,
                           table=table, player=player, players=players, limit=audit.MAX_SHOWN)


@bp.route("/events/<int:event_id>/staff", methods=["GET", "POST"])
@staff_required
def staff_page(event_id):
    """The event's staff: its owner adds judges and co-organizers; only they act on this event."""
    event = staff_event(event_id, organizer_only=True)
    form, status = StaffForm(), 200
    if form.validate_on_submit():
        try:
            entry = ops.add_staff(event, g.user, form.name.data, form.role.data)
        except Refused as e:
            status = refuse_into(form, e)
        else:
            if entry.role == "judge":
                flash(_("%(name)s is on the staff as judge.", name=entry.user.name))
            else:
                flash(_("%(name)s is on the staff as co-organizer.", name=entry.user.name))
            return redirect(url_for("events.staff_page", event_id=event.id))
    elif request.method == "POST":
        status = form_failed(form)
    return render_template("events/staff.html", event=event, form=form, remove_form=ActionForm(formdata=None)), status


@bp.post("/events/<int:event_id>/staff/<int:staff_id>/remove")
@staff_required
def remove_staff(event_id, staff_id):
    event = staff_event(event_id, organizer_only=True)
    form = ActionForm()
    if not form.validate():
        raise Refused(EXPIRED)
    ops.remove_staff(event, g.user, staff_id)
    flash(_("Removed from the staff: they no longer see or run this event."))
    return redirect(url_for("events.staff_page", event_id=event.id))


@bp.get("/events/<int:event_id>/decklists")
def decklists(event_id):
    """Every player's list: staff always; everyone once the event has finished, when it publishes them."""
    event = ops.get_event(event_id)
    if ops.staff_for(g.get("user"), event) is None and not ops.decklists_public(event):
        raise NotFound(_("The decklists of this event are not public."))
    regs = sorted((r for r in event.registrations if r.deck is not None), key=lambda r: name_key(r.name))
    return render_template("events/decklists.html", event=event, regs=regs, ruleset=ruleset_name(event.ruleset))


@bp.get("/p/<code>/round")
@polled(ops.version_for_code)
def player_round_part(code):
    """Only the "Your round" box, which the open player page polls for: a round start then re-renders the
    table, the clock and the forms of 300 phones, not their deck lists and QR codes."""
    from ..rounds.player import player_round
    reg = ops.registration_by_code(code)
    return render_template("rounds/player_round_part.html", reg=reg, event=reg.event, yr=player_round(reg))


@bp.post("/p/<code>/deck")
def player_deck(code):
    reg = ops.registration_by_code(code)
    staff = ops.staff_for(g.get("user"), reg.event)
    form = DecklistForm()
    if form.validate_on_submit():
        upload, filename = upload_of(form)
        try:
            if upload is not None:
                submission = ops.submit_decklist(reg, upload, user=staff, filename=filename)
            else:
                submission = ops.submit_decklist(reg, form.decklist.data.encode("utf-8"), user=staff)
        except Refused as e:
            status = refuse_into(form, e)
        else:
            if submission.decklist.legal:
                flash(_("Decklist checked: it is legal."))
            else:
                errors = sum(1 for f in submission.result.get("findings", []) if f.get("severity") == "error")
                flash(ngettext("Decklist checked: %(num)d problem to fix. Each is shown next to its line below.",
                               "Decklist checked: %(num)d problems to fix. Each is shown next to its line below.",
                               errors), "error")
            return redirect(url_for("events.player_page", code=reg.access_code) + "#check")
    else:
        status = form_failed(form)
    return _player_page(reg, form=form, status=status)


@bp.get("/p/<code>/receipt")
def receipt(code):
    reg = ops.registration_by_code(code)
    url = player_url(reg)
    return render_template("players/receipt.html", reg=reg, event=reg.event, player_url=url, qr=qr_svg(url))


# ----------------------------------------------------------------- check-in desk

def _desk(event, query: str, late_form=None, status=200, error: str | None = None):
    results = ops.search_registrations(event, query)
    decks = ops.deck_overview(results)
    return render_template(
        "events/desk.html", event=event, query=query, results=[desk_row(r, decks[r.id]) for r in results],
        counters=ops.event_counters(event), late_form=late_form or RegistrationForm(formdata=None),
        action_form=ActionForm(formdata=None), error=error), status


@bp.get("/events/<int:event_id>/desk")
@staff_required
def desk(event_id):
    event = staff_event(event_id)
    return _desk(event, desk_query())


@bp.get("/events/<int:event_id>/desk/search")
@staff_required
def desk_search(event_id):
    try:
        event = staff_event(event_id)
    except Refused as e:
        return refused_json(e)
    results = ops.search_registrations(event, desk_query())
    decks = ops.deck_overview(results)
    return jsonify({"results": [desk_row(r, decks[r.id]) for r in results], "counters": ops.event_counters(event)})


DESK_ACTIONS = {
    "checkin": (lambda reg, user, form: ops.check_in(reg, user), _l("Checked in: %(name)s")),
    "checkin_undo": (lambda reg, user, form: ops.check_in(reg, user, undo=True), _l("Check-in undone: %(name)s")),
    "drop": (lambda reg, user, form: ops.drop(reg, user), _l("Dropped: %(name)s")),
    "drop_undo": (lambda reg, user, form: ops.drop(reg, user, undo=True), _l("Back in the event: %(name)s")),
    "notes": (lambda reg, user, form: ops.set_notes(reg, user, form.notes.data or ""), _l("Notes saved: %(name)s")),
}


def _desk_action(event_id: int, registration_id: int, action: str):
    as_json = json_request()
    try:
        event = staff_event(event_id)
        reg = ops.get_registration(event, registration_id)
    except Refused as e:
        if as_json:
            return refused_json(e)
        raise
    form_class = NotesForm if action == "notes" else ActionForm
    try:
        body = json_fields()
    except Refused as e:
        if as_json:
            return refused_json(e)
        return _desk(event, "", status=e.status, error=e.message)
    form = form_class() if body is None else form_class(formdata=body)
    query = (form.q.data or "").strip()[:ops.MAX_SEARCH]
    run, done = DESK_ACTIONS[action]
    if not form.validate_on_submit():
        text = form_error_text(form)
        if as_json:
            return json_error(text, 400, "notes" if "notes" in form.errors else None)
        return _desk(event, query, status=400, error=text)
    try:
        run(reg, g.user, form)
    except Refused as e:
        if as_json:
            return refused_json(e)
        message, status = refusal(e)
        return _desk(event, query, status=status, error=message)
    text = done % {"name": reg.name}
    if as_json:
        deck = ops.deck_overview([reg])[reg.id]
        return jsonify({"message": text, "registration": desk_row(reg, deck), "counters": ops.event_counters(event)})
    flash(text)
    return redirect(url_for("events.desk", event_id=event.id, q=query or None))


@bp.post("/events/<int:event_id>/registrations/<int:registration_id>/checkin")
@staff_required
def checkin(event_id, registration_id):
    return _desk_action(event_id, registration_id, "checkin")


@bp.post("/events/<int:event_id>/registrations/<int:registration_id>/checkin/undo")
@staff_required
def checkin_undo(event_id, registration_id):
    return _desk_action(event_id, registration_id, "checkin_undo")


@bp.post("/events/<int:event_id>/registrations/<int:registration_id>/drop")
@staff_required
def drop(event_id, registration_id):
    return _desk_action(event_id, registration_id, "drop")


@bp.post("/events/<int:event_id>/registrations/<int:registration_id>/drop/undo")
@staff_required
def drop_undo(event_id, registration_id):
    return _desk_action(event_id, registration_id, "drop_undo")


@bp.post("/events/<int:event_id>/registrations/<int:registration_id>/notes")
@staff_required
def notes(event_id, registration_id):
    return _desk_action(event_id, registration_id, "notes")
