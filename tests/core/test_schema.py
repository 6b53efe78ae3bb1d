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
