"""The OpenAPI 3.1 document, generated from the API's route declarations (tournament.web.api.operation) and the
URL map, assembled with apispec. Nothing in it is written by hand but the words each declaration carries."""
from __future__ import annotations

import re
from typing import Any, get_args, get_origin

import pydantic
from apispec import APISpec

MAX_ID = 2147483647
ERROR_TEXT = {
    "400": "The input is refused; the message says what to change.",
    "401": "No valid staff token (send 'Authorization: Bearer <token>').",
    "403": "This token's user may not do this at this event.",
    "404": "No such event, round, table, registration or access code.",
    "409": "The request conflicts with the current state (or with a change made at the same moment).",
    "413": "The body is too large.",
    "415": "The body must be JSON (or text/plain for a decklist).",
    "429": "Too many attempts; wait and retry.",
}
ERROR_SCHEMA = {
    "type": "object", "additionalProperties": False, "required": ["error"],
    "properties": {"error": {
        "type": "object", "additionalProperties": False, "required": ["status", "message"],
        "properties": {
            "status": {"type": "integer", "minimum": 400, "maximum": 599},
            "message": {"type": "string", "description": "What was wrong and what to do instead."},
            "field": {"type": "string", "description": "The input field at fault, when there is one."}}}},
}
_ARGUMENT = re.compile(r"<(?:([^:<>]+):)?([^<>]+)>")
_BOUND = re.compile(r"(min|max)\s*=\s*(\d+)")


class Components:
    """Pydantic models as named component schemas (their nested models hoisted beside them)."""

    def __init__(self, spec: APISpec):
        self.spec = spec
        self.done: set[str] = set()
        self.owners: dict[str, type] = {}
        self.defined: dict[str, dict] = {}

    def schema(self, shape: Any) -> dict:
        """A JSON Schema (a $ref for a model) for a model, list[Model], or a plain JSON Schema dict."""
        if shape is None:
            return {}
        if isinstance(shape, dict):
            return shape
        if get_origin(shape) is list:
            return {"type": "array", "items": self.schema(get_args(shape)[0])}
        if isinstance(shape, type) and issubclass(shape, pydantic.BaseModel):
            return self.model(shape)
        raise TypeError(f"not a schema: {shape!r}")

    def model(self, model: type[pydantic.BaseModel], mode: str = "serialization") -> dict:
        name = model.__name__
        owner = self.owners.setdefault(name, model)
        if owner is not model:
            raise TypeError(f"two schemas are named {name}: {owner.__module__}.{name} and {model.__module__}.{name};"
                            f" rename one (the document names its schemas by class name)")
        if name not in self.done:
            schema = model.model_json_schema(ref_template="#/components/schemas/{model}", mode=mode)
            for sub, definition in schema.pop("$defs", {}).items():
                self._nested(sub, definition)
            self.done.add(name)
            self.defined[name] = schema
            self.spec.components.schema(name, schema)
        return {"$ref": f"#/components/schemas/{name}"}

    def _nested(self, name: str, definition: dict) -> None:
        """A model nested in another: defined once; a different model of the same name is an error."""
        if name in self.defined:
            if self.defined[name] != definition:
                raise TypeError(f"two different schemas are named {name}; rename one")
            return
        self.done.add(name)
        self.defined[name] = definition
        self.spec.components.schema(name, definition)


def path_of(rule) -> tuple[str, list[dict]]:
    """'/events/<int:event_id>' -> ('/events/{event_id}', [its path parameter])."""
    params = []
    for converter, name in _ARGUMENT.findall(rule.rule):
        bounds = dict(_BOUND.findall(converter))            # <int(min=2, max=3):game>: the rule's own bounds
        schema = ({"type": "integer", "minimum": int(bounds.get("min", 1)), "maximum": int(bounds.get("max", MAX_ID))}
                  if converter.startswith("int") else {"type": "string", "minLength": 1, "maxLength": 64})
        params.append({"name": name, "in": "path", "required": True, "schema": schema})
    prefix = rule.rule.split("/api/v1", 1)[1]
    return _ARGUMENT.sub(r"{\2}", prefix), params


def query_parameters(components: Components, model: type[pydantic.BaseModel]) -> list[dict]:
    schema = model.model_json_schema(ref_template="#/components/schemas/{model}")
    required = set(schema.get("required", []))
    return [{"name": name, "in": "query", "required": name in required, "schema": prop,
             **({"description": prop["description"]} if "description" in prop else {})}
            for name, prop in schema.get("properties", {}).items()]


def operation_entry(components: Components, declared, params: list[dict]) -> dict:
    entry: dict[str, Any] = {"operationId": declared.operation_id, "summary": declared.summary,
                             "tags": declared.tags, "responses": {}}
    if declared.description:
        entry["description"] = declared.description
    if declared.public:
        entry["security"] = [{}, {"bearerAuth": []}]
    parameters = list(params)
    if declared.query is not None:
        parameters += query_parameters(components, declared.query)
    if parameters:
        entry["parameters"] = parameters
    if declared.body is not None:
        content = {"schema": components.model(declared.body, mode="validation")}
        if declared.examples.get("body"):
            content["example"] = declared.examples["body"]
        entry["requestBody"] = {"required": declared.body_required,
                                "content": {"application/json": content, **declared.media}}
    ok = {"description": declared.summary}
    if declared.response is not None:
        ok["content"] = {declared.response_media: {"schema": components.schema(declared.response)}}
    entry["responses"][str(declared.status)] = ok
    for code in declared.errors.split():
        entry["responses"][code] = {"$ref": f"#/components/responses/E{code}"}
    return entry


def build(app, title: str, version: str, description: str) -> dict:
    """The document for every declared route of the API blueprint."""
    spec = APISpec(title=title, version=version, openapi_version="3.1.0",
                   info={"description": description}, servers=[{"url": "/api/v1"}],
                   security=[{"bearerAuth": []}])
    spec.components.security_scheme("bearerAuth", {"type": "http", "scheme": "bearer",
                                                   "description": "A staff token from `flask user token NAME`."})
    spec.components.schema("Error", ERROR_SCHEMA)
    for code, text in ERROR_TEXT.items():
        spec.components.response(f"E{code}", {"description": text, "content": {"application/json": {
            "schema": {"$ref": "#/components/schemas/Error"}}}})
    components = Components(spec)
    components.done.add("Error")
    paths: dict[str, dict] = {}
    for rule in sorted(app.url_map.iter_rules(), key=lambda r: r.rule):
        declared = getattr(app.view_functions.get(rule.endpoint), "api_operation", None)
        if declared is None:
            continue
        path, params = path_of(rule)
        for method in sorted(rule.methods - {"HEAD", "OPTIONS"}):
            entry = operation_entry(components, declared, params)
            entry["x-links"] = declared.links
            paths.setdefault(path, {})[method.lower()] = entry
    _link(paths)
    for path, operations in paths.items():
        spec.path(path=path, operations=operations)
    return spec.to_dict()


def _link(paths: dict) -> None:
    """OpenAPI links from each declaration's `links`: the next operation, its parameters from this answer, and the
    path parameters both share taken from this request (a stateful client walks an event through them)."""
    by_id = {entry["operationId"]: entry for item in paths.values() for entry in item.values()}
    for entry in by_id.values():
        links = entry.pop("x-links", None) or {}
        ok = next((r for code, r in entry["responses"].items() if code.startswith("2")), None)
        mine = {p["name"] for p in entry.get("parameters", []) if p["in"] == "path"}
        for target, given in links.items():
            if target not in by_id:
                raise KeyError(f"{entry['operationId']} links to {target}, which no route declares")
            wanted = [p["name"] for p in by_id[target].get("parameters", []) if p["in"] == "path"]
            parameters = {name: f"$request.path.{name}" for name in wanted if name in mine and name not in given}
            parameters.update(given)
            ok.setdefault("links", {})[target] = {"operationId": target, "parameters": parameters}
