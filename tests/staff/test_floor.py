"""The kernel's tablet pages: the signing PIN page (sign-in and home are in tests/core/test_faces.py)."""

from __future__ import annotations

from casino_backoffice.staff.models import User
from tests.conftest import PASSWORD


def test_setting_a_pin_needs_the_password_and_two_equal_pins(client, floorperson) -> None:
    client.force_login(floorperson)
    old = floorperson.pin_hash

    response = client.post("/floor/pin/", {"current_password": "nope", "pin": "1111", "pin_again": "1111"})
    assert "not your sign-in password" in response.content.decode()
    response = client.post("/floor/pin/", {"current_password": PASSWORD, "pin": "1111", "pin_again": "2222"})
    assert "The two PINs differ" in response.content.decode()
    floorperson.refresh_from_db()
    assert floorperson.pin_hash == old

    response = client.post("/floor/pin/", {"current_password": PASSWORD, "pin": "1111", "pin_again": "1111"})
    assert response.status_code == 302
    floorperson.refresh_from_db()
    assert floorperson.pin_hash != old


def test_a_pin_too_long_typed_twice_is_refused_by_the_rule_not_as_two_different_pins(client, floorperson) -> None:
    client.force_login(floorperson)
    old = floorperson.pin_hash

    response = client.post("/floor/pin/", {"current_password": PASSWORD, "pin": "123456789", "pin_again": "123456789"})

    html = response.content.decode()
    assert response.status_code == 200
    assert "A signing PIN is 4 to 8 digits." in html
    assert "The two PINs differ" not in html
    floorperson.refresh_from_db()
    assert floorperson.pin_hash == old


def test_both_pin_fields_take_the_same_digits_up_to_the_same_length(client, floorperson) -> None:
    client.force_login(floorperson)

    html = client.get("/floor/pin/").content.decode()

    for name in ("pin", "pin_again"):
        field = html[html.index(f'name="{name}"') - 300 : html.index(f'name="{name}"') + 300]
        assert 'maxlength="8"' in field and 'minlength="4"' in field
        assert 'pattern="[0-9]{4,8}"' in field and 'inputmode="numeric"' in field


def test_letters_in_a_new_pin_are_refused_with_the_rule(client, floorperson) -> None:
    client.force_login(floorperson)
    old = floorperson.pin_hash

    response = client.post("/floor/pin/", {"current_password": PASSWORD, "pin": "12a4", "pin_again": "12a4"})

    assert "A signing PIN is 4 to 8 digits." in response.content.decode()
    floorperson.refresh_from_db()
    assert floorperson.pin_hash == old
    assert User.objects.get(pk=floorperson.pk).failed_pin_attempts == 0
