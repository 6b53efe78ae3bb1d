"""The Bad Beat in the admin: its claims and their documents (``claims``), its display and fund
transfers (``display``), registered as this package is imported."""

from jackpots.bad_beat.admin import claims, display

__all__ = ["claims", "display"]
