"""Helpers of the cage API tests: a client signed in as someone, a POST with an Idempotency-Key, and
a snapshot of everything a refused request must leave as it was."""

from __future__ import annotations

import uuid
from typing import Any

from rest_framework.test import APIClient

from cage.models import CageVerification, ComplianceNotice, Count, GamingDayClose, MissingBox, Transport, Variance
from casino_backoffice.ledger.models import Transfer
from casino_backoffice.staff.models import Signature, User
from casino_backoffice.staff.services import api_token_create
from tests.conftest import PIN


def client_for(user: User) -> APIClient:
    """An API client authenticated with the person's token, as a table or cage system is."""
    api = APIClient()
    token = api_token_create(user=user)
    api.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    return api


def post(client: APIClient, url: str, data: dict[str, Any], *, key: str | None = "new"):
    """POST JSON with the person's PIN; ``key`` "new" sends a new Idempotency-Key, None sends none."""
    headers = {} if key is None else {"HTTP_IDEMPOTENCY_KEY": str(uuid.uuid4()) if key == "new" else key}
    return client.post(url, {"pin": PIN, **data}, format="json", **headers)


def snapshot() -> tuple:
    """Every cage document and its status, the ledger and the signatures."""
    return (
        list(ComplianceNotice.objects.order_by("pk").values_list("pk", flat=True)),
        list(Count.objects.order_by("pk").values_list("pk", "status", "witnessed_by", "surveillance_reference")),
        list(Transport.objects.order_by("pk").values_list("pk", "status", "accounted_by")),
        list(MissingBox.objects.order_by("pk").values_list("pk", flat=True)),
        list(CageVerification.objects.order_by("pk").values_list("pk", "status")),
        list(Variance.objects.order_by("pk").values_list("pk", "explained_by", "explanation")),
        list(GamingDayClose.objects.order_by("pk").values_list("pk", flat=True)),
        Transfer.objects.count(),
        Signature.objects.count(),
    )


def refused(response, status: int, code: str | None = None, field: str | None = None) -> dict[str, Any]:
    """Assert a refusal: its status, and its ``code`` (``{detail, code}``) or the ``field`` it names."""
    assert response.status_code == status, (response.status_code, response.content)
    body = response.json()
    if code is not None:
        assert set(body) == {"detail", "code"} and body["code"] == code, body
    if field is not None:
        assert field in body, body
    return body
