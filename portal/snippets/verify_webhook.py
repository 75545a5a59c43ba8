import hashlib
import hmac
import time


def verify_medparts_signature(secret: str, header: str, raw_body: bytes, tolerance_seconds: int = 300) -> bool:
    """True when header (Medparts-Signature) signs raw_body with secret and is at most 5 minutes old."""
    parts = dict(part.split("=", 1) for part in header.split(",") if "=" in part)
    try:
        t = int(parts.get("t", ""))
    except ValueError:
        return False
    if abs(time.time() - t) > tolerance_seconds:
        return False
    expected = hmac.new(secret.encode(), f"{t}.".encode() + raw_body, hashlib.sha256).hexdigest()
    return hmac.compare_digest(expected, parts.get("v1", ""))
