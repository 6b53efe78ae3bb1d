"""Every write of the Bad Beat: claims, decisions (``claims``), distributions and payments (``payouts``),
the display adjustments and the transfer of a discontinued fund (``display``)."""
