"""Every write about jackpot funds. Contributions are posted by ``rake`` with each round (rake owns
what leaves a pot); claims and payouts arrive with their issues."""

from __future__ import annotations

from jackpots.funds.exceptions import JackpotKindChanged
from jackpots.funds.models import Jackpot, JackpotKind
from tables.models import PokerRoom


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
