"""Reads of the operations kernel: the health of what the service depends on."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.conf import settings
from django.db import connection
from django.utils import timezone

from .models import Heartbeat


@dataclass
class Health:
    checks: dict[str, dict[str, Any]] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return all(check["ok"] for check in self.checks.values())

    @property
    def failing(self) -> list[str]:
        return [name for name, check in self.checks.items() if not check["ok"]]


def _check_database() -> dict[str, Any]:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
        return {"ok": True, "vendor": connection.vendor}
    except Exception as error:  # noqa: BLE001 - any failure means the database is not usable
        return {"ok": False, "vendor": connection.vendor, "error": str(error)}


def _check_broker() -> dict[str, Any]:
    from casino_backoffice.celery import app

    transport = settings.CELERY_BROKER_URL.split("://", 1)[0]
    try:
        with app.connection_for_write(url=settings.CELERY_BROKER_URL) as conn:
            conn.ensure_connection(max_retries=1, timeout=2)
        return {"ok": True, "transport": transport}
    except Exception as error:  # noqa: BLE001 - any failure means tasks cannot be queued
        return {"ok": False, "transport": transport, "error": str(error)}


def _check_scheduler() -> dict[str, Any]:
    try:
        beat = Heartbeat.objects.filter(source="beat").first()
    except Exception as error:  # noqa: BLE001
        return {"ok": False, "error": str(error)}
    if beat is None:
        return {"ok": False, "last_beat_at": None, "error": "no beat recorded yet"}
    age = (timezone.now() - beat.beat_at).total_seconds()
    ok = age <= settings.HEARTBEAT_STALE_SECONDS
    result: dict[str, Any] = {"ok": ok, "last_beat_at": beat.beat_at.isoformat(), "age_seconds": round(age, 1)}
    if not ok:
        result["error"] = f"last beat {age:.0f}s ago (more than {settings.HEARTBEAT_STALE_SECONDS}s)"
    return result


def health_check() -> Health:
    return Health(
        checks={
            "database": _check_database(),
            "broker": _check_broker(),
            "scheduler": _check_scheduler(),
        }
    )
