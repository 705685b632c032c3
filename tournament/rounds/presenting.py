"""How rounds are shown: clocks, table views, names in order, prize leaders (shared by pages and PDFs)."""
from __future__ import annotations

import json
import unicodedata
from datetime import datetime, timedelta, timezone
from functools import lru_cache
from pathlib import Path

from flask_babel import gettext as _, ngettext

from ..scoring.draws import DEFAULT_TURNS, draw_name, end_of_round_procedures
from ..scoring import UnknownScoringProfile, get_profile
from ..scoring.domain import Tally
from ..i18n import N_, data_text, isolate_text
from ..timezones import as_utc
from . import operations as ops


# How a reported version names its kind of draw (draws.json's names, lower case).
DRAWN_WORDS = {"time": N_("time called"), "intentional": N_("intentional draw"), "board": N_("draw by board state")}


def name_key(name: str) -> str:
    """Alphabetical order by the name as written, for every script (no locale needed)."""
    return unicodedata.normalize("NFKD", name or "").casefold()


def stage_text(stage: str | None) -> str:
    """A round's stage in words: "pods", "swiss", "top 8 cut" (the stored value is English already)."""
    stage = stage or ""
    if stage == "pods":
        return _("pods")
    if stage == "swiss":
        return _("swiss")
    if stage.startswith("top") and stage[3:].isdigit():
        return _("top %(size)s cut", size=int(stage[3:]))
    return stage


def round_title(rnd, event=None) -> str:
    """"Round 3", "Round 3 of 5", "Round 6 — top 4 cut": a round's heading, its stage named past the Swiss rounds
    (a cut round is past the planned ones: "Round 4 of 3" would read as a mistake)."""
    event = event if event is not None else rnd.event
    planned = event.planned_rounds if event is not None else None
    if rnd.stage not in ("pods", "swiss"):
        # TRANSLATORS: "Round 6 — top 4 cut": the stage is "top %(size)s cut" translated.
        return _("Round %(number)s — %(stage)s", number=rnd.number, stage=stage_text(rnd.stage))
    if planned:
        return _("Round %(number)s of %(planned)s", number=rnd.number, planned=planned)
    return _("Round %(number)s", number=rnd.number)


def record_text(tally: Tally | None) -> str:
    """A standings row's record, from its counts (StandingRow.tally), in the reader's language:
    "survived 3 of 4", "3-1-0 (1 intentional), 1 bye", "2-1-0"."""
    if tally is None:
        return ""
    if tally.survived is not None:
        return survived_text(tally.survived, tally.played, tally.byes)
    return games_record_text(tally.wins, tally.losses, tally.draws, tally.intentional, tally.byes)


def survived_text(survived: int, played: int, byes: int = 0) -> str:
    """A "survived" record: "survived 3 of 4", with the byes after it ("survived 3 of 4, 1 bye")."""
    if byes:
        return _("survived %(survived)s of %(played)s, %(byes)s", survived=survived, played=played,
                 byes=byes_text(byes))
    return _("survived %(survived)s of %(played)s", survived=survived, played=played)


def games_record_text(wins: int, losses: int, draws: int, intentional: int = 0, byes: int = 0) -> str:
    """A wins-losses-draws record: "3-1-0", with its intentional draws and byes after it
    ("3-1-0 (1 intentional), 1 bye"). The numbers themselves read the same in every language."""
    games = f"{wins}-{losses}-{draws}"
    if intentional:
        agreed = intentional_text(intentional)
        if byes:
            return _("%(record)s (%(intentional)s), %(byes)s", record=games, intentional=agreed,
                     byes=byes_text(byes))
        return _("%(record)s (%(intentional)s)", record=games, intentional=agreed)
    if byes:
        return _("%(record)s, %(byes)s", record=games, byes=byes_text(byes))
    return games


def byes_text(byes: int) -> str:
    """"1 bye", "2 byes"."""
    return ngettext("%(num)d bye", "%(num)d byes", byes)


def intentional_text(draws: int) -> str:
    """"1 intentional": how many of the draws were agreed on."""
    return ngettext("%(num)d intentional", "%(num)d intentional", draws)


def iso_utc(value: datetime | None) -> str:
    """A stored time as ISO 8601 in UTC (what rounds.js reads); SQLite hands back naive UTC times."""
    value = as_utc(value)
    return value.isoformat(timespec="seconds").replace("+00:00", "Z") if value else ""


def timer_info(rnd, table=None) -> dict:
    """What the page needs to show the round clock: the stored deadline (a table's own when it has an
    extension), the server's time now, and whether the clock is paused (then the time left stands)."""
    now = datetime.now(timezone.utc)
    ends = as_utc(rnd.ends_at) if rnd is not None else None
    extra = (table.extra_minutes or 0) if table is not None else 0
    if ends is not None and extra:
        ends += timedelta(minutes=extra)
    paused = as_utc(rnd.paused_at) if rnd is not None else None
    remaining = seconds_left(ends, paused, now)
    return {"ends_at": iso_utc(ends), "now": iso_utc(now), "minutes": rnd.event.round_minutes if rnd else 0,
            "started": ends is not None, "finished": rnd is not None and rnd.status == "finished",
            "remaining": remaining, "paused": paused is not None, "extra": extra,
            "after_time": end_of_round_text(rnd.event) if rnd is not None else "",
            "text": clock_text(remaining) if remaining is not None else clock_text(60 * (rnd.event.round_minutes
                                                                                      if rnd else 0))}


def seconds_left(ends: datetime | None, paused: datetime | None, now: datetime) -> int | None:
    """The round clock's seconds left: to the deadline from now, or from the pause while paused (None: the
    clock has not started)."""
    return max(0, int((ends - (paused or now)).total_seconds())) if ends else None


def end_of_round_text(event) -> str:
    """What the players do when time is called: for pods the event's end-of-round procedure
    (tournament/data/draws.json), for 1v1 the scoring profile's `time_called` (the MTR)."""
    if event.mode == "pods":
        procedures = end_of_round_procedures()
        entry = procedures.get(event.end_of_round or "finish_turn") or procedures["finish_turn"]
        return data_text(entry["text"], turns=event.end_of_round_turns or DEFAULT_TURNS)
    try:
        text = get_profile(event.scoring_profile).raw.get("time_called")
    except UnknownScoringProfile:
        text = None
    return data_text(str(text)) if text else _("Time!")


def clock_text(seconds: int) -> str:
    h, rest = divmod(max(0, seconds), 3600)
    m, s = divmod(rest, 60)
    return f"{h}:{m:02d}:{s:02d}" if h else f"{m:02d}:{s:02d}"


def prize_rows(event, names: dict[int, str], tables=None) -> list[dict]:
    """The leaders per alternate prize condition ({condition id: [(player, value)]} from scoring), to print.

    `tables`: the event's scored tables when the page has loaded them already (ops.scored_tables)."""
    board = ops.prize_board(event, tables) or {}
    rows = []
    for condition in event.prize_conditions or []:
        leaders = board.get(condition["id"]) or []
        rows.append({"id": condition["id"], "name": condition["name"], "kind": condition.get("kind", "max"),
                     "leaders": [names.get(p, f"#{p}") for p, _v in leaders],
                     "value": leaders[0][1] if leaders else None})
    return rows


TABLES_PER_PAGE = 50     # the round page of a 2,000-player event drew 500 tables with their forms: 1.5-6 s


def page_of(position: int) -> int:
    """The page (from 1) of the round page showing the table at this position (from 0) of its list."""
    return position // TABLES_PER_PAGE + 1


def table_pages(tables: list) -> list[tuple[int, int, int]]:
    """The round page's pages of these tables: (page, first table's number, last table's number)."""
    return [(page_of(i), chunk[0].number, chunk[-1].number)
            for i in range(0, len(tables), TABLES_PER_PAGE) for chunk in [tables[i:i + TABLES_PER_PAGE]]]


def on_page(tables: list, page: int) -> list:
    """The tables the round page shows on this page."""
    return tables[(page - 1) * TABLES_PER_PAGE:page * TABLES_PER_PAGE]


def page_number(asked: str | None, pages: int) -> int:
    """The page asked for in the address, within 1..pages (anything else: the first)."""
    return min(int(asked), max(1, pages)) if asked and asked.isdigit() and int(asked) >= 1 else 1


def table_view(table, names: dict[int, str]) -> dict:
    return {"number": table.number, "kind": table.kind, "table": table,
            "seats": [{"seat": s.seat, "id": s.registration_id, "name": names.get(s.registration_id, "?"),
                       "survived": s.survived, "out": s.eliminated_order} for s in table.seats]}


def result_view(table, names: dict[int, str]) -> dict:
    """Who confirmed the current result, and every reported version (a dispute shows them side by side)."""
    prizes = {c["id"]: c["name"] for c in table.round.event.prize_conditions or []}
    return {"confirmed_by": sorted((names.get(i, "?") for i in ops.confirmers(table)), key=name_key),
            "entered_by": actor_text(table.result_by, names),
            "disputed": table.result_state == "disputed", "match_status": match_status(table, names),
            "versions": [{"revision": r.revision, "by": actor_text(r.actor, names), "at": r.at, "staff": r.staff,
                          "text": version_text(table.kind, r.result or {}, names, prizes),
                          "current": r.revision == table.result_revision} for r in table.reports]}


def actor_text(actor: str | None, names: dict[int, str], staff_as: str | None = None) -> str:
    """Who an audit actor ("player:12", "judge:Jan Judge") is, in words. `staff_as`: what players are shown
    instead of a staff member's name (the player page says "a judge")."""
    actor = actor or ""
    kind, _sep, who = actor.partition(":")
    if kind == "player":
        return names.get(int(who), _("a player")) if who.isdigit() else _("a player")
    if not actor:
        return ""
    return staff_as or who or actor


def version_text(kind: str, result: dict, names: dict[int, str], prizes: dict[str, str] | None = None) -> str:
    """One reported version in words: "survived: A, B; drawn (intentional draw); Most damage: C (12)" or
    "games: A, draw". Everything a version can differ in is said, so a judge sees what a dispute is about.
    `prizes`: the event's prize conditions, id -> name."""
    if not result:
        return _("(not recorded)")
    return "; ".join(version_parts(kind, result, names, prizes))


def match_games_text(games, names: dict[int, str]) -> list[str]:
    """Each game of a match in words: "game 1: Ann won", "game 2: draw"."""
    return [_("game %(number)s: draw", number=i) if w is None else
            _("game %(number)s: %(name)s won", number=i, name=isolate_text(names.get(w, "?"))) for i, w in enumerate(games, 1)]


def version_parts(kind: str, result: dict, names: dict[int, str], prizes: dict[str, str] | None = None) -> list[str]:
    """A result's parts in words, one line each: what a player confirms (the whole result) and what a dispute
    shows side by side."""
    if kind == "match":
        games = result.get("games") or []
        parts = match_games_text(games, names) or [_("no game reported")]
        if result.get("time"):
            parts.append(_("time called: the match ended with these games"))
        return parts
    survivors = [names.get(p, "?") for p in result.get("survivors") or []]
    parts = [_("survived: %(names)s", names=", ".join(survivors) or _("nobody"))]
    if result.get("eliminated"):
        parts.append(_("out in order: %(names)s", names=", ".join(names.get(p, "?") for p in result["eliminated"])))
    kind_name = draw_name(result.get("draw"))
    if kind_name:
        words = DRAWN_WORDS.get(result["draw"])
        parts.append(_("drawn (%(kind)s)", kind=_(words) if words else kind_name.lower()))
    if result.get("archenemy"):
        parts.append(_("archenemy: %(name)s", name=names.get(result["archenemy"], "?")))
    for condition, (holder, value) in sorted((result.get("prizes") or {}).items()):
        name = (prizes or {}).get(condition, condition)
        if value is None:           # a claim without a number (a general-damage win): who holds it
            parts.append(_("%(prize)s: %(holder)s", prize=data_text(name), holder=names.get(holder, "?")))
        else:
            parts.append(_("%(prize)s: %(holder)s (%(value)s)", prize=data_text(name), holder=names.get(holder, "?"),
                           value="%g" % value if isinstance(value, (int, float)) else value))
    return parts


def match_status(table, names: dict[int, str]) -> str | None:
    """A match as it stands, in one line: "game 1: Ann won — in progress", "Ann won 2–1", "a draw at time, 1–1"."""
    if table.kind != "match":
        return None
    progress = ops.match_progress(table)
    if not progress.games:
        return None
    if not progress.over:
        return _("%(games)s — in progress", games="; ".join(match_games_text(progress.games, names)))
    a = progress.winner if progress.winner is not None else progress.players[0]
    won, lost, drawn = progress.score(a)
    score = f"{won}–{lost}" + (f"–{drawn}" if drawn else "")
    if progress.winner is None:
        return (_("a draw at time, %(score)s", score=score) if progress.decided_by == "time"
                else _("a draw, %(score)s", score=score))
    if progress.decided_by == "time":
        return _("%(name)s won %(score)s at time", name=names.get(a, "?"), score=score)
    return _("%(name)s won %(score)s", name=names.get(a, "?"), score=score)


@lru_cache(maxsize=1)
def _tiebreaker_file() -> dict:
    path = Path(__file__).resolve().parents[1] / "data" / "standings" / "tiebreakers.json"
    return json.loads(path.read_text(encoding="utf-8"))


def _tiebreaker_data() -> dict[str, str]:
    return dict(_tiebreaker_file()["tiebreakers"])


def tiebreaker_words() -> dict[str, str]:
    """What each standings column means (tournament/data/standings/tiebreakers.json), in the reader's language."""
    return {key: data_text(text) for key, text in _tiebreaker_data().items()}


def column_name(column: str) -> str:
    """A standings column's heading: the tiebreaker's name in the reader's language ("Opp. points", "Votes";
    tiebreakers.json "names"); the MTR's OMW%, GW%, OGW% and TopDeck's OWR, OOWR as printed."""
    name = _tiebreaker_file().get("names", {}).get(column)
    return data_text(name) if name else column
