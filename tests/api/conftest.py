"""Fixtures of the API tests: the checking client and staff tokens."""
from __future__ import annotations

import pytest

from tournament.auth.operations import issue_token

from tests.api.apidoc import Checked


@pytest.fixture
def api(client):
    return Checked(client)


@pytest.fixture
def token(db, organizer):
    value = issue_token(organizer)
    db.session.commit()
    return value


@pytest.fixture
def other_token(db, make_user):
    value = issue_token(make_user("Otto Other", "organizer"))
    db.session.commit()
    return value
