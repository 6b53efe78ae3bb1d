"""A round already recorded, voided by a floorperson or above (§637a.18(i)): its irregularity on the
record, its rake and drops returned by reversing transfers, the round as it was logged."""

from __future__ import annotations

import re
import uuid
from datetime import time, timedelta

import pytest
from django.utils import timezone

from casino_backoffice.ledger.models import Account, Transfer, TransferKind
from casino_backoffice.ledger.selectors import account_balance
from casino_backoffice.staff.exceptions import ActionNotPermitted
from casino_backoffice.staff.models import Signature
from casino_backoffice.staff.roles import Role
from jackpots.bad_beat.models import BadBeatClaim
from rake.exceptions import RoundAlreadyVoid, RoundBoxCounted, RoundHasJackpotHand
from rake.models import RoundVoid
from rake.selectors import poker_revenue
from rake.services import round_record, round_void
from tables.irregularities.models import Irregularity
from tables.models import Round
from tables.services import room_upsert
from tests.conftest import PIN
from tests.rake.factories import round_logged


def key() -> str:
    return str(uuid.uuid4())


logged = round_logged


def boxes() -> dict[str, int]:
    """Every box holding money, by its code: its balance."""
    balances = {
        account.code: account_balance(account=account)
        for account in Account.objects.filter(kind__in=["drop_box", "jackpot_box"]).order_by("code")
    }
    return {code: cents for code, cents in balances.items() if cents}


def state() -> tuple[int, int, int, int]:
    return RoundVoid.objects.count(), Irregularity.objects.count(), Transfer.objects.count(), Signature.objects.count()


def test_a_void_returns_the_rake_and_every_drop_and_the_revenue_report_shows_it(rated_table, dealer, floorperson, room):
    # Given a round at T1 that took $5.00 rake, $1.00 for bb and $2.00 for hh, beside one that stands
    before = boxes()
    standing = logged(rated_table, dealer, pot_cents=2500, uncalled_cents=0)  # $2.00 rake, bb $1.00
    after_standing = boxes()
    round_ = logged(rated_table, dealer)
    assert {d.jackpot_code: d.amount_cents for d in round_.drops.all()} == {"bb": 100, "hh": 200}

    # When a floorperson voids it
    void = round_void(
        round=round_,
        reason="52 cards and a joker found in the deck.",
        actor=floorperson,
        pin=PIN,
        idempotency_key=key(),
    )

    # Then every box holds what it held without the round, and the round stays as it was logged
    assert boxes() == after_standing and boxes() != before
    assert Round.objects.get(pk=round_.pk).rake_cents == 500
    reversals = Transfer.objects.filter(kind=TransferKind.REVERSAL).select_related("reverses").order_by("pk")
    assert [(r.reverses.kind, r.amount_cents, r.reference_id) for r in reversals] == [
        ("rake", 500, str(void.pk)),
        ("drop", 100, str(void.pk)),
        ("drop", 200, str(void.pk)),
    ]
    taken = Transfer.objects.filter(reference_id=str(round_.pk), kind__in=["rake", "drop"])
    assert sum(t.amount_cents for t in taken) - sum(r.amount_cents for r in reversals) == 0
    # Its irregularity on the record, signed by the floorperson, as is the void
    irregularity = void.irregularity
    assert (irregularity.kind, irregularity.section, irregularity.round_id, irregularity.reported_by_id) == (
        "missing_or_extra_cards",
        "§637a.18(i)",
        round_.pk,
        floorperson.pk,
    )
    assert [(s.purpose, s.signer_id) for s in void.signatures()] == [("voider", floorperson.pk)]
    assert [(s.purpose, s.signer_id) for s in irregularity.signatures()] == [("reporter", floorperson.pk)]
    # And the revenue report shows it: the rake and its return, the void, the drops that stand
    (row,) = poker_revenue(room=room, group_by=["table"])
    assert (row.rounds, row.voided_rounds, row.rake_cents, row.reversed_cents, row.expected_cents) == (
        2,
        1,
        700,
        500,
        200,
    )
    assert row.drops_cents == {"bb": 100}
    assert standing.pk != round_.pk


def test_a_void_twice_is_refused_and_a_retry_answers_the_first(rated_table, dealer, floorperson, supervisor):
    round_ = logged(rated_table, dealer)
    first_key = key()
    first = round_void(round=round_, reason="An extra 7h found.", actor=floorperson, pin=PIN, idempotency_key=first_key)
    before = (state(), boxes())
    again = round_void(round=round_, reason="An extra 7h found.", actor=floorperson, pin=PIN, idempotency_key=first_key)
    assert again.pk == first.pk
    with pytest.raises(
        RoundAlreadyVoid, match=re.escape(f"Round {round_.pk} was voided by {floorperson} at ")
    ) as refused:
        round_void(round=round_, reason="An extra 7h found.", actor=supervisor, pin=PIN, idempotency_key=key())
    assert refused.value.status == 409
    assert (state(), boxes()) == before


def test_a_round_logged_void_at_the_table_is_not_voided_again(rated_table, dealer, floorperson):
    round_ = logged(rated_table, dealer, voided=True)
    before = (state(), boxes())
    with pytest.raises(RoundAlreadyVoid, match="logged void at the table: it took no rake and no drop"):
        round_void(round=round_, reason="Missing cards.", actor=floorperson, pin=PIN, idempotency_key=key())
    assert (state(), boxes()) == before


def test_a_dealer_or_a_person_of_another_room_voids_nothing(rated_table, dealer, floorperson, make_staff, manager):
    round_ = logged(rated_table, dealer)
    east = room_upsert(
        code="east", name="East Room", timezone_name="America/New_York", gaming_day_starts=time(6), actor=manager
    )
    east_floorperson = make_staff(Role.FLOORPERSON, rooms=[east])
    before = (state(), boxes())
    with pytest.raises(
        ActionNotPermitted, match="Only a floorperson or above may void a round of play already recorded"
    ):
        round_void(round=round_, reason="Missing cards.", actor=dealer, pin=PIN, idempotency_key=key())
    with pytest.raises(ActionNotPermitted, match="does not work in the room"):
        round_void(round=round_, reason="Missing cards.", actor=east_floorperson, pin=PIN, idempotency_key=key())
    assert (state(), boxes()) == before


def test_a_round_whose_box_was_counted_is_refused_the_money_left_the_box(witnessed_counts, floorperson):
    round_ = Round.objects.filter(table__number="T1").order_by("pk").first()
    before = (state(), boxes())
    with pytest.raises(
        RoundBoxCounted, match=r"was counted after round \d+ paid into it: the money left the box"
    ) as refused:
        round_void(round=round_, reason="Missing cards.", actor=floorperson, pin=PIN, idempotency_key=key())
    assert refused.value.code == "round_box_counted"
    assert (state(), boxes()) == before


def test_a_round_with_a_bad_beat_claim_standing_is_refused(rated_table, dealer, floorperson, make_claim):
    round_ = logged(rated_table, dealer)
    claim = make_claim(round=round_, pot_cents=round_.pot_cents)
    assert BadBeatClaim.objects.filter(round=round_).count() == 1
    before = (state(), boxes())
    with pytest.raises(RoundHasJackpotHand, match=rf"Bad Beat claim {claim.pk}\): a voided round has no winning hand"):
        round_void(round=round_, reason="Missing cards.", actor=floorperson, pin=PIN, idempotency_key=key())
    assert (state(), boxes()) == before


def test_a_round_of_a_closed_gaming_day_is_not_voided(rated_table, dealer, floorperson, supervisor, finance):
    from cage.services import gaming_day_close
    from tables.exceptions import GamingDayClosed
    from tables.selectors import gaming_day, gaming_day_bounds

    room = rated_table.room
    start, _ = gaming_day_bounds(room=room, day=gaming_day(room=room, at=timezone.now()) - timedelta(days=1))
    round_ = round_record(
        table=rated_table,
        ended_at=start + timedelta(hours=6),
        players_dealt_in=6,
        pot_cents=12000,
        uncalled_bet_cents=0,
        flop_dealt=True,
        voided=False,
        actor=dealer,
        idempotency_key=key(),
        late_entry_by=supervisor,
        pin=PIN,
    ).round
    gaming_day_close(room=room, day=round_.gaming_day, actor=finance, pin=PIN)
    before = (state(), boxes())
    with pytest.raises(GamingDayClosed, match=f"Void of round {round_.pk} at table T1: gaming day"):
        round_void(round=round_, reason="Missing cards.", actor=floorperson, pin=PIN, idempotency_key=key())
    assert (state(), boxes()) == before


def test_the_days_voids_and_irregularities_read_in_a_few_queries(
    rated_table, dealer, floorperson, make_staff, django_assert_max_num_queries
):
    from tests.cage.helpers import client_for

    for _ in range(3):
        round_void(
            round=logged(rated_table, dealer),
            reason="Missing cards.",
            actor=floorperson,
            pin=PIN,
            idempotency_key=key(),
        )
    reader = client_for(make_staff(Role.COMPLIANCE))
    with django_assert_max_num_queries(8):
        log = reader.get("/api/irregularities/", {"kind": "missing_or_extra_cards"})
    assert len(log.json()["results"]) == 3
