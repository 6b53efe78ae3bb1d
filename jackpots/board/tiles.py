"""The display board's tile on the tablet home page."""

from casino_backoffice.core.floor.tiles import Tile

TILES = (Tile("Display board", "What the players see: jackpot amounts and notices.", "display:index"),)
