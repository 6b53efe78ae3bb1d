"""The trace of a dollar: reads across every app, from the pot to the patron.

``audit`` sits above ``cage`` (the last layer that writes money) and below ``demo``: it writes nothing
of the money's own, only reads the documents of ``tables``, ``rake``, ``jackpots`` and ``cage`` and
puts them in one chain (``audit.trace``), finds a chain (``audit.search``) and packs a gaming day for
a regulator (``audit.package``).
"""
