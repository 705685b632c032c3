"""A pod's "Your round" box is rendered once and shared by the phones at it (tournament.rounds.box): each
phone must still see exactly the box rendered for it alone, in every state of the table."""
from __future__ import annotations

import re
from datetime import timedelta

import pytest



@pytest.fixture
def pod(make_round):
    event, rnd, regs = make_round(players=8, seed=3, name="Shared boxes", start=True)
    table = rnd.tables[0]
    by_id = {r.id: r for r in regs}
    return event, rnd, table, [by_id[s.registration_id] for s in table.seats]


CLOCK = re.compile(r"data-clock>(?:(\d+):)?(\d\d):(\d\d)<")


def _clock_seconds(html: str) -> list[int]:
    return [int(h or 0) * 3600 + int(m) * 60 + int(s) for h, m, s in CLOCK.findall(html)]


def _normal(html: str) -> str:
    html = re.sub(r'data-server-now="[^"]*"', "", html)
    html = CLOCK.sub("data-clock><", html)                    # the clock ticks between two renders
    html = re.sub(r'(name="csrf_token" value=)"[^"]*"', r"\1", html)     # each browser has its own token
    return re.sub(r">\s+<", "><", re.sub(r"\s+", " ", html)).strip()


def _boxes(app, players, monkeypatch, **headers):
    """Each player's box as the shared path serves it and as the whole render does."""
    shared, alone = [], []
    for p in players:
        shared.append(app.test_client().get(f"/p/{p.access_code}/round", headers=headers).get_data(as_text=True))
    with monkeypatch.context() as m:
        m.setattr("tournament.rounds.box._shareable", lambda reg, place: False)
        for p in players:
            alone.append(app.test_client().get(f"/p/{p.access_code}/round", headers=headers).get_data(as_text=True))
    return shared, alone


def _same(shared, alone):
    """Equal but for the clock's text, which is each phone's own "now": the later render a second or two on."""
    for mine, theirs in zip(shared, alone):
        assert _normal(mine) == _normal(theirs)
        for a, b in zip(_clock_seconds(mine), _clock_seconds(theirs), strict=True):
            assert 0 <= a - b <= 2


def test_each_phone_sees_its_own_box_at_the_round_start(app, db, pod, monkeypatch):
    event, rnd, table, players = pod
    shared, alone = _boxes(app, players, monkeypatch)
    _same(shared, alone)
    for p, html in zip(players, shared):
        assert re.search(r'<li value="\d+" class="you">' + re.escape(p.name) + " \\(you\\)</li>", html)
        assert html.count('class="you"') == 1
        assert f"/p/{p.access_code}/result" in html and f"/p/{p.access_code}/vote" in html
        others = [o.access_code for o in players if o.id != p.id]
        assert not any(code in html for code in others)          # never another player's code
        vote = re.search(r'<form[^>]*id="vote-form".*?</form>', html, re.S).group(0)
        assert f'<option value="{p.id}"' not in vote and vote.count("<option") == len(players)  # not for yourself


def test_the_box_is_rendered_once_per_pod(app, db, pod, monkeypatch):
    event, rnd, table, players = pod
    import tournament.rounds.box as box
    renders = []
    real = box._render_shared
    monkeypatch.setattr(box, "_render_shared", lambda reg: renders.append(reg.id) or real(reg))
    for p in players:
        assert app.test_client().get(f"/p/{p.access_code}/round").status_code == 200
    assert len(renders) == 1


def _later(monkeypatch, seconds):
    """The server's clock `seconds` on (for the box's clock and for the whole render's)."""
    from datetime import datetime as real
    import tournament.rounds.box as box
    import tournament.rounds.presenting as presenting

    class Later(real):
        @classmethod
        def now(cls, tz=None):
            return real.now(tz) + timedelta(seconds=seconds)
    monkeypatch.setattr(box, "datetime", Later)
    monkeypatch.setattr(presenting, "datetime", Later)


def test_each_phone_gets_its_own_clock_and_the_copy_lasts_until_time_is_up(app, db, pod, monkeypatch):
    event, rnd, table, players = pod
    import tournament.rounds.box as box
    renders = []
    real = box._render_shared
    monkeypatch.setattr(box, "_render_shared", lambda reg: renders.append(reg.id) or real(reg))
    box_of = lambda p: app.test_client().get(f"/p/{p.access_code}/round").get_data(as_text=True)
    first = _clock_seconds(box_of(players[0]))[0]
    _later(monkeypatch, 25)
    second = _clock_seconds(box_of(players[1]))[0]
    assert 23 <= first - second <= 27 and len(renders) == 1      # the same copy, each phone's own time left
    _later(monkeypatch, first + 60)                              # time is up: the copy says so, once
    over = box_of(players[2])
    assert len(renders) == 2 and _clock_seconds(over) == [0] and "round-timer over" in over
    assert re.search(r"data-timer-note>([^<]+)</span>", over).group(1).strip()      # what happens now
    with monkeypatch.context() as m:
        m.setattr("tournament.rounds.box._shareable", lambda reg, place: False)
        alone = box_of(players[2])
    _same([over], [alone])
    assert len(renders) == 2 and box_of(players[3]).count("round-timer over") == 1


def test_after_a_report_each_phone_gets_its_own_confirm(app, db, pod, monkeypatch):
    event, rnd, table, players = pod
    reporter = players[0]
    response = app.test_client().post(f"/p/{reporter.access_code}/result", data={
        "r-round": 1, "r-table": table.number, "r-revision": 0, "r-survivors": [players[1].id]})
    assert response.status_code == 302
    second = app.test_client().post(f"/p/{players[2].access_code}/confirm",
                                     data={"round": 1, "table": table.number, "revision": 1})
    assert second.status_code == 302
    shared, alone = _boxes(app, players, monkeypatch)
    _same(shared, alone)
    confirms = ['id="confirm-form"' in html for html in shared]
    assert confirms == [False, True, False, True]      # the reporter and the one who confirmed have nothing to confirm


def test_votes_each_phone_its_own_choice(app, db, pod, monkeypatch):
    event, rnd, table, players = pod
    voter, votee = players[0], players[1]
    response = app.test_client().post(f"/p/{voter.access_code}/vote",
                                      data={"round": 1, "table": table.number, "votee": votee.id})
    assert response.status_code == 302
    shared, alone = _boxes(app, players, monkeypatch)
    _same(shared, alone)
    assert "You voted for <strong>" in shared[0] and "You voted for" not in shared[1]


def test_in_another_language_and_for_staff(app, db, pod, monkeypatch, client, login, organizer):
    event, rnd, table, players = pod
    shared, alone = _boxes(app, players, monkeypatch, **{"Accept-Language": "ja"})
    _same(shared, alone)
    assert f"{players[0].name}（あなた）" in shared[0] and "(you)" not in shared[0]
    login(organizer)
    import tournament.rounds.box as box
    monkeypatch.setattr(box, "_render_shared", lambda reg: pytest.fail("staff see the whole box"))
    assert client.get(f"/p/{players[0].access_code}/round").status_code == 200


def test_a_dropped_player_and_a_reseat_are_never_served_an_old_copy(app, db, pod, monkeypatch, judge):
    event, rnd, table, players = pod
    for p in players:
        app.test_client().get(f"/p/{p.access_code}/round")
    from tournament.events import operations as events
    events.drop(players[3], judge)
    db.session.commit()
    shared, alone = _boxes(app, players, monkeypatch)
    _same(shared, alone)


def test_the_whole_player_page_shows_the_same_box(app, db, pod, monkeypatch):
    event, rnd, table, players = pod
    pages = {}
    for shareable in (True, False):
        with monkeypatch.context() as m:
            if not shareable:
                m.setattr("tournament.rounds.box._shareable", lambda reg, place: False)
            pages[shareable] = [app.test_client().get(f"/p/{p.access_code}").get_data(as_text=True) for p in players]
    _same(pages[True], pages[False])
    assert all("finish (and report) the game you are in first" in page for page in pages[True])


def test_with_form_tokens_each_phone_gets_its_own_and_it_works(app, db, pod):
    """In production every form carries the browser's own token: a copy shared by the pod must too."""
    event, rnd, table, players = pod
    app.config["WTF_CSRF_ENABLED"] = True
    tokens = []
    for p in players[:2]:
        phone = app.test_client()
        phone.get(f"/p/{p.access_code}")
        html = phone.get(f"/p/{p.access_code}/round").get_data(as_text=True)
        report = re.search(r"<form[^>]*id=\"report-form\".*?</form>", html, re.S).group(0)
        token = re.search(r'name="r-csrf_token" type="hidden" value="([^"]+)"', report).group(1)
        tokens.append(token)
        if p is players[1]:
            vote = re.search(r'<form[^>]*id="vote-form".*?</form>', html, re.S).group(0)
            vote_token = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', vote).group(1)
            sent = phone.post(f"/p/{p.access_code}/vote", data={"csrf_token": vote_token, "round": 1,
                                                                "table": table.number, "votee": players[0].id})
            assert sent.status_code == 302
    assert tokens[0] != tokens[1]
