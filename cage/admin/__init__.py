"""The cage in the admin: the day's arriving containers and boxes, one screen to count or verify a
transport, the variances to explain, the official record by fund and gaming day, the custody log,
and the count sheets as PDF.

Every row here is a signed document or moves money: read-only, never deleted; what changes it is a
service (``cage_verify``, ``variance_explain``) behind a form with a PIN signature, shown to those the
one table of actions and roles allows (``may``). Lists a cashier works from carry their totals.

One module per thing a cashier looks for: boxes, notices, count sheets and counts (``boxes``); the
transports and the one screen to count or verify them (``transports``); the official record and the
custody log (``verifications``); the variances (``variances``); the close of a gaming day and the
schedule's runs (``days``). Importing this package registers them all.
"""

from cage.admin import boxes, common, days, transports, variances, verifications
from cage.admin.variances import variance_totals

__all__ = ["boxes", "common", "days", "transports", "variance_totals", "variances", "verifications"]
