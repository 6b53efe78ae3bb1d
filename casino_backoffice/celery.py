"""The Celery app: one worker with an embedded beat (``celery -A casino_backoffice worker -B``)."""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "casino_backoffice.settings")

app = Celery("casino_backoffice")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
