"""The access matrix: every role against every operation of the API, the tablet and the back office,
generated from the one table of actions and roles (``ACTION_ROLES``) and checked against what each face
answers. ``tests/staff/test_permissions.py`` walks the API routes and tablet pages role by role (403,
or the refusal on the page, exactly when the table says) and every service's refusal; this module
says the walk is the whole matrix (every write that moves money or signs names its action) and walks
the admin's pages that act, which declare their action in their code."""

from __future__ import annotations

from io import StringIO

import pytest
from django.apps import apps
from django.core.management import call_command
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, reverse

from casino_backoffice.staff.permissions import ACTION_ROLES, Action
from casino_backoffice.staff.roles import Role
from tests.staff.test_permissions import PUBLIC, ROUTES, SIGNED_IN, _service_calls

# The admin's pages that act or read a restricted record: URL name -> (its id, the document, the action).
ADMIN_PAGES: dict[str, tuple[str | None, str | None, Action]] = {
    "admin:jackpots_badbeatclaim_distribute": ("claim_id", "jackpots.BadBeatClaim", Action.BAD_BEAT_DISTRIBUTE),
    "admin:jackpots_badbeatclaim_file": ("claim_id", "jackpots.BadBeatClaim", Action.BAD_BEAT_RECORDS_READ),
    "admin:jackpots_badbeatshare_pay": ("share_id", "jackpots.BadBeatShare", Action.BAD_BEAT_PAY),
    "admin:jackpots_badbeatdisplaycheck_adjust": ("jackpot_id", "jackpots.Jackpot", Action.DISPLAY_ADJUST),
    "admin:jackpots_fundtransfer_prepare": (None, None, Action.FUND_TRANSFER_PREPARE),
    "admin:jackpots_progressivehand_pay": ("hand_id", "jackpots.ProgressiveHand", Action.PROGRESSIVE_PAY),
    "admin:jackpots_badbeatreport_claims": (None, None, Action.BAD_BEAT_RECORDS_READ),
    "admin:jackpots_badbeatreport_high_hand_rules": (None, None, Action.RULES_VERSIONS_READ),
    "admin:cage_official_record": (None, None, Action.CAGE_RECORD_READ),
    "admin:cage_custody_log": (None, None, Action.CAGE_RECORD_READ),
    "admin:cage_count_sheets": (None, None, Action.CAGE_RECORD_READ),
    "admin:jackpots_highhandperiod_slip": ("period_id", "jackpots.HighHandPeriod", Action.HIGH_HAND_RECORDS_READ),
}
# Who may reach the admin at all: the back office (``Action.BACK_OFFICE_USE``); anyone else is sent
# to sign in there, which is a refusal as well.
BACK_OFFICE = ACTION_ROLES[Action.BACK_OFFICE_USE]


def test_the_matrix_is_every_role_against_every_operation_and_every_write_names_its_action() -> None:
    operations = [(name, method) for (name, method), who in ROUTES.items() if who != PUBLIC]
    matrix = {
        (role, name, method): who == SIGNED_IN or role in ACTION_ROLES[Action(who)]
        for role in Role
        for name, method in operations
        for who in [ROUTES[name, method]]
    }
    assert len(matrix) == len(Role) * len(operations) >= 10 * 100
    # Every write of the API and every write of the tablet (but signing out) is an action of the table:
    # none is open to any member of staff.
    open_writes = [
        (name, method) for name, method in operations if method == "POST" and ROUTES[name, method] == SIGNED_IN
    ]
    assert open_writes == []
    # Every action a route, an admin page or a service takes is in the table, with at least one role.
    taken = {who for who in ROUTES.values() if isinstance(who, Action)}
    taken |= {action for *_, action in ADMIN_PAGES.values()}
    taken |= {action for action, _ in _service_calls().values()}
    assert taken <= set(ACTION_ROLES) and all(ACTION_ROLES[action] for action in taken)
    print(f"access matrix: {len(Role)} roles x {len(operations)} API and tablet operations = {len(matrix)} cells")


def _admin_names() -> set[str]:
    names: set[str] = set()

    def walk(patterns: list, namespace: str) -> None:
        for pattern in patterns:
            if isinstance(pattern, URLResolver):
                walk(pattern.url_patterns, f"{namespace}{pattern.namespace}:" if pattern.namespace else namespace)
            elif isinstance(pattern, URLPattern) and pattern.name:
                names.add(f"{namespace}{pattern.name}")

    walk(get_resolver().url_patterns, "")
    return {name for name in names if name.startswith("admin:")}


def test_the_admin_pages_walked_exist() -> None:
    assert set(ADMIN_PAGES) <= _admin_names()


@pytest.mark.parametrize("name", list(ADMIN_PAGES))
def test_every_admin_page_that_acts_answers_each_role_as_the_table_says(name, db, make_staff) -> None:
    call_command("load_demo", stdout=StringIO())
    kwarg, label, action = ADMIN_PAGES[name]
    kwargs = {}
    if kwarg is not None:
        assert label is not None
        document = apps.get_model(label).objects.order_by("pk").first()
        assert document is not None, label
        kwargs = {kwarg: document.pk}
    url = reverse(name, kwargs=kwargs)
    # Each role alone, and each role held beside the next by one person (the last beside the first): the
    # person may what their roles together may.
    roles = list(Role)
    for held in [(role,) for role in roles] + list(zip(roles, roles[1:] + roles[:1], strict=True)):
        role, *others = held
        browser = Client()
        browser.force_login(make_staff(role, extra_roles=others) if others else make_staff(role))
        response = browser.get(url)
        signed_in_elsewhere = response.status_code == 302 and "/login/" in response["Location"]
        allowed = bool(set(held) & ACTION_ROLES[action]) and bool(set(held) & BACK_OFFICE)
        if allowed:
            assert response.status_code != 403 and not signed_in_elsewhere, (name, held, response.status_code)
        else:
            assert response.status_code == 403 or signed_in_elsewhere, (name, held, response.status_code)
