"""A banked round already recorded, voided by a floorperson or above (§655a.13, §657a.13: all hands void,
all wagers returned): its irregularity on the record, its increment and house share returned by
reversing transfers, the meter as it would be without the round, the round as it was recorded."""

from __future__ import annotations

import re
import uuid
from datetime import time, timedelta

import pytest
from django.utils import timezone

from casino_backoffice.ledger.invariants import invariants_check
from casino_backoffice.ledger.models import Account, Transfer, TransferKind
from casino_backoffice.ledger.selectors import account_balance, ledger_total
from casino_backoffice.staff.exceptions import ActionNotPermitted, WrongPin
from casino_backoffice.staff.roles import Role
from jackpots.progressive.exceptions import ProgressiveRefused
from jackpots.progressive.models import ProgressiveRound, ProgressiveRoundVoid
from jackpots.progressive.selectors import meters_standing
from jackpots.progressive.services.hands import progressive_validate
from jackpots.progressive.services.rounds import SeatWager, progressive_round_record
from jackpots.progressive.services.voids import banked_round_void, banked_void_returned
from rake.selectors import poker_revenue
from tables.irregularities.models import Irregularity
from tables.services import room_upsert
from tests.cage.helpers import client_for, post
from tests.conftest import PIN
from tests.jackpots.progressive_helpers import hand, meter_cents, play, snapshot

pytestmark = pytest.mark.django_db


def key() -> str:
    return str(uuid.uuid4())


def state() -> tuple:
    """What a refused void must leave as it was: the progressive records, the ledger, the signatures,
    the voids and the irregularities, and the meters' amounts."""
    return (
        snapshot(),
        list(ProgressiveRoundVoid.objects.values_list("pk", flat=True)),
        Irregularity.objects.count(),
        meter_cents("msp"),
        meter_cents("c4p"),
    )


def _account(code: str) -> int:
    return account_balance(account=Account.objects.get(code=code))


def _displayed(room, code: str) -> int:
    """The meter's amount as the display board and the floor read it."""
    return next(m.amount_cents for m in meters_standing(room=room) if m.meter.code == code)


def void(
    round_: ProgressiveRound, by, reason: str = "Two cards found face up in the shoe.", **more
) -> ProgressiveRoundVoid:
    return banked_round_void(
        round=round_,
        reason=reason,
        actor=by,
        pin=more.pop("pin", PIN),
        idempotency_key=more.pop("idempotency_key", key()),
    )


def test_a_void_lowers_the_meter_by_exactly_its_increment_and_returns_every_wager(stud, dealer, floorperson) -> None:
    # Given a round that stands, then one of $7.00 in wagers: 15% ($1.05) to the meter, $5.95 the house's
    room = stud.room
    standing = play(stud, dealer, {1: "5.00"})
    meter_before, house_before = meter_cents("msp"), _account("progressive:main:msp:house")
    assert _displayed(room, "msp") == meter_before == 10_000_00 + 75
    round_ = play(stud, dealer, {1: "1.00", 2: "5.00", 3: "1.00"})
    assert (round_.increment_cents, round_.house_cents) == (105, 595)
    assert _displayed(room, "msp") == meter_before + 105

    # When a floorperson voids it (§655a.13(c): a player dealt an incorrect number of cards)
    voided = void(round_, floorperson, "Seat 2 was dealt three cards.")

    # Then the meter, as displayed and in the ledger, is what it was without the round, to the cent
    assert _displayed(room, "msp") == meter_cents("msp") == meter_before
    assert _account("progressive:main:msp:house") == house_before
    assert _account("progressive:main:msp:wagers") == -(standing.wagers_cents)
    reversals = Transfer.objects.filter(kind=TransferKind.REVERSAL).select_related("reverses").order_by("pk")
    assert [(r.reverses.idempotency_key, r.amount_cents, r.reference_id) for r in reversals] == [
        (f"progressive:round:{round_.pk}:meter", 105, str(voided.pk)),
        (f"progressive:round:{round_.pk}:house", 595, str(voided.pk)),
    ]
    assert invariants_check() == [] and ledger_total() == 0
    # The round stays as it was recorded; its irregularity is on the record, signed as the void is
    assert ProgressiveRound.objects.get(pk=round_.pk).increment_cents == 105
    irregularity = voided.irregularity
    assert (irregularity.kind, irregularity.section, irregularity.table_id, irregularity.round_id) == (
        "banked_card_error",
        "§655a.13(a)-(d)",
        stud.pk,
        None,
    )
    assert (irregularity.gaming_day, irregularity.occurred_at, irregularity.description) == (
        round_.gaming_day,
        round_.ended_at,
        "Seat 2 was dealt three cards.",
    )
    assert [(s.purpose, s.signer_id) for s in voided.signatures()] == [("voider", floorperson.pk)]
    assert [(s.purpose, s.signer_id) for s in irregularity.signatures()] == [("reporter", floorperson.pk)]
    returned = banked_void_returned(voided)
    assert (returned.rake_cents, returned.drops_cents, returned.house_cents) == (0, {"msp": 105}, 595)
    # And the revenue report's banked house share leaves the voided round out
    (row,) = [r for r in poker_revenue(room=room, group_by=["table"]) if r.keys["table"] == "T11"]
    assert row.banked_house_cents == standing.house_cents == 425


def test_a_void_twice_is_refused_and_a_retry_answers_the_first(crazy4, dealer, floorperson, supervisor) -> None:
    round_ = play(crazy4, dealer, {1: "5.00", 2: "1.00"})
    first_key = key()
    first = void(round_, floorperson, "The dealer's cards exposed early.", idempotency_key=first_key)
    assert first.irregularity.section == "§657a.13(a)-(d)"
    before = state()
    again = void(round_, floorperson, "The dealer's cards exposed early.", idempotency_key=first_key)
    assert again.pk == first.pk
    with pytest.raises(
        ProgressiveRefused, match=re.escape(f"Progressive round {round_.pk} was voided by {floorperson} at ")
    ) as refused:
        void(round_, supervisor, "The dealer's cards exposed early.")
    assert (refused.value.code, refused.value.status) == ("round_already_void", 409)
    assert state() == before


def test_a_round_with_a_hand_recorded_validated_or_paid_is_refused_and_nothing_changed(
    stud, dealer, floorperson
) -> None:
    round_ = play(stud, dealer, {4: "1.00", 6: "1.00"}, community="9h 8h 7h")
    flush = hand(round_, dealer, 6, "Th Jh")  # a straight flush: 10% of the meter, at the table
    before = state()
    with pytest.raises(ProgressiveRefused) as recorded:
        void(round_, floorperson)
    assert (recorded.value.code, recorded.value.status) == ("round_has_payout", 409)
    assert (
        f"(the Straight flush, jack high at seat 6, hand {flush.pk}: recorded, not validated yet)"
        in recorded.value.message
    )
    assert "(§655a.11(i)(4), §657a.11(e))" in recorded.value.message
    assert state() == before

    progressive_validate(hand=flush, actor=floorperson, pin=PIN)
    before = state()
    with pytest.raises(
        ProgressiveRefused, match=f"jack high at seat 6, hand {flush.pk}: validated and paid at the table"
    ):
        void(round_, floorperson)
    assert state() == before


def test_a_round_whose_meter_paid_a_share_of_itself_since_is_refused(stud, dealer, floorperson) -> None:
    earlier = play(stud, dealer, {1: "1.00"})
    later = play(stud, dealer, {4: "1.00", 6: "1.00"}, community="9h 8h 7h")
    hand(later, dealer, 6, "Th Jh")  # 10% of the meter, $0.15 of the earlier round in it
    before = state()
    with pytest.raises(
        ProgressiveRefused, match=f"paid a share of itself after progressive round {earlier.pk}"
    ) as paid:
        void(earlier, floorperson)
    assert (paid.value.code, paid.value.status) == ("meter_paid_since", 409)
    assert state() == before


def test_a_voided_round_records_no_hand(stud, dealer, floorperson) -> None:
    round_ = play(stud, dealer, {4: "1.00", 6: "1.00"}, community="9h 8h 7h")
    void(round_, floorperson)
    before = state()
    with pytest.raises(ProgressiveRefused) as refused:
        hand(round_, dealer, 6, "Th Jh")
    assert (refused.value.code, refused.value.status) == ("round_voided", 409)
    assert state() == before


def test_a_wrong_pin_a_lower_role_or_another_rooms_person_voids_nothing(
    stud, dealer, floorperson, cashier, make_staff, manager
) -> None:
    round_ = play(stud, dealer, {1: "1.00"})
    east = room_upsert(
        code="east", name="East Room", timezone_name="America/New_York", gaming_day_starts=time(6), actor=manager
    )
    east_floorperson = make_staff(Role.FLOORPERSON, rooms=[east])
    before = state()
    with pytest.raises(WrongPin):
        void(round_, floorperson, pin="99999")
    for person in (dealer, cashier):
        with pytest.raises(ActionNotPermitted, match="Only a floorperson or above may void a banked round of play"):
            void(round_, person)
    with pytest.raises(ActionNotPermitted, match="does not work in the room"):
        void(round_, east_floorperson)
    with pytest.raises(ProgressiveRefused) as blank:
        void(round_, floorperson, "  ")
    assert blank.value.code == "reason_required"
    assert state() == before


def test_a_round_of_a_closed_gaming_day_is_not_voided(stud, dealer, floorperson, finance) -> None:
    from cage.services import gaming_day_close
    from tables.exceptions import GamingDayClosed
    from tables.selectors import gaming_day, gaming_day_bounds

    room = stud.room
    start, _ = gaming_day_bounds(room=room, day=gaming_day(room=room, at=timezone.now()) - timedelta(days=1))
    round_ = progressive_round_record(
        table=stud,
        ended_at=start + timedelta(hours=6),
        wagers=[SeatWager(1, 100)],
        chips_collected=1,
        actor=dealer,
        idempotency_key=key(),
    )
    gaming_day_close(room=room, day=round_.gaming_day, actor=finance, pin=PIN)
    before = state()
    with pytest.raises(GamingDayClosed, match=f"Void of progressive round {round_.pk} at table T11: gaming day"):
        void(round_, floorperson)
    assert state() == before


def test_a_void_through_the_api_answers_what_it_returned(
    crazy4, dealer, floorperson, cashier, make_staff, manager
) -> None:
    round_ = play(crazy4, dealer, {1: "5.00", 3: "1.00"})  # 20% of $6.00: $1.20 to the meter, $4.80 the house's
    url = f"/api/progressive/rounds/{round_.pk}/void/"
    meter_before = meter_cents("c4p")
    body = {"reason": "The dealer's cards exposed before the Play Wagers."}
    before = state()
    refused = post(client_for(cashier), url, body)
    assert (refused.status_code, refused.json()["code"]) == (403, "not_permitted")
    east = room_upsert(
        code="east", name="East Room", timezone_name="America/New_York", gaming_day_starts=time(6), actor=manager
    )
    assert post(client_for(make_staff(Role.FLOORPERSON, rooms=[east])), url, body).status_code == 404
    wrong = client_for(floorperson).post(url, {**body, "pin": "99999"}, format="json", HTTP_IDEMPOTENCY_KEY=key())
    assert (wrong.status_code, wrong.json()["code"]) == (400, "wrong_pin")
    assert state() == before

    voided = post(client_for(floorperson), url, body, key="void-1")
    assert voided.status_code == 201, voided.json()
    answer = voided.json()
    assert (answer["round"], answer["reversed"]) == (
        round_.pk,
        {"rake": "0.00", "drops": {"c4p": "1.20"}, "house_share": "4.80"},
    )
    assert meter_cents("c4p") == meter_before - 120
    shown = client_for(floorperson).get(f"/api/progressive/rounds/{round_.pk}/").json()
    assert shown["voided"] is True and shown["increment"] == "1.20"
    log = client_for(floorperson).get("/api/irregularities/", {"kind": "banked_card_error"}).json()["results"]
    assert [(row["id"], row["section"]) for row in log] == [(answer["irregularity"], "§657a.13(a)-(d)")]
    after = state()
    replayed = post(client_for(floorperson), url, body, key="void-1")
    assert (replayed.status_code, replayed["Idempotent-Replayed"], replayed.json()) == (201, "true", answer)
    twice = post(client_for(make_staff(Role.SHIFT_SUPERVISOR)), url, body)
    assert (twice.status_code, twice.json()["code"]) == (409, "round_already_void")
    other_body = post(client_for(floorperson), url, {"reason": "Another reason."}, key="void-1")
    assert (other_body.status_code, other_body.json()["code"]) == (409, "idempotency_key_reused")
    assert state() == after and invariants_check() == []
