"""The search of a chain (issue 29, item 3): compliance and finance find a chain by gaming day and
table, by seal, by a patron's name or the last four of their ID number, by amount or by a ledger
transfer id; each result links to its trace (``/audit/trace/?<kind>=<id>``)."""
