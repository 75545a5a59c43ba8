"""Live tests of the Medparts Python SDK against a running deployment, in test mode (the sandbox).

Environment:
    MEDPARTS_URL                    the deployment, e.g. http://localhost:8787 (required)
    MEDPARTS_CLIENT_ID/_SECRET      a TEST-MODE buyer client (mpc_test_...); the tests refuse a live one
    MEDPARTS_VENDOR_CLIENT_ID/_SECRET  a vendor client (read-only use: it lists and reads its order lines)
    MEDPARTS_USER_ID                the user who orders (default 1); MEDPARTS_PRODUCT_ID (default MP-0000003)

The webhook test registers ``http://localhost:<port>/webhooks`` (a receiver on 127.0.0.1 in this process), which
only a local deployment accepts, and deletes it afterwards.

Run from the package directory::

    MEDPARTS_URL=http://localhost:8787 MEDPARTS_CLIENT_ID=... MEDPARTS_CLIENT_SECRET=... \\
    MEDPARTS_VENDOR_CLIENT_ID=... MEDPARTS_VENDOR_CLIENT_SECRET=... \\
        python3 -m unittest discover -s tests -p 'test_live.py' -v
"""

import http.server
import os
import re
import sys
import threading
import time
import unittest
import uuid
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from medparts import (  # noqa: E402
    API_VERSION,
    AuthenticationError,
    ConflictError,
    IdempotencyConflictError,
    Medparts,
    NotFoundError,
    SignatureVerificationError,
    ValidationError,
    construct_event,
)

BASE_URL = os.environ.get("MEDPARTS_URL", "").rstrip("/")
REQUIRED = ["MEDPARTS_URL", "MEDPARTS_CLIENT_ID", "MEDPARTS_CLIENT_SECRET", "MEDPARTS_VENDOR_CLIENT_ID", "MEDPARTS_VENDOR_CLIENT_SECRET"]
DECIMAL = re.compile(r"^\d+\.\d{2}$")


def setUpModule():
    missing = [name for name in REQUIRED if not os.environ.get(name)]
    if missing:
        raise RuntimeError(
            "The live tests need a running deployment and credentials: set " + ", ".join(missing)
            + " (MEDPARTS_URL=http://localhost:8787 for `npm start`; a test-mode buyer client and a vendor client)."
        )


class Receiver:
    """A webhook receiver on 127.0.0.1: keeps each delivery's raw body and headers, answers 204."""

    def __init__(self):
        self.deliveries = []
        self.arrived = threading.Condition()
        receiver = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_POST(self):
                raw = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                with receiver.arrived:
                    receiver.deliveries.append({"raw": raw, "headers": {k.lower(): v for k, v in self.headers.items()}})
                    receiver.arrived.notify_all()
                self.send_response(204)
                self.end_headers()

            def log_message(self, *args):
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        self.url = f"http://localhost:{self.server.server_address[1]}/webhooks"

    def wait_for(self, predicate, timeout=45.0):
        deadline = time.monotonic() + timeout
        with self.arrived:
            while True:
                found = [d for d in self.deliveries if predicate(d)]
                if found:
                    return found
                left = deadline - time.monotonic()
                if left <= 0:
                    return []
                self.arrived.wait(left)

    def stop(self):
        self.server.shutdown()
        self.server.server_close()


class LiveTests(unittest.TestCase):
    """In order (test_01 ... test_09): later tests use the order placed by test_04."""

    order_number = None
    event_id = None

    @classmethod
    def setUpClass(cls):
        cls.buyer = Medparts(os.environ["MEDPARTS_CLIENT_ID"], os.environ["MEDPARTS_CLIENT_SECRET"], BASE_URL)
        cls.vendor = Medparts(os.environ["MEDPARTS_VENDOR_CLIENT_ID"], os.environ["MEDPARTS_VENDOR_CLIENT_SECRET"], BASE_URL)
        user = cls.buyer.lookup_users(user_id=int(os.environ.get("MEDPARTS_USER_ID", "1")))
        if cls.buyer.last_response.mode != "test":
            raise RuntimeError(
                f"MEDPARTS_CLIENT_ID answers in mode {cls.buyer.last_response.mode!r}: the live tests place orders "
                "and need a test-mode (sandbox) client, mpc_test_..."
            )
        company = next(c for c in user["companies"] if c["facilities"] and c["shippingAddresses"] and c["billingAddresses"])
        cls.user = user
        cls.ids = {
            "requesterId": user["contactId"],
            "userId": user["userId"],
            "facilityId": company["facilities"][0]["id"],
            "shippingAddressId": company["shippingAddresses"][0]["id"],
            "billingAddressId": company["billingAddresses"][0]["id"],
        }
        cls.product_id = os.environ.get("MEDPARTS_PRODUCT_ID", "MP-0000003")

    # -- helpers -------------------------------------------------------------------------------------------------

    def quote(self):
        """A fresh price option of the product that needs no custom field values."""
        detail = self.buyer.get_catalog_detail(
            {"productId": self.product_id, "requesterId": self.ids["requesterId"], "facilityId": self.ids["facilityId"]}
        )
        options = [o for o in detail["options"] if not any(f["isRequired"] for f in o["customFields"])]
        self.assertTrue(options, f"{self.product_id} has no option without required custom fields")
        return options[0]

    def order_body(self, option, po="PO-SDK-PY"):
        return {
            **self.ids,
            "shippingMethod": "GROUND",
            "payment": {"paymentMethod": "PO", "poNumber": po},
            "quoteItems": [{"priceOptionId": option["priceOptionId"], "productId": self.product_id, "quantity": 1, "price": option["price"]}],
        }

    # -- tests ---------------------------------------------------------------------------------------------------

    def test_01_token(self):
        token = self.buyer.access_token()
        self.assertEqual(token.count("."), 2)  # a JWT
        self.assertIs(self.buyer.access_token(), token)  # cached
        self.assertIn("orders:write", self.buyer.token_scope.split())
        self.assertEqual(self.buyer.last_response.api_version, API_VERSION)
        self.assertEqual(self.user["contactId"], self.ids["requesterId"])

    def test_02_catalog_search(self):
        page = self.buyer.search_catalog(
            {"requesterId": self.ids["requesterId"], "facilityId": self.ids["facilityId"], "filters": {"query": "cable"}, "pagination": {"limit": 25}}
        )
        self.assertTrue(page["items"])
        self.assertEqual(page["pagination"]["limit"], 25)
        total = page["pagination"]["total"]
        ids = [p["id"] for p in self.buyer.paginate(
            self.buyer.search_catalog,
            {"requesterId": self.ids["requesterId"], "facilityId": self.ids["facilityId"], "filters": {"query": "cable"}, "pagination": {"limit": 25}},
        )]
        if page["pagination"]["totalRelation"] == "eq":
            self.assertEqual(len(ids), total)
        self.assertEqual(len(ids), len(set(ids)), "pages overlap")
        self.assertGreater(len(ids), 25, "expected more than one page of cables in the demo catalog")

    def test_03_catalog_detail(self):
        detail = self.buyer.get_catalog_detail(
            {"productId": self.product_id, "requesterId": self.ids["requesterId"], "facilityId": self.ids["facilityId"]}
        )
        self.assertEqual(detail["product"]["id"], self.product_id)
        self.assertTrue(detail["options"])
        for option in detail["options"]:
            self.assertTrue(option["priceOptionId"].startswith("po_"))
            self.assertRegex(option["price"], DECIMAL)  # money is a decimal string
            self.assertEqual(len(option["currency"]), 3)

    def test_04_place_order_and_replay(self):
        body = self.order_body(self.quote())
        key = str(uuid.uuid4())
        created = self.buyer.create_order(body, idempotency_key=key)
        first = self.buyer.last_response
        self.assertEqual(first.status, 201)
        self.assertFalse(first.idempotency_cached)
        self.assertEqual(first.mode, "test")
        self.assertTrue(created["orderNumber"].startswith("ORD-"))
        replay = self.buyer.create_order(body, idempotency_key=key)
        self.assertEqual(replay["orderNumber"], created["orderNumber"])
        self.assertEqual(replay["eventId"], created["eventId"])
        self.assertTrue(self.buyer.last_response.idempotency_cached)
        with self.assertRaises(IdempotencyConflictError) as caught:
            self.buyer.create_order({**body, "notes": "another body"}, idempotency_key=key)
        self.assertEqual(caught.exception.status, 409)
        self.assertEqual(caught.exception.code, "idempotency-conflict")
        self.assertFalse(caught.exception.in_progress)
        type(self).order_number = created["orderNumber"]
        type(self).event_id = created["eventId"]
        order = self.buyer.get_order(created["orderNumber"], include="lineItems")
        self.assertEqual(order["orderNumber"], created["orderNumber"])
        self.assertEqual(len(order["lineItems"]), 1)
        self.assertRegex(order["total"], DECIMAL)

    def test_05_validation_errors(self):
        bad = {**self.ids, "shippingMethod": "GROUND", "quoteItems": [{"priceOptionId": "po_x", "productId": self.product_id, "quantity": 0, "price": "1.00"}]}
        with self.assertRaises(ValidationError) as caught:
            self.buyer.create_order(bad)
        error = caught.exception
        self.assertEqual(error.status, 400)
        self.assertEqual(error.code, "validation")
        self.assertTrue(error.type.endswith("/docs/errors/validation"))
        self.assertIn("quoteItems[0].quantity", [e.get("field") for e in error.errors])
        self.assertTrue(error.correlation_id)
        self.assertEqual(error.correlation_id, error.problem["correlationId"])
        self.assertEqual(error.headers["X-Correlation-Id"], error.correlation_id)
        # A business rule (422): a price that is not the quote's.
        option = self.quote()
        body = self.order_body(option)
        body["quoteItems"][0]["price"] = "0.01" if option["price"] != "0.01" else "0.02"
        with self.assertRaises(ValidationError) as caught:
            self.buyer.create_order(body)
        self.assertEqual(caught.exception.status, 422)
        self.assertEqual(caught.exception.code, "business-rule")
        self.assertTrue(caught.exception.errors)
        # An order number of nobody's.
        with self.assertRaises(NotFoundError):
            self.buyer.get_order("ORD-00000000-NOSUCH00")

    def test_06_paginate_orders(self):
        self.assertIsNotNone(self.order_number, "test_04 placed no order")
        first = self.buyer.search_orders(limit=2)
        numbers = [o["orderNumber"] for o in self.buyer.paginate(self.buyer.search_orders, limit=2)]
        self.assertIn(self.order_number, numbers)
        self.assertEqual(len(numbers), len(set(numbers)), "pages overlap")
        self.assertGreaterEqual(len(numbers), first["pagination"]["total"])
        found = list(self.buyer.paginate(self.buyer.search_orders, q='poNumber:"PO-SDK-PY"', include="lineItems", limit=100))
        self.assertIn(self.order_number, [o["orderNumber"] for o in found])

    def test_07_events_feed(self):
        self.assertIsNotNone(self.event_id, "test_04 placed no order")
        event = next((e for e in self.buyer.events(types=["order.created"]) if e["id"] == self.event_id), None)
        self.assertIsNotNone(event, "the order.created event is not in the feed")
        self.assertEqual(event["type"], "order.created")
        self.assertEqual(event["orderNumber"], self.order_number)
        self.assertEqual(event["sequence"], 1)
        self.assertEqual(self.buyer.get_event(self.event_id)["id"], self.event_id)
        # Resuming after that event never yields it again.
        self.assertNotIn(self.event_id, [e["id"] for e in self.buyer.events(after=self.event_id)])

    def test_08_webhook_delivery_verifies(self):
        receiver = Receiver()
        self.addCleanup(receiver.stop)
        endpoint = self.buyer.create_webhook_endpoint({"url": receiver.url, "eventTypes": ["*"]})
        self.addCleanup(self.buyer.delete_webhook_endpoint, endpoint["id"])
        secret = endpoint["secret"]
        self.assertTrue(secret.startswith("whsec_"))
        self.assertEqual(endpoint["apiVersion"], API_VERSION)

        sample = self.buyer.test_webhook_endpoint(endpoint["id"], {"type": "order.shipped"})
        self.assertTrue(sample["delivered"], sample)

        # A real event: an order, then a scenario of the simulated vendor.
        order = self.buyer.create_order(self.order_body(self.quote(), po="PO-SDK-PY-WEBHOOK"))
        try:
            result = self.buyer.simulate_test_helpers_order(order["orderNumber"], {"scenario": "backorder", "reason": "SDK test"})
            self.assertEqual(result["orderNumber"], order["orderNumber"])
        except ConflictError:
            pass  # the default schedule moved the order on first; its own events are delivered all the same

        events = {}
        for event_id in (sample["eventId"], order["eventId"]):
            deliveries = receiver.wait_for(lambda d, i=event_id: d["headers"].get("medparts-event-id") == i)
            self.assertTrue(deliveries, f"no delivery of event {event_id}")
            delivery = deliveries[0]
            signature = delivery["headers"]["medparts-signature"]
            event = construct_event(delivery["raw"], signature, secret)
            events[event_id] = event
            self.assertEqual(event["id"], event_id)
            self.assertEqual(delivery["headers"]["medparts-event-type"], event["type"])
            self.assertEqual(delivery["headers"]["medparts-version"], API_VERSION)
            with self.assertRaises(SignatureVerificationError):
                construct_event(delivery["raw"] + b" ", signature, secret)
            with self.assertRaises(SignatureVerificationError):
                construct_event(delivery["raw"], signature, "whsec_wrong")
        self.assertEqual(events[sample["eventId"]]["type"], "order.shipped")
        self.assertEqual(events[order["eventId"]]["type"], "order.created")
        self.assertEqual(events[order["eventId"]]["orderNumber"], order["orderNumber"])
        attempts = self.buyer.list_webhook_endpoint_deliveries(endpoint["id"])["deliveries"]
        self.assertIn(order["eventId"], [a["eventId"] for a in attempts])

    def test_09_vendor_order_lines(self):
        first = self.vendor.list_vendor_order_lines(status="Ordered,Acknowledged,Backordered,Shipped,Delivered,Cancelled,Rejected", limit=20)
        self.assertEqual(self.vendor.last_response.api_version, API_VERSION)
        lines = list(self.vendor.paginate(
            self.vendor.list_vendor_order_lines, status="Ordered,Acknowledged,Backordered,Shipped,Delivered,Cancelled,Rejected", limit=20
        ))
        self.assertEqual(len(lines), first["pagination"]["total"])
        self.assertEqual(len({line["lineId"] for line in lines}), len(lines), "pages overlap")
        if lines:
            line = self.vendor.get_vendor_order_line(lines[0]["lineId"])
            self.assertEqual(line["lineId"], lines[0]["lineId"])
            self.assertRegex(line["price"], DECIMAL)
        # Vendors never see test orders: the sandbox order is a 404 to them, and absent from their lists.
        self.assertIsNotNone(self.order_number, "test_04 placed no order")
        test_line = self.buyer.get_order(self.order_number, include="lineItems")["lineItems"][0]["lineId"]
        with self.assertRaises(NotFoundError):
            self.vendor.get_vendor_order_line(test_line)
        self.assertEqual(self.vendor.list_vendor_order_lines(order_number=self.order_number)["lines"], [])
        # And a vendor token opens no customer API.
        with self.assertRaises(AuthenticationError):
            self.vendor.search_orders()


if __name__ == "__main__":
    unittest.main()
