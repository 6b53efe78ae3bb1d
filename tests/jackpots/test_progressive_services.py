"""Progressive table games (§655a.12, §657a.12): meters, wagers, wins in the dealer's order, Envy
Bonuses, validation, the cage and the reset, with exact amounts and the ledger balanced."""

from __future__ import annotations

import pytest

from casino_backoffice.core.exceptions import DomainError
from casino_backoffice.ledger.models import Account
from casino_backoffice.ledger.selectors import account_balance, ledger_total
from casino_backoffice.staff.exceptions import ActionNotPermitted
from jackpots.progressive.exceptions import ProgressiveRefused
from jackpots.progressive.models import MeterFunding, PayoutPlace, ProgressiveMeter, WagerCountException
from jackpots.progressive.selectors import meters_standing, pending_hand
from jackpots.progressive.services.hands import progressive_pay, progressive_validate
from jackpots.progressive.services.meters import meter_reset
from jackpots.progressive.services.rounds import wager_count_explain
from tests.conftest import PIN
from tests.jackpots.progressive_helpers import (
    hand,
    meter_cents,
    play,
    snapshot,
)

pytestmark = pytest.mark.django_db


def _account(code: str) -> int:
    return account_balance(account=Account.objects.get(code=code))


def test_a_meter_starts_at_its_initial_amount_funded_by_the_house(progressive_rules) -> None:
    assert meter_cents("msp") == 10_000_00 and meter_cents("c4p") == 5_000_00
    assert _account("progressive:main:msp:house_funding") == -10_000_00
    assert MeterFunding.objects.filter(reason="initial").count() == 2
    standing = {m.meter.code: m for m in meters_standing(room=progressive_rules.room)}
    assert standing["c4p"].tables == ["T12", "T13"] and standing["msp"].tables == ["T11"]
    assert not standing["msp"].is_pending and ledger_total() == 0


def test_the_meter_rises_by_the_rate_and_the_rest_is_the_house_share(stud, dealer) -> None:
    round_ = play(stud, dealer, {1: "1.00", 2: "5.00", 3: "1.00"})

    # 15% of $7.00: $1.05 to the meter, $5.95 to the house, to the cent.
    assert (round_.wagers_cents, round_.increment_cents, round_.house_cents) == (700, 105, 595)
    assert meter_cents("msp") == 10_000_00 + 105
    assert _account("progressive:main:msp:house") == 595
    assert _account("progressive:main:msp:wagers") == -700
    assert not WagerCountException.objects.exists() and ledger_total() == 0


def test_a_round_posted_twice_counts_once(stud, dealer) -> None:
    from jackpots.progressive.services.rounds import SeatWager, progressive_round_record
    from tests.jackpots.progressive_helpers import ended

    when = ended()
    values = {
        "table": stud,
        "ended_at": when,
        "wagers": [SeatWager(1, 100)],
        "chips_collected": 1,
        "actor": dealer,
        "idempotency_key": "same-round",
    }
    first = progressive_round_record(**values)
    again = progressive_round_record(**values)
    assert first.pk == again.pk and meter_cents("msp") == 10_000_00 + 15


def test_chips_that_differ_from_the_wagers_are_an_exception_a_supervisor_explains(
    stud, dealer, supervisor, floorperson
) -> None:
    round_ = play(stud, dealer, {1: "1.00", 2: "1.00"}, chips=3)
    exception = WagerCountException.objects.get(round=round_)
    assert (exception.wagers_accepted, exception.chips_collected) == (2, 3)
    assert meter_cents("msp") == 10_000_00 + 30  # the meter rises by what the system accepted

    before = snapshot()
    with pytest.raises(ActionNotPermitted):
        wager_count_explain(exception=exception, explanation="A chip was dropped", actor=floorperson, pin=PIN)
    with pytest.raises(ProgressiveRefused) as refused:
        wager_count_explain(exception=exception, explanation="  ", actor=supervisor, pin=PIN)
    assert refused.value.code == "reason_required" and snapshot() == before

    explained = wager_count_explain(
        exception=exception, explanation="Seat 3's wager was placed after no more bets", actor=supervisor, pin=PIN
    )
    assert explained.signatures().get().signer == supervisor
    with pytest.raises(ProgressiveRefused) as again:
        wager_count_explain(exception=exception, explanation="again", actor=supervisor, pin=PIN)
    assert (again.value.code, again.value.status) == ("already_explained", 409)


@pytest.mark.parametrize(
    ("wagers", "code"),
    [({1: "2.00"}, "wager_size"), ({7: "1.00"}, "invalid"), ({}, "invalid")],
)
def test_a_round_the_meter_cannot_accept_changes_nothing(stud, dealer, wagers, code) -> None:
    before = snapshot()
    with pytest.raises(ProgressiveRefused) as refused:
        play(stud, dealer, wagers, chips=0 if not wagers else None)
    assert refused.value.code == code and snapshot() == before


def test_a_poker_table_plays_into_no_meter(rated_table, dealer) -> None:
    with pytest.raises(ProgressiveRefused) as refused:
        play(rated_table, dealer, {1: "1.00"})
    assert refused.value.code == "not_progressive"


def test_a_royal_flush_takes_the_meter_through_the_cage_and_the_others_their_envy_bonuses(
    stud, dealer, floorperson, cashier, supervisor
) -> None:
    round_ = play(stud, dealer, {2: "5.00", 3: "1.00", 5: "1.00"}, community="Qs Js Ts")
    meter = meter_cents("msp")
    assert meter == 10_000_00 + 75 + 15 + 15

    royal = hand(round_, dealer, 5, "As Ks")
    assert (royal.words, royal.line, royal.payout) == ("Royal flush", "Royal flush", "100% of meter")
    assert (royal.meter_before_cents, royal.amount_cents, royal.place) == (meter, meter, PayoutPlace.CAGE)
    envy = {bonus.seat: (bonus.line, bonus.amount_cents) for bonus in royal.envy_bonuses.all()}
    assert envy == {2: ("Royal flush", 5_000_00), 3: ("Royal flush", 1_000_00)}  # by each receiver's wager
    assert meter_cents("msp") == 0 and pending_hand(meter=ProgressiveMeter.objects.get(code="msp")) == royal

    with pytest.raises(ProgressiveRefused) as early:
        meter_reset(meter=royal.round.meter, actor=supervisor, pin=PIN)
    assert early.value.code == "not_validated"

    with pytest.raises(DomainError):
        progressive_validate(hand=royal, actor=dealer, pin=PIN)  # a dealer does not validate
    validation = progressive_validate(hand=royal, actor=floorperson, pin=PIN)
    assert validation.signatures().get().signer == floorperson

    # Pending: the meter pays no share of itself until it is reset; wagers still rise on it (the
    # table deals again once the validation is signed, §655a.11(i)(4)(i)(D)).
    later = play(stud, dealer, {1: "1.00"}, community="9h 8h 7h")
    with pytest.raises(ProgressiveRefused) as pending:
        hand(later, dealer, 1, "Th 6h")
    assert (pending.value.code, pending.value.status) == ("meter_pending", 409)
    # The Envy Bonuses are paid at the table with the validation; the meter's payout waits for the cage.
    assert _account("progressive:main:msp:paid") == 6_000_00
    assert _account("progressive:main:msp:won") == meter

    payment = progressive_pay(
        hand=royal,
        patron_name="Rae Royal",
        id_type="Passport",
        id_number="X1234567",
        actor=cashier,
        pin=PIN,
        idempotency_key="pay-royal",
    )
    assert payment.signatures().get().signer == cashier
    assert _account("progressive:main:msp:paid") == 6_000_00 + meter and _account("progressive:main:msp:won") == 0
    with pytest.raises(ProgressiveRefused) as twice:
        progressive_pay(
            hand=royal,
            patron_name="Rae Royal",
            id_type="Passport",
            id_number="X1234567",
            actor=cashier,
            pin=PIN,
            idempotency_key="pay-royal-again",
        )
    assert (twice.value.code, twice.value.status) == ("already_paid", 409)

    reset = meter_reset(meter=royal.round.meter, actor=supervisor, pin=PIN)
    assert reset.amount_cents == 10_000_00 and reset.after_hand == royal
    assert meter_cents("msp") == 10_000_00 + 15  # the reset amount and the wager made while pending
    assert pending_hand(meter=royal.round.meter) is None and ledger_total() == 0


def test_two_straight_flushes_are_paid_in_the_dealers_order_each_at_the_meter_of_its_turn(
    stud, dealer, floorperson
) -> None:
    round_ = play(stud, dealer, {4: "1.00", 6: "1.00"}, community="9h 8h 7h")
    meter = meter_cents("msp")

    with pytest.raises(ProgressiveRefused) as order:
        first = hand(round_, dealer, 4, "6h 5h")
        hand(round_, dealer, 6, "Th Jh")
    assert order.value.code == "out_of_order"
    # Seat 6, farthest to the dealer's right, is paid first; seat 4 at the meter left after it.
    round_ = play(stud, dealer, {4: "1.00", 6: "1.00"}, community="9h 8h 7h")
    meter = meter_cents("msp")
    first = hand(round_, dealer, 6, "Th Jh")
    second = hand(round_, dealer, 4, "6h 5h")
    assert (first.amount_cents, first.place) == (meter // 10, PayoutPlace.TABLE)
    assert second.meter_before_cents == meter - meter // 10
    assert second.amount_cents == (meter - meter // 10) // 10
    # Each straight flush gives the other its $300 Envy Bonus ($1 wager, §655a.12(c)(5)).
    assert [(b.seat, b.amount_cents) for b in first.envy_bonuses.all()] == [(4, 300_00)]
    assert [(b.seat, b.amount_cents) for b in second.envy_bonuses.all()] == [(6, 300_00)]
    progressive_validate(hand=first, actor=floorperson, pin=PIN)
    assert _account("progressive:main:msp:paid") == first.amount_cents + 300_00
    assert ledger_total() == 0


def test_a_folded_player_wins_no_payout_but_gives_and_keeps_envy_bonuses(stud, dealer) -> None:
    round_ = play(stud, dealer, {2: "1.00", 5: "5.00"}, community="9h 8h 7h")
    folded = hand(round_, dealer, 5, "Th Jh", folded=True, light_confirmed=False)
    assert (folded.amount_cents, folded.line, folded.envy_qualifying) == (0, "", True)
    assert [(b.seat, b.amount_cents) for b in folded.envy_bonuses.all()] == [(2, 300_00)]
    # Seat 2 holds three nines: 9 for 1 of the $1 wager, at the table, and receives its Envy Bonus.
    trips = hand(round_, dealer, 2, "9c 9d")
    assert (trips.line, trips.amount_cents, trips.place, trips.envy_qualifying) == (
        "Three-of-a-kind",
        9_00,
        PayoutPlace.TABLE,
        False,
    )
    with pytest.raises(ProgressiveRefused) as nothing:
        hand(play(stud, dealer, {1: "1.00"}, community="2c 7d Kh"), dealer, 1, "3s 9h")
    assert nothing.value.code == "no_payout"


def test_a_payout_needs_the_light_and_cards_of_one_deck(stud, dealer) -> None:
    round_ = play(stud, dealer, {3: "1.00", 2: "1.00"}, community="Kc Kd 4s")
    before = snapshot()
    with pytest.raises(ProgressiveRefused) as light:
        hand(round_, dealer, 3, "Kh 2s", light_confirmed=False)
    assert light.value.code == "light_not_confirmed" and snapshot() == before
    trips = hand(round_, dealer, 3, "Kh 2s")
    assert (trips.line, trips.payout, trips.amount_cents) == ("Three-of-a-kind", "9 for 1", 9_00)
    with pytest.raises(ProgressiveRefused) as clash:
        hand(round_, dealer, 2, "Kh 4c")
    assert clash.value.code == "cards_invalid"


def test_crazy4_four_aces_pay_the_meter_at_the_cage_and_four_of_a_kind_300_for_1_at_the_table(
    crazy4, dealer, floorperson
) -> None:
    round_ = play(crazy4, dealer, {6: "1.00", 3: "5.00", 1: "1.00"})
    meter = meter_cents("c4p")
    assert meter == 5_000_00 + 20 + 100 + 20

    aces = hand(round_, dealer, 6, "As Ah Ad Ac 2d")
    assert (aces.line, aces.amount_cents, aces.place) == ("Four aces", meter, PayoutPlace.CAGE)
    # Paytable A's Envy Bonuses for four aces: $100 for a $1 wager, $500 for a $5 one (§657a.12(d)(5)(i)).
    assert {b.seat: b.amount_cents for b in aces.envy_bonuses.all()} == {3: 500_00, 1: 100_00}
    quads = hand(round_, dealer, 3, "9s 9h 9d 9c 2c")
    assert (quads.line, quads.amount_cents, quads.place) == ("Four-of-a-kind", 300 * 5_00, PayoutPlace.TABLE)
    assert {b.seat: b.amount_cents for b in quads.envy_bonuses.all()} == {6: 10_00, 1: 10_00}
    progressive_validate(hand=quads, actor=floorperson, pin=PIN)
    assert _account("progressive:main:c4p:paid") == 1_500_00 + 20_00
    assert ledger_total() == 0


def test_a_closed_table_records_no_round(stud, dealer, floorperson) -> None:
    from tables.services import table_set_open

    closed = table_set_open(table=stud, is_open=False, actor=floorperson)
    before = snapshot()
    with pytest.raises(ProgressiveRefused) as refused:
        play(closed, dealer, {1: "1.00"})
    assert refused.value.code == "table_closed" and snapshot() == before
