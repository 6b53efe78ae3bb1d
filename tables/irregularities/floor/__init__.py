"""The tablet pages of irregularities: report one at a table, rule on those awaiting a ruling, the day's log."""
