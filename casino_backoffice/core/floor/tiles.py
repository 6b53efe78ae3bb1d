"""Tiles of the tablet home page: each app declares its own, the tablet site's root collects them.

An app lists its tiles in ``<app>/floor/tiles.py`` as ``TILES``; ``casino_backoffice/floor_urls.py``
(the composition root, the one module that names every app's pages) hands them all to the home page,
which shows each person the tiles of the actions they may take (``staff.permissions``). So the kernel's
home page names no app.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from django.urls import reverse

from casino_backoffice.staff.models import User
from casino_backoffice.staff.permissions import Action, may


@dataclass(frozen=True)
class Tile:
    """A page of an app on the home page, shown to those who may take ``action`` (everyone when None)."""

    title: str
    description: str
    url_name: str
    action: Action | None = None

    def shown_to(self, user: User) -> bool:
        return self.action is None or may(user, self.action)


@dataclass(frozen=True)
class ShownTile:
    title: str
    description: str
    url: str


def tiles_shown(tiles: Iterable[Tile], *, user: User) -> list[ShownTile]:
    """The tiles ``user`` sees, in the order given, with their addresses."""
    return [ShownTile(tile.title, tile.description, reverse(tile.url_name)) for tile in tiles if tile.shown_to(user)]
