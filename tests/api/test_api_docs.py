"""The API's document as a page (/api/docs): every operation and schema of the generated document is on it,
and it loads nothing from elsewhere (it is read at venues with no internet)."""
from __future__ import annotations

import re


def test_the_page_lists_every_operation_and_schema(client):
    doc = client.get("/api/v1/openapi.json").get_json()
    page = client.get("/api/docs")
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    ids = [op["operationId"] for item in doc["paths"].values() for op in item.values()
           if isinstance(op, dict) and "operationId" in op]
    assert len(ids) >= 45
    for operation_id in ids:
        assert f'id="op-{operation_id}"' in html, operation_id
    for name in doc["components"]["schemas"]:
        assert f'id="schema-{name}"' in html, name
    assert "<code>PUT /players/{code}/decklist</code>" in html
    assert "integer 3–5" in html                     # the event's pod size, read from its one declaration


def test_the_page_loads_nothing_from_elsewhere(client):
    html = client.get("/api/docs").get_data(as_text=True)
    sources = re.findall(r'(?:src|href)="([^"]+)"', html)
    assert sources
    assert [s for s in sources if re.match(r"(?:https?:)?//", s)] == []
