"""Each answer of the API against the committed ``openapi.yaml``: the JSON body of an operation's
answer must be what the schema says for that operation and status, strictly (a key the schema does
not name is a drift too, as a table system generated from the schema would not read it).

``SchemaChecker.check(response)`` finds the operation by the request's path and method (a path
parameter such as ``{id}`` matches one path segment), converts the OpenAPI 3.0 schema of the answer
(``nullable``, ``$ref`` beside ``nullable``) to JSON Schema and validates the body with ``jsonschema``;
an answer that is not JSON (a CSV, a spreadsheet) is checked for its content type only.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any

import jsonschema
import yaml

COMMITTED = Path(__file__).resolve().parents[1] / "openapi.yaml"


def _strict(schema: Any) -> Any:
    """OpenAPI 3.0 to JSON Schema: ``nullable: true`` becomes a null alternative, and an object
    naming its properties takes no other key."""
    if isinstance(schema, list):
        return [_strict(item) for item in schema]
    if not isinstance(schema, dict):
        return schema
    converted = {key: _strict(value) for key, value in schema.items() if key not in {"nullable", "example"}}
    if schema.get("type") == "object" and "properties" in schema and "additionalProperties" not in schema:
        converted["additionalProperties"] = False
    if schema.get("nullable"):
        if "enum" in converted:
            converted["enum"] = [*converted["enum"], None]
        return {"anyOf": [converted, {"type": "null"}]}
    return converted


@dataclass
class SchemaChecker:
    """Validates answers against the committed schema and remembers each (operation, status) seen."""

    path: Path = COMMITTED
    seen: set[tuple[str, int]] = field(default_factory=set)

    @cached_property
    def schema(self) -> dict[str, Any]:
        return yaml.safe_load(self.path.read_text())

    @cached_property
    def _components(self) -> dict[str, Any]:
        return {"components": {"schemas": _strict(self.schema["components"]["schemas"])}}

    @cached_property
    def _routes(self) -> list[tuple[re.Pattern[str], str, dict[str, Any]]]:
        routes = []
        for path, operations in self.schema["paths"].items():
            pattern = re.compile("^" + re.sub(r"\\\{[^}]+\\\}", "[^/]+", re.escape(path)) + "$")
            routes.extend((pattern, method, operation) for method, operation in operations.items())
        return routes

    def operations(self) -> set[str]:
        return {operation["operationId"] for _, _, operation in self._routes}

    def operation(self, path: str, method: str) -> dict[str, Any]:
        found = [op for pattern, verb, op in self._routes if verb == method.lower() and pattern.match(path)]
        assert found, f"{method} {path} is not an operation of openapi.yaml"
        # A literal path (``/api/rounds/batch/``) before a parameter one (``/api/rounds/{id}/``).
        return min(found, key=lambda op: op["operationId"].count("{"))

    def check(self, response: Any) -> None:
        request = response.wsgi_request
        operation = self.operation(request.path, request.method)
        status = str(response.status_code)
        answers = operation["responses"]
        assert status in answers, f"{operation['operationId']} answered {status}, not in the schema: {answers.keys()}"
        content = answers[status].get("content", {})
        media = response.get("Content-Type", "").split(";")[0]
        assert media in content, f"{operation['operationId']} {status} answered {media}, the schema says {content}"
        self.seen.add((operation["operationId"], response.status_code))
        if media != "application/json":
            return
        body = json.loads(b"".join(response.streaming_content) if response.streaming else response.content)
        schema = {**self._components, "allOf": [_strict(content[media]["schema"])]}
        errors = sorted(
            jsonschema.Draft7Validator(schema, format_checker=jsonschema.Draft7Validator.FORMAT_CHECKER).iter_errors(
                body
            ),
            key=lambda error: list(error.absolute_path),
        )
        assert not errors, f"{operation['operationId']} {status}: the body leaves the schema: " + "; ".join(
            f"at {'/'.join(map(str, error.absolute_path)) or 'the top'}: {error.message}" for error in errors[:5]
        )
