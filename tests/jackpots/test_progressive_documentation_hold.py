"""A payout not paid from the table inventory holds its table until its validation is signed.

'If a player has won a progressive payout that is not being paid from the table inventory container,
the cards of that player shall remain on the table until the necessary documentation has been
completed' (§655a.11(i)(4)(i)(D); Crazy 4 Poker's §657a.11(e)(4) as amended says the same of 'a
progressive payout that is a percentage of the jackpot amount on the progressive meter'). The cards
cannot stay on the table while the next round is dealt there, so the table's next progressive round is
refused (409 ``payout_documentation_open``, naming the hand) until a floorperson or above has signed
the validation (§655a.11(i)(4)(i)(C), §657a.11(e)(3)).
"""

from __future__ import annotations

import pytest

from casino_backoffice.ledger.selectors import ledger_total
from jackpots.progressive.exceptions import ProgressiveRefused
from jackpots.progressive.models import PayoutPlace, ProgressiveRound
from jackpots.progressive.services.hands import progressive_validate
from tables.models import Table
from tests.cage.helpers import client_for, post, refused
from tests.conftest import PIN
from tests.jackpots.progressive_helpers import ended, hand, meter_cents, play, snapshot

pytestmark = pytest.mark.django_db


def test_four_aces_through_the_cage_hold_the_table_until_the_validation_is_signed(crazy4, dealer, floorperson) -> None:
    # Given four aces at T12 taking 100% of the Crazy 4 meter, paid through the cage, not yet validated.
    round_ = play(crazy4, dealer, {6: "1.00", 3: "5.00"})
    aces = hand(round_, dealer, 6, "As Ah Ad Ac 2d")
    assert (aces.place, aces.meter_bp) == (PayoutPlace.CAGE, 10_000)
    before, meter = snapshot(), meter_cents("c4p")

    # When the table's next round is recorded, then it is refused naming the hand, and nothing changed.
    with pytest.raises(ProgressiveRefused) as held:
        play(crazy4, dealer, {1: "1.00"})
    assert (held.value.code, held.value.status) == ("payout_documentation_open", 409)
    assert f"hand {aces.pk}" in str(held.value) and aces.words in str(held.value) and "seat 6" in str(held.value)
    assert snapshot() == before and meter_cents("c4p") == meter

    # Once a floorperson signed the validation, the table deals again (the cashier pays later).
    progressive_validate(hand=aces, actor=floorperson, pin=PIN)
    later = play(crazy4, dealer, {1: "1.00"})
    assert later.table == crazy4 and ProgressiveRound.objects.filter(table=crazy4).count() == 2
    assert ledger_total() == 0


def test_a_royal_flush_holds_only_its_own_table_not_the_others_on_the_meter(crazy4, dealer, floorperson) -> None:
    """§657a.11(e)(4) keeps 'the cards of that player' on the table where they were dealt; it says
    nothing of the other tables linked to the meter, which keep dealing (a 100% payout leaves the meter
    pending its reset, so they win no share of it meanwhile, but their rounds are recorded)."""
    aces = hand(play(crazy4, dealer, {6: "1.00"}), dealer, 6, "As Ah Ad Ac 2d")
    other = Table.objects.get(room__code="main", number="T13")  # T13 plays into the same c4p meter

    rounds_elsewhere = play(other, dealer, {2: "1.00"})

    assert rounds_elsewhere.meter == aces.round.meter
    with pytest.raises(ProgressiveRefused):
        play(crazy4, dealer, {1: "1.00"})


def test_a_payout_at_the_table_does_not_hold_it(stud, crazy4, dealer) -> None:
    """Mississippi Stud's straight flush takes 10% of the meter at the table (§655a.11(i)(4)(i)(D) bars
    only 100% from the table inventory), and Crazy 4's four-of-a-kind is 300 for 1 at the table: neither
    holds the table, whose next round is recorded before the validation."""
    flush = hand(play(stud, dealer, {4: "1.00"}, community="9h 8h 7h"), dealer, 4, "6h 5h")
    quads = hand(play(crazy4, dealer, {3: "1.00"}), dealer, 3, "9s 9h 9d 9c 2c")
    assert (flush.place, quads.place) == (PayoutPlace.TABLE, PayoutPlace.TABLE)

    play(stud, dealer, {1: "1.00"}, community="2c 3d 4s")
    play(crazy4, dealer, {1: "1.00"})

    assert ProgressiveRound.objects.count() == 4


def test_the_api_answers_409_naming_the_hand(stud, dealer, floorperson) -> None:
    round_ = play(stud, dealer, {5: "1.00"}, community="Qs Js Ts")
    royal = hand(round_, dealer, 5, "As Ks")
    body = {
        "table": "T11",
        "ended_at": ended().isoformat(),
        "wagers": [{"seat": 1, "amount": "1.00"}],
        "chips_collected": 1,
    }
    before = snapshot()

    response = post(client_for(dealer), "/api/progressive/rounds/", body)

    refused(response, 409, "payout_documentation_open")
    assert f"hand {royal.pk}" in response.json()["detail"] and snapshot() == before
    progressive_validate(hand=royal, actor=floorperson, pin=PIN)
    assert post(client_for(dealer), "/api/progressive/rounds/", body).status_code == 201
