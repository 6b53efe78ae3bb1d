"""What the rake app announces to the apps above it, which it may not import (the layers of pyproject.toml)."""

from __future__ import annotations

from django.dispatch import Signal

# Sent inside the transaction that loads a rules version, once the room, its tables and their accounts
# exist: ``room`` (PokerRoom), ``version`` (RulesVersion) and ``rules`` (the parsed Rules). The cage
# knows the boxes of the version's tables from it, so that a read of the boxes never has to write.
rules_version_loaded = Signal()
