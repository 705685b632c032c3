"""The one client for /api/v1 in tests: every response is JSON, never a 500, with a status the operation documents
and a body that validates against its schema in the served OpenAPI document (tests/api/openapi_check.py:
jsonschema Draft 2020-12, $refs resolved against the document's components)."""
from __future__ import annotations

from tests.api.openapi_check import Document

API = "/api/v1"


class Checked:
    def __init__(self, client, app=None):
        self.client = client
        self.document = Document(app or client.application)
        self.doc = self.document.doc

    def __call__(self, method, path, token=None, headers=None, **kwargs):
        headers = dict(headers or {})
        if token is not None:
            headers["Authorization"] = f"Bearer {token}"
        url = API + path
        response = self.client.open(url, method=method, headers=headers, **kwargs)
        assert response.status_code < 500, response.get_data(as_text=True)[:800]
        assert response.is_json, response.get_data(as_text=True)[:500]
        problems = self.document.response_problems(method, url.split("?")[0], response.status_code,
                                                   response.get_json())
        assert not problems, problems
        return response

    def get(self, path, **kw):
        return self("GET", path, **kw)

    def post(self, path, **kw):
        return self("POST", path, **kw)

    def put(self, path, **kw):
        return self("PUT", path, **kw)

    def patch(self, path, **kw):
        return self("PATCH", path, **kw)

    def delete(self, path, **kw):
        return self("DELETE", path, **kw)


def refused(response, status, message=None, field=None):
    """Assert an error response: status, {"error": {...}} body with a message, the message part and field."""
    body = response.get_json()
    assert response.status_code == status, body
    assert body["error"]["status"] == status
    assert body["error"]["message"]
    if message is not None:
        assert message in body["error"]["message"], body["error"]["message"]
    if field is not None:
        assert body["error"].get("field") == field, body
    return body["error"]
