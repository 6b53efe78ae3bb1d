"""parse_cards and the Card type."""

import pytest

from casino_backoffice.poker import Card, InvalidCards, parse_cards


def test_parse_cards_accepts_every_written_form() -> None:
    expected = parse_cards(["As", "Kd", "Th"])
    assert parse_cards("As Kd Th") == expected
    assert parse_cards("AsKdTh") == expected
    assert parse_cards("as kD 10h") == expected
    assert parse_cards("As,Kd, 10H") == expected
    assert parse_cards("AsKd10h") == expected
    assert parse_cards([51, 45, 34]) == expected
    assert parse_cards(expected) == expected


def test_card_encoding_is_four_times_rank_plus_suit() -> None:
    # given the batch encoding: rank 0 deuce .. 12 ace, suit 0 clubs .. 3 spades
    assert [int(c) for c in parse_cards("2c 2d 2h 2s As")] == [0, 1, 2, 3, 51]
    card = parse_cards("Qh")[0]
    assert (card.rank, card.suit, str(card), repr(card)) == (10, 2, "Qh", "Card('Qh')")
    assert isinstance(card, Card)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("As Xd", "card 2 'Xd': 'X' is not a rank"),
        ("As Kx", "card 2 'Kx': 'x' is not a suit"),
        ("As A", "card 2 'A' is incomplete"),
        ("As Kd As", "card 3 'As' is a duplicate of card 1"),
        ("As 1s", "card 2 '1s': '1' is not a rank"),
    ],
)
def test_malformed_or_duplicate_cards_say_which_and_why(text: str, message: str) -> None:
    with pytest.raises(InvalidCards, match=message):
        parse_cards(text)


def test_non_card_items_are_refused() -> None:
    for bad in ([52], [-1], [True], [1.5]):
        with pytest.raises(InvalidCards, match="is not a card"):
            parse_cards(bad)  # type: ignore[arg-type]


def test_invalid_cards_is_a_value_error() -> None:
    assert issubclass(InvalidCards, ValueError)
