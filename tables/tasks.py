"""Celery tasks of the tables: thin, idempotent wrappers over services."""

from celery import shared_task

from .equipment.services import decks_missing_flag, decks_overdue_flag


@shared_task(name="tables.tasks.decks_overdue_tick", ignore_result=True)
def decks_overdue_tick() -> None:
    """Beat calls this every minute: each deck in play past its limit at an open banked table is flagged
    (§655a.3(c), §657a.3(c)), and each banked table open 15 minutes with no deck on the record
    (§655a.4(a), §657a.4(a)). Safe to run twice or late: one flag per deck, one per opening (unique keys)."""
    decks_overdue_flag()
    decks_missing_flag()
