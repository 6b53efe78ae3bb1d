"""A High Hand dollar followed from its rounds to the award's payment and the patron (issue 29): two
$120 pots of the 10:00 period dropped $2.00 each into T1's High Hand box, the box exchanged at the
period's end was counted and verified at the cage ($4.00), the period's pool ($4.00) awarded to the
kings full of seat 3 and paid at the cage against their licence."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

import pytest
from django.core.management import call_command

from audit.trace.build import trace_of
from cage.models import Count
from jackpots.funds.reports import id_number_masked
from jackpots.high_hand.models import HighHandAward, HighHandAwardPayment
from jackpots.high_hand.services.awards import award_pay
from tables.models import Round
from tests.conftest import PIN

NEW_YORK = ZoneInfo("America/New_York")


def _at(text: str) -> datetime:
    return datetime.fromisoformat(f"2026-11-30T{text}").replace(tzinfo=NEW_YORK)


@pytest.fixture
def paid_award(night, cashier) -> HighHandAwardPayment:
    rounds, hand, count = night
    call_command("run_schedule", at=_at("10:30").isoformat())
    rounds(_at("10:40"), 2)
    hand("Ks Kd Kh Kc 2d", _at("10:45"), seat=3)
    call_command("run_schedule", at=_at("11:01").isoformat())
    count()
    call_command("run_schedule", at=_at("11:10").isoformat())
    award = HighHandAward.objects.get(period__starts_at=_at("10:00"))
    return award_pay(award=award, id_type="License", id_number="PA-0003", actor=cashier, pin=PIN, idempotency_key="a1")


def test_a_high_hand_payment_traced_back_to_the_counted_box_and_on_to_its_patron(paid_award, compliance) -> None:
    trace = trace_of(start="award_payment", pk=paid_award.pk, actor=compliance)

    amounts = {step: [link.amount_cents for link in links] for step, links in trace.steps()}
    assert amounts["period"] == [400]  # the pool: the two rounds' $2.00 drops
    # Every High Hand box of the room exchanged at the period's end, counted at the cage: T1's held $4.00
    counted = {link.label.split(" of box ")[1].split(",")[0]: link.amount_cents for link in trace.of("count")}
    assert counted == {"T1-hh": 400, "T2-hh": 0}
    assert sorted(link.label.split(":")[0] for link in trace.of("box")) == ["Box T1-hh", "Box T2-hh"]
    (transport,) = trace.of("transport")
    assert [(t.kind, t.debit, t.amount_cents) for t in transport.transfers] == [("custody", "room:main:custody", 400)]
    assert {s.role for s in transport.signatures} == {"Security officer", "Floorperson"}
    (verification,) = trace.of("verification")
    assert verification.amount_cents == 400
    # The cage made the box's $4.00 official in the High Hand fund
    assert [(t.kind, t.debit, t.credit, t.amount_cents) for t in verification.transfers] == [
        ("verification", "jackpot:main:hh:fund", "room:main:custody", 400)
    ]
    assert {s.role for s in verification.signatures} == {"Cage cashier"}
    assert amounts["award"] == [400] and amounts["payment"] == [400]
    (award,) = trace.of("award")
    assert [(t.kind, t.debit, t.credit, t.amount_cents) for t in award.transfers] == [
        ("award", "jackpot:main:hh:awards", "jackpot:main:hh:fund", 400)
    ]
    paid = trace.of("payment")[0]
    assert dict(paid.details) == {"patron": "Player 3", "ID": f"License {id_number_masked('PA-0003')}"}
    assert [(t.kind, t.debit, t.amount_cents) for t in paid.transfers] == [("payout", "jackpot:main:hh:paid", 400)]
    assert [s.role for s in paid.signatures] == ["Cage cashier"]
    assert all(s.credential_number.startswith("PA-CAG-") for s in paid.signatures)
    checks = [(c.step, c.expected_cents, c.actual_cents, c.reconciles) for c in trace.checks]
    assert ("period", 400, 400, True) in checks  # the pool: contributions + rolled in
    assert ("drop", 400, 400, True) in checks  # the two rounds' drops against the count's expected
    assert ("count", 400, 400, True) in checks  # counted against expected
    assert ("verification", 400, 400, True) in checks  # counted at the cage against what was carried
    assert len(checks) == len(set(checks))
    assert trace.reconciles


def test_a_round_of_the_period_forks_into_its_rake_and_its_drops_down_to_the_high_hand_count(
    paid_award, compliance
) -> None:
    round_ = Round.objects.filter(table__number="T1").order_by("pk").first()

    trace = trace_of(start="round", pk=round_.pk, actor=compliance)

    assert [link.amount_cents for link in trace.of("round")] == [12000]
    played = trace.of("round")[0]
    assert sorted((t.kind, t.amount_cents) for t in played.transfers) == [("drop", 100), ("drop", 200), ("rake", 500)]
    assert dict(played.details)["rake"].startswith("$5.00")
    # The High Hand box's count of the round's period; the rake and Bad Beat boxes were not counted yet
    assert [link.amount_cents for link in trace.of("count")] == [400]
    assert sorted(link.label.split(":")[0] for link in trace.of("box")) == ["Box T1-bb", "Box T1-drop", "Box T1-hh"]
    (counted,) = trace.of("count")
    assert " of box T1-hh" in counted.label
    assert Count.objects.get(pk=counted.id).period.starts_at == _at("10:00")  # the round's own period
    assert [link.amount_cents for link in trace.of("verification")] == [400]
    assert [c.reconciles for c in trace.checks] == [True] * len(trace.checks) and len(trace.checks) >= 3


def test_the_admin_pages_of_the_period_and_its_award_link_to_their_trace(paid_award, compliance) -> None:
    from django.test import Client
    from django.urls import reverse

    award = paid_award.award
    officer = Client()
    officer.force_login(compliance)

    for start, name, document in (
        ("period", "admin:jackpots_highhandperiod_change", award.period),
        ("award", "admin:jackpots_highhandaward_change", award),
        ("award_payment", "admin:jackpots_highhandawardpayment_change", paid_award),
    ):
        response = officer.get(reverse(name, args=[document.pk]))
        assert response.status_code == 200, (name, response.status_code)
        assert f'href="/audit/trace/?{start}={document.pk}" class="trace-link"' in response.content.decode(), start


def test_the_search_by_gaming_day_finds_the_award_and_its_payment_of_a_period_begun_in_it(
    paid_award, compliance, administrator
) -> None:
    from datetime import time, timedelta

    from audit.search.selectors import chain_search
    from tables.selectors import gaming_day
    from tables.services import room_upsert

    award = paid_award.award
    room = award.period.room
    day = gaming_day(room=room, at=award.period.starts_at)
    other = room_upsert(
        code="b", name="Room B", timezone_name="Europe/London", gaming_day_starts=time(4), actor=administrator
    )

    rows = chain_search(actor=compliance, gaming_day=day, table="T1")

    found = {(row.kind, row.id): row for row in rows}
    assert {("award", award.pk), ("award_payment", paid_award.pk)} <= set(found)
    assert (found["award", award.pk].gaming_day, found["award", award.pk].amount_cents) == (day, award.amount_cents)
    assert found["award_payment", paid_award.pk].gaming_day == day
    # Not the day before or after, nor that day asked of another room
    for asked in ({"gaming_day": day - timedelta(days=1)}, {"gaming_day": day + timedelta(days=1)}):
        assert not {kind for kind, _ in {(r.kind, r.id) for r in chain_search(actor=compliance, **asked)}} & {
            "award",
            "award_payment",
        }
    assert chain_search(actor=compliance, room=other, gaming_day=day) == []
