"""Ids larger than a database integer (2**31 and up) in a URL are simply not found: a 404, never a 400 or 500
(PostgreSQL refuses to compare an integer column with them, and an aborted transaction would fail the rest of
the request)."""
from __future__ import annotations

from tournament.auth.operations import issue_token
from tournament.series import operations as series_ops

HUGE = 2**31


def test_pages_and_api_answer_404_for_huge_ids(client, db, organizer, login, make_event):
    event = make_event(name="Huge ids")
    series = series_ops.create_series(organizer, {"name": "League"})
    token = issue_token(organizer)
    db.session.commit()
    login(organizer)
    for path in (f"/events/{HUGE}", f"/events/{HUGE}/standings", f"/events/{event.id}/rounds/{HUGE}",
                 f"/events/{HUGE}/projector", f"/events/{event.id}/rounds/{HUGE}/projector",
                 f"/series/{HUGE}"):
        assert client.get(path).status_code == 404, path
    bearer = {"Authorization": f"Bearer {token}"}
    for method, path in (("get", f"/api/v1/events/{HUGE}"), ("get", f"/api/v1/series/{HUGE}"),
                         ("delete", f"/api/v1/series/{series.id}/events/{HUGE}"),
                         ("get", f"/api/v1/events/{event.id}/registrations/{HUGE}"),
                         ("get", f"/api/v1/events/{event.id}/rounds/{HUGE}")):
        response = getattr(client, method)(path, headers=bearer)
        assert response.status_code == 404, (path, response.get_json())
