"""The web hall's JSON API described as OpenAPI 3.1 (served at ``/openapi.json``), generated
from what the hall serves, and the ``/docs`` page that shows it without any external script
(the hall may run offline).

:func:`spec` walks the routes of the app: each :class:`~herna.web.api_operations.ApiRoute`
carries its declaration (path, method, parameters as :mod:`herna.web.params` checks them,
answer, errors, words). pydantic writes the JSON Schema of the models of
:mod:`herna.web.api_models` into ``components/schemas``. Nothing here is written by hand but
the words about errors and the API as a whole.
"""

from __future__ import annotations

import html
import json
from collections.abc import Iterable, Sequence
from typing import Any

from pydantic import TypeAdapter
from pydantic.json_schema import GenerateJsonSchema, JsonSchemaMode
from pydantic_core import CoreSchema
from starlette.routing import BaseRoute

from herna import __version__
from herna.web.api_models import Error
from herna.web.api_operations import ApiOperation, ApiRoute

REF_TEMPLATE = "#/components/schemas/{model}"

ERROR_TEXTS = {
    400: "A parameter it cannot take (not a number, out of range, a control character, "
    "longer than 200 characters, not a date) or, for a body, a value the tournament cannot "
    "take; `error` says which and why.",
    403: "Not the tournament's admin token (`Authorization: Bearer TOKEN`).",
    404: "No such record (or an id no record can have).",
    409: "The tournament cannot do that now (it has started, is over, or has too few "
    "entrants); `error` says which.",
    413: "A body over 8 KiB.",
    415: "A body that is not `application/json`.",
}

DESCRIPTION = (
    "JSON API of the Herna web hall: running servers, live tables, recorded matches with "
    "replays, standings and player statistics. Live updates: WebSocket "
    "`/ws/live?game=&table=` (frames described in docs/web.md). Nothing here changes state "
    "but the live tournaments' POST routes (their admin token is the credential): every "
    "other route takes GET and HEAD only (anything else is 405). Every error is JSON "
    '`{"error": "..."}` (schema `Error`) with status 400 (a bad parameter), 404 (no such '
    "record or route) or 405; 503 means the database is unavailable for a moment."
)

ADMIN_TOKEN = "adminToken"
"""The security scheme of the live tournaments' admin routes."""


class _SchemaGenerator(GenerateJsonSchema):
    """pydantic's JSON Schema without a title on every field (the field's name says it)."""

    def field_title_should_be_set(self, schema: Any) -> bool:
        return False


def api_operations(routes: Iterable[BaseRoute]) -> list[ApiOperation]:
    """The declarations of the JSON API's routes: the reading ones first, each group in
    routing order (a reader looks for the records before the tournaments' admin)."""
    declared = [r.operation for r in routes if isinstance(r, ApiRoute)]
    return sorted(declared, key=lambda op: op.method != "GET")


def spec(operations: Sequence[ApiOperation]) -> dict[str, Any]:
    """The OpenAPI 3.1 document of ``operations`` (see :func:`api_operations`)."""
    schemas, definitions = _schemas(operations)
    paths: dict[str, dict[str, Any]] = {}
    for i, op in enumerate(operations):
        response, body = schemas[("response", i)], schemas.get(("body", i))
        paths.setdefault(op.openapi_path, {})[op.method.lower()] = _operation(
            op, response, body, schemas[("error", 0)]
        )
    return {
        "openapi": "3.1.0",
        "info": {"title": "Herna web hall API", "version": __version__, "description": DESCRIPTION},
        "paths": paths,
        "components": {
            "schemas": definitions,
            "securitySchemes": {
                ADMIN_TOKEN: {
                    "type": "http",
                    "scheme": "bearer",
                    "description": "The admin token a live tournament's creation answered "
                    "with (`admin_token`).",
                }
            },
        },
    }


SchemaKey = tuple[str, int]
"""``("response", i)`` or ``("body", i)`` of the i-th operation, or ``("error", 0)``."""


def _schemas(
    operations: Sequence[ApiOperation],
) -> tuple[dict[SchemaKey, dict[str, Any]], dict[str, Any]]:
    """The schema of every answer and body (mostly a ``$ref``) and the definitions they
    refer to, written by pydantic in one go so that every model has one name."""
    inputs: list[tuple[SchemaKey, JsonSchemaMode, CoreSchema]] = [
        (("error", 0), "serialization", _core(Error))
    ]
    for i, op in enumerate(operations):
        inputs.append((("response", i), "serialization", _core(op.response)))
        if op.body is not None:
            inputs.append((("body", i), "validation", _core(op.body)))
    generator = _SchemaGenerator(ref_template=REF_TEMPLATE)
    schemas, definitions = generator.generate_definitions(inputs)
    by_key = {key: schema for (key, _mode), schema in schemas.items()}
    return by_key, _one_line_descriptions(definitions)


def _operation(
    op: ApiOperation,
    response: dict[str, Any],
    body: dict[str, Any] | None,
    error: dict[str, Any],
) -> dict[str, Any]:
    """The OpenAPI operation object of ``op``."""
    out: dict[str, Any] = {"summary": op.summary}
    if op.description:
        out["description"] = op.description
    if op.params:
        out["parameters"] = [q.openapi() for q in op.params]
    if body is not None:
        out["requestBody"] = {"required": True, "content": {"application/json": {"schema": body}}}
    if op.admin_token:
        out["security"] = [{ADMIN_TOKEN: []}]
    out["responses"] = {str(op.status): _answer(op.returns, op.media_type, response)}
    for code in op.error_codes():
        out["responses"][str(code)] = _answer(ERROR_TEXTS[code], "application/json", error)
    return out


def _one_line_descriptions(value: Any) -> Any:
    """``value`` with every description on one line: docstrings wrap where the source does."""
    if isinstance(value, dict):
        return {
            k: " ".join(v.split())
            if k == "description" and isinstance(v, str)
            else _one_line_descriptions(v)
            for k, v in value.items()
        }
    if isinstance(value, list):
        return [_one_line_descriptions(v) for v in value]
    return value


def _core(kind: Any) -> CoreSchema:
    return TypeAdapter(kind).core_schema


def _answer(description: str, media_type: str, schema: dict[str, Any]) -> dict[str, Any]:
    return {"description": description, "content": {media_type: {"schema": schema}}}


def schema_text(schema: dict[str, Any]) -> str:
    """A schema in a few words: its model's name, ``array of ...``, ``string | null``."""
    if "$ref" in schema:
        return str(schema["$ref"]).rsplit("/", 1)[-1]
    if "anyOf" in schema:
        return " | ".join(schema_text(s) for s in schema["anyOf"])
    if "enum" in schema:
        return " | ".join(json.dumps(v) for v in schema["enum"])
    if "const" in schema:
        return json.dumps(schema["const"])
    if schema.get("type") == "array":
        return f"array of {schema_text(schema.get('items', {}))}"
    kind = schema.get("type", "any")
    return " | ".join(kind) if isinstance(kind, list) else str(kind)


def docs_html(document: dict[str, Any]) -> str:
    """The body of ``/docs`` for the OpenAPI ``document``: every endpoint with its parameters
    and responses, then the schemas; each GET without path parameters links to a live
    example."""
    e = html.escape
    out = [
        "<h1>Herna web hall API</h1>",
        f"<p>{e(document['info']['description'])}</p>",
        '<p>Machine-readable: <a href="/openapi.json">/openapi.json</a> (OpenAPI 3.1).</p>',
    ]
    for path, item in document["paths"].items():
        for method, op in item.items():
            out.append(f'<section class="endpoint" id="{e(path)}">')
            title = e(path)
            if "{" not in path and method == "get":
                title = f'<a href="{e(path)}">{e(path)}</a>'
            out.append(
                f'<h2><span class="method">{e(method.upper())}</span> <code>{title}</code></h2>'
            )
            out.append(f"<p><b>{e(op['summary'])}</b></p>")
            if op.get("description"):
                out.append(f"<p>{e(op['description'])}</p>")
            if op.get("security"):
                out.append(
                    "<p>Needs the admin token: <code>Authorization: Bearer TOKEN</code>.</p>"
                )
            body = op.get("requestBody")
            if body:
                schema = next(iter(body["content"].values()))["schema"]
                out.append(f"<p>Body (JSON): {_schema_link(schema)}</p>")
            out.extend(_parameters(op.get("parameters", [])))
            out.append("<ul>")
            for code, resp in op["responses"].items():
                media, content = next(iter(resp["content"].items()))  # JSON, CSV, text
                out.append(
                    f"<li><code>{e(code)}</code> {e(resp['description'].rstrip('.'))}: "
                    f"{_schema_link(content['schema'])} <small>({e(media)})</small></li>"
                )
            out.append("</ul></section>")
    out.append("<h2>Schemas</h2>")
    for name, schema in document["components"]["schemas"].items():
        out.append(f'<h3 id="schema-{e(name)}">{e(name)}</h3>')
        out.append(f"<pre>{e(json.dumps(schema, indent=2, ensure_ascii=False))}</pre>")
    return "\n".join(out)


def _schema_link(schema: dict[str, Any]) -> str:
    """:func:`schema_text`, its model's name linking to the schema below."""
    text = html.escape(schema_text(schema))
    ref = schema.get("$ref") or schema.get("items", {}).get("$ref")
    if ref:
        name = str(ref).rsplit("/", 1)[-1]
        text = text.replace(name, f'<a href="#schema-{html.escape(name)}">{name}</a>', 1)
    return text


def _parameters(declared: list[dict[str, Any]]) -> list[str]:
    if not declared:
        return []
    e = html.escape
    out = ["<table><tr><th>parameter</th><th>in</th><th>type</th><th></th></tr>"]
    for q in declared:
        required = " (required)" if q.get("required") else ""
        out.append(
            f"<tr><td><code>{e(q['name'])}</code>{required}</td><td>{e(q['in'])}</td>"
            f"<td>{e(schema_text(q['schema']))}</td><td>{e(q['description'])}</td></tr>"
        )
    out.append("</table>")
    return out
