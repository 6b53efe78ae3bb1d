"""Banked-game money is not poker revenue, and the house's money is not players' money.

Poker revenue is the rake: 'a percentage of the pot', 'incremental' or 'time charges' (§637a.17). At the
banked tables (Mississippi Stud, Crazy 4 Poker) the house takes no rake: what the rate of progression
leaves of each Progressive Payout Wager is the house's share (§655a.12(c)(3), §657a.12(d)(3)), a banked
game's win, and the meter's initial and reset amounts 'may not be less than' the posted minimum and are
the house's money (§655a.12(c)(3), §657a.12(d)(3)), as are the fixed payouts and Envy Bonuses paid from
the table inventory (§655a.11(i)(4)(i)(D)-(E), §657a.11(e)(4)-(5)). Each has an account kind of its own:
the ledger's poker revenue is the rake the cage made official, and the revenue report shows the banked
house share on a line of its own, in neither expected nor counted.
"""

from __future__ import annotations

import importlib
import uuid
from datetime import timedelta

import pytest
from django.apps import apps
from django.utils import timezone

from casino_backoffice.ledger.models import Account, AccountKind, Transfer
from casino_backoffice.ledger.selectors import account_balances, ledger_total
from casino_backoffice.staff.roles import Role
from rake.selectors import poker_revenue, revenue_table
from rake.services import round_record
from tables.models import Table
from tables.services import table_set_open
from tests.conftest import PIN
from tests.jackpots.progressive_helpers import play

pytestmark = pytest.mark.django_db


def _total(kind: AccountKind, room_code: str = "main") -> int:
    accounts = list(Account.objects.filter(kind=kind, code__contains=f":{room_code}:"))
    return sum(account_balances(accounts=accounts).values())


def test_the_house_share_and_the_house_funding_have_kinds_of_their_own(stud, dealer) -> None:
    round_ = play(stud, dealer, {1: "1.00", 2: "5.00", 3: "1.00"})
    assert round_.house_cents == 595  # $7.00 less 15% to the meter

    kinds = dict(Account.objects.filter(code__startswith="progressive:main:msp:").values_list("code", "kind"))
    assert kinds["progressive:main:msp:house"] == AccountKind.BANKED_REVENUE
    assert kinds["progressive:main:msp:house_funding"] == AccountKind.HOUSE_FUNDING
    assert kinds["progressive:main:msp:wagers"] == AccountKind.SOURCE  # the players' wagers stay players' money
    # Not poker revenue; and the house's $10,000 + $5,000 initial amounts are not players' money.
    assert _total(AccountKind.REVENUE) == 0 and _total(AccountKind.BANKED_REVENUE) == 595
    assert _total(AccountKind.HOUSE_FUNDING) == -15_000_00
    assert not Account.objects.filter(kind=AccountKind.SOURCE, code__endswith=":house_funding").exists()
    assert ledger_total() == 0


def test_poker_revenue_is_the_rake_and_the_report_shows_the_banked_share_on_its_own_line(
    stud, crazy4, dealer, floorperson, room, make_staff
) -> None:
    from cage.models import Box
    from cage.services import boxes_sync, cage_verify, count_record, count_witness, transport_create

    # Given a poker round at T1 taking $5 rake, and rounds at the banked tables T11 and T12.
    poker = table_set_open(table=Table.objects.get(number="T1"), is_open=True, actor=floorperson)
    round_record(
        table=poker,
        ended_at=timezone.now() - timedelta(minutes=10),
        players_dealt_in=6,
        pot_cents=12000,
        uncalled_bet_cents=2000,
        flop_dealt=True,
        voided=False,
        actor=dealer,
        idempotency_key=str(uuid.uuid4()),
    )
    stud_round = play(stud, dealer, {1: "1.00", 2: "5.00"})  # $6.00: $0.90 to the meter, $5.10 house
    crazy_round = play(crazy4, dealer, {3: "5.00"})  # $5.00: $1.00 to the meter, $4.00 house
    assert (stud_round.house_cents, crazy_round.house_cents) == (510, 400)

    # When T1's drop box is counted and verified at the cage ($5.00).
    table_set_open(table=poker, is_open=False, actor=floorperson)
    boxes_sync(room=room)
    drop = Box.objects.select_related("table", "room", "account", "jackpot").get(room=room, code="T1-drop")
    count = count_record(box=drop, counted_cents=500, actor=dealer, pin=PIN, idempotency_key="count")
    count_witness(count=count, actor=floorperson, pin=PIN, surveillance_reference="CAM-1")
    transport = transport_create(
        room=room, seal="S-1", counts=[count], actor=make_staff(Role.SECURITY), pin=PIN, idempotency_key="carry"
    )
    cage_verify(
        transport=transport, counted=500, actor=make_staff(Role.CAGE_CASHIER), pin=PIN, idempotency_key="verify"
    )

    # Then the ledger's poker revenue is the rake counted, $5.00, and the house share is apart: $9.10.
    assert _total(AccountKind.REVENUE) == 500 and _total(AccountKind.BANKED_REVENUE) == 910
    rows = {row.keys["table"]: row for row in poker_revenue(room=room, group_by=["table"])}
    assert (rows["T1"].expected_cents, rows["T1"].counted_cents, rows["T1"].banked_house_cents) == (500, 500, None)
    assert (rows["T11"].rounds, rows["T11"].expected_cents, rows["T11"].counted_cents) == (0, 0, None)
    assert (rows["T11"].banked_house_cents, rows["T12"].banked_house_cents) == (510, 400)
    assert sum(row.expected_cents for row in rows.values()) == 500
    header, body = revenue_table(list(rows.values()), group_by=["table"])
    cells = {line[0]: dict(zip(header, line, strict=True)) for line in body}
    assert (cells["T11"]["banked_house_share"], cells["T11"]["expected"]) == ("5.10", "0.00")
    assert cells["T1"]["banked_house_share"] == ""
    by_shift = poker_revenue(room=room, group_by=["shift"])
    assert all(row.banked_house_cents is None for row in by_shift)  # a banked round records no shift
    assert ledger_total() == 0


def test_existing_meter_accounts_change_kind_in_place_with_their_history() -> None:
    """The migration moves the meter accounts opened before it (same codes, same balances and
    transfers) and records each change in the account's history."""
    migration = importlib.import_module("casino_backoffice.ledger.migrations.0011_banked_games_accounts")
    house = Account.objects.create(code="progressive:old:msp:house", name="House share", kind=AccountKind.REVENUE)
    funding = Account.objects.create(
        code="progressive:old:msp:house_funding", name="Funded by the house", kind=AccountKind.SOURCE
    )
    revenue = Account.objects.create(code="room:old:revenue", name="Poker revenue", kind=AccountKind.REVENUE)
    transfers = Transfer.objects.count()

    migration.forwards(apps, None)

    kinds = dict(Account.objects.filter(code__contains=":old:").values_list("code", "kind"))
    assert kinds == {
        house.code: AccountKind.BANKED_REVENUE,
        funding.code: AccountKind.HOUSE_FUNDING,
        revenue.code: AccountKind.REVENUE,  # the room's poker revenue stays poker revenue
    }
    assert [h.kind for h in house.history.order_by("history_id")] == [AccountKind.REVENUE, AccountKind.BANKED_REVENUE]
    assert house.history.order_by("history_id").last().history_type == "~"
    assert Transfer.objects.count() == transfers

    migration.backwards(apps, None)
    assert Account.objects.get(pk=house.pk).kind == AccountKind.REVENUE
    assert Account.objects.get(pk=funding.pk).kind == AccountKind.SOURCE
