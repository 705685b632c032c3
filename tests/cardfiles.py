"""Small card files in MTGJSON and Scryfall shapes, written for the tests."""
from __future__ import annotations

import json

LEGAL = {"commander": "Legal", "duel": "Legal", "legacy": "Legal", "vintage": "Legal"}


def mtgjson_face(name, type_, mana="", text="", ci=(), colors=None, layout="normal", **extra):
    left, _, right = type_.partition(" — ")
    words = left.split()
    sup = [w for w in words if w in ("Legendary", "Basic", "Snow")]
    return {"name": name, "type": type_, "manaCost": mana, "text": text, "colorIdentity": list(ci),
            "colors": list(colors if colors is not None else ci), "layout": layout,
            "supertypes": sup, "types": [w for w in words if w not in sup], "subtypes": right.split(),
            "legalities": extra.pop("legalities", LEGAL), "manaValue": extra.pop("mv", 0), **extra}


def mtgjson_cards() -> dict:
    return {
        "Lightning Bolt": [mtgjson_face("Lightning Bolt", "Instant", "{R}", "Lightning Bolt deals 3 damage to any target.", "R", mv=1)],
        "Dandân": [mtgjson_face("Dandân", "Creature — Fish", "{U}{U}", "Dandân can't attack unless defending player controls an Island.", "U", asciiName="Dandan", mv=2)],
        "Fire // Ice": [
            mtgjson_face("Fire // Ice", "Instant", "{1}{R}", "Fire deals 2 damage divided as you choose among one or two targets.", "RU", ["R"], "split", faceName="Fire", side="a", mv=4),
            mtgjson_face("Fire // Ice", "Instant", "{1}{U}", "Tap target permanent.\nDraw a card.", "RU", ["U"], "split", faceName="Ice", side="b", mv=4),
        ],
        "Delver of Secrets // Insectile Aberration": [
            mtgjson_face("Delver of Secrets // Insectile Aberration", "Creature — Human Wizard", "{U}", "At the beginning of your upkeep, look at the top card of your library.", "U", layout="transform", faceName="Delver of Secrets", side="a", mv=1),
            mtgjson_face("Delver of Secrets // Insectile Aberration", "Creature — Human Insect", "", "Flying", "U", layout="transform", faceName="Insectile Aberration", side="b", mv=1),
        ],
        "Relentless Rats": [mtgjson_face("Relentless Rats", "Creature — Rat", "{1}{B}{B}", "A deck can have any number of cards named Relentless Rats.", "B", mv=3)],
        "Seven Dwarves": [mtgjson_face("Seven Dwarves", "Creature — Dwarf", "{1}{R}", "A deck can have up to seven cards named Seven Dwarves.", "R", mv=2)],
        "Phelddagrif": [mtgjson_face("Phelddagrif", "Legendary Creature — Phelddagrif", "{1}{G}{W}{U}", "{G}: Phelddagrif gains trample until end of turn.", "GUW", leadershipSkills={"commander": True}, mv=4)],
        "Forest": [mtgjson_face("Forest", "Basic Land — Forest", "", "({T}: Add {G}.)", "G", [])],
        "Blacker Lotus": [mtgjson_face("Blacker Lotus", "Artifact", "{0}", "Tear Blacker Lotus into pieces. Add four mana of any one color.", "", isFunny=True, legalities={})],
    }


def write_mtgjson(path, cards=None, meta=None) -> None:
    data = {"meta": meta or {"date": "2022-04-25", "version": "5.2.0"}, "data": cards or mtgjson_cards()}
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")


def scryfall_record(name, type_line, mana="", text="", ci=(), layout="normal", set_type="expansion", **extra):
    legal = {k: v.lower().replace(" ", "_") for k, v in LEGAL.items()}
    return {"object": "card", "name": name, "layout": layout, "type_line": type_line, "mana_cost": mana,
            "oracle_text": text, "color_identity": list(ci), "colors": list(ci), "keywords": [],
            "legalities": extra.pop("legalities", legal), "set_type": set_type, "cmc": extra.pop("cmc", 0),
            "oracle_id": extra.pop("oracle_id", None), **extra}


def scryfall_cards() -> list[dict]:
    return [
        scryfall_record("Lightning Bolt", "Instant", "{R}", "Lightning Bolt deals 3 damage to any target.", "R", cmc=1),
        scryfall_record("Lightning Bolt", "Instant", "{R}", "Lightning Bolt deals 3 damage to any target.", "R", cmc=1),
        scryfall_record("Brazen Borrower // Petty Theft", "Creature — Faerie Rogue // Instant — Adventure", ci="U", layout="adventure",
                        card_faces=[
                            {"name": "Brazen Borrower", "mana_cost": "{1}{U}{U}", "type_line": "Creature — Faerie Rogue", "oracle_text": "Flash\nFlying"},
                            {"name": "Petty Theft", "mana_cost": "{1}{U}", "type_line": "Instant — Adventure", "oracle_text": "Return target nonland permanent an opponent controls to its owner's hand."},
                        ], cmc=3),
        scryfall_record("Kenrith, the Returned King", "Legendary Creature — Human Noble", "{4}{W}",
                        "{R}: All creatures gain trample and haste until end of turn.", "WUBRG", cmc=5),
        scryfall_record("Goblin", "Token Creature — Goblin", ci="R", layout="token", set_type="token"),
        scryfall_record("Teferi, Temporal Archmage", "Legendary Planeswalker — Teferi", "{4}{U}{U}",
                        "Teferi, Temporal Archmage can be your commander.", "U", cmc=6),
        scryfall_record("Shadowborn Apostle", "Creature — Human Cleric", "{B}",
                        "A deck can have any number of cards named Shadowborn Apostle.", "B", cmc=1),
        scryfall_record("Blacker Lotus", "Artifact", "{0}", "Tear Blacker Lotus into pieces.", set_type="funny",
                        legalities={"vintage": "not_legal", "commander": "not_legal"}),
    ]


def write_scryfall(path, records=None) -> None:
    path.write_text(json.dumps(records if records is not None else scryfall_cards()), encoding="utf-8")
