"""The tablet site under /floor/ (namespace ``floor``): a composition root, one of the few modules that
name every app. Each app owns its tablet pages (``<app>/floor/urls.py``) and the tiles that lead to
them (``<app>/floor/tiles.py``); this module puts them together and hands every tile to the kernel's
home page, which shows each person the tiles of their roles."""

from django.urls import include, path

from cage.floor import tiles as cage_tiles
from casino_backoffice.staff.floor import tiles as staff_tiles
from casino_backoffice.staff.floor.views import home
from jackpots import floor_urls as jackpots_floor
from rake.floor import tiles as rake_tiles
from tables.equipment.floor import tiles as equipment_tiles
from tables.floor import tiles as tables_tiles
from tables.irregularities.floor import tiles as irregularities_tiles

app_name = "floor"

# The home page's tiles, in the order a person reads them.
TILES = (
    *tables_tiles.TILES,
    *rake_tiles.TILES,
    *irregularities_tiles.TILES,
    *equipment_tiles.TILES,
    *cage_tiles.TILES,
    *jackpots_floor.TILES,
    *staff_tiles.TILES,
)

urlpatterns = [
    path("", home, {"tiles": TILES}, name="home"),
    path("", include("casino_backoffice.staff.floor.urls")),
    path("", include("tables.floor.urls")),
    path("", include("tables.irregularities.floor.urls")),
    path("", include("tables.equipment.floor.urls")),
    path("", include("rake.floor.urls")),
    path("", include("cage.floor.urls")),
    path("", include("jackpots.floor_urls")),
]
