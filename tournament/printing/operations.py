"""Load what a document prints from the database as plain data, and render it.

    pdf, filename = build_document(event, "pairings-by-table", round_number=2)
    pdf, filename = build_document(event, "rules", language="ja")

A document prints in one language: the `language` asked for (en, ja, zh_Hans, cs), else the event's
`language`, else English. Its data is built and rendered under flask_babel.force_locale, so every sentence
here is a message in that language and the documents' labels come through `DocInfo.words`; dates and
numbers are written by Babel for that language, on the event's clock. English prints exactly as before.

Refusals (unknown document or language, a round that does not exist, nothing paired yet)
raise tournament.errors.Refused / NotFound with a message for the organizer, in the organizer's language.
"""
from __future__ import annotations

from contextlib import contextmanager
from dataclasses import replace
from datetime import datetime, timezone

from babel.lists import format_list
from flask_babel import force_locale, format_date, lazy_pgettext, format_decimal, format_time, get_locale, gettext as _, ngettext

from ..decks.brackets import bracket_rules
from ..rounds.presenting import column_name, end_of_round_text as time_called_text, record_text, tiebreaker_words
from ..scoring.draws import draw_kinds
from ..swaps.operations import uses_sideboards
from ..decks.checks import COLOR_ORDER, COLOR_WORDS, TYPE_ORDER, color_words
from ..decks.messages import finding_text
from ..decks.parser import parse_decklist
from ..decks.rulesets import effective_banlist, get_ruleset
from ..errors import NotFound, Refused
from ..events.models import Event
from ..events.operations import public_base
from ..i18n import LANGUAGES, current_language, data_text, language_code, message_text
from ..rounds import operations as rounds
from ..scoring import get_profile
from ..timezones import local, local_text
from ..web import links
from . import data as d
from .base import number_text
from .data import N_
from .documents import DOCUMENTS, PrintDocument, name_key, ordinal
from .fonts import FontsMissing, register_fonts

PRIZE_PLACES = 8           # final placings printed as prize slips (the top cut's size when the event has one)

MULLIGAN = N_("Mulligan: the partial Paris mulligan. Each player draws 7. In turn order, each player may exile "
              "any number of cards from their hand face down and draw that many cards minus one; a player who "
              "exiled at least one card may do this again. When everyone keeps, the exiled cards are shuffled "
              "back into the libraries.")
WRONG_COLOUR = N_("Mana of a colour outside your general's colour identity: an effect that would make such mana "
                  "makes colourless mana instead.")

FORMAT_NAMES = {"vintage": lazy_pgettext("card format", "Vintage"),
                "commander": lazy_pgettext("card format", "Commander")}
COLOUR_NAMES = {"white": N_("white"), "blue": N_("blue"), "black": N_("black"), "red": N_("red"),
                "green": N_("green")}
PRIZE_KINDS = {"max": N_("highest value in one game"), "min": N_("lowest value in one game"),
               "sum": N_("highest total over the event"), "count": N_("most times over the event")}


# ----------------------------------------------------------------- the document's language

def document_language(event: Event, value=None) -> str:
    """The language a printout is in: `value` (en, ja, zh_Hans, cs; also ja-JP, zh-Hans ...) when given,
    else the event's language, else English. An unknown value is refused."""
    if value is not None and str(value).strip() != "":
        code = language_code(str(value))
        if code is None:
            raise Refused(_("A printout's language is one of %(choices)s, not %(value)s.",
                            choices=", ".join(LANGUAGES), value=repr(str(value)[:30])), field="lang")
        return code
    return language_code(getattr(event, "language", None)) or "en"


@contextmanager
def print_language(code: str):
    """Messages, dates and numbers in `code` while a document is built and rendered (web and CLI alike)."""
    with force_locale(code):
        yield


def _lang() -> str:
    return current_language()


def _english() -> bool:
    return _lang() == "en"


def _known(text: str) -> str:
    """A data file's text in the document's language (tournament.i18n.data_text)."""
    return data_text(text)


def _sep() -> str:
    """Between the items of a list of words or names."""
    return "、" if _lang() in ("ja", "zh_Hans") else ", "


def _and_list(items: list[str]) -> str:
    """white, blue and green: a list as the document's language writes it (Babel's list patterns)."""
    if len(items) < 2:
        return "".join(items)
    if _english():
        return ", ".join(items[:-1]) + " and " + items[-1]
    return format_list(items, locale=get_locale())


def _sentences(parts) -> str:
    """Sentences one after another (Japanese and Chinese: with no space)."""
    parts = [p for p in parts if p]
    return ("" if _lang() in ("ja", "zh_Hans") else " ").join(parts)


def _number(value) -> str:
    """A point total or a tiebreaker (0.667, 12) as the language writes numbers."""
    if _english() or isinstance(value, bool) or not isinstance(value, (int, float)):
        return number_text(value)
    return format_decimal(value, format="#,##0.###")


def _words() -> d.Words:
    return d.Words(language=_lang(), gettext=_, ngettext=ngettext, number=None if _english() else _number)


def _time_text(value, event) -> str:
    """A stored time on the event's clock: 2026-12-05 10:30 CET; in another language as Babel writes it."""
    if _english():
        return local_text(value, event)
    moment = local(value, event)
    if moment is None:
        return ""
    return (f"{format_date(moment, 'medium', rebase=False)} {format_time(moment, 'short', rebase=False)} "
            f"{moment.strftime('%Z')}")


def _stage_label(stage: str) -> str:
    if not stage.startswith("top") or not stage[3:].isdigit():
        return ""
    # TRANSLATORS: a top cut's stage beside the round, e.g. "Round 4 (top8)".
    return _("top%(size)s", size=int(stage[3:]))


def document_names() -> list[str]:
    return list(DOCUMENTS)


def document_class(slug) -> type[PrintDocument]:
    cls = DOCUMENTS.get(str(slug or ""))
    if cls is None:
        raise NotFound(_("There is no printable document %(name)s. Choose one of: %(choices)s.",
                         name=repr(str(slug)[:60]), choices=", ".join(DOCUMENTS)))
    return cls


def parse_round(value) -> int | None:
    """A round number from a query string or the command line: None when not given."""
    if value is None or value == "":
        return None
    if isinstance(value, int) and not isinstance(value, bool):
        number = value
    else:
        text = str(value).strip()
        if not text.isdigit() or len(text) > 9:
            raise Refused(_("The round must be a whole number such as 1 or 2, not %(value)s.",
                            value=repr(str(value)[:30])), field="round")
        number = int(text)
    if number < 1:
        raise Refused(_("The round must be 1 or more."), field="round")
    return number


def _info(event: Event, rnd=None, now: datetime | None = None) -> d.DocInfo:
    printed = now or datetime.now(timezone.utc)
    stage = getattr(rnd, "stage", "") or ""
    english = _english()
    return d.DocInfo(event_name=event.name, paper_size=event.paper_size or "A4",
                     round_number=rnd.number if rnd is not None else None,
                     printed_at=printed, stage=stage, zone=event.timezone or "UTC", words=_words(),
                     printed_text="" if english else _time_text(printed, event),
                     stage_label="" if english else _stage_label(stage))


def _round(event: Event, number: int | None, required: bool):
    if number is not None:
        return rounds.get_round(event, number)
    every = rounds.rounds_of(event)
    if not every:
        if required:
            raise Refused(_("No round has been paired yet: pair round 1 first, then print."), status=409)
        return None
    return every[-1]


def _tables(rnd) -> tuple[d.TableLine, ...]:
    names = {r.id: r.name for r in rnd.event.registrations}
    return tuple(d.TableLine(t.number, t.kind, tuple(d.SeatLine(s.seat, names.get(s.registration_id, "?"),
                                                                 s.registration_id) for s in t.seats),
                             t.extra_minutes or 0)
                 for t in rnd.tables)


def _profile(event: Event):
    try:
        return get_profile(event.scoring_profile)
    except Exception:     # an unknown id: print without the profile's words
        return None


def _conditions(event: Event) -> tuple[d.PrizeCondition, ...]:
    return tuple(d.PrizeCondition(str(c.get("id")), _known(str(c.get("name") or c.get("id"))),
                                  str(c.get("kind", "max")))
                 for c in (event.prize_conditions or []) if isinstance(c, dict))


def _stage_note(event: Event, rnd) -> str:
    """A pod top cut's stage: who waits, who plays (the round's own note; one stored in English only, from a round
    paired before its notes were translatable, is worded again from the round's tables)."""
    if event.mode != "pods" or not (rnd.stage or "").startswith("top"):
        return ""
    note = (rnd.why or [""])[0]
    if not isinstance(note, str):
        return message_text(note)
    if _english():
        return note
    pods = sum(1 for t in rnd.tables if t.kind == "pod")
    waiting = sum(len(t.seats) for t in rnd.tables if t.kind == "bye")
    players = waiting + sum(len(t.seats) for t in rnd.tables if t.kind == "pod")
    if players == 4 and pods == 1 and not waiting:
        return _("The final (top %(players)s): the last four play one pod; its winner wins the event.",
                 players=players)
    values = dict(players=players, waiting=waiting, first=waiting + 1, next=waiting + pods)
    if not waiting:
        return ngettext("Top %(players)s: nobody waits; seeds %(first)s-%(players)s play %(num)d pod (dealt by "
                        "seed in a snake), whose winners join them: %(next)s go on.",
                        "Top %(players)s: nobody waits; seeds %(first)s-%(players)s play %(num)d pods (dealt by "
                        "seed in a snake), whose winners join them: %(next)s go on.", pods, **values)
    if waiting == 1:
        return ngettext("Top %(players)s: seed 1 waits for the next stage; seeds %(first)s-%(players)s play "
                        "%(num)d pod (dealt by seed in a snake), whose winners join them: %(next)s go on.",
                        "Top %(players)s: seed 1 waits for the next stage; seeds %(first)s-%(players)s play "
                        "%(num)d pods (dealt by seed in a snake), whose winners join them: %(next)s go on.",
                        pods, **values)
    return ngettext("Top %(players)s: seeds 1-%(waiting)s wait for the next stage; seeds %(first)s-%(players)s "
                    "play %(num)d pod (dealt by seed in a snake), whose winners join them: %(next)s go on.",
                    "Top %(players)s: seeds 1-%(waiting)s wait for the next stage; seeds %(first)s-%(players)s "
                    "play %(num)d pods (dealt by seed in a snake), whose winners join them: %(next)s go on.",
                    pods, **values)


# ----------------------------------------------------------------- per document

def pairings_data(event: Event, rnd, now=None) -> d.PairingsData:
    return d.PairingsData(_info(event, rnd, now), event.mode, _tables(rnd), stage_note=_stage_note(event, rnd))


def slips_data(event: Event, rnd, now=None) -> d.SlipsData:
    best_of = 3
    try:
        best_of = get_ruleset(event.ruleset).best_of or 3
    except Exception:
        pass
    return d.SlipsData(_info(event, rnd, now), event.mode, _tables(rnd), _conditions(event), rounds.event_uses_votes(event),
                       max(3, best_of) if event.mode == "duel" else best_of)


def _standing_rows(event: Event, after: int | None):
    """The players who played, ranked among themselves as the standings page ranks them."""
    tables = None
    if after is not None:
        tables = [t for t in rounds._load_tables(event, finished_only=True) if t.round.number <= after]
    return rounds.shown_standings(event, tables, through=after)[0]


def standings_data(event: Event, rnd, now=None, after: int | None = None) -> d.StandingsData:
    rows = _standing_rows(event, after)
    profile = _profile(event)
    columns = tuple(rows[0].tiebreakers.keys()) if rows else ()
    votes = rounds.event_uses_votes(event) and "votes" not in columns     # a votes tiebreaker is their column already
    names = tuple(column_name(c) for c in columns)
    return d.StandingsData(
        _info(event, rnd, now), _known(getattr(profile, "name", event.scoring_profile)), columns, votes,
        tuple(d.StandingLine(r.rank, r.name, r.points, dict(r.tiebreakers), record_text(r.tally), r.votes)
              for r in rows),
        after_round=after, column_names=names,
        legend=tuple((n, tiebreaker_words().get(c, "")) for n, c in zip(names, columns)),
        winner=_cut_winner_name(event, after))


def _cut_winner_name(event: Event, after: int | None) -> str:
    """The name of the player who won the top cut's final, when the standings are printed after it."""
    published = [r for r in rounds.rounds_of(event) if r.status != "draft"]
    cut = rounds.cut_results(event, published)
    if not cut or not cut[-1]["final"] or cut[-1]["tables"][0]["winner"] is None:
        return ""
    if after is not None and after < cut[-1]["round"]:
        return ""
    winner = cut[-1]["tables"][0]["winner"]
    return next((r.name for r in event.registrations if r.id == winner), "")


def _value_text(value) -> str:
    if value is None:
        return ""
    if not _english():
        return _number(int(value) if float(value).is_integer() else value)
    return str(int(value)) if float(value).is_integer() else f"{value:g}"


def _count(value) -> int:
    """The count a plural form is chosen by (a fraction: the form for many)."""
    return int(value) if value is not None and float(value).is_integer() else 5


def _place(rank: int) -> str:
    """A final placing: 1st place (the English ordinal), or the language's own."""
    if _english():
        return f"{ordinal(rank)} place"
    # TRANSLATORS: a final placing on a prize slip; English prints "1st place", "2nd place" from its own rule.
    return _("Place %(number)s", number=rank)


def prize_data(event: Event, rnd, now=None) -> d.PrizeSlipsData:
    """Slips for the places (the top cut by how far each got, then the standings) and each prize condition."""
    played = [r for r in rounds.final_standings(event) if r.games or r.byes]
    slips = []
    places = event.top_cut or PRIZE_PLACES
    for r in played[:places]:
        # TRANSLATORS: the English says "points" also for 1; translate both forms by the count.
        detail = ngettext("%(points)s points · %(record)s", "%(points)s points · %(record)s", _count(r.points),
                          points=_value_text(r.points), record=record_text(r.tally))
        slips.append(d.PrizeSlip(_place(r.rank), r.name, detail))
    names = {r.id: r.name for r in event.registrations}
    board = rounds.prize_board(event) or {}
    for c in _conditions(event):
        for player, value in board.get(c.id) or []:
            if c.kind == "count":
                # TRANSLATORS: how many times a player met a prize condition; the English says "time(s)".
                detail = ngettext("%(value)s time(s)", "%(value)s time(s)", _count(value), value=_value_text(value))
            else:
                detail = _("value %(value)s", value=_value_text(value))
            slips.append(d.PrizeSlip(c.name, names.get(player, f"#{player}"), detail))
    return d.PrizeSlipsData(_info(event, rnd, now), tuple(slips))


def _card_types(names: list[str]) -> dict[str, str]:
    """Each name's primary card type from the card database (one query); unknown names: 'Other'."""
    try:
        from ..cards.repository import DbCardPool
        found = DbCardPool().resolve(names)
    except Exception:
        return {}
    out = {}
    for n, card in found.items():
        if card is None:
            continue
        types = card.faces[0].types if card.faces else ()
        out[n] = next((t for t in TYPE_ORDER if t in types), "Other")
    return out


def _colour_words(colours) -> str:
    """white, blue and green: a colour identity in words."""
    if _english():
        return color_words(colours)
    colours = set(colours)
    words = [COLOR_WORDS[c] for c in COLOR_ORDER if c in colours]
    if not words:
        return _("colourless")
    return _and_list([_(COLOUR_NAMES[w]) if w in COLOUR_NAMES else w for w in words])


def _summary_text(result: dict, legal: bool) -> str:
    summary = result.get("summary") or {}
    parts = [_("Legal") if legal else _("Not legal")]
    if result.get("color_identity") is not None:
        parts.append(_("colour identity %(colours)s", colours=_colour_words(result.get("color_identity") or [])))
    if summary.get("deck_size") is not None:
        # TRANSLATORS: a deck's size; the English says "cards" also for 1.
        parts.append(ngettext("%(num)d cards", "%(num)d cards", int(summary["deck_size"])))
    if (result.get("bracket") or {}).get("floor"):
        parts.append(_("bracket at least %(floor)s", floor=result["bracket"]["floor"]))
    errors = sum(1 for f in result.get("findings") or [] if f.get("severity") == "error")
    if errors:
        # TRANSLATORS: how many errors a deck check found; the English says "error(s)".
        parts.append(ngettext("%(num)d error(s)", "%(num)d error(s)", errors))
    return " · ".join(parts)


def deck_sheet(reg, ruleset_name: str) -> d.DeckSheet:
    deck = reg.deck
    if deck is None:
        return d.DeckSheet(reg.name, ruleset_name, "missing")
    parsed = parse_decklist(deck.text or "")
    result = deck.result or {}
    types = _card_types([e.name for e in parsed.main])
    groups: dict[str, list[d.CardLine]] = {}
    for e in parsed.main:
        groups.setdefault(types.get(e.name, "Other"), []).append(d.CardLine(e.count, e.name))
    order = list(TYPE_ORDER) + ["Other"]
    main = tuple((k, tuple(groups[k])) for k in order if k in groups)
    side = tuple(d.CardLine(e.count, e.name) for e in [*parsed.sideboard, *parsed.companions])
    generals = tuple(result.get("commanders") or [e.name for e in parsed.commanders])
    findings = tuple((str(f.get("severity", "")), str(finding_text(f))) for f in result.get("findings") or [])
    submitted = _time_text(deck.submitted_at, reg.event)
    return d.DeckSheet(reg.name, ruleset_name, "legal" if deck.legal else "illegal", generals, main, side,
                       _summary_text(result, deck.legal), findings, submitted,
                       main_count=sum(e.count for e in parsed.main),
                       sideboard_count=sum(c.count for c in side))


def _ruleset_name(event: Event) -> str:
    try:
        return _known(get_ruleset(event.ruleset).name)
    except Exception:
        return str(event.ruleset)


def _players(event: Event):
    return sorted(event.registrations, key=lambda r: name_key(r.name))


def decklists_data(event: Event, rnd, now=None) -> d.DecklistsData:
    name = _ruleset_name(event)
    return d.DecklistsData(_info(event, rnd, now), tuple(deck_sheet(r, name) for r in _players(event)))


def deck_check_data(event: Event, rnd, now=None) -> d.DeckCheckData:
    rows = []
    for r in _players(event):
        deck = r.deck
        if deck is None:
            rows.append(d.DeckCheckLine(r.name, "missing", "", 0, 0, _("No decklist submitted.")))
            continue
        result = deck.result or {}
        findings = result.get("findings") or []
        errors = [f for f in findings if f.get("severity") == "error"]
        warnings = [f for f in findings if f.get("severity") != "error"]
        summary = _summary_text(result, deck.legal)
        if errors:
            shown = "; ".join(str(finding_text(f)) for f in errors[:3])
            if len(errors) > 3:
                # TRANSLATORS: the first three errors of a deck check (joined by "; "), then how many more.
                shown = ngettext("%(errors)s; and %(num)d more", "%(errors)s; and %(num)d more", len(errors) - 3,
                                 errors=shown)
            summary = _("%(summary)s: %(errors)s", summary=summary, errors=shown)
        summary = _sentences_after(summary, _bracket_texts(result.get("bracket") or {}, r.declared_bracket,
                                                           said=any(f.get("code") == "BRACKET" for f in errors[:3])))
        rows.append(d.DeckCheckLine(r.name, "legal" if deck.legal else "illegal",
                                    ", ".join(result.get("commanders") or []), len(errors), len(warnings), summary))
    return d.DeckCheckData(_info(event, rnd, now), _ruleset_name(event), tuple(rows))


def _bracket_causes(bracket: dict) -> list[str]:
    """What sets the deck's bracket floor, in the document's language where the deck check stored its messages."""
    try:
        from ..decks.messages import bracket_causes, bracket_reasons
    except ImportError:           # a deck check without translatable causes: as it wrote them
        return list(bracket.get("causes") or bracket.get("reasons") or [])
    return list(bracket_causes(bracket) or bracket_reasons(bracket) or [])


def _bracket_texts(bracket: dict, declared: int | None, said: bool = False) -> list[str]:
    """What sets the deck's bracket floor (unless an error above said it), and the player's declared bracket."""
    causes = _bracket_causes(bracket)
    out = []
    if causes and not said:
        out.append(_("Bracket at least %(floor)s: %(causes)s", floor=bracket["floor"], causes="; ".join(causes)))
    if declared:
        below = causes and declared < bracket["floor"]
        out.append(_("Declared bracket %(number)s (below the floor: ask the player)", number=declared) if below
                   else _("Declared bracket %(number)s", number=declared))
    return out


def _sentences_after(summary: str, more: list[str]) -> str:
    """The summary, then more sentences: "... Bracket at least 3: ... . Declared bracket 2" (the summary's own
    full stop dropped, as before)."""
    if not more:
        return summary.rstrip(".")
    if _lang() in ("ja", "zh_Hans"):
        return summary.rstrip(".。") + "。" + "。".join(more)
    return summary.rstrip(".") + ". " + ". ".join(more)


def _deck_rules(rs, event: Event) -> list[str]:
    if rs.max_generals == 1:
        out = [_("Deck size: exactly %(size)s cards including the general.", size=rs.deck_size)]
    else:
        out = [_("Deck size: exactly %(size)s cards including the general(s).", size=rs.deck_size)]
    if rs.commander_rules == "commander":
        out.append(_("Commander: a legendary creature, a card whose text says it can be your commander, or a legal "
                     "partner / background pair."))
    else:
        out.append(_("General: one legendary creature card. A planeswalker is not eligible, nor a land that makes a "
                     "legendary creature token; a flip card is judged by its unflipped face."))
    if uses_sideboards(event):
        out.append(_("Sideboard: up to %(count)s cards, counted apart from the deck.", count=rs.sideboard_max))
    else:
        out.append(_("No sideboard."))
    if rs.singleton_includes_sideboard and rs.sideboard_max:
        out.append(_("Singleton: no two cards with the same English name (main deck and sideboard together), except "
                     "basic lands and cards whose own text allows more copies."))
    else:
        out.append(_("Singleton: no two cards with the same English name, except basic lands and cards whose own "
                     "text allows more copies."))
    out.append(_("Colour identity: every card's colour identity must be within the general's. Mana symbols in the "
                 "cost and in the rules text count, a hybrid symbol counts as all its colours, lands with a basic "
                 "land type have that colour; reminder text and the words 'Swamp', 'Forest' ... do not count."))
    out.append(_card_pool(rs))
    if rs.pool.reject_funny:
        out.append(_("Un-set (silver border) and Collector's Edition cards are not allowed."))
    if event.max_bracket:
        name = _known(bracket_rules().names.get(event.max_bracket, ""))
        out.append(_("Commander Brackets: decks up to bracket %(number)s (%(name)s). A deck's Game Changers, "
                     "extra-turn cards, mass land denial and two-card combos set its lowest bracket; the deck check "
                     "shows it with the reasons.", number=event.max_bracket, name=name))
    return out


def _card_pool(rs) -> str:
    if rs.pool.format == "commander":
        return _("Card pool: cards legal in Commander.")
    allow = [a.lower() for a in rs.pool.allow]
    extra = ", ".join(rs.pool.extra_allowed)
    name = FORMAT_NAMES.get(rs.pool.format)
    if name is None or allow not in (["legal"], ["legal", "restricted"]):      # not one of the data's pools
        also = f" {extra} is also allowed." if extra else ""
        return f"Card pool: cards {' or '.join(allow)} in {rs.pool.format.capitalize()}.{also}"   # English only
    fmt = str(name)
    if allow == ["legal"]:
        text = _("Card pool: cards legal in %(format)s.", format=fmt)
    else:
        text = _("Card pool: cards legal or restricted in %(format)s.", format=fmt)
    return _sentences([text, _("%(cards)s is also allowed.", cards=extra) if extra else ""])


def _game_rules(rs, event: Event) -> list[str]:
    out = [_(MULLIGAN),
           _("Life: each player starts at %(life)s life. A player dealt %(damage)s or more combat damage by the "
             "same general loses the game.", life=rs.starting_life, damage=rs.general_damage),
           _("When your general would go to the graveyard or exile, you may put it into the command zone instead.")]
    tax = "{%s}" % rs.general_tax_amount
    if rs.general_tax_kind == "death-counter":
        out.append(_("General tax: each time the general goes to the command zone this way it gets a death "
                     "counter; casting it from the command zone costs %(tax)s more per death counter. Cast from "
                     "hand it costs the normal amount.", tax=tax))
    else:
        out.append(_("General tax: casting the general from the command zone costs %(tax)s more for each earlier "
                     "cast from there.", tax=tax))
    out.append(_("Poison: a player with %(count)s or more poison counters loses.", count=rs.poison_threshold))
    out.append(_(WRONG_COLOUR))
    if rs.best_of and rs.best_of > 1:
        out.append(_("Matches are best of %(games)s. Between games players sideboard one for one; the general "
                     "cannot change.", games=rs.best_of))
    return out


def _swap_rule(rs, event: Event) -> str:
    if not uses_sideboards(event):
        return _("No sideboard swap: this event plays without sideboards.")
    secs = int(event.swap_seconds or 0)
    if secs <= 0:
        return _("No sideboard swap before the game: the swap window is off for this event.")
    values = dict(seconds=secs, size=rs.deck_size - 1)
    if secs % 60 == 0:
        return _("Sideboard swap: after all generals are revealed, each player has %(seconds)s seconds "
                 "(%(minutes)s minutes) to exchange cards between deck and sideboard one for one, so the deck is "
                 "again exactly %(size)s + general. The general cannot be swapped. Cards left outside may be "
                 "fetched by 'wish' cards only.", minutes=secs // 60, **values)
    return _("Sideboard swap: after all generals are revealed, each player has %(seconds)s seconds to exchange "
             "cards between deck and sideboard one for one, so the deck is again exactly %(size)s + general. The "
             "general cannot be swapped. Cards left outside may be fetched by 'wish' cards only.", **values)


def _tiebreaker_name(name: str) -> str:
    """A tiebreaker in the rules sheet's sentence ("Opp. points, then votes, then random draw"): its name as the
    standings columns say it (tiebreakers.json), lower case after the first in languages that have case."""
    return column_name(name)


def _scoring_rules(event: Event) -> tuple[str, list[str]]:
    profile = _profile(event)
    if profile is None:
        return str(event.scoring_profile), []
    out = [_known(profile.description)] if profile.description else []
    ties = [_tiebreaker_name(t) for t in profile.tiebreakers]
    ties = ties[:1] + [t[:1].lower() + t[1:] if t[:2].isalpha() and not t[:2].isupper() else t for t in ties[1:]]
    if ties:
        out.append(_("Ties are broken by: %(tiebreakers)s.", tiebreakers=_sep().join(ties)))
    if event.mode == "pods" and event.bye_points is not None:
        # TRANSLATORS: the English says "points" also for 1; translate both forms by the count.
        out.append(ngettext("A bye scores %(points)s points.", "A bye scores %(points)s points.",
                            _count(event.bye_points), points=_value_text(event.bye_points)))
    if event.mode == "pods":
        out.extend(_draw_rules(event, profile))
    return _known(profile.name), out


def _draw_rules(event: Event, profile) -> list[str]:
    """When time is called, and how a drawn game is read and scored (tournament/data/draws.json)."""
    kinds = draw_kinds()
    allowed = event.intentional_draws is not False
    lower = _lang() not in ("ja", "zh_Hans")

    def kind_name(k):
        name = _known(kinds[k]["name"])
        return name.lower() if lower else name

    names = [kind_name(k) for k in kinds if k != "intentional" or allowed]
    scored = _sep().join(f"{kind_name(k)} {_value_text(v)}" for k, v in profile.draw_kinds.items()
                       if k in kinds and (k != "intentional" or allowed))
    if scored:
        draws = _("A game with nobody or two or more players left is a draw, reported as %(kinds)s (points: "
                  "%(scored)s).", kinds=_sep().join(names), scored=scored)
    else:
        draws = _("A game with nobody or two or more players left is a draw, reported as %(kinds)s.",
                  kinds=_sep().join(names))
    return [time_called_text(event), draws,
            _("Intentional draws are allowed.") if allowed
            else _("Intentional draws are not allowed: play the game out.")]


def rules_data(event: Event, rnd, now=None) -> d.RulesData:
    rs = get_ruleset(event.ruleset)
    banlist = effective_banlist(rs.id, event.banlist_add or (), event.banlist_remove or ())
    note = ""
    if banlist.card_data_format:
        fmt = banlist.card_data_format
        fmt = str(FORMAT_NAMES[fmt]) if fmt in FORMAT_NAMES else fmt.capitalize()
        if banlist.removed:
            note = _("Also banned: every card the card data marks Banned in %(format)s, except those the organizer "
                     "took off the list.", format=fmt)
        else:
            note = _("Also banned: every card the card data marks Banned in %(format)s.", format=fmt)
    scoring_name, scoring = _scoring_rules(event)
    prizes = []
    for c in _conditions(event):
        how = _(PRIZE_KINDS[c.kind]) if c.kind in PRIZE_KINDS else c.kind
        prizes.append(_("%(name)s (%(how)s).", name=c.name, how=how))
    return d.RulesData(_info(event, rnd, now), _known(rs.name), _known(rs.source), tuple(_deck_rules(rs, event)),
                       tuple(_game_rules(rs, event)), _swap_rule(rs, event), tuple(banlist.names),
                       tuple(banlist.added), tuple(banlist.removed), note, tuple(rs.banned_as_general),
                       scoring_name, tuple(scoring), tuple(prizes))


def public_links(event: Event, endpoint: str, many: list[dict]) -> list[str]:
    """Links phones will open (QR codes on paper), from the event's address (tournament.web.links: PUBLIC_URL, the
    address set on the print page, the one found at start), never a request's Host; refused when only this
    computer (or none) could open them."""
    start = links.reachable_or_refuse(public_base(event))
    return [links.external(start, endpoint, **values) for values in many]


def poster_data(event: Event, rnd, now: datetime | None) -> d.PosterData:
    """The event's registration page as a QR code for the wall."""
    url, = public_links(event, "events.register", [{"event_id": event.id}])
    return d.PosterData(_info(event, None, now), url, event.venue or "")


def receipts_data(event: Event, rnd, now: datetime | None) -> d.ReceiptsData:
    """Every player's receipt, in name order, to hand out at the desk."""
    regs = sorted(event.registrations, key=lambda r: name_key(r.name))
    urls = public_links(event, "events.player_page", [{"code": r.access_code} for r in regs])
    return d.ReceiptsData(_info(event, None, now),
                          tuple(d.Receipt(r.name, r.access_code, url) for r, url in zip(regs, urls)))


LOADERS = {
    "poster": poster_data,
    "receipts": receipts_data,
    "pairings-by-table": pairings_data,
    "pairings-by-name": pairings_data,
    "standings": standings_data,
    "result-slips": slips_data,
    "prize-slips": prize_data,
    "decklists": decklists_data,
    "deck-check-report": deck_check_data,
    "rules": rules_data,
}


def one_table(data, table_number):
    """One table's result slip (a slip torn or spilled on): the round's slips cut down to that table."""
    number = parse_table(table_number)
    if number is None:
        return data
    if not isinstance(data, d.SlipsData):
        raise Refused(_("Only result slips are printed for one table; leave the table out."), field="table")
    tables = tuple(t for t in data.tables if t.number == number and t.kind != "bye")
    if not tables:
        raise Refused(_("Round %(round)s has no table %(table)s with a result to report.",
                        round=data.info.round_number, table=number), status=404, field="table")
    return replace(data, tables=tables)


def parse_table(value) -> int | None:
    if value is None or value == "":
        return None
    text = str(value).strip()
    if not text.isdigit() or len(text) > 6 or int(text) < 1:
        raise Refused(_("The table must be a whole number such as 1 or 12."), field="table")
    return int(text)


def load_data(event: Event, slug: str, round_number=None, now: datetime | None = None, language=None):
    """The document's data in its language (see document_language); refusals come first, in the reader's."""
    code = document_language(event, language)
    cls = document_class(slug)
    number = parse_round(round_number)
    if cls.needs_round:
        rnd = _round(event, number, required=True)
    elif cls.uses_round:
        rnd = rounds.get_round(event, number) if number is not None else None
    else:
        rnd = rounds.get_round(event, number) if number is not None else None
    if getattr(cls, "needs_public_url", False):
        public_links(event, "events.register", [{"event_id": event.id}])     # refused here, not in the print language
    with print_language(code):
        if slug == "standings":
            return standings_data(event, rnd, now, after=number)
        return LOADERS[slug](event, rnd, now)


def filename_for(event: Event, slug: str, data, table: int | None = None) -> str:
    rnd = data.info.round_number
    return (f"event-{event.id}-{slug}" + (f"-round-{rnd}" if rnd is not None and slug != "rules" else "")
            + (f"-table-{table}" if table is not None else "") + ".pdf")


def _configured_dirs():
    try:
        from flask import current_app
        return current_app.config.get("PRINT_FONT_DIRS")
    except RuntimeError:      # no app context: environment and system folders only
        return None


def build_document(event: Event, slug: str, round_number=None, now: datetime | None = None,
                   language=None, table=None) -> tuple[bytes, str]:
    """The PDF bytes and a file name; `language`: en, ja, zh_Hans or cs (default: the event's, else English);
    `table`: result slips of that table only. Refused for bad input, Refused(503) when fonts are missing."""
    data = one_table(load_data(event, slug, round_number, now, language), table)
    try:
        register_fonts(_configured_dirs())
        with print_language(data.info.words.language):
            pdf = DOCUMENTS[slug](data).render()
    except FontsMissing as e:
        raise Refused(str(e), status=503) from None
    return pdf, filename_for(event, slug, data, parse_table(table))
