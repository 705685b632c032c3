"""The "Your round" section of the player page (/p/<code>): built in the view, never in a template.

What the player may do here (report, confirm, vote) is decided by the same
policy functions the operations enforce (tournament.rounds.operations).
"""
from __future__ import annotations

import secrets
from types import SimpleNamespace

from flask import current_app, g, render_template
from flask_babel import get_locale, gettext as _
from flask_wtf.csrf import generate_csrf
from markupsafe import Markup, escape

from ..events import operations as event_ops
from . import operations as ops
from .forms import (DRAW, ConfirmForm, EndAtTimeForm, GameReportForm, PlayerDuelResultForm, PlayerPodResultForm,
                    StartGameForm, VoteForm, duel_result_form, pod_result_form)
from .presenting import actor_text, match_status, name_key, table_view, timer_info, version_parts
from ..i18n import isolate_text
from ..web import form_error_text, page_cache
from ..web.lifecycle import state_version


def player_round(reg, marked: bool = False) -> dict | None:
    """The latest published round, as this player sees it (None before the first one). Only the table's
    own players are loaded, whatever the size of the event."""
    rnd, seat = ops.current_seat(reg)
    if rnd is None:
        return None
    table = seat.table if seat is not None else None
    out = {"round": rnd, "timer": timer_info(rnd, table), "seat": seat,     # the table's own extension counts
           "error": g.get("round_error")}
    if seat is None:
        return out
    names = {s.registration_id: s.registration.name for s in table.seats}
    view = table_view(table, names)
    out.update(table=table, view=view, bye=table.kind == "bye",
               opponents=[s for s in view["seats"] if s["id"] != reg.id])
    if table.kind == "bye":
        return out
    staff = event_ops.staff_for(g.get("user"), reg.event) is not None
    votes = ops.event_uses_votes(reg.event) and table.kind == "pod"       # else the box shows no vote: not loaded
    mine = next((v.votee_id for v in table.votes if v.voter_id == reg.id), None) if votes else None
    failed = _failed_form(table)                   # before the facts: a refusal about another table is their error
    out.update(_result_facts(reg, rnd, table, names, staff), my_vote=names.get(mine) if mine else None)
    out.update(phone_forms(rnd, table, out, failed, mine))
    if out["can_report"] and out["result_form"] is None:       # marked: for a copy shared by the table (box.py)
        out["report_html"] = Markup(marked_report_form(reg, table, view)) if marked else shared_report_form(
            reg, table, view)
    out.update(_seen_result(table, names, staff))
    if table.kind == "match":
        out.update(_match_facts(reg, rnd, table, names, out))
    return out


def _seen_result(table, names, staff: bool) -> dict:
    """What a player confirms: the whole current result in words (game scores, or survivors, the order of
    elimination, prize claims, the kind of draw); in a dispute every version, who reported it and when."""
    from .operations.results import _result_snapshot
    prizes = {c["id"]: c["name"] for c in table.round.event.prize_conditions or []}
    lines = version_parts(table.kind, _result_snapshot(table), names, prizes) if table.result_state else []
    versions = []
    if table.result_state == "disputed":
        versions = [{"revision": r.revision, "by": actor_text(r.actor, names, staff_as=None if staff else _("a judge")),
                     "at": r.at, "lines": version_parts(table.kind, r.result or {}, names, prizes),
                     "current": r.revision == table.result_revision} for r in table.reports]
    return {"result_lines": lines, "versions": versions, "match_status": match_status(table, names)}


def _match_facts(reg, rnd, table, names, facts) -> dict:
    """A match game by game: the next game's buttons, ending at time, and sideboarding before the next game
    (its deadline stored on the server) with the "Start game N" button."""
    from ..swaps.operations import aware, is_open, next_sideboarding, uses_sideboards
    progress = ops.match_progress(table)
    ref = {"round": rnd.number, "table": table.number}
    nxt = progress.next_game
    reporting = facts["can_report"] and table.result_state in (None, "reported") and nxt is not None
    time_up = ops.time_is_up(table)
    w = next_sideboarding(table) if uses_sideboards(reg.event) else None
    window = None
    if w is not None:
        window = {"game": w.game, "open": is_open(w), "deadline": aware(w.deadline),
                  "form": StartGameForm(formdata=None, data={**ref, "game": w.game})}
    opponent = next((s for s in facts["opponents"]), None)
    choices = [(reg.id, _("I won game %(number)s", number=nxt))]
    if opponent is not None:
        choices.append((opponent["id"], _("%(name)s won game %(number)s", name=isolate_text(opponent["name"]), number=nxt)))
    choices.append((DRAW, _("Game %(number)s was a draw", number=nxt)))
    return {"progress": progress, "next_game": nxt, "report_game": reporting, "time_up": time_up,
            "game_form": GameReportForm(formdata=None, data={**ref, "game": nxt}), "game_choices": choices,
            "end_form": EndAtTimeForm(formdata=None, data=ref),
            "can_end_at_time": reporting and time_up and bool(progress.games) and table.result_state is None,
            "sideboarding": window, "playing": nxt if nxt and (w is None or not is_open(w)) else None}


def _failed_form(table):
    """A refused form of this request: kept when it is about this table, else only its message."""
    failed = g.get("round_form")
    if failed is not None and g.get("round_form_for") != table.id:
        g.round_error = g.get("round_error") or form_error_text(failed) or None
        return None, None
    return failed, g.get("round_form_kind")


def phone_forms(rnd, table, facts: dict, failed: tuple, mine: int | None) -> dict:
    """The confirm and vote forms when the box shows them; the result form only when this request's own refused
    one is shown again (else the box shows the table's shared copy, shared_report_form)."""
    failed, kind = failed
    ref = {"round": rnd.number, "table": table.number, "revision": table.result_revision}
    result_form = vote_form = None
    if failed is not None and kind == "result":
        result_form = failed
        result_form.revision.data = table.result_revision
    if facts["can_vote"] or (failed is not None and kind == "vote"):
        vote_form = failed if failed is not None and kind == "vote" else VoteForm(formdata=None, data=ref)
        if mine is not None and vote_form.votee.data is None:
            vote_form.votee.data = mine
        vote_form.votee.choices = [("", _("Choose a player"))] + [(s["id"], s["name"]) for s in facts["opponents"]]
    confirm_form = ConfirmForm(formdata=None, data=ref) if facts["can_confirm"] else None
    return {"result_form": result_form, "confirm_form": confirm_form, "vote_form": vote_form}


def _result_form(table):
    """The table's report form, filled with its current result (what every phone at the table starts from)."""
    rnd = table.round
    if table.kind == "match":
        form = duel_result_form(table, prefix="r", fill=True, formdata=None, base=PlayerDuelResultForm)
    else:
        form = pod_result_form(table, rnd.event.prize_conditions or [], with_votes=False, prefix="r",
                               fill=True, formdata=None, base=PlayerPodResultForm)
    form.round.data, form.table.data = rnd.number, table.number
    form.revision.data = table.result_revision
    return form


def shared_report_form(reg, table, view) -> Markup:
    """The report form of the table as HTML: rendered once per table, state and language for every phone at
    the table (the form and its template are most of a box's cost), then given this phone's access code and
    form token."""
    return Markup(for_phone(marked_report_form(reg, table, view), reg.access_code))


def marked_report_form(reg, table, view) -> str:
    """The table's report form with stand-ins for the access code and the form token (for_phone fills them).
    A key holds the table's revision, names and seats and the event's prize conditions, so a correction,
    a new result or a changed setting is never served from an older copy even within the state version's
    cache second."""
    names = tuple((s["id"], s["name"], s.get("seat")) for s in view["seats"])
    prizes = tuple(str(p) for p in (reg.event.prize_conditions or ()))      # the form's prize boxes
    key = (table.id, state_version(reg.event_id), table.result_revision, table.result_state,
           names, prizes, str(get_locale()), bool(current_app.config.get("WTF_CSRF_ENABLED", True)))
    kept = page_cache.kept("report_forms", 4096)
    html = kept.get(key)
    if html is None:
        form = _result_form(table)
        if "csrf_token" in form._fields:
            form.csrf_token.current_token = TOKEN_MARK
        html = render_template("rounds/_report_form.html", yr={"result_form": form, "table": table, "view": view},
                               reg=stand_in(reg.event))
        kept.put(key, html)
    return html


def stand_in(event):
    """The registration a table's shared copy is rendered for: its code is the stand-in for_phone replaces."""
    return SimpleNamespace(access_code=CODE_MARK, event=event, id=None, promoted_at=None, checked_in_at=None,
                           dropped_at=None)


def for_phone(html: str, code: str, code_mark: str | None = None, token_mark: str | None = None) -> str:
    """A shared copy given this phone's access code and this browser's form token (the stand-ins: this
    process's, or those of the process that drew the copy)."""
    code_mark, token_mark = code_mark or CODE_MARK, token_mark or TOKEN_MARK
    html = html.replace(code_mark, str(escape(code)))
    if token_mark in html:
        html = html.replace(token_mark, str(escape(generate_csrf())))
    return html


# stand-ins no name, code or token can contain (a fresh secret per process): replaced per phone after rendering
CODE_MARK = "c" + secrets.token_hex(12)
TOKEN_MARK = "t" + secrets.token_hex(12)


def _result_facts(reg, rnd, table, names, staff: bool) -> dict:
    open_round = rnd.status == "published"
    votes = ops.event_uses_votes(reg.event) and table.kind == "pod"
    confirmed = ops.confirmers(table) if table.result_state else set()     # nothing to confirm: not loaded
    dropped = reg.dropped_at is not None and not staff
    return {
        "error": g.get("round_error"), "open_round": open_round, "votes": votes, "dropped": dropped,
        "can_report": open_round and not dropped and ops.why_not_report(table, staff) is None,
        "can_confirm": (open_round and not dropped and table.result_state == "reported" and reg.id not in confirmed
                        and ops.why_not_confirm(table, reg.id, staff) is None),
        "confirmed_by": [names.get(i, "?") for i in sorted(confirmed, key=lambda i: name_key(names.get(i, "")))],
        "reporter": actor_text(table.result_by, names, staff_as=_("a judge")),
        "can_vote": votes and open_round and not dropped and ops.why_not_vote(table, staff) is None,
        "voted": len({v.voter_id for v in table.votes}) if votes else 0, "seated": len(table.seats),
        "votes_visible": votes and ops.votes_visible(table),
        "vote_list": [(names.get(v.voter_id, "?"), names.get(v.votee_id, "?"))
                      for v in sorted(table.votes if votes else (), key=lambda v: name_key(names.get(v.voter_id, "")))],
        "games": [("draw" if game.winner_id is None else names.get(game.winner_id, "?"))
                  for game in (table.games if table.kind == "match" else ())],
        "score": _match_score(reg, table),
    }


def _match_score(reg, table) -> str | None:
    """The player's own view of a reported match in the usual wins–losses(–draws) notation: "You won 2–1"."""
    if table.kind != "match" or not table.games or not ops.match_progress(table).over:
        return None
    mine = sum(1 for g in table.games if g.winner_id == reg.id)
    draws = sum(1 for g in table.games if g.winner_id is None)
    theirs = len(table.games) - mine - draws
    score = f"{mine}–{theirs}" + (f"–{draws}" if draws else "")
    if mine == theirs:
        return _("A draw, %(score)s", score=score)
    return _("You won %(score)s", score=score) if mine > theirs else _("You lost %(score)s", score=score)
