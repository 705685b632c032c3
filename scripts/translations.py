#!/usr/bin/env python3
"""The gettext catalogs in tournament/translations/, with Babel (what `pybabel extract/update/compile` do).

    .venv/bin/python scripts/translations.py update        extract every message, update ja, zh_Hans, cs
    .venv/bin/python scripts/translations.py fill F.json   set translations: {"msgid": {"ja": "...", ...}}
    .venv/bin/python scripts/translations.py check         list messages without a translation (exit 1)
    .venv/bin/python scripts/translations.py compile       write the .mo files (scripts/run and scripts/test do)

In F.json a message with a context (pgettext) is keyed "context|msgid"; a plural message is keyed by its singular and gives a list per language (Japanese and Chinese: one
form; Czech: one, few, other).
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from babel.messages.catalog import Catalog  # noqa: E402
from babel.messages.extract import extract_from_dir  # noqa: E402
from babel.messages.pofile import read_po, write_po  # noqa: E402

from tournament.i18n import LANGUAGES, TRANSLATIONS, compile_catalogs, data_messages  # noqa: E402

LOCALES = [code for code in LANGUAGES if code != "en"]
METHODS = [("tournament/**.py", "python"), ("templates/**.html", "jinja2")]
KEYWORDS = {"_": None, "N_": None, "gettext": None, "ngettext": (1, 2), "lazy_gettext": None, "_l": None, "_n": (1, 2),
            "lazy_ngettext": (1, 2), "pgettext": ((1, "c"), 2), "lazy_pgettext": ((1, "c"), 2)}


def extract() -> Catalog:
    """Every message in the code and the templates."""
    template = Catalog()
    for sub in ("tournament", "templates"):
        for filename, lineno, message, comments, context in extract_from_dir(
                REPO / sub, [(pattern.split("/", 1)[1], method) for pattern, method in METHODS
                             if pattern.startswith(sub)], keywords=KEYWORDS, comment_tags=("TRANSLATORS:",),
                strip_comment_tags=True):
            template.add(message, None, [(f"{sub}/{filename}", lineno)], auto_comments=comments, context=context)
    for filename, message in data_messages():          # the texts of tournament/data/ that pages show
        template.add(message, None, [(f"tournament/data/{filename}", 0)])
    return template


def po_path(locale: str) -> Path:
    return TRANSLATIONS / locale / "LC_MESSAGES" / "messages.po"


def load(locale: str) -> Catalog:
    with po_path(locale).open("rb") as f:
        return read_po(f, locale=locale)


def save(catalog: Catalog, path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("wb") as f:
        write_po(f, catalog, width=0, no_location=True, omit_header=False, sort_output=True,
                 ignore_obsolete=True, include_previous=False)


def update() -> None:
    template = extract()
    save(template, TRANSLATIONS / "messages.pot")
    for locale in LOCALES:
        catalog = load(locale) if po_path(locale).exists() else Catalog(locale=locale)
        catalog.update(template, no_fuzzy_matching=True)
        save(catalog, po_path(locale))
    print(f"{len(template)} messages; catalogs updated: {', '.join(LOCALES)}")


def fill(path: str) -> None:
    data = json.loads(Path(path).read_text(encoding="utf-8"))
    for locale in LOCALES:
        catalog = load(locale)
        done = 0
        for message in catalog:
            if not message.id:
                continue
            key = message.id[0] if isinstance(message.id, tuple) else message.id
            if message.context:
                key = f"{message.context}|{key}"          # a message with a context: "context|msgid" in F.json
            text = (data.get(key) or {}).get(locale)
            if not text:
                continue
            if isinstance(message.id, tuple):
                forms = text if isinstance(text, list) else [text]
                message.string = tuple(forms[min(i, len(forms) - 1)] for i in range(catalog.num_plurals))
            else:
                message.string = text
            message.flags.discard("fuzzy")
            done += 1
        save(catalog, po_path(locale))
        print(f"{locale}: {done} messages set from {path}")


def missing(locale: str) -> list[str]:
    out = []
    for message in load(locale):
        if not message.id:
            continue
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        if "fuzzy" in message.flags or not all(strings):
            out.append(message.id[0] if isinstance(message.id, tuple) else message.id)
    return out


def check() -> int:
    bad = 0
    for locale in LOCALES:
        gaps = missing(locale)
        bad += len(gaps)
        print(f"{locale}: {len(gaps)} without a translation")
        for m in gaps[:40]:
            print("   ", m[:100])
    return 1 if bad else 0


def main(argv: list[str]) -> int:
    if not argv or argv[0] not in ("update", "fill", "check", "compile"):
        print(__doc__)
        return 2
    if argv[0] == "update":
        update()
    elif argv[0] == "fill":
        fill(argv[1])
    elif argv[0] == "check":
        return check()
    else:
        print(f"compiled {len(compile_catalogs())} catalogs")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
