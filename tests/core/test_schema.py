"""The OpenAPI schema is served and the committed copy is current."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import yaml
from django.core.management import call_command

from casino_backoffice.core.schema import NOT_WHITESPACE

COMMITTED = Path(__file__).resolve().parents[2] / "openapi.yaml"


def test_the_committed_schema_is_current(tmp_path, db) -> None:
    fresh = tmp_path / "openapi.yaml"
    call_command("spectacular", "--file", str(fresh), "--validate", "--fail-on-warn")

    assert COMMITTED.exists(), "openapi.yaml is missing: run `make schema` and commit it"
    assert yaml.safe_load(fresh.read_text()) == yaml.safe_load(COMMITTED.read_text()), (
        "openapi.yaml is stale: run `make schema` and commit it"
    )


def test_the_schema_is_served(client, floorperson) -> None:
    client.force_login(floorperson)
    response = client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    assert response.status_code == 200
    assert "/api/me/" in response.json()["paths"]


def test_every_operation_documents_the_kernels_error_answers() -> None:
    """A NUL character (400), no or refused credentials (401, 403), no such document or format (404) and
    a method the path does not take (405) are answers of every operation, each a JSON error."""
    schema = yaml.safe_load(COMMITTED.read_text())
    operations = [
        (path, method, operation)
        for path, methods in schema["paths"].items()
        for method, operation in methods.items()
        if isinstance(operation, dict) and "responses" in operation
    ]
    assert len(operations) > 50
    for path, method, operation in operations:
        for status in ("400", "401", "403", "404", "405"):
            assert status in operation["responses"], (method, path, status)


def test_a_method_the_path_does_not_take_is_the_documented_json_405(client, floorperson) -> None:
    client.force_login(floorperson)
    response = client.delete("/api/progressive/meters/")
    assert response.status_code == 405 and "detail" in response.json()


def test_the_not_whitespace_pattern_is_exactly_what_str_strip_keeps() -> None:
    """Every code point: the pattern matches it exactly when Python's ``str.strip`` would keep it."""
    pattern = re.compile(NOT_WHITESPACE)
    disagree = [hex(n) for n in range(sys.maxunicode + 1) if chr(n).isspace() == bool(pattern.fullmatch(chr(n)))]
    assert disagree == []


def test_a_required_text_of_a_request_says_whitespace_alone_is_blank() -> None:
    """The PIN, the surveillance reference and the players' names are trimmed before they are read, so
    whitespace alone (a form feed, U+001F) is blank and refused: the schema says so, where ``minLength``
    1 alone let schemathesis send ``"\x1f"`` as a valid PIN (found by ``make proof``)."""
    schema = yaml.safe_load(COMMITTED.read_text())["components"]["schemas"]
    witness, player = schema["WitnessInputRequest"]["properties"], schema["PlayerInputRequest"]["properties"]
    assert witness["pin"]["pattern"] == witness["surveillance_reference"]["pattern"] == NOT_WHITESPACE
    assert player["name"]["pattern"] == NOT_WHITESPACE
    assert "pattern" not in schema["PlayerInputRequest"]["properties"]["seat"]
    assert not re.search(NOT_WHITESPACE, " \x1f\x0c\u3000")
    assert re.search(NOT_WHITESPACE, " 2468 ")
