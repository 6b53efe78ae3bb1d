"""The OpenAPI schema is served and the committed copy is current."""

from __future__ import annotations

from pathlib import Path

import yaml
from django.core.management import call_command

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
