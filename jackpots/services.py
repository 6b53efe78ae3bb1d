"""Every write about jackpot funds. Contributions are posted by ``rake`` with each round (rake owns
what leaves a pot); claims and payouts arrive with their issues."""

from __future__ import annotations

from tables.models import PokerRoom, Table

from .exceptions import JackpotKindChanged
from .models import Jackpot, JackpotKind


def jackpot_box_code(*, table: Table, jackpot_code: str) -> str:
    """The ledger account of a table's box for one jackpot: ``table:main:T1:bb_box``."""
    return f"table:{table.room.code}:{table.number}:{jackpot_code}_box"


def jackpot_fund_code(*, jackpot: Jackpot) -> str:
    """The ledger account of a fund's official money: what cage verifications posted (DESIGN.md,
    Official versus expected). The display shows its balance: ``jackpot:main:bb:fund``."""
    return f"jackpot:{jackpot.room.code}:{jackpot.code}:fund"


def jackpot_register(*, room: PokerRoom, code: str, kind: JackpotKind, name: str) -> Jackpot:
    """Create the fund a rules file names, or return it; runs inside the caller's transaction.

    The name may change with a new rules version; the kind may not (§637a.15(i): a Bad Beat fund is
    discontinued and transferred, never turned into another kind of fund).
    """
    jackpot, created = Jackpot.objects.get_or_create(room=room, code=code, defaults={"kind": kind, "name": name})
    if not created and jackpot.kind != kind:
        raise JackpotKindChanged(
            f"Jackpot {code} is a {jackpot.get_kind_display()} fund and cannot become a {JackpotKind(kind).label}; "
            "give the new fund its own code."
        )
    if not created and jackpot.name != name:
        jackpot.name = name
        jackpot.save(update_fields=["name"])
    return jackpot
