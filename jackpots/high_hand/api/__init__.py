"""The High Hand Jackpot API (§637a.16): the qualifying periods ``/api/high-hand/periods/``, the
entries of the High Hand Tracking Slip ``/api/high-hand/entries/`` and their void, the payment of an
award at the cage ``/api/high-hand/awards/{id}/pay/`` and finance's approval of where an uncollected
award goes ``/api/high-hand/unclaimed/{id}/approve/``.

'(f) ... When a player has a full house or better, the dealer shall call a floorperson or above who
shall verify the hand and record the value on the High Hand Tracking Slip.' Serializers check shape;
``jackpots.high_hand.services`` checks every rule (the minimum hand, a higher hand than the period's, the open
period, the players dealt in, the pot, the identification). Money is a decimal string ("12.34"), cards
are text ("Ah Ad Ac Kh Ks"), times ISO-8601 with their offset, answered on the room's clock.
"""

from .awards import AwardPay, UnclaimedApprove
from .entries import EntryCreate, EntryVoid
from .periods import PeriodList

__all__ = ["AwardPay", "EntryCreate", "EntryVoid", "PeriodList", "UnclaimedApprove"]
