"""The shared pieces of the tablet pages (casino_backoffice.core.floor): the PIN signature field, money
on the number pad, the card picker, and the home page's tiles."""

from __future__ import annotations

import re

import pytest
from django import forms
from django.template import engines

from casino_backoffice.core.floor.forms import CardsField, MoneyField, PinSignatureField
from casino_backoffice.core.floor.tiles import Tile, tiles_shown
from casino_backoffice.staff.permissions import Action
from casino_backoffice.staff.roles import Role


class SignForm(forms.Form):
    pin = PinSignatureField()


class PotForm(forms.Form):
    pot = MoneyField()
    uncalled_bet = MoneyField(required=False)


class HandsForm(forms.Form):
    winning = CardsField(count=2, label="Winning hole cards")
    losing = CardsField(count=2, label="Losing hole cards")


# --- PIN signature --------------------------------------------------------------------------------


def test_the_pin_signature_field_is_labelled_and_asks_for_digits_up_to_the_longest_pin() -> None:
    html = str(SignForm()["pin"].label_tag()) + str(SignForm()["pin"])

    assert '<label for="id_pin">Your signing PIN:</label>' in html
    assert 'type="password"' in html and 'inputmode="numeric"' in html and 'autocomplete="off"' in html
    assert 'pattern="[0-9]{4,8}"' in html and 'minlength="4"' in html and 'maxlength="8"' in html


@pytest.mark.parametrize("typed", ["12a4", "1234x", "\uff11\uff12\uff13\uff14", "12 34", "123", "123456789", "-1234"])
def test_anything_that_cannot_be_a_pin_is_refused_by_the_form_with_the_rule(typed: str) -> None:
    form = SignForm({"pin": typed})

    assert not form.is_valid()
    assert form.errors["pin"] == ["A signing PIN is 4 to 8 digits."]


@pytest.mark.parametrize("typed", ["1234", "12345678", " 2468 "])
def test_a_pin_of_four_to_eight_digits_passes_to_the_pin_check(typed: str) -> None:
    form = SignForm({"pin": typed})

    assert form.is_valid()
    assert form.cleaned_data["pin"] == typed.strip()


# --- Money on the number pad ----------------------------------------------------------------------


def test_money_is_cleaned_to_cents_and_bad_amounts_are_explained() -> None:
    form = PotForm({"pot": "1,234.50"})
    assert form.is_valid() and form.cleaned_data == {"pot": 123450, "uncalled_bet": None}
    form = PotForm({"pot": "10.005"})
    assert not form.is_valid() and "10.005 has a fraction of a cent" in form.errors["pot"][0]
    assert not PotForm({"pot": "ten"}).is_valid()


def test_money_fields_are_number_pad_targets_and_bring_its_script() -> None:
    form = PotForm()

    assert "data-number-pad" in str(form["pot"]) and 'inputmode="decimal"' in str(form["pot"])
    assert '<script src="/static/floor/number_pad.js"></script>' in str(form.media)


def test_the_number_pad_has_big_keys_for_every_digit_the_point_and_corrections() -> None:
    html = engines["django"].from_string('{% include "floor/components/number_pad.html" %}').render()

    keys = re.findall(r'data-key="([^"]+)"', html)
    assert sorted(keys) == sorted([*"0123456789", ".", "back", "clear"])
    assert 'type="button"' in html  # a key never submits the form


# --- The card picker ------------------------------------------------------------------------------


def test_the_card_picker_shows_the_52_cards_as_buttons_with_their_codes() -> None:
    html = str(HandsForm()["winning"])

    codes = re.findall(r'data-card="([^"]+)"', html)
    assert len(codes) == len(set(codes)) == 52
    assert codes[:2] == ["As", "Ks"] and codes[-1] == "2c" and "Td" in codes
    assert 'aria-label="ten of diamonds"' in html
    assert 'type="hidden" name="winning"' in html and 'data-count="2"' in html and "required" not in html
    assert '<script src="/static/floor/card_picker.js"></script>' in str(HandsForm().media)


def test_the_card_picker_shows_the_cards_already_picked() -> None:
    html = str(HandsForm({"winning": "As Td", "losing": ""})["winning"])

    assert 'value="As Td"' in html
    assert re.search(r'data-card="As"[^>]*aria-pressed="true"', html)
    assert re.search(r'data-card="Ks"[^>]*aria-pressed="false"', html)


def test_picked_cards_are_cleaned_to_their_codes() -> None:
    form = HandsForm({"winning": "As Td", "losing": "kh qh"})

    assert form.is_valid()
    assert form.cleaned_data == {"winning": ("As", "Td"), "losing": ("Kh", "Qh")}


@pytest.mark.parametrize(
    ("picked", "message"),
    [
        ("As", "Pick 2 cards; 1 picked."),
        ("As As", "is a duplicate of card 1"),
        ("As Xx", "is not a rank"),
        ("", "Pick 2 cards."),
    ],
)
def test_a_wrong_pick_is_refused(picked: str, message: str) -> None:
    form = HandsForm({"winning": picked, "losing": "Kh Qh"})

    assert not form.is_valid()
    assert message in form.errors["winning"][0]


# --- Tiles ----------------------------------------------------------------------------------------


def test_a_person_sees_the_tiles_of_the_actions_they_may_take_in_the_order_given(make_staff) -> None:
    tiles = [
        Tile("Tables", "Every table.", "floor:tables"),
        Tile("Time charges", "Verify them.", "floor:time-charges", action=Action.TIME_CHARGE_VERIFY),
        Tile("Back office", "Admin.", "admin:index", action=Action.BACK_OFFICE_USE),
    ]

    assert [t.title for t in tiles_shown(tiles, user=make_staff(Role.DEALER))] == ["Tables"]
    both = make_staff(Role.FLOORPERSON, extra_roles=[Role.FINANCE])
    assert [(t.title, t.url) for t in tiles_shown(tiles, user=both)] == [
        ("Tables", "/floor/tables/"),
        ("Time charges", "/floor/time-charges/"),
        ("Back office", "/admin/"),
    ]
