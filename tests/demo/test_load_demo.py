"""``manage.py load_demo``: the demo room, its tables and staff of every role, loaded once."""

from __future__ import annotations

from io import StringIO

from django.contrib.auth.models import Group
from django.core.management import call_command

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
