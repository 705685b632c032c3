"""The JSON API's one way to declare an operation: its URL's loads and policy (the request handler), its input
and output schemas (pydantic models), and the words of its OpenAPI entry.

    @bp.post("/events/<int:event_id>/rounds/<int:number>/publish")
    @operation("rounds_publish", "Publish a draft round.", tags=["rounds"], load=ROUND, policy=staff,
               response=RoundOut, errors="401 403 404 409")
    def round_publish(rh):
        ops.publish_round(rh.round, rh.user)
        return round_json(rh.round)

`body=` and `query=` are pydantic models: the request's JSON body or query string is parsed with them before
the view runs (rh.body, rh.query), and a value they refuse is a 400 naming the field; the same models are the
OpenAPI document's schemas (tournament.web.openapi generates the document from these declarations and the
URL map). Pydantic over marshmallow: its models give JSON Schema 2020-12 directly (what OpenAPI 3.1 uses),
their bounds are plain data the web forms read too, and they validate in compiled code.
"""
from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from typing import Any

import pydantic
from flask import Blueprint, Response, g, jsonify, request

from ..errors import Refused
from .handler import handler

bp = Blueprint("api", __name__, url_prefix="/api/v1")
MAX_BODY_BYTES = 4 * 1024 * 1024      # a 1 MB decklist fits even JSON-escaped; more is refused with 413
TOKEN_HELP = "Get a token with `flask --app wsgi user token NAME`."


@dataclass
class Operation:
    """What the OpenAPI document says of one route: written once, beside the view."""
    operation_id: str
    summary: str
    tags: list[str]
    body: type[pydantic.BaseModel] | None = None
    body_required: bool = True
    query: type[pydantic.BaseModel] | None = None
    response: Any = None                # a pydantic model (or list[Model]) or a JSON Schema dict
    status: int = 200
    errors: str = ""                    # "400 401 404": the refusals this operation may answer
    public: bool = False                # no token needed (players, the public)
    description: str | None = None
    examples: dict = field(default_factory=dict)
    media: dict = field(default_factory=dict)   # other content types of the body: {"text/plain": {schema...}}
    links: dict = field(default_factory=dict)   # {operationId: {parameter: "$response.body#/number"}}
    response_media: str = "application/json"    # the answer's content type (the open data's CSV: text/csv)


def operation(operation_id: str, summary: str, *, tags: list[str], load=(), policy=None, body=None,
              body_required: bool = True, query=None, response=None, status: int = 200, errors: str = "",
              public: bool = False, description: str | None = None, example: dict | None = None,
              media: dict | None = None, links: dict | None = None, response_media: str = "application/json"):
    """Declare an API view (see the module docstring). The view returns a dict, a list, a pydantic model or a
    full response; it is answered as JSON with `status`. `media`: the body may also come as these content types
    ({"text/plain": {"schema": ...}}); then the view reads the body itself and `body` only documents the JSON.
    `links`: what a client may do next with this answer ({"rounds_publish": {"number": "$response.body#/number"}});
    the path parameters this request shares with the next one are carried over by themselves."""
    declared = Operation(operation_id, summary, tags, body, body_required, query, response, status, errors, public,
                         description, {"body": example} if example else {}, dict(media or {}), dict(links or {}),
                         response_media)
    read_body = body is not None and not media

    def decorate(view):
        def run(rh):
            if query is not None:
                rh.query = parse(query, request.args.to_dict(), "query parameter")
            if read_body:
                data = whole_numbers(json_body(required=body_required))
                rh.body = parse(body, data, "field")
            return answer(view(rh), status)
        run.__name__ = view.__name__
        run.__doc__ = view.__doc__
        wrapped = handler(load=load, policy=policy)(run)
        wrapped.api_operation = declared
        return wrapped
    return decorate


def answer(result, status: int):
    if isinstance(result, (Response, tuple)):
        return result
    if isinstance(result, pydantic.BaseModel):
        result = result.model_dump(mode="json")
    return jsonify(result), status


def parse(model: type[pydantic.BaseModel], data: dict, what: str):
    """The data as the model reads it, or a 400 that names the first field at fault and what it takes."""
    try:
        return model.model_validate(data)
    except pydantic.ValidationError as e:
        first = e.errors(include_url=False)[0]
        where = ".".join(str(p) for p in first["loc"]) or None
        name = str(first["loc"][0]) if first["loc"] else None
        if first["type"] == "extra_forbidden":
            allowed = ", ".join(sorted(model.model_fields))
            raise Refused(f"Unknown {what} {where}. Allowed: {allowed}.", field=name) from None
        message = first.get("ctx", {}).get("error") if first["type"] == "value_error" else None
        text = str(message) if message else first["msg"]
        raise Refused(f"{where}: {text}." if where else f"{text}.", field=name) from None


class Input(pydantic.BaseModel):
    """A JSON body: strict (false is not 0, "3" is not 3; 2.0 is 2, see whole_numbers), no unknown fields."""
    model_config = pydantic.ConfigDict(extra="forbid", strict=True)


class Output(pydantic.BaseModel):
    """An answer's shape: exactly these fields (the document says additionalProperties: false)."""
    model_config = pydantic.ConfigDict(extra="forbid", populate_by_name=True)


def token(rh) -> None:
    """A loader for staff routes: the bearer token's user as rh.staff (401 before anything else is looked up)."""
    rh.staff = staff_user()


def by_token(policy):
    """A page's policy for the API: the bearer token first (401), then the policy (403)."""
    def check(rh) -> bool:
        staff_user()
        return policy(rh)
    check.__name__ = f"{policy.__name__}_by_token"
    check.__doc__ = f"{policy.__doc__} By their token."
    return check


# ----------------------------------------------------------------- reading a request

def staff_user():
    """The staff member behind the bearer token, or 401. Session cookies do not count on the API."""
    header = request.headers.get("Authorization")
    if not header:
        raise Refused(f"This needs a staff token: send the header 'Authorization: Bearer <token>'. {TOKEN_HELP}",
                      status=401)
    scheme, _, token = header.strip().partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise Refused("The Authorization header must be 'Bearer <token>'.", status=401)
    if g.get("user") is None or not g.get("via_token"):
        raise Refused(f"This token is unknown or has been revoked. {TOKEN_HELP}", status=401)
    return g.user


def optional_staff_user():
    """Staff when an Authorization header is sent (and then it must be valid), else None (the public)."""
    return staff_user() if request.headers.get("Authorization") else None


def _finite_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(f"number {text} is out of range")
    return value


def _refuse_constant(name: str):
    raise ValueError(f"{name} is not a JSON number")


def check_text(data) -> None:
    """Strings the database cannot store (NUL, unpaired surrogates) are refused, at any depth."""
    stack = [(data, None)]
    while stack:
        value, where = stack.pop()
        if isinstance(value, str):
            if "\x00" in value or any("\ud800" <= ch <= "\udfff" for ch in value):
                raise Refused("The text contains a NUL or an unpaired surrogate character; send plain UTF-8 text.",
                              field=where)
        elif isinstance(value, dict):
            for key, item in value.items():
                stack.append((key, where))
                stack.append((item, where or key))
        elif isinstance(value, list):
            stack.extend((item, where) for item in value)


def whole_numbers(value):
    """JSON has one number type: 3.0 is the whole number 3 (JSON Schema's "integer" takes it), so a strict model's
    int field takes it too; 3.5 stays a float and is refused where a whole number is wanted."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, dict):
        return {k: whole_numbers(v) for k, v in value.items()}
    if isinstance(value, list):
        return [whole_numbers(v) for v in value]
    return value


def _json_kind(value) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true or false"
    return {list: "an array", str: "a string"}.get(type(value), "a number")


def json_body(required: bool = True) -> dict:
    """The request body as a JSON object; 415 for another content type, 400 for anything malformed."""
    raw = request.get_data(cache=True)        # over MAX_BODY_BYTES: 413
    if not required and not raw.strip():
        return {}
    if request.mimetype != "application/json":
        raise Refused("Send the body as JSON with the header 'Content-Type: application/json'.", status=415)
    if not raw.strip():
        raise Refused("The request body is empty; send a JSON object.")
    try:
        data = json.loads(raw.decode("utf-8"), parse_constant=_refuse_constant, parse_float=_finite_float)
    except UnicodeDecodeError:
        raise Refused("The body is not UTF-8 text; send JSON encoded as UTF-8.") from None
    except json.JSONDecodeError as e:
        raise Refused(f"The body is not valid JSON ({e.msg} at line {e.lineno}, column {e.colno}).") from None
    except (ValueError, RecursionError) as e:
        reason = "it is nested too deeply" if isinstance(e, RecursionError) else str(e)
        raise Refused(f"The body is not valid JSON: {reason}.") from None
    if not isinstance(data, dict):
        raise Refused(f"The body must be a JSON object ({{...}}), not {_json_kind(data)}.")
    check_text(data)
    return data


@bp.before_request
def limit_body_size():
    request.max_content_length = MAX_BODY_BYTES


@bp.after_request
def api_headers(response: Response) -> Response:
    if response.status_code == 401:
        response.headers["WWW-Authenticate"] = 'Bearer realm="api"'
    response.headers.setdefault("Cache-Control", "no-store")
    return response
