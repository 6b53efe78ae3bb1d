"""The High Hand Jackpot (§637a.16): the schedule of qualifying periods, the Tracking Slip, the
announcement of a period's pool and its awards, their payment at the cage, and uncollected awards.

'(f) At the start of each qualifying period, dealers shall begin tracking hands. When a player has a
full house ... the dealer shall call a floorperson or above who shall verify the hand and record the
value on the High Hand Tracking Slip. As the value of the hands increase during the qualifying period,
the value of the next higher hand shall be announced and the floorperson or above shall record on the
High Hand Tracking Slip the next higher value hand.'

'(h) The player or players with the highest Qualifying High Hand during the qualifying period shall be
awarded the High Hand Jackpot payout. High Hand Jackpot payouts shall be paid from the main cage or
satellite cage. If, however, a full house was not made by any player during the qualifying period, the
High Hand Jackpot payout contribution amounts shall be added to the next High Hand Jackpot payout
qualifying period.'

Every write of the High Hand: the periods, their schedule and the announcement of a pool
(``periods``), the Tracking Slip's entries and their void (``slip``), the payment of an award and the
awards not collected in time (``awards``), and the settlement of a period's pool once the cage made it
official (``settlement``).
"""
