"""What reads all three products: the display board players read (``views``, ``urls``, ``selectors``),
the admin's jackpot reports page (``admin``) and the link of a jackpot hand to the round logged after
it (``hand_rounds``)."""
