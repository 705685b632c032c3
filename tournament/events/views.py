"""Web pages for events: the organizer's settings and dashboard, the player's page, the check-in desk.

Views are thin: each declares through tournament.web.handler what its URL
loads (tournament.events.loading), who may use it, the form it reads and how
a refusal renders; its body runs one operation and redirects (POST/redirect/
GET). A refusal is shown next to its form field with its 4xx status, and
nothing is stored.
"""
from __future__ import annotations

from functools import lru_cache
import qrcode
import qrcode.image.svg
from flask import Blueprint, flash, g, jsonify, redirect, render_template, request, url_for
from flask_babel import get_locale, gettext as _, lazy_gettext as _l, ngettext
from jinja2 import pass_context
from markupsafe import Markup, escape

from ..auth.access import login_required, staff_required
from ..decks.messages import colour_words
from ..decks.rulesets import get_ruleset
from ..i18n import clock_text as i18n_clock_text, data_text, when_text
from ..rounds.presenting import name_key
from ..errors import Refused
from ..web import EXPIRED, error_response, json_error, json_fields, json_request, links, page_cache, polled, whole_number
from ..web.handler import FormRefused, handler
from . import audit, loading, operations as ops
from .summary import settings_rows
from .forms import (MODE_LABELS, SCORING_LABELS, STATUS_LABELS, ActionForm, CopyEventForm, DecklistForm,
                    EventForm, NotesForm, RegistrationForm, RenameForm, StaffForm, uploaded)

bp = Blueprint("events", __name__)

EVENT = (loading.event,)
REGISTRATION = (loading.event, loading.registration)


# ----------------------------------------------------------------- helpers

@bp.before_request
def _json_bodies_are_objects_of_text():
    """Forms also read JSON bodies (Flask-WTF); anything but an object of text fields is refused here (as JSON:
    the request is JSON)."""
    if request.method == "POST" and request.is_json:
        json_fields()
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
    """The player's link from the event's address (tournament.web.links), never the request's Host."""
    return links.external(ops.public_base(reg.event), "events.player_page", code=reg.access_code)


def receipt_url(reg) -> str:
    """The printable receipt of this registration (for the desk's links)."""
    return url_for("events.receipt", code=reg.access_code)


def desk_query() -> str:
    """The search box's text without control characters, as the search reads it."""
    q = request.values.get("q", "")
    return ops.printable(q).strip()[:ops.MAX_SEARCH] if isinstance(q, str) else ""


def desk_row(reg, deck: dict) -> dict:
    place = ops.waitlist_place(reg)
    return {"id": reg.id, "name": reg.name, "access_code": reg.access_code, "player_id": reg.player_id,
            "checked_in": reg.checked_in_at is not None, "dropped": reg.dropped_at is not None,
            "deck_status": deck["status"], "deck_errors": deck["errors"], "late": bool(reg.late),
            "notes": reg.notes or "", "bracket_flag": bracket_flag(reg.declared_bracket, deck.get("bracket")),
            "paid": reg.paid_at is not None, "waitlisted": bool(reg.waitlisted), "waitlist_place": place,
            # desk.js shows these words as they are (the page's language)
            "waitlist_text": _("waitlist · number %(place)s", place=place) if place else "",
            "paid_text": _("paid") if reg.paid_at is not None else _("not paid"),
            "paid_button": _("Not paid") if reg.paid_at is not None else _("Mark paid"),
            "receipt_url": receipt_url(reg),
            "manage_url": url_for("events.registration_page", event_id=reg.event_id, registration_id=reg.id)}


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
    except (LookupError, ValueError, OSError):   # an event keeps its id even if a ruleset (file) is gone
        return ruleset_id


# ----------------------------------------------------------------- organizer and judge pages

@bp.get("/events")
@login_required
@handler()
def list_events(rh):
    return render_template("events/list.html", events=ops.events_for(rh.user))


def _event_form(rh):
    return EventForm(new=True) if rh.url.get("event_id") is None else EventForm()


def _event_form_page(rh, status=200):
    if getattr(rh, "event", None) is None:        # a new event
        return render_template("events/form.html", form=rh.form, event=None), status
    return render_template("events/form.html", form=rh.form, event=rh.event, copy_form=CopyEventForm(),
                           suggestion=ops.structure_suggestion(rh.event),
                           places=ops.event_counters(rh.event)), status


def _on_event_form_refused(rh, e):
    return _event_form_page(rh, e.status)


@bp.route("/events/new", methods=["GET", "POST"])
@login_required
@handler(policy=loading.organizer_account, form=_event_form, refused=_on_event_form_refused)
def new_event(rh):
    if request.method == "GET":
        return _event_form_page(rh)
    event = ops.create_event(rh.user, rh.form.settings())
    flash(_("Created %(name)s.", name=event.name))
    return redirect(url_for("events.dashboard", event_id=event.id))


@bp.route("/events/<int:event_id>/edit", methods=["GET", "POST"])
@login_required
@handler(load=EVENT, policy=loading.organizers, form=_event_form, refused=_on_event_form_refused)
def edit_event(rh):
    if request.method == "GET":
        rh.form.fill(rh.event)
        suggestion = ops.structure_suggestion(rh.event) if request.args.get("suggested") == "1" else None
        if suggestion:          # filled in, not saved: the organizer reviews and saves
            rh.form.planned_rounds.data, rh.form.top_cut.data = suggestion["rounds"], suggestion["top_cut"]
        return _event_form_page(rh)
    ops.update_event(rh.event, rh.user, rh.form.settings())
    flash(_("Settings saved."))
    return redirect(url_for("events.dashboard", event_id=rh.event.id))


def _on_copy_refused(rh, e):
    """A page message (or JSON); a name the form refused is named as the field."""
    field = "name" if isinstance(e, FormRefused) and not e.expired else e.field
    return error_response(e.message, e.status, field)


@bp.post("/events/<int:event_id>/copy")
@login_required
@handler(load=EVENT, policy=loading.organizers, form=lambda rh: CopyEventForm(), refused=_on_copy_refused)
def copy_event(rh):
    new = ops.copy_event(rh.event, rh.user, rh.form.name.data.strip() if rh.form.name.data else None)
    flash(_("Copied the settings of %(name)s into a new event. Check the date and deadline.", name=rh.event.name))
    return redirect(url_for("events.edit_event", event_id=new.id))


def _dashboard(event, late_form=None, status=200):
    regs = list(event.registrations)
    return render_template(
        "events/dashboard.html", event=event, ruleset=ruleset_name(event.ruleset),
        counters=ops.event_counters(event), registrations=regs, decks=ops.deck_overview(regs),
        late_form=late_form or RegistrationForm(formdata=None),
        can_edit=ops.may_manage(g.user, event),
        register_url=links.external(ops.public_base(event), "events.register", event_id=event.id),
        deadline_passed=ops.deadline_passed(event), more_settings=settings_rows(event)), status


@bp.get("/events/<int:event_id>")
@login_required
@handler(load=EVENT, policy=loading.staff)
def dashboard(rh):
    return _dashboard(rh.event)


def _back_to_desk(rh) -> bool:
    return rh.form is not None and rh.form.back.data == "desk"


def _on_late_registration_refused(rh, e):
    """The page the form was on (the desk or the dashboard), the form as posted with the message."""
    if _back_to_desk(rh):
        return _desk(rh.event, "", late_form=rh.form, status=e.status)
    return _dashboard(rh.event, late_form=rh.form, status=e.status)


@bp.post("/events/<int:event_id>/registrations")
@login_required
@handler(load=EVENT, policy=loading.staff, form=lambda rh: RegistrationForm(), refused=_on_late_registration_refused)
def late_registration(rh):
    """Staff add a player at the desk (a late entry once the event runs)."""
    upload, filename = upload_of(rh.form)
    reg = ops.register_player_with_file(rh.event, rh.form.player_data(), upload, filename, user=rh.user,
                                        check_same_name=True)
    # never the code itself: flashes ride in the cookie
    if reg.waitlisted:
        flash(_("The event is full: %(name)s is number %(place)s on the waitlist. Their access code is on their "
                "row; print their receipt from there.", name=reg.name, place=ops.waitlist_place(reg)))
    elif reg.late:
        flash(_("Registered %(name)s (late). Their access code is on their row; print their receipt "
                "from there.", name=reg.name))
    else:
        flash(_("Registered %(name)s. Their access code is on their row; print their receipt from there.",
                name=reg.name))
    return redirect(url_for("events.desk", event_id=rh.event.id, q=reg.name) if _back_to_desk(rh)
                    else url_for("events.dashboard", event_id=rh.event.id))


# ----------------------------------------------------------------- players (no account: the access code)

def _register_page(rh, status=200):
    event = rh.event
    return render_template("players/register.html", event=event, form=rh.form, ruleset=ruleset_name(event.ruleset),
                           deadline_passed=ops.deadline_passed(event), places_left=ops.places_left(event)), status


@bp.route("/events/<int:event_id>/register", methods=["GET", "POST"])
@handler(load=EVENT, form=lambda rh: RegistrationForm(), refused=lambda rh, e: _register_page(rh, e.status))
def register(rh):
    if request.method == "GET":
        return _register_page(rh)
    upload, filename = upload_of(rh.form)
    reg = ops.register_player_with_file(rh.event, rh.form.player_data(), upload, filename, check_same_name=True)
    if reg.waitlisted:
        flash(_("The event is full: you are number %(place)s on the waitlist. Keep your access code: your page "
                "shows when a place frees up for you. Print or save the receipt.", place=ops.waitlist_place(reg)))
    else:
        flash(_("You are registered. Keep your access code: it opens your page. Print or save the receipt."))
    return redirect(url_for("events.player_page", code=reg.access_code, welcome=1))


def _player_page(reg, form=None, status=200):
    event = reg.event
    staff = ops.staff_for(g.get("user"), event)
    deck = reg.deck
    if form is None:
        form = DecklistForm(formdata=None)
        if deck is not None:
            form.decklist.data = deck.text
    from ..rounds.box import round_box
    place = ops.waitlist_place(reg)
    locked = ops.deadline_passed(event) and staff is None
    dropped_lock = reg.dropped_at is not None and staff is None
    url = player_url(reg)
    return render_template(
        "players/player.html", reg=reg, event=event, ruleset=ruleset_name(event.ruleset), deck=deck,
        deck_check=deck_check_html(reg, deck) if deck else None, form=form, locked=locked,
        dropped_lock=dropped_lock, staff=staff, player_url=url, qr=qr_svg(url) if ops.public_base(event) else "",
        welcome=request.args.get("welcome") == "1", box=round_box(reg, place), place=place), status


def deck_check_html(reg, deck) -> Markup:
    """The deck check section: a stored list and its check never change (a new submission is a new row), so
    it is rendered once per list, language and the player's declared bracket, not on every view of the page
    (its 100 annotated lines are most of a check-in rush's rendering)."""
    event = reg.event
    key = (deck.id, str(get_locale()), reg.declared_bracket, event.timezone, event.ruleset)
    store = page_cache.kept("deck_checks", 2048)
    html = store.get(key)
    if html is None:
        lines, general = annotate(deck.text, deck.result.get("findings", []))
        html = Markup(render_template(
            "players/_deck_check.html", reg=reg, event=event, deck=deck, result=deck.result, lines=lines,
            general=general, ruleset=ruleset_name(event.ruleset),
            colour_words=colour_words(deck.result.get("color_identity", []))))
        store.put(key, html)
    return html


@bp.get("/p/<code>")
@polled(ops.version_for_code)
@handler(load=loading.player)
def player_page(rh):
    return _player_page(rh.reg)


def _on_drop_refused(rh, e):
    """The player's page with the refusal as a message at its top (a form that did not validate: it expired)."""
    flash(EXPIRED if isinstance(e, FormRefused) else e.message, "error")
    return _player_page(rh.reg, status=e.status)


@bp.post("/p/<code>/drop")
@handler(load=loading.player, form=lambda rh: ActionForm(), refused=_on_drop_refused)
def player_drop(rh):
    ops.drop_self(rh.reg, request.form.get("confirm") == "yes")
    flash(_("You have dropped from the event. If that was a mistake, talk to a judge."))
    return redirect(url_for("events.player_page", code=rh.reg.access_code))


@bp.get("/events/<int:event_id>/log")
@staff_required
@handler(load=EVENT, policy=loading.staff)
def event_log(rh):
    """Who did what and when, in words, newest first; filter by who, what, table or player."""
    event = rh.event
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


def _staff_page(rh, status=200):
    return render_template("events/staff.html", event=rh.event, form=rh.form,
                           remove_form=ActionForm(formdata=None)), status


@bp.route("/events/<int:event_id>/staff", methods=["GET", "POST"])
@staff_required
@handler(load=EVENT, policy=loading.organizers, form=lambda rh: StaffForm(),
         refused=lambda rh, e: _staff_page(rh, e.status))
def staff_page(rh):
    """The event's staff: its owner adds judges and co-organizers; only they act on this event."""
    if request.method == "GET":
        return _staff_page(rh)
    entry = ops.add_staff(rh.event, rh.user, rh.form.name.data, rh.form.role.data)
    if entry.role == "judge":
        flash(_("%(name)s is on the staff as judge.", name=entry.user.name))
    else:
        flash(_("%(name)s is on the staff as co-organizer.", name=entry.user.name))
    return redirect(url_for("events.staff_page", event_id=rh.event.id))


def _expired_or_refused(rh, e):
    """A button's form that did not validate has expired; any other refusal as itself (a page message or JSON)."""
    if isinstance(e, FormRefused):
        return error_response(EXPIRED, 400)
    return error_response(e.message, e.status, e.field)


@bp.post("/events/<int:event_id>/staff/<int:staff_id>/remove")
@staff_required
@handler(load=EVENT, policy=loading.organizers, form=lambda rh: ActionForm(), refused=_expired_or_refused)
def remove_staff(rh):
    ops.remove_staff(rh.event, rh.user, rh.url["staff_id"])
    flash(_("Removed from the staff: they no longer see or run this event."))
    return redirect(url_for("events.staff_page", event_id=rh.event.id))


@bp.get("/events/<int:event_id>/decklists")
@handler(load=EVENT, policy=loading.decklist_readers)
def decklists(rh):
    """Every player's list: staff always; everyone once the event has finished, when it publishes them."""
    event = rh.event
    regs = sorted((r for r in event.registrations if r.deck is not None), key=lambda r: name_key(r.name))
    return render_template("events/decklists.html", event=event, regs=regs, ruleset=ruleset_name(event.ruleset))


@bp.get("/p/<code>/round")
@polled(ops.version_for_code)
@handler(load=loading.player)
def player_round_part(rh):
    """Only the "Your round" box, which the open player page polls for: a round start then re-renders the
    table, the clock and the forms of 300 phones, not their deck lists and QR codes."""
    from ..rounds.box import round_box
    return render_template("rounds/player_round_part.html", reg=rh.reg, event=rh.event,
                           box=round_box(rh.reg, ops.waitlist_place(rh.reg)).html)


@bp.post("/p/<code>/deck")
@handler(load=loading.player, form=lambda rh: DecklistForm(),
         refused=lambda rh, e: _player_page(rh.reg, form=rh.form, status=e.status))
def player_deck(rh):
    reg, form = rh.reg, rh.form
    staff = ops.staff_for(rh.user, reg.event)
    upload, filename = upload_of(form)
    if upload is not None:
        submission = ops.submit_decklist(reg, upload, user=staff, filename=filename)
    else:
        submission = ops.submit_decklist(reg, form.decklist.data.encode("utf-8"), user=staff)
    if submission.decklist.legal:
        flash(_("Decklist checked: it is legal."))
    else:
        errors = sum(1 for f in submission.result.get("findings", []) if f.get("severity") == "error")
        flash(ngettext("Decklist checked: %(num)d problem to fix. Each is shown next to its line below.",
                       "Decklist checked: %(num)d problems to fix. Each is shown next to its line below.",
                       errors), "error")
    return redirect(url_for("events.player_page", code=reg.access_code) + "#check")


NO_RECEIPT_QR = _l("This receipt cannot be printed yet: the address phones open is not set, so its QR code would "
                   "lead nowhere. Your access code still opens your page; ask at the desk.")


@bp.get("/p/<code>/receipt")
@handler(load=loading.player)
def receipt(rh):
    """One player's receipt: refused like the printed receipts when its QR code could only lead to this computer
    (or nowhere), with what to do for staff, and for a player."""
    start = ops.public_base(rh.event)
    if ops.staff_for(rh.user, rh.event) is not None:
        links.reachable_or_refuse(start)
    elif not links.reachable(start):
        raise Refused(str(NO_RECEIPT_QR), status=409)
    url = player_url(rh.reg)
    return render_template("players/receipt.html", reg=rh.reg, event=rh.event, player_url=url, qr=qr_svg(url))


# ----------------------------------------------------------------- one registration at the desk: rename, new code

def _registration_page(rh, status=200, form=None):
    reg = rh.reg
    if form is None:
        form = RenameForm(formdata=None)
        form.name.data = reg.name
    return render_template("events/registration.html", event=rh.event, reg=reg, form=form,
                           action_form=ActionForm(formdata=None), receipt_url=receipt_url(reg)), status


@bp.get("/events/<int:event_id>/registrations/<int:registration_id>")
@staff_required
@handler(load=REGISTRATION, policy=loading.staff)
def registration_page(rh):
    """A player's corrections at the desk: the name, a new access code, the receipt."""
    return _registration_page(rh)


@bp.post("/events/<int:event_id>/registrations/<int:registration_id>/rename")
@staff_required
@handler(load=REGISTRATION, policy=loading.staff, form=lambda rh: RenameForm(),
         refused=lambda rh, e: _registration_page(rh, e.status, form=rh.form))
def rename(rh):
    old = rh.reg.name
    ops.rename(rh.reg, rh.user, rh.form.name.data, bool(rh.form.same_name_ok.data))
    if rh.reg.name != old:
        flash(_("Renamed %(old)s to %(new)s: pages and printouts show the new name.", old=old, new=rh.reg.name))
    return redirect(url_for("events.registration_page", event_id=rh.event.id, registration_id=rh.reg.id))


@bp.post("/events/<int:event_id>/registrations/<int:registration_id>/access-code")
@staff_required
@handler(load=REGISTRATION, policy=loading.staff, form=lambda rh: ActionForm(), refused=_expired_or_refused)
def new_code(rh):
    ops.replace_access_code(rh.reg, rh.user)
    flash(_("%(name)s has a new access code: the old one no longer opens anything. Print their new receipt and "
            "hand it over.", name=rh.reg.name))
    return redirect(url_for("events.registration_page", event_id=rh.event.id, registration_id=rh.reg.id))


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
@handler(load=EVENT, policy=loading.staff)
def desk(rh):
    return _desk(rh.event, desk_query())


@bp.get("/events/<int:event_id>/desk/search")
@staff_required
@handler(load=EVENT, policy=loading.staff)
def desk_search(rh):
    results = ops.search_registrations(rh.event, desk_query())
    decks = ops.deck_overview(results)
    return jsonify({"results": [desk_row(r, decks[r.id]) for r in results], "counters": ops.event_counters(rh.event)})


DESK_ACTIONS = {
    "checkin": (lambda reg, user, form: ops.check_in(reg, user), _l("Checked in: %(name)s")),
    "checkin_undo": (lambda reg, user, form: ops.check_in(reg, user, undo=True), _l("Check-in undone: %(name)s")),
    "drop": (lambda reg, user, form: ops.drop(reg, user), _l("Dropped: %(name)s")),
    "drop_undo": (lambda reg, user, form: ops.drop(reg, user, undo=True), _l("Back in the event: %(name)s")),
    "notes": (lambda reg, user, form: ops.set_notes(reg, user, form.notes.data or ""), _l("Notes saved: %(name)s")),
    "paid": (lambda reg, user, form: ops.mark_paid(reg, user), _l("Paid: %(name)s")),
    "paid_undo": (lambda reg, user, form: ops.mark_paid(reg, user, undo=True), _l("Not paid: %(name)s")),
}


def _desk_search_text(form) -> str:
    return (form.q.data or "").strip()[:ops.MAX_SEARCH] if form is not None else ""


def _on_desk_refused(rh, e):
    """fetch() gets {"error": ...}; a page post the desk again with the message."""
    if json_request():
        field = ("notes" if "notes" in rh.form.errors else None) if isinstance(e, FormRefused) else e.field
        return json_error(e.message, e.status, field)
    return _desk(rh.event, _desk_search_text(rh.form), status=e.status, error=e.message)


def desk_action(action: str):
    """A desk button (or the notes box) on one registration: its form from the posted fields or a fetch()'s JSON
    body; a refusal in JSON for fetch(), else on the desk page."""
    form_class = NotesForm if action == "notes" else ActionForm

    def posted_form(rh):
        body = json_fields()
        return form_class() if body is None else form_class(formdata=body)
    return handler(load=REGISTRATION, policy=loading.staff, form=posted_form, refused=_on_desk_refused)


def _desk_action(rh, action: str):
    """Run the desk action on rh.reg: JSON (the message, the row, the counters) for fetch(), else back to the
    desk with the search kept."""
    run, done = DESK_ACTIONS[action]
    run(rh.reg, rh.user, rh.form)
    text = done % {"name": rh.reg.name}
    if json_request():
        deck = ops.deck_overview([rh.reg])[rh.reg.id]
        return jsonify({"message": text, "registration": desk_row(rh.reg, deck),
                        "counters": ops.event_counters(rh.event)})
    flash(text)
    return redirect(url_for("events.desk", event_id=rh.event.id, q=_desk_search_text(rh.form) or None))


@bp.post("/events/<int:event_id>/registrations/<int:registration_id>/checkin")
@staff_required
@desk_action("checkin")
def checkin(rh):
    return _desk_action(rh, "checkin")


@bp.post("/events/<int:event_id>/registrations/<int:registration_id>/checkin/undo")
@staff_required
@desk_action("checkin_undo")
def checkin_undo(rh):
    return _desk_action(rh, "checkin_undo")


@bp.post("/events/<int:event_id>/registrations/<int:registration_id>/drop")
@staff_required
@desk_action("drop")
def drop(rh):
    return _desk_action(rh, "drop")


@bp.post("/events/<int:event_id>/registrations/<int:registration_id>/drop/undo")
@staff_required
@desk_action("drop_undo")
def drop_undo(rh):
    return _desk_action(rh, "drop_undo")


@bp.post("/events/<int:event_id>/registrations/<int:registration_id>/notes")
@staff_required
@desk_action("notes")
def notes(rh):
    return _desk_action(rh, "notes")


@bp.post("/events/<int:event_id>/registrations/<int:registration_id>/paid")
@staff_required
@desk_action("paid")
def paid(rh):
    return _desk_action(rh, "paid")


@bp.post("/events/<int:event_id>/registrations/<int:registration_id>/paid/undo")
@staff_required
@desk_action("paid_undo")
def paid_undo(rh):
    return _desk_action(rh, "paid_undo")
