"""Celery tasks of the ledger: thin, idempotent wrappers over its services."""

from celery import shared_task

from .checkpoints import checkpoints_take


@shared_task(name="casino_backoffice.ledger.tasks.checkpoints_tick", ignore_result=True)
def checkpoints_tick() -> None:
    """Beat calls this every minute: accounts with many transfers since their latest balance
    checkpoint get a new one. Safe to run twice or late: every checkpoint is true, one per horizon."""
    checkpoints_take()
