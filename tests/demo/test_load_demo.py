"""``manage.py load_demo``: the demo room, its tables and staff of every role, loaded once."""

from __future__ import annotations

from io import StringIO

from django.contrib.auth.models import Group
from django.core.management import call_command

from cage.models import Count, CountStatus
from casino_backoffice.money import display_cents
from casino_backoffice.staff.models import User
from casino_backoffice.staff.roles import Role
from tables.models import RulesVersion, Table


def test_the_demo_rules_file_is_valid_and_loads_its_thirteen_tables(db):
    out = StringIO()
    call_command("load_demo", stdout=out)
    assert Table.objects.count() == 13
    assert RulesVersion.objects.get().source_name == "demo/rules.yaml"
    call_command("load_demo", stdout=StringIO())
    assert RulesVersion.objects.count() == 1


def test_the_demo_staff_hold_every_role_and_the_roles_their_permissions(db):
    call_command("load_demo", stdout=StringIO())

    assert {role for user in User.objects.all() for role in user.roles} == set(Role)
    # The groups are synced after the last app with models migrates (the demo app has none).
    assert Group.objects.get(name=Role.FINANCE.value).permissions.filter(content_type__app_label="rake").exists()


def test_the_demo_day_shows_a_mistyped_count_recounted_by_the_shift_supervisor(db):
    """The demo's T1 drop box is counted with a zero too many, then recounted by the shift supervisor
    with the reason; the recount is what the cage verified, and the mistyped count stays, superseded."""
    call_command("load_demo", stdout=StringIO())

    recount = Count.objects.get(supersedes__isnull=False)
    typed = recount.supersedes
    assert (recount.box.code, recount.counted_by.username) == ("T1-drop", "supervisor")
    assert typed.status == CountStatus.SUPERSEDED and typed.counted_cents == 10 * recount.counted_cents > 0
    assert recount.recount_reason == (
        f"The dealer typed {display_cents(typed.counted_cents)} for {display_cents(recount.counted_cents)}."
    )
    assert recount.variance_cents == 0 and recount.status == CountStatus.VERIFIED
