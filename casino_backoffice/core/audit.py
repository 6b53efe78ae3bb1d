"""Who changed a record, for its audit history (django-simple-history's "Changed by").

A change made through a page or the API is the signed-in person's: ``HistoryRequestMiddleware``
keeps the request, and DRF sets the authenticated person on it. A change made with no request (the
demo loader, a Celery task, ``manage.py shell``) is the person whose permission the service checked
last (``staff.permissions.action_require`` notes them here): every service names its acting person
and checks them first, so the history names them instead of "None". The note lives in this thread's
context only and is cleared before and after each task (``casino_backoffice.celery``) and each
request (``CoreConfig.ready``), so neither a worker nor a server thread lends one's person to the
next.
"""

from __future__ import annotations

from contextvars import ContextVar
from typing import Any

_acting: ContextVar[Any] = ContextVar("acting_person", default=None)


def acting_note(person: Any) -> None:
    """Note ``person`` as the one acting now (a service checked their permission)."""
    _acting.set(person)


def acting_clear() -> None:
    _acting.set(None)


def acting_cleared(**_: Any) -> None:
    """``acting_clear`` as a signal receiver."""
    acting_clear()


def history_user(instance: Any, request: Any, **kwargs: Any) -> Any:
    """simple-history's ``get_user``: the request's person, else the person acting in this context."""
    if request is not None:
        return request.user
    return _acting.get()
