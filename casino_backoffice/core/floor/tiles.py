"""Tiles of the tablet home page: each app declares its own, the tablet site's root collects them.

An app lists its tiles in ``<app>/floor/tiles.py`` as ``TILES``; ``casino_backoffice/floor_urls.py``
(the composition root, the one module that names every app's pages) hands them all to the home page,
which shows each person the tiles of their roles. So the kernel's home page names no app.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from django.urls import reverse

from casino_backoffice.staff.roles import Role


@dataclass(frozen=True)
class Tile:
    """A page of an app on the home page. ``roles``: who sees it; ``None`` is every member of staff."""

    title: str
    description: str
    url_name: str
    roles: frozenset[Role] | None = None

    def shown_to(self, roles: frozenset[Role]) -> bool:
        return self.roles is None or bool(self.roles & roles)


@dataclass(frozen=True)
class ShownTile:
    title: str
    description: str
    url: str


def tiles_shown(tiles: Iterable[Tile], *, roles: frozenset[Role]) -> list[ShownTile]:
    """The tiles a person with ``roles`` sees, in the order given, with their addresses."""
    return [ShownTile(tile.title, tile.description, reverse(tile.url_name)) for tile in tiles if tile.shown_to(roles)]
