"""The Celery app: one worker with an embedded beat (``celery -A casino_backoffice worker -B``)."""

import os

from celery import Celery
from celery.signals import task_postrun, task_prerun

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "casino_backoffice.settings")

app = Celery("casino_backoffice")
app.config_from_object("django.conf:settings", namespace="CELERY")
# A task's message is acknowledged after the task ran (settings: CELERY_TASK_ACKS_LATE), and put back
# on the queue when the process running it dies (kill -9, out of memory): without this, Celery's
# documentation says, "even if acks_late is enabled, the worker will acknowledge tasks when the worker
# process executing them abruptly exits or is signaled (e.g., KILL/INT, etc). Setting this to true
# allows the message to be re-queued instead, so that the task will execute again by the same worker,
# or another worker." Running again is right because every task is safe to run twice (a unique key per
# sheet, period and moment; tests/faults/test_worker_killed.py kills workers mid-task). The loop the
# documentation warns of (a task that always kills its process) is not in these thin tasks.
app.conf.task_reject_on_worker_lost = True
app.autodiscover_tasks()


@task_prerun.connect
@task_postrun.connect
def _acting_cleared(**_: object) -> None:
    """No task lends its acting person to the next one's audit history (``core.audit``)."""
    from casino_backoffice.core.audit import acting_clear

    acting_clear()
