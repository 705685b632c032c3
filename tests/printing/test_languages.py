"""Printouts in the event's language or another one: the rules sheet, pairings and standings in en, ja, zh_Hans
and cs, with dates on the event's clock as each language writes them; `flask print --lang` and `?lang=`."""
from __future__ import annotations

from datetime import datetime, timezone

import pytest

from tournament.printing import operations as ops

from pdf_helpers import NAMES, pdf_text, squash

NOW = datetime(2026, 5, 1, 18, 30, tzinfo=timezone.utc)

# What each language prints on the rules sheet, the pairings by table (round 2) and the standings after round 1.
HEADINGS = {
    "en": {"rules": ["Event rules: EDH (2010 rules)", "Deck rules", "Banned cards", "Starting the game",
                     "Scoring: Democratic victory", "partial Paris mulligan", "command zone"],
           "pairings-by-table": ["Pairings by table — Round 2", "Table 1", "Seat 1", "Player"],
           "standings": ["Standings after round 1", "Points", "Record", "Votes"]},
    "ja": {"rules": ["イベントルール：EDH（2010年ルール）", "デッキ構築ルール", "禁止カード", "ゲームの開始",
                     "得点方式：民主的勝利", "部分パリ式マリガン", "統率領域", "ジェネラル"],
           "pairings-by-table": ["対戦表（卓順）—第2ラウンド", "1卓", "1番席", "プレイヤー"],
           "standings": ["第1ラウンド終了時の順位表", "点数", "戦績", "得票"]},
    "zh_Hans": {"rules": ["赛事规则：EDH（2010年规则）", "套牌构组规则", "禁牌", "游戏开始", "计分方式：民主胜利",
                          "调度", "指令区", "主将"],
                "pairings-by-table": ["对阵表（按桌号）—第2轮", "第1桌", "1号位", "牌手"],
                "standings": ["第1轮后的排名", "积分", "战绩", "得票"]},
    "cs": {"rules": ["Pravidla turnaje: EDH (pravidla z roku 2010)", "Pravidla pro stavbu balíku", "Zakázané karty",
                     "Začátek hry", "Bodování: Demokratické vítězství", "částečný pařížský mulligan", "velící zóny",
                     "generál"],
           "pairings-by-table": ["Rozlosování podle stolů — 2. kolo", "Stůl 1", "Místo 1", "Hráč"],
           "standings": ["Pořadí po 1. kole", "Body", "Bilance", "Hlasy"]},
}
# The English version's headings and labels, none of which may be left in another language's printout
# ("Mulligan" is also the Czech word).
ENGLISH = {"rules": ["Event rules", "Deck rules", "Banned cards", "Starting the game", "Scoring:", "Deck size:",
                     "Life:", "General tax:", "Alternate prizes", "Ties are broken by",
                     "added by the organizer", "Taken off the list", "Banned as general only", "Source:"],
           "pairings-by-table": ["Pairings by table", "Round 2", "Table ", "Seat ", "Player"],
           "standings": ["Standings", "after round", "Scoring:", "Name", "Points", "Record", "Votes", "survived"]}
FOOTER = {"en": ("Printed 2026-05-01 18:30 UTC", "Page 1"), "ja": ("印刷日時 2026/05/01 18:30 UTC", "1ページ"),
          "zh_Hans": ("打印时间：2026年5月1日 18:30 UTC", "第1页"), "cs": ("Vytištěno 1. 5. 2026 18:30 UTC", "Strana 1")}
ROUND = {"rules": None, "pairings-by-table": 2, "standings": 1}


@pytest.mark.parametrize("language", list(HEADINGS))
@pytest.mark.parametrize("slug", list(ROUND))
def test_a_document_prints_in_the_language_asked_for(pods_event, language, slug):
    pdf, filename = ops.build_document(pods_event, slug, ROUND[slug], now=NOW, language=language)
    text = pdf_text(pdf)
    flat = squash(text)
    assert filename.startswith(f"event-{pods_event.id}-{slug}")       # the file name does not change
    for words in HEADINGS[language][slug] + list(FOOTER[language]):
        assert squash(words) in flat, (language, slug, words)
    if language != "en":
        for words in ENGLISH[slug] + ["Printed", "Page"]:
            assert words not in text, (language, slug, words)
    if slug != "rules":
        assert all(squash(name) in flat for name in NAMES)            # player names print as they are
    assert "Friday <i>EDH</i> 金曜日" in text                           # and so does the event's name


def test_the_events_language_is_the_default_and_english_the_last_resort(db, pods_event):
    english = pdf_text(ops.build_document(pods_event, "rules", now=NOW)[0])
    assert "Event rules" in english and "Printed 2026-05-01 18:30 UTC" in english
    pods_event.language = "cs"
    db.session.commit()
    czech = pdf_text(ops.build_document(pods_event, "rules", now=NOW)[0])
    assert "Pravidla turnaje" in czech and "Event rules" not in czech
    asked = pdf_text(ops.build_document(pods_event, "rules", now=NOW, language="en")[0])
    assert "Event rules" in asked and "Pravidla turnaje" not in asked


def test_dates_are_on_the_events_clock_in_the_languages_own_format(db, pods_event):
    pods_event.timezone = "Asia/Tokyo"
    db.session.commit()
    stamps = {"en": "Printed 2026-05-02 03:30 JST", "ja": "印刷日時 2026/05/02 3:30 JST",
              "zh_Hans": "打印时间：2026年5月2日 03:30 JST", "cs": "Vytištěno 2. 5. 2026 3:30 JST"}
    for language, stamp in stamps.items():
        text = pdf_text(ops.build_document(pods_event, "pairings-by-name", 2, now=NOW, language=language)[0])
        assert squash(stamp) in squash(text), (language, text[-200:])


def test_numbers_are_written_as_the_language_writes_them(pods_event):
    rows = ops.standings_data(pods_event, None, NOW).rows
    fractions = [v for r in rows for v in r.tiebreakers.values() if isinstance(v, float) and not v.is_integer()]
    assert fractions, "the fixture's standings have a fractional tiebreaker"
    english = pdf_text(ops.build_document(pods_event, "standings", 1, now=NOW)[0])
    czech = pdf_text(ops.build_document(pods_event, "standings", 1, now=NOW, language="cs")[0])
    shown = f"{fractions[0]:.3f}".rstrip("0").rstrip(".")
    assert shown in english and shown.replace(".", ",") in czech


def test_an_unknown_language_is_refused(pods_event):
    with pytest.raises(ops.Refused) as e:
        ops.build_document(pods_event, "rules", language="klingon")
    assert e.value.status == 400 and "en, ja, zh_Hans, cs" in e.value.message


def test_the_cli_prints_in_the_language_asked_for(runner, pods_event, tmp_path):
    out = tmp_path / "rules-ja.pdf"
    result = runner.invoke(args=["print", "rules", "--event", str(pods_event.id), "--lang", "ja", "-o", str(out)])
    assert result.exit_code == 0, result.output
    text = pdf_text(out.read_bytes())
    assert "イベントルール" in text and "Event rules" not in text
    for language, heading in (("zh_Hans", "赛事规则"), ("cs", "Pravidla turnaje"), ("en", "Event rules")):
        result = runner.invoke(args=["print", "rules", "--event", str(pods_event.id), "--lang", language,
                                     "-o", str(out)])
        assert result.exit_code == 0, result.output
        assert heading in pdf_text(out.read_bytes()), language


def test_the_cli_rejects_an_unknown_language_with_a_clear_message(runner, pods_event, tmp_path):
    out = tmp_path / "rules.pdf"
    for value in ("xx", "klingon", "zh-Hant", ""):
        result = runner.invoke(args=["print", "rules", "--event", str(pods_event.id), "--lang", value,
                                     "-o", str(out)])
        assert result.exit_code != 0, (value, result.output)
        assert "--lang" in result.output and "en, ja, zh_Hans, cs" in result.output, result.output
        assert "Traceback" not in result.output and not out.exists()


def test_the_download_takes_lang_and_defaults_to_the_events_language(client, login, db, pods_event):
    login(pods_event.organizer)
    base = f"/events/{pods_event.id}/print"
    japanese = client.get(f"{base}/rules.pdf?lang=ja", headers={"Accept-Language": "cs"})
    assert japanese.status_code == 200 and "イベントルール" in pdf_text(japanese.data)
    browser = client.get(f"{base}/standings.pdf?round=1", headers={"Accept-Language": "ja"})
    assert "Standings after round 1" in pdf_text(browser.data)          # not the browser's language
    pods_event.language = "zh_Hans"
    db.session.commit()
    chinese = client.get(f"{base}/pairings-by-table.pdf?round=2", headers={"Accept-Language": "cs"})
    assert chinese.status_code == 200 and "对阵表" in pdf_text(chinese.data)
    english = client.get(f"{base}/pairings-by-table.pdf?round=2&lang=en")
    assert "Pairings by table" in pdf_text(english.data)
    refused = client.get(f"{base}/rules.pdf?lang=klingon")
    assert refused.status_code == 400 and b"en, ja, zh_Hans, cs" in refused.data
