"""What went wrong at a table, on the record: the irregularities of §637a.18, §655a.5(b), §655a.13,
§657a.5(b) and §657a.13, each reported and signed, each ruled by a floorperson or above (a dispute by a
poker shift supervisor or above, §637a.18(a)).

``kinds`` is the catalogue of what can be reported, each kind with the provision it records; ``models``
the signed, insert-only report and ruling; ``services`` the writes; ``selectors`` the log; ``api`` the
endpoints. A round voided for missing or extra cards (§637a.18(i)) is voided by ``rake``, which owns
what leaves a pot and records the void's irregularity here (``irregularity_record_within``).
"""
