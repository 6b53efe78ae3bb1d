"""The High Hand (§637a.16): the qualifying periods, the Tracking Slip and its entries, awards, roll-over
and unclaimed awards, and the settlement of a period's pool; its rules, API, tablet pages, admin,
reports, exports and cards."""
