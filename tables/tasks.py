"""Celery tasks of the tables: thin, idempotent wrappers over services."""

from celery import shared_task

from .equipment.services import decks_overdue_flag


@shared_task(name="tables.tasks.decks_overdue_tick", ignore_result=True)
def decks_overdue_tick() -> None:
    """Beat calls this every minute: each deck in play past its limit at an open banked table is flagged
    (§655a.3(c), §657a.3(c)). Safe to run twice or late: one flag per deck (a unique key)."""
    decks_overdue_flag()
