"""Load what a document prints from the database as plain data, and render it.

    pdf, filename = build_document(event, "pairings-by-table", round_number=2)

Refusals (unknown document, a round that does not exist, nothing paired yet)
raise tournament.errors.Refused / NotFound with a message for the organizer.
"""
from __future__ import annotations

from datetime import datetime, timezone

from ..decks.brackets import bracket_rules
from ..scoring.draws import draw_kinds, end_of_round_text
from ..decks.checks import TYPE_ORDER, color_words
from ..decks.parser import parse_decklist
from ..decks.rulesets import effective_banlist, get_ruleset
from ..errors import NotFound, Refused
from ..events.models import Event
from ..rounds import operations as rounds
from ..scoring import get_profile
from ..timezones import local_text
from . import data as d
from .documents import DOCUMENTS, PrintDocument, name_key, ordinal
from .fonts import FontsMissing, register_fonts

PRIZE_PLACES = 8           # final placings printed as prize slips (the top cut's size when the event has one)

MULLIGAN = ("Mulligan: the partial Paris mulligan. Each player draws 7. In turn order, each player may exile any "
            "number of cards from their hand face down and draw that many cards minus one; a player who exiled "
            "at least one card may do this again. When everyone keeps, the exiled cards are shuffled back into "
            "the libraries.")
WRONG_COLOUR = ("Mana of a colour outside your general's colour identity: an effect that would make such mana "
                "makes colourless mana instead.")


def document_names() -> list[str]:
    return list(DOCUMENTS)


def document_class(slug) -> type[PrintDocument]:
    cls = DOCUMENTS.get(str(slug or ""))
    if cls is None:
        raise NotFound(f"There is no printable document {str(slug)[:60]!r}. Choose one of: "
                       + ", ".join(DOCUMENTS) + ".")
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
            raise Refused(f"The round must be a whole number such as 1 or 2, not {str(value)[:30]!r}.",
                          field="round")
        number = int(text)
    if number < 1:
        raise Refused("The round must be 1 or more.", field="round")
    return number


def _info(event: Event, rnd=None, now: datetime | None = None) -> d.DocInfo:
    return d.DocInfo(event_name=event.name, paper_size=event.paper_size or "A4",
                     round_number=rnd.number if rnd is not None else None,
                     printed_at=now or datetime.now(timezone.utc), stage=getattr(rnd, "stage", "") or "",
                     zone=event.timezone or "UTC")


def _round(event: Event, number: int | None, required: bool):
    if number is not None:
        return rounds.get_round(event, number)
    every = rounds.rounds_of(event)
    if not every:
        if required:
            raise Refused("No round has been paired yet: pair round 1 first, then print.", status=409)
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
    return tuple(d.PrizeCondition(str(c.get("id")), str(c.get("name") or c.get("id")), str(c.get("kind", "max")))
                 for c in (event.prize_conditions or []) if isinstance(c, dict))


# ----------------------------------------------------------------- per document

def pairings_data(event: Event, rnd, now=None) -> d.PairingsData:
    note = (rnd.why or [""])[0] if event.mode == "pods" and (rnd.stage or "").startswith("top") else ""
    return d.PairingsData(_info(event, rnd, now), event.mode, _tables(rnd), stage_note=note)


def slips_data(event: Event, rnd, now=None) -> d.SlipsData:
    best_of = 3
    try:
        best_of = get_ruleset(event.ruleset).best_of or 3
    except Exception:
        pass
    return d.SlipsData(_info(event, rnd, now), event.mode, _tables(rnd), _conditions(event), rounds.event_uses_votes(event),
                       max(3, best_of) if event.mode == "duel" else best_of)


def _standing_rows(event: Event, after: int | None):
    tables = None
    if after is not None:
        tables = [t for t in rounds._load_tables(event, finished_only=True) if t.round.number <= after]
    return rounds.standings(event, tables)


def standings_data(event: Event, rnd, now=None, after: int | None = None) -> d.StandingsData:
    rows = _standing_rows(event, after)
    profile = _profile(event)
    columns = tuple(rows[0].tiebreakers.keys()) if rows else ()
    votes = rounds.event_uses_votes(event)
    return d.StandingsData(
        _info(event, rnd, now), getattr(profile, "name", event.scoring_profile), columns, votes,
        tuple(d.StandingLine(r.rank, r.name, r.points, dict(r.tiebreakers), r.record, r.votes) for r in rows),
        after_round=after)


def _value_text(value) -> str:
    if value is None:
        return ""
    return str(int(value)) if float(value).is_integer() else f"{value:g}"


def prize_data(event: Event, rnd, now=None) -> d.PrizeSlipsData:
    rows = _standing_rows(event, None)
    played = [r for r in rows if r.games or r.byes]
    slips = []
    places = event.top_cut or PRIZE_PLACES
    for r in played[:places]:
        slips.append(d.PrizeSlip(f"{ordinal(r.rank)} place", r.name,
                                 f"{_value_text(r.points)} points · {r.record}"))
    names = {r.id: r.name for r in event.registrations}
    board = rounds.prize_board(event) or {}
    for c in _conditions(event):
        for player, value in board.get(c.id) or []:
            detail = (f"{_value_text(value)} time(s)" if c.kind == "count" else f"value {_value_text(value)}")
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


def _summary_text(result: dict, legal: bool) -> str:
    summary = result.get("summary") or {}
    parts = ["Legal" if legal else "Not legal"]
    if result.get("color_identity") is not None:
        parts.append("colour identity " + color_words(result.get("color_identity") or []))
    if summary.get("deck_size") is not None:
        parts.append(f"{summary['deck_size']} cards")
    if (result.get("bracket") or {}).get("floor"):
        parts.append(f"bracket at least {result['bracket']['floor']}")
    errors = sum(1 for f in result.get("findings") or [] if f.get("severity") == "error")
    if errors:
        parts.append(f"{errors} error(s)")
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
    findings = tuple((str(f.get("severity", "")), str(f.get("message", ""))) for f in result.get("findings") or [])
    submitted = local_text(deck.submitted_at, reg.event)
    return d.DeckSheet(reg.name, ruleset_name, "legal" if deck.legal else "illegal", generals, main, side,
                       _summary_text(result, deck.legal), findings, submitted,
                       main_count=sum(e.count for e in parsed.main),
                       sideboard_count=sum(c.count for c in side))


def _ruleset_name(event: Event) -> str:
    try:
        return get_ruleset(event.ruleset).name
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
            rows.append(d.DeckCheckLine(r.name, "missing", "", 0, 0, "No decklist submitted."))
            continue
        result = deck.result or {}
        findings = result.get("findings") or []
        errors = [f for f in findings if f.get("severity") == "error"]
        warnings = [f for f in findings if f.get("severity") != "error"]
        summary = _summary_text(result, deck.legal)
        if errors:
            summary += ": " + "; ".join(str(f.get("message", "")) for f in errors[:3])
            if len(errors) > 3:
                summary += f"; and {len(errors) - 3} more"
        summary = summary.rstrip(".") + _bracket_text(result.get("bracket") or {}, r.declared_bracket,
                                                      said=any(f.get("code") == "BRACKET" for f in errors[:3]))
        rows.append(d.DeckCheckLine(r.name, "legal" if deck.legal else "illegal",
                                    ", ".join(result.get("commanders") or []), len(errors), len(warnings), summary))
    return d.DeckCheckData(_info(event, rnd, now), _ruleset_name(event), tuple(rows))


def _bracket_text(bracket: dict, declared: int | None, said: bool = False) -> str:
    """What sets the deck's bracket floor (unless an error above said it), and the player's declared bracket."""
    causes = bracket.get("causes") or bracket.get("reasons") or []
    text = f". Bracket at least {bracket['floor']}: " + "; ".join(causes) if causes and not said else ""
    if declared:
        below = causes and declared < bracket["floor"]
        text += f". Declared bracket {declared}" + (" (below the floor: ask the player)" if below else "")
    return text


def _deck_rules(rs, event: Event) -> list[str]:
    generals = "general" if rs.max_generals == 1 else "general(s)"
    out = [f"Deck size: exactly {rs.deck_size} cards including the {generals}."]
    if rs.commander_rules == "commander":
        out.append("Commander: a legendary creature, a card whose text says it can be your commander, or a legal "
                   "partner / background pair.")
    else:
        out.append("General: one legendary creature card. A planeswalker is not eligible, nor a land that makes a "
                   "legendary creature token; a flip card is judged by its unflipped face.")
    if rs.sideboard_max and event.sideboard_enabled:
        out.append(f"Sideboard: up to {rs.sideboard_max} cards, counted apart from the deck.")
    else:
        out.append("No sideboard.")
    together = " (main deck and sideboard together)" if rs.singleton_includes_sideboard and rs.sideboard_max else ""
    out.append(f"Singleton: no two cards with the same English name{together}, except basic lands and cards "
               "whose own text allows more copies.")
    out.append("Colour identity: every card's colour identity must be within the general's. Mana symbols in the "
               "cost and in the rules text count, a hybrid symbol counts as all its colours, lands with a basic "
               "land type have that colour; reminder text and the words 'Swamp', 'Forest' ... do not count.")
    if rs.pool.format == "commander":
        out.append("Card pool: cards legal in Commander.")
    else:
        allowed = " or ".join(a.lower() for a in rs.pool.allow)
        extra = f" {', '.join(rs.pool.extra_allowed)} is also allowed." if rs.pool.extra_allowed else ""
        out.append(f"Card pool: cards {allowed} in {rs.pool.format.capitalize()}.{extra}")
    if rs.pool.reject_funny:
        out.append("Un-set (silver border) and Collector's Edition cards are not allowed.")
    if event.max_bracket:
        name = bracket_rules().names.get(event.max_bracket, "")
        out.append(f"Commander Brackets: decks up to bracket {event.max_bracket} ({name}). A deck's Game Changers, "
                   "extra-turn cards, mass land denial and two-card combos set its lowest bracket; the deck check "
                   "shows it with the reasons.")
    return out


def _game_rules(rs, event: Event) -> list[str]:
    out = [MULLIGAN,
           f"Life: each player starts at {rs.starting_life} life. A player dealt {rs.general_damage} or more "
           f"combat damage by the same general loses the game.",
           "When your general would go to the graveyard or exile, you may put it into the command zone instead."]
    if rs.general_tax_kind == "death-counter":
        out.append(f"General tax: each time the general goes to the command zone this way it gets a death "
                   f"counter; casting it from the command zone costs {{{rs.general_tax_amount}}} more per death "
                   f"counter. Cast from hand it costs the normal amount.")
    else:
        out.append(f"General tax: casting the general from the command zone costs {{{rs.general_tax_amount}}} "
                   f"more for each earlier cast from there.")
    out.append(f"Poison: a player with {rs.poison_threshold} or more poison counters loses.")
    out.append(WRONG_COLOUR)
    if rs.best_of and rs.best_of > 1:
        out.append(f"Matches are best of {rs.best_of}. Between games players sideboard one for one; the general "
                   f"cannot change.")
    return out


def _swap_rule(rs, event: Event) -> str:
    if not (rs.sideboard_max and event.sideboard_enabled):
        return "No sideboard swap: this event plays without sideboards."
    secs = int(event.swap_seconds or 0)
    if secs <= 0:
        return "No sideboard swap before the game: the swap window is off for this event."
    minutes = f" ({secs // 60} minutes)" if secs % 60 == 0 else ""
    return (f"Sideboard swap: after all generals are revealed, each player has {secs} seconds{minutes} to "
            f"exchange cards between deck and sideboard one for one, so the deck is again exactly "
            f"{rs.deck_size - 1} + general. The general cannot be swapped. Cards left outside may be fetched "
            f"by 'wish' cards only.")


def _scoring_rules(event: Event) -> tuple[str, list[str]]:
    profile = _profile(event)
    if profile is None:
        return str(event.scoring_profile), []
    out = [profile.description] if profile.description else []
    ties = [t for t in profile.tiebreakers]
    if ties:
        out.append("Ties are broken by: " + ", ".join(ties) + ".")
    if event.mode == "pods" and event.bye_points is not None:
        out.append(f"A bye scores {_value_text(event.bye_points)} points.")
    if event.mode == "pods":
        out.extend(_draw_rules(event, profile))
    return profile.name, out


def _draw_rules(event: Event, profile) -> list[str]:
    """When time is called, and how a drawn game is read and scored (tournament/data/draws.json)."""
    kinds = draw_kinds()
    allowed = event.intentional_draws is not False
    names = [v["name"].lower() for k, v in kinds.items() if k != "intentional" or allowed]
    scored = ", ".join(f"{kinds[k]['name'].lower()} {_value_text(v)}" for k, v in profile.draw_kinds.items()
                       if k in kinds and (k != "intentional" or allowed))
    return [end_of_round_text(event.end_of_round, event.end_of_round_turns),
            "A game with nobody or two or more players left is a draw, reported as " + ", ".join(names)
            + (f" (points: {scored})." if scored else "."),
            "Intentional draws are allowed." if allowed else "Intentional draws are not allowed: play the game out."]


def rules_data(event: Event, rnd, now=None) -> d.RulesData:
    rs = get_ruleset(event.ruleset)
    banlist = effective_banlist(rs.id, event.banlist_add or (), event.banlist_remove or ())
    note = ""
    if banlist.card_data_format:
        note = (f"Also banned: every card the card data marks Banned in {banlist.card_data_format.capitalize()}"
                + (", except those the organizer took off the list." if banlist.removed else "."))
    scoring_name, scoring = _scoring_rules(event)
    prizes = []
    for c in _conditions(event):
        how = {"max": "highest value in one game", "min": "lowest value in one game",
               "sum": "highest total over the event", "count": "most times over the event"}.get(c.kind, c.kind)
        prizes.append(f"{c.name} ({how}).")
    return d.RulesData(_info(event, rnd, now), rs.name, rs.source, tuple(_deck_rules(rs, event)),
                       tuple(_game_rules(rs, event)), _swap_rule(rs, event), tuple(banlist.names),
                       tuple(banlist.added), tuple(banlist.removed), note, tuple(rs.banned_as_general),
                       scoring_name, tuple(scoring), tuple(prizes))


def public_links(endpoint: str, many: list[dict]) -> list[str]:
    """Links phones will open (QR codes on paper), from PUBLIC_URL, the laptop's LAN address; refused when
    only this computer could open them."""
    from flask import current_app, has_request_context, url_for
    public = current_app.config.get("PUBLIC_URL")
    if has_request_context():
        urls = [url_for(endpoint, _external=True, **values) for values in many]
    elif public:                                    # `flask print`: no request, the configured address
        with current_app.test_request_context(base_url=public):
            urls = [url_for(endpoint, _external=True, **values) for values in many]
    else:
        raise Refused("QR codes on paper need the address phones open: start with --lan or set PUBLIC_URL "
                      "(e.g. http://192.168.1.20:5000).", status=409)
    if urls and urls[0].startswith(("http://127.", "http://localhost", "https://127.", "https://localhost")):
        raise Refused(f"The QR codes would point at {urls[0]}, which only this computer can open: start with "
                      f"--lan or set PUBLIC_URL to the address phones use.", status=409)
    return urls


def poster_data(event: Event, rnd, now: datetime | None) -> d.PosterData:
    """The event's registration page as a QR code for the wall."""
    url, = public_links("events.register", [{"event_id": event.id}])
    return d.PosterData(_info(event, None, now), url, event.venue or "")


def receipts_data(event: Event, rnd, now: datetime | None) -> d.ReceiptsData:
    """Every player's receipt, in name order, to hand out at the desk."""
    regs = sorted(event.registrations, key=lambda r: name_key(r.name))
    urls = public_links("events.player_page", [{"code": r.access_code} for r in regs])
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


def load_data(event: Event, slug: str, round_number=None, now: datetime | None = None):
    cls = document_class(slug)
    number = parse_round(round_number)
    if cls.needs_round:
        rnd = _round(event, number, required=True)
    elif cls.uses_round:
        rnd = rounds.get_round(event, number) if number is not None else None
    else:
        rnd = rounds.get_round(event, number) if number is not None else None
    if slug == "standings":
        return standings_data(event, rnd, now, after=number)
    return LOADERS[slug](event, rnd, now)


def filename_for(event: Event, slug: str, data) -> str:
    rnd = data.info.round_number
    return f"event-{event.id}-{slug}" + (f"-round-{rnd}" if rnd is not None and slug != "rules" else "") + ".pdf"


def _configured_dirs():
    try:
        from flask import current_app
        return current_app.config.get("PRINT_FONT_DIRS")
    except RuntimeError:      # no app context: environment and system folders only
        return None


def build_document(event: Event, slug: str, round_number=None, now: datetime | None = None) -> tuple[bytes, str]:
    """The PDF bytes and a file name; Refused for bad input, Refused(503) when fonts are missing."""
    data = load_data(event, slug, round_number, now)
    try:
        register_fonts(_configured_dirs())
        pdf = DOCUMENTS[slug](data).render()
    except FontsMissing as e:
        raise Refused(str(e), status=503) from None
    return pdf, filename_for(event, slug, data)
