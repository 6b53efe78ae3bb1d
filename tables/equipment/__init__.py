"""Devices and decks at a table, on the record (§637a.18(q)-(r), §655a.3(c), §655a.4(a), §655a.13(e)-(g),
§657a.3(c), §657a.4(a), §657a.13(e)-(g)).

``models``: the equipment log (an automated card shuffling device or automated dealing shoe that
failed, was taken out of order and covered, and was returned to service: one signed row per step),
the deck log of the banked tables (a deck put into play, inspected by the dealer, the inspection
verified by a floorperson or above) and the flag of a deck kept past its limit. ``services`` the writes,
``selectors`` the state of a table's devices and the decks overdue, ``api`` the endpoints. The schedule
(``tables.tasks``) flags the overdue decks.
"""
