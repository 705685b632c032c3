"""Languages: English, Japanese, Simplified Chinese and Czech, with Flask-Babel's gettext catalogs.

The language of a request: `?lang=` on any page (remembered in the `lang` cookie, the switcher's links), else a
staff user's own setting, else the cookie, else the browser's Accept-Language, else the event's default
language (its public pages and printouts), else English. Catalogs live in `tournament/translations/`
(`pybabel extract/update/compile`, see the README); `scripts/run` and `scripts/test` compile them.
"""
from __future__ import annotations

from pathlib import Path

from flask import g, has_request_context, request

LANGUAGES = {"en": "English", "ja": "日本語", "zh_Hans": "简体中文", "cs": "Čeština"}
COOKIE = "lang"
COOKIE_SECONDS = 365 * 24 * 3600
TRANSLATIONS = Path(__file__).resolve().parent / "translations"

_ALIASES = {"en": "en", "ja": "ja", "cs": "cs", "zh": "zh_Hans", "zh_hans": "zh_Hans", "zh_cn": "zh_Hans",
            "zh_sg": "zh_Hans", "zh_hans_cn": "zh_Hans", "cz": "cs", "jp": "ja"}


def language_code(value) -> str | None:
    """'ja', 'ja-JP', 'zh-Hans', 'zh_CN', 'cs-CZ' ... -> one of LANGUAGES, or None."""
    if not isinstance(value, str) or not value or len(value) > 20:
        return None
    key = value.strip().replace("-", "_").lower()
    if key in _ALIASES:
        return _ALIASES[key]
    return _ALIASES.get(key.split("_")[0]) if not key.startswith("zh_hant") and not key.startswith("zh_tw") \
        and not key.startswith("zh_hk") else None


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
            event = db.session.get(Event, args["event_id"])
            return event.language if event is not None else None
        if "code" in args and isinstance(args["code"], str):
            reg = db.session.query(Registration).filter_by(access_code=args["code"]).first()
            return reg.event.language if reg is not None else None
    except Exception:   # a broken URL is the view's to report, not the language's
        return None
    return None


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
    if has_request_context():
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


def init_app(app) -> None:
    from .extensions import babel
    app.config.setdefault("BABEL_DEFAULT_LOCALE", "en")
    app.config.setdefault("BABEL_TRANSLATION_DIRECTORIES", str(TRANSLATIONS))
    babel.init_app(app, locale_selector=select_locale)
    app.after_request(remember_choice)
    from .decks.messages import finding_text
    app.context_processor(lambda: {"LANGUAGES": LANGUAGES, "current_language": current_language,
                                   "switch_url": switch_url, "html_lang": html_lang, "finding_text": finding_text})


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
        with mo.open("wb") as f:
            write_mo(f, catalog, use_fuzzy=False)
        done.append(mo)
    return done
