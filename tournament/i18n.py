"""Languages: English, Japanese, Simplified Chinese and Czech, with Flask-Babel's gettext catalogs.

The language of a request: `?lang=` on any page (remembered in the `lang` cookie, the switcher's links), else a
staff user's own setting, else the cookie, else the browser's Accept-Language, else the event's default
language (its public pages and printouts), else English. Catalogs live in `tournament/translations/`
(`pybabel extract/update/compile`, see the README); `scripts/run` and `scripts/test` compile them.
"""
from __future__ import annotations

import os

import re
from functools import lru_cache
from pathlib import Path

from flask import current_app, g, has_request_context, request

LANGUAGES = {"en": "English", "ja": "日本語", "zh_Hans": "简体中文", "cs": "Čeština"}
COOKIE = "lang"
COOKIE_SECONDS = 365 * 24 * 3600
TRANSLATIONS = Path(__file__).resolve().parent / "translations"

_ALIASES = {"en": "en", "ja": "ja", "cs": "cs", "zh": "zh_Hans", "zh_hans": "zh_Hans", "zh_cn": "zh_Hans",
            "zh_sg": "zh_Hans", "zh_hans_cn": "zh_Hans", "cz": "cs", "jp": "ja"}


def N_(text: str) -> str:
    """Marks a message for the catalogs where it is not translated yet (data texts, pure modules)."""
    return text


# The texts of tournament/data/ files that pages and printouts show: (file pattern, path of keys; "*" is every
# item). scripts/translations.py extracts them for the catalogs (their `{name}` as `%(name)s`), and data_text()
# translates a text only when the data says exactly it: what an organizer typed shows as typed.
DATA = Path(__file__).resolve().parent / "data"
DATA_PATHS = (
    ("rulesets/*.json", ("name",)), ("rulesets/*.json", ("source",)),
    ("scoring/*.json", ("name",)), ("scoring/*.json", ("description",)), ("scoring/*.json", ("time_called",)),
    ("scoring/prize_conditions.json", ("conditions", "*", "name")),
    ("brackets/brackets.json", ("brackets", "*", "name")),
    ("draws.json", ("kinds", "*", "name")), ("draws.json", ("end_of_round", "*", "text")),
    ("draws.json", ("end_of_round", "*", "name")),
    ("standings/tiebreakers.json", ("tiebreakers", "*")), ("standings/tiebreakers.json", ("names", "*")),
    ("infractions.json", ("infractions", "*", "name")),
)
# Card types are the game's words, not data: the deck check and the decklist printout name them.
CARD_TYPES = (N_("Creature"), N_("Planeswalker"), N_("Battle"), N_("Land"), N_("Instant"), N_("Sorcery"),
              N_("Artifact"), N_("Enchantment"), N_("Other"))


def _walk(node, path):
    if not path:
        if isinstance(node, str):
            yield node
        return
    head, rest = path[0], path[1:]
    if head == "*":
        for item in (node.values() if isinstance(node, dict) else node if isinstance(node, list) else ()):
            yield from _walk(item, rest)
    elif isinstance(node, dict) and head in node:
        yield from _walk(node[head], rest)


def data_messages(root: Path = DATA) -> list[tuple[str, str]]:
    """(file, msgid) for every text DATA_PATHS names, `{name}` written `%(name)s`."""
    import json
    out = []
    for pattern, path in DATA_PATHS:
        for file in sorted(root.glob(pattern)):
            for text in _walk(json.loads(file.read_text(encoding="utf-8")), path):
                out.append((str(file.relative_to(root)), _placeholders(text)))
    return out


def _placeholders(text: str) -> str:
    return re.sub(r"\{([a-z_]+)\}", r"%(\1)s", text.replace("%", "%%")) if "{" in text else text


@lru_cache(maxsize=1)
def _data_texts() -> frozenset[str]:
    return frozenset(msgid for _file, msgid in data_messages()) | frozenset(CARD_TYPES)


# What the pages' scripts (static/*.js) write themselves, keyed as they ask for them: t("key", {name: ...}).
# Each script also keeps these English texts for its own keys (a page without page.js or without the key).
JS_TEXTS = {
    # static/page.js
    "scroll_sideways": N_("This table scrolls sideways: swipe or use the arrow keys to see every column."),
    # static/swap.js
    "no_connection": N_("No connection; try again."),
    "swap_closed": N_("The swap window is closed."),
    "swap_refused": N_("The swap was refused."),
    # static/desk.js
    "player_id": N_("ID %(id)s"),
    "deck_legal": N_("deck legal"),
    "deck_missing": N_("deck missing"),
    "deck_illegal_one": N_("deck illegal · %(count)s error"),
    "deck_illegal_many": N_("deck illegal · %(count)s errors"),
    "late": N_("late"),
    "dropped": N_("Dropped"),
    "checked_in": N_("Checked in"),
    "not_checked_in": N_("Not checked in"),
    "undo_check_in": N_("Undo check-in"),
    "check_in": N_("Check in"),
    "drop": N_("Drop"),
    "confirm_drop": N_("Drop %(name)s from the event?"),
    "receipt": N_("Receipt"),
    "rename_or_code": N_("Rename or new code"),
    "undrop": N_("Undrop"),
    "notes": N_("Notes"),
    "save_notes": N_("Save notes"),
    "notes_for": N_("Notes for %(name)s"),
    "no_player_matches": N_("No player matches “%(query)s”."),
    "no_players_yet": N_("No players yet."),
    "search_failed": N_("Search failed."),
    "desk_failed": N_("The desk could not do that (%(status)s)."),
    "players_match_many": N_("%(count)s players match; tap the right one."),
    "player_has_dropped": N_("%(name)s has dropped; undrop them first."),
    "already_checked_in_name": N_("Already checked in: %(name)s"),
    "checked_in_name": N_("Checked in: %(name)s"),
    # static/camera.js
    "camera_read_code": N_("Read a code: checking in…"),
    "camera_needs_https": N_("The browser allows the camera only over HTTPS (or on this laptop itself): use a "
                             "USB scanner, type the code, or open the desk over HTTPS."),
    "camera_hold_qr": N_("Hold a receipt's QR code in front of the camera."),
    "camera_failed": N_("The camera could not be opened (permission refused, or no camera)."),
    # static/rounds.js
    "time_up": N_("time!"),
    "table_changed": N_("Something changed at your table: tap here to see it."),
    "page_of": N_("page %(page)s of %(count)s"),
    "connection_lost": N_("No connection — showing your last table; retrying."),
    # static/outbox.js
    "outbox_result": N_("Your result report is waiting to send: it is kept on this phone and sent when the "
                        "connection is back."),
    "outbox_vote": N_("Your vote is waiting to send: it is kept on this phone and sent when the connection is "
                      "back."),
    "outbox_confirm": N_("Your confirmation is waiting to send: it is kept on this phone and sent when the "
                         "connection is back."),
    # static/tracker.js
    "tracker_refused": N_("Refused."),
    "tracker_not_saved": N_("No connection: the change was not saved. Try again."),
    "turn_order": N_("Turn order: %(order)s"),
    "turn_order_ended": N_("Turn order: %(order)s · Game ended; result sent."),
    "turn_order_over": N_("Turn order: %(order)s · Game over: end it to send the result."),
    "player_archenemy": N_("%(name)s (archenemy)"),
    "out_life": N_("out: life at 0"),
    "out_poison": N_("out: %(limit)s poison counters"),
    "out_general_damage": N_("out: %(limit)s general damage"),
    "out_conceded": N_("out: conceded"),
    "out_other": N_("out: lost another way"),
    "out_reason": N_("out: %(reason)s"),
    "poison_count": N_("Poison %(poison)s/%(limit)s"),
    "general_tax_counters": N_("%(general)s: tax {%(tax)s} (%(count)s death counters)"),
    "general_tax_casts": N_("%(general)s: tax {%(tax)s} (%(count)s casts)"),
    "cast_general": N_("Cast"),
    "to_command_zone": N_("→ Command zone"),
    "venture_into_room": N_("Venture → %(room)s"),
    "take_initiative": N_("Initiative: %(dungeon)s"),
    "venture_into_dungeon": N_("Venture: %(dungeon)s"),
    "dungeons_completed": N_("Completed: %(count)s"),
    "schemes_left": N_("Schemes left %(count)s"),
    "schemes_left_last": N_("Schemes left %(count)s; last: %(last)s"),
    "set_scheme_in_motion": N_("Set scheme in motion"),
    "abandon_scheme": N_("Abandon %(scheme)s"),
    "schemes_on_paper": N_("Scheme deck on paper (not checked): set schemes in motion at the table."),
    "general_damage_taken": N_("General damage taken (%(limit)s from one general is lethal):"),
    "end_game_confirm": N_("End the game and send the survivors as the table's result?"),
}


def js_texts() -> str:
    """JS_TEXTS in the reader's language as JSON, for the page's scripts (base.html's #page-texts block): made
    once per language, not on every page a phone polls."""
    language = current_language()
    cached = _JS_JSON.get(language)
    if cached is None:
        import json
        from flask_babel import gettext
        from markupsafe import Markup
        text = json.dumps({key: gettext(value) for key, value in JS_TEXTS.items()}, ensure_ascii=False)
        cached = _JS_JSON[language] = Markup(text.replace("<", "\\u003c").replace(">", "\\u003e")
                                             .replace("&", "\\u0026"))
    return cached


_JS_JSON: dict[str, str] = {}


def data_text(text, **values):
    """A data file's text in the reader's language, its `{name}` values filled in, when the data says exactly
    it (see DATA_PATHS); anything else as written."""
    if not isinstance(text, str):
        return text
    message = _placeholders(text) if values else text
    if message not in _data_texts():
        return text.format(**values) if values else text
    from flask_babel import gettext
    return gettext(message, **values)


_UNREADABLE = (KeyError, TypeError, ValueError, IndexError, AttributeError)


def message_text(message) -> str:
    """A message of a pure module in the reader's language: a Text (tournament/decks/domain.py) or what it stored
    ({"template", "params"}, e.g. a round's `why` lines); a plain string (stored before) as it is. A message that
    cannot be worded again in the reader's language stays English."""
    from .decks.messages import text_of
    try:
        return text_of(message)
    except _UNREADABLE:
        return english_text(message)


def english_text(message) -> str:
    """The same message in English, whatever the reader's language (the API, exports, logs)."""
    if isinstance(message, str) or message is None:
        return "" if message is None else str(message)
    from flask_babel import force_locale
    from .decks.messages import text_of
    try:
        with force_locale("en"):
            return text_of(message)
    except _UNREADABLE:
        return str(message.get("template") or "") if isinstance(message, dict) else str(message)


_TRADITIONAL = ("zh_hant", "zh_tw", "zh_hk", "zh_mo")


def language_code(value) -> str | None:
    """'ja', 'ja-JP', 'zh-Hans', 'zh_CN', 'cs-CZ' ... -> one of LANGUAGES, or None."""
    if not isinstance(value, str) or not value or len(value) > 20:
        return None
    key = value.strip().replace("-", "_").lower()
    if key.startswith(_TRADITIONAL):
        return None                      # Traditional Chinese readers are not served Simplified
    return _ALIASES.get(key) or _ALIASES.get(key.split("_")[0])


def browser_language() -> str | None:
    for value, _quality in request.accept_languages:
        code = language_code(value)
        if code:
            return code
    return None


def _event_language() -> str | None:
    """The default language of the event the URL names (by id or by a player's access code)."""
    args = request.view_args or {}
    from .events.models import Event, Registration
    from .extensions import db
    try:
        if "event_id" in args:
            event_id = args["event_id"]     # one a database integer can hold (PostgreSQL refuses larger ones)
            event = db.session.get(Event, event_id) if isinstance(event_id, int) and 0 < event_id < 2**31 else None
            return event.language if event is not None else None
        if "code" in args and isinstance(args["code"], str):
            known = current_app.extensions.get("event_of_code", {}).get(args["code"])    # the code's event, seen
            if known is not None:                                                       # before: no query
                event = db.session.get(Event, known)
                return event.language if event is not None else None
            reg = db.session.query(Registration).filter_by(access_code=args["code"]).first()
            return reg.event.language if reg is not None else None
    except Exception:   # a broken URL is the view's to report, not the language's
        return None
    return None


def language_hint() -> str:
    """The request's language as far as it is known without the database: its code, or "event" when the
    event's default decides (a polled page's tag: that default changes only with the event's version)."""
    if g.get("print_language"):
        return g.print_language
    user = g.get("user")
    return (language_code(request.args.get("lang"))
            or (language_code(getattr(user, "language", None)) if user is not None else None)
            or language_code(request.cookies.get(COOKIE)) or browser_language() or "event")


def select_locale() -> str:
    if not has_request_context():
        return g.get("print_language") or "en"
    if g.get("print_language"):
        return g.print_language
    chosen = language_code(request.args.get("lang"))
    if chosen:
        return chosen
    user = g.get("user")
    if user is not None and language_code(getattr(user, "language", None)):
        return language_code(user.language)
    return (language_code(request.cookies.get(COOKIE)) or browser_language() or language_code(_event_language())
            or "en")


def remember_choice(response):
    """`?lang=xx` is remembered for the next pages (the switcher's links)."""
    if has_request_context() and response.mimetype == "text/html":       # a PDF in another language is not a choice
        chosen = language_code(request.args.get("lang"))
        if chosen and request.cookies.get(COOKIE) != chosen:
            response.set_cookie(COOKIE, chosen, max_age=COOKIE_SECONDS, samesite="Lax", httponly=True,
                                secure=request.is_secure)
    return response


def switch_url(code: str) -> str:
    """This page in another language: the same URL with ?lang= set."""
    args = request.args.to_dict(flat=False)
    args["lang"] = [code]
    from urllib.parse import urlencode
    return request.path + "?" + urlencode(args, doseq=True)


def current_language() -> str:
    from flask_babel import get_locale
    locale = get_locale()
    if locale is None:
        return "en"
    return "zh_Hans" if locale.language == "zh" else locale.language


def html_lang() -> str:
    """The page's lang attribute (BCP 47)."""
    return {"zh_Hans": "zh-Hans"}.get(current_language(), current_language())


def isolate_text(name) -> str:
    """A name inside a plain-text sentence (a button label, a status line), isolated by the Unicode marks
    FIRST STRONG ISOLATE ... POP DIRECTIONAL ISOLATE: what <bdi> does where markup cannot go."""
    return f"\u2068{name}\u2069"


def isolated(name) -> "Markup":
    """A person's name inside running text, isolated (<bdi>): a right-to-left name does not pull the seed
    number, comma or arrow beside it into its own run. Escaped as any text."""
    from markupsafe import Markup
    return Markup("<bdi>%s</bdi>") % ("" if name is None else name)


def init_app(app) -> None:
    from .extensions import babel
    app.config.setdefault("BABEL_DEFAULT_LOCALE", "en")
    app.config.setdefault("BABEL_TRANSLATION_DIRECTORIES", str(TRANSLATIONS))
    babel.init_app(app, locale_selector=select_locale)
    app.extensions["page_language"] = language_hint        # a polled page's tag (tournament.web)
    try:                # a fresh checkout started any way (flask run, waitress-serve) still reads today's catalogs
        compile_catalogs(Path(app.config["BABEL_TRANSLATION_DIRECTORIES"]))
    except Exception as e:          # a read-only folder, a damaged catalog: the app still starts, in English
        app.logger.warning("The translations could not be compiled (%s): pages show in English.", e)
    app.after_request(remember_choice)
    from .decks.messages import bracket_name, bracket_reasons, finding_text
    app.context_processor(lambda: {"LANGUAGES": LANGUAGES, "current_language": current_language,
                                   "switch_url": switch_url, "html_lang": html_lang, "finding_text": finding_text,
                                   "message_text": message_text,
                                   "bracket_name": bracket_name, "bracket_reasons": bracket_reasons,
                                   "js_texts": js_texts})
    app.add_template_filter(data_text, "data_text")
    app.add_template_filter(decimal_text, "decimal")
    app.add_template_filter(percent_text, "percent")
    app.add_template_filter(isolated, "bdi")


def compile_catalogs(directory: Path = TRANSLATIONS) -> list[Path]:
    """Compile every catalog whose .mo is missing or older than its .po (scripts/run, scripts/test, the tests)."""
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po
    done = []
    for po in sorted(directory.glob("*/LC_MESSAGES/messages.po")):
        mo = po.with_suffix(".mo")
        if mo.exists() and mo.stat().st_mtime >= po.stat().st_mtime:
            continue
        with po.open("rb") as f:
            catalog = read_po(f, locale=po.parent.parent.name)
        partial = mo.with_name(f"messages.mo.{os.getpid()}.tmp")      # workers starting together: each replaces whole
        try:
            with partial.open("wb") as f:
                write_mo(f, catalog, use_fuzzy=False)
            os.replace(partial, mo)
        finally:
            partial.unlink(missing_ok=True)
        done.append(mo)
    return done


def when_text(value, event, seconds: bool = False) -> str:
    """A stored time on the event's clock: 2026-12-05 10:30 CET in English; in another language as Babel writes
    its dates and times (2026/12/05 10:30 CET, 5. 12. 2026 10:30 CET)."""
    from .timezones import local, local_text
    if current_language() == "en":
        return local_text(value, event, seconds)
    moment = local(value, event)
    if moment is None:
        return ""
    from flask_babel import format_date, format_time
    return (f"{format_date(moment, 'medium', rebase=False)} "
            f"{format_time(moment, 'medium' if seconds else 'short', rebase=False)} {moment.strftime('%Z')}")


def clock_text(value, event) -> str:
    """10:30:15 CET: a time of day within the event (Babel's medium time outside English)."""
    from .timezones import clock_text as english, local
    if current_language() == "en":
        return english(value, event)
    moment = local(value, event)
    if moment is None:
        return ""
    from flask_babel import format_time
    return f"{format_time(moment, 'medium', rebase=False)} {moment.strftime('%Z')}"


def decimal_text(value, digits: int = 4, fixed: bool = False) -> str:
    """A number as the reader's language writes it: 3.333 in English, 3,333 in Czech; whole numbers bare unless
    `fixed` (always `digits` decimals: 50.0)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return "" if value is None else str(value)
    if value == round(value) and not fixed:
        return str(int(value))
    if current_language() == "en":
        text = f"{value:.{digits}f}"
        return text if fixed else text.rstrip("0").rstrip(".")
    from flask_babel import format_decimal
    return format_decimal(round(value, digits), format="0." + ("0" if fixed else "#") * digits)


def percent_text(value) -> str:
    """A share (0.457) as a percentage with one decimal: 45.7 in English, 45,7 in Czech (the % sign is the page's)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return ""
    if current_language() == "en":
        return f"{value * 100:.1f}"
    from flask_babel import format_decimal
    return format_decimal(round(value * 100, 1), format="0.0")
