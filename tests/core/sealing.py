"""For tests that set a scene the services never make (a count backdated, a document tampered with in
the database to prove a check catches it): the database's insert-only and sealing triggers suspended
for the statements inside, in the test's own transaction, and back on after them.

PostgreSQL only (``session_replication_role`` needs the suite's superuser; the service's role has no
such right), which is where the suite runs."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from django.db import connection


@contextmanager
def triggers_suspended() -> Iterator[None]:
    assert connection.in_atomic_block, "only inside the test's transaction"
    with connection.cursor() as cursor:
        cursor.execute("SET LOCAL session_replication_role = replica")
    yield
    # Not on an error: the savepoint rolled back then (transaction.atomic) undoes the SET LOCAL itself.
    with connection.cursor() as cursor:
        cursor.execute("SET LOCAL session_replication_role = origin")
