"""A refund from the pot (§637a.18(k)(3)): a player whose protected hand the dealer killed is refunded
what they put in the pot; the refund leaves the pot before the rake, so the rake and the drops are taken
on the pot without it. The round records it; its ``dealer_error_refund`` irregularity names the round."""

from __future__ import annotations

import re
import uuid
from datetime import timedelta

import pytest
from django.utils import timezone

from casino_backoffice.ledger.models import Transfer
from casino_backoffice.ledger.selectors import ledger_total
from casino_backoffice.staff.models import Signature
from rake.exceptions import InvalidRound
from rake.services import round_void
from tables.irregularities.exceptions import IrregularityError
from tables.irregularities.models import Irregularity
from tables.irregularities.services import irregularity_report
from tables.models import Round
from tests.cage.helpers import client_for, post
from tests.conftest import PIN
from tests.rake.factories import round_logged


def key() -> str:
    return str(uuid.uuid4())


logged = round_logged


def takes(round_: Round) -> tuple[int, dict[str, int]]:
    return round_.rake_cents, {d.jackpot_code: d.amount_cents for d in round_.drops.all()}


def state() -> tuple[int, int, int, int]:
    return Round.objects.count(), Transfer.objects.count(), Irregularity.objects.count(), Signature.objects.count()


def test_the_rake_and_the_drops_are_taken_on_the_pot_without_the_refund(rated_table, dealer):
    # Given T1's rules (nl10: 10% in $1 chips, at most $5; bb $1 from $20; hh 5% up to $2 from $30)
    # When a $120 pot with $20 uncalled refunds $75 to seat 4, whose protected hand the dealer mucked
    refunded = logged(rated_table, dealer, refund_cents=7500)

    # Then the rake and drops are those of the $25 left: $2.00 rake, bb $1.00, hh nothing under $30
    assert refunded.refund_cents == 7500
    assert takes(refunded) == (200, {"bb": 100, "hh": 0})
    # the same as a $45 pot with $20 uncalled and no refund, and not the $120 pot's $5.00, $1.00, $2.00
    assert takes(logged(rated_table, dealer, pot_cents=4500)) == takes(refunded)
    assert takes(logged(rated_table, dealer)) == (500, {"bb": 100, "hh": 200})
    assert ledger_total() == 0


@pytest.mark.parametrize(
    ("refund_cents", "voided", "message"),
    [
        (10001, False, "The refund $100.01 is larger than the pot without the uncalled bet $100.00."),
        (500, True, "A voided round returns the whole pot (§637a.18(i)): log it without a refund."),
        (-1, False, "A refund is zero or more."),
    ],
)
def test_a_refund_the_pot_cannot_pay_is_refused_and_nothing_is_recorded(
    rated_table, dealer, refund_cents, voided, message
):
    before = state()
    with pytest.raises(InvalidRound) as refused:
        logged(rated_table, dealer, refund_cents=refund_cents, voided=voided)
    assert refused.value.field_errors == {"refund": [message]}
    assert state() == before


def test_the_api_takes_the_refund_and_answers_it(rated_table, dealer):
    api = client_for(dealer)
    ended = (timezone.now() - timedelta(minutes=2)).isoformat()
    body = {"table": "T1", "ended_at": ended, "players_dealt_in": 6, "pot": "120.00", "uncalled_bet": "20.00"}

    answered = post(api, "/api/rounds/", {**body, "refund": "75.00"})

    assert answered.status_code == 201, answered.json()
    data = answered.json()
    assert (data["refund"], data["rake"], data["drops"], data["voided"], data["void"]) == (
        "75.00",
        "2.00",
        {"bb": "1.00", "hh": "0.00"},
        False,
        None,
    )
    # A round without a refund answers "0.00"; a refund larger than the pot is a 400 naming the field
    assert post(api, "/api/rounds/", body).json()["refund"] == "0.00"
    before = state()
    too_much = post(api, "/api/rounds/", {**body, "refund": "100.01"})
    assert too_much.status_code == 400
    assert too_much.json() == {
        "refund": ["The refund $100.01 is larger than the pot without the uncalled bet $100.00."]
    }
    # A typo in the amount is refused, not read as another amount
    comma = post(api, "/api/rounds/", {**body, "refund": "23,90"})
    assert comma.status_code == 400 and list(comma.json()) == ["refund"]
    assert state() == before


def test_the_refunds_irregularity_names_a_round_that_recorded_it(rated_table, dealer):
    # Given a round logged without a refund, and one with $40.00 refunded
    plain = logged(rated_table, dealer)
    refunded = logged(rated_table, dealer, refund_cents=4000)
    before = state()

    # A refund reported against the round without one is refused: the rake was taken on the whole pot
    with pytest.raises(IrregularityError, match=re.escape(f"Round {plain.pk} records no refund from its pot.")):
        irregularity_report(
            table=rated_table,
            kind="dealer_error_refund",
            round=plain,
            description="Seat 4's protected hand mucked by the dealer.",
            actor=dealer,
            pin=PIN,
            idempotency_key=key(),
        )
    assert state() == before

    # Against the round that recorded it, the report stands and answers the money the refund moved
    answered = post(
        client_for(dealer),
        "/api/irregularities/",
        {
            "table": "T1",
            "round": refunded.pk,
            "kind": "dealer_error_refund",
            "description": "Seat 4's protected hand mucked by the dealer; refunded the $40.00 put in.",
        },
    )
    assert answered.status_code == 201, answered.json()
    assert (answered.json()["section"], answered.json()["round"], answered.json()["refund"]) == (
        "§637a.18(k)(3)",
        refunded.pk,
        "40.00",
    )


def test_a_round_voided_after_it_was_logged_reads_voided_in_the_rounds_list(
    rated_table, dealer, floorperson, compliance
):
    # Given a round logged, then voided by a floorperson
    round_ = logged(rated_table, dealer, idempotency_key="table-7-round-1")
    void = round_void(round=round_, reason="An extra Qs found.", actor=floorperson, pin=PIN, idempotency_key=key())

    # Then GET /api/rounds/ says so, with the void, and a round that stands does not
    standing = logged(rated_table, dealer)
    listed = client_for(compliance).get("/api/rounds/", {"table": "T1"}).json()["results"]
    assert {r["id"]: (r["voided"], r["void"]) for r in listed} == {
        round_.pk: (True, void.pk),
        standing.pk: (False, None),
    }
