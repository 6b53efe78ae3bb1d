"""``python -m tests.faults.worker QUEUE``: a Celery worker of the project's app, for the fault tests.

The project's app and settings (``acks_late``, ``reject_on_worker_lost``, prefetch 1) with the fault
tests' tasks, two pool processes, on QUEUE only. Two things are shortened, which change when a task
comes back, not whether:

- how soon the worker re-queues the task of a pool process that died: it looks at its pool processes
  every 0.25 s rather than every 5 s, and waits 0.2 s rather than 10 s for a result the dead process
  may have published (``worker_lost_wait``);
- how long Redis keeps the message of a worker killed outright (its main process too) before another
  worker takes it again (the transport's ``visibility_timeout``, an hour by default), with this
  worker's own list of unacknowledged messages, so it never takes back another worker's.
"""

from __future__ import annotations

import os
import sys

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "casino_backoffice.settings")

import django

django.setup()

from celery.concurrency.asynpool import AsynPool  # noqa: E402

import tests.faults.tasks  # noqa: E402, F401 (registers the tasks)
from casino_backoffice.celery import app  # noqa: E402

if __name__ == "__main__":
    queue = sys.argv[1]
    AsynPool.timers = property(lambda pool: {pool.maintain_pool: 0.25})  # type: ignore[assignment]
    app.conf.worker_lost_wait = 0.2
    app.conf.broker_transport_options = {
        "visibility_timeout": 3,
        "unacked_restore_interval": 1,
        "unacked_restore_throttle": 1,
        "unacked_key": f"{queue}:unacked",
        "unacked_index_key": f"{queue}:unacked_index",
        "unacked_mutex_key": f"{queue}:unacked_mutex",
        # A worker killed while it held the lock of that list leaves it locked this long (5 min by default).
        "unacked_mutex_expire": 5,
    }
    level = os.environ.get("FAULTS_WORKER_LOGLEVEL", "WARNING")
    quiet = ["--without-gossip", "--without-mingle", "--without-heartbeat"]
    app.worker_main(
        ["worker", "--pool", "prefork", "--concurrency", "2", "--queues", queue, "--loglevel", level, *quiet]
    )
