"""Tablet pages of the jackpots, included by the tablet site's root (``casino_backoffice/floor_urls.py``):
the Bad Beat's, the High Hand's, then the progressive meters' of the banked games."""

from django.urls import path

from . import high_hand, progressive, views

urlpatterns = [
    path("bad-beat/claim/", views.claim_page, name="bad-beat-claim"),
    path("bad-beat/claims/", views.claims_list, name="bad-beat-claims"),
    path("bad-beat/claims/<int:claim_id>/", views.claim_detail, name="bad-beat-claim-detail"),
    path("bad-beat/decide/", views.decide_page, name="bad-beat-decide"),
    path("bad-beat/decide/<int:claim_id>/verify/", views.claim_verify_page, name="bad-beat-verify"),
    path("bad-beat/decide/<int:claim_id>/deny/", views.claim_deny_page, name="bad-beat-deny"),
    path("bad-beat/payouts/", views.payouts_page, name="bad-beat-payouts"),
    path("bad-beat/payouts/shares/<int:share_id>/pay/", views.share_pay_page, name="bad-beat-pay"),
    path("bad-beat/display/witness/", views.witness_page, name="bad-beat-witness"),
    path("bad-beat/display/<int:adjustment_id>/witness/", views.witness_sign, name="bad-beat-witness-sign"),
    path("bad-beat/funds/", views.funds_page, name="bad-beat-funds"),
    path("bad-beat/funds/<int:jackpot_id>/adjust/", views.display_adjust_page, name="bad-beat-adjust"),
    path(
        "bad-beat/funds/claims/<int:claim_id>/distribute/", views.distribution_prepare_page, name="bad-beat-distribute"
    ),
    path("high-hand/", high_hand.slip_page, name="high-hand-slip"),
    path("high-hand/record/", high_hand.record_page, name="high-hand-record"),
    path("high-hand/periods/<int:period_id>/", high_hand.period_page, name="high-hand-period"),
    path("high-hand/entries/<int:entry_id>/void/", high_hand.void_page, name="high-hand-void"),
    path("progressive/round/", progressive.record_page, name="progressive-round"),
    path("progressive/rounds/<int:round_id>/", progressive.round_detail, name="progressive-round-detail"),
    path("progressive/rounds/<int:round_id>/hands/", progressive.hand_page, name="progressive-hand"),
    path("progressive/validate/", progressive.validate_page, name="progressive-validate"),
    path("progressive/hands/<int:hand_id>/validate/", progressive.validate_sign, name="progressive-validate-sign"),
    path("progressive/meters/", progressive.meters_page, name="progressive-meters"),
    path("progressive/meters/<int:meter_id>/reset/", progressive.reset_page, name="progressive-reset"),
    path("progressive/exceptions/<int:exception_id>/explain/", progressive.explain_page, name="progressive-explain"),
]
