"""The Bad Beat in the admin: its claims (``claims``) and their documents (``documents``), its display
and fund transfers (``display``), registered as this package is imported."""

from jackpots.bad_beat.admin import claims, display, documents

__all__ = ["claims", "display", "documents"]
