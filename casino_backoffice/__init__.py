"""The poker-room back office: the Django project and its shared kernel."""

from .celery import app as celery_app

__all__ = ["celery_app"]
