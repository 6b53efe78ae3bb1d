"""A count corrected before it is official (issue 24, item 2): a supervisor's recount supersedes a
wrong table count before the cage verifies it; the superseded count stays on the record, struck
through on the sheet and its PDF; and a variance finance explains after the verification is corrected
by a signed ledger transfer, never by rewriting. Each day walked ends with the official record, the
funds and the revenue report equal to what was really in the boxes."""

from __future__ import annotations

import pytest
from django.db import IntegrityError, transaction
from django.template.loader import render_to_string
from django.utils import timezone

from cage.accounts import cage_over_short_account, custody_account, revenue_account, variance_account
from cage.exceptions import CageError, CorrectionInvalid, CountNotRecountable, WrongStatus
from cage.models import Box, Count, CountStatus, Transport, Variance, VarianceCorrection, VarianceKind
from cage.reports import count_sheets_document, revenue_counted
from cage.selectors import official_record, official_record_rows_iter, variances
from cage.services import (
    boxes_sync,
    cage_verify,
    count_record,
    count_recount,
    count_witness,
    notice_record,
    transport_create,
    variance_explain,
)
from cage.services.high_hand import period_counts
from casino_backoffice.ledger.selectors import account_balance, ledger_total
from casino_backoffice.staff.exceptions import ActionNotPermitted, SignerNotIndependent
from casino_backoffice.staff.roles import Role
from jackpots.bad_beat.selectors import fund_position
from tests.conftest import PIN
from tests.core.sealing import triggers_suspended

from .helpers import snapshot

# T1 after three $120 rounds holds bb $3.00, hh $6.00 (the period's box content) and drop $15.00.
REALLY = {"T1-bb": 300, "T1-hh": 600, "T1-drop": 1500}


def _boxes(table) -> dict[str, Box]:
    boxes_sync(room=table.room)
    return {
        box.code: box
        for box in Box.objects.filter(room=table.room).select_related("account", "table", "room", "jackpot")
    }


def _count_all(table, typed: dict[str, int], *, dealer, floorperson, key) -> dict[str, Count]:
    """The notice to compliance, then the dealer's count of each box as typed, each witnessed."""
    notice_record(
        room=table.room, notified="J. Smith", method="phone", actor=floorperson, pin=PIN, idempotency_key=key()
    )
    boxes = _boxes(table)
    counts = {}
    for code, cents in typed.items():
        count = count_record(box=boxes[code], counted_cents=cents, actor=dealer, pin=PIN, idempotency_key=key())
        counts[code] = count_witness(count=count, actor=floorperson, pin=PIN, surveillance_reference="CAM-3")
    return counts


def _official_is_what_was_in_the_boxes(table) -> None:
    """The funds, the official record and the revenue report say what the boxes really held."""
    boxes = _boxes(table)
    assert fund_position(jackpot=boxes["T1-bb"].jackpot).official_cents == REALLY["T1-bb"]
    assert fund_position(jackpot=boxes["T1-hh"].jackpot).official_cents == REALLY["T1-hh"]
    assert account_balance(account=revenue_account(room=table.room)) == REALLY["T1-drop"]
    record = {row.account.code.rsplit(":", 2)[-2]: row.official_cents for row in official_record(room=table.room)}
    assert record == {"bb": 300, "hh": 600, "main": 1500}
    lines = list(official_record_rows_iter(room=table.room))
    assert sum(line[3] for line in lines) == sum(REALLY.values())
    assert sum(revenue_counted(room=table.room).values()) == REALLY["T1-drop"]
    assert account_balance(account=custody_account(room=table.room)) == 0
    assert ledger_total() == 0


def test_a_day_whose_wrong_table_counts_are_recounted_before_the_cage_ends_as_the_boxes_really_were(
    closed_table, dealer, floorperson, supervisor, security, cashier, finance, make_staff, key
) -> None:
    # The dealer typed $30.00 for the Bad Beat box's $3.00 and $60.00 for the High Hand box's $6.00.
    counts = _count_all(closed_table, {"T1-bb": 3000, "T1-hh": 6000, "T1-drop": 1500}, dealer=dealer,
                        floorperson=floorperson, key=key)  # fmt: skip
    assert account_balance(account=custody_account(room=closed_table.room)) == 3000 + 6000 + 1500
    hh_period = counts["T1-hh"].period
    assert hh_period is not None

    # Refused, each changing nothing: the dealer (not a supervisor), no reason, the same amount again.
    before = snapshot()
    with pytest.raises(ActionNotPermitted, match="poker shift supervisor"):
        count_recount(count=counts["T1-bb"], counted_cents=300, reason="typo", actor=dealer, pin=PIN,
                      idempotency_key=key())  # fmt: skip
    with pytest.raises(CageError, match="Say why"):
        count_recount(count=counts["T1-bb"], counted_cents=300, reason="  ", actor=supervisor, pin=PIN,
                      idempotency_key=key())  # fmt: skip
    with pytest.raises(CageError, match="nothing to correct"):
        count_recount(count=counts["T1-bb"], counted_cents=3000, reason="typo", actor=supervisor, pin=PIN,
                      idempotency_key=key())  # fmt: skip
    assert snapshot() == before

    # The supervisor recounts both, with the reason; the recounts take the boxes' sheets and period.
    bb = count_recount(count=counts["T1-bb"], counted_cents=300, reason="Typed $30.00 for $3.00", actor=supervisor,
                       pin=PIN, idempotency_key=key())  # fmt: skip
    hh = count_recount(count=counts["T1-hh"], counted_cents=600, reason="Typed $60.00 for $6.00", actor=supervisor,
                       pin=PIN, idempotency_key=key())  # fmt: skip
    for old, recount in ((counts["T1-bb"], bb), (counts["T1-hh"], hh)):
        old.refresh_from_db()
        assert old.status == CountStatus.SUPERSEDED and old.counted_cents in (3000, 6000)  # kept as signed
        assert (recount.supersedes_id, recount.sheet_id, recount.period_id) == (old.pk, old.sheet_id, old.period_id)
        assert (recount.status, recount.variance_cents, recount.counted_by) == (CountStatus.COUNTED, 0, supervisor)
        assert {s.purpose for s in recount.signatures()} == {"counter"}
    assert account_balance(account=custody_account(room=closed_table.room)) == 300 + 600 + 1500
    assert account_balance(account=variance_account(room=closed_table.room)) == 0
    assert list(period_counts(period=hh_period)) == [hh]
    # The superseded counts' variances stay on the record and no longer wait for an explanation.
    assert Variance.objects.filter(count__in=[counts["T1-bb"], counts["T1-hh"]]).count() == 2
    assert not variances(room=closed_table.room, unresolved_only=True).exists()

    # A superseded count is not recounted again; the recount is, by another supervisor only: the
    # counter of a count never signs its recount.
    with pytest.raises(CountNotRecountable, match=f"recount {bb.pk}"):
        count_recount(count=counts["T1-bb"], counted_cents=310, reason="again", actor=supervisor, pin=PIN,
                      idempotency_key=key())  # fmt: skip
    with pytest.raises(SignerNotIndependent):
        count_recount(count=bb, counted_cents=310, reason="again", actor=supervisor, pin=PIN, idempotency_key=key())

    # The database keeps one current count per sheet, whatever path writes.
    # (The seal refuses a superseded count moving back first: suspended, the constraint still holds.)
    with pytest.raises(IntegrityError, match="cage_count_one_current_count_per_sheet"), transaction.atomic():
        with triggers_suspended():
            Count.objects.filter(pk=counts["T1-bb"].pk).update(status=CountStatus.WITNESSED)

    # Each recount is witnessed as any table count, then carried; the container declares the recounts.
    with pytest.raises(SignerNotIndependent):
        count_witness(count=bb, actor=supervisor, pin=PIN, surveillance_reference="CAM-3")
    for recount in (bb, hh):
        count_witness(count=recount, actor=floorperson, pin=PIN, surveillance_reference="CAM-3 recount")
    carried = [bb, hh, counts["T1-drop"]]
    transport = transport_create(room=closed_table.room, seal="S-1", counts=carried, actor=security, pin=PIN,
                                 idempotency_key=key())  # fmt: skip
    assert transport.declared_cents == 2400

    # A count already carried is not recounted.
    before = snapshot()
    with pytest.raises(CountNotRecountable, match="on its way to the cage"):
        count_recount(count=counts["T1-drop"], counted_cents=1400, reason="late doubt", actor=supervisor, pin=PIN,
                      idempotency_key=key())  # fmt: skip
    assert snapshot() == before

    verification = cage_verify(transport=transport, counted=2400, actor=cashier, pin=PIN, idempotency_key=key())
    assert (verification.official_cents, verification.variance_cents) == (2400, 0)
    with pytest.raises(CountNotRecountable, match="verified at the cage"):
        count_recount(count=bb, counted_cents=310, reason="late", actor=make_staff(Role.SHIFT_SUPERVISOR), pin=PIN,
                      idempotency_key=key())  # fmt: skip
    _official_is_what_was_in_the_boxes(closed_table)

    # The sheet shows both counts, the superseded one struck through, with every signature.
    sheets = [recount.sheet for recount in (bb, hh) if recount.sheet is not None]
    assert bb.sheet is not None  # the Bad Beat box's sheet of the day; the High Hand period is still open
    documents = {d.box_code: d for d in count_sheets_document(sheets=sheets, counts=[hh, counts["T1-hh"]])}
    assert documents["T1-bb"].count == bb and documents["T1-bb"].superseded == [counts["T1-bb"]]
    steps = [step for step, _ in documents["T1-bb"].signatures]
    assert f"Count {counts['T1-bb'].pk}, superseded" in steps and "Recount" in steps
    html = render_to_string(
        "cage/count_sheets.html",
        {"title": "t", "documents": list(documents.values()), "printed_at": timezone.now(), "printed_by": finance,
         "zone": timezone.get_current_timezone()},
    )  # fmt: skip
    assert '<p class="superseded">Count' in html and "$30.00" in html and "Typed $30.00 for $3.00" in html
    assert "Recounted</b> $3.00" in html


def test_a_variance_finance_explains_after_the_cage_is_corrected_by_signed_ledger_transfers(
    closed_table, dealer, floorperson, supervisor, security, cashier, finance, make_staff, key
) -> None:
    # The dealer typed $60.00 for $6.00 (High Hand) and $150.00 for $15.00 (drop); the witness signed;
    # the container went to the cage, where the cashier counts what was really in it: $24.00.
    counts = _count_all(closed_table, {"T1-bb": 300, "T1-hh": 6000, "T1-drop": 15000}, dealer=dealer,
                        floorperson=floorperson, key=key)  # fmt: skip
    transport = transport_create(room=closed_table.room, seal="S-1", counts=list(counts.values()), actor=security,
                                 pin=PIN, idempotency_key=key())  # fmt: skip
    verification = cage_verify(transport=transport, counted=2400, confirm_variance=True, actor=cashier, pin=PIN,
                               idempotency_key=key())  # fmt: skip
    # Each fund was credited the signed table count; the cage's over/short holds the shortage.
    assert (verification.official_cents, verification.variance_cents) == (21300, -18900)
    assert fund_position(jackpot=counts["T1-hh"].box.jackpot).official_cents == 6000
    cage_variance = Variance.objects.get(verification=verification, kind=VarianceKind.CAGE_VS_TABLE)

    # Refused, each changing nothing: a supervisor (finance corrects the record), more than the
    # variance, a box not in the container, the counter's count variance before... (none here).
    before = snapshot()
    with pytest.raises(ActionNotPermitted, match="finance"):
        variance_explain(variance=cage_variance, reason="typo", correction_cents=5400, actor=supervisor, pin=PIN)
    with pytest.raises(CorrectionInvalid, match="at most"):
        variance_explain(variance=cage_variance, reason="typo", correction_cents=18901, box=counts["T1-hh"].box,
                         actor=finance, pin=PIN)  # fmt: skip
    with pytest.raises(CorrectionInvalid, match="name the box"):
        variance_explain(variance=cage_variance, reason="typo", correction_cents=5400, actor=finance, pin=PIN)
    assert snapshot() == before and not VarianceCorrection.objects.exists()

    # Finance explains and corrects the High Hand box's part, then the drop box's.
    variance_explain(variance=cage_variance, reason="Dealer typed $60.00 for $6.00", correction_cents=5400,
                     box=counts["T1-hh"].box, actor=finance, pin=PIN)  # fmt: skip
    with pytest.raises(WrongStatus, match="corrected already"):
        variance_explain(variance=cage_variance, reason="again", correction_cents=100, box=counts["T1-hh"].box,
                         actor=finance, pin=PIN)  # fmt: skip
    with pytest.raises(CorrectionInvalid, match="at most"):
        variance_explain(variance=cage_variance, reason="Dealer typed $150.00 for $15.00", correction_cents=13501,
                         box=counts["T1-drop"].box, actor=finance, pin=PIN)  # fmt: skip
    variance_explain(variance=cage_variance, reason="Dealer typed $150.00 for $15.00", correction_cents=13500,
                     box=counts["T1-drop"].box, actor=finance, pin=PIN)  # fmt: skip

    # The verification is as it was signed; the corrections are documents of their own, signed.
    verification.refresh_from_db()
    assert (verification.official_cents, verification.variance_cents) == (21300, -18900)
    corrections = list(VarianceCorrection.objects.order_by("pk"))
    assert [(c.box.code, c.official_change_cents) for c in corrections] == [("T1-hh", -5400), ("T1-drop", -13500)]
    assert all({s.purpose for s in c.signatures()} == {"corrector"} for c in corrections)
    with pytest.raises(IntegrityError), transaction.atomic():
        VarianceCorrection.objects.filter(pk=corrections[0].pk).update(official_change_cents=-1)
    assert account_balance(account=cage_over_short_account(room=closed_table.room)) == 0
    _official_is_what_was_in_the_boxes(closed_table)
    # The table counts' own variances (counted against expected) are the same typing mistakes: explained.
    for variance in Variance.objects.filter(kind=VarianceKind.COUNT):
        variance_explain(variance=variance, reason="The typing mistake corrected at the cage", actor=finance, pin=PIN)
    assert not variances(room=closed_table.room, unresolved_only=True).exists()
    _official_is_what_was_in_the_boxes(closed_table)


def test_a_box_counted_at_the_cage_over_what_it_held_is_corrected_back(
    closed_table, floorperson, supervisor, security, cashier, finance, key
) -> None:
    from cage.services import transport_account

    boxes = _boxes(closed_table)
    transport = transport_create(room=closed_table.room, seal="S-2", boxes=[boxes["T1-drop"]], actor=security,
                                 pin=PIN, idempotency_key=key())  # fmt: skip
    transport_account(transport=transport, box_codes=["T1-drop"], actor=floorperson, pin=PIN)
    # The cashier typed $150.00 for the $15.00 the drop box held.
    verification = cage_verify(transport=transport, counted={"T1-drop": 15000}, confirm_variance=True, actor=cashier,
                               pin=PIN, idempotency_key=key())  # fmt: skip
    variance = Variance.objects.get(verification=verification)
    assert (variance.kind, variance.amount_cents) == (VarianceKind.CAGE_COUNT, 13500)
    assert account_balance(account=revenue_account(room=closed_table.room)) == 15000
    variance_explain(variance=variance, reason="Cashier typed $150.00 for $15.00", correction_cents=13500,
                     actor=finance, pin=PIN)  # fmt: skip
    assert account_balance(account=revenue_account(room=closed_table.room)) == 1500
    assert sum(revenue_counted(room=closed_table.room).values()) == 1500
    assert {row.account.code: row.official_cents for row in official_record(room=closed_table.room)} == {
        revenue_account(room=closed_table.room).code: 1500
    }
    assert account_balance(account=variance_account(room=closed_table.room)) == 0
    assert ledger_total() == 0
    assert Transport.objects.get(pk=transport.pk).verification == verification


def test_the_superseded_count_does_not_block_closing_its_day(closed_table, dealer, floorperson, supervisor, key):
    counts = _count_all(closed_table, {"T1-drop": 1400}, dealer=dealer, floorperson=floorperson, key=key)
    assert variances(room=closed_table.room, unresolved_only=True).count() == 1
    count_recount(count=counts["T1-drop"], counted_cents=1500, reason="A $1 chip under the rack", actor=supervisor,
                  pin=PIN, idempotency_key=key())  # fmt: skip
    assert not variances(room=closed_table.room, unresolved_only=True).exists()
    old = Variance.objects.get(count=counts["T1-drop"])
    with pytest.raises(WrongStatus, match="superseded"):
        variance_explain(variance=old, reason="n/a", actor=supervisor, pin=PIN)
