"""The tablet rake calculator: a pot in, the rake and each drop out, with the rule for each."""

from __future__ import annotations

from django.test import Client

from casino_backoffice.core.middleware import POLICY
from casino_backoffice.staff.roles import Role

from . import factories

rules = factories.rules
rated_table = factories.rated_table



def browser_for(user) -> Client:
    browser = Client()
    browser.force_login(user)
    return browser


def test_a_dealer_sees_the_rake_and_each_drop_with_its_rule(rated_table, dealer):
    page = browser_for(dealer).get(
        "/floor/rake-calculator/", {"table": rated_table.pk, "pot": "120.00", "uncalled_bet": "20.00", "flop_dealt": "yes"}
    )
    assert page.status_code == 200
    html = page.content.decode()
    assert page["Content-Security-Policy"] == POLICY
    assert "$100.00" in html  # the pot without the uncalled bet
    assert "<td class=\"big\">Rake</td><td class=\"big\">$5.00</td>" in html
    assert "capped at the maximum of $5.00 per round" in html
    assert "<td class=\"big\">Bad Beat</td><td class=\"big\">$1.00</td>" in html
    assert "<td class=\"big\">High Hand</td><td class=\"big\">$2.00</td>" in html
    assert "<td class=\"big\">To the winner</td><td class=\"big\">$92.00</td>" in html
    assert "<script" not in html and "style=" not in html


def test_no_flop_no_drop_on_the_tablet(rated_table, floorperson):
    html = browser_for(floorperson).get("/floor/rake-calculator/", {"table": rated_table.pk, "pot": "40.00", "flop_dealt": "no"}).content.decode()
    assert "No rake: no flop, no drop" in html


def test_bad_amounts_are_explained(rated_table, dealer):
    html = browser_for(dealer).get("/floor/rake-calculator/", {"table": rated_table.pk, "pot": "10.005", "flop_dealt": "yes"}).content.decode()
    assert "10.005 has a fraction of a cent" in html


def test_only_dealers_and_floor_staff(rated_table, make_staff):
    page = browser_for(make_staff(Role.CAGE_CASHIER)).get("/floor/rake-calculator/")
    assert page.status_code == 403


def test_the_calculator_api(rated_table, dealer):
    from rest_framework.test import APIClient

    api = APIClient()
    api.force_authenticate(dealer)
    data = api.post("/api/rake-calculator/", {"table": "T1", "pot": "120.00", "uncalled_bet": "20.00"}, format="json").json()
    assert (data["rake"], data["to_winner"]) == ("5.00", "92.00")
    assert [(d["jackpot"], d["amount"]) for d in data["drops"]] == [("bb", "1.00"), ("hh", "2.00")]


def test_an_uncalled_bet_above_the_pot_is_refused_as_a_round_is(rated_table, dealer):
    from rest_framework.test import APIClient

    message = "The uncalled bet 130.00 is larger than the pot 120.00."
    api = APIClient()
    api.force_authenticate(dealer)
    response = api.post("/api/rake-calculator/", {"table": "T1", "pot": "120.00", "uncalled_bet": "130.00"}, format="json")
    assert response.status_code == 400 and response.json() == {"uncalled_bet": [message]}
    page = browser_for(dealer).get("/floor/rake-calculator/", {"table": rated_table.pk, "pot": "120.00", "uncalled_bet": "130.00", "flop_dealt": "yes"})
    assert message in page.content.decode()
