"""Demo data for ``make run``: a composition root, so it may name every app (the layer contract in
``pyproject.toml`` puts it above them all; nothing imports it)."""
