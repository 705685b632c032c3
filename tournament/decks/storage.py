"""What is kept of a submitted decklist: near a real deck's size, whatever was uploaded.

Every submission is kept (the judges' history), and a list may be up to 1 MB, so the stored copy is bounded:

* The list (``Decklist.text``): as uploaded when it is at most STORED_TEXT_MAX bytes (a 100-card list in
  any export is a few kilobytes: text ~1.5 KB, Cockatrice or Dragon Shield ~6 KB, a full Moxfield CSV ~13 KB). A larger upload is kept
  as its cards, each on the line it was on ("1 Sol Ring", "CM: 1 Atraxa, Praetors' Voice", "SB: 1 Negate"),
  so the check's line numbers still point at the right card and the list reads back into the same deck;
  lines that named no card are left blank (the check says what they were), the maybeboard is left out,
  a name is cut at 120 characters, and at STORED_TEXT_MAX bytes the rest is one comment saying how many
  cards were not kept.
* The check (``Decklist.result``, DeckCheck.to_json()): at most MAX_GENERALS_LISTED generals named, at
  most MAX_PER_CODE findings of one kind, and findings up to MAX_FINDINGS_BYTES of JSON in all, the rest
  counted in one finding (tournament/decks/checks.py).
"""
from __future__ import annotations

from tournament.decks.checks import shown_name
from tournament.decks.domain import Entry, ParsedDeck

STORED_TEXT_MAX = 6_000          # bytes of a list kept as uploaded; a larger one is kept as its cards
_PREFIX = {"commander": "CM: ", "sideboard": "SB: ", "companion": "Companion: "}


def stored_text(text: str, deck: ParsedDeck) -> str:
    """The list as it is stored: `text` itself when small, else its cards on their lines (see above)."""
    if len(text) <= STORED_TEXT_MAX // 4 or len(text.encode("utf-8", "surrogatepass")) <= STORED_TEXT_MAX:
        return text
    return compact_text(deck, len(text.encode("utf-8", "surrogatepass")))


def compact_text(deck: ParsedDeck, size: int) -> str:
    """The deck's cards, each on its line, in at most STORED_TEXT_MAX bytes."""
    entries: list[Entry] = sorted((*deck.commanders, *deck.main, *deck.sideboard, *deck.companions,
                                   *deck.schemes, *deck.dungeons), key=lambda e: e.line)
    by_line: dict[int, str] = {}
    for e in entries:
        line = e.line
        while line in by_line:           # two cards on one line (XML written on one line): the next free one
            line += 1
        by_line[line] = f"{_PREFIX.get(e.section, '')}{e.count} {shown_name(e.name)}"
    # Line 1 free (a CSV header, an XML declaration): a "Deck" heading there, and blank lines between cards
    # mean nothing. Otherwise a blank line could read as the MTGO sideboard gap: "//" keeps the lines apart.
    gap = "" if 1 not in by_line else "//"
    out = [] if gap == "//" else ["Deck"]
    used = len("Deck")
    kept = 0
    budget = STORED_TEXT_MAX - 160
    for number in sorted(by_line):
        line = by_line[number]
        cost = (number - 1 - len(out)) * (len(gap) + 1) + len(line.encode("utf-8")) + 1
        if used + cost > budget:
            break
        out.extend([gap] * (number - 1 - len(out)))
        out.append(line)
        used += cost
        kept += 1
    if kept < len(by_line):
        out.append(f"// … {len(by_line) - kept:,} more cards not kept: the upload was {size / 1_000_000:.2f} MB "
                   f"and is stored in short form")
    return "\n".join(out) + "\n"
