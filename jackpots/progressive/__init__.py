"""The progressives of the banked games (§655a.12, §657a.12): meters, banked rounds and hands,
validation, payment, reset and paytable returns; their rules, API, tablet pages, admin and reports."""
