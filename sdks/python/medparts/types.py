"""The TypedDicts of the request bodies and answers, generated from the OpenAPI document (``_operations.py``).

    from medparts.types import CreateOrderRequest, OrderCreated
"""

from ._operations import *  # noqa: F401,F403  (re-exports _operations.__all__)
