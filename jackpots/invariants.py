"""The jackpots' checks of the records (``ledger.invariants``): every payment, award and progressive
round moved exactly what it says.

- A Bad Beat share's payment paid the share's amount out of the fund (§637a.15(g)).
- A High Hand award set aside its amount from the fund, and its payment paid that amount (§637a.16(g)).
- A progressive round's Progressive Payout Wagers went to the meter and the house's share, to the
  cent (§655a.12, §657a.12), and a voided one's were returned, all of them (§655a.13, §657a.13).
"""

from __future__ import annotations

from casino_backoffice.ledger.invariants import documents_moved
from casino_backoffice.ledger.models import TransferKind
from jackpots.bad_beat.models import BadBeatPayment
from jackpots.high_hand.models import HighHandAward, HighHandAwardPayment
from jackpots.progressive.models import ProgressiveRound, ProgressiveRoundVoid


def jackpot_invariants() -> list[str]:
    return (
        documents_moved(
            BadBeatPayment.objects.select_related("share"),
            kind=TransferKind.PAYOUT,
            expected=lambda payment: payment.share.amount_cents,
            says="Bad Beat payment {pk}",
        )
        + documents_moved(
            HighHandAward.objects.all(),
            kind=TransferKind.AWARD,
            expected=lambda award: award.amount_cents,
            says="High Hand award {pk}",
        )
        + documents_moved(
            HighHandAwardPayment.objects.select_related("award"),
            kind=TransferKind.PAYOUT,
            expected=lambda payment: payment.award.amount_cents,
            says="High Hand award payment {pk}",
        )
        + documents_moved(
            ProgressiveRound.objects.all(),
            kind=TransferKind.PROGRESSIVE_WAGER,
            expected=lambda round_: round_.wagers_cents,
            says="Progressive round {pk} (its wagers)",
        )
        + documents_moved(
            ProgressiveRoundVoid.objects.select_related("round"),
            kind=TransferKind.REVERSAL,
            expected=lambda void: void.round.wagers_cents,
            says="Void {pk} of a progressive round (the wagers returned)",
        )
    )
