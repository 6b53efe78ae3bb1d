"""Writes of the operations kernel."""

from __future__ import annotations

import socket
from datetime import datetime

from django.utils import timezone

from .models import Heartbeat


def heartbeat_record(*, source: str = "beat", at: datetime | None = None) -> Heartbeat:
    """Record that ``source`` is alive now. Idempotent: one row per source, moved forward."""
    beat, _ = Heartbeat.objects.update_or_create(
        source=source,
        defaults={"beat_at": at or timezone.now(), "hostname": socket.gethostname()},
    )
    return beat
