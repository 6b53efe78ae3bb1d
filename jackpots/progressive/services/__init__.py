"""Progressive table games (§655a.11-12, §657a.11-12): the meters, the wagers of each round, a winning
hand and its Envy Bonuses, the validation, the payment through the cage and the reset of a meter.

'(i) If a player has won the progressive payout, the dealer shall: (A) Verify that the hand is a
winning hand. (B) Verify that the appropriate light on the progressive table game system has been
illuminated. (C) Have a floorperson or above validate the progressive payout ... (D) Pay the winning
Progressive Payout Wager in accordance with § 655a.12(c)(1). If a player has won a progressive payout
that is 100% of the jackpot amount on the progressive meter, the progressive payout may not be paid
from the table inventory container. ... (E) Pay any Envy Bonus won ...' (§655a.11(i)(4)); Crazy 4
Poker's is §657a.11(e), whose amendment says 'a percentage of the jackpot amount' for (4).

The money, in the ledger (``jackpots.progressive.accounts``): each round's wagers go to the meter at the rate of
progression and the rest to the house's share; a payout of the meter moves from the meter, a fixed
'for 1' payout and each Envy Bonus from the house's funding, to the payouts to pay; the validation
(at the table) or the cashier (at the cage) moves them to paid. The house funds the meter's initial
amount when the meter is first posted and its reset amount after a 100% payout.

Seats: seat 1 is the player farthest to the dealer's left, dealt first (§655a.8(d), §657a.8(d)); the
dealer settles from the player farthest to the dealer's right, counterclockwise (§655a.11(i),
§657a.11(c)): from the highest seat down. Each meter payout is the meter as it stands at that player's
turn (§655a.12(c)(4), §657a.12(d)(4)), so a round's hands are recorded in that order.

Every write of the progressives: the meters, their registration from a rules file and their reset
(``meters``), the wagers of a round and the explanation of a wager count exception (``rounds``), and a
winning hand, its validation and its payment (``hands``; the hand read, its turn and its payout in
``winning``), and the void of a round already recorded (``voids``, §655a.13, §657a.13).
"""
