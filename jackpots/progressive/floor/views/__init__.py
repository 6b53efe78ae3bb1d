"""Tablet pages of the progressive meters of the banked games, Mississippi Stud (§655a.11-12) and Crazy 4
Poker (§657a.11-12): the dealer records a round's Progressive Payout Wagers and the chips collected, then
each winning hand of the round with the evaluator's verdict; a floorperson or above validates each
payout; a supervisor resets a meter after a 100% payout and explains a wager count exception.

Each page asks the one table of actions and roles first (``staff.permissions``); each action is a
service of ``jackpots.progressive.services``, whose refusals the page shows in the same words, having changed
nothing and kept what the person entered.

One module per page a person looks for: recording a round and the round's page with its hands
(``rounds``); the validation of a payout (``validate``); the meters, their resets and the wager count
exceptions (``meters``). A hand in words, which they share, is in ``common``.
"""

from jackpots.progressive.floor.views import common, meters, rounds, validate

__all__ = ["common", "meters", "rounds", "validate"]
