"""Tablet pages of the jackpots, included by the tablet site's root (``casino_backoffice/floor_urls.py``):
the Bad Beat's, the High Hand's, then the progressive meters' of the banked games; and the tiles of
each on the tablet home page (the display board itself is ``jackpots.board.urls``, outside the tablet
site)."""

from django.urls import path

from jackpots.bad_beat.floor import tiles as bad_beat_tiles
from jackpots.bad_beat.floor.views import claims as bad_beat_claims
from jackpots.bad_beat.floor.views import decide as bad_beat_decide
from jackpots.bad_beat.floor.views import funds as bad_beat_funds
from jackpots.bad_beat.floor.views import payouts as bad_beat_payouts
from jackpots.board import tiles as board_tiles
from jackpots.high_hand.floor import tiles as high_hand_tiles
from jackpots.high_hand.floor import views as high_hand_floor
from jackpots.progressive.floor import tiles as progressive_tiles
from jackpots.progressive.floor.views import meters as progressive_meters
from jackpots.progressive.floor.views import rounds as progressive_rounds
from jackpots.progressive.floor.views import validate as progressive_validate

TILES = (*bad_beat_tiles.TILES, *high_hand_tiles.TILES, *progressive_tiles.TILES, *board_tiles.TILES)

urlpatterns = [
    path("bad-beat/claim/", bad_beat_claims.claim_page, name="bad-beat-claim"),
    path("bad-beat/claims/", bad_beat_claims.claims_list, name="bad-beat-claims"),
    path("bad-beat/claims/<int:claim_id>/", bad_beat_claims.claim_detail, name="bad-beat-claim-detail"),
    path("bad-beat/decide/", bad_beat_decide.decide_page, name="bad-beat-decide"),
    path("bad-beat/decide/<int:claim_id>/verify/", bad_beat_decide.claim_verify_page, name="bad-beat-verify"),
    path("bad-beat/decide/<int:claim_id>/deny/", bad_beat_decide.claim_deny_page, name="bad-beat-deny"),
    path("bad-beat/payouts/", bad_beat_payouts.payouts_page, name="bad-beat-payouts"),
    path("bad-beat/payouts/shares/<int:share_id>/pay/", bad_beat_payouts.share_pay_page, name="bad-beat-pay"),
    path("bad-beat/display/witness/", bad_beat_funds.witness_page, name="bad-beat-witness"),
    path("bad-beat/display/<int:adjustment_id>/witness/", bad_beat_funds.witness_sign, name="bad-beat-witness-sign"),
    path("bad-beat/funds/", bad_beat_funds.funds_page, name="bad-beat-funds"),
    path("bad-beat/funds/<int:jackpot_id>/adjust/", bad_beat_funds.display_adjust_page, name="bad-beat-adjust"),
    path(
        "bad-beat/funds/claims/<int:claim_id>/distribute/",
        bad_beat_funds.distribution_prepare_page,
        name="bad-beat-distribute",
    ),
    path("high-hand/", high_hand_floor.slip_page, name="high-hand-slip"),
    path("high-hand/record/", high_hand_floor.record_page, name="high-hand-record"),
    path("high-hand/periods/<int:period_id>/", high_hand_floor.period_page, name="high-hand-period"),
    path("high-hand/entries/<int:entry_id>/void/", high_hand_floor.void_page, name="high-hand-void"),
    path("progressive/round/", progressive_rounds.record_page, name="progressive-round"),
    path("progressive/rounds/<int:round_id>/", progressive_rounds.round_detail, name="progressive-round-detail"),
    path("progressive/rounds/<int:round_id>/hands/", progressive_rounds.hand_page, name="progressive-hand"),
    path("progressive/validate/", progressive_validate.validate_page, name="progressive-validate"),
    path(
        "progressive/hands/<int:hand_id>/validate/",
        progressive_validate.validate_sign,
        name="progressive-validate-sign",
    ),
    path("progressive/meters/", progressive_meters.meters_page, name="progressive-meters"),
    path("progressive/meters/<int:meter_id>/reset/", progressive_meters.reset_page, name="progressive-reset"),
    path(
        "progressive/exceptions/<int:exception_id>/explain/",
        progressive_meters.explain_page,
        name="progressive-explain",
    ),
]
