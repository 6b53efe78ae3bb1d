"""Tablet pages of the cage: counts at a closed table, the notice to compliance, the witness,
security's custody, surveillance's counts to record and the boxes that arrive at the cage."""
