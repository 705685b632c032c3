"""A deck finding in the reader's language: its code's message with its parameters (card names as the card data
has them). Findings stored before their messages were translatable keep their English sentence.

A finding (tournament/decks/domain.py) keeps the English template it was made from and its parameters; a
parameter that is words is a message of its own ({"template", "params"[, "forms"]}), a list
({"list", "style", "more"}) or a number ({"number"}); names, counts and line numbers are plain values. Here
each is worded again with the request's catalog (flask_babel), lists joined the way the language joins them.
In English the result is the stored message, character for character.
"""
from __future__ import annotations

from typing import Iterable, Mapping

from babel.lists import format_list
from babel.numbers import format_decimal
from flask_babel import get_locale, get_translations

from tournament.decks.domain import N_, DeckInputError, Finding, english_list, json_value

SPELLING = N_("%(card)s (%(written)s)")     # the card's name with the player's own spelling beside it

# How lists are joined in other languages; "and" (and "clauses" where not given) by the language's own list
# pattern, from CLDR ("白、青、緑", "白色、蓝色和绿色", "bílá, modrá a zelená").
_JOINS = {
    "ja": {"clauses": "、", "comma": "、", "semicolon": "、", "plus": " + ", "words": "", "types": "・"},
    "zh": {"clauses": "，", "comma": "、", "semicolon": "；", "plus": " + ", "words": "", "types": "／"},
    "cs": {"comma": ", ", "semicolon": "; ", "plus": " + ", "words": " ", "types": " "},
}
_FAILED = (KeyError, TypeError, ValueError, IndexError, AttributeError)


def _context():
    locale = get_locale()
    return (None if locale is None or locale.language == "en" else locale), get_translations()


def _list(items: list[str], style: str, more: bool, locale) -> str:
    if locale is None:
        return english_list(items, style, more)
    sep = _JOINS.get(locale.language, {}).get(style)
    if sep is None:
        if style in ("and", "clauses"):
            return format_list(items, locale=locale) if items else ""
        return english_list(items, style, more)
    return sep.join(items) + (sep + "…" if more else "")


def _value(value, locale, translations):
    if isinstance(value, Mapping):
        if "template" in value:
            return _message(value, locale, translations)
        if "list" in value:
            return _list([str(_value(v, locale, translations)) for v in value["list"]], value.get("style", "and"),
                         bool(value.get("more")), locale)
        if "number" in value:
            n = value["number"]
            return f"{n:,}" if locale is None else format_decimal(n, locale=locale)
    return value


def _message(message: Mapping, locale, translations) -> str:
    params = message.get("params") or {}
    forms = message.get("forms")
    if forms:
        template = translations.ngettext(forms[0], forms[1], params["num"])
    else:
        template = translations.gettext(message["template"])
    if not params:
        return template
    values = {k: _value(v, locale, translations) for k, v in params.items()}
    if isinstance(values.get("ruleset"), str):        # a ruleset's name from its data file, translated if marked
        values["ruleset"] = translations.gettext(values["ruleset"])
    return template % values


def text_of(message) -> str:
    """A message (a Text, or its JSON) in the reader's language; anything else as it is."""
    if not isinstance(message, Mapping):
        message = json_value(message)
        if not isinstance(message, Mapping):
            return "" if message is None else str(message)
    locale, translations = _context()
    return str(_value(message, locale, translations))


def finding_text(finding: Mapping | Finding) -> str:
    """The finding in the reader's language, the player's own spelling of the card beside its name."""
    if isinstance(finding, Finding):
        finding = finding.to_json()
    elif not isinstance(finding, Mapping):
        return getattr(finding, "message", "")
    stored = finding.get("message", "")
    if not finding.get("template"):
        return stored
    try:
        locale, translations = _context()
        text = _message(finding, locale, translations)
        card, written = finding.get("card"), finding.get("written")
        if card and written:
            text = text.replace(card, translations.gettext(SPELLING) % {"card": card, "written": written}, 1)
        return text
    except _FAILED:
        return stored


def _texts(bracket: Mapping, key: str) -> list[str]:
    texts = bracket.get(key[:-1] + "_texts")
    stored = list(bracket.get(key) or [])
    if not texts or len(texts) != len(stored):
        return stored
    out = []
    for message, english in zip(texts, stored):
        try:
            out.append(text_of(message))
        except _FAILED:
            out.append(english)
    return out


def bracket_reasons(bracket: Mapping) -> list[str]:
    """What sets a deck's bracket floor, one line each ("4 Game Changers (…): at least bracket 4 (why)")."""
    return _texts(bracket or {}, "reasons")


def bracket_causes(bracket: Mapping) -> list[str]:
    """The same, short ("4 Game Changers (…)")."""
    return _texts(bracket or {}, "causes")


def bracket_name(bracket: Mapping) -> str:
    """The floor's bracket name (Exhibition, Core, ...) in the reader's language."""
    name = (bracket or {}).get("name") or ""
    return get_translations().gettext(name) if name else ""


def colour_words(colors: Iterable[str]) -> str:
    """"white, blue and green" (or "colourless") in the reader's language."""
    from tournament.decks.checks import colors_text
    return text_of(colors_text(colors))


def input_error_text(error: DeckInputError) -> str:
    """Why an upload cannot be read at all, in the reader's language."""
    text = getattr(error, "text", None)
    if text is None:
        return str(error)
    try:
        return text_of(text)
    except _FAILED:
        return str(error)
