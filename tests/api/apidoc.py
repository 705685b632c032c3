"""A client for /api/v1 that checks every response against the generated OpenAPI document: the status is one
the operation documents, and the JSON body validates (jsonschema Draft 2020-12, $refs resolved against the
document's components)."""
from __future__ import annotations

import re

from jsonschema import Draft202012Validator
from referencing import Registry, Resource

from tournament.web.openapi import build

API = "/api/v1"


def document(app) -> dict:
    """The served document (GET /api/v1/openapi.json) when it is the generated one (it lists these operations),
    else one generated here from the same declarations."""
    served = app.test_client().get(API + "/openapi.json")
    if served.status_code == 200 and served.is_json:
        doc = served.get_json()
        ids = {op.get("operationId") for item in doc.get("paths", {}).values() for op in item.values()
               if isinstance(op, dict)}
        if {"rounds_publish", "events_export", "tracker_act", "series_get"} <= ids:
            return doc
    with app.test_request_context():
        return build(app, "EDH tournament manager API", "1", "test")


class Checked:
    def __init__(self, client, app):
        self.client = client
        self.doc = document(app)
        self.registry = Registry().with_resource("urn:doc", Resource.from_contents(
            {**self.doc, "$schema": "https://json-schema.org/draft/2020-12/schema"}))
        self.routes = [(re.compile("^" + re.sub(r"\{[^}]+\}", "[^/]+", path) + "$"), path)
                       for path in self.doc["paths"]]

    def operation(self, method: str, path: str) -> dict:
        matches = [p for rx, p in self.routes if rx.match(path)]
        # the most literal path wins (/rounds/top-cut over /rounds/{number})
        matches.sort(key=lambda p: p.count("{"))
        for p in matches:
            if method.lower() in self.doc["paths"][p]:
                return self.doc["paths"][p][method.lower()]
        raise AssertionError(f"{method} {path} is not in the document")

    def check(self, method: str, path: str, status: int, body) -> None:
        op = self.operation(method, path)
        entry = op["responses"].get(str(status))
        assert entry is not None, f"{method} {path}: {status} is not documented ({sorted(op['responses'])}): {body}"
        if "$ref" in entry:
            entry = self.doc["components"]["responses"][entry["$ref"].rsplit("/", 1)[1]]
        schema = entry.get("content", {}).get("application/json", {}).get("schema")
        if schema is None:
            return
        schema = _rebase(schema)
        validator = Draft202012Validator(schema, registry=self.registry,
                                         format_checker=Draft202012Validator.FORMAT_CHECKER)
        errors = sorted(validator.iter_errors(body), key=lambda e: list(e.path))
        assert not errors, f"{method} {path} {status}: {errors[0].message} at {list(errors[0].path)}"

    def __call__(self, method, path, token=None, json=None, headers=None, **kw):
        headers = dict(headers or {})
        if token is not None:
            headers["Authorization"] = f"Bearer {token}"
        response = self.client.open(API + path, method=method, headers=headers, json=json, **kw)
        assert response.status_code < 500, response.get_data(as_text=True)[:800]
        assert response.is_json, response.get_data(as_text=True)[:500]
        self.check(method, path.split("?")[0], response.status_code, response.get_json())
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


def _rebase(schema):
    """#/components/... refs as refs into the registered document."""
    if isinstance(schema, dict):
        return {k: ("urn:doc" + v if k == "$ref" and isinstance(v, str) and v.startswith("#/") else _rebase(v))
                for k, v in schema.items()}
    if isinstance(schema, list):
        return [_rebase(v) for v in schema]
    return schema


def refused(response, status, message=None, field=None):
    body = response.get_json()
    assert response.status_code == status, body
    assert body["error"]["status"] == status
    if message is not None:
        assert message in body["error"]["message"], body["error"]["message"]
    if field is not None:
        assert body["error"].get("field") == field, body
    return body["error"]
