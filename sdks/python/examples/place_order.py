# Places an order in test mode (the sandbox), with the demo ids of a local deployment (`npm start`).
# Env: MEDPARTS_URL, and MEDPARTS_CLIENT_ID / MEDPARTS_CLIENT_SECRET of a test-mode buyer client (mpc_test_...).
# Run from the repository: PYTHONPATH=sdks/python python3 sdks/python/examples/place_order.py
from medparts import Medparts

client = Medparts.from_env()
if not client.client_id.startswith("mpc_test_"):
    raise SystemExit("MEDPARTS_CLIENT_ID is not a test-mode client (mpc_test_...): refusing to place a real order.")
# Who orders, for which facility, shipped and billed where (see client.lookup_users(user_id=1)).
order = {"requesterId": 50001, "userId": 1, "facilityId": 1001, "shippingAddressId": 11, "billingAddressId": 13}
options = client.get_catalog_detail({"productId": "MP-0000003", "requesterId": 50001, "facilityId": 1001})["options"]
# The first (cheapest) quote that needs no custom field values.
option = next(o for o in options if not any(f["isRequired"] for f in o["customFields"]))
line = {"priceOptionId": option["priceOptionId"], "productId": "MP-0000003", "quantity": 1, "price": option["price"]}
created = client.create_order({**order, "shippingMethod": "GROUND", "quoteItems": [line]})  # Idempotency-Key: automatic
print(created["orderNumber"], option["price"], option["currency"], client.last_response.correlation_id)
