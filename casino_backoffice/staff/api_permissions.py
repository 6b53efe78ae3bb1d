"""The permission of every API view (``DEFAULT_PERMISSION_CLASSES``): the one table of actions and roles.

Its own module, importing nothing of DRF's views: DRF imports it while ``rest_framework.views``
itself loads.
"""

from __future__ import annotations

from typing import Any

from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request

from .auth import acting_user
from .exceptions import NO_ROOM_MESSAGE, NoRoomGiven
from .permissions import Action, action_require


class ActionPermission(IsAuthenticated):
    """Every API view's permission (``DEFAULT_PERMISSION_CLASSES``): a signed-in member of staff, given
    a room or the all-rooms grant (else 403 ``no_room``), whose roles may take the action the view
    names for the request's method.

    A view declares ``required_actions = {"POST": Action.ROUND_RECORD}``; a method it does not name
    is open to any signed-in member of staff. A role that may not take the action is refused with
    ``ActionNotPermitted``: a 403 ``{detail, code: "not_permitted"}`` naming who may.
    """

    def has_permission(self, request: Request, view: Any) -> bool:
        if not super().has_permission(request, view):
            return False
        if acting_user(request).works_nowhere:
            raise NoRoomGiven(NO_ROOM_MESSAGE)
        action = required_action(view, request.method or "")
        if action is not None:
            action_require(actor=acting_user(request), action=action)
        return True


def required_action(view: Any, method: str) -> Action | None:
    """The action a view needs for ``method`` (HEAD as GET), or None when any member of staff may."""
    actions: dict[str, Action] = getattr(view, "required_actions", {})
    return actions.get("GET" if method.upper() == "HEAD" else method.upper())
