"""/healthz: the database, the broker and the scheduler's last beat."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import override_settings
from django.utils import timezone

from casino_backoffice.core.services import heartbeat_record


def test_healthy_when_database_broker_and_a_recent_beat_are_all_well(client, db) -> None:
    heartbeat_record(source="beat")

    response = client.get("/healthz")

    assert response.status_code == 200
    body = response.json()
    assert body["status"] == "ok" and body["failing"] == []
    assert body["database"]["ok"] and body["database"]["vendor"] == "postgresql"
    assert body["broker"] == {"ok": True, "transport": "redis"}
    assert body["scheduler"]["ok"]


def test_no_beat_yet_is_a_503_naming_the_scheduler(client, db) -> None:
    response = client.get("/healthz")

    assert response.status_code == 503
    assert response.json()["failing"] == ["scheduler"]
    assert response.json()["scheduler"]["error"] == "no beat recorded yet"


def test_a_stale_beat_is_a_503(client, db, settings) -> None:
    heartbeat_record(source="beat", at=timezone.now() - timedelta(seconds=settings.HEARTBEAT_STALE_SECONDS + 5))

    response = client.get("/healthz")

    assert response.status_code == 503
    assert response.json()["failing"] == ["scheduler"]
    assert "ago" in response.json()["scheduler"]["error"]


@pytest.mark.parametrize("url", ["redis://127.0.0.1:1/0"])
def test_an_unreachable_broker_is_a_503_naming_the_broker(client, db, url) -> None:
    heartbeat_record(source="beat")
    with override_settings(CELERY_BROKER_URL=url):
        response = client.get("/healthz")

    assert response.status_code == 503
    assert response.json()["failing"] == ["broker"]
    assert response.json()["broker"]["error"]
