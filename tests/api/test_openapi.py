"""The OpenAPI document at /api/v1/openapi.json matches the implementation.

(a) the URL map under /api/v1 and the document list the same paths and methods;
(b) real responses validate against the documented schemas (here for every
operation's documented success, with the document's own request examples, and
in tests/api/test_api.py for every response those tests see, errors included);
plus: the document is well formed (every schema a valid Draft 2020-12 schema), security is as documented, and
the jsonschema check really rejects what it should. The document is generated (tournament.web.openapi.build)
from the routes' declarations; nothing in it is written by hand.
"""
from __future__ import annotations

import re

import pytest

from jsonschema import Draft202012Validator

from tests.api.openapi_check import Document
from tournament.api import views
from tournament.auth.operations import issue_token
from tournament.events import schemas

PREFIX = "/api/v1"
METHODS = {"get", "put", "post", "delete", "patch", "head", "options", "trace"}


def api_rules(app) -> dict[str, set[str]]:
    """{"/events/{event_id}": {"get", "patch"}, ...} from the URL map, in OpenAPI path syntax."""
    out: dict[str, set[str]] = {}
    for rule in app.url_map.iter_rules():
        if not rule.rule.startswith(PREFIX + "/"):
            continue
        path = re.sub(r"<(?:[^:<>]+:)?([^<>]+)>", r"{\1}", rule.rule[len(PREFIX):])
        out.setdefault(path, set()).update(m.lower() for m in rule.methods - {"HEAD", "OPTIONS"})
    return out


# The operations these tests drive from a fresh event with one registration; the other features' API tests
# (tests/api/test_api_rounds.py, ...) drive theirs through the state they need.
DRIVEN = re.compile(r"^/(health|openapi\.json|events(/\{event_id\}(/copy|/registrations(/\{registration_id\}"
                    r"(/checkin|/drop|/notes|/decklist|/swaps)?)?)?)?|players/\{code\}(/decklist|/swaps)?)$")


def operations(doc, driven: bool = False):
    for path, item in doc["paths"].items():
        if driven and not DRIVEN.match(path):
            continue
        for method, op in item.items():
            if method in METHODS:
                yield path, method, item, op


@pytest.fixture
def spec(app) -> Document:
    return Document(app)


def document(app=None):
    from flask import current_app
    return views.document(app or current_app._get_current_object())


def public(op, doc) -> bool:
    """No token needed: the operation's security has the empty alternative."""
    return {} in op.get("security", doc["security"]) or op.get("security", doc["security"]) == []


def schemas_in(doc):
    """Every schema object in the document, with where it is."""
    def walk(schema, where):
        yield where, schema
        for key in ("properties",):
            for name, sub in schema.get(key, {}).items():
                yield from walk(sub, f"{where}.{name}")
        if isinstance(schema.get("items"), dict):
            yield from walk(schema["items"], f"{where}[]")
        if isinstance(schema.get("additionalProperties"), dict):
            yield from walk(schema["additionalProperties"], f"{where}{{}}")
        for i, sub in enumerate(schema.get("anyOf", []) + schema.get("oneOf", []) + schema.get("allOf", [])):
            yield from walk(sub, f"{where}|{i}")

    for name, schema in doc["components"]["schemas"].items():
        yield from walk(schema, f"components.schemas.{name}")
    for path, method, item, op in operations(doc):
        for param in item.get("parameters", []) + op.get("parameters", []):
            yield from walk(param["schema"], f"{method} {path} ({param['name']})")
        for media_type, media in op.get("requestBody", {}).get("content", {}).items():
            yield from walk(media["schema"], f"{method} {path} body {media_type}")
        for status, response in op["responses"].items():
            for media in resolve(response, doc).get("content", {}).values():
                yield from walk(media["schema"], f"{method} {path} {status}")


def resolve(entry: dict, doc: dict) -> dict:
    while "$ref" in entry:
        node = doc
        for part in entry["$ref"][2:].split("/"):
            node = node[part]                                       # a KeyError when it does not resolve
        entry = node
    return entry


def test_the_document_is_served_and_is_openapi_3_1(app, client):
    response = client.get("/api/v1/openapi.json")
    assert response.status_code == 200 and response.is_json
    doc = response.get_json()
    assert doc == document(app)
    assert doc["openapi"].startswith("3.1") and doc["info"]["title"] and doc["info"]["version"]
    assert doc["servers"] == [{"url": PREFIX}]
    assert doc["components"]["securitySchemes"]["bearerAuth"] == {
        "type": "http", "scheme": "bearer", "description": doc["components"]["securitySchemes"]["bearerAuth"][
            "description"]}
    assert doc["security"] == [{"bearerAuth": []}]
    assert set(doc["components"]["schemas"]["Error"]["properties"]["error"]["required"]) == {"status", "message"}


def test_every_rule_is_documented_with_the_same_methods_and_vice_versa(app):
    doc = document(app)
    documented = {path: {m for m in item if m in METHODS} for path, item in doc["paths"].items()}
    assert api_rules(app) == documented


def test_documented_limits_are_the_implementations(app, client):
    doc = document(app)
    event_id = next(p for p in doc["paths"]["/events/{event_id}"]["get"]["parameters"] if p["name"] == "event_id")[
        "schema"]
    for too_large in (event_id["maximum"] + 1, 10 ** 30):          # a documented 404, not a 405 or an overflow
        assert client.get(f"/api/v1/events/{too_large}").status_code == 404
        assert client.delete(f"/api/v1/events/1/registrations/{too_large}/checkin").status_code in (401, 404)
    q = next(p for p in doc["paths"]["/events/{event_id}/registrations"]["get"]["parameters"] if p["name"] == "q")
    assert q["schema"]["maxLength"] == schemas.MAX_QUERY
    limit = next(p for p in doc["paths"]["/events/{event_id}/registrations"]["get"]["parameters"]
                 if p["name"] == "limit")
    assert limit["schema"]["maximum"] == schemas.MAX_SEARCH_RESULTS
    settings = doc["components"]["schemas"]["EventUpdate"]["properties"]
    assert (settings["pod_size"]["minimum"], settings["pod_size"]["maximum"]) == schemas.bounds(
        schemas.EventSettings, "pod_size")
    assert settings["mode"]["enum"] == list(schemas.MODES)


def test_the_document_is_well_formed(app):
    doc = document(app)
    op_ids = [op["operationId"] for _, _, _, op in operations(doc)]
    assert len(op_ids) == len(set(op_ids))
    for path, method, item, op in operations(doc):
        where = f"{method.upper()} {path}"
        params = item.get("parameters", []) + op.get("parameters", [])
        in_path = {p["name"] for p in params if p["in"] == "path"}
        assert in_path == set(re.findall(r"{([^}]+)}", path)), where
        assert all(p["required"] for p in params if p["in"] == "path"), where
        assert op["summary"] and op["responses"], where
        assert any(code.startswith("2") for code in op["responses"]), where
        if not public(op, doc):
            assert "401" in op["responses"], f"{where}: a secured operation documents 401"
        if "requestBody" in op:
            assert "400" in op["responses"], where          # (413 and 415: not every declaration lists them yet)
        for code, response in op["responses"].items():
            content = resolve(response, doc)["content"]
            assert set(content) in ({"application/json"}, {"text/csv"}), where     # the open data's CSV
            schema = next(iter(content.values()))["schema"]
            if code.startswith(("4", "5")):
                assert schema == {"$ref": "#/components/schemas/Error"}, where
    for where, schema in schemas_in(doc):
        Draft202012Validator.check_schema(schema)
        if "$ref" in schema:
            resolve(schema, doc)                             # raises when it does not resolve
        if "required" in schema:
            assert set(schema["required"]) <= set(schema.get("properties", {})), where
        if isinstance(schema.get("type"), str):
            assert schema["type"] in ("object", "array", "string", "integer", "number", "boolean", "null"), where


def test_the_check_rejects_what_it_should(spec):
    error = {"$ref": "#/components/schemas/Error"}
    assert spec.validate({"error": {"status": 400, "message": "x", "field": "name"}}, error) == []
    assert spec.validate({"error": {"status": 400}}, error)                             # missing message
    assert spec.validate({"error": {"status": "400", "message": "x"}}, error)           # wrong type
    assert spec.validate({"error": {"status": 400, "message": "x", "extra": 1}}, error)  # undocumented property
    assert spec.validate({"error": {"status": 200, "message": "x"}}, error)             # below minimum
    assert spec.validate({"error": {"status": True, "message": "x"}}, error)            # bool is no integer
    color = {"$ref": "#/components/schemas/DeckCheck"}
    assert any("color_identity" in p for p in spec.validate({"color_identity": ["W", "X"]}, color))
    name = spec.doc["components"]["schemas"]["RegistrationCreate"]["properties"]["name"]
    assert spec.validate("山田 太郎", name) == [] and spec.validate("Šárka", name) == []
    assert spec.validate("a\x07b", name) and spec.validate("   ", name) and spec.validate("a\u0085", name)
    assert spec.response_problems("GET", "/api/v1/health", 201, {"status": "ok"})      # undocumented status
    assert spec.response_problems("GET", "/api/v1/health", 200, {"status": "bad"})
    assert spec.response_problems("GET", "/api/v1/health", 200, {"status": "ok"}) == []


@pytest.fixture
def setup(client, db, organizer, starter_cards):
    """A token, an event and a registration made through the API; path values for every template."""
    token = issue_token(organizer)
    db.session.commit()
    headers = {"Authorization": f"Bearer {token}"}
    event = client.post("/api/v1/events", headers=headers, json={"name": "E", "ruleset": "edh-2010"}).get_json()
    reg = client.post(f"/api/v1/events/{event['id']}/registrations", json={"name": "Anna"}).get_json()
    values = {"event_id": event["id"], "registration_id": reg["id"], "code": reg["access_code"]}
    return headers, values


def fill(path: str, values: dict) -> str:
    return PREFIX + re.sub(r"{([^}]+)}", lambda m: str(values[m.group(1)]), path)


def test_security_is_as_documented(app, client, setup, spec):
    """Without a token, secured operations answer 401 and public ones do not."""
    _headers, values = setup
    doc = document(app)
    for path, method, _item, op in operations(doc, driven=True):
        response = client.open(fill(path, values), method=method.upper())
        secured = not public(op, doc)
        assert (response.status_code == 401) == secured, f"{method.upper()} {path}: {response.status_code}"
        assert not spec.response_problems(method.upper(), fill(path, values), response.status_code, response.get_json())


def test_every_operation_answers_as_documented_with_the_documented_examples(app, client, setup, spec):
    headers, values = setup
    doc = document(app)
    seen = set()
    for path, method, _item, op in operations(doc, driven=True):
        url = fill(path, values)
        success = min(code for code in op["responses"] if code.startswith("2"))
        bodies = [{}]
        if "requestBody" in op:
            bodies = []
            for media_type, media in op["requestBody"]["content"].items():
                assert "example" in media, f"{method} {path}: no example for {media_type}"
                if media_type == "application/json":
                    bodies.append({"json": media["example"]})
                else:
                    bodies.append({"data": media["example"], "content_type": media_type})
        for body in bodies:
            response = client.open(url, method=method.upper(), headers=headers, **body)
            assert str(response.status_code) == success, (method, path, response.get_data(as_text=True)[:300])
            problems = spec.response_problems(method.upper(), url, response.status_code, response.get_json())
            assert not problems, (method, path, problems)
            seen.add(op["operationId"])
    assert seen == {op["operationId"] for _, _, _, op in operations(doc, driven=True)} and len(seen) == 22
