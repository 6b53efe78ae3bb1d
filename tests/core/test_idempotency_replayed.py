"""Every replayed answer carries ``Idempotent-Replayed: true``, and only a replayed one: the header
says what answered (``core.idempotency.replays_noted``), not what a look before the service saw.

Two posts of one key and one body at once, on real PostgreSQL connections: the second waits at the
unique key for the first one's transaction, then answers the first one's document; before, it had
looked for the key before the first one wrote and answered without the header.
"""

from __future__ import annotations

import inspect
import re
from pathlib import Path

import pytest
import yaml
from django.db import connection
from django.urls import resolve
from rest_framework import serializers
from rest_framework.test import APIClient, APIRequestFactory, force_authenticate
from rest_framework.views import APIView

from cage.models import ComplianceNotice
from casino_backoffice.core.api_common import REPLAYED_HEADER, document_post
from casino_backoffice.core.idempotency import replay_note
from casino_backoffice.staff.models import Signature
from tests.conftest import PIN
from tests.lock_race import second_waits_for_first

NOTICES = "/api/compliance-notices/"
NOTICE = {"room": "main", "notified": "J. Smith", "method": "phone", "pin": PIN}


@pytest.mark.django_db(transaction=True)
def test_two_parallel_posts_of_one_key_answer_one_document_and_only_the_second_says_replayed(room, floorperson):
    assert connection.vendor == "postgresql"

    def post():
        client = APIClient()
        client.force_authenticate(floorperson)
        return client.post(NOTICES, NOTICE, format="json", HTTP_IDEMPOTENCY_KEY="notice-at-once")

    answers = second_waits_for_first(post, post, pause_at="cage.services.counts.signature_add")

    first, second = answers["first"], answers["second"]
    assert (first.status_code, second.status_code) == (201, 201), answers
    assert first.json()["id"] == second.json()["id"]
    assert REPLAYED_HEADER not in first
    assert second[REPLAYED_HEADER] == "true"
    assert ComplianceNotice.objects.count() == 1
    assert Signature.objects.filter(document_id=str(first.json()["id"])).count() == 1


# --- Every POST that takes an Idempotency-Key says replayed as its service answered ---------------


class _Input(serializers.Serializer):
    pin = serializers.CharField()


def _post_of(create) -> APIView:
    class Post(APIView):
        permission_classes: list = []

        def post(self, request):
            return document_post(request, input_class=_Input, create=create)

    return Post.as_view()


@pytest.mark.django_db
def test_document_post_says_replayed_exactly_when_the_service_answered_a_document_recorded_before(floorperson):
    def records(*, values, actor, idempotency_key):
        return {"id": 1}

    def answers_again(*, values, actor, idempotency_key):
        replay_note(floorperson)  # any document recorded before this request
        return {"id": 1}

    for create, replayed in ((records, False), (answers_again, True)):
        request = APIRequestFactory().post("/", {"pin": PIN}, format="json", HTTP_IDEMPOTENCY_KEY="k-1")
        force_authenticate(request, user=floorperson)
        response = _post_of(create)(request)
        assert response.status_code == 201 and response.data == {"id": 1}
        assert (response.get(REPLAYED_HEADER) == "true") is replayed


def _keyed_posts() -> list[tuple[str, str]]:
    schema = yaml.safe_load((Path(__file__).resolve().parents[2] / "openapi.yaml").read_text())
    return [
        (path, operations["post"]["operationId"])
        for path, operations in schema["paths"].items()
        if "post" in operations
        and any(parameter.get("name") == "Idempotency-Key" for parameter in operations["post"].get("parameters", []))
    ]


def test_every_post_that_takes_an_idempotency_key_goes_through_a_routine_that_says_replayed() -> None:
    """The walk: each operation of the schema with an Idempotency-Key writes through ``document_post``
    (the header from what the service answered, ``replays_noted``) or the rake's ``idempotent_post``
    (the header from the service's ``Recorded.replayed``); a view reading the key itself would not say it."""
    posts = _keyed_posts()
    assert len(posts) >= 19
    for path, operation in posts:
        view = resolve(re.sub(r"\{[^}]+\}", "1", path)).func.view_class  # type: ignore[attr-defined]
        source = inspect.getsource(view.post)
        assert "document_post(" in source or "idempotent_post(" in source, (operation, view)
