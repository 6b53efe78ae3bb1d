"""The tables app's tiles on the tablet home page."""

from casino_backoffice.core.floor.tiles import Tile

TILES = (Tile("Tables", "See every table; floorpersons open and close them.", "floor:tables"),)
