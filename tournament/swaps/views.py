"""Web pages for sideboard swaps: the player's swap page, staff swap logs, starting duel games 2 and 3."""
from __future__ import annotations

from flask import Blueprint, flash, g, redirect, render_template, request, url_for
from flask_babel import gettext as _

from ..auth.access import login_required
from ..errors import Refused
from ..events import operations as ops
from ..web import staff_event
from ..rounds import operations as rounds
from . import operations as swaps

bp = Blueprint("swaps", __name__)


@bp.app_context_processor
def _sideboards():
    """Pages link to the swap only where there is a sideboard to swap with."""
    return {"uses_sideboards": swaps.uses_sideboards}


def _pairs_from_form() -> list[dict]:
    outs, ins = request.form.getlist("out"), request.form.getlist("in")
    return [{"out": o, "in": i} for o, i in zip(outs, ins) if o.strip() or i.strip()]


def _ids_from_form(name: str) -> list[int]:
    try:
        return [int(v) for v in request.form.getlist(name) if v.strip()]
    except ValueError:
        raise Refused(_("Choose swaps to undo from the list."), field=name) from None


# ----------------------------------------------------------------- players

@bp.get("/p/<code>/swap")
def player_swap(code):
    reg = ops.registration_by_code(code)
    state = swaps.state(reg)
    return _render_player(reg, state)


def _render_player(reg, state, status=200):
    return render_template(
        "swaps/player.html", reg=reg, event=reg.event, state=state,
        api_url=url_for("api.player_swaps", code=reg.access_code),
        post_url=url_for("swaps.player_swap_post", code=reg.access_code)), status


@bp.post("/p/<code>/swap")
def player_swap_post(code):
    """Without JavaScript: the same all-or-nothing submission as the API."""
    reg = ops.registration_by_code(code)
    result = swaps.change_swaps(reg, _pairs_from_form(), _ids_from_form("undo"))
    if result.made or result.undone:
        flash(_("Done: %(swapped)s swapped, %(undone)s undone.", swapped=len(result.made),
                undone=len(result.undone)), "ok")
    return redirect(url_for("swaps.player_swap", code=reg.access_code))


# ----------------------------------------------------------------- staff

@bp.route("/events/<int:event_id>/players/<int:registration_id>/swaps", methods=["GET", "POST"])
@login_required
def player_log(event_id, registration_id):
    """A player's swaps and deck versions (judges); enter swaps for them, with an override reason if late."""
    event = staff_event(event_id)
    reg = ops.get_registration(event, registration_id)
    if request.method == "POST":
        game = request.form.get("game", "").strip()
        result = swaps.change_swaps(reg, _pairs_from_form(), _ids_from_form("undo"), user=g.user,
                                    game=int(game) if game.isdigit() else None,
                                    override_reason=request.form.get("override_reason") or None)
        flash(_("Entered for %(name)s: %(swapped)s swapped, %(undone)s undone.", name=reg.name,
                swapped=len(result.made), undone=len(result.undone)), "ok")
        return redirect(url_for("swaps.player_log", event_id=event.id, registration_id=reg.id))
    return render_template(
        "swaps/player_log.html", event=event, reg=reg, state=swaps.state(reg), log=swaps.swaps_of(reg),
        versions=swaps.versions_of(reg), iso=swaps.iso)


@bp.get("/events/<int:event_id>/rounds/<int:number>/tables/<int:table_number>/swaps")
@login_required
def table_log(event_id, number, table_number):
    event = staff_event(event_id)
    table = rounds.get_table(rounds.get_round(event, number), table_number)
    windows = {}
    if table.started_at is not None:
        windows = {n: swaps.window_json(swaps.window(table, n)) for n in ((1, 2, 3) if table.kind == "match" else (1,))}
    names = {s.registration_id: s.registration.name for s in table.seats}
    return render_template(
        "swaps/table_log.html", event=event, table=table, log=swaps.table_log(table), names=names,
        windows=windows, last_started=swaps.last_started_game(table) if table.kind == "match" else 1,
        iso=swaps.iso)


@bp.post("/events/<int:event_id>/rounds/<int:number>/tables/<int:table_number>/games/<int:game>/start")
@login_required
def start_game(event_id, number, table_number, game):
    event = staff_event(event_id)
    table = rounds.get_table(rounds.get_round(event, number), table_number)
    swaps.start_duel_game(table, game, user=g.user)
    flash(_("Game %(game)s at table %(table)s started; sideboarding for it is closed.", game=game,
            table=table.number), "ok")
    return redirect(url_for("swaps.table_log", event_id=event.id, number=number, table_number=table_number))

