from celery import shared_task

from . import services


@shared_task(name="casino_backoffice.core.tasks.heartbeat", ignore_result=True)
def heartbeat() -> None:
    """Scheduled by beat every HEARTBEAT_SECONDS; /healthz reports the scheduler down when it stops."""
    services.heartbeat_record(source="beat")
