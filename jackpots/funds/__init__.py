"""What the three jackpot products share: the funds (``Jackpot``) and each round's drops (``RoundDrop``),
the fund accounts, the drop computation and the reading of a rules file's ``jackpots`` section
(``rules``), the rules in effect for a fund (``selectors``), and the pieces their pages, API, admin,
reports and exports all use. It imports none of the products."""
