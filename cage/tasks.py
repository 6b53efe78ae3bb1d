"""Celery tasks of the cage: thin, idempotent wrappers over services."""

from celery import shared_task

from .services import schedule_run


@shared_task(name="cage.tasks.schedule_tick", ignore_result=True)
def schedule_tick() -> None:
    """Beat calls this every minute: count sheets that became due are created, overdue ones flagged.
    Safe to run twice or late: each sheet has a unique key and a moment runs once."""
    schedule_run()
