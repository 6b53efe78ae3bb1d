"""TEMPORARY (cage branch): replaced by the roles branch's table at merge; only the cage's actions."""

from __future__ import annotations

from django.db import models

from .exceptions import StaffError
from .models import User
from .roles import FLOORPERSON_OR_ABOVE, Role


class ActionNotPermitted(StaffError):
    code = "not_permitted"
    status = 403


class Action(models.TextChoices):
    NOTICE_RECORD = "notice_record", "Record the notice to compliance before a Bad Beat count"
    COUNT_RECORD = "count_record", "Count a box at a closed table"
    COUNT_WITNESS = "count_witness", "Witness a count"
    TRANSPORT_CREATE = "transport_create", "Carry a container or boxes to the cage"
    TRANSPORT_ACCOUNT = "transport_account", "Account for the boxes carried to the cage"
    MISSING_BOX_RECORD = "missing_box_record", "Sign an exception for a box missing at the cage"
    CAGE_VERIFY = "cage_verify", "Verify a count at the cage"
    VARIANCE_EXPLAIN = "variance_explain", "Explain a variance"
    GAMING_DAY_CLOSE = "gaming_day_close", "Close a gaming day"


ACTION_ROLES: dict[Action, frozenset[Role]] = {
    Action.NOTICE_RECORD: FLOORPERSON_OR_ABOVE,
    Action.COUNT_RECORD: frozenset({Role.DEALER}),
    Action.COUNT_WITNESS: FLOORPERSON_OR_ABOVE,
    Action.TRANSPORT_CREATE: frozenset({Role.SECURITY}),
    Action.TRANSPORT_ACCOUNT: FLOORPERSON_OR_ABOVE,
    Action.MISSING_BOX_RECORD: frozenset({Role.SHIFT_SUPERVISOR, Role.POKER_ROOM_MANAGER}),
    Action.CAGE_VERIFY: frozenset({Role.CAGE_CASHIER}),
    Action.VARIANCE_EXPLAIN: frozenset({Role.SHIFT_SUPERVISOR, Role.FINANCE}),
    Action.GAMING_DAY_CLOSE: frozenset({Role.FINANCE, Role.POKER_ROOM_MANAGER}),
}


def may(user: User, action: Action) -> bool:
    return bool(user.roles & ACTION_ROLES[action])


def action_require(*, actor: User, action: Action) -> None:
    if not may(actor, action):
        raise ActionNotPermitted(f"{actor} may not {action.label.lower()}.")
