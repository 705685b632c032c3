"""The event's penalties page (staff): give a penalty, see and withdraw those given; and what other pages show
of penalties (the round page, the player's page, the standings' marks), offered to their templates.

Each view declares through tournament.web.handler what its URL loads and who may use it; its body runs one
operation (tournament.penalties.operations). A refused penalty is shown on the page next to its field, with its
status, and nothing is stored.
"""
from __future__ import annotations

from flask import Blueprint, flash, redirect, render_template, request, url_for
from flask_babel import gettext as _

from ..auth.access import staff_required
from ..events import loading
from ..web import error_response, page_cache
from ..web.handler import EXPIRED, FormRefused, handler
from . import domain, operations as ops, queries
from .forms import PenaltyForm, WithdrawForm

bp = Blueprint("penalties", __name__)

EVENT = (loading.event,)


@bp.app_context_processor
def _penalties_for_pages():
    """The round page, the player's page and the standings show penalties with these."""
    return {"penalty_marks": lambda event: queries.marks(event.id),
            "penalties_of": _in_force_of,
            "round_penalties": lambda rnd: queries.given(rnd.event_id, round_number=rnd.number),
            "penalty_name": ops.penalty_name, "infraction_name": ops.infraction_name}


def _in_force_of(reg) -> list:
    """A player's penalties in force, for their page. Which players have any is read once per state version
    (a penalty given or withdrawn is a change of state): a hall's pages make no query for it."""
    if reg.id not in page_cache.per_version("penalised", reg.event_id, lambda: queries.penalised(reg.event_id)):
        return []
    return [p for p in queries.given(reg.event_id, reg.id) if p.withdrawn_at is None]


def penalty_of(rh) -> None:
    """.../penalties/<penalty_id>: rh.penalty of rh.event."""
    rh.penalty = ops.get_penalty(rh.event, rh.url["penalty_id"])


def _form(rh):
    event = rh.event
    form = PenaltyForm(event.registrations, {k: _(v) for k, v in ops.PENALTY_NAMES.items()})
    if request.method == "GET":
        form.registration_id.data = request.args.get("player", "")
        number = request.args.get("round", "")
        form.round.data = int(number) if number.isdigit() and len(number) < 5 else None
    return form


def _page(rh, status=200):
    return render_template("penalties/page.html", event=rh.event, form=rh.form,
                           penalties=queries.given(rh.event.id), infractions=domain.infractions(),
                           withdraw_form=WithdrawForm(formdata=None)), status


@bp.route("/events/<int:event_id>/penalties", methods=["GET", "POST"])
@staff_required
@handler(load=EVENT, policy=loading.staff, form=_form, refused=lambda rh, e: _page(rh, e.status))
def penalties_page(rh):
    if request.method == "GET":
        return _page(rh)
    penalty, new = ops.record(rh.event, rh.user, ops.read_input(rh.form.values()))
    if new:
        flash(_("Recorded: %(penalty)s for %(name)s (%(infraction)s).", penalty=ops.penalty_name(penalty.kind),
                name=penalty.registration.name, infraction=ops.infraction_name(penalty.infraction)), "ok")
    return redirect(url_for("penalties.penalties_page", event_id=rh.event.id) + f"#penalty-{penalty.id}")


def _withdraw_refused(rh, e):
    if isinstance(e, FormRefused) and e.expired:
        return error_response(str(EXPIRED), 400)
    return _page_with_error(rh, e)


def _page_with_error(rh, e):
    rh.form = _form(rh)
    rh.form.form_errors.append(e.message)
    return _page(rh, e.status)


@bp.post("/events/<int:event_id>/penalties/<int:penalty_id>/withdraw")
@staff_required
@handler(load=(loading.event, penalty_of), policy=loading.staff, form=lambda rh: WithdrawForm(),
         refused=_withdraw_refused)
def withdraw(rh):
    penalty = ops.withdraw(rh.event, rh.user, rh.penalty, rh.form.reason.data)
    flash(_("Withdrawn: %(penalty)s for %(name)s no longer counts.", penalty=ops.penalty_name(penalty.kind),
            name=penalty.registration.name), "ok")
    if penalty.kind == "disqualification" and penalty.registration.dropped_at is not None:
        flash(_("%(name)s stays dropped: bring them back from the desk if they play on.",
                name=penalty.registration.name), "ok")
    return redirect(url_for("penalties.penalties_page", event_id=rh.event.id) + f"#penalty-{penalty.id}")
