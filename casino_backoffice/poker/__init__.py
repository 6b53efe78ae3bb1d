"""placeholder"""
from .batch import best_high_batch
from .cards import Card, InvalidCards, parse_cards
from .crazy4 import Crazy4Hand, crazy4_best
from .hands import HandCategory
from .high import HighHand, best_high, high_hand_of, high_rank, omaha_high
from .low import AceToFiveLow, DeuceToSevenLow, LowHand, low_27, low_a5, omaha_low8
from .paytables import PAYTABLES, winning_line
from .qualifiers import BadBeatQualifier, HighHandMinimum
from .split import split_high_low, split_odd_chip
from .three_card import ThreeCardHand, three_card
