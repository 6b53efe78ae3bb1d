"""A signature costs what it must, no more (issue 25, item 10): a PIN is stored as an HMAC-SHA-256
under ``PIN_KEY``, a key outside the database (required behind a TLS proxy, derived from the secret
key on the embedded default); a PIN stored with Argon2 before is stored again at its next right use;
passwords keep Argon2."""

from __future__ import annotations

import importlib
import os
import secrets
import subprocess
import sys
from pathlib import Path

import pytest
from django.contrib.auth.hashers import Argon2PasswordHasher

from casino_backoffice.staff.exceptions import WrongPin
from casino_backoffice.staff.models import User
from casino_backoffice.staff.pins import pin_hash_check, pin_hash_make
from casino_backoffice.staff.roles import Role
from casino_backoffice.staff.services import pin_check, pin_set
from tests.conftest import PIN

ROOT = Path(__file__).resolve().parents[2]


def _argon2(pin: str) -> str:
    hasher = Argon2PasswordHasher()
    return hasher.encode(pin, hasher.salt())


def test_a_pin_is_stored_as_a_salted_hmac_not_with_a_password_hasher(make_staff) -> None:
    first, second = make_staff(Role.FLOORPERSON), make_staff(Role.DEALER)

    for person in (first, second):
        kind, salt, digest = person.pin_hash.split("$")
        assert kind == "hmac_sha256" and len(salt) == 32 and len(digest) == 64
        assert PIN not in person.pin_hash
    # Two people with one PIN do not share a hash.
    assert first.pin_hash != second.pin_hash


def test_the_stored_pin_is_useless_without_the_key_outside_the_database(settings) -> None:
    stored = pin_hash_make(PIN)
    assert pin_hash_check(pin=PIN, stored=stored).correct

    settings.PIN_KEY = secrets.token_urlsafe(32)

    assert not pin_hash_check(pin=PIN, stored=stored).correct


def test_an_argon2_pin_is_stored_again_as_an_hmac_at_its_next_right_use(settings, floorperson) -> None:
    # Given a PIN stored with Argon2, as before, and the production's password hashers
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.Argon2PasswordHasher"]
    User.objects.filter(pk=floorperson.pk).update(pin_hash=_argon2(PIN))

    # When a wrong PIN is tried, nothing but the count changes
    with pytest.raises(WrongPin):
        pin_check(user=floorperson, pin="0000")
    row = User.objects.get(pk=floorperson.pk)
    assert row.pin_hash.startswith("argon2") and row.failed_pin_attempts == 1

    # When the right PIN signs, it is stored again as an HMAC, and still signs
    assert pin_check(user=floorperson, pin=PIN).user == floorperson
    row = User.objects.get(pk=floorperson.pk)
    assert row.pin_hash.startswith("hmac_sha256$") and row.failed_pin_attempts == 0
    assert pin_check(user=floorperson, pin=PIN).user == floorperson
    with pytest.raises(WrongPin):
        pin_check(user=floorperson, pin="0000")


def test_a_new_pin_is_stored_as_an_hmac(floorperson) -> None:
    pin_set(user=floorperson, pin="97531", actor=floorperson)

    assert User.objects.get(pk=floorperson.pk).pin_hash.startswith("hmac_sha256$")
    assert pin_check(user=floorperson, pin="97531").user == floorperson


def test_passwords_keep_argon2() -> None:
    # The settings module as written (the tests' fixture swaps in a fast hasher).
    module = importlib.import_module("casino_backoffice.settings")
    assert module.PASSWORD_HASHERS[0] == "django.contrib.auth.hashers.Argon2PasswordHasher"


def _setting(tmp_path: Path, name: str, **env: str) -> subprocess.CompletedProcess[str]:
    environment = {key: value for key, value in os.environ.items() if not key.startswith("DJANGO_")}
    environment.pop("PIN_KEY", None)
    environment.update({"CASINO_VAR_DIR": str(tmp_path), **env})
    return subprocess.run(
        [
            sys.executable,
            "-c",
            f"import django; django.setup(); from django.conf import settings; print(settings.{name})",
        ],
        cwd=ROOT,
        env={**environment, "DJANGO_SETTINGS_MODULE": "casino_backoffice.settings"},
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_behind_a_tls_proxy_the_service_refuses_to_start_without_a_pin_key(tmp_path) -> None:
    env = {"DJANGO_HTTPS": "true", "DJANGO_SECRET_KEY": secrets.token_urlsafe(50)}

    refused = _setting(tmp_path, "PIN_KEY", **env)
    started = _setting(tmp_path, "PIN_KEY", **env, PIN_KEY="k" * 40)

    assert refused.returncode != 0 and "PIN_KEY is not set" in refused.stderr
    assert started.returncode == 0 and started.stdout.strip() == "k" * 40


def test_a_short_pin_key_is_refused(tmp_path) -> None:
    result = _setting(tmp_path, "PIN_KEY", PIN_KEY="short")
    assert result.returncode != 0 and "PIN_KEY is too short" in result.stderr


def test_on_the_embedded_default_the_pin_key_is_derived_from_the_secret_key(tmp_path) -> None:
    one, other = secrets.token_urlsafe(50), secrets.token_urlsafe(50)

    first = _setting(tmp_path, "PIN_KEY", DJANGO_SECRET_KEY=one).stdout.strip()
    again = _setting(tmp_path, "PIN_KEY", DJANGO_SECRET_KEY=one).stdout.strip()
    another = _setting(tmp_path, "PIN_KEY", DJANGO_SECRET_KEY=other).stdout.strip()

    assert len(first) == 64 and first == again and first != another and first != one
