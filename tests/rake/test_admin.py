"""The admin: rules versions with their diff, rounds with export, the poker revenue report."""

from __future__ import annotations

import uuid
from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from rake.services import round_record, rules_load
from tables.models import Round, RulesVersion

from .factories import RULES, rules_loader, rules_text


@pytest.fixture
def finance_browser(finance) -> Client:
    browser = Client()
    browser.force_login(finance)
    return browser


def test_a_rules_version_shows_what_changed(finance_browser, rules):
    rules_load(
        text=rules_text(
            effective_from=None,  # a second version takes effect as it is loaded
            rake_policies=[{**RULES["rake_policies"][0], "max_per_round": "6.00"}, *RULES["rake_policies"][1:]],
        ),
        actor=rules_loader(),
    )
    second = RulesVersion.objects.get(number=2)
    page = finance_browser.get(f"/admin/tables/rulesversion/{second.pk}/change/")
    assert page.status_code == 200
    text = page.content.decode()
    assert "-      &quot;max_per_round&quot;: &quot;5.00&quot;," in text
    assert "+      &quot;max_per_round&quot;: &quot;6.00&quot;," in text
    assert finance_browser.get("/admin/tables/rulesversion/").status_code == 200


def test_rounds_and_revenue_in_the_admin_with_exports(finance_browser, rated_table, dealer):
    round_record(
        table=rated_table,
        ended_at=timezone.now() - timedelta(minutes=3),
        players_dealt_in=9,
        pot_cents=12000,
        uncalled_bet_cents=2000,
        flop_dealt=True,
        voided=False,
        actor=dealer,
        idempotency_key=str(uuid.uuid4()),
    )
    assert finance_browser.get("/admin/tables/round/").status_code == 200
    exported = finance_browser.post(
        "/admin/tables/round/",
        {"action": "export_csv", "_selected_action": list(Round.objects.values_list("pk", flat=True))},
    )
    assert exported.status_code == 200 and b"5.00" in exported.content
    report = finance_browser.get("/admin/rake/pokerrevenue/", {"group_by": ["table"]})
    assert report.status_code == 200
    assert "<td>T1</td>" in report.content.decode() and "<td>$5.00</td>" in report.content.decode()  # money as money
    assert "<th>Total</th>" in report.content.decode()
    assert "<th>Time charges</th>" in report.content.decode() and "<th>Drops: bb</th>" in report.content.decode()
    csv = finance_browser.get("/admin/rake/pokerrevenue/", {"group_by": ["table"], "export": "csv"})
    assert csv["Content-Disposition"] == 'attachment; filename="poker-revenue-main.csv"'
    assert (
        csv.content.decode().splitlines()[0].startswith("table,rounds,late_rounds,voided_rounds,rake,time_charges")
    )  # exports keep the keys
    assert (
        csv.content.decode().splitlines()[1].startswith("T1,1,0,0,5.00,0.00,0.00,5.00")
    )  # late rounds, rake, time charges, reversed, expected
