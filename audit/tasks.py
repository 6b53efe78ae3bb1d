"""Celery tasks of the audit: thin, idempotent wrappers over services."""

from celery import shared_task

from .package.seal import package_seals_due


@shared_task(name="audit.tasks.package_seals_tick", ignore_result=True)
def package_seals_tick() -> None:
    """Beat calls this every minute: each gaming day closed since is sealed (``package.seal``). Safe to
    run twice or late: one seal per close (a unique key)."""
    package_seals_due()
