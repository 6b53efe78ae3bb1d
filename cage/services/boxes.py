"""The boxes of a room: every rake drop box and jackpot box its rules put at its tables."""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from casino_backoffice.ledger.models import AccountKind
from casino_backoffice.ledger.services import account_open
from jackpots.models import Jackpot
from jackpots.services import jackpot_box_code
from rake.selectors import rules_version_in_effect
from rake.services import drop_box_code
from tables.models import PokerRoom, Table

from ..models import Box, BoxKind


def box_code(*, table: Table, jackpot: Jackpot | None) -> str:
    """``T1-bb`` is table T1's box of jackpot ``bb``; ``T1-drop`` its rake drop box."""
    return f"{table.number}-{jackpot.code if jackpot else 'drop'}"


def boxes_sync(*, room: PokerRoom) -> list[Box]:
    """Know every box the rules in effect put at the room's tables (idempotent; boxes of tables or
    jackpots a later version dropped are kept, with their money, until they are counted)."""
    in_effect = rules_version_in_effect(room=room, at=timezone.now())
    if in_effect is None:
        return list(Box.objects.filter(room=room))
    rules = in_effect[1]
    tables = {table.number: table for table in Table.objects.filter(room=room).select_related("room")}
    jackpots = {jackpot.code: jackpot for jackpot in Jackpot.objects.filter(room=room)}
    known = set(Box.objects.filter(room=room).values_list("code", flat=True))
    with transaction.atomic():
        for number, table_rule in rules.tables.items():
            table = tables.get(number)
            if table is None:
                continue
            wanted: list[tuple[Jackpot | None, str, str, AccountKind]] = []
            if table_rule.rake_policy is not None:
                wanted.append((None, drop_box_code(table=table), f"Table {table.number} drop box", AccountKind.DROP_BOX))
            for code in table_rule.jackpots:
                jackpot = jackpots.get(code)
                if jackpot is not None:
                    wanted.append((jackpot, jackpot_box_code(table=table, jackpot_code=code),
                                   f"Table {table.number} {jackpot.name} box", AccountKind.JACKPOT_BOX))
            for jackpot, account_code, name, kind in wanted:
                code = box_code(table=table, jackpot=jackpot)
                if code in known:
                    continue
                account = account_open(code=account_code, name=name, kind=kind)
                Box.objects.get_or_create(
                    room=room, code=code,
                    defaults={"table": table, "jackpot": jackpot, "account": account,
                              "kind": BoxKind.JACKPOT if jackpot else BoxKind.RAKE},
                )
    return list(Box.objects.filter(room=room).select_related("table", "jackpot", "account"))
