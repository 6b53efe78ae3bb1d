"""schemathesis hooks of ``make proof`` (scripts/schemathesis.toml names this file).

- ``before_call``: a generated PIN is almost never the signer's, so without help every signed action
  would stop at ``Wrong PIN`` and the fuzzer would never reach what a signature guards. In about half
  of the cases whose generated PIN already has a PIN's shape (4 to 8 digits), the proof's PIN
  (``PROOF_PIN``) takes its place: the case stays as valid or as invalid as it was generated, and
  which cases sign is decided by the case's own content, so a seed replays the same requests.
- ``shape_refusal``: the check that keeps ``positive_data_acceptance`` strict where the configuration
  lets a 400 pass (a rule of the floor refusing a well-formed request): a request the schema allows
  must never be refused for its shape (a type, a length, a choice, a required field or header),
  since then the schema and the serializer disagree.
- Hypothesis names each filter by parsing its source with ``ast.parse``, which this machine's
  CPython 3.11 failed to run in two threads at once ("AST constructor recursion depth mismatch", a
  schemathesis error, not the API's); with ``--workers 2`` the two workers take turns at it.
"""

from __future__ import annotations

import json
import os
import re
import threading
import zlib
from collections.abc import Callable, Iterator
from typing import Any

import schemathesis
from hypothesis.internal import lambda_sources

PIN_SHAPE = re.compile(r"[0-9]{4,8}")
PROOF_PIN = os.environ.get("PROOF_PIN", "")


@schemathesis.hook
def before_call(ctx: Any, case: Any, kwargs: dict[str, Any]) -> None:
    body = case.body
    if not PROOF_PIN or not isinstance(body, dict):
        return
    pin = body.get("pin")
    if not isinstance(pin, str) or not PIN_SHAPE.fullmatch(pin):
        return
    content = json.dumps(body, sort_keys=True, default=str).encode()
    if zlib.crc32(content) % 2 == 0:
        body["pin"] = PROOF_PIN


# DRF's words for a value of the wrong shape, and this API's own for its money fields and headers.
SHAPE_MESSAGES = re.compile(
    "|".join(
        [
            r"^This field is required\.$",
            r"^This field may not be (null|blank)\.$",
            r"^Not a valid string\.$",
            r"^A valid (integer|number) is required\.$",
            r"^Must be a valid boolean\.$",
            r"^Ensure this (field|value) has (no more than|at least) \d+",
            r"^Ensure this value is (less|greater) than or equal to",
            r"is not a valid choice\.$",
            r"^Expected a (list|dictionary)",
            r"^Invalid data\. Expected a dictionary",
            r"^This value does not match the required pattern\.$",
            r"^(Date|Datetime|Time) has wrong format",
            r"^This list may not be empty\.$",
            r"^String value too large\.$",
            r"is not an amount; write",
            r"^This header is required",
            r"^The key is at most \d+ characters\.$",
        ]
    )
)


# Fields whose keys OpenAPI 3.0 cannot describe (it has no ``propertyNames``): a count's denominations,
# {"5.00": 3}, say so in words; a key that is not an amount is refused with the money field's message.
UNDESCRIBABLE_KEYS = {
    ("POST", "/api/counts/", "denominations"),
    ("POST", "/api/counts/{id}/recount/", "denominations"),
}


def _messages(errors: Any, path: str = "") -> Iterator[tuple[str, str]]:
    if isinstance(errors, dict):
        for field, value in errors.items():
            yield from _messages(value, f"{path}.{field}" if path else str(field))
    elif isinstance(errors, list):
        for item in errors:
            yield from _messages(item, path)
    elif isinstance(errors, str):
        yield path, errors


@schemathesis.check
def shape_refusal(ctx: Any, response: Any, case: Any) -> bool | None:
    """A schema-valid request answered 400 is refused by a rule, never for its shape."""
    meta = case.meta
    if response.status_code != 400 or meta is None or not meta.generation.mode.is_positive:
        return None
    try:
        body = json.loads(response.content)
    except ValueError:
        return None  # not_a_server_error and response_schema_conformance judge a body that is not JSON
    if isinstance(body, dict) and body.get("code") == "parse_error":
        raise AssertionError(f"A request the schema allows could not be parsed: {body.get('detail')}")
    if isinstance(body, dict) and set(body) <= {"detail", "code"}:
        return None  # a rule's refusal, {detail, code}
    operation = (case.operation.method.upper(), case.operation.path)
    shape = [
        (field, message)
        for field, message in _messages(body)
        if SHAPE_MESSAGES.search(message) and (*operation, field) not in UNDESCRIBABLE_KEYS
    ]
    if shape:
        words = "; ".join(f"{field}: {message}" for field, message in shape)
        raise AssertionError(f"A request the schema allows was refused for its shape: {words}")
    return None


_ast_turns = threading.Lock()
_describe: Callable[..., Any] = lambda_sources._lambda_description  # noqa: SLF001 - the patched function


def _described_in_turn(*args: Any, **kwargs: Any) -> Any:
    with _ast_turns:
        return _describe(*args, **kwargs)


lambda_sources._lambda_description = _described_in_turn  # noqa: SLF001 - hypothesis has no public hook
