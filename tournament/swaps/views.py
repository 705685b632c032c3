"""Web pages for sideboard swaps: the player's swap page, staff swap logs, starting duel games 2 and 3.

Each view declares through tournament.web.handler what its URL loads and who may use it; its body runs one
operation (tournament.swaps.operations). A refused swap is the app's page message (or JSON) with its status, and
nothing is stored.
"""
from __future__ import annotations

from flask import Blueprint, flash, redirect, render_template, request, url_for
from flask_babel import gettext as _

from ..auth.access import login_required
from ..errors import Refused
from ..events import loading
from ..rounds.forms import StartGameForm
from ..rounds.views import TABLE, _on_player_game_refused, _match_table, _player_done
from ..web.handler import handler
from . import operations as swaps

bp = Blueprint("swaps", __name__)

PLAYER = (loading.event, loading.registration)


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
@handler(load=loading.player)
def player_swap(rh):
    return _render_player(rh.reg, swaps.state(rh.reg))


def _render_player(reg, state, status=200):
    return render_template(
        "swaps/player.html", reg=reg, event=reg.event, state=state,
        api_url=url_for("api.player_swaps", code=reg.access_code),
        post_url=url_for("swaps.player_swap_post", code=reg.access_code)), status


@bp.post("/p/<code>/swap")
@handler(load=loading.player)
def player_swap_post(rh):
    """Without JavaScript: the same all-or-nothing submission as the API."""
    result = swaps.change_swaps(rh.reg, _pairs_from_form(), _ids_from_form("undo"))
    if result.made or result.undone:
        flash(_("Done: %(swapped)s swapped, %(undone)s undone.", swapped=len(result.made),
                undone=len(result.undone)), "ok")
    return redirect(url_for("swaps.player_swap", code=rh.reg.access_code))


# ----------------------------------------------------------------- staff

@bp.route("/events/<int:event_id>/players/<int:registration_id>/swaps", methods=["GET", "POST"])
@login_required
@handler(load=PLAYER, policy=loading.staff)
def player_log(rh):
    """A player's swaps and deck versions (judges); enter swaps for them, with an override reason if late."""
    event, reg = rh.event, rh.reg
    if request.method == "POST":
        game = request.form.get("game", "").strip()
        result = swaps.change_swaps(reg, _pairs_from_form(), _ids_from_form("undo"), user=rh.user,
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
@handler(load=TABLE, policy=loading.staff)
def table_log(rh):
    event, table = rh.event, rh.table
    windows = {}
    if table.started_at is not None:
        windows = {n: swaps.window_json(swaps.window(table, n)) for n in ((1, 2, 3) if table.kind == "match" else (1,))}
    names = {s.registration_id: s.registration.name for s in table.seats}
    return render_template(
        "swaps/table_log.html", event=event, table=table, log=swaps.table_log(table), names=names,
        windows=windows, last_started=swaps.last_started_game(table) if table.kind == "match" else 1,
        startable=swaps.next_sideboarding(table) if table.kind == "match" else None,
        iso=swaps.iso)


@bp.post("/events/<int:event_id>/rounds/<int:number>/tables/<int:table_number>/games/<int:game>/start")
@login_required
@handler(load=TABLE, policy=loading.staff)
def start_game(rh):
    game, table = rh.url["game"], rh.table
    swaps.start_duel_game(table, game, user=rh.user)
    flash(_("Game %(game)s at table %(table)s started; sideboarding for it is closed.", game=game,
            table=table.number), "ok")
    return redirect(url_for("swaps.table_log", event_id=rh.event.id, number=rh.round.number,
                            table_number=table.number))


@bp.post("/p/<code>/start-game")
@handler(load=loading.player, form=lambda rh: StartGameForm(), refused=_on_player_game_refused)
def player_start_game(rh):
    """Either player taps "Start game N": sideboarding for it closes for both."""
    _match_table(rh)
    game = rh.form.game.data
    swaps.start_duel_game(rh.table, game, reg=rh.reg)
    return _player_done(rh, _("Game %(game)s has started: good luck!", game=game))
