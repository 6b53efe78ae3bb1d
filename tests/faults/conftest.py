"""Fixtures of the fault tests."""

from __future__ import annotations

from typing import Any

import pytest


@pytest.fixture
def staff(dealer, floorperson, supervisor, security, cashier, finance) -> dict[str, Any]:
    return {
        "dealer": dealer,
        "floorperson": floorperson,
        "supervisor": supervisor,
        "security": security,
        "cashier": cashier,
        "finance": finance,
    }
