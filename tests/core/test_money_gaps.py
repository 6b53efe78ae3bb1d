"""What mutation testing of ``casino_backoffice/money.py`` found no test for (issue 23, item 13).

Database-free: ``make mutation`` runs these against every mutant of money.py.
"""

from __future__ import annotations

import pytest

from casino_backoffice.money import InvalidAmount, display_cents, format_cents, percent_floor


def test_zero_is_shown_without_a_minus_sign() -> None:
    assert display_cents(0) == "$0.00"
    assert format_cents(0) == "0.00"


@pytest.mark.parametrize(("cents", "rate_bp"), [(-1, 1_000), (10_000, -1), (-10_000, -1_000)])
def test_percent_floor_refuses_a_negative_pot_or_rate(cents: int, rate_bp: int) -> None:
    with pytest.raises(InvalidAmount, match="non-negative amounts at non-negative rates"):
        percent_floor(cents, rate_bp)
