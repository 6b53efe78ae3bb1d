"""From logged rounds to the official record: counts at a closed table, custody, the cage."""

from __future__ import annotations

import pytest
from django.db import IntegrityError, transaction

from cage.accounts import cage_over_short_account, custody_account, revenue_account, variance_account
from cage.exceptions import BoxAlreadyCounted, NoticeRequired, WrongStatus
from cage.models import Box, Count, CountStatus, TransportStatus, Variance, VerificationStatus
from cage.services import (
    boxes_sync,
    cage_verify,
    count_record,
    count_witness,
    notice_record,
    transport_create,
    verification_explain,
)
from casino_backoffice.ledger.models import Transfer
from casino_backoffice.ledger.selectors import account_balance, ledger_total
from casino_backoffice.staff.exceptions import ActionNotPermitted, SignerNotIndependent
from jackpots.bad_beat.selectors import fund_position
from jackpots.board.selectors import displayed_jackpots
from jackpots.funds.models import Jackpot
from tests.conftest import PIN


def _box(table, code):
    boxes_sync(room=table.room)
    return Box.objects.select_related("account", "table", "room", "jackpot").get(room=table.room, code=code)


def test_a_witnessed_table_count_verified_at_the_cage_becomes_the_official_fund(
    closed_table, dealer, floorperson, security, cashier, key
) -> None:
    bb = _box(closed_table, "T1-bb")
    assert account_balance(account=bb.account) == 300
    notice_record(
        room=closed_table.room, notified="J. Smith", method="phone", actor=floorperson, pin=PIN, idempotency_key=key()
    )

    count = count_record(box=bb, counted_cents=300, actor=dealer, pin=PIN, idempotency_key=key())
    assert (count.expected_cents, count.variance_cents, count.status) == (300, 0, CountStatus.COUNTED)
    assert account_balance(account=bb.account) == 0
    assert account_balance(account=custody_account(room=closed_table.room)) == 300

    count_witness(count=count, actor=floorperson, pin=PIN, surveillance_reference="CAM-12 14:02")
    transport = transport_create(
        room=closed_table.room, seal="S-001", counts=[count], actor=security, pin=PIN, idempotency_key=key()
    )
    assert (transport.declared_cents, transport.status) == (300, TransportStatus.IN_TRANSIT)

    verification = cage_verify(transport=transport, counted=300, actor=cashier, pin=PIN, idempotency_key=key())
    assert (verification.official_cents, verification.variance_cents, verification.status) == (
        300,
        0,
        VerificationStatus.VERIFIED,
    )
    fund = fund_position(jackpot=bb.jackpot)
    assert (fund.official_cents, fund.displayed_cents, fund.display_matches) == (300, None, False)
    # The display shows the new amount once finance adjusts it (§637a.15(h)); the High Hand shows its fund.
    displayed = {j.name: j.amount_cents for j in displayed_jackpots(room=closed_table.room)}
    assert displayed["Bad Beat"] == 0
    assert account_balance(account=custody_account(room=closed_table.room)) == 0
    assert ledger_total() == 0


def test_a_bad_beat_box_is_not_counted_before_the_notice_to_compliance(closed_table, dealer, key) -> None:
    bb = _box(closed_table, "T1-bb")
    before = Transfer.objects.count()
    with pytest.raises(NoticeRequired, match="compliance"):
        count_record(box=bb, counted_cents=300, actor=dealer, pin=PIN, idempotency_key=key())
    assert Count.objects.count() == 0 and Transfer.objects.count() == before


def test_a_box_is_counted_once_for_its_sheet(closed_table, dealer, key) -> None:
    hh_free_box = _box(closed_table, "T1-drop")
    count_record(box=hh_free_box, counted_cents=1500, actor=dealer, pin=PIN, idempotency_key=key())
    with pytest.raises(BoxAlreadyCounted):
        count_record(box=hh_free_box, counted_cents=0, actor=dealer, pin=PIN, idempotency_key=key())
    assert Count.objects.count() == 1


def test_the_witness_is_not_the_counter_and_the_cashier_neither(
    closed_table, make_staff, dealer, security, key
) -> None:
    from casino_backoffice.staff.roles import Role

    drop = _box(closed_table, "T1-drop")
    count = count_record(box=drop, counted_cents=1500, actor=dealer, pin=PIN, idempotency_key=key())
    with pytest.raises(ActionNotPermitted):
        count_witness(count=count, actor=dealer, pin=PIN, surveillance_reference="CAM-1")
    both = make_staff(Role.FLOORPERSON, extra_roles=[Role.CAGE_CASHIER])
    count_witness(count=count, actor=both, pin=PIN, surveillance_reference="CAM-1")
    transport = transport_create(
        room=closed_table.room, seal="S-9", counts=[count], actor=security, pin=PIN, idempotency_key=key()
    )
    with pytest.raises(SignerNotIndependent):
        cage_verify(transport=transport, counted=1500, actor=both, pin=PIN, idempotency_key=key())
    transport.refresh_from_db()
    assert transport.status == TransportStatus.IN_TRANSIT


def test_the_database_refuses_a_count_witnessed_by_its_counter_whatever_path_writes_it(
    closed_table, dealer, key
) -> None:
    """Segregation of duties in the database too (§637a.15(d)(1)): a count whose witness is its counter
    is refused by a check constraint, on an UPDATE that no service would make."""
    count = count_record(
        box=_box(closed_table, "T1-drop"), counted_cents=1500, actor=dealer, pin=PIN, idempotency_key=key()
    )
    with pytest.raises(IntegrityError, match="cage_count_witness_is_not_the_counter"), transaction.atomic():
        Count.objects.filter(pk=count.pk).update(witnessed_by=dealer, status=CountStatus.WITNESSED)
    count.refresh_from_db()
    assert (count.witnessed_by_id, count.status) == (None, CountStatus.COUNTED)


def test_a_short_count_and_a_cage_difference_are_variances_and_the_ledger_balances(
    closed_table, dealer, floorperson, security, cashier, supervisor, key
) -> None:
    drop = _box(closed_table, "T1-drop")
    count = count_record(box=drop, counted_cents=1400, actor=dealer, pin=PIN, idempotency_key=key())
    assert count.variance_cents == -100
    assert Variance.objects.get(count=count).amount_cents == -100
    count_witness(count=count, actor=floorperson, pin=PIN, surveillance_reference="CAM-1")
    transport = transport_create(
        room=closed_table.room, seal="S-2", counts=[count], actor=security, pin=PIN, idempotency_key=key()
    )
    verification = cage_verify(
        transport=transport, counted=1390, confirm_variance=True, actor=cashier, pin=PIN, idempotency_key=key()
    )
    assert (verification.official_cents, verification.variance_cents) == (1400, -10)
    assert verification.status == VerificationStatus.VARIANCE_UNRESOLVED
    # The variance account holds what is missing: $1.00 short at the table, $0.10 short at the cage,
    # where the cage's over/short account carries the cage's part.
    assert account_balance(account=variance_account(room=closed_table.room)) == 110
    assert account_balance(account=cage_over_short_account(room=closed_table.room)) == -10
    assert account_balance(account=revenue_account(room=closed_table.room)) == 1400
    assert ledger_total() == 0
    verification_explain(
        verification=verification, reason="A $10 chip fell behind the rack; found.", actor=supervisor, pin=PIN
    )
    verification.refresh_from_db()
    assert verification.status == VerificationStatus.VERIFIED
    with pytest.raises(WrongStatus):
        cage_verify(transport=transport, counted=1390, actor=cashier, pin=PIN, idempotency_key=key())


def test_the_official_fund_shows_on_the_display(closed_table) -> None:
    assert Jackpot.objects.filter(room=closed_table.room).count() == 2


def test_the_official_record_and_the_custody_log_follow_each_step(
    closed_table, dealer, floorperson, security, cashier, key
) -> None:
    from cage.selectors import boxes_with_expected, custody_log, official_record

    drop = _box(closed_table, "T1-drop")
    assert {
        c.box.code: c.expected_cents for c in boxes_with_expected(boxes=Box.objects.filter(table=closed_table))
    } == {"T1-drop": 1500, "T1-bb": 300, "T1-hh": 600}
    count = count_record(box=drop, counted_cents=1500, actor=dealer, pin=PIN, idempotency_key=key())
    count_witness(count=count, actor=floorperson, pin=PIN, surveillance_reference="CAM-7")
    transport = transport_create(
        room=closed_table.room, seal="S-7", counts=[count], actor=security, pin=PIN, idempotency_key=key()
    )
    verification = cage_verify(transport=transport, counted=1500, actor=cashier, pin=PIN, idempotency_key=key())
    rows = official_record(room=closed_table.room)
    assert [(r.account.code, r.gaming_day, r.official_cents) for r in rows] == [
        ("room:main:revenue", verification.gaming_day, 1500)
    ]
    steps = [(e.box, e.step.split(" ")[0]) for e in custody_log(room=closed_table.room, day=count.gaming_day)]
    assert steps == [("T1-drop", "counted"), ("T1-drop", "witnessed"), ("T1-drop", "carried"), ("T1-drop", "verified")]


def test_a_variance_within_the_rooms_threshold_needs_no_explanation(room, log_rounds, dealer, floorperson, key) -> None:
    from rake.rules import RulesInvalid, validate_rules
    from tables.models import Table
    from tables.services import table_set_open
    from tests.rake import factories

    with pytest.raises(RulesInvalid, match="variance_threshold"):
        validate_rules({**factories.RULES, "controls": {"variance_threshold": 2.5}})
    factories.load(factories.rules_text(controls={"variance_threshold": "2.00"}))
    t1 = Table.objects.get(room=room, number="T1")
    t1 = table_set_open(table=t1, is_open=True, actor=floorperson)
    log_rounds(t1, 3)
    t1 = table_set_open(table=t1, is_open=False, actor=floorperson)
    # $15.00 of rake expected: $1.00 short is within the $2.00 threshold, on the report all the same.
    small = count_record(box=_box(t1, "T1-drop"), counted_cents=1400, actor=dealer, pin=PIN, idempotency_key=key())
    assert Variance.objects.get(count=small).needs_explanation is False
    # $6.00 of High Hand drops expected: $3.00 short needs an explanation.
    large = count_record(box=_box(t1, "T1-hh"), counted_cents=300, actor=dealer, pin=PIN, idempotency_key=key())
    assert Variance.objects.get(count=large).needs_explanation is True


def test_the_official_record_lines_stream_as_csv(
    closed_table, dealer, floorperson, security, cashier, finance, key
) -> None:
    from django.test import Client

    drop = _box(closed_table, "T1-drop")
    count = count_record(box=drop, counted_cents=1500, actor=dealer, pin=PIN, idempotency_key=key())
    count_witness(count=count, actor=floorperson, pin=PIN, surveillance_reference="CAM-8")
    transport = transport_create(
        room=closed_table.room, seal="S-8", counts=[count], actor=security, pin=PIN, idempotency_key=key()
    )
    verification = cage_verify(transport=transport, counted=1500, actor=cashier, pin=PIN, idempotency_key=key())
    browser = Client()
    browser.force_login(finance)

    response = browser.get("/api/official-record/lines.csv?room=main")

    assert response.status_code == 200 and response.streaming
    lines = b"".join(response.streaming_content).decode().splitlines()
    assert lines[0].startswith("gaming_day,account,fund,official,verification,seal,cashier")
    assert len(lines) == 2 and f",15.00,{verification.pk},S-8," in lines[1] and cashier.credential_number in lines[1]
    browser.force_login(dealer)
    assert browser.get("/api/official-record/lines.csv?room=main").json()["code"] == "not_permitted"
