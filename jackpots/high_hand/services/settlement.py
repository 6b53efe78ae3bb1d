"""The pool of a High Hand period settled once the cage made it official (§637a.16(g)): 'When the
qualifying period has ended, the contribution amount collected during the qualifying period shall be
counted, verified and taken to the main cage or satellite cage in accordance with subsections (d) and
(e). The pooled contribution amounts from all Poker tables that participated in the qualifying period
shall then be announced and displayed.'

A closed period's official contributions are the cage's answer: what the cage verifications of its
count sheets' counts made official in the fund, less what a signed correction reversed of those
transfers, once every sheet is counted and verified. The cage is an app above this one: the
composition root names its reader in the setting ``HIGH_HAND_CONTRIBUTIONS_COUNTED``
(``cage.services.high_hand.period_contributions_counted``), read here without importing ``cage``;
without one, nothing was counted and no period is announced. Then
``jackpots.high_hand.services.periods.period_announce`` announces the pool and awards it or rolls it over.
The schedule (``cage.services.schedule``) settles each room's periods in its own transaction.
"""

from __future__ import annotations

import logging
from datetime import datetime

from django.conf import settings
from django.db import transaction
from django.utils.module_loading import import_string

from casino_backoffice.ledger.exceptions import BelowZero
from casino_backoffice.ledger.models import Account, AccountKind
from casino_backoffice.ledger.selectors import account_balances
from jackpots.high_hand.accounts import period_content_suffix
from jackpots.high_hand.models import HighHandPeriod, PeriodStatus
from jackpots.high_hand.services.periods import period_announce, period_wait
from tables.models import PokerRoom

logger = logging.getLogger(__name__)


def period_contributions_counted(*, period: HighHandPeriod) -> int | None:
    """What the cage made official of a closed period's contributions, once every box content of the
    period is counted and verified; None until then (``HIGH_HAND_CONTRIBUTIONS_COUNTED``)."""
    path = getattr(settings, "HIGH_HAND_CONTRIBUTIONS_COUNTED", "")
    if not path:
        return None
    reader = import_string(path)
    counted: int | None = reader(period=period)
    return counted


def period_contributions_uncounted(*, period: HighHandPeriod) -> int:
    """What the period's box contents at every table still hold by the ledger: contributions of its
    rounds (§637a.16(c)) not yet taken out by a count or a transport (§637a.16(d))."""
    stamp = period_content_suffix(period=period)
    contents = Account.objects.filter(
        code__startswith=f"table:{period.room.code}:", code__endswith=stamp, kind=AccountKind.JACKPOT_BOX
    )
    balances = account_balances(accounts=list(contents))
    return sum(balances.values())


def high_hand_pools_settle(*, room: PokerRoom, at: datetime) -> int:
    """Announce, in order, each closed period of the room whose boxes are all counted and verified;
    inside the schedule's transaction. Returns how many were announced."""
    announced = 0
    for period in (
        HighHandPeriod.objects.filter(room=room, status=PeriodStatus.CLOSED)
        .select_related("room")
        .order_by("jackpot", "starts_at")
    ):
        contributions = period_contributions_counted(period=period)
        if contributions is None:
            continue  # a box content of the period not counted, carried or verified yet
        uncounted = period_contributions_uncounted(period=period)
        if uncounted:
            # Contributions of the period sit in a box content no sheet of it counted (a table that
            # collected without a sheet): announcing now would leave them out of its pool.
            if period_wait(period=period, contributions_cents=0, uncounted_cents=uncounted):
                logger.error("High Hand %s is not announced: %s uncounted", period, uncounted)
            continue
        try:
            with transaction.atomic():
                if (
                    period_announce(period=period, contributions_cents=contributions, at=at).status
                    != PeriodStatus.CLOSED
                ):
                    announced += 1
        except BelowZero as refused:
            # The pool is more than the fund holds: a correction took back, after a period rolled over
            # into this one (or after its award), money its pool counts. The period waits, closed, for
            # finance to put the fund right, saying why on its page; the schedule goes on for every
            # other fund and room.
            if period_wait(period=period, contributions_cents=contributions):
                logger.error("High Hand %s is not announced: %s", period, refused.message)
    return announced
