"""Links never from the Host header: player links, receipts and the QR poster use the address phones open
(PUBLIC_URL, the address set on the event's print page, or the one found at start), and every document with a QR
code refuses loopback, unspecified and foreign hosts alike. The address can be set without a restart."""
from __future__ import annotations

import pytest
import sqlalchemy as sa

from tournament.auth.operations import issue_token
from tournament.events.models import AuditEntry, Event
from tournament.errors import Refused
from tournament.serve import detected_url
from tournament.web import links
from tests.api.apidoc import Checked, refused
from tests.conftest import PASSWORD

LOOPBACK_OR_NONE = ["127.0.0.1", "127.1", "127.0.0.2", "2130706433", "0x7f000001", "0177.0.0.1", "[::1]", "::1",
                    "[::ffff:127.0.0.1]", "localhost", "LOCALHOST.", "edh.localhost", "0.0.0.0", "0", "[::]",
                    "255.255.255.255", "224.0.0.1", ""]
HOSTILE_HOSTS = ["evil.example", "[::1]", "0.0.0.0", "2130706433", "127.0.0.1:5000", "localhost"]


@pytest.mark.parametrize("host", LOOPBACK_OR_NONE)
def test_addresses_phones_cannot_open(host):
    assert links.host_kind(host) in ("loopback", "unspecified")


@pytest.mark.parametrize("host", ["192.168.1.20", "10.0.0.5", "172.16.4.1", "edh.local", "example.com",
                                  "[fe80::1]", "2001:db8::5"])
def test_addresses_phones_can_open(host):
    assert links.host_kind(host) is None


@pytest.mark.parametrize("typed,stored", [
    ("http://192.168.1.20:5000", "http://192.168.1.20:5000"),
    ("  192.168.1.20:5000/ ", "http://192.168.1.20:5000"),
    ("HTTPS://EDH.Local", "https://edh.local"),
    ("http://[2001:db8::5]:8080", "http://[2001:db8::5]:8080"),
    ("", None), (None, None)])
def test_a_typed_address_is_read_as_scheme_host_and_port(typed, stored):
    assert links.clean_address(typed) == stored


@pytest.mark.parametrize("typed", [
    "http://127.0.0.1:5000", "http://2130706433:5000", "http://[::1]:5000", "http://0.0.0.0:5000", "localhost:5000",
    "ftp://192.168.1.20", "javascript:alert(1)", "http://192.168.1.20:5000/p/ABC", "http://user@192.168.1.20",
    "http://192.168.1.20:99999", "http://192.168.1.20?x=1", "http://192.168.1.20 5000", "http://x\x00y",
    "http://" + "a" * 300, 12])
def test_a_typed_address_phones_cannot_use_is_refused_in_words(typed):
    with pytest.raises(Refused) as e:
        links.clean_address(typed)
    assert e.value.field == "public_url" and e.value.message


def test_the_server_found_address_is_where_it_listens():
    assert detected_url("0.0.0.0", 5000) == "http://127.0.0.1:5000"
    assert detected_url("192.168.1.20", 5001) == "http://192.168.1.20:5001"
    assert detected_url("::1", 5000) == "http://[::1]:5000"


# ----------------------------------------------------------------- pages and documents

@pytest.mark.parametrize("host", HOSTILE_HOSTS)
def test_no_address_known_every_qr_document_refuses_whatever_the_host(client, db, login, make_event, make_player,
                                                                      judge, host):
    event = make_event()
    reg = make_player(event, "Ada")
    player = client.get(f"/p/{reg.access_code}/receipt", headers={"Host": host})
    assert player.status_code == 409 and "ask at the desk" in player.get_data(as_text=True)
    page = client.get(f"/p/{reg.access_code}", headers={"Host": host}).get_data(as_text=True)
    assert f"{host}/p/" not in page and f"//{host}" not in page          # no link from the Host header
    assert 'class="qr"' not in page and f'href="/p/{reg.access_code}" class="player-link"' in page   # the path
    logged_in = client.post("/auth/login", data={"name": judge.name, "password": PASSWORD}, headers={"Host": host})
    assert logged_in.status_code == 302                 # the session cookie is for this host
    for path in (f"/p/{reg.access_code}/receipt", f"/events/{event.id}/print/poster.pdf",
                 f"/events/{event.id}/print/receipts.pdf"):
        response = client.get(path, headers={"Host": host})
        assert response.status_code == 409, (path, response.status_code)
        assert "print page" in response.get_data(as_text=True)          # the staff's words: what to do
        assert "address phones open" in response.get_data(as_text=True)
        assert host not in response.get_data(as_text=True)


@pytest.mark.parametrize("found", ["http://127.0.0.1:5000", "http://[::1]:5000", "http://0.0.0.0:5000",
                                   "http://2130706433:5000", "http://localhost:5000"])
def test_a_loopback_or_unspecified_address_is_refused_on_paper(app, client, db, login, make_event, make_player,
                                                               judge, found):
    app.config["DETECTED_URL"] = found                 # scripts/run without --lan
    event = make_event()
    reg = make_player(event, "Ada")
    page = client.get(f"/p/{reg.access_code}").get_data(as_text=True)
    assert f"{found}/p/{reg.access_code}" in page       # the page shows where it is (this laptop)
    assert client.get(f"/p/{reg.access_code}/receipt").status_code == 409
    login(judge)
    for path in (f"/p/{reg.access_code}/receipt", f"/events/{event.id}/print/poster.pdf",
                 f"/events/{event.id}/print/receipts.pdf"):
        response = client.get(path)
        assert response.status_code == 409 and "only this computer can open" in response.get_data(as_text=True)
    printing = client.get(f"/events/{event.id}/print").get_data(as_text=True)
    assert 'id="address-warning"' in printing and 'id="address-form"' in printing


def test_the_address_set_on_the_print_page_works_at_once(app, client, db, login, make_event, make_player, judge):
    from tests.printing.pdf_helpers import pdf_text, squash
    app.config["DETECTED_URL"] = "http://127.0.0.1:5000"
    event = make_event()
    reg = make_player(event, "Ada")
    login(judge)
    client.post("/auth/login", data={"name": judge.name, "password": PASSWORD}, headers={"Host": "evil.example"})
    url = f"/events/{event.id}/print/address"
    response = client.post(url, data={"public_url": "http://2130706433:5000"})
    assert response.status_code == 400 and "only this computer" in response.get_data(as_text=True)
    assert db.session.get(Event, event.id).public_url is None
    assert client.post(url, data={"public_url": "http://192.168.1.20:5000"}).status_code == 302
    printing = client.get(f"/events/{event.id}/print").get_data(as_text=True)
    assert '<code id="public-address">http://192.168.1.20:5000</code>' in printing and "address-warning" not in printing
    poster = client.get(f"/events/{event.id}/print/poster.pdf", headers={"Host": "evil.example"})
    assert poster.status_code == 200 and f"http://192.168.1.20:5000/events/{event.id}/register" in pdf_text(poster.data)
    receipts = client.get(f"/events/{event.id}/print/receipts.pdf", headers={"Host": "evil.example"})
    assert f"http://192.168.1.20:5000/p/{reg.access_code}" in squash(pdf_text(receipts.data))
    receipt = client.get(f"/p/{reg.access_code}/receipt", headers={"Host": "evil.example"}).get_data(as_text=True)
    assert f"http://192.168.1.20:5000/p/{reg.access_code}" in receipt and "evil.example" not in receipt
    dashboard = client.get(f"/events/{event.id}", headers={"Host": "evil.example"}).get_data(as_text=True)
    assert f"http://192.168.1.20:5000/events/{event.id}/register" in dashboard and "evil.example" not in dashboard
    entry = db.session.execute(sa.select(AuditEntry).where(AuditEntry.action == "event.public_url")).scalar_one()
    assert entry.actor == "judge:Jan Judge" and entry.details == {"address": "http://192.168.1.20:5000"}
    # empty: back to the address found at start (loopback here: refused on paper again)
    assert client.post(url, data={"public_url": ""}).status_code == 302
    assert client.get(f"/events/{event.id}/print/poster.pdf").status_code == 409
    assert "went back to the address" in client.get(f"/events/{event.id}/log").get_data(as_text=True)


def test_public_url_wins_and_cannot_be_changed_from_a_page(app, client, db, login, make_event, judge):
    app.config["PUBLIC_URL"] = "https://edh.example.org"
    event = make_event()
    login(judge)
    printing = client.get(f"/events/{event.id}/print").get_data(as_text=True)
    assert "https://edh.example.org" in printing and 'id="address-form"' not in printing
    response = client.post(f"/events/{event.id}/print/address", data={"public_url": "http://192.168.1.20:5000"})
    assert response.status_code == 409 and "PUBLIC_URL" in response.get_data(as_text=True)
    assert db.session.get(Event, event.id).public_url is None


def test_api_links_and_the_address_setting(client, db, make_event, make_player, organizer, make_user):
    api = Checked(client)
    token = issue_token(organizer)
    db.session.commit()
    event = make_event()
    reg = make_player(event, "Ada")
    body = api.get(f"/events/{event.id}/registrations/{reg.id}", token=token,
                   headers={"Host": "evil.example"}).get_json()
    assert body["links"]["page"] == f"/p/{reg.access_code}"             # no address known: the path alone
    answer = api.put(f"/events/{event.id}/public-address", token=token,
                     json={"public_url": "http://192.168.1.20:5000"}).get_json()
    assert answer == {"public_url": "http://192.168.1.20:5000", "address": "http://192.168.1.20:5000"}
    body = api.get(f"/events/{event.id}/registrations/{reg.id}", token=token,
                   headers={"Host": "evil.example"}).get_json()
    assert body["links"]["page"] == f"http://192.168.1.20:5000/p/{reg.access_code}"
    for bad in ("http://[::1]", "http://0.0.0.0", 5, "http://x/y"):
        refused(api.put(f"/events/{event.id}/public-address", token=token, json={"public_url": bad}), 400,
                field="public_url")
    refused(api.put(f"/events/{event.id}/public-address", token=issue_token(make_user("Otto", "organizer")),
                    json={"public_url": "http://192.168.1.20"}), 403)
    assert api.put(f"/events/{event.id}/public-address", token=token, json={"public_url": None}).get_json() == \
        {"public_url": None, "address": None}


def test_the_command_line_prints_from_the_events_address_too(runner, db, make_event, make_player, judge, tmp_path):
    from tests.printing.pdf_helpers import pdf_text
    from tournament.events import operations as ops
    event = make_event()
    make_player(event, "Ada")
    out = tmp_path / "poster.pdf"
    refused_run = runner.invoke(args=["print", "poster", "--event", str(event.id), "-o", str(out)])
    assert refused_run.exit_code != 0 and "address phones open" in refused_run.output
    ops.set_public_address(event, judge, "http://192.168.1.20:5000")
    db.session.commit()
    result = runner.invoke(args=["print", "poster", "--event", str(event.id), "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert f"http://192.168.1.20:5000/events/{event.id}/register" in pdf_text(out.read_bytes())
