"""Download routes and the `flask print` command: PDFs for staff, clear 4xx for everything else."""
from __future__ import annotations

from pdf_helpers import NAMES, pdf_text, squash


def test_download_returns_a_pdf_for_the_organizer_and_judges(client, login, pods_event, judge):
    login(pods_event.organizer)
    r = client.get(f"/events/{pods_event.id}/print/pairings-by-table.pdf?round=2")
    assert r.status_code == 200 and r.mimetype == "application/pdf"
    assert f'filename="event-{pods_event.id}-pairings-by-table-round-2.pdf"' in r.headers["Content-Disposition"]
    flat = squash(pdf_text(r.data))
    assert all(squash(n) in flat for n in NAMES)
    page = client.get(f"/events/{pods_event.id}/print")
    assert page.status_code == 200 and b"pairings-by-name.pdf?round=2" in page.data
    dash = client.get(f"/events/{pods_event.id}")
    assert f"/events/{pods_event.id}/print".encode() in dash.data
    client.post("/auth/logout")
    login(judge)
    r = client.get(f"/events/{pods_event.id}/print/rules.pdf")
    assert r.status_code == 200 and r.data.startswith(b"%PDF")


def test_download_refuses_other_organizers_and_strangers(client, login, pods_event, make_user):
    r = client.get(f"/events/{pods_event.id}/print/rules.pdf")
    assert r.status_code in (302, 401)                       # logged out: to the login page
    login(make_user("Other Organizer", "organizer"))
    r = client.get(f"/events/{pods_event.id}/print/rules.pdf")
    assert r.status_code == 403 and b"another organizer" in r.data


def test_bad_inputs_are_4xx_with_a_message(client, login, pods_event, make_event):
    login(pods_event.organizer)
    base = f"/events/{pods_event.id}/print"
    cases = {
        f"{base}/nonsense.pdf": (404, b"no printable document"),
        f"{base}/pairings-by-table.pdf?round=9": (404, b"Round 9 does not exist"),
        f"{base}/pairings-by-table.pdf?round=abc": (400, b"whole number"),
        f"{base}/standings.pdf?round=-1": (400, b"whole number"),
        f"{base}/standings.pdf?round=0": (400, b"1 or more"),
        f"{base}/result-slips.pdf?round=99999999999999999999": (400, b"whole number"),
        "/events/999999/print/rules.pdf": (404, b""),
    }
    for url, (status, words) in cases.items():
        r = client.get(url)
        assert r.status_code == status, (url, r.status_code)
        assert words in r.data, (url, r.data[:300])
    empty = make_event(name="Not paired yet")
    r = client.get(f"/events/{empty.id}/print/pairings-by-name.pdf")
    assert r.status_code == 409 and b"pair round 1 first" in r.data
    assert client.get(f"/events/{empty.id}/print/standings.pdf").status_code == 200
    assert client.get(f"/events/{empty.id}/print/prize-slips.pdf").status_code == 200


def test_cli_writes_a_pdf(runner, pods_event, tmp_path):
    out = tmp_path / "pairings.pdf"
    result = runner.invoke(args=["print", "pairings-by-name", "--event", str(pods_event.id), "--round", "1",
                                 "-o", str(out)])
    assert result.exit_code == 0, result.output
    data = out.read_bytes()
    assert data.startswith(b"%PDF")
    flat = squash(pdf_text(data))
    assert all(squash(n) in flat for n in NAMES)


def test_cli_refuses_bad_input(runner, pods_event, tmp_path):
    out = str(tmp_path / "x.pdf")
    for args, words in ((["nonsense", "--event", str(pods_event.id)], "no printable document"),
                        (["rules", "--event", "abc"], "must be an event's id"),
                        (["rules", "--event", "424242"], ""),
                        (["standings", "--event", str(pods_event.id), "--round", "x"], "whole number")):
        result = runner.invoke(args=["print", *args, "-o", out])
        assert result.exit_code != 0 and words in result.output, (args, result.output)
        assert "Traceback" not in result.output


def test_the_qr_poster_points_phones_at_the_public_address(app, client, pods_event, organizer, login):
    from pdf_helpers import pdf_text
    login(organizer)
    refused = client.get(f"/events/{pods_event.id}/print/poster.pdf")
    assert refused.status_code == 409 and b"need the address phones open" in refused.data   # no address yet
    app.config["PUBLIC_URL"] = "http://192.168.1.20:5000"
    r = client.get(f"/events/{pods_event.id}/print/poster.pdf")
    assert r.status_code == 200 and r.mimetype == "application/pdf"
    text = pdf_text(r.data)
    assert f"http://192.168.1.20:5000/events/{pods_event.id}/register" in text
    assert "Scan to register" in text and "Friday <i>EDH</i> 金曜日" in text
    assert b"poster.pdf" in client.get(f"/events/{pods_event.id}/print").data


def test_every_receipt_at_once_with_codes_and_links(app, client, pods_event, organizer, login):
    from pdf_helpers import pdf_text
    login(organizer)
    app.config["PUBLIC_URL"] = "http://192.168.1.20:5000"
    r = client.get(f"/events/{pods_event.id}/print/receipts.pdf")
    assert r.status_code == 200
    flat = squash(pdf_text(r.data))
    for reg in pods_event.registrations:
        assert squash(reg.name) in flat and reg.access_code in flat
        assert f"http://192.168.1.20:5000/p/{reg.access_code}" in flat
