"""Ledger accounts of the rake app, each code and name built once: the room's pots and the tables'
drop boxes (the jackpot boxes are the jackpots app's, ``jackpots.funds.accounts``); and the ids of the
jackpots a round's drops point at."""

from __future__ import annotations

from casino_backoffice.core.caches import id_cache
from casino_backoffice.ledger.models import AccountKind, account_code
from casino_backoffice.ledger.services import AccountSpec, account_open_as
from jackpots.funds.accounts import jackpot_box_account
from jackpots.funds.selectors import jackpot_ids_by_code
from tables.models import PokerRoom, Table

from ..rules import Rules

# --- Ledger accounts ------------------------------------------------------------------------------


def pots_account(*, room: PokerRoom) -> AccountSpec:
    """Players' money at the tables of a room, where the rake and the drops come from:
    ``room:main:pots``, "Main Poker Room: pots"."""
    return AccountSpec(code=account_code("room", room.code, "pots"), name=f"{room.name}: pots", kind=AccountKind.SOURCE)


def drop_box_account(*, table: Table) -> AccountSpec:
    """A table's drop box, where the rake and the verified time charges go (§637a.17(b)(3)(v)):
    ``table:main:T1:drop_box``, "Table T1 drop box"."""
    return AccountSpec(
        code=account_code("table", table.room.code, table.number, "drop_box"),
        name=f"Table {table.number} drop box",
        kind=AccountKind.DROP_BOX,
    )


# Account ids cached in-process: accounts are never deleted and their codes never change. The key
# carries the rules version that opened them, so a database rolled back (tests) is never trusted.
_account_ids: dict[tuple[int, str], int] = id_cache()


def _account_id(spec: AccountSpec, *, version_id: int) -> int:
    account_id = _account_ids.get((version_id, spec.code))
    if account_id is None:
        account_id = account_open_as(spec).pk
        _account_ids[(version_id, spec.code)] = account_id
    return account_id


# Jackpot ids by code, cached the same way: ``rules_load`` registered every jackpot of a version
# before the version existed, and funds are never deleted nor change their code.
_jackpot_ids: dict[int, dict[str, int]] = id_cache()


def _jackpot_ids_of(*, room: PokerRoom, version_id: int) -> dict[str, int]:
    ids = _jackpot_ids.get(version_id)
    if ids is None:
        ids = _jackpot_ids[version_id] = jackpot_ids_by_code(room=room)
    return ids


def _open_table_accounts(*, table: Table, rules: Rules) -> None:
    account_open_as(drop_box_account(table=table))
    for code in rules.tables[table.number].jackpots:
        account_open_as(jackpot_box_account(table=table, jackpot=rules.jackpots[code]))
