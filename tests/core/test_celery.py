"""A real Celery worker with its embedded beat, on Redis, writes the heartbeat /healthz reads."""

from __future__ import annotations

import os
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest
from django.db import connection

from casino_backoffice.core.models import Heartbeat

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.celery_worker
@pytest.mark.django_db(transaction=True)
def test_worker_and_beat_record_heartbeats(client, tmp_path) -> None:
    db = connection.settings_dict
    env = {
        **os.environ,
        "DATABASE_URL": f"postgres://{db['USER']}@{db['HOST']}:{db['PORT']}/{db['NAME']}",
        "CELERY_QUEUE": f"test-{uuid.uuid4().hex}",
        "HEARTBEAT_SECONDS": "1",
        "CASINO_VAR_DIR": str(tmp_path),
    }
    worker = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "celery",
            "-A",
            "casino_backoffice",
            "worker",
            "-B",
            "--pool",
            "solo",
            "--loglevel",
            "WARNING",
            "--schedule",
            str(tmp_path / "beat-schedule"),
        ],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        deadline = time.monotonic() + 45
        beats = []
        while time.monotonic() < deadline and len(set(beats)) < 2:
            beat = Heartbeat.objects.filter(source="beat").values_list("beat_at", flat=True).first()
            if beat is not None:
                beats.append(beat)
            time.sleep(0.5)
        assert len(set(beats)) >= 2, "the beat did not tick twice within 45 s"
        response = client.get("/healthz")
        assert response.json()["scheduler"]["ok"], response.json()
    finally:
        worker.terminate()
        try:
            out, _ = worker.communicate(timeout=15)
        except subprocess.TimeoutExpired:
            worker.kill()
            out, _ = worker.communicate()
    assert "Traceback" not in out, out
