"""`make run`'s embedded default, SQLite and a filesystem broker, works end to end.

The suite runs on PostgreSQL; this test runs the service's own commands in a subprocess with no
DATABASE_URL and no CELERY_BROKER_URL, as a fresh machine would: migrate, load the demo twice (the
second run changes nothing), then record a round through the API and check the ledger.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from tests.embedded_sqlite import embedded_demo

ROOT = Path(__file__).resolve().parents[2]

SMOKE = """
import uuid
from django.test import Client
from django.utils import timezone
from casino_backoffice.staff.services import api_token_create
from casino_backoffice.ledger.selectors import ledger_total
from casino_backoffice.staff.models import User
from tables.models import Round, Table

Table.objects.filter(number="T1").update(is_open=True)
rounds = Round.objects.count()  # the demo played a gaming day already
token = api_token_create(user=User.objects.get(username="dealer"))
body = {"table": "T1", "ended_at": timezone.now().isoformat(), "players_dealt_in": 9,
        "pot": "120.00", "uncalled_bet": "20.00", "flop_dealt": True, "voided": False}
client = Client()
key = str(uuid.uuid4())
for _ in range(2):
    response = client.post("/api/rounds/", body, content_type="application/json",
                           HTTP_AUTHORIZATION=f"Token {token}", HTTP_IDEMPOTENCY_KEY=key)
    assert response.status_code == 201, response.content
assert response.json()["rake"] == "5.00" and response.json()["drops"] == {"bb": "1.00", "hh": "2.00"}
assert Round.objects.count() == rounds + 1 and ledger_total() == 0
health = client.get("/healthz").json()
assert health["database"] == {"ok": True, "vendor": "sqlite"}, health
assert health["broker"] == {"ok": True, "transport": "filesystem"}, health
print("SMOKE OK")
"""


def _manage(*args: str, env: dict[str, str]) -> str:
    result = subprocess.run(
        [sys.executable, "manage.py", *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=180
    )
    assert result.returncode == 0, result.stdout + result.stderr
    return result.stdout


def test_migrate_demo_and_a_round_on_sqlite_with_a_filesystem_broker(tmp_path_factory) -> None:
    # Migrated and the demo loaded once as `make run` starts (tests/embedded_sqlite.py, shared by the
    # modules that read the embedded database; the first load shows the ten signing PINs, once)
    database = embedded_demo(tmp_path_factory)
    env = {key: value for key, value in os.environ.items() if key not in ("DATABASE_URL", "CELERY_BROKER_URL")}
    env["CASINO_VAR_DIR"] = str(database.parent)

    again = _manage("migrate", "--noinput", env=env)
    second = _manage("load_demo", env=env)
    smoke = _manage("shell", "-c", SMOKE, env=env)

    assert "No migrations to apply." in again
    assert "nothing changed" in second and " PIN " not in second
    assert "SMOKE OK" in smoke
