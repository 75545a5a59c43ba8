"""Medparts: the Python SDK of the Medparts parts-ordering API (customer and vendor APIs).

    from medparts import Medparts

    client = Medparts("CLIENT_ID", "CLIENT_SECRET", base_url="https://medparts.example")
    me = client.lookup_users(login_user_id="jsmith")

Every request pins ``Medparts-Version`` to :data:`API_VERSION`. See the README for retries, pages and webhooks.
"""

from . import webhooks
from ._client import DEFAULT_BASE_URL, ApiResponse, Headers, Medparts, __version__
from ._operations import API_VERSION, OPERATIONS, Operations
from .errors import (
    APIConnectionError,
    APIError,
    AuthenticationError,
    ConflictError,
    ConnectionError_,
    ForbiddenError,
    IdempotencyConflictError,
    MedpartsError,
    NotFoundError,
    PermissionError_,
    RateLimitError,
    ServerError,
    SignatureVerificationError,
    ValidationError,
)
from .webhooks import construct_event, verify_signature

__all__ = [
    "API_VERSION",
    "DEFAULT_BASE_URL",
    "OPERATIONS",
    "APIConnectionError",
    "APIError",
    "ApiResponse",
    "AuthenticationError",
    "ConflictError",
    "ConnectionError_",
    "ForbiddenError",
    "Headers",
    "IdempotencyConflictError",
    "Medparts",
    "MedpartsError",
    "NotFoundError",
    "Operations",
    "PermissionError_",
    "RateLimitError",
    "ServerError",
    "SignatureVerificationError",
    "ValidationError",
    "__version__",
    "construct_event",
    "verify_signature",
    "webhooks",
]
