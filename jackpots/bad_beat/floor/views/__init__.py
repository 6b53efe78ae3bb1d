"""Tablet pages of the Bad Beat (§637a.15(f)-(h)): a floorperson or above opens a claim at the table,
the poker shift supervisor verifies or denies it, security, finance or a cage cashier pays each share,
finance prepares the distribution and adjusts the display in the presence of a floorperson or above,
who witnesses it.

Each page asks the one table of actions and roles first (``staff.permissions``) and shows a person
who may not act the table's words; each action is a service of ``jackpots.bad_beat.services``, whose refusals
the page shows in the same words, having changed nothing and kept what the person entered.

One module per page a person looks for: opening a claim, a claim and the list of claims (``claims``);
the shift supervisor's decision (``decide``); the payouts to deliver (``payouts``); the witness of a
display adjustment and finance's funds page (``funds``). What they share is in ``common``.
"""

from jackpots.bad_beat.floor.views import claims, common, decide, funds, payouts

__all__ = ["claims", "common", "decide", "funds", "payouts"]
