"""The progressive table games API (§655a.11-12, §657a.11-12): the meters ``/api/progressive/meters/``
and their reset, a round's Progressive Payout Wagers ``/api/progressive/rounds/``, a winning hand
``/api/progressive/hands/``, its validation, its payment through the cage, and the explanation of a
wager count exception, and the void of a round already recorded (§655a.13, §657a.13).

Seats: seat 1 is the player farthest to the dealer's left; a round's hands are recorded from the
highest seat down, as the dealer pays them (§655a.11(i), §657a.11(c)). Money is a decimal string
("12.34"), cards are text ("As Ks"), times ISO-8601 with their offset. Serializers check shape;
``jackpots.progressive.services`` checks every rule.
"""

from .hands import ExceptionExplain, HandCreate, HandPay, HandValidate
from .meters import MeterList, MeterReset
from .rounds import RoundCreate, RoundDetail, RoundVoidCreate

__all__ = [
    "ExceptionExplain",
    "HandCreate",
    "HandPay",
    "HandValidate",
    "MeterList",
    "MeterReset",
    "RoundCreate",
    "RoundDetail",
    "RoundVoidCreate",
]
