"""The jackpots in the admin, registered as each product's admin module is imported (Django imports
``jackpots.admin`` only): the funds and each round's drops (``jackpots.funds.admin``); the Bad Beat's
claims and their documents, its display and fund transfers (``jackpots.bad_beat.admin``); the High
Hand's periods, Tracking Slips, awards and reports (``jackpots.high_hand.admin``); the progressive
meters, their rounds and paytable returns, their hands, validations and payments
(``jackpots.progressive.admin``); and the jackpots' reports page (``jackpots.board.admin``)."""

from jackpots.bad_beat import admin as bad_beat
from jackpots.board import admin as board
from jackpots.funds import admin as funds
from jackpots.high_hand import admin as high_hand
from jackpots.progressive import admin as progressive

__all__ = ["bad_beat", "board", "funds", "high_hand", "progressive"]
