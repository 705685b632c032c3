"""Names: nothing blank-looking, no bidi controls or line breaks inside, joiners only where a script or an emoji
needs them, and a look-alike of a registered name (UTS #39 skeleton) is put to the desk to confirm."""
from __future__ import annotations

import pytest

from tournament.auth import operations as auth
from tournament.errors import Refused
from tournament.events import operations as events
from tournament.events.names import lookalike, readable, skeleton, tidy


@pytest.mark.parametrize("blank", ["\u3164", "\u2800", "\u115f\u1160", "\uffa0", "\u200b\u200d", "\u3164 \u2800",
                                   "\u202e", "\u2028", "\u0301\u0301", "\u00a0\u3000", "\ufe0f"])
def test_blank_looking_names_are_refused(db, make_event, blank):
    event = make_event()
    with pytest.raises(Refused) as refused:
        events.register_player(event, {"name": blank})
    assert "required" in refused.value.message and refused.value.field == "name"
    with pytest.raises(Refused):
        auth.create_user(blank, "lantern orchard seventeen", "judge")


@pytest.mark.parametrize("typed, kept", [
    ("Anna\u202e evil", "Anna evil"),                        # RLO: would turn the rest of the line around
    ("\u202dAnna\u202c", "Anna"),
    ("\u2067Anna\u2069", "Anna"),                            # isolates
    ("An\u200fna", "Anna"),                                  # RLM
    ("Anna\u2028Smith", "Anna Smith"),                       # line separator: one line
    ("Anna\u2029", "Anna"),
    ("An\u200dna", "Anna"),                                  # a ZWJ between Latin letters joins nothing
    ("\u200dAnna\u200c", "Anna"),
    ("👩\u200d👧 Family", "👩\u200d👧 Family"),              # emoji ZWJ sequence kept
    ("👩\u200d\u200d👧", "👩👧"),                            # doubled: gone
    ("می\u200cخواهم", "می\u200cخواهم"),                      # Persian ZWNJ is spelling
    ("क्\u200dष", "क्\u200dष"),                              # Devanagari half-form after a virama
    ("ശ്രീ\u200cകുമാർ", "ശ്രീ\u200cകുമാർ"),
    ("שָׁלוֹם Cohen", "שָׁלוֹם Cohen"),                          # right-to-left names need no controls
])
def test_bidi_controls_and_separators_go_and_needed_joiners_stay(db, make_event, typed, kept):
    event = make_event()
    reg = events.register_player(event, {"name": typed})
    assert reg.name == kept
    assert tidy(typed) == kept


def test_html_in_a_name_is_kept_as_text(db, make_event):
    reg = events.register_player(make_event(), {"name": "<b>Bob</b>\u202e"})
    assert reg.name == "<b>Bob</b>"


def test_skeletons_match_look_alikes_only():
    assert skeleton("Olga") == skeleton("Оlga") == skeleton("OIga") == skeleton("ОLGA")     # Cyrillic О, capital i
    assert skeleton("Marie") == skeleton("rnarie")
    assert skeleton("Paypal") == skeleton("Pаypаl")
    assert skeleton("Olga") != skeleton("Olea")
    assert skeleton("Dvořák") != skeleton("Dvorak")            # accents are not look-alikes
    assert lookalike("Оlga", ["Bob", "Olga"]) == "Olga"
    assert readable("Ann") and not readable("\u3164\u2800")


def test_the_desk_is_warned_about_a_name_that_looks_like_a_registered_one(app, client, db, make_event, judge,
                                                                          login):
    event = make_event()
    events.register_player(event, {"name": "Olga Novak"}, user=judge)
    db.session.commit()
    login(judge)
    cyrillic = "\u041elga Novak"          # Cyrillic capital O
    response = client.post(f"/events/{event.id}/registrations", data={"name": cyrillic})
    text = response.get_data(as_text=True)
    assert response.status_code == 409 and "looks like" in text and "Olga Novak" in text
    confirmed = client.post(f"/events/{event.id}/registrations", data={"name": cyrillic, "same_name_ok": "y"})
    assert confirmed.status_code in (200, 302), confirmed.get_data(as_text=True)[:300]
    assert sorted(r.name for r in event.registrations) == sorted(["Olga Novak", cyrillic])


def test_the_api_is_told_how_to_confirm_a_look_alike(app, client, db, make_event, organizer):
    event = make_event()
    events.register_player(event, {"name": "Marie Curie"}, user=organizer)
    token = auth.issue_token(organizer)
    db.session.commit()
    bearer = {"Authorization": f"Bearer {token}"}
    response = client.post(f"/api/v1/events/{event.id}/registrations", json={"name": "rnarie Curie"}, headers=bearer)
    assert response.status_code == 409, response.get_data(as_text=True)
    body = response.get_json()["error"]
    assert body["field"] == "same_name_ok" and '"same_name_ok": true' in body["message"]
    ok = client.post(f"/api/v1/events/{event.id}/registrations", json={"name": "rnarie Curie", "same_name_ok": True},
                     headers=bearer)
    assert ok.status_code == 201, ok.get_data(as_text=True)


def test_self_registration_with_a_look_alike_is_asked_to_confirm_too(app, client, db, make_event, make_player):
    event = make_event()
    make_player(event, "Jan Novak")
    response = client.post(f"/events/{event.id}/register", data={"name": "Jan N\u043evak"})    # Cyrillic о
    assert response.status_code == 409 and "looks like" in response.get_data(as_text=True)
