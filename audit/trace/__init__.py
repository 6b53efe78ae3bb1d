"""The trace of a dollar (issue 29): from any link of a chain of money (a round, a box, a count, a
transport, a verification, a claim, a High Hand period or award, a progressive hit, a payment, a ledger
transfer), the whole chain it belongs to, with its transfers, signatures and reconciliations."""
