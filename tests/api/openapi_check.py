"""Responses against the served OpenAPI document, with jsonschema (Draft 2020-12, $refs resolved against the
document): the status is one the operation documents and the JSON body validates against its schema.
Undocumented addresses and methods must answer with the Error schema."""
from __future__ import annotations

import re

from jsonschema import Draft202012Validator, FormatChecker
from referencing import Registry, Resource

from tournament.api.views import document

DOC_URI = "urn:openapi"


class Document:
    def __init__(self, app):
        with app.app_context():
            self.doc = document(app)
        self.registry = Registry().with_resource(DOC_URI, Resource.from_contents(
            {**self.doc, "$schema": "https://json-schema.org/draft/2020-12/schema"}))
        self.server = self.doc["servers"][0]["url"]
        self.routes = sorted(((re.compile("^" + re.sub(r"\\\{[^/]+?\\\}", "[^/]+", re.escape(path)) + "$"), path)
                              for path in self.doc["paths"]), key=lambda r: r[1].count("{"))

    def validate(self, instance, schema: dict) -> list[str]:
        validator = Draft202012Validator(rebase(schema), registry=self.registry, format_checker=FormatChecker())
        return [f"{'/'.join(map(str, e.absolute_path)) or '$'}: {e.message[:300]}"
                for e in validator.iter_errors(instance)]

    def resolve(self, entry: dict) -> dict:
        while "$ref" in entry:
            node = self.doc
            for part in entry["$ref"][2:].split("/"):
                node = node[part]
            entry = node
        return entry

    def find(self, method: str, path: str):
        if not path.startswith(self.server + "/"):
            return None
        relative = path[len(self.server):]
        for rx, template in self.routes:
            if rx.match(relative):
                return template, self.doc["paths"][template].get(method.lower())
        return None

    def response_problems(self, method: str, path: str, status: int, body) -> list[str]:
        found = self.find(method, path)
        if found is None or found[1] is None:
            if status >= 400:
                return self.validate(body, {"$ref": "#/components/schemas/Error"})
            return [f"{method} {path} answered {status} but is not in the document"]
        template, operation = found
        entry = operation["responses"].get(str(status))
        if entry is None:
            return [f"{method} {template}: status {status} is not documented "
                    f"(documented: {', '.join(operation['responses'])})"]
        media = self.resolve(entry).get("content", {}).get("application/json")
        if media is None:
            return [f"{method} {template}: {status} has no application/json schema"]
        return self.validate(body, media["schema"])


def rebase(schema):
    """Local $refs ("#/components/...") point into the document's resource."""
    if isinstance(schema, dict):
        return {k: (DOC_URI + v if k == "$ref" and isinstance(v, str) and v.startswith("#") else rebase(v))
                for k, v in schema.items()}
    if isinstance(schema, list):
        return [rebase(v) for v in schema]
    return schema
