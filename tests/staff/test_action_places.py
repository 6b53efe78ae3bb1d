"""Where each role pays is written once, in the table of actions (``ACTION_PLACES``), beside who may
pay (``ACTION_ROLES``); the Bad Beat's payments read it."""

from __future__ import annotations

from casino_backoffice.staff.permissions import ACTION_PLACES, ACTION_ROLES, Action
from jackpots.funds.models import PaymentPlace


def test_every_role_that_may_pay_pays_somewhere_and_only_at_a_place_there_is() -> None:
    for action, places in ACTION_PLACES.items():
        assert set(places) == set(ACTION_ROLES[action]), action
        for where in places.values():
            assert where and where <= set(PaymentPlace.values), action


def test_a_bad_beat_share_is_delivered_by_security_paid_by_the_cage_and_either_by_finance() -> None:
    places = ACTION_PLACES[Action.BAD_BEAT_PAY]
    assert {role.value: sorted(where) for role, where in places.items()} == {
        "security": ["table"],
        "cage_cashier": ["cage"],
        "finance": ["cage", "table"],
    }
