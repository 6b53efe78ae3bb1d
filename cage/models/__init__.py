"""Boxes, counts, chain of custody, cage verifications, variances and the close of a gaming day.

Money in a box is *expected* until it is counted, and *official* once a cashier at the cage has
counted it or verified the aggregate of a table count (§637a.15(d)-(e), §637a.16(d)-(e)). Every step
from the table to the cage is a signed document here; every movement of money it causes is a ledger
transfer that references it (``cage.accounts`` names the accounts). Documents are inserted and
signed; what moves on is their status, never their signed content.

One module per document: boxes and notices (``boxes``); count sheets and counts (``counts``); transports
and missing boxes (``transports``); cage verifications (``verifications``); variances and their
corrections (``variances``); the close of a gaming day and the schedule's runs (``days``).
"""

from cage.models.boxes import Box, BoxKind, ComplianceNotice
from cage.models.counts import RECOUNTABLE, Count, CountPlace, CountSheet, CountStatus, SheetKind
from cage.models.days import GamingDayClose, ScheduleRun
from cage.models.transports import MissingBox, Transport, TransportItem, TransportKind, TransportStatus
from cage.models.variances import (
    Variance,
    VarianceCorrection,
    VarianceDirection,
    VarianceKind,
    display_variance,
    variance_direction,
)
from cage.models.verifications import CageVerification, VerificationStatus

__all__ = [
    "RECOUNTABLE",
    "Box",
    "BoxKind",
    "CageVerification",
    "ComplianceNotice",
    "Count",
    "CountPlace",
    "CountSheet",
    "CountStatus",
    "GamingDayClose",
    "MissingBox",
    "ScheduleRun",
    "SheetKind",
    "Transport",
    "TransportItem",
    "TransportKind",
    "TransportStatus",
    "Variance",
    "VarianceCorrection",
    "VarianceDirection",
    "VarianceKind",
    "VerificationStatus",
    "display_variance",
    "variance_direction",
]
