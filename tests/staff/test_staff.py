"""Staff: roles as groups, credential numbers, PINs, the management commands."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Group
from django.core.management import CommandError, call_command

from casino_backoffice.staff.exceptions import DuplicateCredentialNumber, InvalidPin
from casino_backoffice.staff.models import User
from casino_backoffice.staff.roles import ROLE_PERMISSIONS, Role
from casino_backoffice.staff.services import pin_check, pin_set, staff_create
from tests.conftest import PASSWORD


def test_every_role_is_a_group_after_migrate(db) -> None:
    assert set(Group.objects.values_list("name", flat=True)) >= {role.value for role in Role}


def test_compliance_reads_everything_and_changes_nothing(compliance) -> None:
    perms = compliance.get_all_permissions()
    assert "ledger.view_transfer" in perms
    assert "staff.view_historicaluser" in perms
    assert "tables.view_table" in perms
    assert not [perm for perm in perms if not perm.split(".")[1].startswith("view_")]


def test_a_dealer_cannot_touch_the_ledger(dealer) -> None:
    assert not dealer.has_perm("ledger.view_transfer")
    assert dealer.has_perm("tables.view_table")


def test_admin_roles_get_admin_access(cashier, dealer) -> None:
    assert cashier.is_staff
    assert not dealer.is_staff


def test_role_permissions_name_only_real_apps() -> None:
    from django.apps import apps

    labels = {config.label for config in apps.get_app_configs()}
    for role, grants in ROLE_PERMISSIONS.items():
        assert set(grants) <= labels, role


def test_a_duplicate_credential_number_is_refused_and_nothing_is_created(floorperson) -> None:
    before = User.objects.count()
    with pytest.raises(DuplicateCredentialNumber, match=floorperson.credential_number):
        staff_create(
            username="someone",
            role=Role.DEALER,
            credential_number=floorperson.credential_number,
            password=PASSWORD,
            all_rooms=True,
        )
    assert User.objects.count() == before


@pytest.mark.parametrize("pin", ["12", "abcd", "123456789", ""])
def test_a_pin_is_four_to_eight_digits(floorperson, pin) -> None:
    old = floorperson.pin_hash
    with pytest.raises(InvalidPin):
        pin_set(user=floorperson, pin=pin)
    floorperson.refresh_from_db()
    assert floorperson.pin_hash == old


def test_pin_set_then_check(floorperson) -> None:
    pin_set(user=floorperson, pin="97531")
    assert pin_check(user=floorperson, pin="97531").user == floorperson


def test_create_staff_command(db, capsys) -> None:
    call_command(
        "create_staff",
        "casey",
        role="cage_cashier",
        credential_number="PA-777",
        password=PASSWORD,
        all_rooms=True,
        interactive=False,
    )
    user = User.objects.get(username="casey")
    assert user.roles == {Role.CAGE_CASHIER}
    assert user.credential_number == "PA-777"
    printed_pin = capsys.readouterr().out.split("Signing PIN (shown once): ")[1].strip()
    assert pin_check(user=user, pin=printed_pin)


def test_create_staff_command_refuses_a_duplicate_credential(floorperson) -> None:
    with pytest.raises(CommandError, match="already belongs"):
        call_command(
            "create_staff",
            "other",
            role="dealer",
            credential_number=floorperson.credential_number,
            password=PASSWORD,
            all_rooms=True,
            interactive=False,
        )


def test_createsuperuser_noinput_reads_credential_and_pin(db, monkeypatch) -> None:
    monkeypatch.setenv("DJANGO_SUPERUSER_USERNAME", "root")
    monkeypatch.setenv("DJANGO_SUPERUSER_EMAIL", "root@example.com")
    monkeypatch.setenv("DJANGO_SUPERUSER_PASSWORD", PASSWORD)
    monkeypatch.setenv("DJANGO_SUPERUSER_CREDENTIAL_NUMBER", "PA-ROOT-1")
    monkeypatch.setenv("DJANGO_SUPERUSER_PIN", "13579")

    call_command("createsuperuser", interactive=False, verbosity=0)

    root = User.objects.get(username="root")
    assert root.is_superuser and root.credential_number == "PA-ROOT-1"
    assert Role.ADMINISTRATOR in root.roles
    assert pin_check(user=root, pin="13579")


def test_createsuperuser_refuses_a_bad_pin_before_creating_anyone(db, monkeypatch) -> None:
    monkeypatch.setenv("DJANGO_SUPERUSER_USERNAME", "root")
    monkeypatch.setenv("DJANGO_SUPERUSER_EMAIL", "root@example.com")
    monkeypatch.setenv("DJANGO_SUPERUSER_PASSWORD", PASSWORD)
    monkeypatch.setenv("DJANGO_SUPERUSER_CREDENTIAL_NUMBER", "PA-ROOT-1")
    monkeypatch.setenv("DJANGO_SUPERUSER_PIN", "12x")

    with pytest.raises(CommandError, match="4 to 8 digits"):
        call_command("createsuperuser", interactive=False, verbosity=0)
    assert not User.objects.filter(username="root").exists()


def test_createsuperuser_interactive_asks_for_credential_and_pin(db, monkeypatch) -> None:
    answers = iter(["root", "root@example.com", "PA-ROOT-2"])
    secrets = iter([PASSWORD, PASSWORD, "2468", "2468"])
    monkeypatch.setattr("builtins.input", lambda prompt="": next(answers))
    monkeypatch.setattr("getpass.getpass", lambda prompt="": next(secrets))
    monkeypatch.setattr("sys.stdin.isatty", lambda: True, raising=False)

    call_command("createsuperuser", interactive=True, verbosity=0)

    root = User.objects.get(username="root")
    assert root.credential_number == "PA-ROOT-2"
    assert pin_check(user=root, pin="2468")
