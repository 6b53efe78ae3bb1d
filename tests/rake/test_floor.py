"""The rake app's tablet pages: the calculator (a pot in, the rake and each drop out, with the rule for
each), log a round (the same, recorded), and the verification of time charges."""

from __future__ import annotations

import re

from django.test import Client

from casino_backoffice.core.middleware import POLICY
from casino_backoffice.ledger.models import Transfer
from casino_backoffice.staff.roles import Role
from tables.models import Round, Table
from tests.pages import assert_no_inline_script_or_style


def browser_for(user) -> Client:
    browser = Client()
    browser.force_login(user)
    return browser


def test_a_dealer_sees_the_rake_and_each_drop_with_its_rule(rated_table, dealer):
    page = browser_for(dealer).get(
        "/floor/rake-calculator/",
        {"table": rated_table.pk, "pot": "120.00", "uncalled_bet": "20.00", "flop_dealt": "yes"},
    )
    assert page.status_code == 200
    html = page.content.decode()
    assert page["Content-Security-Policy"] == POLICY
    assert "$100.00" in html  # the pot without the uncalled bet
    assert '<td class="big">Rake</td><td class="big">$5.00</td>' in html
    assert "capped at the maximum of $5.00 per round" in html
    assert '<td class="big">Bad Beat</td><td class="big">$1.00</td>' in html
    assert '<td class="big">High Hand</td><td class="big">$2.00</td>' in html
    assert '<td class="big">To the winner</td><td class="big">$92.00</td>' in html
    assert_no_inline_script_or_style(html)  # the number pad is a static file


def test_no_flop_no_drop_on_the_tablet(rated_table, floorperson):
    html = (
        browser_for(floorperson)
        .get("/floor/rake-calculator/", {"table": rated_table.pk, "pot": "40.00", "flop_dealt": "no"})
        .content.decode()
    )
    assert "No rake: no flop, no drop" in html


def test_bad_amounts_are_explained(rated_table, dealer):
    html = (
        browser_for(dealer)
        .get("/floor/rake-calculator/", {"table": rated_table.pk, "pot": "10.005", "flop_dealt": "yes"})
        .content.decode()
    )
    assert "10.005 has a fraction of a cent" in html


def test_only_dealers_and_floor_staff(rated_table, make_staff):
    page = browser_for(make_staff(Role.CAGE_CASHIER)).get("/floor/rake-calculator/")
    assert page.status_code == 403


def test_the_calculator_api(rated_table, dealer):
    from rest_framework.test import APIClient

    api = APIClient()
    api.force_authenticate(dealer)
    data = api.post(
        "/api/rake-calculator/", {"table": "T1", "pot": "120.00", "uncalled_bet": "20.00"}, format="json"
    ).json()
    assert (data["rake"], data["to_winner"]) == ("5.00", "92.00")
    assert [(d["jackpot"], d["amount"]) for d in data["drops"]] == [("bb", "1.00"), ("hh", "2.00")]


def test_an_uncalled_bet_above_the_pot_is_refused_as_a_round_is(rated_table, dealer):
    from rest_framework.test import APIClient

    message = "The uncalled bet 130.00 is larger than the pot 120.00."
    api = APIClient()
    api.force_authenticate(dealer)
    response = api.post(
        "/api/rake-calculator/", {"table": "T1", "pot": "120.00", "uncalled_bet": "130.00"}, format="json"
    )
    assert response.status_code == 400 and response.json()["uncalled_bet"] == [message]
    page = browser_for(dealer).get(
        "/floor/rake-calculator/",
        {"table": rated_table.pk, "pot": "120.00", "uncalled_bet": "130.00", "flop_dealt": "yes"},
    )
    assert message in page.content.decode()


# --- Log a round ----------------------------------------------------------------------------------

ROUND = {"pot": "120.00", "uncalled_bet": "20.00", "players_dealt_in": "6", "flop_dealt": "yes", "voided": "no"}


def _form_key(html: str) -> str:
    match = re.search(r'name="idempotency_key" value="([^"]+)"', html)
    assert match, "the form carries its idempotency key"
    return match.group(1)


def test_a_dealer_logs_a_round_and_sees_what_it_took_and_why(rated_table, dealer):
    tablet = browser_for(dealer)
    page = tablet.get("/floor/rounds/log/").content.decode()
    assert_no_inline_script_or_style(page)
    key = _form_key(page)

    response = tablet.post("/floor/rounds/log/", {**ROUND, "table": rated_table.pk, "idempotency_key": key})

    round_ = Round.objects.get()
    assert response.status_code == 302 and response["Location"] == f"/floor/rounds/log/?recorded={round_.pk}"
    assert (round_.pot_cents, round_.uncalled_bet_cents, round_.players_dealt_in, round_.rake_cents) == (
        12000,
        2000,
        6,
        500,
    )
    assert (round_.created_by, round_.idempotency_key) == (dealer, key)
    html = tablet.get(response["Location"]).content.decode()
    assert f"Round {round_.pk} recorded at table T1." in html
    assert '<td class="big">Rake</td><td class="big">$5.00</td>' in html
    assert "capped at the maximum of $5.00 per round" in html  # the same words as the calculator
    assert '<td class="big">Bad Beat</td><td class="big">$1.00</td>' in html
    assert '<td class="big">High Hand</td><td class="big">$2.00</td>' in html
    assert '<td class="big">To the winner</td><td class="big">$92.00</td>' in html
    assert _form_key(html) != key  # the next round gets a form of its own


def test_a_voided_round_shows_its_pot_returned_to_the_players_not_a_winner(rated_table, dealer):
    tablet = browser_for(dealer)
    key = _form_key(tablet.get("/floor/rounds/log/").content.decode())

    response = tablet.post(
        "/floor/rounds/log/", {**ROUND, "table": rated_table.pk, "idempotency_key": key, "voided": "yes"}
    )

    round_ = Round.objects.get()
    assert round_.voided and round_.rake_cents == 0
    html = tablet.get(response["Location"]).content.decode()
    assert "To the winner" not in html
    assert '<td class="big">Returned to the players</td><td class="big">$120.00</td>' in html  # with the uncalled bet
    assert "(§637a.18(i))" in html and '<span class="state voided">voided</span>' in html


def test_a_refund_leaves_the_pot_before_the_rake_on_the_tablet(rated_table, dealer):
    tablet = browser_for(dealer)
    key = _form_key(tablet.get("/floor/rounds/log/").content.decode())

    # A refund the pot cannot pay is marked on its field and records nothing
    refused = tablet.post(
        "/floor/rounds/log/", {**ROUND, "table": rated_table.pk, "idempotency_key": key, "refund": "100.01"}
    )
    assert refused.status_code == 200 and not Round.objects.exists()
    assert "The refund $100.01 is larger than the pot without the uncalled bet $100.00." in refused.content.decode()

    # $75.00 refunded to seat 4 of a $120.00 pot with $20.00 uncalled: the rake is taken on $25.00
    response = tablet.post(
        "/floor/rounds/log/", {**ROUND, "table": rated_table.pk, "idempotency_key": key, "refund": "75.00"}
    )
    round_ = Round.objects.get()
    assert (round_.refund_cents, round_.rake_cents) == (7500, 200)
    html = tablet.get(response["Location"]).content.decode()
    assert '<td class="big">Refunded to a player</td><td class="big">$75.00</td>' in html
    assert "(without the uncalled bet and any refund): <strong>$25.00</strong>" in html
    assert '<td class="big">To the winner</td><td class="big">$22.00</td>' in html  # $25 less $2 rake and $1 bb


def test_the_same_form_sent_twice_records_one_round(rated_table, dealer):
    tablet = browser_for(dealer)
    key = _form_key(tablet.get("/floor/rounds/log/").content.decode())
    form = {**ROUND, "table": rated_table.pk, "idempotency_key": key}

    first = tablet.post("/floor/rounds/log/", form)
    transfers = Transfer.objects.count()
    second = tablet.post("/floor/rounds/log/", form, follow=True)

    assert Round.objects.count() == 1 and Transfer.objects.count() == transfers == 3  # rake, bb, hh
    round_ = Round.objects.get()
    assert first["Location"] == f"/floor/rounds/log/?recorded={round_.pk}"
    assert (
        f"Round {round_.pk} was already recorded by this form; it counts once. Log the next round below."
        in second.content.decode()
    )


def test_a_bad_pot_is_explained_and_nothing_is_recorded(rated_table, dealer):
    tablet = browser_for(dealer)
    key = _form_key(tablet.get("/floor/rounds/log/").content.decode())

    response = tablet.post(
        "/floor/rounds/log/", {**ROUND, "pot": "10.005", "table": rated_table.pk, "idempotency_key": key}
    )

    html = response.content.decode()
    assert response.status_code == 200
    assert "Nothing was recorded: correct what is marked below." in html
    assert "10.005 has a fraction of a cent" in html
    assert _form_key(html) == key  # nothing was recorded under it: the corrected form may use it
    assert Round.objects.count() == 0 and Transfer.objects.count() == 0


def test_a_round_the_rules_refuse_is_explained_and_nothing_is_recorded(rated_table, dealer):
    closed = Table.objects.get(number="T2")  # in the rules, not open
    tablet = browser_for(dealer)
    page = tablet.get("/floor/rounds/log/").content.decode()
    assert f'<option value="{closed.pk}"' not in page  # only open tables are offered

    response = tablet.post("/floor/rounds/log/", {**ROUND, "table": closed.pk, "idempotency_key": _form_key(page)})

    assert (
        "Nothing was recorded. Table T2 is closed; a floorperson opens it before rounds are logged."
        in response.content.decode()
    )
    assert Round.objects.count() == 0 and Transfer.objects.count() == 0


def test_only_dealers_and_floor_staff_log_rounds(rated_table, make_staff):
    tablet = browser_for(make_staff(Role.CAGE_CASHIER))
    assert tablet.get("/floor/rounds/log/").status_code == 403
    response = tablet.post("/floor/rounds/log/", {**ROUND, "table": rated_table.pk, "idempotency_key": "k-1"})
    assert response.status_code == 403
    assert Round.objects.count() == 0


def test_a_floorperson_logs_a_round_too(rated_table, floorperson):
    tablet = browser_for(floorperson)
    key = _form_key(tablet.get("/floor/rounds/log/").content.decode())
    assert (
        tablet.post("/floor/rounds/log/", {**ROUND, "table": rated_table.pk, "idempotency_key": key}).status_code == 302
    )
    assert Round.objects.get().created_by == floorperson


def test_log_a_round_opens_on_the_table_last_dealt_or_just_opened(rated_table, dealer, floorperson):
    from tables.services import table_set_open

    t2 = Table.objects.get(room=rated_table.room, number="T2")
    table_set_open(table=t2, is_open=True, actor=floorperson)
    tablet = browser_for(dealer)
    key = _form_key(tablet.get("/floor/rounds/log/").content.decode())
    tablet.post("/floor/rounds/log/", {**ROUND, "table": t2.pk, "idempotency_key": key})

    page = tablet.get("/floor/rounds/log/").content.decode()
    assert f'<option value="{t2.pk}" selected>' in page  # the table of the dealer's last round

    floor = browser_for(floorperson)
    assert f'<option value="{t2.pk}" selected>' in floor.get("/floor/rounds/log/").content.decode()  # just opened
    table_set_open(table=rated_table, is_open=False, actor=floorperson)
    table_set_open(table=rated_table, is_open=True, actor=floorperson)
    assert f'<option value="{rated_table.pk}" selected>' in floor.get("/floor/rounds/log/").content.decode()

    table_set_open(table=t2, is_open=False, actor=floorperson)  # closed since: not chosen for the dealer
    assert f'<option value="{t2.pk}" selected>' not in tablet.get("/floor/rounds/log/").content.decode()
    assert t2.history.latest().history_user == floorperson  # who closed it, though no page did
