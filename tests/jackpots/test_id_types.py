"""The kind of identification a patron presents is picked from one list on every page."""

from __future__ import annotations

from jackpots.funds.floor import ID_TYPES, id_type_field


def test_the_list_is_the_tablets_and_starts_with_a_choice_to_make() -> None:
    field = id_type_field(label="Identification presented")

    assert list(field.choices) == [("", "Choose the document presented"), *ID_TYPES]
    assert field.clean("Passport") == "Passport"


def test_a_type_recorded_off_the_list_is_offered_so_it_can_still_be_matched() -> None:
    field = id_type_field(label="Identification presented", recorded="Tribal ID")

    assert list(field.choices)[-1] == ("Tribal ID", "Tribal ID")
    assert field.clean("Tribal ID") == "Tribal ID"


def test_a_recorded_type_of_the_list_in_other_letters_is_not_offered_twice() -> None:
    field = id_type_field(label="Identification presented", recorded="passport")

    assert list(field.choices) == [("", "Choose the document presented"), *ID_TYPES]
