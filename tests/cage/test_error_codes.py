"""The cage's codes are one enumeration: each blocker of a gaming day's close is a refusal's code."""

from cage.exceptions import CageErrorCode, GamingDayNotReady
from cage.gaming_days import BlockerKind


def test_every_blocker_of_a_close_is_a_cage_error_code():
    assert [kind.code for kind in BlockerKind] == [
        CageErrorCode.GAMING_DAY_NOT_OVER,
        CageErrorCode.COUNTS_DUE,
        CageErrorCode.TRANSPORTS_NOT_VERIFIED,
        CageErrorCode.TIME_CHARGES_NOT_VERIFIED,
        CageErrorCode.UNRESOLVED_VARIANCE,
        CageErrorCode.IRREGULARITIES_OPEN,
    ]


def test_a_refused_close_carries_a_member_of_the_enumeration():
    refused = GamingDayNotReady("Counts are due.", code=BlockerKind.COUNT_DUE.code)

    assert refused.code is CageErrorCode.COUNTS_DUE
