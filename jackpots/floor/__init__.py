"""Tablet pages of the jackpots app (the display board itself is ``display_urls``, outside the tablet site)."""
