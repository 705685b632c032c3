"""Cut-stage and pod options through the API (issue 27): set, shown, and bad values refused with a message."""
from __future__ import annotations


def test_cut_options_round_trip_and_bad_values_are_refused(api, db, make_event, token):
    event = make_event()
    shown = api.get(f"/events/{event.id}", token=token).get_json()
    assert (shown["cut_draw"], shown["cut_deal"], shown["odd_pods"]) == ("table", "snake", "low")
    response = api.patch(f"/events/{event.id}", token=token,
                         json={"cut_draw": "survivor", "cut_deal": "straight", "odd_pods": "high"})
    assert response.status_code == 200
    body = response.get_json()
    assert (body["cut_draw"], body["cut_deal"], body["odd_pods"]) == ("survivor", "straight", "high")
    for field, bad, message in (("cut_draw", "<b>coin</b>", "A drawn top cut pod must be one of: table, survivor."),
                                ("cut_deal", "zigzag", "Dealing top cut pods must be one of: snake, straight."),
                                ("odd_pods", 3, "Place of the smaller pods must be one of: low, high.")):
        response = api.patch(f"/events/{event.id}", token=token, json={field: bad})
        assert response.status_code == 400
        assert response.get_json()["error"] == {"field": field, "message": message, "status": 400}
    db.session.expire_all()
    assert (event.cut_draw, event.cut_deal, event.odd_pods) == ("survivor", "straight", "high")


def test_top_40_shape_round_trip_and_bad_values_are_refused(api, db, make_event, token):
    event = make_event(top_cut=40)
    assert api.get(f"/events/{event.id}", token=token).get_json()["cut_top40"] == "ten_pods"
    response = api.patch(f"/events/{event.id}", token=token, json={"cut_top40": "sixteen_wait"})
    assert response.status_code == 200 and response.get_json()["cut_top40"] == "sixteen_wait"
    for bad in ("<b>sixteen</b>", "", 40, None, "x" * 10_000):
        response = api.patch(f"/events/{event.id}", token=token, json={"cut_top40": bad})
        assert response.status_code == 400
        assert response.get_json()["error"] == {
            "field": "cut_top40", "status": 400,
            "message": "The shape of a top 40 must be one of: ten_pods, sixteen_wait."}
    db.session.expire_all()
    assert event.cut_top40 == "sixteen_wait"
