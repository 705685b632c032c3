"""The API's document as a page to read (/api/docs): the generated OpenAPI document rendered on the server, with no
script and nothing fetched from elsewhere, so it reads at a venue with no internet."""
from __future__ import annotations

from flask import Blueprint, render_template

from .views import document

bp = Blueprint("api_docs", __name__)
METHODS = ("get", "post", "put", "patch", "delete")


def ref_name(schema: dict) -> str | None:
    ref = schema.get("$ref", "") if isinstance(schema, dict) else ""
    return ref.rsplit("/", 1)[-1] if ref.startswith("#/components/schemas/") else None


def bounds(schema: dict) -> str:
    """'3–5', '≤ 200 characters', ... from a schema's limits."""
    parts = []
    low, high = schema.get("minimum", schema.get("exclusiveMinimum")), schema.get("maximum",
                                                                                 schema.get("exclusiveMaximum"))
    if low is not None or high is not None:
        parts.append(f"{'' if low is None else low}–{'' if high is None else high}")
    if "maxLength" in schema:
        parts.append(f"≤ {schema['maxLength']} characters")
    if "maxItems" in schema:
        parts.append(f"≤ {schema['maxItems']} items")
    return ", ".join(parts)


def kind(schema) -> str:
    """A schema in a few words: 'integer 3–5', 'one of pods, duel', 'array of Seat', 'Event or null'."""
    if not isinstance(schema, dict) or not schema:
        return "any"
    if ref_name(schema):
        return ref_name(schema)
    if "enum" in schema:
        return "one of " + ", ".join("null" if v is None else str(v) for v in schema["enum"])
    if "anyOf" in schema or "oneOf" in schema:
        return " or ".join(kind(s) for s in schema.get("anyOf", schema.get("oneOf")))
    if schema.get("type") == "array":
        return f"array of {kind(schema.get('items', {}))}" + (f" ({bounds(schema)})" if bounds(schema) else "")
    if schema.get("type") == "object" and isinstance(schema.get("additionalProperties"), dict):
        return f"object of {kind(schema['additionalProperties'])}"
    text = "/".join(schema["type"]) if isinstance(schema.get("type"), list) else str(schema.get("type", "any"))
    if schema.get("format"):
        text += f" ({schema['format']})"
    return f"{text} {bounds(schema)}".strip()


def operations(doc: dict) -> list[tuple[str, list[dict]]]:
    """(tag, [operation with its method and path]) in the document's order."""
    by_tag: dict[str, list[dict]] = {}
    for path, item in doc["paths"].items():
        for method in METHODS:
            if method in item:
                op = item[method]
                by_tag.setdefault(op.get("tags", ["other"])[0], []).append({**op, "method": method, "path": path})
    return list(by_tag.items())


@bp.get("/api/docs")
def api_docs():
    doc = document()
    return render_template("api/docs.html", doc=doc, groups=operations(doc), kind=kind, ref_name=ref_name,
                           schemas=doc["components"]["schemas"])
