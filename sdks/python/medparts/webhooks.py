"""Verifying Medparts webhook deliveries.

A delivery is a ``POST`` of the event as JSON with the header
``Medparts-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>." + raw body>``, keyed with the endpoint's
signing secret (``whsec_...``, shown once when the endpoint is created). Verify the raw bytes of the body, before
parsing them; deliveries more than 5 minutes from your clock are refused, so a captured one cannot be replayed.

The algorithm is the one of the API's reference snippet (``portal/snippets/verify_webhook.py``)::

    from medparts.webhooks import construct_event, SignatureVerificationError

    def handle(request):  # Flask: request.get_data(); Django: request.body
        try:
            event = construct_event(request.get_data(), request.headers.get("Medparts-Signature"), SECRET)
        except SignatureVerificationError:
            return "", 400
        ...  # de-duplicate on event["id"]: a delivery can come twice
        return "", 204
"""

import hashlib
import hmac
import json
import time
from typing import Any, Dict, Optional, Union

from .errors import SignatureVerificationError

__all__ = [
    "SIGNATURE_HEADER",
    "EVENT_ID_HEADER",
    "EVENT_TYPE_HEADER",
    "DEFAULT_TOLERANCE",
    "verify_signature",
    "construct_event",
    "sign",
    "SignatureVerificationError",
]

SIGNATURE_HEADER = "Medparts-Signature"
EVENT_ID_HEADER = "Medparts-Event-Id"
EVENT_TYPE_HEADER = "Medparts-Event-Type"
DEFAULT_TOLERANCE = 300
"""Seconds a signature's timestamp may be away from the clock (either way)."""


def _body_bytes(raw_body: Union[bytes, bytearray, memoryview, str]) -> bytes:
    if isinstance(raw_body, str):
        return raw_body.encode("utf-8")
    return bytes(raw_body)


def _parse(header: str) -> Dict[str, str]:
    return dict(part.split("=", 1) for part in header.split(",") if "=" in part)


def verify_signature(
    secret: str,
    header: Optional[str],
    raw_body: Union[bytes, bytearray, memoryview, str],
    tolerance: int = DEFAULT_TOLERANCE,
    *,
    now: Optional[float] = None,
) -> bool:
    """True when ``header`` (the ``Medparts-Signature`` value) signs ``raw_body`` with ``secret`` and its timestamp is
    at most ``tolerance`` seconds from ``now`` (default: the clock). Never raises: anything malformed is ``False``.

    ``raw_body`` must be the bytes as received (a ``str`` is encoded as UTF-8): parsing and re-serializing the JSON
    changes them.
    """
    if not isinstance(header, str) or not isinstance(secret, str):
        return False
    parts = _parse(header)
    try:
        t = int(parts.get("t", ""))
    except ValueError:
        return False
    current = time.time() if now is None else now
    if abs(current - t) > tolerance:
        return False
    expected = hmac.new(secret.encode(), f"{t}.".encode() + _body_bytes(raw_body), hashlib.sha256).hexdigest()
    given = parts.get("v1", "")
    try:
        return hmac.compare_digest(expected, given)
    except TypeError:  # a non-ASCII v1
        return False


def construct_event(
    raw_body: Union[bytes, bytearray, memoryview, str],
    header: Optional[str],
    secret: str,
    tolerance: int = DEFAULT_TOLERANCE,
    *,
    now: Optional[float] = None,
) -> Dict[str, Any]:
    """The delivered event (a dict: ``id``, ``type``, ``createdAt``, ``orderNumber``, ``sequence``, ``data``) once its
    signature verifies; raises :class:`SignatureVerificationError` otherwise (or when the body is not a JSON object).
    """
    if header is None or header == "":
        raise SignatureVerificationError(f"No {SIGNATURE_HEADER} header.")
    if not verify_signature(secret, header, raw_body, tolerance, now=now):
        raise SignatureVerificationError(
            f"The {SIGNATURE_HEADER} header does not sign this body with this secret, or is older than {tolerance} s."
        )
    try:
        event = json.loads(_body_bytes(raw_body).decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as exc:
        raise SignatureVerificationError("The signed body is not JSON.") from exc
    if not isinstance(event, dict):
        raise SignatureVerificationError("The signed body is not a JSON object.")
    return event


def sign(secret: str, raw_body: Union[bytes, bytearray, memoryview, str], timestamp: Optional[int] = None) -> str:
    """A ``Medparts-Signature`` value for ``raw_body``, as Medparts computes it: for testing your own receiver."""
    t = int(time.time()) if timestamp is None else int(timestamp)
    v1 = hmac.new(secret.encode(), f"{t}.".encode() + _body_bytes(raw_body), hashlib.sha256).hexdigest()
    return f"t={t},v1={v1}"
