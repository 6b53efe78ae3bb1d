"""The schema's answers that every operation may give, whatever its view declares: the kernel answers
them before or around any view (docs/architecture.md, Errors).

- 400: a request holding a NUL character, a query parameter given empty, or one no view can read
  (``RefuseNulMiddleware``, ``RefuseEmptyParameterMiddleware``, the lists' bounded pagination);
- 401/403: no credentials, or credentials the API does not accept (DRF);
- 404: no such path, document or export format;
- 405: a method the path does not take;
- 413/414: a body or a URL over the limits of the settings (``ApiRequestLimitsMiddleware``);
- 415: a body that is not JSON, on an operation that takes one (the API's only parser).

Each is a JSON ``{detail}`` or ``{detail, code}`` (the one exception handler), a 400 also
``{field: [message]}``, so the schema names it once here, as a drf-spectacular postprocessing hook,
for every operation that does not already say it. Every string query parameter gets ``minLength`` 1,
as an empty one is refused.

A text field of a request body is trimmed (DRF's ``CharField`` strips Python's whitespace) before
it is read, so a required one holding only whitespace is blank and refused: ``trimmed_text`` says so
in the schema with a ``pattern`` (at least one character that is not whitespace), written with
explicit code points so that it means the same to a client's ECMA-262 regular expressions as to
Python's ``str.strip`` (which also strips the separators U+001C to U+001F and U+0085).
"""

from __future__ import annotations

from typing import Any

_ERROR = {
    "type": "object",
    "properties": {"detail": {"type": "string"}, "code": {"type": "string"}},
    "required": ["detail"],
}
_FIELD_ERRORS = {
    "type": "object",
    "additionalProperties": {"type": "array", "items": {"type": "string"}},
    "minProperties": 1,
}
_KERNEL_ANSWERS = {
    "400": "The request cannot be read (a NUL character, a parameter given empty or malformed): nothing "
    "recorded. `{detail, code}` or `{field: [message]}`.",
    "401": "No credentials, or credentials the API does not accept: nothing recorded. `{detail}`.",
    "403": "The credentials were refused, or the role may not act: nothing recorded. `{detail, code}`.",
    "404": "No such path, document or export format: nothing recorded. `{detail}`.",
    "405": "The path does not take this method: nothing recorded. `{detail}`.",
    "413": "The body is larger than the API takes: nothing recorded. `{detail, code}`.",
    "414": "The URL is longer than the API takes: nothing recorded. `{detail, code}`.",
}
_BODY_ANSWERS = {"415": "The body is not JSON (`Content-Type: application/json`): nothing recorded. `{detail}`."}


# One character that str.strip() keeps: exactly the complement of str.isspace() (a test checks every code point).
NOT_WHITESPACE = "[^\\t-\\r\\x1c-\\x20\\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000]"


def kernel_answers(result: dict[str, Any], generator: Any, request: Any, public: bool) -> dict[str, Any]:
    """Add the kernel's error answers to every operation that does not document them."""
    for methods in result.get("paths", {}).values():
        for operation in methods.values():
            if not isinstance(operation, dict) or "responses" not in operation:
                continue
            answers = {**_KERNEL_ANSWERS, **(_BODY_ANSWERS if "requestBody" in operation else {})}
            for status, description in answers.items():
                schema = {"anyOf": [_ERROR, _FIELD_ERRORS]} if status == "400" else _ERROR
                operation["responses"].setdefault(
                    status, {"description": description, "content": {"application/json": {"schema": schema}}}
                )
            for parameter in operation.get("parameters", []):
                schema = parameter.get("schema", {})
                if parameter.get("in") == "query" and schema.get("type") == "string" and "enum" not in schema:
                    schema.setdefault("minLength", 1)
    return result


def trimmed_text(result: dict[str, Any], generator: Any, request: Any, public: bool) -> dict[str, Any]:
    """Give every required text of a request body (a string of ``minLength`` 1 or more with no format,
    choice or pattern of its own) the pattern ``NOT_WHITESPACE``: whitespace alone is blank."""

    def walk(schema: Any) -> None:
        if not isinstance(schema, dict):
            return
        if (
            schema.get("type") == "string"
            and schema.get("minLength", 0) >= 1
            and not {"format", "enum", "pattern"} & schema.keys()
        ):
            schema["pattern"] = NOT_WHITESPACE
        for nested in schema.get("properties", {}).values():
            walk(nested)
        walk(schema.get("items"))
        for combined in ("allOf", "anyOf", "oneOf"):
            for nested in schema.get(combined, []):
                walk(nested)

    for name, schema in result.get("components", {}).get("schemas", {}).items():
        if name.endswith("Request"):
            walk(schema)
    return result
