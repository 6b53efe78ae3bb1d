"""Ledger accounts of the rake app: the room's pots, the tables' drop boxes and jackpot boxes; and the
ids of the jackpots a round's drops point at."""

from __future__ import annotations

from casino_backoffice.ledger.models import AccountKind
from casino_backoffice.ledger.services import account_open
from jackpots.selectors import jackpot_ids_by_code
from jackpots.services import jackpot_box_code
from tables.models import PokerRoom, Table

from ..rules import Rules

# --- Ledger accounts ------------------------------------------------------------------------------


def pots_account_code(*, room: PokerRoom) -> str:
    """Players' money at the tables of a room: where rake and drops come from."""
    return f"room:{room.code}:pots"


def drop_box_code(*, table: Table) -> str:
    return f"table:{table.room.code}:{table.number}:drop_box"


# Account ids cached in-process: accounts are never deleted and their codes never change. The key
# carries the rules version that opened them, so a database rolled back (tests) is never trusted.
_account_ids: dict[tuple[int, str], int] = {}


def _account_id(code: str, *, name: str, kind: AccountKind, version_id: int) -> int:
    account_id = _account_ids.get((version_id, code))
    if account_id is None:
        account_id = account_open(code=code, name=name, kind=kind).pk
        _account_ids[(version_id, code)] = account_id
    return account_id


# Jackpot ids by code, cached the same way: ``rules_load`` registered every jackpot of a version
# before the version existed, and funds are never deleted nor change their code.
_jackpot_ids: dict[int, dict[str, int]] = {}


def _jackpot_ids_of(*, room: PokerRoom, version_id: int) -> dict[str, int]:
    ids = _jackpot_ids.get(version_id)
    if ids is None:
        ids = _jackpot_ids[version_id] = jackpot_ids_by_code(room=room)
    return ids


def _open_table_accounts(*, room: PokerRoom, table: Table, rules: Rules) -> None:
    account_open(code=drop_box_code(table=table), name=f"Table {table.number} drop box", kind=AccountKind.DROP_BOX)
    for code in rules.tables[table.number].jackpots:
        jackpot = rules.jackpots[code]
        account_open(
            code=jackpot_box_code(table=table, jackpot_code=code),
            name=f"Table {table.number} {jackpot.name} box",
            kind=AccountKind.JACKPOT_BOX,
        )
