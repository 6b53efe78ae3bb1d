"""The roles of a poker room, the sets the regulations name, and what each reads in the admin.

Each role is a Django group of the same name with the model permissions below; ``roles_sync`` makes
the groups match this table after every migrate. A person's roles are their groups. Which role may
take which action is the one table in ``permissions.ACTION_ROLES``.
"""

from __future__ import annotations

from django.db import models


class Role(models.TextChoices):
    DEALER = "dealer", "Dealer"
    FLOORPERSON = "floorperson", "Floorperson"
    SHIFT_SUPERVISOR = "shift_supervisor", "Poker shift supervisor"
    POKER_ROOM_MANAGER = "poker_room_manager", "Poker room manager"
    SECURITY = "security", "Security officer"
    SURVEILLANCE = "surveillance", "Surveillance"
    CAGE_CASHIER = "cage_cashier", "Cage cashier"
    FINANCE = "finance", "Finance"
    COMPLIANCE = "compliance", "Compliance (read-only)"
    ADMINISTRATOR = "administrator", "Administrator"


# 'Floorperson or above' in the regulations (§637a.15(d)(1), §637a.16(f)): floorperson, poker shift
# supervisor, poker room manager.
FLOORPERSON_OR_ABOVE = frozenset({Role.FLOORPERSON, Role.SHIFT_SUPERVISOR, Role.POKER_ROOM_MANAGER})
SUPERVISOR_OR_ABOVE = frozenset({Role.SHIFT_SUPERVISOR, Role.POKER_ROOM_MANAGER})
# Who works a table: the dealer, and the floorperson or above who may stand in for them.
DEALER_OR_FLOORPERSON_OR_ABOVE = frozenset({Role.DEALER}) | FLOORPERSON_OR_ABOVE

# Roles that work in the Django admin (cashiers, finance, compliance, administrators, managers).
ADMIN_ROLES = frozenset({Role.CAGE_CASHIER, Role.FINANCE, Role.COMPLIANCE, Role.ADMINISTRATOR, Role.POKER_ROOM_MANAGER})

# Apps whose models every role may read: the floor needs tables and jackpots, the cage needs them all.
_ALL_APPS = ("staff", "ledger", "tables", "rake", "jackpots", "cage", "core")
_FLOOR_APPS = ("tables", "rake", "jackpots")

# role -> {app label: actions}. Money rows are never changed nor deleted through permissions: the
# admin refuses it whatever a group holds, and services are the only writers.
ROLE_PERMISSIONS: dict[Role, dict[str, tuple[str, ...]]] = {
    Role.DEALER: {app: ("view",) for app in _FLOOR_APPS},
    Role.FLOORPERSON: {app: ("view",) for app in _FLOOR_APPS},
    Role.SHIFT_SUPERVISOR: {app: ("view",) for app in _FLOOR_APPS},
    Role.POKER_ROOM_MANAGER: {**{app: ("view",) for app in _ALL_APPS}, "tables": ("view", "add", "change")},
    Role.SECURITY: {"tables": ("view",), "cage": ("view",)},
    Role.SURVEILLANCE: {"tables": ("view",), "cage": ("view",), "jackpots": ("view",)},
    Role.CAGE_CASHIER: {app: ("view",) for app in ("tables", "rake", "jackpots", "cage", "ledger")},
    Role.FINANCE: {
        **{app: ("view",) for app in _ALL_APPS},
        "jackpots": ("view", "add", "change"),
        "rake": ("view", "add", "change"),
    },
    Role.COMPLIANCE: {app: ("view",) for app in _ALL_APPS},
    # API tokens (knox's, stored as digests) are credentials: only administrators see or revoke them.
    Role.ADMINISTRATOR: {app: ("view", "add", "change", "delete") for app in (*_ALL_APPS, "knox")},
}
# Compliance reads the audit trail of every model too (django-simple-history's historical models
# live in each model's app, so they are covered by the app labels above).
