"""The boxes of a room: every rake drop box and jackpot box its rules put at its tables."""

from __future__ import annotations

from datetime import datetime

from django.db import transaction
from django.utils import timezone

from casino_backoffice.ledger.models import Account
from casino_backoffice.ledger.services import AccountSpec, account_locked, account_open_as
from jackpots.funds.accounts import jackpot_box_account
from jackpots.funds.models import Jackpot
from jackpots.high_hand.accounts import high_hand_box_content_account
from jackpots.high_hand.models import HighHandPeriod, PeriodStatus
from rake.rules import Rules
from rake.selectors import RoomVersions
from rake.services.accounts import drop_box_account
from tables.models import PokerRoom, Table

from ..models import Box, BoxKind


def box_code(*, table: Table, jackpot: Jackpot | None) -> str:
    """``T1-bb`` is table T1's box of jackpot ``bb``; ``T1-drop`` its rake drop box."""
    return f"{table.number}-{jackpot.code if jackpot else 'drop'}"


def boxes_sync(*, room: PokerRoom) -> list[Box]:
    """Know every box the rules in effect put at the room's tables (idempotent; boxes of tables or
    jackpots a later version dropped are kept, with their money, until they are counted)."""
    now = timezone.now()
    in_effect = RoomVersions.of(room=room, at=now).in_effect(at=now)
    if in_effect is not None:
        boxes_open(room=room, rules=in_effect[1])
    return list(Box.objects.filter(room=room).select_related("table", "jackpot", "account"))


def boxes_open(*, room: PokerRoom, rules: Rules) -> None:
    """Open the box of every rake drop and jackpot those rules put at the room's tables (idempotent). Run
    when a rules version is loaded (``rake.signals.rules_version_loaded``), so that the boxes a version
    names exist from its load on and listing them never writes."""
    tables = {table.number: table for table in Table.objects.filter(room=room).select_related("room")}
    jackpots = {jackpot.code: jackpot for jackpot in Jackpot.objects.filter(room=room)}
    known = set(Box.objects.filter(room=room).values_list("code", flat=True))
    with transaction.atomic():
        for number, table_rule in rules.tables.items():
            table = tables.get(number)
            if table is None:
                continue
            # The same account specs the rules loader opened the boxes with (one function each).
            wanted: list[tuple[Jackpot | None, AccountSpec]] = []
            if table_rule.rake_policy is not None:
                wanted.append((None, drop_box_account(table=table)))
            for code in table_rule.jackpots:
                jackpot = jackpots.get(code)
                if jackpot is not None:
                    wanted.append((jackpot, jackpot_box_account(table=table, jackpot=rules.jackpots[code])))
            for jackpot, spec in wanted:
                code = box_code(table=table, jackpot=jackpot)
                if code in known:
                    continue
                account = account_open_as(spec)
                Box.objects.get_or_create(
                    room=room,
                    code=code,
                    defaults={
                        "table": table,
                        "jackpot": jackpot,
                        "account": account,
                        "kind": BoxKind.JACKPOT if jackpot else BoxKind.RAKE,
                    },
                )


def box_content_locked(*, box: Box, period: HighHandPeriod | None) -> Account:
    """What a count of ``box`` takes out of it, locked until the caller's transaction ends: for a High
    Hand box, the box content of qualifying period ``period`` (§637a.16(d): the box is exchanged at
    the period's end, ``jackpots.high_hand.services.periods.period_box_content``); else the box's account (a Bad Beat or
    rake drop box, counted whole; and a High Hand count of a sheet made before periods had box
    contents of their own)."""
    if period is not None:
        assert box.jackpot is not None
        return account_locked(
            high_hand_box_content_account(table=box.table, jackpot=box.jackpot, starts_at=period.starts_at)
        )
    return box.account


def box_content_close(*, account: Account, box: Box, period: HighHandPeriod | None, at: datetime) -> None:
    """A closed High Hand period's box content, counted or carried, takes no more drops: a round of its
    period posted later is refused (``period_box_counted``). The content of a period the schedule has
    not closed yet, counted or carried from a closed table, stays open: the table may open again before
    the period ends, and the period's sheet then takes the rest. Saved, not updated in bulk: the
    account's history records when."""
    if (
        period is not None
        and period.status != PeriodStatus.OPEN
        and account.pk != box.account_id
        and account.closed_at is None
    ):
        account.closed_at = at
        account.save(update_fields=["closed_at"])
