"""The dashboard's settings summary past the basics: every setting of the event in words, as the settings form
names it (its labels and choices), so the organizer sees at a glance what the event will do."""
from __future__ import annotations

from flask_babel import gettext as _, ngettext

from ..i18n import data_text
from ..rounds.presenting import column_name
from ..scoring import UnknownScoringProfile, get_profile
from .forms import EventForm


def _choice(form: EventForm, name: str, value) -> str:
    field = getattr(form, name)
    for choice in field.choices:
        if str(choice.value) == str(value):
            return str(choice.label)
    return str(value)


def _label(form: EventForm, name: str) -> str:
    return str(getattr(form, name).label.text)


def _yes_no(value) -> str:
    return _("yes") if value else _("no")


def _tiebreakers(event) -> str:
    try:
        ties = get_profile(event.scoring_profile).tiebreakers
    except UnknownScoringProfile:
        return ""
    return ", ".join(column_name(t) for t in ties)


def _pods_rows(form: EventForm, event) -> list[tuple[str, str, str]]:
    rows = [("leftover", _label(form, "leftover_policy"), _choice(form, "leftover_policy", event.leftover_policy)),
            ("odd-pods", _label(form, "odd_pods"), _choice(form, "odd_pods", event.odd_pods)),
            ("bye-points", _label(form, "bye_points"),
             str(event.bye_points if event.bye_points is not None else _("the scoring profile's"))),
            ("end-of-round", _label(form, "end_of_round"), _choice(form, "end_of_round", event.end_of_round)
             + (f" ({event.end_of_round_turns})" if event.end_of_round_turns else "")),
            ("intentional-draws", _label(form, "intentional_draws"), _yes_no(event.intentional_draws)),
            ("bracket-pods", _label(form, "bracket_pods"), _yes_no(event.bracket_pods))]
    if event.top_cut:
        rows += [("cut-seating", _label(form, "cut_seating"), _choice(form, "cut_seating", event.cut_seating)),
                 ("cut-draw", _label(form, "cut_draw"), _choice(form, "cut_draw", event.cut_draw)),
                 ("cut-deal", _label(form, "cut_deal"), _choice(form, "cut_deal", event.cut_deal))]
    if event.scoring_profile == "democratic":
        rows.append(("hide-votes", _label(form, "hide_votes"), _yes_no(event.hide_votes)))
    return rows


def settings_rows(event) -> list[tuple[str, str, str]]:
    """(id, label, value) for each setting the summary's first lines do not show."""
    form = EventForm(formdata=None)
    rows = [("tiebreakers", _("Tiebreakers"), _tiebreakers(event) or _("none")),
            ("planned-rounds", _label(form, "planned_rounds"),
             str(event.planned_rounds) if event.planned_rounds else _("decided as the event goes")),
            ("top-cut", _label(form, "top_cut"), _choice(form, "top_cut", event.top_cut or 0))]
    if event.mode == "pods":
        rows += _pods_rows(form, event)
    else:
        rows.append(("sideboard-minutes", _label(form, "sideboard_minutes"),
                     ngettext("%(num)d minute", "%(num)d minutes", event.sideboard_minutes or 3)))
    rows += [("max-bracket", _label(form, "max_bracket"), _choice(form, "max_bracket", event.max_bracket or "")),
             ("variant", _label(form, "variant"), _choice(form, "variant", event.variant or "none")),
             ("prizes", _label(form, "prize_conditions"),
              ", ".join(data_text(c.get("name", "")) for c in (event.prize_conditions or [])) or _("none")),
             ("publish-decklists", _label(form, "publish_decklists"),
              _yes_no(event.publish_decklists)),
             ("timezone", _label(form, "timezone"), event.timezone or "UTC")]
    return rows
