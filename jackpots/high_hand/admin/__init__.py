"""The High Hand Jackpot in the admin (§637a.16): each qualifying period with its High Hand Tracking
Slip, the slip's entries and voids, the awards, their payments at the cage and the uncollected awards,
each with every signature (name, role, Board credential number, time); all read-only, read by the
back office (``Action.HIGH_HAND_RECORDS_READ``).

A cage cashier pays an award at the cage, and finance approves where an uncollected award goes, here,
each on a page that shows what is signed and asks for the PIN; the services (``award_pay``,
``unclaimed_approve``) check every rule, and a refusal shows their message. The reports: the history
of a fund's periods (page, CSV, XLSX) and the Tracking Slip of a period (PDF, CSV, XLSX).

A patron's ID number is shown by its last four characters only: the cashier types the number of the
identification presented, and ``award_pay`` compares it with the one recorded with the hand.

One module per thing the back office looks for: the periods, their slip and the reports
(``periods``); the slip's entries and voids (``entries``); the awards and their payment at the cage
(``awards``); the uncollected awards (``unclaimed``). Importing this package registers them all.
"""

from jackpots.high_hand.admin import awards, common, entries, periods, unclaimed

__all__ = ["awards", "common", "entries", "periods", "unclaimed"]
