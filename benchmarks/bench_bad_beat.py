"""The Bad Beat at scale: a claim from the table to the last share paid, the display board with a long
history of claims, and many people paying one share at once (PostgreSQL only).

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/casino_bb_bench \\
        .venv/bin/python benchmarks/bench_bad_beat.py [--claims 300] [--contenders 20] [--quick]

``--quick`` runs the same steps in a few seconds: 3 Bad Beats and 3 contenders (``make test`` runs it).

What it does, on a fresh database of that name (dropped and created):
1. Staff of every role, each given all rooms; the all-rooms administrator opens room ``main`` by loading
   the demo rules (Bad Beat ``bb`` at the Hold'em tables).
2. ``--claims`` Bad Beats one after another at T1 (up to 767, each a hand of its own), each through the
   services a tablet and the admin call: the fund made official (one cage verification's transfer of
   $1,000.00), the claim opened by a floorperson, verified by the shift supervisor, distributed by
   finance, every share paid (six: the two hands and four other players), the display adjusted and
   witnessed. Prints the time of each
   step (median and 99th percentile) and the whole lifecycle per claim.
3. The display board's state (``jackpots.board.selectors.display_state``) and the fund positions after that
   history: median time and queries.
4. ``--contenders`` threads, each with its own connection and key, paying the same share at the same
   moment: how many paid, how long the slowest waited.

Prints figures; asserts only that nothing was paid twice. The tests run it with ``--quick`` only.
"""

from __future__ import annotations

import argparse
import itertools
import os
import statistics
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
PIN = "2468"


def _fresh_database(url: str) -> None:
    import psycopg

    name = url.rsplit("/", 1)[1].split("?")[0]
    with psycopg.connect(url.rsplit("/", 1)[0] + "/postgres", autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}"')
        conn.execute(f'CREATE DATABASE "{name}"')


def _django() -> None:
    sys.path.insert(0, str(ROOT))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "casino_backoffice.settings")
    import django

    django.setup()
    from django.conf import settings
    from django.core.management import call_command

    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    call_command("migrate", verbosity=0)


def _ms(seconds: list[float]) -> str:
    ordered = sorted(seconds)
    p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]
    return f"median {statistics.median(ordered) * 1000:7.1f} ms   p99 {p99 * 1000:7.1f} ms"


_SUIT_ORDERS = list(itertools.permutations("cdhs"))


def _hand(n: int) -> dict[str, str]:
    """The ``n``-th Bad Beat at T1, a hand of its own (a hand is claimed once): four of a rank beating
    aces full of kings, queens, jacks or tens, in each order of the suits (768 hands)."""
    suits = dict(zip("cdhs", _SUIT_ORDERS[n % 24], strict=True))
    pair, quads = "KQJT"[n // 24 % 4], "98765432"[n // 96 % 8]

    def cards(text: str) -> str:
        return " ".join(card[0].replace("K", pair).replace("7", quads) + suits[card[1]] for card in text.split())

    return {"board": cards("Ad Ac Kc 7s 7h"), "losing": cards("As Ks"), "winning": cards("7d 7c")}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--claims", type=int, default=300)
    parser.add_argument("--contenders", type=int, default=20)
    parser.add_argument(
        "--quick", action="store_true", help="the same steps in seconds: 3 claims, 3 contenders (make test runs it)"
    )
    args = parser.parse_args()
    if args.quick:
        args.claims, args.contenders = 3, 3
    url = os.environ.get("DATABASE_URL", "")
    if not url.startswith("postgres"):
        sys.exit("Set DATABASE_URL to a PostgreSQL database this benchmark may drop and create.")
    _fresh_database(url)
    _django()

    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from casino_backoffice.ledger.models import AccountKind, TransferKind
    from casino_backoffice.ledger.selectors import ledger_total
    from casino_backoffice.ledger.services import AccountSpec, account_open_as, transfer_post_atomic
    from casino_backoffice.staff.roles import Role
    from casino_backoffice.staff.services import staff_create
    from jackpots.bad_beat.exceptions import ShareAlreadyPaid
    from jackpots.bad_beat.models import BadBeatPayment
    from jackpots.bad_beat.selectors import fund_positions
    from jackpots.bad_beat.services.claims import SeatedHand, SeatedPlayer, claim_open, claim_verify
    from jackpots.bad_beat.services.display import display_adjust, display_witness
    from jackpots.bad_beat.services.payouts import distribution_prepare, share_pay
    from jackpots.board.selectors import display_state
    from jackpots.funds.accounts import jackpot_fund_account
    from jackpots.funds.models import Jackpot
    from rake.services import rules_load
    from tables.models import Table

    password = "bench-only-password"  # noqa: S105 - a throwaway database
    staff = {
        role: staff_create(
            username=role.value,
            role=role,
            credential_number=f"PA-B-{n:03d}",
            password=password,
            pin=PIN,
            all_rooms=True,
        )
        for n, role in enumerate(Role)
    }
    # A new room is opened by an all-rooms administrator, who loads its first rules.
    rules_load(text=(ROOT / "demo" / "rules.yaml").read_text(), actor=staff[Role.ADMINISTRATOR])
    table = Table.objects.select_related("room").get(number="T1")
    fund = Jackpot.objects.get(room=table.room, code="bb")
    cage = account_open_as(AccountSpec(code="bench:cage", name="Bench cage", kind=AccountKind.CAGE))
    others = [SeatedPlayer(1, "Pat"), SeatedPlayer(2, "Sam"), SeatedPlayer(5, "Lee"), SeatedPlayer(9, "Kim")]
    steps: dict[str, list[float]] = {}

    def timed(step: str, call: Callable[[], Any]) -> Any:
        started = time.perf_counter()
        result = call()
        steps.setdefault(step, []).append(time.perf_counter() - started)
        return result

    print(f"{args.claims} Bad Beats, each from the claim to the adjusted display ...", flush=True)
    for n in range(args.claims):
        transfer_post_atomic(
            debit=account_open_as(jackpot_fund_account(jackpot=fund)),
            credit=cage,
            amount_cents=100_000,
            kind=TransferKind.VERIFICATION,
            idempotency_key=f"bench-official-{n}",
            actor=staff[Role.CAGE_CASHIER],
        )
        hand = _hand(n)
        started = time.perf_counter()
        claim = timed(
            "claim_open",
            lambda n=n, hand=hand: claim_open(
                jackpot=fund,
                table=table,
                players_dealt_in=6,
                board=hand["board"],
                losing=SeatedHand(3, "Ann", hand["losing"]),
                winning=SeatedHand(7, "Walt", hand["winning"]),
                others=others,
                actor=staff[Role.FLOORPERSON],
                pin=PIN,
                idempotency_key=f"bench-claim-{n}",
            ),
        )
        timed(
            "claim_verify", lambda claim=claim: claim_verify(claim=claim, actor=staff[Role.SHIFT_SUPERVISOR], pin=PIN)
        )
        distribution = timed(
            "distribution_prepare",
            lambda n=n, claim=claim: distribution_prepare(
                claim=claim, actor=staff[Role.FINANCE], pin=PIN, idempotency_key=f"bench-dist-{n}"
            ),
        )
        for share in distribution.shares.all():
            timed(
                "share_pay",
                lambda share=share: share_pay(
                    share=share,
                    id_type="License",
                    id_number="1",
                    actor=staff[Role.CAGE_CASHIER],
                    pin=PIN,
                    idempotency_key=f"bench-pay-{share.pk}",
                ),
            )
        adjustment = timed(
            "display_adjust",
            lambda n=n: display_adjust(
                jackpot=fund, actor=staff[Role.FINANCE], pin=PIN, idempotency_key=f"bench-adj-{n}"
            ),
        )
        timed(
            "display_witness",
            lambda adjustment=adjustment: display_witness(
                adjustment=adjustment, actor=staff[Role.FLOORPERSON], pin=PIN
            ),
        )
        steps.setdefault("whole Bad Beat", []).append(time.perf_counter() - started)
    for step, seconds in steps.items():
        print(f"  {step:<22} {len(seconds):6d} calls   {_ms(seconds)}")

    board: list[float] = []
    for _ in range(21):
        with CaptureQueriesContext(connection) as captured:
            started = time.perf_counter()
            display_state(room=table.room)
            board.append(time.perf_counter() - started)
    print(f"display board after {args.claims} Bad Beats: {len(captured)} queries, {_ms(board)}")
    positions = fund_positions(jackpots=[fund])
    print(f"fund bb: official {positions[fund.pk].official_cents} cents, owed {positions[fund.pk].owed_cents}")

    transfer_post_atomic(
        debit=account_open_as(jackpot_fund_account(jackpot=fund)),
        credit=cage,
        amount_cents=100_000,
        kind=TransferKind.VERIFICATION,
        idempotency_key="bench-official-contended",
        actor=staff[Role.CAGE_CASHIER],
    )
    contended = _hand(args.claims)
    claim = claim_open(
        jackpot=fund,
        table=table,
        players_dealt_in=6,
        board=contended["board"],
        losing=SeatedHand(3, "Ann", contended["losing"]),
        winning=SeatedHand(7, "Walt", contended["winning"]),
        others=others,
        actor=staff[Role.FLOORPERSON],
        pin=PIN,
        idempotency_key="bench-claim-contended",
    )
    claim_verify(claim=claim, actor=staff[Role.SHIFT_SUPERVISOR], pin=PIN)
    share = distribution_prepare(
        claim=claim, actor=staff[Role.FINANCE], pin=PIN, idempotency_key="bench-dist-contended"
    ).shares.first()
    assert share is not None
    start = threading.Barrier(args.contenders)
    outcomes: list[tuple[str, float]] = []
    lock = threading.Lock()

    def contend(n: int) -> None:
        try:
            start.wait(timeout=30)
            began = time.perf_counter()
            try:
                share_pay(
                    share=share,
                    id_type="License",
                    id_number="1",
                    actor=staff[Role.CAGE_CASHIER],
                    pin=PIN,
                    idempotency_key=f"bench-contend-{n}",
                )
                outcome = "paid"
            except ShareAlreadyPaid:
                outcome = "refused"
            with lock:
                outcomes.append((outcome, time.perf_counter() - began))
        finally:
            connection.close()

    threads = [threading.Thread(target=contend, args=(n,)) for n in range(args.contenders)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    paid = [seconds for outcome, seconds in outcomes if outcome == "paid"]
    assert len(paid) == 1 and BadBeatPayment.objects.filter(share=share).count() == 1
    print(
        f"{args.contenders} people paying one share at once: {len(paid)} paid, "
        f"{len(outcomes) - len(paid)} refused; slowest answer {max(s for _, s in outcomes) * 1000:.1f} ms"
    )
    assert ledger_total() == 0
    print("ledger: debits equal credits")


if __name__ == "__main__":
    main()
