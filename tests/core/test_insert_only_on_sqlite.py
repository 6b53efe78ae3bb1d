"""On `make run`'s embedded default, SQLite, the insert-only tables refuse UPDATE and DELETE as on PostgreSQL.

The suite runs on PostgreSQL, so this test migrates a SQLite database of its own in a subprocess (no
DATABASE_URL, as `make run`), writes a row into every insert-only table through the services, and
then changes them with the sqlite3 module, a client that knows nothing of Django.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from django.db import connection

from tests.embedded_sqlite import embedded_demo, embedded_sqlite

ROWS = """
import uuid
from django.db import IntegrityError, transaction
from django.utils import timezone
from casino_backoffice.ledger.exceptions import IdempotencyConflict
from casino_backoffice.ledger.models import Account, Transfer, TransferKind
from casino_backoffice.ledger.selectors import ledger_total
from casino_backoffice.ledger.services import Posting, correction_prepare, transfers_post_within
from casino_backoffice.staff.models import Signature, User
from casino_backoffice.staff.roles import Role
from casino_backoffice.staff.services import staff_create
from rake.services import round_record
from jackpots.models import RoundDrop
from tables.models import Round, Table

Table.objects.filter(number="T1").update(is_open=True)
table = Table.objects.select_related("room").get(number="T1")
# The demo played a gaming day already (T1 counted, T2 and T3 still holding expected money).
rounds, transfers, signatures = Round.objects.count(), Transfer.objects.count(), Signature.objects.count()
dealer = User.objects.get(username="dealer")
round_record(table=table, ended_at=timezone.now(), players_dealt_in=9, pot_cents=12000,
             uncalled_bet_cents=2000, flop_dealt=True, voided=False, actor=dealer, idempotency_key="round-1")
assert Round.objects.count() == rounds + 1 and Transfer.objects.count() == transfers + 3, Transfer.objects.count()

# The ledger's batch on SQLite (bulk_create): a replay answers the first transfer, another movement is refused.
pots, box = Account.objects.get(code="room:main:pots"), Account.objects.get(code="table:main:T1:drop_box")
def batch(cents):
    return [Posting(debit_id=box.pk, credit_id=pots.pk, amount_cents=cents, kind=TransferKind.ADJUSTMENT, idempotency_key="batch-1")]
with transaction.atomic():
    first = transfers_post_within(postings=batch(100), actor=dealer)
with transaction.atomic():
    again = transfers_post_within(postings=batch(100), actor=dealer)
assert again[0].pk == first[0].pk and Transfer.objects.count() == transfers + 4
try:
    with transaction.atomic():
        transfers_post_within(postings=batch(101), actor=dealer)
except IdempotencyConflict:
    pass
else:
    raise AssertionError("another movement under a used key was posted")
assert ledger_total() == 0

# No box goes below zero on SQLite either: the trigger refuses taking out more than the box holds.
from casino_backoffice.ledger.exceptions import BelowZero
from casino_backoffice.ledger.selectors import account_balance
held = account_balance(account=box)
try:
    with transaction.atomic():
        transfers_post_within(postings=[Posting(debit_id=pots.pk, credit_id=box.pk, amount_cents=held + 1,
                                                kind=TransferKind.ADJUSTMENT, idempotency_key="below-1")], actor=dealer)
except BelowZero:
    pass
else:
    raise AssertionError("a box was taken below zero")
assert account_balance(account=box) == held and not Transfer.objects.filter(idempotency_key="below-1").exists()

finance = staff_create(username="finance-sqlite", role=Role.FINANCE, credential_number="PA-SQLITE-1",
                       password=uuid.uuid4().hex, pin="2468", all_rooms=True)
correction_prepare(transfer=first[0], reason="posted to the wrong box", actor=finance, pin="2468")
assert Signature.objects.count() == signatures + 1

# The cage's documents: boxes, a notice, a table count in a container, uncounted boxes with one missing,
# a verification, the close of the day, a schedule run.
from cage.models import Box
from cage.services import (boxes_sync, cage_verify, count_record, count_witness, gaming_day_close, missing_box_record,
                           notice_record, schedule_run, transport_account, transport_create)
from tables.selectors import gaming_day
from tables.services import table_set_open
def person(role, n):
    return staff_create(username=f"{role.value}-sqlite", role=role, credential_number=f"PA-SQLITE-C{n}",
                        password=uuid.uuid4().hex, pin="2468", all_rooms=True)
floor, counter, security, supervisor, cashier = (person(role, n) for n, role in enumerate(
    (Role.FLOORPERSON, Role.DEALER, Role.SECURITY, Role.SHIFT_SUPERVISOR, Role.CAGE_CASHIER)))
assert schedule_run() is not None
room = table.room
t2 = table_set_open(table=Table.objects.get(room=room, number="T2"), is_open=False, actor=floor)
boxes_sync(room=room)
notice_record(room=room, notified="J. Smith", method="phone", actor=floor, pin="2468", idempotency_key="notice-1")
bb = Box.objects.select_related("account").get(room=room, code="T2-bb")
from casino_backoffice.ledger.selectors import account_balance
bb_expected = account_balance(account=bb.account)
count = count_record(box=bb, counted_cents=bb_expected, actor=counter, pin="2468", idempotency_key="count-1")
count_witness(count=count, actor=floor, pin="2468", surveillance_reference="CAM-1")
container = transport_create(room=room, seal="SQ-1", counts=[count], actor=security, pin="2468", idempotency_key="t-1")
cage_verify(transport=container, counted=bb_expected, actor=cashier, pin="2468", idempotency_key="v-1")
carried = transport_create(room=room, seal="SQ-2", boxes=list(Box.objects.filter(room=room, code__in=["T2-hh", "T2-drop"])),
                           actor=security, pin="2468", idempotency_key="t-2")
# The drop box goes missing (it holds T2's rake: a variance to explain); the High Hand box carries one
# period's box content, counted as expected.
missing_box_record(transport=carried, box=Box.objects.get(room=room, code="T2-drop"), reason="not in the cart",
                   actor=supervisor, pin="2468")
transport_account(transport=carried, box_codes=["T2-hh"], actor=floor, pin="2468")
hh_expected = carried.items.get(box__code="T2-hh").expected_cents
assert carried.items.get(box__code="T2-drop").expected_cents > 0
verification = cage_verify(transport=carried, counted={"T2-hh": hh_expected}, actor=cashier, pin="2468",
                           idempotency_key="v-2")
from cage.services import verification_explain
verification_explain(verification=verification, reason="the box was left at the table", actor=supervisor, pin="2468")
# A past gaming day with nothing left open closes (today's is not over: issue 24). Not yesterday: the
# demo's rounds (90 minutes back) and the High Hand period that ended at 06:00 fall in yesterday's
# gaming day at some hours of the day, and their counts are due then.
from datetime import timedelta
before_yesterday = gaming_day(room=room, at=timezone.now()) - timedelta(days=2)
gaming_day_close(room=room, day=before_yesterday, actor=finance, pin="2468")
assert ledger_total() == 0

# A balance checkpoint (the ledger's, taken every minute by beat), with every transfer in it.
from casino_backoffice.ledger.checkpoints import checkpoints_take
assert checkpoints_take(stride=1) > 0

# The Bad Beat's documents: the demo day decided, distributed and paid a Bad Beat; a gaming day ends
# without a display adjustment and is flagged.
from datetime import timedelta
from jackpots.bad_beat.models import BadBeatDecision, BadBeatDistribution, BadBeatPayment, BadBeatShare
from jackpots.bad_beat.services.display import display_overdue_flag
assert BadBeatDecision.objects.exists() and BadBeatDistribution.objects.exists()
assert BadBeatShare.objects.exists() and BadBeatPayment.objects.exists()
assert display_overdue_flag(room=room, at=timezone.now() + timedelta(days=2))

# The High Hand: the demo recorded a full house on the open period's slip; a higher hand recorded by
# mistake is voided; the period closes, its pool is announced and the award paid at the cage.
from jackpots.high_hand.models import HighHandAward, HighHandEntry, HighHandPeriod
from jackpots.high_hand.services.awards import award_pay
from jackpots.high_hand.services.periods import period_announce, periods_run
from jackpots.high_hand.services.slip import entry_record, entry_void
period = HighHandPeriod.objects.get(status="open")
first = HighHandEntry.objects.get()
wrong = entry_record(jackpot=period.jackpot, table=first.table, seat=6, player_name="Ray Wrong", player_phone="1",
                     id_type="License", id_number="X", dealer=dealer, players_dealt_in=7, pot_cents=8000,
                     cards="As Ad Ah Kc Kd", made_at=first.made_at, actor=floor, pin="2468", idempotency_key="hh-2")
entry_void(entry=wrong, reason="misread", actor=supervisor, pin="2468")
periods_run(room=room, at=period.ends_at + timedelta(minutes=1))
with transaction.atomic():  # the schedule's transaction: earlier periods (opened by the demo's rounds) first
    for earlier in HighHandPeriod.objects.filter(jackpot=period.jackpot, starts_at__lt=period.starts_at).order_by("starts_at"):
        period_announce(period=earlier, contributions_cents=0, at=period.ends_at + timedelta(minutes=2))
    # As much as the fund holds, up to $5.00: what the demo's and this script's counts made official.
    from jackpots.funds.accounts import jackpot_fund_account
    from casino_backoffice.ledger.models import Account
    fund_cents = account_balance(account=Account.objects.get(code=jackpot_fund_account(jackpot=period.jackpot).code))
    assert fund_cents > 0, fund_cents
    period_announce(period=period, contributions_cents=min(500, fund_cents), at=period.ends_at + timedelta(minutes=2))
award_pay(award=HighHandAward.objects.get(), id_type=first.id_type, id_number=first.id_number, actor=cashier,
          pin="2468", idempotency_key="hh-pay")

# A sign-in attempt, as the sign-in form records it.
from casino_backoffice.staff.signin import signin_record
signin_record(username="floor", succeeded=False, request=None)
# A refused action, as every service records one.
from casino_backoffice.staff.exceptions import ActionNotPermitted
from casino_backoffice.staff.permissions import Action, action_require
try:
    action_require(actor=dealer, action=Action.GAMING_DAY_CLOSE)
except ActionNotPermitted:
    pass

# The ORM meets the triggers too.
for change in (lambda: Transfer.objects.update(memo="changed"), lambda: RoundDrop.objects.all().delete()):
    try:
        with transaction.atomic():
            change()
    except IntegrityError as error:
        assert "refused" in str(error), error
    else:
        raise AssertionError("an insert-only table was changed")
print("ROWS OK")
"""

INSERT_ONLY = (
    "ledger_transfer",
    "staff_signature",
    "tables_rulesversion",
    "tables_round",
    "jackpots_rounddrop",
    "ledger_balancecheckpoint",
    "cage_box",
    "cage_compliancenotice",
    "cage_transportitem",
    "cage_missingbox",
    "cage_gamingdayclose",
    "cage_schedulerun",
    "jackpots_badbeatdecision",
    "jackpots_badbeatdistribution",
    "jackpots_badbeatshare",
    "jackpots_badbeatpayment",
    "jackpots_displayoverdue",
    "jackpots_highhandentry",
    "jackpots_highhandvoid",
    "jackpots_highhandaward",
    "jackpots_highhandawardpayment",
    # The progressives: the demo played rounds, a count exception, hands, Envy Bonuses, validations, a
    # payment at the cage and a reset.
    "jackpots_progressiveround",
    "jackpots_progressivewager",
    "jackpots_wagercountexception",
    "jackpots_wagercountexplanation",
    "jackpots_progressivehand",
    "jackpots_envybonus",
    "jackpots_progressivevalidation",
    "jackpots_progressivepayment",
    "jackpots_meterfunding",
    "staff_signinattempt",
    "staff_refusedaction",
)

# The audit log (django-simple-history's tables): insert-only by the same triggers. Some hold no row in
# the embedded database, so the refusal is proven on the tables above and the triggers' presence here.
AUDIT_LOG = (
    "staff_historicaluser",
    "staff_historicaluser_groups",
    "ledger_historicalaccount",
    "ledger_historicalcorrection",
    "tables_historicalpokerroom",
    "tables_historicalpokerroom_staff",
    "tables_historicaltable",
    "rake_historicaltimecharge",
    "jackpots_historicaljackpot",
    "jackpots_historicalbadbeatclaim",
    "jackpots_historicaldisplayadjustment",
    "jackpots_historicalfundtransfer",
    "jackpots_historicalhighhandperiod",
    "jackpots_historicalhighhandunclaimed",
    "jackpots_historicalprogressivemeter",
    "cage_historicalcountsheet",
    "cage_historicalcount",
    "cage_historicaltransport",
    "cage_historicalcageverification",
    "cage_historicalvariance",
)

# Insert-only tables the embedded database holds no row of (nobody there has set up a second factor):
# their triggers' presence is compared here, their refusal proven on the tables above.
WITHOUT_ROWS = (
    "staff_secondfactorevent",
    "jackpots_displayadjustmentlate",
    "jackpots_badbeatclaimround",
    "jackpots_highhandentryround",
    # Rounds logged late (issue 24): the embedded day logs every round in time.
    "rake_lateroundentry",
    # Finance's corrections of the official record (issue 24): none in the embedded day.
    "cage_variancecorrection",
    # Irregularities and their rulings (issue 28): the embedded day has none.
    "tables_irregularity",
    "tables_irregularityruling",
    "rake_roundvoid",
    "jackpots_progressiveroundvoid",
    # The equipment and deck logs (issue 28, item 4): the embedded day has none.
    "tables_deviceevent",
    "tables_deckchange",
    "tables_deckverification",
    "tables_deckoverdue",
    "tables_deckmissing",
    # The seal of a closed day's package: the embedded day is not closed.
    "audit_daypackageseal",
)


@pytest.fixture(scope="module")
def embedded_database(tmp_path_factory) -> Path:
    """A SQLite database migrated and loaded as `make run` does, with a row in every insert-only table."""
    return embedded_sqlite(
        tmp_path_factory,
        name="demo-with-rows",
        start=embedded_demo(tmp_path_factory),
        commands=[["shell", "-c", ROWS]],
        expect="ROWS OK",
    )


@pytest.mark.parametrize("table", INSERT_ONLY)
def test_sqlite_refuses_update_and_delete_of_insert_only_rows(embedded_database, table) -> None:
    with sqlite3.connect(embedded_database) as database:
        before = database.execute(f"SELECT * FROM {table} ORDER BY id").fetchall()  # noqa: S608
        assert before, f"no row in {table} to change"

        with pytest.raises(sqlite3.IntegrityError, match=f"UPDATE of {table} is refused"):
            database.execute(f"UPDATE {table} SET id = id")  # noqa: S608
        with pytest.raises(sqlite3.IntegrityError, match=f"DELETE of {table} is refused"):
            database.execute(f"DELETE FROM {table}")  # noqa: S608

        assert database.execute(f"SELECT * FROM {table} ORDER BY id").fetchall() == before  # noqa: S608


@pytest.mark.skipif(connection.vendor != "postgresql", reason="compares with PostgreSQL's triggers")
def test_every_table_insert_only_on_postgresql_is_insert_only_on_sqlite(embedded_database, db) -> None:
    with connection.cursor() as cursor:
        cursor.execute("SELECT tgrelid::regclass::text FROM pg_trigger WHERE tgname LIKE '%%_insert_only'")
        on_postgresql = {row[0] for row in cursor.fetchall()}
    with sqlite3.connect(embedded_database) as database:
        triggers = database.execute("SELECT tbl_name, name FROM sqlite_master WHERE type = 'trigger'").fetchall()
    on_sqlite = {table for table, name in triggers if name == f"{table}_insert_only_update"}
    on_sqlite &= {table for table, name in triggers if name == f"{table}_insert_only_delete"}

    assert on_postgresql == set(INSERT_ONLY) | set(AUDIT_LOG) | set(WITHOUT_ROWS)
    assert on_sqlite == on_postgresql
