# Generated from the Medparts OpenAPI document, API version 2026-12-07, by `npm run sdk:generate`.
# Do not edit: change the generator or the API's contract and generate again.
"""Typed operations of the Medparts customer and vendor APIs (version 2026-12-07).

Each method of ``Operations`` is one operation; ``medparts.Medparts`` inherits them. The TypedDicts describe the
request bodies and the ``data`` of the answers (keys that may be absent are in ``total=False`` classes).
"""

from __future__ import annotations

from typing import Any, Dict, List, Literal, Optional, Tuple, TypedDict, Union
from urllib.parse import quote

API_VERSION = "2026-12-07"
"""The API version these operations and types describe; the client sends it as ``Medparts-Version``."""


class Address(TypedDict):
    id: int
    attentionTo: Optional[str]
    line1: str
    city: str
    state: str
    zip: str
    country: str


class CompanyFacilitiesItem(TypedDict):
    id: int
    name: str


class Company(TypedDict):
    id: int
    name: str
    shippingAddresses: List[Address]
    billingAddresses: List[Address]
    # Facilities of this company the user may order for (use the id as facilityId)
    facilities: List[CompanyFacilitiesItem]


class User(TypedDict):
    # Use as requesterId in catalog and order calls
    contactId: int
    userId: int
    loginUserId: str
    firstName: str
    lastName: str
    email: str
    companies: List[Company]


class UserSearchRecordCompaniesItem(TypedDict):
    id: int
    name: str


class UserSearchRecord(TypedDict):
    # User id
    id: int
    # Use as requesterId in catalog and order calls
    contactId: int
    userName: str
    email: Optional[str]
    firstName: str
    lastName: str
    companies: List[UserSearchRecordCompaniesItem]


class Pagination(TypedDict):
    # Records matching the filter
    total: int
    # Page size used
    limit: int
    # Records skipped
    offset: int
    # True when a further page exists: request offset + limit next
    hasMore: bool


class GetUsersSearchResponse(TypedDict):
    items: List[UserSearchRecord]
    pagination: Pagination


class UserSearchRequestFilters(TypedDict, total=False):
    # email equals (case-insensitive)
    email: str
    # email contains (case-insensitive, 3+ characters)
    emailContains: str
    # firstName equals (case-insensitive)
    firstName: str
    # firstName contains (case-insensitive, 3+ characters)
    firstNameContains: str
    # lastName equals (case-insensitive)
    lastName: str
    # lastName contains (case-insensitive, 3+ characters)
    lastNameContains: str
    # userName equals (case-insensitive)
    userName: str
    # userName contains (case-insensitive, 3+ characters)
    userNameContains: str
    # companyName equals (case-insensitive)
    companyName: str
    # companyName contains (case-insensitive, 3+ characters)
    companyNameContains: str
    # customerId equals (case-insensitive)
    customerId: int
    # id equals (case-insensitive)
    id: int
    # contactId equals (case-insensitive)
    contactId: int


class UserSearchRequestPagination(TypedDict, total=False):
    # Any JSON value, never refused (spec 4.16; but an object with a `__proto__` key, which no JSON
    # body may hold): a whole number or numeric text from 1 to 10,000 is used (fractions truncated);
    # above 10,000 becomes 10,000; below 1 or not a number becomes 50, the default
    limit: Any
    # Any JSON value, never refused (spec 4.16; but an object with a `__proto__` key, which no JSON
    # body may hold): a whole number or numeric text; negative or not a number becomes 0, the
    # default
    offset: Any


class UserSearchRequest(TypedDict, total=False):
    filters: UserSearchRequestFilters
    pagination: UserSearchRequestPagination


class PostUsersSearchResponse(TypedDict):
    users: List[UserSearchRecord]
    pagination: Pagination


class CatalogFacetFilter(TypedDict):
    field: Literal["manufacturer", "category"]
    # Alternatives: a product matches when it has any of them (case-insensitive)
    values: List[str]


class CatalogSearchRequestFilters(TypedDict, total=False):
    # Keywords, each matched as a word prefix in part numbers, description, manufacturer and
    # categories. One word that is a device identifier of a product (GTIN, HIBCC or ICCBBA, any
    # packaging level) searches that product's part number. Empty lists all.
    query: Optional[str]
    # Narrow down: every facet given must hold. Values of one field are alternatives.
    facets: Optional[List[CatalogFacetFilter]]


class CatalogSearchRequestPagination(TypedDict, total=False):
    # 1 to 10,000, default 50; out-of-range or non-numeric values are corrected silently (above
    # 10,000 -> 10,000, below 1 -> 50)
    limit: Optional[Union[float, str]]
    # Default 0; negative or non-numeric becomes 0
    offset: Optional[Union[float, str]]
    # Default Relevance with a query, PartNumber without
    sortBy: Optional[Literal["PartNumber", "Description", "Manufacturer", "Relevance"]]
    # Default Desc (most relevant first) for Relevance, Asc otherwise
    sortDirection: Optional[Literal["Asc", "Desc"]]


class _CatalogSearchRequestRequired(TypedDict):
    """The required keys of CatalogSearchRequest."""
    facilityId: int
    # The user's contactId (GET /users/lookup)
    requesterId: int


class CatalogSearchRequest(_CatalogSearchRequestRequired, total=False):
    filters: Optional[CatalogSearchRequestFilters]
    pagination: Optional[CatalogSearchRequestPagination]


class CatalogItem(TypedDict):
    # Use as productId in catalog detail and orders
    id: str
    partNumber: str
    displayPartNumber: str
    description: str
    # Manufacturer name
    oem: str
    categories: List[str]


class SearchCatalogResponsePagination(Pagination):
    # "eq": total is exact. "gte": more than total products match (counting stops at 1,000, or at
    # the page's end if further); hasMore is exact either way
    totalRelation: Literal["eq", "gte"]


class CatalogFacetCountsValuesItem(TypedDict):
    value: str
    count: int


class CatalogFacetCounts(TypedDict):
    """Products per value for the current query and the other facets (this facet's own selection left
    out); largest first, at most 100
    """
    field: Literal["manufacturer", "category"]
    values: List[CatalogFacetCountsValuesItem]
    # "eq": exact counts. "gte": more than 1,000 products are counted, and the counts are those of
    # the first 1,000 read (each a lower bound)
    countsRelation: Literal["eq", "gte"]


class SearchCatalogResponseSort(TypedDict):
    """The order actually used"""
    sortBy: Literal["PartNumber", "Description", "Manufacturer", "Relevance"]
    sortDirection: Literal["Asc", "Desc"]


class SearchCatalogResponse(TypedDict):
    items: List[CatalogItem]
    pagination: SearchCatalogResponsePagination
    facets: List[CatalogFacetCounts]
    # The order actually used
    sort: SearchCatalogResponseSort


class CatalogDetailRequest(TypedDict):
    productId: str
    facilityId: int
    # The user's contactId (GET /users/lookup)
    requesterId: int


class DeviceIdentifier(TypedDict):
    # The UDI issuing agency
    agency: Literal["GS1", "HIBCC", "ICCBBA"]
    # The device identifier; a GS1 GTIN as GTIN-14
    deviceId: str
    # A package level (e.g. a case): the device identifier it contains; null for the unit
    containsDeviceId: Optional[str]
    # How many of `containsDeviceId` the package holds
    quantity: Optional[int]


class CatalogProduct(TypedDict):
    id: str
    partNumber: str
    title: str
    description: str
    manufacturer: str
    # active; discontinued (no longer made, quoted while vendors offer it); withdrawn (never quoted:
    # no options)
    status: Literal["active", "discontinued", "withdrawn"]
    # UDI device identifiers of the product, unit level first (empty when none is known)
    deviceIdentifiers: List[DeviceIdentifier]


class PurchaseTermsExchange(TypedDict):
    type: Literal["exchange"]
    # The core charge per unit: a decimal string with two places, in the `currency` beside it
    coreCharge: str
    coreDueDays: int
    coreConditions: List[str]
    returnTo: Optional[str]


class PurchaseTermsLoan(TypedDict):
    type: Literal["loan"]
    loanDays: int
    # The late fee per unit and day: a decimal string with two places, in the `currency` beside it
    lateFeePerDay: str
    returnTo: Optional[str]


class PurchaseTermsRepair(TypedDict):
    type: Literal["repair"]
    turnaroundDays: int
    reasons: List[str]
    returnTo: Optional[str]


# The terms of the purchase type, frozen in the price option like its price: an exchange's core
# charge and due days, a loan's days and late fee, a repair's turnaround and accepted reasons; null
# for a buy
PurchaseTerms = Optional[Union[PurchaseTermsExchange, PurchaseTermsLoan, PurchaseTermsRepair]]


class CustomField(TypedDict):
    # Use in the order line's requiredFields
    fieldId: str
    prompt: str
    isRequired: bool
    formatRegex: str
    errorMessage: str


class PriceOption(TypedDict):
    # Quote id for POST /orders, valid until expiresAt (30 days)
    priceOptionId: str
    # Unit price: a decimal string with two places, in the `currency` beside it
    price: str
    # ISO 4217 currency of the amounts of this object and of the objects inside it
    currency: str
    condition: str
    warranty: str
    purchaseChoice: str
    # buy, exchange (a core goes back), loan, or repair (the buyer's unit is sent in): what an order
    # of this option opens
    purchaseType: Literal["buy", "exchange", "loan", "repair"]
    purchaseTerms: PurchaseTerms
    customFields: List[CustomField]
    vendorName: str
    leadTimeDays: int
    returnPolicy: str
    expiresAt: str
    # Where `price` comes from: the offer's list price, or a price agreement of the vendor that
    # applies to this tenant, facility or its tier (the lowest such price wins over the list price)
    priceSource: Literal["list", "contract"]
    # The price agreement whose price this is; null for a list price
    agreementId: Optional[int]
    # The vendor's reference of that agreement (its contract number)
    agreementReference: Optional[str]
    # The offer's list price (equal to `price` for a list price): a decimal string with two places,
    # in the `currency` beside it
    listPrice: str
    # The vendor's own number for this offer
    vendorSku: str
    # What one unit of `price` is, e.g. EA (each), BX (box)
    unitOfMeasure: str
    # Items in one unit of measure
    packQuantity: int
    # What the vendor last said it had in stock; null when not said
    quantityAvailable: Optional[int]
    # When quantityAvailable was counted
    quantityCountedAt: Optional[str]


class GetCatalogDetailResponse(TypedDict):
    product: CatalogProduct
    options: List[PriceOption]


class _ResolveRequestRequired(TypedDict):
    """The required keys of ResolveRequest."""
    # 1 to 50 codes, each resolved on its own
    codes: List[str]


class ResolveRequest(_ResolveRequestRequired, total=False):
    # With facilityId: also issue the product's price options (quotes) for this user
    requesterId: int
    # With requesterId: the facility the price options are for
    facilityId: int


class UdiData(TypedDict):
    agency: Literal["GS1", "HIBCC", "ICCBBA"]
    # GS1: the GTIN-14; HIBCC: labeler, product and unit of measure; ICCBBA: the PPIC
    deviceId: Optional[str]
    lot: Optional[str]
    serial: Optional[str]
    # ISO date (GS1 day 00: the month's last day); ISBT 128 with time: date-time
    expiry: Optional[str]
    production: Optional[str]
    # GS1 AI 240
    additionalProductId: Optional[str]
    # GS1 AI 241
    customerPartNumber: Optional[str]
    # HIBCC quantity
    quantity: Optional[int]
    # ISBT 128 Donation Identification Number
    donationId: Optional[str]


class ResolveResultPackaging(TypedDict):
    """Which packaging level of the product the device identifier names"""
    level: Literal["unit", "package"]
    deviceId: str
    containsDeviceId: Optional[str]
    # Units of the product in this level (1 for the unit)
    quantity: int


class ResolveResultRecallsItem(TypedDict):
    # GET /recalls/{recallId} when it touches units the tenant received
    recallId: int
    # The FDA product number (Z-NNNN-YYYY) or the vendor's notice number
    productNumber: str
    classification: Optional[str]
    # open or completed (a terminated recall is not listed)
    status: str
    # affected: this unit is recalled; needs_review: check it against the notice
    outcome: Literal["affected", "needs_review"]
    # The clause that decided, in words
    reason: str


class ResolveResultProblem(TypedDict):
    # The element at fault: a GS1 AI, an HIBCC part, an ISBT 128 data identifier
    element: Optional[str]
    code: str
    message: str


class ResolveResult(TypedDict):
    # The code's place in `codes`
    index: int
    # The code as read (without the whitespace, CR and LF around it)
    code: str
    status: Literal["resolved", "unresolved"]
    # How the code was read (null when it could be read no way)
    reading: Optional[Literal["gs1", "gtin", "hibcc", "isbt128", "partNumber"]]
    # element-string, bracketed, digital-link, gtin, hibcc-primary, hibcc-secondary,
    # hibcc-concatenated, isbt128 or partNumber
    form: Optional[str]
    # Other readings the code also has (e.g. gs1 for a part number like 10D9T)
    alternatives: List[str]
    udi: Optional[UdiData]
    # Which packaging level of the product the device identifier names
    packaging: Optional[ResolveResultPackaging]
    product: Optional[CatalogProduct]
    # With requesterId and facilityId: the product's price options, issued as catalog detail issues
    # them
    priceOptions: Optional[List[PriceOption]]
    # HIBCC: the index of the linked primary or secondary code
    linkedTo: Optional[int]
    # The recalls not terminated that touch the scanned unit (its device identifier, lot, serial,
    # expiry): empty when none
    recalls: List[ResolveResultRecallsItem]
    problem: Optional[ResolveResultProblem]


class ResolveCatalogResponse(TypedDict):
    results: List[ResolveResult]


class CreateOrderRequestQuoteItemsItemRequiredFieldsItem(TypedDict):
    fieldId: str
    value: str


class _RepairRequestRequired(TypedDict):
    """The required keys of RepairRequest."""
    # The unit's serial number
    serialNumber: str
    # Why it goes in, one of: no_power, error_code, physical_damage, intermittent_failure,
    # calibration_failure, noise_or_vibration, display_failure, fluid_leak, failed_self_test, other
    # (and among those the vendor's repair terms take); anything else is a 422
    reason: str


class RepairRequest(_RepairRequestRequired, total=False):
    """Required on a line of a repair price option, refused on any other"""
    # What fails, in the buyer's words
    description: str


class _CreateOrderRequestQuoteItemsItemRequired(TypedDict):
    """The required keys of CreateOrderRequestQuoteItemsItem."""
    # From POST /catalog/detail; usable for one order
    priceOptionId: str
    productId: str
    quantity: int
    # Unit price; must equal the price option's price to the cent (else 422): a decimal string with
    # at most two decimal places (more is a 400, never rounded)
    price: str


class CreateOrderRequestQuoteItemsItem(_CreateOrderRequestQuoteItemsItemRequired, total=False):
    # Values for the option's customFields; fieldIds are unique
    requiredFields: Optional[List[CreateOrderRequestQuoteItemsItemRequiredFieldsItem]]
    repair: RepairRequest


class _CreateOrderRequestPaymentRequired(TypedDict):
    """The required keys of CreateOrderRequestPayment."""
    paymentMethod: Literal["PO", "CREDIT_CARD_ON_FILE", "NET_TERMS"]


class CreateOrderRequestPayment(_CreateOrderRequestPaymentRequired, total=False):
    """Alternative form; PO requires poNumber"""
    poNumber: Optional[str]


class _CreateOrderRequestRequired(TypedDict):
    """The required keys of CreateOrderRequest."""
    # The requester's contactId (users/lookup)
    requesterId: int
    # The user placing the order; needs access to the facility too
    userId: int
    facilityId: int
    # A shipping address of the facility's company; shared by all lines
    shippingAddressId: int
    # A billing address of the facility's company
    billingAddressId: int
    shippingMethod: Literal[
        "GROUND",
        "THREE_DAY",
        "SECOND_DAY",
        "NEXT_DAY",
        "NEXT_DAY_EARLY",
        "SATURDAY",
        "FREIGHT",
        "WILL_CALL",
    ]
    # The order lines, each line its own priceOptionId
    quoteItems: List[CreateOrderRequestQuoteItemsItem]


class CreateOrderRequest(_CreateOrderRequestRequired, total=False):
    # Top-level form: payment by PO; must equal payment.poNumber when both are given
    poNumber: Optional[str]
    # Alternative form; PO requires poNumber
    payment: Optional[CreateOrderRequestPayment]
    notes: Optional[str]


class OrderCreated(TypedDict):
    orderNumber: str
    createdAt: str
    # Id of the order.created event
    eventId: str


class PendingLineChangeSubstitute(TypedDict):
    """The product offered instead; null: none"""
    partNumber: str
    description: str


class PendingLineChange(TypedDict):
    """A change of the vendor waiting for the buyer's answer (POST
    /orders/{orderNumber}/lines/{lineId}/change-decision)
    """
    # The X12 855 code of the vendor's confirmation
    code: str
    # The unit price proposed (a decimal string); null: unchanged
    unitPrice: Optional[str]
    # The quantity proposed; null: unchanged
    quantity: Optional[int]
    # The product offered instead; null: none
    substitute: Optional[PendingLineChangeSubstitute]
    promisedShipDate: Optional[str]
    # The price proposed is above the buyer's contract price for the line
    contractPriceException: bool
    note: Optional[str]
    proposedAt: str


class OrderLine(TypedDict):
    lineId: int
    partNumber: str
    requestedPartNumber: str
    replacementPartNumber: Optional[str]
    poNumber: Optional[str]
    description: str
    quantity: int
    # Unit price: a decimal string with two places, in the `currency` beside it
    price: str
    # price × quantity: a decimal string with two places, in the `currency` beside it
    extendedPrice: str
    # The line's status (docs/api.md, Order lifecycle)
    statusName: str
    # How much of the line has shipped
    shippedQuantity: int
    # When the vendor promised to ship it (on acknowledging)
    promisedShipDate: Optional[str]
    # When the vendor expects to ship it (on backordering)
    expectedShipDate: Optional[str]
    # Why it was backordered, rejected or cancelled
    statusReason: Optional[str]
    deliveredAt: Optional[str]
    # The buyer's contract price when the line was ordered at one; null for a list price: a decimal
    # string with two places, in the `currency` beside it
    contractPrice: Optional[str]
    # The X12 855 code of the vendor's latest confirmation of the line (docs/api.md, Confirmations)
    confirmationCode: Optional[str]
    pendingChange: Optional[PendingLineChange]


class ShippingInfoLinesItem(TypedDict):
    lineId: int
    quantity: int


class ShippingInfo(TypedDict):
    shippingDocId: int
    # lineId of each line this document ships
    lineItemIds: List[int]
    # How much of each line this document ships (before it ships: what is left to ship)
    lines: List[ShippingInfoLinesItem]
    attentionTo: Optional[str]
    address1: str
    city: str
    state: str
    zip: str
    country: str
    carrierName: str
    serviceLevel: str
    # The carrier's tracking number once the parcel has shipped
    trackingNumber: Optional[str]
    # When the parcel shipped; null until then
    shippedAt: Optional[str]


LineFieldChangePrice = TypedDict(
    "LineFieldChangePrice",
    {
        "field": Literal["price"],
        # The unit price before: a decimal string with at most two decimal places
        "from": str,
        # The unit price after: a decimal string with at most two decimal places
        "to": str,
    },
)


LineFieldChangeOption2 = TypedDict(
    "LineFieldChangeOption2",
    {
        "field": Literal["quantity", "shippedQuantity"],
        "from": int,
        "to": int,
    },
)


LineFieldChangeStatus = TypedDict(
    "LineFieldChangeStatus",
    {
        "field": Literal["status"],
        "from": Literal["Ordered", "Acknowledged", "Backordered", "Shipped", "Delivered", "Cancelled", "Rejected"],
        "to": Literal["Ordered", "Acknowledged", "Backordered", "Shipped", "Delivered", "Cancelled", "Rejected"],
    },
)


LineFieldChangeOption4 = TypedDict(
    "LineFieldChangeOption4",
    {
        "field": Literal["promisedShipDate", "expectedShipDate"],
        "from": Optional[str],
        "to": Optional[str],
    },
)


LineFieldChangeOption5 = TypedDict(
    "LineFieldChangeOption5",
    {
        "field": Literal["confirmationCode", "statusReason", "partNumber", "description"],
        "from": Optional[str],
        "to": Optional[str],
    },
)


LineFieldChangeProposedChange = TypedDict(
    "LineFieldChangeProposedChange",
    {
        "field": Literal["proposedChange"],
        # The proposal waiting before; null: none
        "from": Optional[PendingLineChange],
        # The proposal waiting after; null: none (answered or replaced)
        "to": Optional[PendingLineChange],
    },
)


# A field of the line, its value before and after: `price` as decimal strings, `proposedChange` as
# the line's `pendingChange` reads
LineFieldChange = Union[
    LineFieldChangePrice,
    LineFieldChangeOption2,
    LineFieldChangeStatus,
    LineFieldChangeOption4,
    LineFieldChangeOption5,
    LineFieldChangeProposedChange,
]


class LineRevision(TypedDict):
    """A change of a line: who made it, and each field's value before and after"""
    lineId: int
    # 1, 2, ... per line; the line as ordered is revision 0
    revision: int
    actor: Literal["vendor", "buyer", "system"]
    # The vendor's id for a vendor's change
    actorId: Optional[int]
    # The X12 855 code of a confirmation, or the move or decision: acknowledge, ship, cancel,
    # accept-change...
    code: str
    changes: List[LineFieldChange]
    note: Optional[str]
    at: str


class _OrderSearchRecordRequired(TypedDict):
    """The required keys of OrderSearchRecord."""
    orderId: int
    orderNumber: str
    companyId: int
    facilityId: int
    # The requester's contact id
    requesterId: int
    poNumber: Optional[str]
    requesterName: str
    orderDate: str
    lastUpdated: str
    # The sum of the lines' extended prices: a decimal string with two places, in the `currency`
    # beside it
    total: str
    # ISO 4217 currency of the amounts of this object and of the objects inside it
    currency: str
    shippingMethod: str
    status: str


class OrderSearchRecord(_OrderSearchRecordRequired, total=False):
    # Present only with include=lineItems
    lineItems: List[OrderLine]
    # Present only with include=shippingInfo
    shippingInfo: List[ShippingInfo]
    # Present only with include=history: every change of the order's lines after it was placed,
    # oldest first per line
    history: List[LineRevision]


class SearchOrdersResponse(TypedDict):
    orders: List[OrderSearchRecord]
    pagination: Pagination


class CancelOrderRequest(TypedDict, total=False):
    # Lines to cancel, each a line of this order (lineId of the order record); all lines when absent
    lineIds: List[int]
    # Why, for the vendor and the order.cancelled event
    reason: Optional[str]
    # true: cancel the lines that can be, report the others in notCancelled (default false: all or
    # nothing, 409)
    partial: bool


class OrderCancelledNotCancelledItem(TypedDict):
    lineId: int
    statusName: Literal["Ordered", "Acknowledged", "Backordered", "Shipped", "Delivered", "Cancelled", "Rejected"]


class OrderCancelled(TypedDict):
    orderNumber: str
    # The order's status after the cancel (derived from its lines)
    status: Literal[
        "Ordered",
        "Acknowledged",
        "Backordered",
        "PartiallyShipped",
        "Shipped",
        "Delivered",
        "Cancelled",
        "Rejected",
    ]
    # Lines this request cancelled (empty when none was open)
    cancelledLineIds: List[int]
    # With partial: the lines left as they were because they had shipped or been delivered
    notCancelled: List[OrderCancelledNotCancelledItem]
    # Id of the order.cancelled event; null when nothing changed
    eventId: Optional[str]


class _ChangeDecisionRequestRequired(TypedDict):
    """The required keys of ChangeDecisionRequest."""
    # accept: the line takes the change and is Acknowledged; decline: the line is cancelled
    decision: Literal["accept", "decline"]


class ChangeDecisionRequest(_ChangeDecisionRequestRequired, total=False):
    # Why, for the vendor and the event
    reason: Optional[str]
    # The `proposedAt` of the pendingChange being answered: when the vendor has since replaced it,
    # the answer is a 409 `change-superseded` instead of applying a change the buyer never saw
    # (recommended for retries)
    proposedAt: str


class ChangeDecisionResult(TypedDict):
    orderNumber: str
    lineId: int
    lineStatus: Literal["Ordered", "Acknowledged", "Backordered", "Shipped", "Delivered", "Cancelled", "Rejected"]
    orderStatus: Literal[
        "Ordered",
        "Acknowledged",
        "Backordered",
        "PartiallyShipped",
        "Shipped",
        "Delivered",
        "Cancelled",
        "Rejected",
    ]
    # The order.change_accepted or order.change_declined event; null for a repeat
    eventId: Optional[str]


class InvoiceRecordLinesItem(TypedDict):
    lineNumber: int
    # The order line billed (or credited); null for a charge not on the order
    lineId: Optional[int]
    # Credit memos: the invoice line credited
    creditedLineNumber: Optional[int]
    partNumber: Optional[str]
    description: Optional[str]
    quantity: int
    # Unit price (a decimal string, 2 places)
    unitPrice: str
    # quantity × unitPrice (a decimal string, 2 places)
    amount: str
    # Tax (a decimal string, 2 places)
    tax: str
    # Invoices: the line's three-way match; null for a credit memo
    matchStatus: Optional[
        Literal["matched", "price_variance", "quantity_variance", "not_on_po", "contract_price_exception"]
    ]
    # Why: the values compared
    matchExplanation: Optional[str]


class InvoiceRecord(TypedDict):
    invoiceId: int
    kind: Literal["invoice", "credit_memo"]
    # The vendor's invoice or credit memo number
    invoiceNumber: str
    orderNumber: str
    vendorId: int
    invoiceDate: str
    receivedAt: str
    lastUpdated: str
    currency: str
    # The lines' amounts (a decimal string, 2 places)
    subtotal: str
    # Tax (a decimal string, 2 places)
    tax: str
    # Freight (a decimal string, 2 places)
    freight: str
    # Total (a decimal string, 2 places)
    total: str
    # Invoices: matched, exception, accepted, disputed; credit memos: received
    status: str
    # The buyer's dispute reason, or the credit memo's reason
    statusReason: Optional[str]
    # Invoices: whether every line matches now; null for a credit memo
    matchStatus: Optional[Literal["matched", "exception"]]
    # Invoices: what credit memos credit of it (a decimal string, 2 places)
    credited: Optional[str]
    # Credit memos: the invoice credited
    creditedInvoiceId: Optional[int]
    creditedInvoiceNumber: Optional[str]
    # Null for the vendor's own document; core_charge or late_fee for a charge Medparts wrote at the
    # quoted terms when a core was overdue or refused, or a loaner came back late (docs/api.md,
    # Cores and loaners)
    origin: Optional[Literal["core_charge", "late_fee"]]
    lines: List[InvoiceRecordLinesItem]


class ListInvoicesResponse(TypedDict):
    invoices: List[InvoiceRecord]
    pagination: Pagination


class AcceptInvoiceRequest(TypedDict, total=False):
    # Why the buyer accepts (an exception it agrees with), for the vendor
    note: str


class InvoiceDecisionResult(TypedDict):
    invoice: InvoiceRecord
    # The invoice.accepted or invoice.disputed event; null for a repeat
    eventId: Optional[str]


class DisputeInvoiceRequest(TypedDict):
    # Why, for the vendor
    reason: str


class PurchasingSettingsAutoAcceptPriceIncrease(TypedDict):
    """Price increases of a vendor's confirmation applied without asking the buyer (like Amazon
    Business's order safeguards); null: every increase waits for the buyer. A price above the
    contract price always waits
    """
    # At most this share of the unit price; null: no share limit
    percent: Optional[str]
    # At most this much a unit (a decimal string); null: no amount limit
    amount: Optional[str]


class PurchasingSettingsPriceTolerance(TypedDict):
    """How far an invoiced unit price may differ from the order's and still match"""
    # At most this share of the unit price; null: no share limit
    percent: Optional[str]
    # At most this much a unit (a decimal string); null: no amount limit
    amount: Optional[str]


class _PurchasingSettingsRequired(TypedDict):
    """The required keys of PurchasingSettings."""
    # Price increases of a vendor's confirmation applied without asking the buyer (like Amazon
    # Business's order safeguards); null: every increase waits for the buyer. A price above the
    # contract price always waits
    autoAcceptPriceIncrease: Optional[PurchasingSettingsAutoAcceptPriceIncrease]
    # How far an invoiced unit price may differ from the order's and still match
    priceTolerance: PurchasingSettingsPriceTolerance
    # How many units an order line's invoices may bill beyond what shipped and still match
    quantityTolerance: int


class PurchasingSettings(_PurchasingSettingsRequired, total=False):
    # ISO 4217 currency of the amounts: always in an answer; a request may leave it out (it can only
    # be the market's, USD)
    currency: Literal["USD"]
    # How many days before a core's or loaner's due day the tenant is warned (core.due_soon,
    # loaner.due_soon); default 3
    dueSoonDays: int


class _ReturnRequestRequired(TypedDict):
    """The required keys of ReturnRequest."""
    # Units to return: at most those delivered and not in returns yet
    quantity: int
    # Why the units go back
    reason: Literal["wrong_part", "dead_on_arrival", "damaged", "not_needed", "recall"]


class ReturnRequest(_ReturnRequestRequired, total=False):
    # For the vendor
    note: str


class UnitReturnInboundUdi(TypedDict):
    agency: str
    deviceId: str
    lot: Optional[str]
    serial: Optional[str]
    expiry: Optional[str]


class _UnitReturnInboundRequired(TypedDict):
    """The required keys of UnitReturnInbound."""
    carrierName: str
    trackingNumber: str
    shippedAt: str


class UnitReturnInbound(_UnitReturnInboundRequired, total=False):
    """The unit's parcel to the vendor"""
    udi: Optional[UnitReturnInboundUdi]
    repaired: bool


class UnitReturnOutboundUdi(TypedDict):
    agency: str
    deviceId: str
    lot: Optional[str]
    serial: Optional[str]
    expiry: Optional[str]


class _UnitReturnOutboundRequired(TypedDict):
    """The required keys of UnitReturnOutbound."""
    carrierName: str
    trackingNumber: str
    shippedAt: str


class UnitReturnOutbound(_UnitReturnOutboundRequired, total=False):
    """A repair's parcel back to the buyer"""
    udi: Optional[UnitReturnOutboundUdi]
    repaired: bool


class UnitReturnNextStepsItem(TypedDict):
    step: str
    actor: Literal["buyer", "vendor"]


class UnitReturn(TypedDict):
    returnId: int
    kind: Literal["core", "loaner", "repair", "rma"]
    # Where it is in its state machine (docs/api.md); `cancelled`: a repair whose line was withdrawn
    # before its unit went in
    status: str
    # Still waiting for a step
    open: bool
    orderNumber: str
    lineId: int
    vendorId: int
    facilityId: int
    partNumber: str
    description: str
    quantity: int
    rmaNumber: Optional[str]
    # A return's or a repair's reason
    reason: Optional[str]
    note: Optional[str]
    serialNumber: Optional[str]
    # The day it is due back (a core, a loaner) or must ship by (a return)
    dueAt: Optional[str]
    returnTo: Optional[str]
    # A core's charge per unit, if it is late or refused: a decimal string with two places
    coreCharge: Optional[str]
    # A loaner's fee per unit and day late: a decimal string with two places
    lateFeePerDay: Optional[str]
    # A loaner's late fees so far (to the day it shipped back): a decimal string with two places
    accruedLateFees: Optional[str]
    # A repair's price: the flat rate, or the price the buyer approved: a decimal string with two
    # places
    repairPrice: Optional[str]
    # A repair's price beyond the flat rate, while the buyer decides: a decimal string with two
    # places
    proposedPrice: Optional[str]
    # A return's restocking fee: a decimal string with two places
    restockingFee: Optional[str]
    # A return's credit: the units at their price, less the restocking fee: a decimal string with
    # two places
    creditDue: Optional[str]
    # What was billed (a core charge, late fees): a decimal string with two places
    billed: Optional[str]
    # ISO 4217 currency of the amounts of this object and of the objects inside it
    currency: str
    # The invoice of the charge (GET /invoices/{invoiceId})
    invoiceId: Optional[int]
    # The unit's parcel to the vendor
    inbound: Optional[UnitReturnInbound]
    # A repair's parcel back to the buyer
    outbound: Optional[UnitReturnOutbound]
    receivedAt: Optional[str]
    # A core's grade (accepted, refused); a repair's diagnosis (within_flat_rate, beyond_flat_rate)
    outcome: Optional[str]
    outcomeReason: Optional[str]
    dueSoonNotifiedAt: Optional[str]
    createdAt: str
    lastUpdated: str
    # What may come next, and whose it is: each `step` is the action of a route (buyer: ship,
    # repair-decision; vendor: authorize, decline, receive, diagnose, send-back); the housekeeping's
    # overdue and charge steps are not listed
    nextSteps: List[UnitReturnNextStepsItem]


ReturnStepResult = TypedDict(
    "ReturnStepResult",
    {
        "return": UnitReturn,
        # The step's event; null when the step was already in place (a retry)
        "eventId": Optional[str],
    },
)


class ListReturnsResponse(TypedDict):
    returns: List[UnitReturn]
    pagination: Pagination


class _ReturnShipmentRequired(TypedDict):
    """The required keys of ReturnShipment."""
    carrierName: str
    trackingNumber: str


class ReturnShipment(_ReturnShipmentRequired, total=False):
    """The buyer's parcel back to the vendor (a core, a loaner, a unit for repair, a return)"""
    # When it left; default now. Not in the future, nor before the return was opened (a repair's
    # send-back: nor before it arrived), nor more than 2 days before this report.
    shippedAt: str
    # The unit's UDI label as scanned (GS1, HIBCC or ISBT 128, the scan-to-order parser reads it):
    # its serial number is kept when the return has none
    udi: str


class _RepairDecisionRequired(TypedDict):
    """The required keys of RepairDecision."""
    # approve: repair at the new price; decline: send it back unrepaired
    decision: Literal["approve", "decline"]


class RepairDecision(_RepairDecisionRequired, total=False):
    # For the vendor
    reason: str


class Recall(TypedDict):
    id: int
    # The FDA product number (Z-NNNN-YYYY), or the vendor's notice number
    productNumber: str
    # fda, vendor (a vendor's field safety notice) or sandbox
    source: str
    classification: Optional[str]
    # open, completed (the firm's action is done) or terminated
    status: str
    firm: Optional[str]
    productDescription: Optional[str]
    initiatedOn: Optional[str]
    terminatedOn: Optional[str]
    reason: Optional[str]
    # The notice's scope as the FDA published it (the units' outcomes read it)
    codeInfo: str
    classifiedOn: Optional[str]
    # When the tenant acknowledged it (POST .../acknowledge)
    acknowledgedAt: Optional[str]
    affectedUnits: int
    # Units whose outcome is needs_review: someone checks them
    reviewUnits: int
    # When it first touched the tenant's units
    matchedAt: str
    lastUpdated: str


class ListRecallsResponse(TypedDict):
    recalls: List[Recall]
    pagination: Pagination


class RecallUnit(TypedDict):
    unitId: int
    # The device identifier scanned when the unit shipped
    deviceId: str
    agency: str
    lot: Optional[str]
    serial: Optional[str]
    expiry: Optional[str]
    # Units the code counts (a case's code counts its quantity)
    units: int
    orderNumber: str
    lineId: int
    partNumber: str
    # The facility the order shipped to
    facilityId: int
    # affected, needs_review (a clause the shipment's record cannot decide: someone checks the unit)
    # or cleared (a revision of the recall left it out)
    outcome: str
    # The clause that decided, in words
    reason: str


class RecallUnitState(RecallUnit):
    # What the hospital found: found, not_found or used (already used on a patient)
    disposition: Optional[Literal["found", "not_found", "used"]]
    dispositionAt: Optional[str]
    # The return requested for the unit (POST .../returns)
    returnId: Optional[int]


class RecallWithUnits(Recall):
    # The units it touches, affected first (at most 1,000)
    units: List[RecallUnitState]


class RecallDispositionsUnitsItem(TypedDict):
    unitId: int
    disposition: Literal["found", "not_found", "used"]


class RecallDispositions(TypedDict):
    # Units of the recall and what was found of each (at most 500 a call)
    units: List[RecallDispositionsUnitsItem]


class RecallReturnRequest(TypedDict, total=False):
    # The units to send back; default: every affected unit not used and not in a return yet
    unitIds: List[int]
    # For the vendor
    note: str


class RecallReturnsReturnsItem(TypedDict):
    returnId: int
    orderNumber: str
    lineId: int
    quantity: int
    unitIds: List[int]


class RecallReturnsSkippedItem(TypedDict):
    orderNumber: str
    lineId: int
    unitIds: List[int]
    reason: str


class RecallReturns(TypedDict):
    returns: List[RecallReturnsReturnsItem]
    # Lines whose units cannot be returned now (not delivered yet, not bought outright), with why
    skipped: List[RecallReturnsSkippedItem]


class Manufacturer(TypedDict):
    manufacturerId: int
    name: str


class SearchManufacturersResponse(TypedDict):
    items: List[Manufacturer]
    pagination: Pagination


class OrderCreatedEventDataLinesItem(TypedDict):
    # 1, 2, 3... in the order of quoteItems
    lineNumber: int
    priceOptionId: str
    productId: str
    # The vendor that fulfils the line (the price option's vendor)
    vendorId: int
    quantity: int
    # Unit price: a decimal string with two decimal places (docs/api.md, "Money")
    price: str
    # price × quantity: a decimal string with two decimal places (docs/api.md, "Money")
    extendedPrice: str


class OrderCreatedEventData(TypedDict):
    orderNumber: str
    companyId: int
    facilityId: int
    # The requester's contact id
    requesterId: int
    userId: int
    poNumber: Optional[str]
    # Payment method code
    paymentMethod: str
    # Shipping method code
    shippingMethod: str
    # Order total: a decimal string with two decimal places (docs/api.md, "Money")
    total: str
    # ISO 4217 currency of the order's amounts
    currency: str
    createdAt: str
    lines: List[OrderCreatedEventDataLinesItem]


class OrderCreatedEvent(TypedDict):
    """An order was placed (POST /orders)."""
    # The event id: the same in the feed and in every webhook delivery of it
    id: str
    type: Literal["order.created"]
    createdAt: str
    # The order
    orderNumber: str
    # The order's version after the change: 1 for order.created, then 2, 3... so a gap shows a
    # missed event
    sequence: int
    data: OrderCreatedEventData


class OrderAcknowledgedEventData(TypedDict):
    orderNumber: str
    # The order's status after the change, derived from its lines (docs/api.md, Order lifecycle)
    status: str
    lineId: int
    # The line's status after the move (a parcel that leaves part of the line to ship keeps its
    # status)
    lineStatus: str
    # When the vendor made the move
    at: str
    promisedShipDate: str


class OrderAcknowledgedEvent(TypedDict):
    """A vendor acknowledged a line."""
    # The event id: the same in the feed and in every webhook delivery of it
    id: str
    type: Literal["order.acknowledged"]
    createdAt: str
    # The order
    orderNumber: str
    # The order's version after the change: 1 for order.created, then 2, 3... so a gap shows a
    # missed event
    sequence: int
    data: OrderAcknowledgedEventData


class OrderBackorderedEventData(TypedDict):
    orderNumber: str
    # The order's status after the change, derived from its lines (docs/api.md, Order lifecycle)
    status: str
    lineId: int
    # The line's status after the move (a parcel that leaves part of the line to ship keeps its
    # status)
    lineStatus: str
    # When the vendor made the move
    at: str
    expectedShipDate: str
    reason: Optional[str]


class OrderBackorderedEvent(TypedDict):
    """A vendor backordered a line."""
    # The event id: the same in the feed and in every webhook delivery of it
    id: str
    type: Literal["order.backordered"]
    createdAt: str
    # The order
    orderNumber: str
    # The order's version after the change: 1 for order.created, then 2, 3... so a gap shows a
    # missed event
    sequence: int
    data: OrderBackorderedEventData


class OrderShippedEventDataUnitsItem(TypedDict):
    agency: Literal["GS1", "HIBCC", "ICCBBA"]
    deviceId: str
    lot: Optional[str]
    serial: Optional[str]
    expiry: Optional[str]
    # Units the code names: 1, or a case's quantity
    units: int


class _OrderShippedEventDataRequired(TypedDict):
    """The required keys of OrderShippedEventData."""
    orderNumber: str
    # The order's status after the change, derived from its lines (docs/api.md, Order lifecycle)
    status: str
    lineId: int
    # The line's status after the move (a parcel that leaves part of the line to ship keeps its
    # status)
    lineStatus: str
    # When the vendor made the move
    at: str
    trackingNumber: str
    carrierName: str
    serviceLevel: str
    # How much of the line is in this parcel
    quantity: int
    # How much of the line has shipped so far
    shippedQuantity: int
    shippedAt: str


class OrderShippedEventData(_OrderShippedEventDataRequired, total=False):
    # The UDIs the vendor scanned from the parcel's units, when it sent them (lot and serial for
    # recalls)
    units: List[OrderShippedEventDataUnitsItem]


class OrderShippedEvent(TypedDict):
    """A vendor shipped a parcel with (part of) a line."""
    # The event id: the same in the feed and in every webhook delivery of it
    id: str
    type: Literal["order.shipped"]
    createdAt: str
    # The order
    orderNumber: str
    # The order's version after the change: 1 for order.created, then 2, 3... so a gap shows a
    # missed event
    sequence: int
    data: OrderShippedEventData


class OrderDeliveredEventData(TypedDict):
    orderNumber: str
    # The order's status after the change, derived from its lines (docs/api.md, Order lifecycle)
    status: str
    lineId: int
    # The line's status after the move (a parcel that leaves part of the line to ship keeps its
    # status)
    lineStatus: str
    # When the vendor made the move
    at: str
    deliveredAt: str


class OrderDeliveredEvent(TypedDict):
    """A vendor marked a line delivered."""
    # The event id: the same in the feed and in every webhook delivery of it
    id: str
    type: Literal["order.delivered"]
    createdAt: str
    # The order
    orderNumber: str
    # The order's version after the change: 1 for order.created, then 2, 3... so a gap shows a
    # missed event
    sequence: int
    data: OrderDeliveredEventData


class OrderCancelledEventData(TypedDict):
    orderNumber: str
    # The order's status after the change, derived from its lines (docs/api.md, Order lifecycle)
    status: str
    cancelledLineIds: List[int]
    reason: Optional[str]
    cancelledAt: str


class OrderCancelledEvent(TypedDict):
    """The buyer cancelled lines (POST /orders/{orderNumber}/cancel)."""
    # The event id: the same in the feed and in every webhook delivery of it
    id: str
    type: Literal["order.cancelled"]
    createdAt: str
    # The order
    orderNumber: str
    # The order's version after the change: 1 for order.created, then 2, 3... so a gap shows a
    # missed event
    sequence: int
    data: OrderCancelledEventData


class OrderRejectedEventData(TypedDict):
    orderNumber: str
    # The order's status after the change, derived from its lines (docs/api.md, Order lifecycle)
    status: str
    lineId: int
    # The line's status after the move (a parcel that leaves part of the line to ship keeps its
    # status)
    lineStatus: str
    # When the vendor made the move
    at: str
    reason: str


class OrderRejectedEvent(TypedDict):
    """A vendor rejected a line."""
    # The event id: the same in the feed and in every webhook delivery of it
    id: str
    type: Literal["order.rejected"]
    createdAt: str
    # The order
    orderNumber: str
    # The order's version after the change: 1 for order.created, then 2, 3... so a gap shows a
    # missed event
    sequence: int
    data: OrderRejectedEventData


class OrderConfirmedEventDataLinesItemSubstitute(TypedDict):
    """IS: the product offered instead"""
    partNumber: str
    description: str


class _OrderConfirmedEventDataLinesItemRequired(TypedDict):
    """The required keys of OrderConfirmedEventDataLinesItem."""
    lineId: int
    # The X12 855 line status code (docs/api.md, Confirmations)
    code: str
    # The code's name
    name: str
    # The line's status after the confirmation
    lineStatus: str
    # The change waits for the buyer's answer (POST .../change-decision)
    awaitingBuyer: bool
    # The price proposed is above the buyer's contract price
    contractPriceException: bool


class OrderConfirmedEventDataLinesItem(_OrderConfirmedEventDataLinesItemRequired, total=False):
    promisedShipDate: Optional[str]
    expectedShipDate: str
    # IQ, IC: the quantity proposed; BP: how much ships now
    quantity: int
    previousQuantity: int
    # The unit price proposed: a decimal string with two decimal places (docs/api.md, "Money")
    unitPrice: str
    # The line's unit price before: a decimal string with two decimal places (docs/api.md, "Money")
    previousUnitPrice: str
    # ISO 4217 currency of unitPrice and previousUnitPrice, with them
    currency: str
    # IS: the product offered instead
    substitute: OrderConfirmedEventDataLinesItemSubstitute
    reason: Optional[str]


class OrderConfirmedEventData(TypedDict):
    orderNumber: str
    # The order's status after the change, derived from its lines (docs/api.md, Order lifecycle)
    status: str
    # accept, detail, except, backordered or reject
    type: str
    # Each line the confirmation changed
    lines: List[OrderConfirmedEventDataLinesItem]
    at: str


class OrderConfirmedEvent(TypedDict):
    """A vendor confirmed lines with X12 855 codes (POST /vendor/api/order-confirmations)."""
    # The event id: the same in the feed and in every webhook delivery of it
    id: str
    type: Literal["order.confirmed"]
    createdAt: str
    # The order
    orderNumber: str
    # The order's version after the change: 1 for order.created, then 2, 3... so a gap shows a
    # missed event
    sequence: int
    data: OrderConfirmedEventData


class OrderChangeAcceptedEventData(TypedDict):
    orderNumber: str
    # The order's status after the change, derived from its lines (docs/api.md, Order lifecycle)
    status: str
    lineId: int
    # The line's status after the move (a parcel that leaves part of the line to ship keeps its
    # status)
    lineStatus: str
    # When the vendor made the move
    at: str
    # The X12 855 code of the change answered
    code: str
    reason: Optional[str]


class OrderChangeAcceptedEvent(TypedDict):
    """The buyer accepted a vendor's change of a line (one within the tenant's automatic acceptance
    applies in order.confirmed).
    """
    # The event id: the same in the feed and in every webhook delivery of it
    id: str
    type: Literal["order.change_accepted"]
    createdAt: str
    # The order
    orderNumber: str
    # The order's version after the change: 1 for order.created, then 2, 3... so a gap shows a
    # missed event
    sequence: int
    data: OrderChangeAcceptedEventData


class OrderChangeDeclinedEventData(TypedDict):
    orderNumber: str
    # The order's status after the change, derived from its lines (docs/api.md, Order lifecycle)
    status: str
    lineId: int
    # The line's status after the move (a parcel that leaves part of the line to ship keeps its
    # status)
    lineStatus: str
    # When the vendor made the move
    at: str
    # The X12 855 code of the change answered
    code: str
    reason: Optional[str]


class OrderChangeDeclinedEvent(TypedDict):
    """The buyer declined a vendor's change of a line: the line is cancelled."""
    # The event id: the same in the feed and in every webhook delivery of it
    id: str
    type: Literal["order.change_declined"]
    createdAt: str
    # The order
    orderNumber: str
    # The order's version after the change: 1 for order.created, then 2, 3... so a gap shows a
    # missed event
    sequence: int
    data: OrderChangeDeclinedEventData


class InvoiceReceivedEventDataExceptionsItem(TypedDict):
    lineNumber: int
    matchStatus: str
    explanation: str


class InvoiceReceivedEventData(TypedDict):
    orderNumber: str
    # The order's status after the change, derived from its lines (docs/api.md, Order lifecycle)
    status: str
    invoiceId: int
    invoiceNumber: str
    vendorId: int
    # matched, exception, accepted or disputed
    invoiceStatus: str
    # The invoice total: a decimal string with two decimal places (docs/api.md, "Money")
    total: str
    currency: str
    # The invoice's lines that do not match, each explained (empty when all match)
    exceptions: List[InvoiceReceivedEventDataExceptionsItem]
    # invoice.disputed: the buyer's reason
    reason: Optional[str]


class InvoiceReceivedEvent(TypedDict):
    """A vendor sent an invoice (POST /vendor/api/invoices)."""
    # The event id: the same in the feed and in every webhook delivery of it
    id: str
    type: Literal["invoice.received"]
    createdAt: str
    # The order
    orderNumber: str
    # The order's version after the change: 1 for order.created, then 2, 3... so a gap shows a
    # missed event
    sequence: int
    data: InvoiceReceivedEventData


class InvoiceMatchedEventDataExceptionsItem(TypedDict):
    lineNumber: int
    matchStatus: str
    explanation: str


class InvoiceMatchedEventData(TypedDict):
    orderNumber: str
    # The order's status after the change, derived from its lines (docs/api.md, Order lifecycle)
    status: str
    invoiceId: int
    invoiceNumber: str
    vendorId: int
    # matched, exception, accepted or disputed
    invoiceStatus: str
    # The invoice total: a decimal string with two decimal places (docs/api.md, "Money")
    total: str
    currency: str
    # The invoice's lines that do not match, each explained (empty when all match)
    exceptions: List[InvoiceMatchedEventDataExceptionsItem]
    # invoice.disputed: the buyer's reason
    reason: Optional[str]


class InvoiceMatchedEvent(TypedDict):
    """Every line of an invoice matches the order and what shipped."""
    # The event id: the same in the feed and in every webhook delivery of it
    id: str
    type: Literal["invoice.matched"]
    createdAt: str
    # The order
    orderNumber: str
    # The order's version after the change: 1 for order.created, then 2, 3... so a gap shows a
    # missed event
    sequence: int
    data: InvoiceMatchedEventData


class InvoiceExceptionEventDataExceptionsItem(TypedDict):
    lineNumber: int
    matchStatus: str
    explanation: str


class InvoiceExceptionEventData(TypedDict):
    orderNumber: str
    # The order's status after the change, derived from its lines (docs/api.md, Order lifecycle)
    status: str
    invoiceId: int
    invoiceNumber: str
    vendorId: int
    # matched, exception, accepted or disputed
    invoiceStatus: str
    # The invoice total: a decimal string with two decimal places (docs/api.md, "Money")
    total: str
    currency: str
    # The invoice's lines that do not match, each explained (empty when all match)
    exceptions: List[InvoiceExceptionEventDataExceptionsItem]
    # invoice.disputed: the buyer's reason
    reason: Optional[str]


class InvoiceExceptionEvent(TypedDict):
    """A line of an invoice does not match (price, quantity, not on the order, contract price)."""
    # The event id: the same in the feed and in every webhook delivery of it
    id: str
    type: Literal["invoice.exception"]
    createdAt: str
    # The order
    orderNumber: str
    # The order's version after the change: 1 for order.created, then 2, 3... so a gap shows a
    # missed event
    sequence: int
    data: InvoiceExceptionEventData


class InvoiceAcceptedEventDataExceptionsItem(TypedDict):
    lineNumber: int
    matchStatus: str
    explanation: str


class InvoiceAcceptedEventData(TypedDict):
    orderNumber: str
    # The order's status after the change, derived from its lines (docs/api.md, Order lifecycle)
    status: str
    invoiceId: int
    invoiceNumber: str
    vendorId: int
    # matched, exception, accepted or disputed
    invoiceStatus: str
    # The invoice total: a decimal string with two decimal places (docs/api.md, "Money")
    total: str
    currency: str
    # The invoice's lines that do not match, each explained (empty when all match)
    exceptions: List[InvoiceAcceptedEventDataExceptionsItem]
    # invoice.disputed: the buyer's reason
    reason: Optional[str]


class InvoiceAcceptedEvent(TypedDict):
    """The buyer accepted an invoice for payment."""
    # The event id: the same in the feed and in every webhook delivery of it
    id: str
    type: Literal["invoice.accepted"]
    createdAt: str
    # The order
    orderNumber: str
    # The order's version after the change: 1 for order.created, then 2, 3... so a gap shows a
    # missed event
    sequence: int
    data: InvoiceAcceptedEventData


class InvoiceDisputedEventDataExceptionsItem(TypedDict):
    lineNumber: int
    matchStatus: str
    explanation: str


class InvoiceDisputedEventData(TypedDict):
    orderNumber: str
    # The order's status after the change, derived from its lines (docs/api.md, Order lifecycle)
    status: str
    invoiceId: int
    invoiceNumber: str
    vendorId: int
    # matched, exception, accepted or disputed
    invoiceStatus: str
    # The invoice total: a decimal string with two decimal places (docs/api.md, "Money")
    total: str
    currency: str
    # The invoice's lines that do not match, each explained (empty when all match)
    exceptions: List[InvoiceDisputedEventDataExceptionsItem]
    # invoice.disputed: the buyer's reason
    reason: Optional[str]


class InvoiceDisputedEvent(TypedDict):
    """The buyer disputed an invoice, with a reason."""
    # The event id: the same in the feed and in every webhook delivery of it
    id: str
    type: Literal["invoice.disputed"]
    createdAt: str
    # The order
    orderNumber: str
    # The order's version after the change: 1 for order.created, then 2, 3... so a gap shows a
    # missed event
    sequence: int
    data: InvoiceDisputedEventData


class CreditMemoReceivedEventData(TypedDict):
    orderNumber: str
    # The order's status after the change, derived from its lines (docs/api.md, Order lifecycle)
    status: str
    creditMemoId: int
    creditMemoNumber: str
    invoiceId: int
    invoiceNumber: str
    vendorId: int
    # The credit's total: a decimal string with two decimal places (docs/api.md, "Money")
    total: str
    currency: str


class CreditMemoReceivedEvent(TypedDict):
    """A vendor sent a credit memo against an invoice (POST /vendor/api/credit-memos)."""
    # The event id: the same in the feed and in every webhook delivery of it
    id: str
    type: Literal["credit_memo.received"]
    createdAt: str
    # The order
    orderNumber: str
    # The order's version after the change: 1 for order.created, then 2, 3... so a gap shows a
    # missed event
    sequence: int
    data: CreditMemoReceivedEventData


class _CoreOpenedEventDataRequired(TypedDict):
    """The required keys of CoreOpenedEventData."""
    orderNumber: str
    # The order's status after the change, derived from its lines (docs/api.md, Order lifecycle)
    status: str
    returnId: int
    # core, loaner, repair or rma
    kind: str
    # The return's status after the step
    returnStatus: str
    lineId: int
    vendorId: int
    quantity: int
    rmaNumber: Optional[str]
    # When it is due back (cores, loaners; a return's return-by date)
    dueAt: Optional[str]
    # When the step was taken
    at: str
    # ISO 4217 currency of `amount`
    currency: str


class CoreOpenedEventData(_CoreOpenedEventDataRequired, total=False):
    carrierName: str
    trackingNumber: str
    reason: Optional[str]
    # core.charged, loaner.charged: what was billed; repair.quoted, repair.approved: the price;
    # return.authorized: the restocking fee: a decimal string with two decimal places (docs/api.md,
    # "Money")
    amount: str
    # core.charged, loaner.charged: the invoice of the charge
    invoiceId: int
    # repair.returned: whether the unit was repaired
    repaired: bool


class CoreOpenedEvent(TypedDict):
    """An exchange line shipped: its core is to come back (RMA number, due date, charge if late)."""
    # The event id: the same in the feed and in every webhook delivery of it
    id: str
    type: Literal["core.opened"]
    createdAt: str
    # The order
    orderNumber: str
    # The order's version after the change: 1 for order.created, then 2, 3... so a gap shows a
    # missed event
    sequence: int
    data: CoreOpenedEventData


class _CoreDueSoonEventDataRequired(TypedDict):
    """The required keys of CoreDueSoonEventData."""
    orderNumber: str
    # The order's status after the change, derived from its lines (docs/api.md, Order lifecycle)
    status: str
    returnId: int
    # core, loaner, repair or rma
    kind: str
    # The return's status after the step
    returnStatus: str
    lineId: int
    vendorId: int
    quantity: int
    rmaNumber: Optional[str]
    # When it is due back (cores, loaners; a return's return-by date)
    dueAt: Optional[str]
    # When the step was taken
    at: str
    # ISO 4217 currency of `amount`
    currency: str


class CoreDueSoonEventData(_CoreDueSoonEventDataRequired, total=False):
    carrierName: str
    trackingNumber: str
    reason: Optional[str]
    # core.charged, loaner.charged: what was billed; repair.quoted, repair.approved: the price;
    # return.authorized: the restocking fee: a decimal string with two decimal places (docs/api.md,
    # "Money")
    amount: str
    # core.charged, loaner.charged: the invoice of the charge
    invoiceId: int
    # repair.returned: whether the unit was repaired
    repaired: bool


class CoreDueSoonEvent(TypedDict):
    """A core is due back within the tenant's warning days (once per core)."""
    # The event id: the same in the feed and in every webhook delivery of it
    id: str
    type: Literal["core.due_soon"]
    createdAt: str
    # The order
    orderNumber: str
    # The order's version after the change: 1 for order.created, then 2, 3... so a gap shows a
    # missed event
    sequence: int
    data: CoreDueSoonEventData


class _CoreOverdueEventDataRequired(TypedDict):
    """The required keys of CoreOverdueEventData."""
    orderNumber: str
    # The order's status after the change, derived from its lines (docs/api.md, Order lifecycle)
    status: str
    returnId: int
    # core, loaner, repair or rma
    kind: str
    # The return's status after the step
    returnStatus: str
    lineId: int
    vendorId: int
    quantity: int
    rmaNumber: Optional[str]
    # When it is due back (cores, loaners; a return's return-by date)
    dueAt: Optional[str]
    # When the step was taken
    at: str
    # ISO 4217 currency of `amount`
    currency: str


class CoreOverdueEventData(_CoreOverdueEventDataRequired, total=False):
    carrierName: str
    trackingNumber: str
    reason: Optional[str]
    # core.charged, loaner.charged: what was billed; repair.quoted, repair.approved: the price;
    # return.authorized: the restocking fee: a decimal string with two decimal places (docs/api.md,
    # "Money")
    amount: str
    # core.charged, loaner.charged: the invoice of the charge
    invoiceId: int
    # repair.returned: whether the unit was repaired
    repaired: bool


class CoreOverdueEvent(TypedDict):
    """A core was not shipped back by its due date (once per core)."""
    # The event id: the same in the feed and in every webhook delivery of it
    id: str
    type: Literal["core.overdue"]
    createdAt: str
    # The order
    orderNumber: str
    # The order's version after the change: 1 for order.created, then 2, 3... so a gap shows a
    # missed event
    sequence: int
    data: CoreOverdueEventData


class _CoreShippedEventDataRequired(TypedDict):
    """The required keys of CoreShippedEventData."""
    orderNumber: str
    # The order's status after the change, derived from its lines (docs/api.md, Order lifecycle)
    status: str
    returnId: int
    # core, loaner, repair or rma
    kind: str
    # The return's status after the step
    returnStatus: str
    lineId: int
    vendorId: int
    quantity: int
    rmaNumber: Optional[str]
    # When it is due back (cores, loaners; a return's return-by date)
    dueAt: Optional[str]
    # When the step was taken
    at: str
    # ISO 4217 currency of `amount`
    currency: str


class CoreShippedEventData(_CoreShippedEventDataRequired, total=False):
    carrierName: str
    trackingNumber: str
    reason: Optional[str]
    # core.charged, loaner.charged: what was billed; repair.quoted, repair.approved: the price;
    # return.authorized: the restocking fee: a decimal string with two decimal places (docs/api.md,
    # "Money")
    amount: str
    # core.charged, loaner.charged: the invoice of the charge
    invoiceId: int
    # repair.returned: whether the unit was repaired
    repaired: bool


class CoreShippedEvent(TypedDict):
    """The buyer shipped a core back, with carrier and tracking."""
    # The event id: the same in the feed and in every webhook delivery of it
    id: str
    type: Literal["core.shipped"]
    createdAt: str
    # The order
    orderNumber: str
    # The order's version after the change: 1 for order.created, then 2, 3... so a gap shows a
    # missed event
    sequence: int
    data: CoreShippedEventData


class _CoreReceivedEventDataRequired(TypedDict):
    """The required keys of CoreReceivedEventData."""
    orderNumber: str
    # The order's status after the change, derived from its lines (docs/api.md, Order lifecycle)
    status: str
    returnId: int
    # core, loaner, repair or rma
    kind: str
    # The return's status after the step
    returnStatus: str
    lineId: int
    vendorId: int
    quantity: int
    rmaNumber: Optional[str]
    # When it is due back (cores, loaners; a return's return-by date)
    dueAt: Optional[str]
    # When the step was taken
    at: str
    # ISO 4217 currency of `amount`
    currency: str


class CoreReceivedEventData(_CoreReceivedEventDataRequired, total=False):
    carrierName: str
    trackingNumber: str
    reason: Optional[str]
    # core.charged, loaner.charged: what was billed; repair.quoted, repair.approved: the price;
    # return.authorized: the restocking fee: a decimal string with two decimal places (docs/api.md,
    # "Money")
    amount: str
    # core.charged, loaner.charged: the invoice of the charge
    invoiceId: int
    # repair.returned: whether the unit was repaired
    repaired: bool


class CoreReceivedEvent(TypedDict):
    """The vendor received a core and accepted it."""
    # The event id: the same in the feed and in every webhook delivery of it
    id: str
    type: Literal["core.received"]
    createdAt: str
    # The order
    orderNumber: str
    # The order's version after the change: 1 for order.created, then 2, 3... so a gap shows a
    # missed event
    sequence: int
    data: CoreReceivedEventData


class _CoreRefusedEventDataRequired(TypedDict):
    """The required keys of CoreRefusedEventData."""
    orderNumber: str
    # The order's status after the change, derived from its lines (docs/api.md, Order lifecycle)
    status: str
    returnId: int
    # core, loaner, repair or rma
    kind: str
    # The return's status after the step
    returnStatus: str
    lineId: int
    vendorId: int
    quantity: int
    rmaNumber: Optional[str]
    # When it is due back (cores, loaners; a return's return-by date)
    dueAt: Optional[str]
    # When the step was taken
    at: str
    # ISO 4217 currency of `amount`
    currency: str


class CoreRefusedEventData(_CoreRefusedEventDataRequired, total=False):
    carrierName: str
    trackingNumber: str
    reason: Optional[str]
    # core.charged, loaner.charged: what was billed; repair.quoted, repair.approved: the price;
    # return.authorized: the restocking fee: a decimal string with two decimal places (docs/api.md,
    # "Money")
    amount: str
    # core.charged, loaner.charged: the invoice of the charge
    invoiceId: int
    # repair.returned: whether the unit was repaired
    repaired: bool


class CoreRefusedEvent(TypedDict):
    """The vendor received a core and refused it (not repairable), with a reason."""
    # The event id: the same in the feed and in every webhook delivery of it
    id: str
    type: Literal["core.refused"]
    createdAt: str
    # The order
    orderNumber: str
    # The order's version after the change: 1 for order.created, then 2, 3... so a gap shows a
    # missed event
    sequence: int
    data: CoreRefusedEventData


class _CoreChargedEventDataRequired(TypedDict):
    """The required keys of CoreChargedEventData."""
    orderNumber: str
    # The order's status after the change, derived from its lines (docs/api.md, Order lifecycle)
    status: str
    returnId: int
    # core, loaner, repair or rma
    kind: str
    # The return's status after the step
    returnStatus: str
    lineId: int
    vendorId: int
    quantity: int
    rmaNumber: Optional[str]
    # When it is due back (cores, loaners; a return's return-by date)
    dueAt: Optional[str]
    # When the step was taken
    at: str
    # ISO 4217 currency of `amount`
    currency: str


class CoreChargedEventData(_CoreChargedEventDataRequired, total=False):
    carrierName: str
    trackingNumber: str
    reason: Optional[str]
    # core.charged, loaner.charged: what was billed; repair.quoted, repair.approved: the price;
    # return.authorized: the restocking fee: a decimal string with two decimal places (docs/api.md,
    # "Money")
    amount: str
    # core.charged, loaner.charged: the invoice of the charge
    invoiceId: int
    # repair.returned: whether the unit was repaired
    repaired: bool


class CoreChargedEvent(TypedDict):
    """An overdue or refused core was billed: an invoice of its core charge, linked to the order line."""
    # The event id: the same in the feed and in every webhook delivery of it
    id: str
    type: Literal["core.charged"]
    createdAt: str
    # The order
    orderNumber: str
    # The order's version after the change: 1 for order.created, then 2, 3... so a gap shows a
    # missed event
    sequence: int
    data: CoreChargedEventData


class _LoanerOpenedEventDataRequired(TypedDict):
    """The required keys of LoanerOpenedEventData."""
    orderNumber: str
    # The order's status after the change, derived from its lines (docs/api.md, Order lifecycle)
    status: str
    returnId: int
    # core, loaner, repair or rma
    kind: str
    # The return's status after the step
    returnStatus: str
    lineId: int
    vendorId: int
    quantity: int
    rmaNumber: Optional[str]
    # When it is due back (cores, loaners; a return's return-by date)
    dueAt: Optional[str]
    # When the step was taken
    at: str
    # ISO 4217 currency of `amount`
    currency: str


class LoanerOpenedEventData(_LoanerOpenedEventDataRequired, total=False):
    carrierName: str
    trackingNumber: str
    reason: Optional[str]
    # core.charged, loaner.charged: what was billed; repair.quoted, repair.approved: the price;
    # return.authorized: the restocking fee: a decimal string with two decimal places (docs/api.md,
    # "Money")
    amount: str
    # core.charged, loaner.charged: the invoice of the charge
    invoiceId: int
    # repair.returned: whether the unit was repaired
    repaired: bool


class LoanerOpenedEvent(TypedDict):
    """A loaner shipped: it is to come back by its due date."""
    # The event id: the same in the feed and in every webhook delivery of it
    id: str
    type: Literal["loaner.opened"]
    createdAt: str
    # The order
    orderNumber: str
    # The order's version after the change: 1 for order.created, then 2, 3... so a gap shows a
    # missed event
    sequence: int
    data: LoanerOpenedEventData


class _LoanerDueSoonEventDataRequired(TypedDict):
    """The required keys of LoanerDueSoonEventData."""
    orderNumber: str
    # The order's status after the change, derived from its lines (docs/api.md, Order lifecycle)
    status: str
    returnId: int
    # core, loaner, repair or rma
    kind: str
    # The return's status after the step
    returnStatus: str
    lineId: int
    vendorId: int
    quantity: int
    rmaNumber: Optional[str]
    # When it is due back (cores, loaners; a return's return-by date)
    dueAt: Optional[str]
    # When the step was taken
    at: str
    # ISO 4217 currency of `amount`
    currency: str


class LoanerDueSoonEventData(_LoanerDueSoonEventDataRequired, total=False):
    carrierName: str
    trackingNumber: str
    reason: Optional[str]
    # core.charged, loaner.charged: what was billed; repair.quoted, repair.approved: the price;
    # return.authorized: the restocking fee: a decimal string with two decimal places (docs/api.md,
    # "Money")
    amount: str
    # core.charged, loaner.charged: the invoice of the charge
    invoiceId: int
    # repair.returned: whether the unit was repaired
    repaired: bool


class LoanerDueSoonEvent(TypedDict):
    """A loaner is due back within the tenant's warning days (once per loaner)."""
    # The event id: the same in the feed and in every webhook delivery of it
    id: str
    type: Literal["loaner.due_soon"]
    createdAt: str
    # The order
    orderNumber: str
    # The order's version after the change: 1 for order.created, then 2, 3... so a gap shows a
    # missed event
    sequence: int
    data: LoanerDueSoonEventData


class _LoanerOverdueEventDataRequired(TypedDict):
    """The required keys of LoanerOverdueEventData."""
    orderNumber: str
    # The order's status after the change, derived from its lines (docs/api.md, Order lifecycle)
    status: str
    returnId: int
    # core, loaner, repair or rma
    kind: str
    # The return's status after the step
    returnStatus: str
    lineId: int
    vendorId: int
    quantity: int
    rmaNumber: Optional[str]
    # When it is due back (cores, loaners; a return's return-by date)
    dueAt: Optional[str]
    # When the step was taken
    at: str
    # ISO 4217 currency of `amount`
    currency: str


class LoanerOverdueEventData(_LoanerOverdueEventDataRequired, total=False):
    carrierName: str
    trackingNumber: str
    reason: Optional[str]
    # core.charged, loaner.charged: what was billed; repair.quoted, repair.approved: the price;
    # return.authorized: the restocking fee: a decimal string with two decimal places (docs/api.md,
    # "Money")
    amount: str
    # core.charged, loaner.charged: the invoice of the charge
    invoiceId: int
    # repair.returned: whether the unit was repaired
    repaired: bool


class LoanerOverdueEvent(TypedDict):
    """A loaner was not shipped back by its due date: late fees accrue per day (once per loaner)."""
    # The event id: the same in the feed and in every webhook delivery of it
    id: str
    type: Literal["loaner.overdue"]
    createdAt: str
    # The order
    orderNumber: str
    # The order's version after the change: 1 for order.created, then 2, 3... so a gap shows a
    # missed event
    sequence: int
    data: LoanerOverdueEventData


class _LoanerShippedEventDataRequired(TypedDict):
    """The required keys of LoanerShippedEventData."""
    orderNumber: str
    # The order's status after the change, derived from its lines (docs/api.md, Order lifecycle)
    status: str
    returnId: int
    # core, loaner, repair or rma
    kind: str
    # The return's status after the step
    returnStatus: str
    lineId: int
    vendorId: int
    quantity: int
    rmaNumber: Optional[str]
    # When it is due back (cores, loaners; a return's return-by date)
    dueAt: Optional[str]
    # When the step was taken
    at: str
    # ISO 4217 currency of `amount`
    currency: str


class LoanerShippedEventData(_LoanerShippedEventDataRequired, total=False):
    carrierName: str
    trackingNumber: str
    reason: Optional[str]
    # core.charged, loaner.charged: what was billed; repair.quoted, repair.approved: the price;
    # return.authorized: the restocking fee: a decimal string with two decimal places (docs/api.md,
    # "Money")
    amount: str
    # core.charged, loaner.charged: the invoice of the charge
    invoiceId: int
    # repair.returned: whether the unit was repaired
    repaired: bool


class LoanerShippedEvent(TypedDict):
    """The buyer shipped a loaner back."""
    # The event id: the same in the feed and in every webhook delivery of it
    id: str
    type: Literal["loaner.shipped"]
    createdAt: str
    # The order
    orderNumber: str
    # The order's version after the change: 1 for order.created, then 2, 3... so a gap shows a
    # missed event
    sequence: int
    data: LoanerShippedEventData


class _LoanerReceivedEventDataRequired(TypedDict):
    """The required keys of LoanerReceivedEventData."""
    orderNumber: str
    # The order's status after the change, derived from its lines (docs/api.md, Order lifecycle)
    status: str
    returnId: int
    # core, loaner, repair or rma
    kind: str
    # The return's status after the step
    returnStatus: str
    lineId: int
    vendorId: int
    quantity: int
    rmaNumber: Optional[str]
    # When it is due back (cores, loaners; a return's return-by date)
    dueAt: Optional[str]
    # When the step was taken
    at: str
    # ISO 4217 currency of `amount`
    currency: str


class LoanerReceivedEventData(_LoanerReceivedEventDataRequired, total=False):
    carrierName: str
    trackingNumber: str
    reason: Optional[str]
    # core.charged, loaner.charged: what was billed; repair.quoted, repair.approved: the price;
    # return.authorized: the restocking fee: a decimal string with two decimal places (docs/api.md,
    # "Money")
    amount: str
    # core.charged, loaner.charged: the invoice of the charge
    invoiceId: int
    # repair.returned: whether the unit was repaired
    repaired: bool


class LoanerReceivedEvent(TypedDict):
    """The vendor received a loaner back."""
    # The event id: the same in the feed and in every webhook delivery of it
    id: str
    type: Literal["loaner.received"]
    createdAt: str
    # The order
    orderNumber: str
    # The order's version after the change: 1 for order.created, then 2, 3... so a gap shows a
    # missed event
    sequence: int
    data: LoanerReceivedEventData


class _LoanerChargedEventDataRequired(TypedDict):
    """The required keys of LoanerChargedEventData."""
    orderNumber: str
    # The order's status after the change, derived from its lines (docs/api.md, Order lifecycle)
    status: str
    returnId: int
    # core, loaner, repair or rma
    kind: str
    # The return's status after the step
    returnStatus: str
    lineId: int
    vendorId: int
    quantity: int
    rmaNumber: Optional[str]
    # When it is due back (cores, loaners; a return's return-by date)
    dueAt: Optional[str]
    # When the step was taken
    at: str
    # ISO 4217 currency of `amount`
    currency: str


class LoanerChargedEventData(_LoanerChargedEventDataRequired, total=False):
    carrierName: str
    trackingNumber: str
    reason: Optional[str]
    # core.charged, loaner.charged: what was billed; repair.quoted, repair.approved: the price;
    # return.authorized: the restocking fee: a decimal string with two decimal places (docs/api.md,
    # "Money")
    amount: str
    # core.charged, loaner.charged: the invoice of the charge
    invoiceId: int
    # repair.returned: whether the unit was repaired
    repaired: bool


class LoanerChargedEvent(TypedDict):
    """A loaner came back late: an invoice of its late fees."""
    # The event id: the same in the feed and in every webhook delivery of it
    id: str
    type: Literal["loaner.charged"]
    createdAt: str
    # The order
    orderNumber: str
    # The order's version after the change: 1 for order.created, then 2, 3... so a gap shows a
    # missed event
    sequence: int
    data: LoanerChargedEventData


class _RepairUnitShippedEventDataRequired(TypedDict):
    """The required keys of RepairUnitShippedEventData."""
    orderNumber: str
    # The order's status after the change, derived from its lines (docs/api.md, Order lifecycle)
    status: str
    returnId: int
    # core, loaner, repair or rma
    kind: str
    # The return's status after the step
    returnStatus: str
    lineId: int
    vendorId: int
    quantity: int
    rmaNumber: Optional[str]
    # When it is due back (cores, loaners; a return's return-by date)
    dueAt: Optional[str]
    # When the step was taken
    at: str
    # ISO 4217 currency of `amount`
    currency: str


class RepairUnitShippedEventData(_RepairUnitShippedEventDataRequired, total=False):
    carrierName: str
    trackingNumber: str
    reason: Optional[str]
    # core.charged, loaner.charged: what was billed; repair.quoted, repair.approved: the price;
    # return.authorized: the restocking fee: a decimal string with two decimal places (docs/api.md,
    # "Money")
    amount: str
    # core.charged, loaner.charged: the invoice of the charge
    invoiceId: int
    # repair.returned: whether the unit was repaired
    repaired: bool


class RepairUnitShippedEvent(TypedDict):
    """The buyer sent a unit in for repair, with tracking."""
    # The event id: the same in the feed and in every webhook delivery of it
    id: str
    type: Literal["repair.unit_shipped"]
    createdAt: str
    # The order
    orderNumber: str
    # The order's version after the change: 1 for order.created, then 2, 3... so a gap shows a
    # missed event
    sequence: int
    data: RepairUnitShippedEventData


class _RepairReceivedEventDataRequired(TypedDict):
    """The required keys of RepairReceivedEventData."""
    orderNumber: str
    # The order's status after the change, derived from its lines (docs/api.md, Order lifecycle)
    status: str
    returnId: int
    # core, loaner, repair or rma
    kind: str
    # The return's status after the step
    returnStatus: str
    lineId: int
    vendorId: int
    quantity: int
    rmaNumber: Optional[str]
    # When it is due back (cores, loaners; a return's return-by date)
    dueAt: Optional[str]
    # When the step was taken
    at: str
    # ISO 4217 currency of `amount`
    currency: str


class RepairReceivedEventData(_RepairReceivedEventDataRequired, total=False):
    carrierName: str
    trackingNumber: str
    reason: Optional[str]
    # core.charged, loaner.charged: what was billed; repair.quoted, repair.approved: the price;
    # return.authorized: the restocking fee: a decimal string with two decimal places (docs/api.md,
    # "Money")
    amount: str
    # core.charged, loaner.charged: the invoice of the charge
    invoiceId: int
    # repair.returned: whether the unit was repaired
    repaired: bool


class RepairReceivedEvent(TypedDict):
    """The vendor received a unit sent in for repair."""
    # The event id: the same in the feed and in every webhook delivery of it
    id: str
    type: Literal["repair.received"]
    createdAt: str
    # The order
    orderNumber: str
    # The order's version after the change: 1 for order.created, then 2, 3... so a gap shows a
    # missed event
    sequence: int
    data: RepairReceivedEventData


class _RepairDiagnosedEventDataRequired(TypedDict):
    """The required keys of RepairDiagnosedEventData."""
    orderNumber: str
    # The order's status after the change, derived from its lines (docs/api.md, Order lifecycle)
    status: str
    returnId: int
    # core, loaner, repair or rma
    kind: str
    # The return's status after the step
    returnStatus: str
    lineId: int
    vendorId: int
    quantity: int
    rmaNumber: Optional[str]
    # When it is due back (cores, loaners; a return's return-by date)
    dueAt: Optional[str]
    # When the step was taken
    at: str
    # ISO 4217 currency of `amount`
    currency: str


class RepairDiagnosedEventData(_RepairDiagnosedEventDataRequired, total=False):
    carrierName: str
    trackingNumber: str
    reason: Optional[str]
    # core.charged, loaner.charged: what was billed; repair.quoted, repair.approved: the price;
    # return.authorized: the restocking fee: a decimal string with two decimal places (docs/api.md,
    # "Money")
    amount: str
    # core.charged, loaner.charged: the invoice of the charge
    invoiceId: int
    # repair.returned: whether the unit was repaired
    repaired: bool


class RepairDiagnosedEvent(TypedDict):
    """The vendor diagnosed a unit as repairable within the flat rate: the repair goes on."""
    # The event id: the same in the feed and in every webhook delivery of it
    id: str
    type: Literal["repair.diagnosed"]
    createdAt: str
    # The order
    orderNumber: str
    # The order's version after the change: 1 for order.created, then 2, 3... so a gap shows a
    # missed event
    sequence: int
    data: RepairDiagnosedEventData


class _RepairQuotedEventDataRequired(TypedDict):
    """The required keys of RepairQuotedEventData."""
    orderNumber: str
    # The order's status after the change, derived from its lines (docs/api.md, Order lifecycle)
    status: str
    returnId: int
    # core, loaner, repair or rma
    kind: str
    # The return's status after the step
    returnStatus: str
    lineId: int
    vendorId: int
    quantity: int
    rmaNumber: Optional[str]
    # When it is due back (cores, loaners; a return's return-by date)
    dueAt: Optional[str]
    # When the step was taken
    at: str
    # ISO 4217 currency of `amount`
    currency: str


class RepairQuotedEventData(_RepairQuotedEventDataRequired, total=False):
    carrierName: str
    trackingNumber: str
    reason: Optional[str]
    # core.charged, loaner.charged: what was billed; repair.quoted, repair.approved: the price;
    # return.authorized: the restocking fee: a decimal string with two decimal places (docs/api.md,
    # "Money")
    amount: str
    # core.charged, loaner.charged: the invoice of the charge
    invoiceId: int
    # repair.returned: whether the unit was repaired
    repaired: bool


class RepairQuotedEvent(TypedDict):
    """The vendor diagnosed a unit as beyond the flat rate, with a new price the buyer approves or
    declines.
    """
    # The event id: the same in the feed and in every webhook delivery of it
    id: str
    type: Literal["repair.quoted"]
    createdAt: str
    # The order
    orderNumber: str
    # The order's version after the change: 1 for order.created, then 2, 3... so a gap shows a
    # missed event
    sequence: int
    data: RepairQuotedEventData


class _RepairApprovedEventDataRequired(TypedDict):
    """The required keys of RepairApprovedEventData."""
    orderNumber: str
    # The order's status after the change, derived from its lines (docs/api.md, Order lifecycle)
    status: str
    returnId: int
    # core, loaner, repair or rma
    kind: str
    # The return's status after the step
    returnStatus: str
    lineId: int
    vendorId: int
    quantity: int
    rmaNumber: Optional[str]
    # When it is due back (cores, loaners; a return's return-by date)
    dueAt: Optional[str]
    # When the step was taken
    at: str
    # ISO 4217 currency of `amount`
    currency: str


class RepairApprovedEventData(_RepairApprovedEventDataRequired, total=False):
    carrierName: str
    trackingNumber: str
    reason: Optional[str]
    # core.charged, loaner.charged: what was billed; repair.quoted, repair.approved: the price;
    # return.authorized: the restocking fee: a decimal string with two decimal places (docs/api.md,
    # "Money")
    amount: str
    # core.charged, loaner.charged: the invoice of the charge
    invoiceId: int
    # repair.returned: whether the unit was repaired
    repaired: bool


class RepairApprovedEvent(TypedDict):
    """The buyer approved a repair beyond the flat rate at its new price."""
    # The event id: the same in the feed and in every webhook delivery of it
    id: str
    type: Literal["repair.approved"]
    createdAt: str
    # The order
    orderNumber: str
    # The order's version after the change: 1 for order.created, then 2, 3... so a gap shows a
    # missed event
    sequence: int
    data: RepairApprovedEventData


class _RepairDeclinedEventDataRequired(TypedDict):
    """The required keys of RepairDeclinedEventData."""
    orderNumber: str
    # The order's status after the change, derived from its lines (docs/api.md, Order lifecycle)
    status: str
    returnId: int
    # core, loaner, repair or rma
    kind: str
    # The return's status after the step
    returnStatus: str
    lineId: int
    vendorId: int
    quantity: int
    rmaNumber: Optional[str]
    # When it is due back (cores, loaners; a return's return-by date)
    dueAt: Optional[str]
    # When the step was taken
    at: str
    # ISO 4217 currency of `amount`
    currency: str


class RepairDeclinedEventData(_RepairDeclinedEventDataRequired, total=False):
    carrierName: str
    trackingNumber: str
    reason: Optional[str]
    # core.charged, loaner.charged: what was billed; repair.quoted, repair.approved: the price;
    # return.authorized: the restocking fee: a decimal string with two decimal places (docs/api.md,
    # "Money")
    amount: str
    # core.charged, loaner.charged: the invoice of the charge
    invoiceId: int
    # repair.returned: whether the unit was repaired
    repaired: bool


class RepairDeclinedEvent(TypedDict):
    """The buyer declined a repair beyond the flat rate: the unit comes back unrepaired."""
    # The event id: the same in the feed and in every webhook delivery of it
    id: str
    type: Literal["repair.declined"]
    createdAt: str
    # The order
    orderNumber: str
    # The order's version after the change: 1 for order.created, then 2, 3... so a gap shows a
    # missed event
    sequence: int
    data: RepairDeclinedEventData


class _RepairReturnedEventDataRequired(TypedDict):
    """The required keys of RepairReturnedEventData."""
    orderNumber: str
    # The order's status after the change, derived from its lines (docs/api.md, Order lifecycle)
    status: str
    returnId: int
    # core, loaner, repair or rma
    kind: str
    # The return's status after the step
    returnStatus: str
    lineId: int
    vendorId: int
    quantity: int
    rmaNumber: Optional[str]
    # When it is due back (cores, loaners; a return's return-by date)
    dueAt: Optional[str]
    # When the step was taken
    at: str
    # ISO 4217 currency of `amount`
    currency: str


class RepairReturnedEventData(_RepairReturnedEventDataRequired, total=False):
    carrierName: str
    trackingNumber: str
    reason: Optional[str]
    # core.charged, loaner.charged: what was billed; repair.quoted, repair.approved: the price;
    # return.authorized: the restocking fee: a decimal string with two decimal places (docs/api.md,
    # "Money")
    amount: str
    # core.charged, loaner.charged: the invoice of the charge
    invoiceId: int
    # repair.returned: whether the unit was repaired
    repaired: bool


class RepairReturnedEvent(TypedDict):
    """The vendor sent a unit back, repaired or not, with tracking."""
    # The event id: the same in the feed and in every webhook delivery of it
    id: str
    type: Literal["repair.returned"]
    createdAt: str
    # The order
    orderNumber: str
    # The order's version after the change: 1 for order.created, then 2, 3... so a gap shows a
    # missed event
    sequence: int
    data: RepairReturnedEventData


class _ReturnRequestedEventDataRequired(TypedDict):
    """The required keys of ReturnRequestedEventData."""
    orderNumber: str
    # The order's status after the change, derived from its lines (docs/api.md, Order lifecycle)
    status: str
    returnId: int
    # core, loaner, repair or rma
    kind: str
    # The return's status after the step
    returnStatus: str
    lineId: int
    vendorId: int
    quantity: int
    rmaNumber: Optional[str]
    # When it is due back (cores, loaners; a return's return-by date)
    dueAt: Optional[str]
    # When the step was taken
    at: str
    # ISO 4217 currency of `amount`
    currency: str


class ReturnRequestedEventData(_ReturnRequestedEventDataRequired, total=False):
    carrierName: str
    trackingNumber: str
    reason: Optional[str]
    # core.charged, loaner.charged: what was billed; repair.quoted, repair.approved: the price;
    # return.authorized: the restocking fee: a decimal string with two decimal places (docs/api.md,
    # "Money")
    amount: str
    # core.charged, loaner.charged: the invoice of the charge
    invoiceId: int
    # repair.returned: whether the unit was repaired
    repaired: bool


class ReturnRequestedEvent(TypedDict):
    """The buyer requested a return of delivered units, with a reason."""
    # The event id: the same in the feed and in every webhook delivery of it
    id: str
    type: Literal["return.requested"]
    createdAt: str
    # The order
    orderNumber: str
    # The order's version after the change: 1 for order.created, then 2, 3... so a gap shows a
    # missed event
    sequence: int
    data: ReturnRequestedEventData


class _ReturnAuthorizedEventDataRequired(TypedDict):
    """The required keys of ReturnAuthorizedEventData."""
    orderNumber: str
    # The order's status after the change, derived from its lines (docs/api.md, Order lifecycle)
    status: str
    returnId: int
    # core, loaner, repair or rma
    kind: str
    # The return's status after the step
    returnStatus: str
    lineId: int
    vendorId: int
    quantity: int
    rmaNumber: Optional[str]
    # When it is due back (cores, loaners; a return's return-by date)
    dueAt: Optional[str]
    # When the step was taken
    at: str
    # ISO 4217 currency of `amount`
    currency: str


class ReturnAuthorizedEventData(_ReturnAuthorizedEventDataRequired, total=False):
    carrierName: str
    trackingNumber: str
    reason: Optional[str]
    # core.charged, loaner.charged: what was billed; repair.quoted, repair.approved: the price;
    # return.authorized: the restocking fee: a decimal string with two decimal places (docs/api.md,
    # "Money")
    amount: str
    # core.charged, loaner.charged: the invoice of the charge
    invoiceId: int
    # repair.returned: whether the unit was repaired
    repaired: bool


class ReturnAuthorizedEvent(TypedDict):
    """The vendor authorized a return: RMA number, return-by date, restocking fee."""
    # The event id: the same in the feed and in every webhook delivery of it
    id: str
    type: Literal["return.authorized"]
    createdAt: str
    # The order
    orderNumber: str
    # The order's version after the change: 1 for order.created, then 2, 3... so a gap shows a
    # missed event
    sequence: int
    data: ReturnAuthorizedEventData


class _ReturnDeclinedEventDataRequired(TypedDict):
    """The required keys of ReturnDeclinedEventData."""
    orderNumber: str
    # The order's status after the change, derived from its lines (docs/api.md, Order lifecycle)
    status: str
    returnId: int
    # core, loaner, repair or rma
    kind: str
    # The return's status after the step
    returnStatus: str
    lineId: int
    vendorId: int
    quantity: int
    rmaNumber: Optional[str]
    # When it is due back (cores, loaners; a return's return-by date)
    dueAt: Optional[str]
    # When the step was taken
    at: str
    # ISO 4217 currency of `amount`
    currency: str


class ReturnDeclinedEventData(_ReturnDeclinedEventDataRequired, total=False):
    carrierName: str
    trackingNumber: str
    reason: Optional[str]
    # core.charged, loaner.charged: what was billed; repair.quoted, repair.approved: the price;
    # return.authorized: the restocking fee: a decimal string with two decimal places (docs/api.md,
    # "Money")
    amount: str
    # core.charged, loaner.charged: the invoice of the charge
    invoiceId: int
    # repair.returned: whether the unit was repaired
    repaired: bool


class ReturnDeclinedEvent(TypedDict):
    """The vendor declined a return, with a reason."""
    # The event id: the same in the feed and in every webhook delivery of it
    id: str
    type: Literal["return.declined"]
    createdAt: str
    # The order
    orderNumber: str
    # The order's version after the change: 1 for order.created, then 2, 3... so a gap shows a
    # missed event
    sequence: int
    data: ReturnDeclinedEventData


class _ReturnShippedEventDataRequired(TypedDict):
    """The required keys of ReturnShippedEventData."""
    orderNumber: str
    # The order's status after the change, derived from its lines (docs/api.md, Order lifecycle)
    status: str
    returnId: int
    # core, loaner, repair or rma
    kind: str
    # The return's status after the step
    returnStatus: str
    lineId: int
    vendorId: int
    quantity: int
    rmaNumber: Optional[str]
    # When it is due back (cores, loaners; a return's return-by date)
    dueAt: Optional[str]
    # When the step was taken
    at: str
    # ISO 4217 currency of `amount`
    currency: str


class ReturnShippedEventData(_ReturnShippedEventDataRequired, total=False):
    carrierName: str
    trackingNumber: str
    reason: Optional[str]
    # core.charged, loaner.charged: what was billed; repair.quoted, repair.approved: the price;
    # return.authorized: the restocking fee: a decimal string with two decimal places (docs/api.md,
    # "Money")
    amount: str
    # core.charged, loaner.charged: the invoice of the charge
    invoiceId: int
    # repair.returned: whether the unit was repaired
    repaired: bool


class ReturnShippedEvent(TypedDict):
    """The buyer shipped a return back."""
    # The event id: the same in the feed and in every webhook delivery of it
    id: str
    type: Literal["return.shipped"]
    createdAt: str
    # The order
    orderNumber: str
    # The order's version after the change: 1 for order.created, then 2, 3... so a gap shows a
    # missed event
    sequence: int
    data: ReturnShippedEventData


class _ReturnReceivedEventDataRequired(TypedDict):
    """The required keys of ReturnReceivedEventData."""
    orderNumber: str
    # The order's status after the change, derived from its lines (docs/api.md, Order lifecycle)
    status: str
    returnId: int
    # core, loaner, repair or rma
    kind: str
    # The return's status after the step
    returnStatus: str
    lineId: int
    vendorId: int
    quantity: int
    rmaNumber: Optional[str]
    # When it is due back (cores, loaners; a return's return-by date)
    dueAt: Optional[str]
    # When the step was taken
    at: str
    # ISO 4217 currency of `amount`
    currency: str


class ReturnReceivedEventData(_ReturnReceivedEventDataRequired, total=False):
    carrierName: str
    trackingNumber: str
    reason: Optional[str]
    # core.charged, loaner.charged: what was billed; repair.quoted, repair.approved: the price;
    # return.authorized: the restocking fee: a decimal string with two decimal places (docs/api.md,
    # "Money")
    amount: str
    # core.charged, loaner.charged: the invoice of the charge
    invoiceId: int
    # repair.returned: whether the unit was repaired
    repaired: bool


class ReturnReceivedEvent(TypedDict):
    """The vendor received a return: its credit memo follows."""
    # The event id: the same in the feed and in every webhook delivery of it
    id: str
    type: Literal["return.received"]
    createdAt: str
    # The order
    orderNumber: str
    # The order's version after the change: 1 for order.created, then 2, 3... so a gap shows a
    # missed event
    sequence: int
    data: ReturnReceivedEventData


class RecallAffectsYouEventData(TypedDict):
    recallId: int
    # The FDA product number (Z-NNNN-YYYY), or the vendor's notice number
    productNumber: str
    # fda, vendor (a vendor's field safety notice) or sandbox
    source: str
    classification: Optional[str]
    # open, completed (the firm's action is done) or terminated
    status: str
    firm: Optional[str]
    productDescription: Optional[str]
    initiatedOn: Optional[str]
    terminatedOn: Optional[str]
    reason: Optional[str]
    affectedUnits: int
    # Units whose outcome is needs_review
    reviewUnits: int
    # The first 100 units the recall touches (GET /recalls/{id} lists them all)
    units: List[RecallUnit]


class RecallAffectsYouEvent(TypedDict):
    """A recall touches units the tenant received (affected, or to review): the first time it does."""
    # The event id: the same in the feed and in every webhook delivery of it
    id: str
    type: Literal["recall.affects_you"]
    createdAt: str
    # The recall's id (the event is about a recall, not an order)
    orderNumber: str
    sequence: None
    data: RecallAffectsYouEventData


class RecallUpdatedEventData(TypedDict):
    recallId: int
    # The FDA product number (Z-NNNN-YYYY), or the vendor's notice number
    productNumber: str
    # fda, vendor (a vendor's field safety notice) or sandbox
    source: str
    classification: Optional[str]
    # open, completed (the firm's action is done) or terminated
    status: str
    firm: Optional[str]
    productDescription: Optional[str]
    initiatedOn: Optional[str]
    terminatedOn: Optional[str]
    reason: Optional[str]
    affectedUnits: int
    # Units whose outcome is needs_review
    reviewUnits: int
    # The first 100 units the recall touches (GET /recalls/{id} lists them all)
    units: List[RecallUnit]


class RecallUpdatedEvent(TypedDict):
    """A recall touching the tenant changed, or touches more of its units."""
    # The event id: the same in the feed and in every webhook delivery of it
    id: str
    type: Literal["recall.updated"]
    createdAt: str
    # The recall's id (the event is about a recall, not an order)
    orderNumber: str
    sequence: None
    data: RecallUpdatedEventData


class RecallClosedEventData(TypedDict):
    recallId: int
    # The FDA product number (Z-NNNN-YYYY), or the vendor's notice number
    productNumber: str
    # fda, vendor (a vendor's field safety notice) or sandbox
    source: str
    classification: Optional[str]
    # open, completed (the firm's action is done) or terminated
    status: str
    firm: Optional[str]
    productDescription: Optional[str]
    initiatedOn: Optional[str]
    terminatedOn: Optional[str]
    reason: Optional[str]
    affectedUnits: int
    # Units whose outcome is needs_review
    reviewUnits: int
    # The first 100 units the recall touches (GET /recalls/{id} lists them all)
    units: List[RecallUnit]


class RecallClosedEvent(TypedDict):
    """A recall touching the tenant was terminated."""
    # The event id: the same in the feed and in every webhook delivery of it
    id: str
    type: Literal["recall.closed"]
    createdAt: str
    # The recall's id (the event is about a recall, not an order)
    orderNumber: str
    sequence: None
    data: RecallClosedEventData


class WebhookEndpointDisabledEventData(TypedDict):
    endpointId: str
    url: str
    reason: str
    disabledAt: str


class WebhookEndpointDisabledEvent(TypedDict):
    """A webhook endpoint whose deliveries failed for 3 days was disabled."""
    # The event id: the same in the feed and in every webhook delivery of it
    id: str
    type: Literal["webhook_endpoint.disabled"]
    createdAt: str
    # The webhook endpoint's id (the event is about the endpoint, not an order)
    orderNumber: str
    sequence: None
    data: WebhookEndpointDisabledEventData


class WebhookEndpointTestEventData(TypedDict):
    endpointId: str
    message: str


class WebhookEndpointTestEvent(TypedDict):
    """A test delivery (POST /webhook-endpoints/{id}/test only; never in the feed)."""
    # The event id: the same in the feed and in every webhook delivery of it
    id: str
    type: Literal["webhook_endpoint.test"]
    createdAt: str
    # The webhook endpoint's id (the event is about the endpoint, not an order)
    orderNumber: str
    sequence: None
    data: WebhookEndpointTestEventData


# An event, in the feed and as a webhook body: `data` is typed by `type` (docs/api.md, Event types
# and payloads)
Event = Union[
    OrderCreatedEvent,
    OrderAcknowledgedEvent,
    OrderBackorderedEvent,
    OrderShippedEvent,
    OrderDeliveredEvent,
    OrderCancelledEvent,
    OrderRejectedEvent,
    OrderConfirmedEvent,
    OrderChangeAcceptedEvent,
    OrderChangeDeclinedEvent,
    InvoiceReceivedEvent,
    InvoiceMatchedEvent,
    InvoiceExceptionEvent,
    InvoiceAcceptedEvent,
    InvoiceDisputedEvent,
    CreditMemoReceivedEvent,
    CoreOpenedEvent,
    CoreDueSoonEvent,
    CoreOverdueEvent,
    CoreShippedEvent,
    CoreReceivedEvent,
    CoreRefusedEvent,
    CoreChargedEvent,
    LoanerOpenedEvent,
    LoanerDueSoonEvent,
    LoanerOverdueEvent,
    LoanerShippedEvent,
    LoanerReceivedEvent,
    LoanerChargedEvent,
    RepairUnitShippedEvent,
    RepairReceivedEvent,
    RepairDiagnosedEvent,
    RepairQuotedEvent,
    RepairApprovedEvent,
    RepairDeclinedEvent,
    RepairReturnedEvent,
    ReturnRequestedEvent,
    ReturnAuthorizedEvent,
    ReturnDeclinedEvent,
    ReturnShippedEvent,
    ReturnReceivedEvent,
    RecallAffectsYouEvent,
    RecallUpdatedEvent,
    RecallClosedEvent,
    WebhookEndpointDisabledEvent,
    WebhookEndpointTestEvent,
]


class ListEventsResponse(TypedDict):
    events: List[Event]
    hasMore: bool
    # Send as `after` next: the last event returned (or your `after`)
    nextCursor: Optional[str]


class WebhookEndpoint(TypedDict):
    id: str
    url: str
    # Event types delivered; ["*"] for all
    eventTypes: List[str]
    enabled: bool
    disabledReason: Optional[str]
    # First failed delivery since the last success
    failingSince: Optional[str]
    createdAt: str
    # The API version its events are rendered at (docs: Versions)
    apiVersion: str


class ListWebhookEndpointsResponse(TypedDict):
    endpoints: List[WebhookEndpoint]


class _CreateWebhookEndpointRequestRequired(TypedDict):
    """The required keys of CreateWebhookEndpointRequest."""
    # Where to POST events: an https URL of a public host (default port, no credentials, no
    # special-purpose address such as loopback or private, no special-use name such as localhost,
    # .test or .internal)
    url: str
    # Event types to receive, each once; ["*"] for all
    eventTypes: List[
        Literal[
            "*",
            "order.created",
            "order.acknowledged",
            "order.backordered",
            "order.shipped",
            "order.delivered",
            "order.cancelled",
            "order.rejected",
            "order.confirmed",
            "order.change_accepted",
            "order.change_declined",
            "invoice.received",
            "invoice.matched",
            "invoice.exception",
            "invoice.accepted",
            "invoice.disputed",
            "credit_memo.received",
            "core.opened",
            "core.due_soon",
            "core.overdue",
            "core.shipped",
            "core.received",
            "core.refused",
            "core.charged",
            "loaner.opened",
            "loaner.due_soon",
            "loaner.overdue",
            "loaner.shipped",
            "loaner.received",
            "loaner.charged",
            "repair.unit_shipped",
            "repair.received",
            "repair.diagnosed",
            "repair.quoted",
            "repair.approved",
            "repair.declined",
            "repair.returned",
            "return.requested",
            "return.authorized",
            "return.declined",
            "return.shipped",
            "return.received",
            "recall.affects_you",
            "recall.updated",
            "recall.closed",
            "webhook_endpoint.disabled",
        ]
    ]


class CreateWebhookEndpointRequest(_CreateWebhookEndpointRequestRequired, total=False):
    # The API version to render its events at (docs: Versions); default the request's version (the
    # client's pin)
    apiVersion: Literal["2026-11-23", "2026-11-25", "2026-11-29", "2026-12-07"]


class CreateWebhookEndpointResponse(WebhookEndpoint):
    # whsec_...: verifies the signatures
    secret: str


class WebhookTestRequest(TypedDict, total=False):
    # The event type to send a sample of, in its documented shape; order events name the order
    # ORD-20261123-SAMPLE01, which does not exist. Without it (`{}` or no body):
    # webhook_endpoint.test
    type: Literal[
        "order.created",
        "order.acknowledged",
        "order.backordered",
        "order.shipped",
        "order.delivered",
        "order.cancelled",
        "order.rejected",
        "order.confirmed",
        "order.change_accepted",
        "order.change_declined",
        "invoice.received",
        "invoice.matched",
        "invoice.exception",
        "invoice.accepted",
        "invoice.disputed",
        "credit_memo.received",
        "core.opened",
        "core.due_soon",
        "core.overdue",
        "core.shipped",
        "core.received",
        "core.refused",
        "core.charged",
        "loaner.opened",
        "loaner.due_soon",
        "loaner.overdue",
        "loaner.shipped",
        "loaner.received",
        "loaner.charged",
        "repair.unit_shipped",
        "repair.received",
        "repair.diagnosed",
        "repair.quoted",
        "repair.approved",
        "repair.declined",
        "repair.returned",
        "return.requested",
        "return.authorized",
        "return.declined",
        "return.shipped",
        "return.received",
        "recall.affects_you",
        "recall.updated",
        "recall.closed",
        "webhook_endpoint.disabled",
        "webhook_endpoint.test",
    ]


class TestWebhookEndpointResponse(TypedDict):
    eventId: str
    delivered: bool
    statusCode: Optional[int]
    error: Optional[str]
    latencyMs: int


class ListWebhookEndpointDeliveriesResponseDeliveriesItem(TypedDict):
    id: int
    eventId: str
    attempt: int
    outcome: Literal["succeeded", "failed", "dead-lettered"]
    statusCode: Optional[int]
    error: Optional[str]
    latencyMs: int
    createdAt: str


class ListWebhookEndpointDeliveriesResponse(TypedDict):
    deliveries: List[ListWebhookEndpointDeliveriesResponseDeliveriesItem]


class RequestLog(TypedDict):
    id: int
    at: str
    clientId: str
    mode: Literal["live", "test"]
    method: str
    path: str
    # The query string, without `?`
    query: Optional[str]
    status: int
    latencyMs: int
    correlationId: str
    idempotencyKey: Optional[str]
    # The version the answer was given in (its Medparts-Version)
    apiVersion: Optional[str]
    # An error answer's problem type (slug), null for a success
    errorType: Optional[str]
    # An error answer's body as sent: a problem document (RFC 9457) at version 2026-12-07, the
    # earlier forms to clients pinned before
    problem: Optional[Dict[str, Any]]
    # Test mode only, and only of the reader's own client's requests: the request's body as sent,
    # secrets and card-like numbers replaced by `[redacted]`
    requestBody: Optional[str]
    # Test mode only, and only of the reader's own client's requests: the answer's body, redacted
    # the same way
    responseBody: Optional[str]
    # A body was longer than 4,096 characters and is cut there
    truncated: bool


class ListRequestLogsResponse(TypedDict):
    requests: List[RequestLog]
    pagination: Pagination


class _SimulateRequestRequired(TypedDict):
    """The required keys of SimulateRequest."""
    # acknowledge: every Ordered or Backordered line; backorder: every Ordered or Acknowledged line,
    # with expectedShipDate; ship_partial: one parcel per vendor with half of what remains of each
    # of its lines; ship: everything that remains, a parcel per line; deliver: every fully shipped
    # line; reject_line: the first Ordered line (or lineId), with reason; confirm: a confirmation
    # per vendor of every open line with `code` (default IA; each code sends plausible values: IP
    # 10% more, IQ one less, IS a substitute...); invoice: an invoice per vendor of what shipped, at
    # the order's prices, with `exception` on its first line; core_received, core_refused (with
    # reason; then charged): each core of the order, shipped back for the buyer if still open, then
    # received; core_overdue: each open core, its due day moved to yesterday, overdue and charged;
    # loaner_overdue: each open loaner, warned on its due day moved to today (unless warned
    # already), then overdue with it moved to yesterday: its late fees accrue; loaner_received: each
    # loaner, shipped back for the buyer if still out, then received: late fees billed (an invoice)
    # when it left after its due day; repair_beyond_flat_rate: each repair, sent in for the buyer if
    # needed, received and diagnosed beyond its flat rate at half as much again (the buyer then
    # approves or declines); rma_declined: each requested return declined, with reason; recall: a
    # made-up recall of the units the order received (each shipped unit without a scanned code gets
    # the product's GTIN and lot SBX-LOT-1), matched at once: recall.affects_you, GET /recalls
    scenario: Literal[
        "acknowledge",
        "backorder",
        "ship_partial",
        "ship",
        "deliver",
        "reject_line",
        "confirm",
        "invoice",
        "core_received",
        "core_refused",
        "core_overdue",
        "loaner_overdue",
        "loaner_received",
        "repair_beyond_flat_rate",
        "rma_declined",
        "recall",
    ]


class SimulateRequest(_SimulateRequestRequired, total=False):
    # confirm: the X12 855 code (or its name) of every line; default IA
    code: Literal[
        "IA",
        "accepted",
        "IB",
        "backordered",
        "IC",
        "accepted_with_changes",
        "IP",
        "price_changed",
        "IQ",
        "quantity_changed",
        "IS",
        "substituted",
        "DR",
        "date_rescheduled",
        "SP",
        "schedule_pending",
        "BP",
        "partial_backordered",
        "IH",
        "on_hold",
        "ID",
        "deleted",
        "IR",
        "rejected",
        "R1",
        "not_contract_item",
        "R2",
        "invalid_product_number",
        "R3",
        "invalid_unit_of_issue",
        "R4",
        "contract_item_unavailable",
    ]
    # confirm: the unit price IP, IC send instead of the scenario's: a decimal string with at most
    # two decimal places
    unitPrice: str
    # confirm: the quantity IQ, IC, BP send instead of the scenario's
    quantity: int
    # invoice: the exception of the invoice's first line (contract_price_exception: of its first
    # contract line); default none
    exception: Literal["none", "price_variance", "quantity_variance", "not_on_po", "contract_price_exception"]
    # Only this line of the order
    lineId: int
    # acknowledge: a date not before yesterday (UTC); default in 2 days
    promisedShipDate: str
    # backorder: a date not before yesterday (UTC); default in 14 days
    expectedShipDate: str
    # backorder, reject_line, confirm, core_refused, repair_beyond_flat_rate, rma_declined: why
    reason: str


class SimulateResult(TypedDict):
    orderNumber: str
    scenario: Literal[
        "acknowledge",
        "backorder",
        "ship_partial",
        "ship",
        "deliver",
        "reject_line",
        "confirm",
        "invoice",
        "core_received",
        "core_refused",
        "core_overdue",
        "loaner_overdue",
        "loaner_received",
        "repair_beyond_flat_rate",
        "rma_declined",
        "recall",
    ]
    # The order's status after the run
    orderStatus: Optional[str]
    # The events the run wrote (feed and webhooks), in order
    eventIds: List[str]


class VendorOrderLineRequiredFieldsItem(TypedDict):
    fieldId: str
    value: str


class VendorOrderLineShipTo(TypedDict):
    attentionTo: Optional[str]
    address1: str
    city: str
    state: str
    zip: str
    country: str


class VendorShipment(TypedDict):
    shippingDocId: int
    trackingNumber: Optional[str]
    carrierName: str
    serviceLevel: str
    # How much of the line is in this parcel
    quantity: int
    shippedAt: str


class VendorOrderLine(TypedDict):
    lineId: int
    orderNumber: str
    lineNumber: int
    orderDate: str
    statusName: Literal["Ordered", "Acknowledged", "Backordered", "Shipped", "Delivered", "Cancelled", "Rejected"]
    partNumber: str
    description: str
    quantity: int
    # How much has shipped; the line is Shipped once all of it has
    shippedQuantity: int
    # Unit price: a decimal string with two places, in the `currency` beside it
    price: str
    # price × quantity: a decimal string with two places, in the `currency` beside it
    extendedPrice: str
    # ISO 4217 currency of the amounts of this object and of the objects inside it
    currency: str
    poNumber: Optional[str]
    # The buyer's values for the price option's custom fields
    requiredFields: List[VendorOrderLineRequiredFieldsItem]
    promisedShipDate: Optional[str]
    expectedShipDate: Optional[str]
    # Why the line was backordered, rejected or cancelled
    statusReason: Optional[str]
    deliveredAt: Optional[str]
    # The buyer's contract price when the line was ordered at one; null for a list price: a decimal
    # string with two places, in the `currency` beside it
    contractPrice: Optional[str]
    # The X12 855 code of the vendor's latest confirmation of the line
    confirmationCode: Optional[str]
    # A change the vendor proposed that waits for the buyer's answer
    pendingChange: Optional[PendingLineChange]
    # The line's returns (cores, loaners, repairs, return requests) whose next step is the vendor's:
    # to authorize or decline, receive, diagnose or send back (GET
    # /vendor/api/order-lines/{lineId}/returns)
    returnsToReceive: int
    # The vendor's invoices billing the line whose three-way match failed and on which the buyer has
    # not decided
    invoicesInException: int
    shippingMethod: Literal[
        "GROUND",
        "THREE_DAY",
        "SECOND_DAY",
        "NEXT_DAY",
        "NEXT_DAY_EARLY",
        "SATURDAY",
        "FREIGHT",
        "WILL_CALL",
    ]
    shipTo: VendorOrderLineShipTo
    shipments: List[VendorShipment]


class ListVendorOrderLinesResponse(TypedDict):
    lines: List[VendorOrderLine]
    pagination: Pagination


class AcknowledgeLineRequest(TypedDict):
    # When the vendor will ship the line; a date not before yesterday (UTC)
    promisedShipDate: str


class VendorMoveResult(TypedDict):
    line: VendorOrderLine
    # The order's status after the move (derived from all its lines)
    orderStatus: Literal[
        "Ordered",
        "Acknowledged",
        "Backordered",
        "PartiallyShipped",
        "Shipped",
        "Delivered",
        "Cancelled",
        "Rejected",
    ]
    # The event this move wrote; null when it was already in place (a repeat)
    eventId: Optional[str]


class _BackorderLineRequestRequired(TypedDict):
    """The required keys of BackorderLineRequest."""
    # When the vendor now expects to ship the line; a date not before yesterday (UTC)
    expectedShipDate: str


class BackorderLineRequest(_BackorderLineRequestRequired, total=False):
    reason: Optional[str]


class _ShipLineRequestRequired(TypedDict):
    """The required keys of ShipLineRequest."""
    # The carrier's tracking number: names the parcel
    trackingNumber: str


class ShipLineRequest(_ShipLineRequestRequired, total=False):
    # Default: the carrier of the order's shipping method
    carrierName: str
    # Default: the service level of the order's shipping method
    serviceLevel: str
    # How much of the line is in this parcel; default all that remains
    quantity: int
    # Default: now; an instant not in the future
    shippedAt: str
    # The UDIs of the shipped units as scanned (GS1, HIBCC, ISBT 128; as POST
    # /customer/api/catalog/resolve reads them), each of the line's product; a case's code counts
    # its quantity. Their lots and serials go into order.shipped and order search (recalls)
    units: List[str]


class DeliverLineRequest(TypedDict, total=False):
    # Default: now; an instant not in the future
    deliveredAt: str


class RejectLineRequest(TypedDict):
    # Why the vendor cannot fulfil the line
    reason: str


class _ShipmentRequestLinesItemRequired(TypedDict):
    """The required keys of ShipmentRequestLinesItem."""
    # One of the vendor's lines of the order
    lineId: int


class ShipmentRequestLinesItem(_ShipmentRequestLinesItemRequired, total=False):
    # How much of the line is in this parcel; default all that remains; may not exceed what remains
    # to ship of the line (400)
    quantity: int
    # The UDIs of the line's shipped units as scanned, as a line's ship takes them (`units`): each
    # of the line's product
    units: List[str]


class _ShipmentRequestRequired(TypedDict):
    """The required keys of ShipmentRequest."""
    # The carrier's tracking number: names the parcel
    trackingNumber: str
    # The vendor's lines of one order in this parcel, each lineId once; 1-200, at most 5000 units'
    # codes in all
    lines: List[ShipmentRequestLinesItem]


class ShipmentRequest(_ShipmentRequestRequired, total=False):
    # Default: the carrier of the order's shipping method
    carrierName: str
    # Default: the service level of the order's shipping method
    serviceLevel: str
    # Default: now; an instant not in the future
    shippedAt: str


class ShipmentResult(TypedDict):
    orderNumber: str
    # The order's status after the shipment (derived from all its lines)
    orderStatus: Literal[
        "Ordered",
        "Acknowledged",
        "Backordered",
        "PartiallyShipped",
        "Shipped",
        "Delivered",
        "Cancelled",
        "Rejected",
    ]
    # Each line as its own ship answers it, in the order of the request: the line after the
    # shipment, the order's status, and its order.shipped event (null for a line the parcel already
    # held)
    lines: List[VendorMoveResult]


class OrderConfirmationRequestLinesItemSubstitute(TypedDict):
    """IS, IC: the product the vendor offers instead"""
    # The substitute's part number
    partNumber: str
    description: str


class _OrderConfirmationRequestLinesItemRequired(TypedDict):
    """The required keys of OrderConfirmationRequestLinesItem."""
    # One of the vendor's lines of the order
    lineId: int


class OrderConfirmationRequestLinesItem(_OrderConfirmationRequestLinesItemRequired, total=False):
    # The line's X12 855 status, as the code or its name (required for types detail and except):
    # `IA` accepted (Item accepted); `IB` backordered (Item backordered); `IC` accepted_with_changes
    # (Item accepted, changes made); `IP` price_changed (Item accepted, price changed); `IQ`
    # quantity_changed (Item accepted, quantity changed); `IS` substituted (Item accepted,
    # substitution made); `DR` date_rescheduled (Item accepted, date rescheduled); `SP`
    # schedule_pending (Item accepted, schedule date pending); `BP` partial_backordered (Item
    # accepted, partial shipment, balance backordered); `IH` on_hold (Item on hold); `ID` deleted
    # (Item deleted); `IR` rejected (Item rejected); `R1` not_contract_item (Item rejected, not a
    # contract item); `R2` invalid_product_number (Item rejected, invalid item product number); `R3`
    # invalid_unit_of_issue (Item rejected, invalid unit of issue); `R4` contract_item_unavailable
    # (Item rejected, contract item not available)
    code: Literal[
        "IA",
        "accepted",
        "IB",
        "backordered",
        "IC",
        "accepted_with_changes",
        "IP",
        "price_changed",
        "IQ",
        "quantity_changed",
        "IS",
        "substituted",
        "DR",
        "date_rescheduled",
        "SP",
        "schedule_pending",
        "BP",
        "partial_backordered",
        "IH",
        "on_hold",
        "ID",
        "deleted",
        "IR",
        "rejected",
        "R1",
        "not_contract_item",
        "R2",
        "invalid_product_number",
        "R3",
        "invalid_unit_of_issue",
        "R4",
        "contract_item_unavailable",
    ]
    # IP, IC, IS: the unit price the vendor can supply at: a decimal string with at most two decimal
    # places
    unitPrice: str
    # IQ, IC: the quantity the vendor can supply; BP: how much ships now
    quantity: int
    # IS, IC: the product the vendor offers instead
    substitute: OrderConfirmationRequestLinesItemSubstitute
    # IA, DR (required), BP, IP, IQ, IS, IC: when the vendor will ship; a date not before yesterday
    # (UTC)
    promisedShipDate: str
    # IB, BP (required): when the vendor expects to ship the backordered quantity; a date not before
    # yesterday (UTC)
    expectedShipDate: str
    # Why: shown to the buyer with the line
    reason: Optional[str]


class _OrderConfirmationRequestRequired(TypedDict):
    """The required keys of OrderConfirmationRequest."""
    # As cXML's ConfirmationRequest: accept (every line listed IA), reject (IR), backordered (IB),
    # detail (each line its own code), except (the lines listed their codes, every other open line
    # of the vendor on the order IA)
    type: Literal["accept", "detail", "except", "backordered", "reject"]
    # Lines of one order; each lineId once
    lines: List[OrderConfirmationRequestLinesItem]


class OrderConfirmationRequest(_OrderConfirmationRequestRequired, total=False):
    # The default of the lines' promisedShipDate (and of the lines an except confirmation accepts);
    # a date not before yesterday (UTC)
    promisedShipDate: str
    # The default of the lines' expectedShipDate; a date not before yesterday (UTC)
    expectedShipDate: str
    # The default of the lines' reason
    reason: Optional[str]


class OrderConfirmationResult(TypedDict):
    orderNumber: str
    orderStatus: Literal[
        "Ordered",
        "Acknowledged",
        "Backordered",
        "PartiallyShipped",
        "Shipped",
        "Delivered",
        "Cancelled",
        "Rejected",
    ]
    # The order.confirmed event; null when every line already was as confirmed (a repeat)
    eventId: Optional[str]
    # The lines confirmed, after the confirmation
    lines: List[VendorOrderLine]


class _InvoiceRequestLinesItemRequired(TypedDict):
    """The required keys of InvoiceRequestLinesItem."""
    quantity: int
    # The unit price billed: a decimal string with at most two decimal places
    unitPrice: str
    # quantity × unitPrice, exactly: a decimal string with at most two decimal places
    amount: str


class InvoiceRequestLinesItem(_InvoiceRequestLinesItemRequired, total=False):
    # The order line billed; absent for a charge not on the order (matched not_on_po)
    lineId: int
    partNumber: str
    # Required for a line without lineId
    description: str
    # The line's tax; default 0: a decimal string with at most two decimal places
    tax: str


class DocumentSummary(TypedDict):
    # The sum of the lines' amounts: a decimal string with at most two decimal places
    subtotal: str
    # The sum of the lines' tax: a decimal string with at most two decimal places
    tax: str
    # Freight and handling: a decimal string with at most two decimal places
    freight: str
    # subtotal + tax + freight: a decimal string with at most two decimal places
    total: str


class InvoiceRequest(TypedDict):
    # The vendor's invoice number: one document per number, per buyer
    invoiceNumber: str
    # The order (PO) it bills
    orderNumber: str
    # The date on the invoice: a date not after tomorrow (UTC)
    invoiceDate: str
    # ISO 4217: USD, the currency of every order
    currency: Literal["USD"]
    lines: List[InvoiceRequestLinesItem]
    summary: DocumentSummary


class _CreditMemoRequestLinesItemRequired(TypedDict):
    """The required keys of CreditMemoRequestLinesItem."""
    # Units credited (returned, not received); 0 for a price-only credit
    quantity: int
    # The unit amount credited: a decimal string with at most two decimal places
    unitPrice: str
    # quantity × unitPrice (or, for quantity 0, the amount credited): a decimal string with at most
    # two decimal places
    amount: str


class CreditMemoRequestLinesItem(_CreditMemoRequestLinesItemRequired, total=False):
    # The invoice's line credited; or, instead, lineId (one of the two)
    invoiceLineNumber: int
    # Instead of invoiceLineNumber: the order line credited, the invoice's one line that bills it
    # (its lineId)
    lineId: int
    # The tax credited; default 0: a decimal string with at most two decimal places
    tax: str


class _CreditMemoRequestRequired(TypedDict):
    """The required keys of CreditMemoRequest."""
    # The vendor's credit memo number
    creditMemoNumber: str
    # The date on the credit memo: a date not after tomorrow (UTC)
    creditDate: str
    # ISO 4217: USD, the currency of every order
    currency: Literal["USD"]


class CreditMemoRequest(_CreditMemoRequestRequired, total=False):
    # The invoice credited, by its invoiceId; or, instead, name it by orderNumber and invoiceNumber
    # (one form only)
    invoiceId: int
    # With invoiceNumber, instead of invoiceId: the order (PO) the credited invoice bills
    orderNumber: str
    # With orderNumber, instead of invoiceId: the vendor's number of the invoice credited
    invoiceNumber: str
    reason: Optional[str]
    # Absent (with summary): the whole of what remains of the invoice is credited
    lines: List[CreditMemoRequestLinesItem]
    summary: DocumentSummary


class ListVendorOrderLineReturnsResponse(TypedDict):
    returns: List[UnitReturn]


class _ReturnAuthorizationRequired(TypedDict):
    """The required keys of ReturnAuthorization."""
    # The vendor's RMA number
    rmaNumber: str
    # The day by which the units must be shipped back (not before today)
    returnBy: str


class ReturnAuthorization(_ReturnAuthorizationRequired, total=False):
    # Deducted from the credit, per the vendor's terms, at most what the units were bought for;
    # default 0: a decimal string with at most two decimal places
    restockingFee: str
    # Where the units go: an address or a return label URL
    returnTo: str


class ReturnDecline(TypedDict):
    # Why, for the buyer
    reason: str


class ReturnReceipt(TypedDict, total=False):
    # A core's grade (required for a core): accepted, or refused as not repairable (then charged).
    # Other units are received.
    outcome: Literal["accepted", "refused"]
    # Why a core is refused (required then)
    reason: str
    # When it arrived, not before it left nor in the future; default now
    receivedAt: str


class _RepairDiagnosisRequired(TypedDict):
    """The required keys of RepairDiagnosis."""
    # true: repaired at the flat rate; false: beyond it, at `price`, which the buyer approves or
    # declines
    withinFlatRate: bool


class RepairDiagnosis(_RepairDiagnosisRequired, total=False):
    # The repair's price beyond the flat rate (above it; required when withinFlatRate is false): a
    # decimal string with at most two decimal places
    price: str
    # The diagnosis, for the buyer
    reason: str


class _RepairSendBackRequired(TypedDict):
    """The required keys of RepairSendBack."""
    carrierName: str
    trackingNumber: str


class RepairSendBack(_RepairSendBackRequired, total=False):
    """The vendor's parcel with the unit back to the buyer: repaired when the repair went on,
    unrepaired when the buyer declined
    """
    # When it left; default now. Not in the future, nor before the return was opened (a repair's
    # send-back: nor before it arrived), nor more than 2 days before this report.
    shippedAt: str


class VendorRecall(TypedDict):
    id: int
    # The FDA product number (Z-NNNN-YYYY), or the vendor's notice number
    productNumber: str
    # fda, vendor (a vendor's field safety notice) or sandbox
    source: str
    classification: Optional[str]
    # open, completed (the firm's action is done) or terminated
    status: str
    firm: Optional[str]
    productDescription: Optional[str]
    initiatedOn: Optional[str]
    terminatedOn: Optional[str]
    # Units the vendor delivered that the recall affects, at every hospital
    affectedUnits: int
    reviewUnits: int
    # How many hospitals (tenants) received them: a count, never a name
    hospitals: int


class ListVendorRecallsResponse(TypedDict):
    recalls: List[VendorRecall]


FieldSafetyNoticeSerialRangesItem = TypedDict(
    "FieldSafetyNoticeSerialRangesItem",
    {
        "from": str,
        "to": str,
    },
)


class _FieldSafetyNoticeRequired(TypedDict):
    """The required keys of FieldSafetyNotice."""
    # The vendor's own number for the notice: a second POST with it revises the notice
    noticeNumber: str
    productDescription: str
    reason: str


class FieldSafetyNotice(_FieldSafetyNoticeRequired, total=False):
    # default null
    classification: Optional[Literal["Class I", "Class II", "Class III"]]
    # default "open"
    status: Literal["open", "completed", "terminated"]
    # The device identifiers it covers (GTIN or HIBCC); default []
    deviceIds: List[str]
    # Catalog or part numbers it covers; default []
    partNumbers: List[str]
    # Lots it covers; none: every lot; default []
    lots: List[str]
    # default []
    serials: List[str]
    # Serial ranges of one width, e.g. SN1000 to SN1999; default []
    serialRanges: List[FieldSafetyNoticeSerialRangesItem]
    initiatedOn: str


class ListVendorRequestLogsResponse(TypedDict):
    requests: List[RequestLog]
    pagination: Pagination


class OfferCustomFieldsItem(TypedDict):
    fieldId: str
    prompt: str
    isRequired: bool
    formatRegex: str
    errorMessage: str


class OfferFuturePrice(TypedDict):
    # The new list price: a decimal string with two places, in the `currency` beside it
    price: str
    effectiveFrom: str


class Offer(TypedDict):
    sku: str
    productId: str
    condition: str
    purchaseChoice: str
    purchaseType: Literal["buy", "exchange", "loan", "repair"]
    purchaseTerms: PurchaseTerms
    warranty: str
    # List price: a decimal string with two places, in the `currency` beside it
    price: str
    # ISO 4217 currency of the amounts of this object and of the objects inside it
    currency: str
    unitOfMeasure: str
    packQuantity: int
    leadTimeDays: int
    quantityAvailable: Optional[int]
    quantityCountedAt: Optional[str]
    customFields: List[OfferCustomFieldsItem]
    effectiveFrom: Optional[str]
    effectiveTo: Optional[str]
    futurePrice: Optional[OfferFuturePrice]
    # withdrawn: no new quotes (quotes issued before stay good)
    status: Literal["active", "withdrawn"]
    # The offer's revision: a new one whenever terms a quote promises change (product, condition,
    # purchase choice, purchase type and terms, warranty, lead time, unit, pack, custom fields)
    revision: int
    updatedAt: str


class ListVendorOffersResponse(TypedDict):
    offers: List[Offer]
    pagination: Pagination


class _ExchangeTermsRequired(TypedDict):
    """The required keys of ExchangeTerms."""
    # What the buyer pays per unit if the core does not come back by its due date, or is refused: a
    # decimal string with at most two decimal places (more is a 400, never rounded)
    coreCharge: str
    # Days after shipment by which the core must be back
    coreDueDays: int


class ExchangeTerms(_ExchangeTermsRequired, total=False):
    # What a core must be to be accepted; default []
    coreConditions: List[str]
    # Where the unit goes back: the vendor's return address or a return label URL
    returnTo: str


class _LoanTermsRequired(TypedDict):
    """The required keys of LoanTerms."""
    # Days after shipment by which the loaner must be back
    loanDays: int
    # Fee per unit and day the loaner is late: a decimal string with at most two decimal places
    # (more is a 400, never rounded)
    lateFeePerDay: str


class LoanTerms(_LoanTermsRequired, total=False):
    # Where the unit goes back: the vendor's return address or a return label URL
    returnTo: str


class _RepairTermsRequired(TypedDict):
    """The required keys of RepairTerms."""
    # Days from receiving the unit to sending it back repaired
    turnaroundDays: int


class RepairTerms(_RepairTermsRequired, total=False):
    # The repair reasons the vendor takes at its flat rate (the offer's price); default all
    reasons: List[
        Literal[
            "no_power",
            "error_code",
            "physical_damage",
            "intermittent_failure",
            "calibration_failure",
            "noise_or_vibration",
            "display_failure",
            "fluid_leak",
            "failed_self_test",
            "other",
        ]
    ]
    # Where the unit goes back: the vendor's return address or a return label URL
    returnTo: str


class CustomFieldInput(TypedDict):
    fieldId: str
    prompt: str
    isRequired: bool
    # A JavaScript regular expression the buyer's value must match; at most 200 characters, refused
    # when it can backtrack catastrophically (nested or overlapping repetition) since it runs on
    # every order line
    formatRegex: str
    errorMessage: str


class OfferInputFuturePrice(TypedDict):
    """A price change announced ahead"""
    # The new list price: a decimal string with at most two decimal places (more is a 400, never
    # rounded)
    price: str
    # When it replaces `price` in new quotes; before the offer's effectiveTo
    effectiveFrom: str


class _OfferInputRequired(TypedDict):
    """The required keys of OfferInput."""
    condition: str
    # The choice as the buyer reads it (e.g. Buy, Exchange, Loan); purchaseType says what it means
    purchaseChoice: str
    warranty: str
    # List price per unit of measure, more than 0: a decimal string with at most two decimal places
    # (more is a 400, never rounded)
    price: str
    leadTimeDays: int


class OfferInput(_OfferInputRequired, total=False):
    """An offer as the vendor publishes it; the product is named once (productId, gtin, or manufacturer
    with partNumber)
    """
    # The catalog product, by id
    productId: str
    # Or by a GTIN of the product (any packaging level's)
    gtin: str
    # Or by manufacturer name and part number together
    manufacturer: str
    partNumber: str
    # How the part is sold: buy (outright), exchange (a core goes back), loan, or repair (the
    # buyer's unit is sent in; the price is the flat rate). Default buy. Its terms object is
    # required with it, and the others refused
    purchaseType: Literal["buy", "exchange", "loan", "repair"]
    exchangeTerms: ExchangeTerms
    loanTerms: LoanTerms
    repairTerms: RepairTerms
    # Default EA (each)
    unitOfMeasure: str
    # Items per unit of measure; default 1
    packQuantity: int
    # Units in stock, if said
    quantityAvailable: Optional[int]
    # When quantityAvailable was counted (required with it)
    quantityCountedAt: Optional[str]
    # What a buyer must give on an order line; their fieldIds are unique; default []
    customFields: List[CustomFieldInput]
    # Quoted from this instant; default: now
    effectiveFrom: Optional[str]
    # Quoted until this instant (exclusive), after effectiveFrom; default: until withdrawn
    effectiveTo: Optional[str]
    # A price change announced ahead
    futurePrice: Optional[OfferInputFuturePrice]


class OfferBatchRowFuturePrice(TypedDict):
    """A price change announced ahead"""
    # The new list price: a decimal string with at most two decimal places (more is a 400, never
    # rounded)
    price: str
    # When it replaces `price` in new quotes; before the offer's effectiveTo
    effectiveFrom: str


class _OfferBatchRowRequired(TypedDict):
    """The required keys of OfferBatchRow."""
    # The vendor's own number for the offer (its key)
    sku: str
    condition: str
    # The choice as the buyer reads it (e.g. Buy, Exchange, Loan); purchaseType says what it means
    purchaseChoice: str
    warranty: str
    # List price per unit of measure, more than 0: a decimal string with at most two decimal places
    # (more is a 400, never rounded)
    price: str
    leadTimeDays: int


class OfferBatchRow(_OfferBatchRowRequired, total=False):
    """An offer of a batch: OfferInput with its sku"""
    # The catalog product, by id
    productId: str
    # Or by a GTIN of the product (any packaging level's)
    gtin: str
    # Or by manufacturer name and part number together
    manufacturer: str
    partNumber: str
    # How the part is sold: buy (outright), exchange (a core goes back), loan, or repair (the
    # buyer's unit is sent in; the price is the flat rate). Default buy. Its terms object is
    # required with it, and the others refused
    purchaseType: Literal["buy", "exchange", "loan", "repair"]
    exchangeTerms: ExchangeTerms
    loanTerms: LoanTerms
    repairTerms: RepairTerms
    # Default EA (each)
    unitOfMeasure: str
    # Items per unit of measure; default 1
    packQuantity: int
    # Units in stock, if said
    quantityAvailable: Optional[int]
    # When quantityAvailable was counted (required with it)
    quantityCountedAt: Optional[str]
    # What a buyer must give on an order line; their fieldIds are unique; default []
    customFields: List[CustomFieldInput]
    # Quoted from this instant; default: now
    effectiveFrom: Optional[str]
    # Quoted until this instant (exclusive), after effectiveFrom; default: until withdrawn
    effectiveTo: Optional[str]
    # A price change announced ahead
    futurePrice: Optional[OfferBatchRowFuturePrice]


class BatchVendorOffersBody(TypedDict):
    offers: List[Any]


class OfferBatchResult(TypedDict):
    """A row's result: `offer` is the offer as written, null for a rejected row"""
    # The row's position in `offers`, from 0
    index: int
    # The row's sku, when it had a valid one
    sku: Optional[str]
    outcome: Literal["created", "updated", "unchanged", "rejected"]
    offer: Optional[Offer]
    # A rejected row's fields and why (as a 400's errors, field names relative to the row)
    errors: Optional[Dict[str, List[str]]]


class BatchVendorOffersResponseCounts(TypedDict):
    created: int
    updated: int
    unchanged: int
    rejected: int


class BatchVendorOffersResponse(TypedDict):
    results: List[OfferBatchResult]
    counts: BatchVendorOffersResponseCounts


class OfferImportFailure(TypedDict):
    code: str
    message: str


class OfferImportCounts(TypedDict):
    """Final once validation has ended (a dry run ends there)"""
    # Rows read (device rows for gudid)
    read: int
    created: int
    updated: int
    # Rows equal to what is already there: nothing written
    unchanged: int
    # replace: products the file lacks, withdrawn (never deleted)
    withdrawn: int
    rejected: int


class OfferImportProgress(TypedDict):
    phase: Literal["upload", "validating", "applying", "upkeep", "done"]
    fraction: float
    rowsPerSecond: Optional[int]
    # Estimate for the phase under way
    secondsLeft: Optional[int]
    bytesTotal: int
    bytesDone: int
    rowsRead: int
    rowsToApply: int
    rowsApplied: int
    # What an import that rebuilds the catalog is doing, in words (null otherwise): copying,
    # indexing, switching...
    step: Optional[str]


class OfferImportFilesItem(TypedDict):
    name: str
    size: Optional[int]
    gzip: bool
    uploaded: bool


class OfferImportLinks(TypedDict):
    self: str
    errors: str
    upload: str
    start: str


class OfferImport(TypedDict):
    id: str
    format: Literal["ndjson", "csv"]
    mode: Literal["upsert"]
    dryRun: bool
    onError: Literal["rejectAll", "skipFailedRows"]
    maxErrors: int
    maxWithdrawPercent: int
    state: Literal["awaiting_upload", "validating", "running", "succeeded", "failed", "cancelled"]
    failure: Optional[OfferImportFailure]
    # Final once validation has ended (a dry run ends there)
    counts: OfferImportCounts
    progress: OfferImportProgress
    files: List[OfferImportFilesItem]
    createdAt: str
    startedAt: Optional[str]
    # When validation ended (the apply pass began)
    validatedAt: Optional[str]
    finishedAt: Optional[str]
    # Catalog imports: the earlier import whose files were byte for byte these, with the catalog
    # unchanged since and nothing in them that reading again could change: this job read no row and
    # took its result (every row unchanged). Null when the job read its files, and for price files.
    sameFilesAs: Optional[str]
    links: OfferImportLinks


class ListVendorOfferImportsResponse(TypedDict):
    items: List[OfferImport]


class _CreateOfferImportRequestRequired(TypedDict):
    """The required keys of CreateOfferImportRequest."""
    # ndjson (one OfferBatchRow per line) or csv (a header row of OfferBatchRow's fields)
    format: Literal["ndjson", "csv"]


class CreateOfferImportRequest(_CreateOfferImportRequestRequired, total=False):
    # upsert: rows create or update; default "upsert"
    mode: Literal["upsert"]
    # Validate and count only; nothing is written; default false
    dryRun: bool
    # rejectAll: any rejected row fails the job and nothing is applied; skipFailedRows: the valid
    # rows are applied; default "rejectAll"
    onError: Literal["rejectAll", "skipFailedRows"]
    # More rejected rows fail the job (validation stops there); default 1000
    maxErrors: int
    # replace: the job fails before applying anything when the file lacks more than this percentage
    # of the catalog's products; default 10
    maxWithdrawPercent: int


class CatalogImportFilePartsItem(TypedDict):
    partNumber: int
    size: int


class CatalogImportFile(TypedDict):
    name: str
    size: Optional[int]
    uploaded: bool
    partSize: int
    parts: List[CatalogImportFilePartsItem]


class UploadVendorOfferImportFilePartResponse(TypedDict):
    partNumber: int
    size: int


class CatalogImportError(TypedDict):
    file: str
    # 1-based line of the file where the row starts
    line: int
    # The product the row names, when it could be read
    productKey: Optional[str]
    # The field (NDJSON path or CSV column); null for the whole row
    field: Optional[str]
    code: str
    message: str


class ListVendorOfferImportErrorsResponse(TypedDict):
    items: List[CatalogImportError]
    nextCursor: Optional[str]


class AgreementScopeTenant(TypedDict):
    kind: Literal["tenant"]
    tenantId: int


class AgreementScopeFacilities(TypedDict):
    kind: Literal["facilities"]
    tenantId: int
    facilityIds: List[int]


class AgreementScopeTier(TypedDict):
    kind: Literal["tier"]
    tierId: int


# Whom the prices are for: a buyer tenant (every facility), some facilities of one tenant, or every
# tenant of a tier the operator assigns
AgreementScope = Union[AgreementScopeTenant, AgreementScopeFacilities, AgreementScopeTier]


class AgreementPricesItem(TypedDict):
    sku: Optional[str]
    productId: str
    # The contract price per unit of the offer's measure: a decimal string with two places, in the
    # `currency` beside it
    price: str


class Agreement(TypedDict):
    agreementId: int
    reference: str
    scope: AgreementScope
    effectiveFrom: str
    effectiveTo: Optional[str]
    # scheduled: not yet in effect; active: in effect; expired: past effectiveTo; ended by the
    # vendor (DELETE)
    status: Literal["scheduled", "active", "expired", "ended"]
    endedAt: Optional[str]
    createdAt: str
    # ISO 4217 currency of the amounts of this object and of the objects inside it
    currency: str
    prices: List[AgreementPricesItem]


class ListVendorAgreementsResponse(TypedDict):
    agreements: List[Agreement]
    pagination: Pagination


class _AgreementPriceLineRequired(TypedDict):
    """The required keys of AgreementPriceLine."""
    # The contract price per unit of the offer's measure: a decimal string with at most two decimal
    # places (more is a 400, never rounded)
    price: str


class AgreementPriceLine(_AgreementPriceLineRequired, total=False):
    # One of the vendor's offers, by its SKU
    sku: str
    # Or every offer of the vendor for this product
    productId: str


class _AgreementInputRequired(TypedDict):
    """The required keys of AgreementInput."""
    # The vendor's reference (contract number)
    reference: str
    scope: AgreementScope
    # Its prices apply to quotes issued from this instant
    effectiveFrom: str
    # Each line names exactly one of sku and productId, and each SKU or product once
    prices: List[AgreementPriceLine]


class AgreementInput(_AgreementInputRequired, total=False):
    # Until this instant (exclusive), after effectiveFrom; default: until ended
    effectiveTo: Optional[str]


class AgreementChange(TypedDict):
    # The new end (exclusive), after effectiveFrom; null: until ended
    effectiveTo: Optional[str]


class _EdiAppliedSetRequired(TypedDict):
    """The required keys of EdiAppliedSet."""
    set: str
    controlNumber: str
    # applied: the vendor API took it; checked: a test partner's set, read in full and not applied;
    # refused: it or part of it was refused (messages); retry: Medparts applies it again later
    outcome: Literal["applied", "checked", "refused", "retry"]
    messages: List[str]


class EdiAppliedSet(_EdiAppliedSetRequired, total=False):
    # An 832's price file job (/vendor/api/offer-imports/{job})
    job: str


class _EdiInterchangeResultRequired(TypedDict):
    """The required keys of EdiInterchangeResult."""
    # received: recorded, acknowledged and applied; duplicate: received before (its first answer
    # again); refused: no partner of the caller sends as its sender, or not X12
    outcome: Literal["received", "duplicate", "refused"]


class EdiInterchangeResult(_EdiInterchangeResultRequired, total=False):
    # ISA13
    interchangeControl: str
    # Our TA1 and 997/999 for it (also in the outbox, to be taken as any document)
    acknowledgment: Optional[str]
    reason: str
    sets: List[EdiAppliedSet]
    # False: a set waits to be applied again (the vendor API was unavailable)
    applied: bool


class PostVendorEdiPartnerInboundResponse(TypedDict):
    interchanges: List[EdiInterchangeResult]


class EdiOutboundDocument(TypedDict):
    # ISA13 of the interchange
    controlNumber: int
    # What it carries: 850, 997, 999, TA1
    document: str
    size: int
    storedAt: str


class ListVendorEdiPartnerOutboundResponse(TypedDict):
    items: List[EdiOutboundDocument]
    # null: the last page
    cursor: Optional[str]


def _segment(value: Any) -> str:
    """A path parameter, percent-encoded as one path segment."""
    return quote(str(value), safe="")


class Operations:
    """Every operation of the customer and vendor APIs (version 2026-12-07) as a method.

    Customer operations need a buyer client, ``vendor_*`` ones a vendor client. Each returns the answer's
    ``data``; the client's ``last_response`` has its status and headers.
    """

    def request(
        self,
        method: str,
        path: str,
        *,
        params: Optional[Dict[str, Any]] = None,
        json: Any = None,
        idempotency_key: Optional[str] = None,
        content: Optional[bytes] = None,
        content_type: Optional[str] = None,
        headers: Optional[Dict[str, str]] = None,
    ) -> Any:
        """Sends one request; implemented by the client (``medparts.Medparts``)."""
        raise NotImplementedError

    def lookup_users(self, *, user_id: Optional[int] = None, login_user_id: Optional[str] = None) -> User:
        """A user's contact id, companies, facilities and addresses.

        ``GET /customer/api/users/lookup`` (operationId ``getUsersLookup``, scope ``users:read``).

        Usually the first call of an integration: the contact id is the requesterId of quotes and orders,
        and the facilities and addresses are the ones the user may order for and ship to.

        Args:
            user_id: Exactly one of userId and loginUserId
            login_user_id: Exactly one of userId and loginUserId: look up by user name instead (e.g. `jsmith`)
        """
        return self.request(
            "GET",
            "/customer/api/users/lookup",
            params={"userId": user_id, "loginUserId": login_user_id},
        )

    def get_users_search(
        self,
        *,
        q: Optional[str] = None,
        limit: Optional[int] = None,
        offset: Optional[int] = None,
        sort_dir: Optional[Literal["Asc", "Desc"]] = None,
        sort_by: Optional[
            Literal["id", "userId", "contactId", "userName", "loginUserId", "email", "firstName", "lastName"]
        ] = None,
    ) -> GetUsersSearchResponse:
        """Search the tenant's users with the q language.

        ``GET /customer/api/users/search`` (operationId ``getUsersSearch``, scope ``users:read``).

        Filters, sorts and pages the tenant's active users with a q query (docs: the q language); the tenant
        comes from the token, never from the query.

        Args:
            q: Query in the q language: `<clause> [AND <clause>]*`, clause `[-]<field><op><value>`. See
                docs/api.md.
            limit: the ``limit`` query parameter.
            offset: the ``offset`` query parameter.
            sort_dir: the ``sortDir`` query parameter.
            sort_by: A sortable field of the resource, exactly as listed

        Every item of every page: ``client.paginate(client.get_users_search, ...)``.
        """
        return self.request(
            "GET",
            "/customer/api/users/search",
            params={"q": q, "limit": limit, "offset": offset, "sortDir": sort_dir, "sortBy": sort_by},
        )

    get_users_search.paging = {"style": "offset", "location": "query", "items": "items"}  # type: ignore[attr-defined]

    def post_users_search(
        self,
        body: Optional[UserSearchRequest] = None,
        *,
        idempotency_key: Optional[str] = None,
    ) -> PostUsersSearchResponse:
        """Search users with filters in the body.

        ``POST /customer/api/users/search`` (operationId ``postUsersSearch``, scope ``users:read``).

        Pagination is normalized silently. The same search as GET /users/search with filters in a JSON body;
        an unknown filter is a 400 naming it rather than a silently wider search.

        Args:
            body: The JSON request body.
            idempotency_key: The Idempotency-Key (a UUID); a new one when None, reused by every retry.

        Every item of every page: ``client.paginate(client.post_users_search, ...)``.
        """
        return self.request("POST", "/customer/api/users/search", json=body, idempotency_key=idempotency_key)

    post_users_search.paging = {"style": "offset", "location": "body", "items": "users"}  # type: ignore[attr-defined]

    def search_catalog(
        self,
        body: CatalogSearchRequest,
        *,
        idempotency_key: Optional[str] = None,
    ) -> SearchCatalogResponse:
        """Search the catalog by keywords and facets.

        ``POST /customer/api/catalog/search`` (operationId ``postCatalogSearch``, scope ``catalog:read``).

        Keyword search of the global catalog, narrowed by facet selections, with each facet's counts for the
        current query; it quotes no prices: POST /catalog/detail does, per product.

        Args:
            body: The JSON request body.
            idempotency_key: The Idempotency-Key (a UUID); a new one when None, reused by every retry.

        Every item of every page: ``client.paginate(client.search_catalog, ...)``.
        """
        return self.request("POST", "/customer/api/catalog/search", json=body, idempotency_key=idempotency_key)

    search_catalog.paging = {"style": "offset", "location": "body", "items": "items"}  # type: ignore[attr-defined]

    def get_catalog_detail(
        self,
        body: CatalogDetailRequest,
        *,
        idempotency_key: Optional[str] = None,
    ) -> GetCatalogDetailResponse:
        """Get a product with its price options.

        ``POST /customer/api/catalog/detail`` (operationId ``postCatalogDetail``, scope ``catalog:read``).

        The price options are at the buyer's eligible price; every call issues fresh 30-day quotes. For a
        requester at a facility: the product and each vendor offer's price option at the price that buyer is
        eligible for (list or agreement). Each priceOptionId is a quote to order with, valid 30 days.

        Args:
            body: The JSON request body.
            idempotency_key: The Idempotency-Key (a UUID); a new one when None, reused by every retry.
        """
        return self.request("POST", "/customer/api/catalog/detail", json=body, idempotency_key=idempotency_key)

    def resolve_catalog(self, body: ResolveRequest, *, idempotency_key: Optional[str] = None) -> ResolveCatalogResponse:
        """Resolve scanned labels to products.

        ``POST /customer/api/catalog/resolve`` (operationId ``postCatalogResolve``, scope ``catalog:read``).

        Scan to order: UDI labels (GS1, HIBCC, ISBT 128), GTINs or part numbers to products and, optionally,
        their quotes. Each code is resolved on its own and answered in the order sent, with what its label
        carries (lot, expiry, serial) or why it did not resolve. With requesterId and facilityId, the
        products' price options too, as catalog detail issues them.

        Args:
            body: The JSON request body.
            idempotency_key: The Idempotency-Key (a UUID); a new one when None, reused by every retry.
        """
        return self.request("POST", "/customer/api/catalog/resolve", json=body, idempotency_key=idempotency_key)

    def create_order(self, body: CreateOrderRequest, *, idempotency_key: Optional[str] = None) -> OrderCreated:
        """Create an order.

        ``POST /customer/api/orders`` (operationId ``postOrders``, scope ``orders:write``).

        From price options; idempotent with Idempotency-Key. Orders the price options (quotes) of POST
        /catalog/detail, each line at its quoted price. Send a new Idempotency-Key per order and the same
        key on retries: a retry answers the first result, marked X-Idempotency-Cached.

        Args:
            body: The JSON request body.
            idempotency_key: The Idempotency-Key (a UUID); a new one when None, reused by every retry.
        """
        return self.request("POST", "/customer/api/orders", json=body, idempotency_key=idempotency_key)

    def search_orders(
        self,
        *,
        q: Optional[str] = None,
        limit: Optional[int] = None,
        offset: Optional[int] = None,
        sort_dir: Optional[Literal["Asc", "Desc"]] = None,
        sort_by: Optional[
            Literal[
                "orderId",
                "id",
                "orderNumber",
                "companyId",
                "facilityId",
                "requesterId",
                "requesterName",
                "poNumber",
                "orderDate",
                "createdDate",
                "lastUpdated",
                "total",
                "shippingMethod",
                "status",
            ]
        ] = None,
        include: Optional[str] = None,
    ) -> SearchOrdersResponse:
        """Search the tenant's orders with the q language.

        ``GET /customer/api/orders/search`` (operationId ``getOrdersSearch``, scope ``orders:read``).

        Filters, sorts and pages the tenant's orders with a q query; include=lineItems,shippingInfo adds the
        lines and shipping. Send the X-Session-Bookmark of a POST /orders answer to find an order just
        created.

        Args:
            q: Query in the q language: `<clause> [AND <clause>]*`, clause `[-]<field><op><value>`. See
                docs/api.md.
            limit: the ``limit`` query parameter.
            offset: the ``offset`` query parameter.
            sort_dir: the ``sortDir`` query parameter.
            sort_by: A sortable field of the resource, exactly as listed
            include: Comma-separated, case-sensitive: `lineItems`, `shippingInfo`, `history`. Unknown names are
                ignored.

        Every item of every page: ``client.paginate(client.search_orders, ...)``.
        """
        return self.request(
            "GET",
            "/customer/api/orders/search",
            params={
                "q": q,
                "limit": limit,
                "offset": offset,
                "sortDir": sort_dir,
                "sortBy": sort_by,
                "include": include,
            },
        )

    search_orders.paging = {"style": "offset", "location": "query", "items": "orders"}  # type: ignore[attr-defined]

    def get_order(self, order_number: str, *, include: Optional[str] = None) -> OrderSearchRecord:
        """Retrieve one of the tenant's orders by its order number.

        ``GET /customer/api/orders/{orderNumber}`` (operationId ``getOrdersOrderNumber``, scope
        ``orders:read``).

        The order record of spec 2.10, as in search, with the same `include`. 404 for an order number the
        tenant does not have (another tenant's orders are indistinguishable from unknown ones).

        Args:
            order_number: the ``orderNumber`` path parameter.
            include: Comma-separated, case-sensitive: `lineItems`, `shippingInfo`, `history`. Unknown names are
                ignored.
        """
        return self.request("GET", "/customer/api/orders/" + _segment(order_number), params={"include": include})

    def cancel_order(
        self,
        order_number: str,
        body: Optional[CancelOrderRequest] = None,
        *,
        idempotency_key: Optional[str] = None,
    ) -> OrderCancelled:
        """Cancel an order or some of its lines.

        ``POST /customer/api/orders/{orderNumber}/cancel`` (operationId ``postOrdersOrderNumberCancel``,
        scope ``orders:write``).

        Lines that have not shipped; idempotent with Idempotency-Key. Without lineIds every line not yet
        shipped; all or nothing unless partial is true (then the others are listed). A retry with the same
        Idempotency-Key answers the first result.

        Args:
            order_number: the ``orderNumber`` path parameter.
            body: The JSON request body.
            idempotency_key: The Idempotency-Key (a UUID); a new one when None, reused by every retry.
        """
        return self.request(
            "POST",
            "/customer/api/orders/" + _segment(order_number) + "/cancel",
            json=body,
            idempotency_key=idempotency_key,
        )

    def decide_order_line_change(
        self,
        order_number: str,
        line_id: int,
        body: ChangeDecisionRequest,
        *,
        idempotency_key: Optional[str] = None,
    ) -> ChangeDecisionResult:
        """Accept or decline a vendor's change of a line.

        ``POST /customer/api/orders/{orderNumber}/lines/{lineId}/change-decision`` (operationId
        ``postOrdersOrderNumberLinesLineIdChangeDecision``, scope ``orders:write``).

        A change of price or quantity, or a substitution. Answers the `pendingChange` of a line. Accepting
        applies it (price, quantity, product, date; the order's total follows) and the line is Acknowledged;
        declining cancels the line. Answering again what was already answered answers 200 with `eventId`
        null; a line without a pending change is a 409.

        Args:
            order_number: the ``orderNumber`` path parameter.
            line_id: the ``lineId`` path parameter.
            body: The JSON request body.
            idempotency_key: The Idempotency-Key (a UUID); a new one when None, reused by every retry.
        """
        return self.request(
            "POST",
            "/customer/api/orders/" + _segment(order_number) + "/lines/" + _segment(line_id) + "/change-decision",
            json=body,
            idempotency_key=idempotency_key,
        )

    def list_invoices(
        self,
        *,
        q: Optional[str] = None,
        limit: Optional[int] = None,
        offset: Optional[int] = None,
        sort_dir: Optional[Literal["Asc", "Desc"]] = None,
        sort_by: Optional[
            Literal[
                "invoiceId",
                "id",
                "invoiceNumber",
                "number",
                "kind",
                "status",
                "vendorId",
                "invoiceDate",
                "receivedAt",
                "total",
            ]
        ] = None,
    ) -> ListInvoicesResponse:
        """Search invoices and credit memos.

        ``GET /customer/api/invoices`` (operationId ``getInvoices``, scope ``orders:read``).

        The invoices and credit memos vendors sent the tenant, with the q language. Each with its lines and
        their three-way match; oldest first by default (`sortBy=receivedAt&sortDir=Desc` for the newest).

        Args:
            q: Query in the q language: `<clause> [AND <clause>]*`, clause `[-]<field><op><value>`. See
                docs/api.md.
            limit: the ``limit`` query parameter.
            offset: the ``offset`` query parameter.
            sort_dir: the ``sortDir`` query parameter.
            sort_by: A sortable field of the resource, exactly as listed

        Every item of every page: ``client.paginate(client.list_invoices, ...)``.
        """
        return self.request(
            "GET",
            "/customer/api/invoices",
            params={"q": q, "limit": limit, "offset": offset, "sortDir": sort_dir, "sortBy": sort_by},
        )

    list_invoices.paging = {"style": "offset", "location": "query", "items": "invoices"}  # type: ignore[attr-defined]

    def get_invoice(self, invoice_id: int) -> InvoiceRecord:
        """Get an invoice or credit memo.

        ``GET /customer/api/invoices/{invoiceId}`` (operationId ``getInvoicesInvoiceId``, scope
        ``orders:read``).

        One invoice or credit memo of the tenant, with its lines' match. 404 for an id the tenant does not
        have (another tenant's documents are indistinguishable from unknown ones).

        Args:
            invoice_id: the ``invoiceId`` path parameter.
        """
        return self.request("GET", "/customer/api/invoices/" + _segment(invoice_id))

    def accept_invoice(
        self,
        invoice_id: int,
        body: Optional[AcceptInvoiceRequest] = None,
        *,
        idempotency_key: Optional[str] = None,
    ) -> InvoiceDecisionResult:
        """Accept an invoice for payment.

        ``POST /customer/api/invoices/{invoiceId}/accept`` (operationId ``postInvoicesInvoiceIdAccept``,
        scope ``orders:write``).

        Whatever its match; it also settles a dispute. Answering again what was already answered answers 200
        with `eventId` null. An accepted invoice is final (409).

        Args:
            invoice_id: the ``invoiceId`` path parameter.
            body: The JSON request body.
            idempotency_key: The Idempotency-Key (a UUID); a new one when None, reused by every retry.
        """
        return self.request(
            "POST",
            "/customer/api/invoices/" + _segment(invoice_id) + "/accept",
            json=body,
            idempotency_key=idempotency_key,
        )

    def dispute_invoice(
        self,
        invoice_id: int,
        body: DisputeInvoiceRequest,
        *,
        idempotency_key: Optional[str] = None,
    ) -> InvoiceDecisionResult:
        """Dispute an invoice, with a reason for the vendor.

        ``POST /customer/api/invoices/{invoiceId}/dispute`` (operationId ``postInvoicesInvoiceIdDispute``,
        scope ``orders:write``).

        Whatever its match; it also settles a dispute. Answering again what was already answered answers 200
        with `eventId` null. An accepted invoice is final (409).

        Args:
            invoice_id: the ``invoiceId`` path parameter.
            body: The JSON request body.
            idempotency_key: The Idempotency-Key (a UUID); a new one when None, reused by every retry.
        """
        return self.request(
            "POST",
            "/customer/api/invoices/" + _segment(invoice_id) + "/dispute",
            json=body,
            idempotency_key=idempotency_key,
        )

    def get_purchasing_settings(self) -> PurchasingSettings:
        """Get the purchasing settings.

        ``GET /customer/api/purchasing-settings`` (operationId ``getPurchasingSettings``, scope
        ``orders:read``).

        The tenant's purchasing settings: automatic acceptance of vendors' price changes, and match
        tolerances. A tenant that never set them has the defaults: no automatic acceptance, exact matching.
        """
        return self.request("GET", "/customer/api/purchasing-settings")

    def put_purchasing_settings(
        self,
        body: PurchasingSettings,
        *,
        idempotency_key: Optional[str] = None,
    ) -> PurchasingSettings:
        """Replace the tenant's purchasing settings.

        ``PUT /customer/api/purchasing-settings`` (operationId ``putPurchasingSettings``, scope
        ``orders:write``).

        Applies to confirmations and invoices from now on; an earlier invoice is matched with them at its
        order's next change (an invoice, a credit memo, a parcel, a price accepted).

        Args:
            body: The JSON request body.
            idempotency_key: The Idempotency-Key (a UUID); a new one when None, reused by every retry.
        """
        return self.request("PUT", "/customer/api/purchasing-settings", json=body, idempotency_key=idempotency_key)

    def create_order_line_return(
        self,
        order_number: str,
        line_id: int,
        body: ReturnRequest,
        *,
        idempotency_key: Optional[str] = None,
    ) -> ReturnStepResult:
        """Request a return of delivered units.

        ``POST /customer/api/orders/{orderNumber}/lines/{lineId}/returns`` (operationId
        ``postOrdersOrderNumberLinesLineIdReturns``, scope ``orders:write``).

        Units of a line bought outright (an RMA), with a reason. At most the units delivered that are not in
        other returns (those the vendor declined count no more); 400 naming quantity otherwise; of two
        requests sent at once one is written and the other is a 409 order-changed to retry. The vendor
        authorizes it (RMA number, return-by date, restocking fee) or declines it. A retry with the same
        Idempotency-Key answers the same return (200).

        Args:
            order_number: the ``orderNumber`` path parameter.
            line_id: the ``lineId`` path parameter.
            body: The JSON request body.
            idempotency_key: The Idempotency-Key (a UUID); a new one when None, reused by every retry.
        """
        return self.request(
            "POST",
            "/customer/api/orders/" + _segment(order_number) + "/lines/" + _segment(line_id) + "/returns",
            json=body,
            idempotency_key=idempotency_key,
        )

    def list_returns(
        self,
        *,
        q: Optional[str] = None,
        limit: Optional[int] = None,
        offset: Optional[int] = None,
        sort_dir: Optional[Literal["Asc", "Desc"]] = None,
        sort_by: Optional[
            Literal[
                "returnId",
                "id",
                "kind",
                "status",
                "dueAt",
                "dueDate",
                "vendorId",
                "facilityId",
                "serialNumber",
                "serial",
                "rmaNumber",
                "rma",
                "lineId",
                "createdAt",
                "lastUpdated",
            ]
        ] = None,
    ) -> ListReturnsResponse:
        """Search cores, loaners, repairs and returns.

        ``GET /customer/api/returns`` (operationId ``getReturns``, scope ``orders:read``).

        The tenant's cores, loaners, repairs and returns, with the q language. Open ones with their due
        dates: e.g. `q=kind:core AND status:open AND dueAt<"2026-12-15"`. Oldest first by default.

        Args:
            q: Query in the q language: `<clause> [AND <clause>]*`, clause `[-]<field><op><value>`. See
                docs/api.md.
            limit: the ``limit`` query parameter.
            offset: the ``offset`` query parameter.
            sort_dir: the ``sortDir`` query parameter.
            sort_by: A sortable field of the resource, exactly as listed

        Every item of every page: ``client.paginate(client.list_returns, ...)``.
        """
        return self.request(
            "GET",
            "/customer/api/returns",
            params={"q": q, "limit": limit, "offset": offset, "sortDir": sort_dir, "sortBy": sort_by},
        )

    list_returns.paging = {"style": "offset", "location": "query", "items": "returns"}  # type: ignore[attr-defined]

    def get_return(self, return_id: int) -> UnitReturn:
        """Get a core, loaner, repair or return.

        ``GET /customer/api/returns/{returnId}`` (operationId ``getReturnsReturnId``, scope
        ``orders:read``).

        One core, loaner, repair or return of the tenant, with its next steps. 404 for an id the tenant does
        not have.

        Args:
            return_id: the ``returnId`` path parameter.
        """
        return self.request("GET", "/customer/api/returns/" + _segment(return_id))

    def ship_return(
        self,
        return_id: int,
        body: ReturnShipment,
        *,
        idempotency_key: Optional[str] = None,
    ) -> ReturnStepResult:
        """Ship a unit back to the vendor.

        ``POST /customer/api/returns/{returnId}/ship`` (operationId ``postReturnsReturnIdShip``, scope
        ``orders:write``).

        A core, a loaner, a unit for repair or an authorized return. With carrier and tracking, and the
        unit's UDI label when scanned (its serial is kept). Sending the same tracking number again answers
        as done.

        Args:
            return_id: the ``returnId`` path parameter.
            body: The JSON request body.
            idempotency_key: The Idempotency-Key (a UUID); a new one when None, reused by every retry.
        """
        return self.request(
            "POST",
            "/customer/api/returns/" + _segment(return_id) + "/ship",
            json=body,
            idempotency_key=idempotency_key,
        )

    def decide_return_repair(
        self,
        return_id: int,
        body: RepairDecision,
        *,
        idempotency_key: Optional[str] = None,
    ) -> ReturnStepResult:
        """Approve or decline a repair beyond its flat rate.

        ``POST /customer/api/returns/{returnId}/repair-decision`` (operationId
        ``postReturnsReturnIdRepairDecision``, scope ``orders:write``).

        A repair the vendor found beyond its flat rate. Approving takes the new price onto the order line
        (and the order's total); declining has the unit sent back unrepaired.

        Args:
            return_id: the ``returnId`` path parameter.
            body: The JSON request body.
            idempotency_key: The Idempotency-Key (a UUID); a new one when None, reused by every retry.
        """
        return self.request(
            "POST",
            "/customer/api/returns/" + _segment(return_id) + "/repair-decision",
            json=body,
            idempotency_key=idempotency_key,
        )

    def list_recalls(
        self,
        *,
        q: Optional[str] = None,
        limit: Optional[int] = None,
        offset: Optional[int] = None,
        sort_dir: Optional[Literal["Asc", "Desc"]] = None,
        sort_by: Optional[
            Literal[
                "recallId",
                "id",
                "productNumber",
                "classification",
                "class",
                "status",
                "source",
                "firm",
                "initiatedOn",
                "terminatedOn",
                "acknowledgedAt",
                "affectedUnits",
                "reviewUnits",
                "lastUpdated",
            ]
        ] = None,
    ) -> ListRecallsResponse:
        """Search the recalls that touch the tenant's units.

        ``GET /customer/api/recalls`` (operationId ``getRecalls``, scope ``orders:read``).

        Every recall (FDA, or a vendor's field safety notice) that touches units this tenant received:
        affected, or to review. Matched in the tenant's own store against the device identifier, lot, serial
        and expiry of each unit its vendors shipped. With the q language, e.g. `q=classification:"Class I"
        AND status:open AND acknowledgedAt:null`. Oldest change first by default; `sortBy=-lastUpdated` puts
        the newest first.

        Args:
            q: Query in the q language: `<clause> [AND <clause>]*`, clause `[-]<field><op><value>`. See
                docs/api.md.
            limit: the ``limit`` query parameter.
            offset: the ``offset`` query parameter.
            sort_dir: the ``sortDir`` query parameter.
            sort_by: A sortable field of the resource, exactly as listed

        Every item of every page: ``client.paginate(client.list_recalls, ...)``.
        """
        return self.request(
            "GET",
            "/customer/api/recalls",
            params={"q": q, "limit": limit, "offset": offset, "sortDir": sort_dir, "sortBy": sort_by},
        )

    list_recalls.paging = {"style": "offset", "location": "query", "items": "recalls"}  # type: ignore[attr-defined]

    def get_recall(self, recall_id: int) -> RecallWithUnits:
        """Get a recall with the units it touches.

        ``GET /customer/api/recalls/{recallId}`` (operationId ``getRecallsRecallId``, scope
        ``orders:read``).

        The recall and each of the tenant's units it touches: its device identifier, lot, serial, expiry,
        order, line and facility, the outcome (`affected` or `needs_review`) with the clause that decided,
        and what the hospital found. 404 for a recall that touches none of the tenant's units (whether it
        exists is not said).

        Args:
            recall_id: the ``recallId`` path parameter.
        """
        return self.request("GET", "/customer/api/recalls/" + _segment(recall_id))

    def acknowledge_recall(self, recall_id: int, *, idempotency_key: Optional[str] = None) -> RecallWithUnits:
        """Acknowledge a recall.

        ``POST /customer/api/recalls/{recallId}/acknowledge`` (operationId
        ``postRecallsRecallIdAcknowledge``, scope ``orders:write``).

        Says the hospital has taken the recall in hand. Acknowledging again keeps the first time.

        Args:
            recall_id: the ``recallId`` path parameter.
            idempotency_key: The Idempotency-Key (a UUID); a new one when None, reused by every retry.
        """
        return self.request(
            "POST",
            "/customer/api/recalls/" + _segment(recall_id) + "/acknowledge",
            idempotency_key=idempotency_key,
        )

    def record_recall_units(
        self,
        recall_id: int,
        body: RecallDispositions,
        *,
        idempotency_key: Optional[str] = None,
    ) -> RecallWithUnits:
        """Record what was found of the recall's units.

        ``POST /customer/api/recalls/{recallId}/units`` (operationId ``postRecallsRecallIdUnits``, scope
        ``orders:write``).

        Each unit `found` (in stock: it can go back), `not_found`, or `used` (already used on a patient). A
        unit the recall does not touch is a 400 naming it, and nothing is written. Recording the same again
        changes nothing.

        Args:
            recall_id: the ``recallId`` path parameter.
            body: The JSON request body.
            idempotency_key: The Idempotency-Key (a UUID); a new one when None, reused by every retry.
        """
        return self.request(
            "POST",
            "/customer/api/recalls/" + _segment(recall_id) + "/units",
            json=body,
            idempotency_key=idempotency_key,
        )

    def create_recall_return(
        self,
        recall_id: int,
        body: Optional[RecallReturnRequest] = None,
        *,
        idempotency_key: Optional[str] = None,
    ) -> RecallReturns:
        """Send a recall's units back to their vendors.

        ``POST /customer/api/recalls/{recallId}/returns`` (operationId ``postRecallsRecallIdReturns``, scope
        ``orders:write``).

        Requests a return (an RMA, reason `recall`) of the named units, or of every affected unit not used
        and not in a return yet, one per order line; the vendor authorizes it and credits what it states
        (docs/api.md, Returns). A line that cannot go back now (not delivered yet, not bought outright) is
        listed in `skipped` with why. A retry with the same Idempotency-Key answers the same returns.

        Args:
            recall_id: the ``recallId`` path parameter.
            body: The JSON request body.
            idempotency_key: The Idempotency-Key (a UUID); a new one when None, reused by every retry.
        """
        return self.request(
            "POST",
            "/customer/api/recalls/" + _segment(recall_id) + "/returns",
            json=body,
            idempotency_key=idempotency_key,
        )

    def search_manufacturers(
        self,
        *,
        q: Optional[str] = None,
        limit: Optional[int] = None,
        offset: Optional[int] = None,
        sort_dir: Optional[Literal["Asc", "Desc"]] = None,
        sort_by: Optional[Literal["manufacturerId", "id", "name"]] = None,
    ) -> SearchManufacturersResponse:
        """Search manufacturers (global list) with the q language.

        ``GET /customer/api/manufacturers/search`` (operationId ``getManufacturersSearch``, scope
        ``manufacturers:read``).

        The manufacturers of the global catalog (the same for every tenant), filtered, sorted and paged with
        a q query.

        Args:
            q: Query in the q language: `<clause> [AND <clause>]*`, clause `[-]<field><op><value>`. See
                docs/api.md.
            limit: the ``limit`` query parameter.
            offset: the ``offset`` query parameter.
            sort_dir: the ``sortDir`` query parameter.
            sort_by: A sortable field of the resource, exactly as listed

        Every item of every page: ``client.paginate(client.search_manufacturers, ...)``.
        """
        return self.request(
            "GET",
            "/customer/api/manufacturers/search",
            params={"q": q, "limit": limit, "offset": offset, "sortDir": sort_dir, "sortBy": sort_by},
        )

    search_manufacturers.paging = {  # type: ignore[attr-defined]
        "style": "offset",
        "location": "query",
        "items": "items",
    }

    def list_events(
        self,
        *,
        after: Optional[str] = None,
        types: Optional[str] = None,
        limit: Optional[int] = None,
    ) -> ListEventsResponse:
        """The tenant's order events, oldest first (cursor paging).

        ``GET /customer/api/events`` (operationId ``getEvents``, scope ``events:read``).

        Every order change writes one event in the same transaction. Kept 30 days. Poll with `after` =
        `nextCursor` of the previous page; `limit` 1-100, default 50.

        Args:
            after: Cursor: the id of the last event you read (nextCursor); absent to start from the oldest.
                Unknown ids are a 400.
            types: Comma-separated event types: order.created, order.acknowledged, order.backordered,
                order.shipped, order.delivered, order.cancelled, order.rejected, order.confirmed,
                order.change_accepted, order.change_declined, invoice.received, invoice.matched,
                invoice.exception, invoice.accepted, invoice.disputed, credit_memo.received, core.opened,
                core.due_soon, core.overdue, core.shipped, core.received, core.refused, core.charged,
                loaner.opened, loaner.due_soon, loaner.overdue, loaner.shipped, loaner.received,
                loaner.charged, repair.unit_shipped, repair.received, repair.diagnosed, repair.quoted,
                repair.approved, repair.declined, repair.returned, return.requested, return.authorized,
                return.declined, return.shipped, return.received, recall.affects_you, recall.updated,
                recall.closed, webhook_endpoint.disabled; any other type is a 400. Default: all.
            limit: the ``limit`` query parameter.

        Every item of every page: ``client.paginate(client.list_events, ...)``.
        """
        return self.request("GET", "/customer/api/events", params={"after": after, "types": types, "limit": limit})

    list_events.paging = {  # type: ignore[attr-defined]
        "style": "cursor",
        "param": "after",
        "next": "nextCursor",
        "items": "events",
        "hasMore": "hasMore",
    }

    def get_event(self, event_id: str) -> Event:
        """One of the tenant's events.

        ``GET /customer/api/events/{eventId}`` (operationId ``getEventsEventId``, scope ``events:read``).

        The event exactly as the feed and webhook deliveries carry it: use it to check a delivery's
        Medparts-Event-Id. Another tenant's event is a 404.

        Args:
            event_id: the ``eventId`` path parameter.
        """
        return self.request("GET", "/customer/api/events/" + _segment(event_id))

    def list_webhook_endpoints(self) -> ListWebhookEndpointsResponse:
        """The tenant's webhook endpoints.

        ``GET /customer/api/webhook-endpoints`` (operationId ``getWebhookEndpoints``, scope
        ``webhooks:manage``).

        Every endpoint registered for the tenant, with the event types it receives and whether deliveries
        fail (enabled, failingSince); never its signing secret.
        """
        return self.request("GET", "/customer/api/webhook-endpoints")

    list_webhook_endpoints.paging = {"style": "single", "items": "endpoints"}  # type: ignore[attr-defined]

    def create_webhook_endpoint(
        self,
        body: CreateWebhookEndpointRequest,
        *,
        idempotency_key: Optional[str] = None,
    ) -> CreateWebhookEndpointResponse:
        """Register a webhook endpoint.

        ``POST /customer/api/webhook-endpoints`` (operationId ``postWebhookEndpoints``, scope
        ``webhooks:manage``).

        Its signing secret is in this answer only. At most 16 per tenant. Deliveries are signed with
        `Medparts-Signature` (docs/api.md).

        Args:
            body: The JSON request body.
            idempotency_key: The Idempotency-Key (a UUID); a new one when None, reused by every retry.
        """
        return self.request("POST", "/customer/api/webhook-endpoints", json=body, idempotency_key=idempotency_key)

    def get_webhook_endpoint(self, id: str) -> WebhookEndpoint:
        """One webhook endpoint.

        ``GET /customer/api/webhook-endpoints/{id}`` (operationId ``getWebhookEndpointsId``, scope
        ``webhooks:manage``).

        The endpoint's URL and event types; its signing secret was shown once, at creation. Another tenant's
        endpoint is a 404.

        Args:
            id: the ``id`` path parameter.
        """
        return self.request("GET", "/customer/api/webhook-endpoints/" + _segment(id))

    def delete_webhook_endpoint(self, id: str, *, idempotency_key: Optional[str] = None) -> None:
        """Delete a webhook endpoint.

        ``DELETE /customer/api/webhook-endpoints/{id}`` (operationId ``deleteWebhookEndpointsId``, scope
        ``webhooks:manage``).

        Deliveries still queued for it are dropped. Events from now on are no longer delivered to it; the
        event feed (GET /events) still has every event.

        Args:
            id: the ``id`` path parameter.
            idempotency_key: The Idempotency-Key (a UUID); a new one when None, reused by every retry.
        """
        return self.request(
            "DELETE",
            "/customer/api/webhook-endpoints/" + _segment(id),
            idempotency_key=idempotency_key,
        )

    def test_webhook_endpoint(
        self,
        id: str,
        body: Optional[WebhookTestRequest] = None,
        *,
        idempotency_key: Optional[str] = None,
    ) -> TestWebhookEndpointResponse:
        """Send a test event to a webhook endpoint.

        ``POST /customer/api/webhook-endpoints/{id}/test`` (operationId ``postWebhookEndpointsIdTest``,
        scope ``webhooks:manage``).

        Sends a signed webhook_endpoint.test event, or a sample of any event type, to the endpoint now and
        reports what it answered. Checks an endpoint's URL, signature verification and handler before real
        events arrive: the delivery is made during the request and its result answered.

        Args:
            id: the ``id`` path parameter.
            body: The JSON request body.
            idempotency_key: The Idempotency-Key (a UUID); a new one when None, reused by every retry.
        """
        return self.request(
            "POST",
            "/customer/api/webhook-endpoints/" + _segment(id) + "/test",
            json=body,
            idempotency_key=idempotency_key,
        )

    def list_webhook_endpoint_deliveries(self, id: str) -> ListWebhookEndpointDeliveriesResponse:
        """List an endpoint's delivery attempts.

        ``GET /customer/api/webhook-endpoints/{id}/deliveries`` (operationId
        ``getWebhookEndpointsIdDeliveries``, scope ``webhooks:manage``).

        The endpoint's latest delivery attempts, newest first, up to 100. Each attempt with its event,
        whether it was delivered, the status code or error and the latency: find why an endpoint missed an
        event.

        Args:
            id: the ``id`` path parameter.
        """
        return self.request("GET", "/customer/api/webhook-endpoints/" + _segment(id) + "/deliveries")

    list_webhook_endpoint_deliveries.paging = {"style": "single", "items": "deliveries"}  # type: ignore[attr-defined]

    def list_request_logs(
        self,
        *,
        q: Optional[str] = None,
        limit: Optional[int] = None,
        offset: Optional[int] = None,
        sort_dir: Optional[Literal["Asc", "Desc"]] = None,
        sort_by: Optional[
            Literal[
                "id",
                "at",
                "createdAt",
                "clientId",
                "method",
                "path",
                "status",
                "latencyMs",
                "errorType",
                "apiVersion",
            ]
        ] = None,
    ) -> ListRequestLogsResponse:
        """Search the tenant's request log.

        ``GET /customer/api/request-logs`` (operationId ``getRequestLogs``).

        What Medparts received and answered, with the q language: method, path, status, latency, correlation
        id, idempotency key, an error's problem document and, in test mode only, both bodies of the reader's
        own client's requests (secrets and card-like numbers redacted). Kept 30 days in test mode and 7 days
        live, at most 100,000 requests. Reads of the log are not logged. Any valid token of the owner reads
        it; no scope is needed. A test-mode client sees the sandbox's requests, a live client the live ones,
        of every client of the tenant.

        Args:
            q: Query in the q language: `<clause> [AND <clause>]*`, clause `[-]<field><op><value>`. See
                docs/api.md.
            limit: the ``limit`` query parameter.
            offset: the ``offset`` query parameter.
            sort_dir: the ``sortDir`` query parameter.
            sort_by: A sortable field of the resource, exactly as listed

        Every item of every page: ``client.paginate(client.list_request_logs, ...)``.
        """
        return self.request(
            "GET",
            "/customer/api/request-logs",
            params={"q": q, "limit": limit, "offset": offset, "sortDir": sort_dir, "sortBy": sort_by},
        )

    list_request_logs.paging = {  # type: ignore[attr-defined]
        "style": "offset",
        "location": "query",
        "items": "requests",
    }

    def simulate_test_helpers_order(
        self,
        order_number: str,
        body: SimulateRequest,
        *,
        idempotency_key: Optional[str] = None,
    ) -> SimulateResult:
        """Run a scenario on a test order.

        ``POST /customer/api/test-helpers/orders/{orderNumber}/simulate`` (operationId
        ``postTestHelpersOrdersOrderNumberSimulate``, scope ``orders:write``).

        Test mode only: the simulated vendor runs a scenario on a test order now, with the real events and
        webhooks. For test-mode clients only (to a live token the path does not exist): moves the test
        order's lines at once instead of waiting for the simulated vendor's schedule, which then stops for
        this order.

        Args:
            order_number: the ``orderNumber`` path parameter.
            body: The JSON request body.
            idempotency_key: The Idempotency-Key (a UUID); a new one when None, reused by every retry.
        """
        return self.request(
            "POST",
            "/customer/api/test-helpers/orders/" + _segment(order_number) + "/simulate",
            json=body,
            idempotency_key=idempotency_key,
        )

    def list_vendor_order_lines(
        self,
        *,
        status: Optional[str] = None,
        order_number: Optional[str] = None,
        attention: Optional[Literal["returns", "invoices"]] = None,
        q: Optional[str] = None,
        limit: Optional[int] = None,
        offset: Optional[int] = None,
    ) -> ListVendorOrderLinesResponse:
        """The vendor's order lines, open ones by default, oldest first.

        ``GET /vendor/api/order-lines`` (operationId ``getVendorOrderLines``, scope ``fulfilment:read``).

        Only lines the vendor fulfils; `limit` 1-100, default 50. Open lines are listed whatever their age;
        closed ones (Delivered, Cancelled, Rejected) for 30 days after their last change (a deployment may
        keep them longer); an older closed line answers by id only (`GET /vendor/api/order-lines/{lineId}`).

        Args:
            status: Comma-separated line statuses (case-insensitive): Ordered, Acknowledged, Backordered,
                Shipped, Delivered, Cancelled, Rejected; any other name is a 400. Default: the open ones,
                Ordered, Acknowledged, Backordered.
            order_number: Only lines of this order
            attention: Instead of status, orderNumber and q (400 with any): the lines on which something else
                waits for the vendor, in any status: `returns` (returnsToReceive > 0) or `invoices`
                (invoicesInException > 0). A closed line stays listed for the list's retention after its
                last change.
            q: Query in the q language on the lines, with status and orderNumber (not with attention:
                400). Fields: orderNumber, status, statusName, orderDate, partNumber, description,
                poNumber, quantity, shipToCity, shipToState.
            limit: the ``limit`` query parameter.
            offset: the ``offset`` query parameter.

        Every item of every page: ``client.paginate(client.list_vendor_order_lines, ...)``.
        """
        return self.request(
            "GET",
            "/vendor/api/order-lines",
            params={
                "status": status,
                "orderNumber": order_number,
                "attention": attention,
                "q": q,
                "limit": limit,
                "offset": offset,
            },
        )

    list_vendor_order_lines.paging = {  # type: ignore[attr-defined]
        "style": "offset",
        "location": "query",
        "items": "lines",
    }

    def get_vendor_order_line(self, line_id: int) -> VendorOrderLine:
        """One of the vendor's order lines.

        ``GET /vendor/api/order-lines/{lineId}`` (operationId ``getVendorOrderLinesLineId``, scope
        ``fulfilment:read``).

        404 for a line id that is unknown or another vendor's (indistinguishable).

        Args:
            line_id: the ``lineId`` path parameter.
        """
        return self.request("GET", "/vendor/api/order-lines/" + _segment(line_id))

    def acknowledge_vendor_order_line(
        self,
        line_id: int,
        body: AcknowledgeLineRequest,
        *,
        idempotency_key: Optional[str] = None,
    ) -> VendorMoveResult:
        """Acknowledge a line with a promised ship date.

        ``POST /vendor/api/order-lines/{lineId}/acknowledge`` (operationId
        ``postVendorOrderLinesLineIdAcknowledge``, scope ``fulfilment:write``).

        A move along the line lifecycle (docs/api.md). 409 `invalid-transition` lists the statuses allowed
        from the line's status; 409 `order-changed` when the order changed meanwhile (retry). A repeat of a
        move already in place answers 200 with `eventId` null. Acknowledging again changes the promised
        date.

        Args:
            line_id: the ``lineId`` path parameter.
            body: The JSON request body.
            idempotency_key: The Idempotency-Key (a UUID); a new one when None, reused by every retry.
        """
        return self.request(
            "POST",
            "/vendor/api/order-lines/" + _segment(line_id) + "/acknowledge",
            json=body,
            idempotency_key=idempotency_key,
        )

    def backorder_vendor_order_line(
        self,
        line_id: int,
        body: BackorderLineRequest,
        *,
        idempotency_key: Optional[str] = None,
    ) -> VendorMoveResult:
        """Backorder a line with an expected ship date.

        ``POST /vendor/api/order-lines/{lineId}/backorder`` (operationId
        ``postVendorOrderLinesLineIdBackorder``, scope ``fulfilment:write``).

        A move along the line lifecycle (docs/api.md). 409 `invalid-transition` lists the statuses allowed
        from the line's status; 409 `order-changed` when the order changed meanwhile (retry). A repeat of a
        move already in place answers 200 with `eventId` null.

        Args:
            line_id: the ``lineId`` path parameter.
            body: The JSON request body.
            idempotency_key: The Idempotency-Key (a UUID); a new one when None, reused by every retry.
        """
        return self.request(
            "POST",
            "/vendor/api/order-lines/" + _segment(line_id) + "/backorder",
            json=body,
            idempotency_key=idempotency_key,
        )

    def ship_vendor_order_line(
        self,
        line_id: int,
        body: ShipLineRequest,
        *,
        idempotency_key: Optional[str] = None,
    ) -> VendorMoveResult:
        """Ship a line or part of it.

        ``POST /vendor/api/order-lines/{lineId}/ship`` (operationId ``postVendorOrderLinesLineIdShip``,
        scope ``fulfilment:write``).

        A move along the line lifecycle (docs/api.md). 409 `invalid-transition` lists the statuses allowed
        from the line's status; 409 `order-changed` when the order changed meanwhile (retry). A repeat of a
        move already in place answers 200 with `eventId` null. A parcel with a tracking number. A tracking
        number names one parcel of the vendor on the order: shipping several lines with it puts them in one
        shipping document. `quantity` may not exceed what remains to ship of the line (400). Repeating a
        ship with a tracking number that already holds the line changes nothing.

        Args:
            line_id: the ``lineId`` path parameter.
            body: The JSON request body.
            idempotency_key: The Idempotency-Key (a UUID); a new one when None, reused by every retry.
        """
        return self.request(
            "POST",
            "/vendor/api/order-lines/" + _segment(line_id) + "/ship",
            json=body,
            idempotency_key=idempotency_key,
        )

    def deliver_vendor_order_line(
        self,
        line_id: int,
        body: Optional[DeliverLineRequest] = None,
        *,
        idempotency_key: Optional[str] = None,
    ) -> VendorMoveResult:
        """Mark a shipped line delivered.

        ``POST /vendor/api/order-lines/{lineId}/deliver`` (operationId
        ``postVendorOrderLinesLineIdDeliver``, scope ``fulfilment:write``).

        A move along the line lifecycle (docs/api.md). 409 `invalid-transition` lists the statuses allowed
        from the line's status; 409 `order-changed` when the order changed meanwhile (retry). A repeat of a
        move already in place answers 200 with `eventId` null.

        Args:
            line_id: the ``lineId`` path parameter.
            body: The JSON request body.
            idempotency_key: The Idempotency-Key (a UUID); a new one when None, reused by every retry.
        """
        return self.request(
            "POST",
            "/vendor/api/order-lines/" + _segment(line_id) + "/deliver",
            json=body,
            idempotency_key=idempotency_key,
        )

    def reject_vendor_order_line(
        self,
        line_id: int,
        body: RejectLineRequest,
        *,
        idempotency_key: Optional[str] = None,
    ) -> VendorMoveResult:
        """Reject a line the vendor cannot fulfil.

        ``POST /vendor/api/order-lines/{lineId}/reject`` (operationId ``postVendorOrderLinesLineIdReject``,
        scope ``fulfilment:write``).

        A move along the line lifecycle (docs/api.md). 409 `invalid-transition` lists the statuses allowed
        from the line's status; 409 `order-changed` when the order changed meanwhile (retry). A repeat of a
        move already in place answers 200 with `eventId` null. Only before the line is acknowledged.

        Args:
            line_id: the ``lineId`` path parameter.
            body: The JSON request body.
            idempotency_key: The Idempotency-Key (a UUID); a new one when None, reused by every retry.
        """
        return self.request(
            "POST",
            "/vendor/api/order-lines/" + _segment(line_id) + "/reject",
            json=body,
            idempotency_key=idempotency_key,
        )

    def create_vendor_shipment(self, body: ShipmentRequest, *, idempotency_key: Optional[str] = None) -> ShipmentResult:
        """Ship several lines of an order in one parcel.

        ``POST /vendor/api/shipments`` (operationId ``postVendorShipments``, scope ``fulfilment:write``).

        A parcel (its tracking number) holding several of the vendor's lines of one order, as an X12 856's
        order level lists them: each line shipped as `POST /vendor/api/order-lines/{lineId}/ship` ships it
        (the same rules and messages, one `order.shipped` event per line), all in one change of the order.
        All or nothing: a line refused refuses the shipment, naming it (`lines[i]` in a 400, its id in a
        409), and nothing is written. A line the parcel already holds is left as it is (`eventId` null):
        repeating a shipment changes nothing. 409 `invalid-transition` or `change-pending` for a line that
        cannot ship now; 409 `order-changed` when the order changed meanwhile (retry).

        Args:
            body: The JSON request body.
            idempotency_key: The Idempotency-Key (a UUID); a new one when None, reused by every retry.
        """
        return self.request("POST", "/vendor/api/shipments", json=body, idempotency_key=idempotency_key)

    def create_vendor_order_confirmation(
        self,
        body: OrderConfirmationRequest,
        *,
        idempotency_key: Optional[str] = None,
    ) -> OrderConfirmationResult:
        """Confirm lines of an order with X12 855 codes.

        ``POST /vendor/api/order-confirmations`` (operationId ``postVendorOrderConfirmations``, scope
        ``fulfilment:write``).

        Accept, backorder, change price, quantity or product, hold, reject. A purchase order acknowledgement
        for the vendor's lines of one order. A price above the line's (unless within the buyer's automatic
        acceptance), a quantity change or a substitution waits for the buyer's answer: the line keeps its
        status and shows `pendingChange`, and cannot ship meanwhile. A price above the buyer's contract
        price is flagged `contractPriceException` and never accepted automatically. Repeating a confirmation
        already in place answers 200 with `eventId` null. A field a code does not take, or one it requires
        and lacks, is a 400 naming it.

        Args:
            body: The JSON request body.
            idempotency_key: The Idempotency-Key (a UUID); a new one when None, reused by every retry.
        """
        return self.request("POST", "/vendor/api/order-confirmations", json=body, idempotency_key=idempotency_key)

    def create_vendor_invoice(self, body: InvoiceRequest, *, idempotency_key: Optional[str] = None) -> InvoiceRecord:
        """Send an invoice for lines of one order.

        ``POST /vendor/api/invoices`` (operationId ``postVendorInvoices``, scope ``fulfilment:write``).

        It is matched against the order and what shipped (three-way match). Lines name the order lines they
        bill (`lineId`); a line without one is a charge not on the order. Amounts are decimal strings and
        must add up exactly (400 otherwise: each line's amount is quantity × unitPrice, the summary the
        sums, and a line without lineId needs a description). Each line is matched at once: matched,
        price_variance, quantity_variance, not_on_po or contract_price_exception, with an explanation.
        Sending the same invoice again answers 200 with it; another under a used number is a 409.

        Args:
            body: The JSON request body.
            idempotency_key: The Idempotency-Key (a UUID); a new one when None, reused by every retry.
        """
        return self.request("POST", "/vendor/api/invoices", json=body, idempotency_key=idempotency_key)

    def create_vendor_credit_memo(
        self,
        body: CreditMemoRequest,
        *,
        idempotency_key: Optional[str] = None,
    ) -> InvoiceRecord:
        """Send a credit memo against an invoice.

        ``POST /vendor/api/credit-memos`` (operationId ``postVendorCreditMemos``, scope
        ``fulfilment:write``).

        Against one of the vendor's invoices, named by its `invoiceId` or by the vendor's own numbers,
        `orderNumber` and `invoiceNumber` (one form or the other: 400 on `invoiceId` for both or neither);
        each line names the invoice's line (`invoiceLineNumber`) or the order line it bills (`lineId`); by
        numbers, at least one line names its `lineId` (400 on `lines` otherwise). Some of its lines, or all
        that remains of it. A credit never exceeds what remains of the invoice, line by line (quantity,
        amount, tax) and its freight (400 otherwise; lines and summary come together, and must add up
        exactly). Credited quantities no longer count as invoiced, so the order's invoices are matched
        again. Sending the same credit memo again answers 200 with it.

        Args:
            body: The JSON request body.
            idempotency_key: The Idempotency-Key (a UUID); a new one when None, reused by every retry.
        """
        return self.request("POST", "/vendor/api/credit-memos", json=body, idempotency_key=idempotency_key)

    def get_vendor_invoice(self, invoice_id: int) -> InvoiceRecord:
        """Get an invoice or credit memo.

        ``GET /vendor/api/invoices/{invoiceId}`` (operationId ``getVendorInvoicesInvoiceId``, scope
        ``fulfilment:read``).

        One of the vendor's invoices or credit memos, with its match and the buyer's answer. Each line's
        three-way match and explanation, the buyer's `status` (accepted, disputed with its reason) and what
        credit memos credit. 404 for another vendor's document, exactly like an unknown id.

        Args:
            invoice_id: the ``invoiceId`` path parameter.
        """
        return self.request("GET", "/vendor/api/invoices/" + _segment(invoice_id))

    def get_vendor_return(self, return_id: int) -> UnitReturn:
        """Get a return.

        ``GET /vendor/api/returns/{returnId}`` (operationId ``getVendorReturnsReturnId``, scope
        ``fulfilment:read``).

        One of the vendor's returns (a core, a loaner, a repair, a return), with its next steps. 404 for
        another vendor's, exactly like an unknown id.

        Args:
            return_id: the ``returnId`` path parameter.
        """
        return self.request("GET", "/vendor/api/returns/" + _segment(return_id))

    def list_vendor_order_line_returns(self, line_id: int) -> ListVendorOrderLineReturnsResponse:
        """List the returns of an order line.

        ``GET /vendor/api/order-lines/{lineId}/returns`` (operationId ``getVendorOrderLinesLineIdReturns``,
        scope ``fulfilment:read``).

        The returns of one of the vendor's order lines (its cores, loaners, repair, return requests), newest
        first. How a vendor finds a return request to authorize, and the cores and loaners its parcels
        opened.

        Args:
            line_id: the ``lineId`` path parameter.
        """
        return self.request("GET", "/vendor/api/order-lines/" + _segment(line_id) + "/returns")

    list_vendor_order_line_returns.paging = {"style": "single", "items": "returns"}  # type: ignore[attr-defined]

    def authorize_vendor_return(
        self,
        return_id: int,
        body: ReturnAuthorization,
        *,
        idempotency_key: Optional[str] = None,
    ) -> ReturnStepResult:
        """Authorize a return.

        ``POST /vendor/api/returns/{returnId}/authorize`` (operationId
        ``postVendorReturnsReturnIdAuthorize``, scope ``fulfilment:write``).

        With an RMA number, a return-by date and a restocking fee. Repeating a step already in place answers
        as done, with eventId null.

        Args:
            return_id: the ``returnId`` path parameter.
            body: The JSON request body.
            idempotency_key: The Idempotency-Key (a UUID); a new one when None, reused by every retry.
        """
        return self.request(
            "POST",
            "/vendor/api/returns/" + _segment(return_id) + "/authorize",
            json=body,
            idempotency_key=idempotency_key,
        )

    def decline_vendor_return(
        self,
        return_id: int,
        body: ReturnDecline,
        *,
        idempotency_key: Optional[str] = None,
    ) -> ReturnStepResult:
        """Decline a return.

        ``POST /vendor/api/returns/{returnId}/decline`` (operationId ``postVendorReturnsReturnIdDecline``,
        scope ``fulfilment:write``).

        With a reason. Repeating a step already in place answers as done, with eventId null.

        Args:
            return_id: the ``returnId`` path parameter.
            body: The JSON request body.
            idempotency_key: The Idempotency-Key (a UUID); a new one when None, reused by every retry.
        """
        return self.request(
            "POST",
            "/vendor/api/returns/" + _segment(return_id) + "/decline",
            json=body,
            idempotency_key=idempotency_key,
        )

    def receive_vendor_return(
        self,
        return_id: int,
        body: ReturnReceipt,
        *,
        idempotency_key: Optional[str] = None,
    ) -> ReturnStepResult:
        """Receive a unit.

        ``POST /vendor/api/returns/{returnId}/receive`` (operationId ``postVendorReturnsReturnIdReceive``,
        scope ``fulfilment:write``).

        A core accepted or refused (a refused core is charged), a loaner (late fees charged), a repair, a
        return. Repeating a step already in place answers as done, with eventId null.

        Args:
            return_id: the ``returnId`` path parameter.
            body: The JSON request body.
            idempotency_key: The Idempotency-Key (a UUID); a new one when None, reused by every retry.
        """
        return self.request(
            "POST",
            "/vendor/api/returns/" + _segment(return_id) + "/receive",
            json=body,
            idempotency_key=idempotency_key,
        )

    def diagnose_vendor_return(
        self,
        return_id: int,
        body: RepairDiagnosis,
        *,
        idempotency_key: Optional[str] = None,
    ) -> ReturnStepResult:
        """Diagnose a repair.

        ``POST /vendor/api/returns/{returnId}/diagnose`` (operationId ``postVendorReturnsReturnIdDiagnose``,
        scope ``fulfilment:write``).

        Within the flat rate, or beyond it with a price the buyer decides on. Repeating a step already in
        place answers as done, with eventId null.

        Args:
            return_id: the ``returnId`` path parameter.
            body: The JSON request body.
            idempotency_key: The Idempotency-Key (a UUID); a new one when None, reused by every retry.
        """
        return self.request(
            "POST",
            "/vendor/api/returns/" + _segment(return_id) + "/diagnose",
            json=body,
            idempotency_key=idempotency_key,
        )

    def send_back_vendor_return(
        self,
        return_id: int,
        body: RepairSendBack,
        *,
        idempotency_key: Optional[str] = None,
    ) -> ReturnStepResult:
        """Send a repair's unit back.

        ``POST /vendor/api/returns/{returnId}/send-back`` (operationId
        ``postVendorReturnsReturnIdSendBack``, scope ``fulfilment:write``).

        With tracking: repaired, or unrepaired when the buyer declined. Repeating a step already in place
        answers as done, with eventId null.

        Args:
            return_id: the ``returnId`` path parameter.
            body: The JSON request body.
            idempotency_key: The Idempotency-Key (a UUID); a new one when None, reused by every retry.
        """
        return self.request(
            "POST",
            "/vendor/api/returns/" + _segment(return_id) + "/send-back",
            json=body,
            idempotency_key=idempotency_key,
        )

    def list_vendor_recalls(self, *, limit: Optional[int] = None) -> ListVendorRecallsResponse:
        """The recalls touching the vendor's products.

        ``GET /vendor/api/recalls`` (operationId ``getVendorRecalls``, scope ``fulfilment:read``).

        The vendor's own field safety notices, and every recall touching units the vendor delivered, with
        how many of those units it affects (or leaves to review) and at how many hospitals: counts only,
        never a hospital's name. Newest first.

        Args:
            limit: the ``limit`` query parameter.
        """
        return self.request("GET", "/vendor/api/recalls", params={"limit": limit})

    list_vendor_recalls.paging = {"style": "single", "items": "recalls"}  # type: ignore[attr-defined]

    def create_vendor_recall(self, body: FieldSafetyNotice, *, idempotency_key: Optional[str] = None) -> VendorRecall:
        """Publish a field safety notice.

        ``POST /vendor/api/recalls`` (operationId ``postVendorRecalls``, scope ``fulfilment:write``).

        The vendor's own recall of its products: the device identifiers, part numbers, lots, serials and
        serial ranges it covers. Name at least one device identifier or part number (400 otherwise:
        deviceIds). Every hospital's store matches it against the units it received from anyone, at once; a
        hospital sees it with its units. A second POST with the same noticeNumber revises it (status
        `terminated` closes it).

        Args:
            body: The JSON request body.
            idempotency_key: The Idempotency-Key (a UUID); a new one when None, reused by every retry.
        """
        return self.request("POST", "/vendor/api/recalls", json=body, idempotency_key=idempotency_key)

    def list_vendor_request_logs(
        self,
        *,
        q: Optional[str] = None,
        limit: Optional[int] = None,
        offset: Optional[int] = None,
        sort_dir: Optional[Literal["Asc", "Desc"]] = None,
        sort_by: Optional[
            Literal[
                "id",
                "at",
                "createdAt",
                "clientId",
                "method",
                "path",
                "status",
                "latencyMs",
                "errorType",
                "apiVersion",
            ]
        ] = None,
    ) -> ListVendorRequestLogsResponse:
        """Search the vendor's request log.

        ``GET /vendor/api/request-logs`` (operationId ``getVendorRequestLogs``).

        What Medparts received and answered, with the q language: method, path, status, latency, correlation
        id, idempotency key, an error's problem document and, in test mode only, both bodies of the reader's
        own client's requests (secrets and card-like numbers redacted). Kept 30 days in test mode and 7 days
        live, at most 100,000 requests. Reads of the log are not logged. Any valid token of the owner reads
        it; no scope is needed. The vendor's clients' requests to the vendor API (vendors have no test mode:
        no bodies).

        Args:
            q: Query in the q language: `<clause> [AND <clause>]*`, clause `[-]<field><op><value>`. See
                docs/api.md.
            limit: the ``limit`` query parameter.
            offset: the ``offset`` query parameter.
            sort_dir: the ``sortDir`` query parameter.
            sort_by: A sortable field of the resource, exactly as listed

        Every item of every page: ``client.paginate(client.list_vendor_request_logs, ...)``.
        """
        return self.request(
            "GET",
            "/vendor/api/request-logs",
            params={"q": q, "limit": limit, "offset": offset, "sortDir": sort_dir, "sortBy": sort_by},
        )

    list_vendor_request_logs.paging = {  # type: ignore[attr-defined]
        "style": "offset",
        "location": "query",
        "items": "requests",
    }

    def list_vendor_offers(
        self,
        *,
        q: Optional[str] = None,
        limit: Optional[int] = None,
        offset: Optional[int] = None,
        sort_dir: Optional[Literal["Asc", "Desc"]] = None,
        sort_by: Optional[
            Literal[
                "sku",
                "productId",
                "condition",
                "purchaseChoice",
                "price",
                "leadTimeDays",
                "quantityAvailable",
                "withdrawnAt",
                "effectiveTo",
                "updatedAt",
            ]
        ] = None,
    ) -> ListVendorOffersResponse:
        """Search the vendor's offers.

        ``GET /vendor/api/offers`` (operationId ``getVendorOffers``, scope ``offers:read``).

        One per SKU, searched with the q language. The calling vendor's own current offers, withdrawn ones
        included (status), filtered, sorted and paged with a q query.

        Args:
            q: Query in the q language: `<clause> [AND <clause>]*`, clause `[-]<field><op><value>`. See
                docs/api.md.
            limit: the ``limit`` query parameter.
            offset: the ``offset`` query parameter.
            sort_dir: the ``sortDir`` query parameter.
            sort_by: A sortable field of the resource, exactly as listed

        Every item of every page: ``client.paginate(client.list_vendor_offers, ...)``.
        """
        return self.request(
            "GET",
            "/vendor/api/offers",
            params={"q": q, "limit": limit, "offset": offset, "sortDir": sort_dir, "sortBy": sort_by},
        )

    list_vendor_offers.paging = {  # type: ignore[attr-defined]
        "style": "offset",
        "location": "query",
        "items": "offers",
    }

    def get_vendor_offer(self, sku: str) -> Offer:
        """One of the vendor's offers.

        ``GET /vendor/api/offers/{sku}`` (operationId ``getVendorOffersSku``, scope ``offers:read``).

        404 for a SKU the vendor has no offer of (another vendor's SKUs are not visible).

        Args:
            sku: The vendor's own number for the offer (its key)
        """
        return self.request("GET", "/vendor/api/offers/" + _segment(sku))

    def put_vendor_offer(self, sku: str, body: OfferInput, *, idempotency_key: Optional[str] = None) -> Offer:
        """Publish or change an offer.

        ``PUT /vendor/api/offers/{sku}`` (operationId ``putVendorOffersSku``, scope ``offers:write``).

        Idempotent: the same body again changes nothing. Creates the SKU's offer (201) or replaces it (200).
        New quotes use it at once; quotes issued before keep their terms for their 30 days. A withdrawn SKU
        published again is active again.

        Args:
            sku: The vendor's own number for the offer (its key)
            body: The JSON request body.
            idempotency_key: The Idempotency-Key (a UUID); a new one when None, reused by every retry.
        """
        return self.request("PUT", "/vendor/api/offers/" + _segment(sku), json=body, idempotency_key=idempotency_key)

    def delete_vendor_offer(self, sku: str, *, idempotency_key: Optional[str] = None) -> None:
        """Withdraw an offer.

        ``DELETE /vendor/api/offers/{sku}`` (operationId ``deleteVendorOffersSku``, scope ``offers:write``).

        No new quotes; issued quotes stay good for their 30 days. Withdrawing a withdrawn offer answers 204
        too; 404 for a SKU the vendor has no offer of.

        Args:
            sku: The vendor's own number for the offer (its key)
            idempotency_key: The Idempotency-Key (a UUID); a new one when None, reused by every retry.
        """
        return self.request("DELETE", "/vendor/api/offers/" + _segment(sku), idempotency_key=idempotency_key)

    def batch_vendor_offers(
        self,
        body: BatchVendorOffersBody,
        *,
        idempotency_key: Optional[str] = None,
    ) -> BatchVendorOffersResponse:
        """Publish up to 1000 offers.

        ``POST /vendor/api/offers/batch`` (operationId ``postVendorOffersBatch``, scope ``offers:write``).

        One result per row. Per row, not atomic: each row is checked on its own (its fields, its product, a
        SKU given twice: the first row wins, a later one is rejected) and the valid rows are written
        together in one transaction. The answer is 200 with a result per row in the order sent, whatever was
        rejected. A body that is not `{ offers: [...] }` with 1 to 1,000 objects is a 400.

        Args:
            body: The JSON request body.
            idempotency_key: The Idempotency-Key (a UUID); a new one when None, reused by every retry.
        """
        return self.request("POST", "/vendor/api/offers/batch", json=body, idempotency_key=idempotency_key)

    def list_vendor_offer_imports(self, *, limit: Optional[int] = None) -> ListVendorOfferImportsResponse:
        """Import jobs, newest first.

        ``GET /vendor/api/offer-imports`` (operationId ``getVendorOfferImports``, scope ``offers:write``).

        The caller's jobs with their state and counts (files left out: GET the job for them).

        Args:
            limit: the ``limit`` query parameter.
        """
        return self.request("GET", "/vendor/api/offer-imports", params={"limit": limit})

    list_vendor_offer_imports.paging = {"style": "single", "items": "items"}  # type: ignore[attr-defined]

    def create_vendor_offer_import(
        self,
        body: CreateOfferImportRequest,
        *,
        idempotency_key: Optional[str] = None,
    ) -> OfferImport:
        """Create an import job.

        ``POST /vendor/api/offer-imports`` (operationId ``postVendorOfferImports``, scope ``offers:write``).

        Then upload its file(s) and start it. Fixes the job's format, mode and error policy; nothing is read
        until POST .../start. Answers the job (awaiting_upload) with the links to upload to and start.

        Args:
            body: The JSON request body.
            idempotency_key: The Idempotency-Key (a UUID); a new one when None, reused by every retry.
        """
        return self.request("POST", "/vendor/api/offer-imports", json=body, idempotency_key=idempotency_key)

    def get_vendor_offer_import(self, id: str) -> OfferImport:
        """Get an import job.

        ``GET /vendor/api/offer-imports/{id}`` (operationId ``getVendorOfferImportsId``, scope
        ``offers:write``).

        Its state, counts and progress (rows/s, time left). Poll it while the job runs: phase, fraction
        done, rows per second and an estimate of the time left; counts are final once validation has ended.
        A job left idle by a restart is nudged when read.

        Args:
            id: the ``id`` path parameter.
        """
        return self.request("GET", "/vendor/api/offer-imports/" + _segment(id))

    def get_vendor_offer_import_file(self, id: str, name: str) -> CatalogImportFile:
        """Get a file's upload.

        ``GET /vendor/api/offer-imports/{id}/files/{name}`` (operationId
        ``getVendorOfferImportsIdFilesName``, scope ``offers:write``).

        The parts received so far: to resume, send the others. After a lost connection: the part numbers and
        sizes stored so far, so a client sends only the missing ones.

        Args:
            id: the ``id`` path parameter.
            name: The file's name. ndjson and csv jobs take one file of any name; gudid jobs take
                device.txt, identifiers.txt, gmdnTerms.txt and productCodes.txt. Another is a 400
                validation problem naming `name`.
        """
        return self.request("GET", "/vendor/api/offer-imports/" + _segment(id) + "/files/" + _segment(name))

    def upload_vendor_offer_import_file(
        self,
        id: str,
        name: str,
        content: bytes,
        *,
        idempotency_key: Optional[str] = None,
    ) -> CatalogImportFile:
        """Upload a file in one request.

        ``PUT /vendor/api/offer-imports/{id}/files/{name}`` (operationId
        ``putVendorOfferImportsIdFilesName``, scope ``offers:write``).

        At most 99614720 bytes; gzip accepted. Sends the whole file (up to the limit) with its
        Content-Length; sending it again replaces it. An empty body is a 400 naming `body`; larger files go
        in multipart parts (POST .../uploads).

        Args:
            id: the ``id`` path parameter.
            name: The file's name. ndjson and csv jobs take one file of any name; gudid jobs take
                device.txt, identifiers.txt, gmdnTerms.txt and productCodes.txt. Another is a 400
                validation problem naming `name`.
            content: The raw request body, sent as ``application/octet-stream``.
            idempotency_key: The Idempotency-Key (a UUID); a new one when None, reused by every retry.
        """
        return self.request(
            "PUT",
            "/vendor/api/offer-imports/" + _segment(id) + "/files/" + _segment(name),
            content=content,
            content_type="application/octet-stream",
            idempotency_key=idempotency_key,
        )

    def create_vendor_offer_import_file_upload(
        self,
        id: str,
        name: str,
        *,
        idempotency_key: Optional[str] = None,
    ) -> CatalogImportFile:
        """Start or resume a multipart upload.

        ``POST /vendor/api/offer-imports/{id}/files/{name}/uploads`` (operationId
        ``postVendorOfferImportsIdFilesNameUploads``, scope ``offers:write``).

        Of a large file, in parts of 16777216 bytes. For files over the single-request limit: then PUT each
        part, and POST .../complete. Asking again for a file under way answers the same upload, to resume
        it.

        Args:
            id: the ``id`` path parameter.
            name: The file's name. ndjson and csv jobs take one file of any name; gudid jobs take
                device.txt, identifiers.txt, gmdnTerms.txt and productCodes.txt. Another is a 400
                validation problem naming `name`.
            idempotency_key: The Idempotency-Key (a UUID); a new one when None, reused by every retry.
        """
        return self.request(
            "POST",
            "/vendor/api/offer-imports/" + _segment(id) + "/files/" + _segment(name) + "/uploads",
            idempotency_key=idempotency_key,
        )

    def upload_vendor_offer_import_file_part(
        self,
        id: str,
        name: str,
        part_number: int,
        content: bytes,
        *,
        idempotency_key: Optional[str] = None,
    ) -> UploadVendorOfferImportFilePartResponse:
        """Upload one part.

        ``PUT /vendor/api/offer-imports/{id}/files/{name}/parts/{partNumber}`` (operationId
        ``putVendorOfferImportsIdFilesNamePartsPartNumber``, scope ``offers:write``).

        Every part but the last is exactly 16777216 bytes; sending a part again replaces it. Parts may come
        in any order and in parallel; each needs its Content-Length. A part that failed is simply sent
        again.

        Args:
            id: the ``id`` path parameter.
            name: The file's name. ndjson and csv jobs take one file of any name; gudid jobs take
                device.txt, identifiers.txt, gmdnTerms.txt and productCodes.txt. Another is a 400
                validation problem naming `name`.
            part_number: the ``partNumber`` path parameter.
            content: The raw request body, sent as ``application/octet-stream``.
            idempotency_key: The Idempotency-Key (a UUID); a new one when None, reused by every retry.
        """
        return self.request(
            "PUT",
            "/vendor/api/offer-imports/" + _segment(id) + "/files/" + _segment(name) + "/parts/" + _segment(part_number),
            content=content,
            content_type="application/octet-stream",
            idempotency_key=idempotency_key,
        )

    def complete_vendor_offer_import_file(
        self,
        id: str,
        name: str,
        *,
        idempotency_key: Optional[str] = None,
    ) -> CatalogImportFile:
        """Complete a multipart upload.

        ``POST /vendor/api/offer-imports/{id}/files/{name}/complete`` (operationId
        ``postVendorOfferImportsIdFilesNameComplete``, scope ``offers:write``).

        Joins parts 1 to n in order into the file; a missing part, or one of the wrong size, is a 409 naming
        it.

        Args:
            id: the ``id`` path parameter.
            name: The file's name. ndjson and csv jobs take one file of any name; gudid jobs take
                device.txt, identifiers.txt, gmdnTerms.txt and productCodes.txt. Another is a 400
                validation problem naming `name`.
            idempotency_key: The Idempotency-Key (a UUID); a new one when None, reused by every retry.
        """
        return self.request(
            "POST",
            "/vendor/api/offer-imports/" + _segment(id) + "/files/" + _segment(name) + "/complete",
            idempotency_key=idempotency_key,
        )

    def start_vendor_offer_import(self, id: str, *, idempotency_key: Optional[str] = None) -> OfferImport:
        """Start the job.

        ``POST /vendor/api/offer-imports/{id}/start`` (operationId ``postVendorOfferImportsIdStart``, scope
        ``offers:write``).

        Once its files are uploaded; asking again resumes a started job left idle and answers it as it is.
        Validation then runs in the background (a Workflow): follow it with GET on the job. A vendor's price
        files run one at a time: another under way is a 409.

        Args:
            id: the ``id`` path parameter.
            idempotency_key: The Idempotency-Key (a UUID); a new one when None, reused by every retry.
        """
        return self.request(
            "POST",
            "/vendor/api/offer-imports/" + _segment(id) + "/start",
            idempotency_key=idempotency_key,
        )

    def cancel_vendor_offer_import(self, id: str, *, idempotency_key: Optional[str] = None) -> OfferImport:
        """Cancel a job.

        ``POST /vendor/api/offer-imports/{id}/cancel`` (operationId ``postVendorOfferImportsIdCancel``,
        scope ``offers:write``).

        A job awaiting upload or validating; once it applies, it runs to its end (nothing is half-applied).
        A job awaiting upload is cancelled at once, a validating one at its next window; either way nothing
        is written to the catalog.

        Args:
            id: the ``id`` path parameter.
            idempotency_key: The Idempotency-Key (a UUID); a new one when None, reused by every retry.
        """
        return self.request(
            "POST",
            "/vendor/api/offer-imports/" + _segment(id) + "/cancel",
            idempotency_key=idempotency_key,
        )

    def list_vendor_offer_import_errors(
        self,
        id: str,
        *,
        limit: Optional[int] = None,
        cursor: Optional[str] = None,
    ) -> ListVendorOfferImportErrorsResponse:
        """The rejected rows, a page at a time, by file and line.

        ``GET /vendor/api/offer-imports/{id}/errors`` (operationId ``getVendorOfferImportsIdErrors``, scope
        ``offers:write``).

        Each rejected row's file, line, product key, field, code and message; page with nextCursor. The
        whole list at once: GET .../errors.ndjson.

        Args:
            id: the ``id`` path parameter.
            limit: the ``limit`` query parameter.
            cursor: nextCursor of the previous page; any other value is a 400

        Every item of every page: ``client.paginate(client.list_vendor_offer_import_errors, ...)``.
        """
        return self.request(
            "GET",
            "/vendor/api/offer-imports/" + _segment(id) + "/errors",
            params={"limit": limit, "cursor": cursor},
        )

    list_vendor_offer_import_errors.paging = {  # type: ignore[attr-defined]
        "style": "cursor",
        "param": "cursor",
        "next": "nextCursor",
        "items": "items",
    }

    def get_vendor_offer_import_errors_ndjson(self, id: str) -> str:
        """All rejected rows, one JSON object per line.

        ``GET /vendor/api/offer-imports/{id}/errors.ndjson`` (operationId
        ``getVendorOfferImportsIdErrorsNdjson``, scope ``offers:write``).

        The same rows as GET .../errors, streamed as one download (Content-Disposition: attachment), for
        large imports.

        Args:
            id: the ``id`` path parameter.
        """
        return self.request("GET", "/vendor/api/offer-imports/" + _segment(id) + "/errors.ndjson")

    def list_vendor_agreements(
        self,
        *,
        limit: Optional[int] = None,
        offset: Optional[int] = None,
    ) -> ListVendorAgreementsResponse:
        """The vendor's price agreements, oldest first.

        ``GET /vendor/api/agreements`` (operationId ``getVendorAgreements``, scope ``offers:read``).

        The calling vendor's own agreements with their status (scheduled, active, expired, ended) and price
        lines, paged.

        Args:
            limit: the ``limit`` query parameter.
            offset: the ``offset`` query parameter.

        Every item of every page: ``client.paginate(client.list_vendor_agreements, ...)``.
        """
        return self.request("GET", "/vendor/api/agreements", params={"limit": limit, "offset": offset})

    list_vendor_agreements.paging = {  # type: ignore[attr-defined]
        "style": "offset",
        "location": "query",
        "items": "agreements",
    }

    def create_vendor_agreement(self, body: AgreementInput, *, idempotency_key: Optional[str] = None) -> Agreement:
        """Make a price agreement.

        ``POST /vendor/api/agreements`` (operationId ``postVendorAgreements``, scope ``offers:write``).

        Contract prices for a tenant, some of its facilities, or a tier. Quotes issued while it is in effect
        get its price for the offers it names (a SKU, or every offer of a product), over the list price; of
        several agreements that apply, the lowest price wins. One agreement per scope at a time: an
        overlapping period for the same scope is a 409.

        Args:
            body: The JSON request body.
            idempotency_key: The Idempotency-Key (a UUID); a new one when None, reused by every retry.
        """
        return self.request("POST", "/vendor/api/agreements", json=body, idempotency_key=idempotency_key)

    def get_vendor_agreement(self, agreement_id: int) -> Agreement:
        """One of the vendor's price agreements.

        ``GET /vendor/api/agreements/{agreementId}`` (operationId ``getVendorAgreementsAgreementId``, scope
        ``offers:read``).

        404 for an id that is unknown or another vendor's (indistinguishable).

        Args:
            agreement_id: the ``agreementId`` path parameter.
        """
        return self.request("GET", "/vendor/api/agreements/" + _segment(agreement_id))

    def update_vendor_agreement(
        self,
        agreement_id: int,
        body: AgreementChange,
        *,
        idempotency_key: Optional[str] = None,
    ) -> Agreement:
        """Set or clear when an agreement stops (effectiveTo).

        ``PATCH /vendor/api/agreements/{agreementId}`` (operationId ``patchVendorAgreementsAgreementId``,
        scope ``offers:write``).

        Quotes issued before keep their price. A new period that overlaps another agreement of the same
        scope is a 409.

        Args:
            agreement_id: the ``agreementId`` path parameter.
            body: The JSON request body.
            idempotency_key: The Idempotency-Key (a UUID); a new one when None, reused by every retry.
        """
        return self.request(
            "PATCH",
            "/vendor/api/agreements/" + _segment(agreement_id),
            json=body,
            idempotency_key=idempotency_key,
        )

    def delete_vendor_agreement(self, agreement_id: int, *, idempotency_key: Optional[str] = None) -> None:
        """End a price agreement now.

        ``DELETE /vendor/api/agreements/{agreementId}`` (operationId ``deleteVendorAgreementsAgreementId``,
        scope ``offers:write``).

        New quotes no longer get its prices; issued ones keep them. Ending an ended agreement answers 204
        too; 404 for an id that is unknown or another vendor's.

        Args:
            agreement_id: the ``agreementId`` path parameter.
            idempotency_key: The Idempotency-Key (a UUID); a new one when None, reused by every retry.
        """
        return self.request(
            "DELETE",
            "/vendor/api/agreements/" + _segment(agreement_id),
            idempotency_key=idempotency_key,
        )

    def post_vendor_edi_partner_inbound(
        self,
        partner_id: int,
        content: bytes,
        *,
        idempotency_key: Optional[str] = None,
    ) -> PostVendorEdiPartnerInboundResponse:
        """Post X12 interchanges from the partner.

        ``POST /vendor/api/edi/partners/{partnerId}/inbound`` (operationId
        ``postVendorEdiPartnersPartnerIdInbound``, scope ``fulfilment:write``).

        The body is the X12 file (one or more interchanges, at most 16 MiB). Each is recorded by its sender,
        ISA13 and date, answered with a TA1 and 997/999 (in the answer and in the outbox) and applied as the
        partner's client; the same interchange again is a duplicate.

        Args:
            partner_id: the ``partnerId`` path parameter.
            content: The raw request body, sent as ``application/edi-x12``.
            idempotency_key: The Idempotency-Key (a UUID); a new one when None, reused by every retry.
        """
        return self.request(
            "POST",
            "/vendor/api/edi/partners/" + _segment(partner_id) + "/inbound",
            content=content,
            content_type="application/edi-x12",
            idempotency_key=idempotency_key,
        )

    def list_vendor_edi_partner_outbound(
        self,
        partner_id: int,
        *,
        limit: Optional[int] = None,
        cursor: Optional[str] = None,
    ) -> ListVendorEdiPartnerOutboundResponse:
        """The partner's documents waiting to be taken.

        ``GET /vendor/api/edi/partners/{partnerId}/outbound`` (operationId
        ``getVendorEdiPartnersPartnerIdOutbound``, scope ``fulfilment:read``).

        Oldest control number first; `cursor` from the previous page. A document stays until it is taken
        (DELETE).

        Args:
            partner_id: the ``partnerId`` path parameter.
            limit: the ``limit`` query parameter.
            cursor: the ``cursor`` query parameter.

        Every item of every page: ``client.paginate(client.list_vendor_edi_partner_outbound, ...)``.
        """
        return self.request(
            "GET",
            "/vendor/api/edi/partners/" + _segment(partner_id) + "/outbound",
            params={"limit": limit, "cursor": cursor},
        )

    list_vendor_edi_partner_outbound.paging = {  # type: ignore[attr-defined]
        "style": "cursor",
        "param": "cursor",
        "next": "cursor",
        "items": "items",
    }

    def get_vendor_edi_partner_outbound(self, partner_id: int, control_number: int) -> str:
        """One document, as X12.

        ``GET /vendor/api/edi/partners/{partnerId}/outbound/{controlNumber}`` (operationId
        ``getVendorEdiPartnersPartnerIdOutboundControlNumber``, scope ``fulfilment:read``).

        Waiting or taken (a taken document stays readable for 30 days).

        Args:
            partner_id: the ``partnerId`` path parameter.
            control_number: the ``controlNumber`` path parameter.
        """
        return self.request(
            "GET",
            "/vendor/api/edi/partners/" + _segment(partner_id) + "/outbound/" + _segment(control_number),
        )

    def delete_vendor_edi_partner_outbound(
        self,
        partner_id: int,
        control_number: int,
        *,
        idempotency_key: Optional[str] = None,
    ) -> None:
        """Acknowledge that a document was taken.

        ``DELETE /vendor/api/edi/partners/{partnerId}/outbound/{controlNumber}`` (operationId
        ``deleteVendorEdiPartnersPartnerIdOutboundControlNumber``, scope ``fulfilment:write``).

        It leaves the waiting list. Again: 204, nothing changes.

        Args:
            partner_id: the ``partnerId`` path parameter.
            control_number: the ``controlNumber`` path parameter.
            idempotency_key: The Idempotency-Key (a UUID); a new one when None, reused by every retry.
        """
        return self.request(
            "DELETE",
            "/vendor/api/edi/partners/" + _segment(partner_id) + "/outbound/" + _segment(control_number),
            idempotency_key=idempotency_key,
        )


OPERATIONS: Dict[str, Tuple[str, str, str]] = {
    # operationId: (HTTP method, path, method of Operations)
    "getUsersLookup": ("GET", "/customer/api/users/lookup", "lookup_users"),
    "getUsersSearch": ("GET", "/customer/api/users/search", "get_users_search"),
    "postUsersSearch": ("POST", "/customer/api/users/search", "post_users_search"),
    "postCatalogSearch": ("POST", "/customer/api/catalog/search", "search_catalog"),
    "postCatalogDetail": ("POST", "/customer/api/catalog/detail", "get_catalog_detail"),
    "postCatalogResolve": ("POST", "/customer/api/catalog/resolve", "resolve_catalog"),
    "postOrders": ("POST", "/customer/api/orders", "create_order"),
    "getOrdersSearch": ("GET", "/customer/api/orders/search", "search_orders"),
    "getOrdersOrderNumber": ("GET", "/customer/api/orders/{orderNumber}", "get_order"),
    "postOrdersOrderNumberCancel": ("POST", "/customer/api/orders/{orderNumber}/cancel", "cancel_order"),
    "postOrdersOrderNumberLinesLineIdChangeDecision": (
        "POST",
        "/customer/api/orders/{orderNumber}/lines/{lineId}/change-decision",
        "decide_order_line_change",
    ),
    "getInvoices": ("GET", "/customer/api/invoices", "list_invoices"),
    "getInvoicesInvoiceId": ("GET", "/customer/api/invoices/{invoiceId}", "get_invoice"),
    "postInvoicesInvoiceIdAccept": ("POST", "/customer/api/invoices/{invoiceId}/accept", "accept_invoice"),
    "postInvoicesInvoiceIdDispute": ("POST", "/customer/api/invoices/{invoiceId}/dispute", "dispute_invoice"),
    "getPurchasingSettings": ("GET", "/customer/api/purchasing-settings", "get_purchasing_settings"),
    "putPurchasingSettings": ("PUT", "/customer/api/purchasing-settings", "put_purchasing_settings"),
    "postOrdersOrderNumberLinesLineIdReturns": (
        "POST",
        "/customer/api/orders/{orderNumber}/lines/{lineId}/returns",
        "create_order_line_return",
    ),
    "getReturns": ("GET", "/customer/api/returns", "list_returns"),
    "getReturnsReturnId": ("GET", "/customer/api/returns/{returnId}", "get_return"),
    "postReturnsReturnIdShip": ("POST", "/customer/api/returns/{returnId}/ship", "ship_return"),
    "postReturnsReturnIdRepairDecision": (
        "POST",
        "/customer/api/returns/{returnId}/repair-decision",
        "decide_return_repair",
    ),
    "getRecalls": ("GET", "/customer/api/recalls", "list_recalls"),
    "getRecallsRecallId": ("GET", "/customer/api/recalls/{recallId}", "get_recall"),
    "postRecallsRecallIdAcknowledge": ("POST", "/customer/api/recalls/{recallId}/acknowledge", "acknowledge_recall"),
    "postRecallsRecallIdUnits": ("POST", "/customer/api/recalls/{recallId}/units", "record_recall_units"),
    "postRecallsRecallIdReturns": ("POST", "/customer/api/recalls/{recallId}/returns", "create_recall_return"),
    "getManufacturersSearch": ("GET", "/customer/api/manufacturers/search", "search_manufacturers"),
    "getEvents": ("GET", "/customer/api/events", "list_events"),
    "getEventsEventId": ("GET", "/customer/api/events/{eventId}", "get_event"),
    "getWebhookEndpoints": ("GET", "/customer/api/webhook-endpoints", "list_webhook_endpoints"),
    "postWebhookEndpoints": ("POST", "/customer/api/webhook-endpoints", "create_webhook_endpoint"),
    "getWebhookEndpointsId": ("GET", "/customer/api/webhook-endpoints/{id}", "get_webhook_endpoint"),
    "deleteWebhookEndpointsId": ("DELETE", "/customer/api/webhook-endpoints/{id}", "delete_webhook_endpoint"),
    "postWebhookEndpointsIdTest": ("POST", "/customer/api/webhook-endpoints/{id}/test", "test_webhook_endpoint"),
    "getWebhookEndpointsIdDeliveries": (
        "GET",
        "/customer/api/webhook-endpoints/{id}/deliveries",
        "list_webhook_endpoint_deliveries",
    ),
    "getRequestLogs": ("GET", "/customer/api/request-logs", "list_request_logs"),
    "postTestHelpersOrdersOrderNumberSimulate": (
        "POST",
        "/customer/api/test-helpers/orders/{orderNumber}/simulate",
        "simulate_test_helpers_order",
    ),
    "getVendorOrderLines": ("GET", "/vendor/api/order-lines", "list_vendor_order_lines"),
    "getVendorOrderLinesLineId": ("GET", "/vendor/api/order-lines/{lineId}", "get_vendor_order_line"),
    "postVendorOrderLinesLineIdAcknowledge": (
        "POST",
        "/vendor/api/order-lines/{lineId}/acknowledge",
        "acknowledge_vendor_order_line",
    ),
    "postVendorOrderLinesLineIdBackorder": (
        "POST",
        "/vendor/api/order-lines/{lineId}/backorder",
        "backorder_vendor_order_line",
    ),
    "postVendorOrderLinesLineIdShip": ("POST", "/vendor/api/order-lines/{lineId}/ship", "ship_vendor_order_line"),
    "postVendorOrderLinesLineIdDeliver": (
        "POST",
        "/vendor/api/order-lines/{lineId}/deliver",
        "deliver_vendor_order_line",
    ),
    "postVendorOrderLinesLineIdReject": ("POST", "/vendor/api/order-lines/{lineId}/reject", "reject_vendor_order_line"),
    "postVendorShipments": ("POST", "/vendor/api/shipments", "create_vendor_shipment"),
    "postVendorOrderConfirmations": ("POST", "/vendor/api/order-confirmations", "create_vendor_order_confirmation"),
    "postVendorInvoices": ("POST", "/vendor/api/invoices", "create_vendor_invoice"),
    "postVendorCreditMemos": ("POST", "/vendor/api/credit-memos", "create_vendor_credit_memo"),
    "getVendorInvoicesInvoiceId": ("GET", "/vendor/api/invoices/{invoiceId}", "get_vendor_invoice"),
    "getVendorReturnsReturnId": ("GET", "/vendor/api/returns/{returnId}", "get_vendor_return"),
    "getVendorOrderLinesLineIdReturns": (
        "GET",
        "/vendor/api/order-lines/{lineId}/returns",
        "list_vendor_order_line_returns",
    ),
    "postVendorReturnsReturnIdAuthorize": (
        "POST",
        "/vendor/api/returns/{returnId}/authorize",
        "authorize_vendor_return",
    ),
    "postVendorReturnsReturnIdDecline": ("POST", "/vendor/api/returns/{returnId}/decline", "decline_vendor_return"),
    "postVendorReturnsReturnIdReceive": ("POST", "/vendor/api/returns/{returnId}/receive", "receive_vendor_return"),
    "postVendorReturnsReturnIdDiagnose": ("POST", "/vendor/api/returns/{returnId}/diagnose", "diagnose_vendor_return"),
    "postVendorReturnsReturnIdSendBack": (
        "POST",
        "/vendor/api/returns/{returnId}/send-back",
        "send_back_vendor_return",
    ),
    "getVendorRecalls": ("GET", "/vendor/api/recalls", "list_vendor_recalls"),
    "postVendorRecalls": ("POST", "/vendor/api/recalls", "create_vendor_recall"),
    "getVendorRequestLogs": ("GET", "/vendor/api/request-logs", "list_vendor_request_logs"),
    "getVendorOffers": ("GET", "/vendor/api/offers", "list_vendor_offers"),
    "getVendorOffersSku": ("GET", "/vendor/api/offers/{sku}", "get_vendor_offer"),
    "putVendorOffersSku": ("PUT", "/vendor/api/offers/{sku}", "put_vendor_offer"),
    "deleteVendorOffersSku": ("DELETE", "/vendor/api/offers/{sku}", "delete_vendor_offer"),
    "postVendorOffersBatch": ("POST", "/vendor/api/offers/batch", "batch_vendor_offers"),
    "getVendorOfferImports": ("GET", "/vendor/api/offer-imports", "list_vendor_offer_imports"),
    "postVendorOfferImports": ("POST", "/vendor/api/offer-imports", "create_vendor_offer_import"),
    "getVendorOfferImportsId": ("GET", "/vendor/api/offer-imports/{id}", "get_vendor_offer_import"),
    "getVendorOfferImportsIdFilesName": (
        "GET",
        "/vendor/api/offer-imports/{id}/files/{name}",
        "get_vendor_offer_import_file",
    ),
    "putVendorOfferImportsIdFilesName": (
        "PUT",
        "/vendor/api/offer-imports/{id}/files/{name}",
        "upload_vendor_offer_import_file",
    ),
    "postVendorOfferImportsIdFilesNameUploads": (
        "POST",
        "/vendor/api/offer-imports/{id}/files/{name}/uploads",
        "create_vendor_offer_import_file_upload",
    ),
    "putVendorOfferImportsIdFilesNamePartsPartNumber": (
        "PUT",
        "/vendor/api/offer-imports/{id}/files/{name}/parts/{partNumber}",
        "upload_vendor_offer_import_file_part",
    ),
    "postVendorOfferImportsIdFilesNameComplete": (
        "POST",
        "/vendor/api/offer-imports/{id}/files/{name}/complete",
        "complete_vendor_offer_import_file",
    ),
    "postVendorOfferImportsIdStart": ("POST", "/vendor/api/offer-imports/{id}/start", "start_vendor_offer_import"),
    "postVendorOfferImportsIdCancel": ("POST", "/vendor/api/offer-imports/{id}/cancel", "cancel_vendor_offer_import"),
    "getVendorOfferImportsIdErrors": (
        "GET",
        "/vendor/api/offer-imports/{id}/errors",
        "list_vendor_offer_import_errors",
    ),
    "getVendorOfferImportsIdErrorsNdjson": (
        "GET",
        "/vendor/api/offer-imports/{id}/errors.ndjson",
        "get_vendor_offer_import_errors_ndjson",
    ),
    "getVendorAgreements": ("GET", "/vendor/api/agreements", "list_vendor_agreements"),
    "postVendorAgreements": ("POST", "/vendor/api/agreements", "create_vendor_agreement"),
    "getVendorAgreementsAgreementId": ("GET", "/vendor/api/agreements/{agreementId}", "get_vendor_agreement"),
    "patchVendorAgreementsAgreementId": ("PATCH", "/vendor/api/agreements/{agreementId}", "update_vendor_agreement"),
    "deleteVendorAgreementsAgreementId": ("DELETE", "/vendor/api/agreements/{agreementId}", "delete_vendor_agreement"),
    "postVendorEdiPartnersPartnerIdInbound": (
        "POST",
        "/vendor/api/edi/partners/{partnerId}/inbound",
        "post_vendor_edi_partner_inbound",
    ),
    "getVendorEdiPartnersPartnerIdOutbound": (
        "GET",
        "/vendor/api/edi/partners/{partnerId}/outbound",
        "list_vendor_edi_partner_outbound",
    ),
    "getVendorEdiPartnersPartnerIdOutboundControlNumber": (
        "GET",
        "/vendor/api/edi/partners/{partnerId}/outbound/{controlNumber}",
        "get_vendor_edi_partner_outbound",
    ),
    "deleteVendorEdiPartnersPartnerIdOutboundControlNumber": (
        "DELETE",
        "/vendor/api/edi/partners/{partnerId}/outbound/{controlNumber}",
        "delete_vendor_edi_partner_outbound",
    ),
}

# The POSTs and PATCHes the API deduplicates by Idempotency-Key: the only ones sent again after a failure that leaves
# unknown whether the first was applied (a network error, a timeout, a 5xx). GET, PUT and DELETE are safe to resend.
KEYED_WRITES: Tuple[Tuple[str, str], ...] = (
    ("POST", "/customer/api/orders"),
    ("POST", "/customer/api/orders/{orderNumber}/cancel"),
    ("POST", "/customer/api/orders/{orderNumber}/lines/{lineId}/returns"),
    ("POST", "/customer/api/recalls/{recallId}/returns"),
)

__all__ = [
    "API_VERSION",
    "KEYED_WRITES",
    "OPERATIONS",
    "Operations",
    "AcceptInvoiceRequest",
    "AcknowledgeLineRequest",
    "Address",
    "Agreement",
    "AgreementChange",
    "AgreementInput",
    "AgreementPriceLine",
    "AgreementPricesItem",
    "AgreementScope",
    "AgreementScopeFacilities",
    "AgreementScopeTenant",
    "AgreementScopeTier",
    "BackorderLineRequest",
    "BatchVendorOffersBody",
    "BatchVendorOffersResponse",
    "BatchVendorOffersResponseCounts",
    "CancelOrderRequest",
    "CatalogDetailRequest",
    "CatalogFacetCounts",
    "CatalogFacetCountsValuesItem",
    "CatalogFacetFilter",
    "CatalogImportError",
    "CatalogImportFile",
    "CatalogImportFilePartsItem",
    "CatalogItem",
    "CatalogProduct",
    "CatalogSearchRequest",
    "CatalogSearchRequestFilters",
    "CatalogSearchRequestPagination",
    "ChangeDecisionRequest",
    "ChangeDecisionResult",
    "Company",
    "CompanyFacilitiesItem",
    "CoreChargedEvent",
    "CoreChargedEventData",
    "CoreDueSoonEvent",
    "CoreDueSoonEventData",
    "CoreOpenedEvent",
    "CoreOpenedEventData",
    "CoreOverdueEvent",
    "CoreOverdueEventData",
    "CoreReceivedEvent",
    "CoreReceivedEventData",
    "CoreRefusedEvent",
    "CoreRefusedEventData",
    "CoreShippedEvent",
    "CoreShippedEventData",
    "CreateOfferImportRequest",
    "CreateOrderRequest",
    "CreateOrderRequestPayment",
    "CreateOrderRequestQuoteItemsItem",
    "CreateOrderRequestQuoteItemsItemRequiredFieldsItem",
    "CreateWebhookEndpointRequest",
    "CreateWebhookEndpointResponse",
    "CreditMemoReceivedEvent",
    "CreditMemoReceivedEventData",
    "CreditMemoRequest",
    "CreditMemoRequestLinesItem",
    "CustomField",
    "CustomFieldInput",
    "DeliverLineRequest",
    "DeviceIdentifier",
    "DisputeInvoiceRequest",
    "DocumentSummary",
    "EdiAppliedSet",
    "EdiInterchangeResult",
    "EdiOutboundDocument",
    "Event",
    "ExchangeTerms",
    "FieldSafetyNotice",
    "FieldSafetyNoticeSerialRangesItem",
    "GetCatalogDetailResponse",
    "GetUsersSearchResponse",
    "InvoiceAcceptedEvent",
    "InvoiceAcceptedEventData",
    "InvoiceAcceptedEventDataExceptionsItem",
    "InvoiceDecisionResult",
    "InvoiceDisputedEvent",
    "InvoiceDisputedEventData",
    "InvoiceDisputedEventDataExceptionsItem",
    "InvoiceExceptionEvent",
    "InvoiceExceptionEventData",
    "InvoiceExceptionEventDataExceptionsItem",
    "InvoiceMatchedEvent",
    "InvoiceMatchedEventData",
    "InvoiceMatchedEventDataExceptionsItem",
    "InvoiceReceivedEvent",
    "InvoiceReceivedEventData",
    "InvoiceReceivedEventDataExceptionsItem",
    "InvoiceRecord",
    "InvoiceRecordLinesItem",
    "InvoiceRequest",
    "InvoiceRequestLinesItem",
    "LineFieldChange",
    "LineFieldChangeOption2",
    "LineFieldChangeOption4",
    "LineFieldChangeOption5",
    "LineFieldChangePrice",
    "LineFieldChangeProposedChange",
    "LineFieldChangeStatus",
    "LineRevision",
    "ListEventsResponse",
    "ListInvoicesResponse",
    "ListRecallsResponse",
    "ListRequestLogsResponse",
    "ListReturnsResponse",
    "ListVendorAgreementsResponse",
    "ListVendorEdiPartnerOutboundResponse",
    "ListVendorOfferImportErrorsResponse",
    "ListVendorOfferImportsResponse",
    "ListVendorOffersResponse",
    "ListVendorOrderLineReturnsResponse",
    "ListVendorOrderLinesResponse",
    "ListVendorRecallsResponse",
    "ListVendorRequestLogsResponse",
    "ListWebhookEndpointDeliveriesResponse",
    "ListWebhookEndpointDeliveriesResponseDeliveriesItem",
    "ListWebhookEndpointsResponse",
    "LoanTerms",
    "LoanerChargedEvent",
    "LoanerChargedEventData",
    "LoanerDueSoonEvent",
    "LoanerDueSoonEventData",
    "LoanerOpenedEvent",
    "LoanerOpenedEventData",
    "LoanerOverdueEvent",
    "LoanerOverdueEventData",
    "LoanerReceivedEvent",
    "LoanerReceivedEventData",
    "LoanerShippedEvent",
    "LoanerShippedEventData",
    "Manufacturer",
    "Offer",
    "OfferBatchResult",
    "OfferBatchRow",
    "OfferBatchRowFuturePrice",
    "OfferCustomFieldsItem",
    "OfferFuturePrice",
    "OfferImport",
    "OfferImportCounts",
    "OfferImportFailure",
    "OfferImportFilesItem",
    "OfferImportLinks",
    "OfferImportProgress",
    "OfferInput",
    "OfferInputFuturePrice",
    "OrderAcknowledgedEvent",
    "OrderAcknowledgedEventData",
    "OrderBackorderedEvent",
    "OrderBackorderedEventData",
    "OrderCancelled",
    "OrderCancelledEvent",
    "OrderCancelledEventData",
    "OrderCancelledNotCancelledItem",
    "OrderChangeAcceptedEvent",
    "OrderChangeAcceptedEventData",
    "OrderChangeDeclinedEvent",
    "OrderChangeDeclinedEventData",
    "OrderConfirmationRequest",
    "OrderConfirmationRequestLinesItem",
    "OrderConfirmationRequestLinesItemSubstitute",
    "OrderConfirmationResult",
    "OrderConfirmedEvent",
    "OrderConfirmedEventData",
    "OrderConfirmedEventDataLinesItem",
    "OrderConfirmedEventDataLinesItemSubstitute",
    "OrderCreated",
    "OrderCreatedEvent",
    "OrderCreatedEventData",
    "OrderCreatedEventDataLinesItem",
    "OrderDeliveredEvent",
    "OrderDeliveredEventData",
    "OrderLine",
    "OrderRejectedEvent",
    "OrderRejectedEventData",
    "OrderSearchRecord",
    "OrderShippedEvent",
    "OrderShippedEventData",
    "OrderShippedEventDataUnitsItem",
    "Pagination",
    "PendingLineChange",
    "PendingLineChangeSubstitute",
    "PostUsersSearchResponse",
    "PostVendorEdiPartnerInboundResponse",
    "PriceOption",
    "PurchaseTerms",
    "PurchaseTermsExchange",
    "PurchaseTermsLoan",
    "PurchaseTermsRepair",
    "PurchasingSettings",
    "PurchasingSettingsAutoAcceptPriceIncrease",
    "PurchasingSettingsPriceTolerance",
    "Recall",
    "RecallAffectsYouEvent",
    "RecallAffectsYouEventData",
    "RecallClosedEvent",
    "RecallClosedEventData",
    "RecallDispositions",
    "RecallDispositionsUnitsItem",
    "RecallReturnRequest",
    "RecallReturns",
    "RecallReturnsReturnsItem",
    "RecallReturnsSkippedItem",
    "RecallUnit",
    "RecallUnitState",
    "RecallUpdatedEvent",
    "RecallUpdatedEventData",
    "RecallWithUnits",
    "RejectLineRequest",
    "RepairApprovedEvent",
    "RepairApprovedEventData",
    "RepairDecision",
    "RepairDeclinedEvent",
    "RepairDeclinedEventData",
    "RepairDiagnosedEvent",
    "RepairDiagnosedEventData",
    "RepairDiagnosis",
    "RepairQuotedEvent",
    "RepairQuotedEventData",
    "RepairReceivedEvent",
    "RepairReceivedEventData",
    "RepairRequest",
    "RepairReturnedEvent",
    "RepairReturnedEventData",
    "RepairSendBack",
    "RepairTerms",
    "RepairUnitShippedEvent",
    "RepairUnitShippedEventData",
    "RequestLog",
    "ResolveCatalogResponse",
    "ResolveRequest",
    "ResolveResult",
    "ResolveResultPackaging",
    "ResolveResultProblem",
    "ResolveResultRecallsItem",
    "ReturnAuthorization",
    "ReturnAuthorizedEvent",
    "ReturnAuthorizedEventData",
    "ReturnDecline",
    "ReturnDeclinedEvent",
    "ReturnDeclinedEventData",
    "ReturnReceipt",
    "ReturnReceivedEvent",
    "ReturnReceivedEventData",
    "ReturnRequest",
    "ReturnRequestedEvent",
    "ReturnRequestedEventData",
    "ReturnShipment",
    "ReturnShippedEvent",
    "ReturnShippedEventData",
    "ReturnStepResult",
    "SearchCatalogResponse",
    "SearchCatalogResponsePagination",
    "SearchCatalogResponseSort",
    "SearchManufacturersResponse",
    "SearchOrdersResponse",
    "ShipLineRequest",
    "ShipmentRequest",
    "ShipmentRequestLinesItem",
    "ShipmentResult",
    "ShippingInfo",
    "ShippingInfoLinesItem",
    "SimulateRequest",
    "SimulateResult",
    "TestWebhookEndpointResponse",
    "UdiData",
    "UnitReturn",
    "UnitReturnInbound",
    "UnitReturnInboundUdi",
    "UnitReturnNextStepsItem",
    "UnitReturnOutbound",
    "UnitReturnOutboundUdi",
    "UploadVendorOfferImportFilePartResponse",
    "User",
    "UserSearchRecord",
    "UserSearchRecordCompaniesItem",
    "UserSearchRequest",
    "UserSearchRequestFilters",
    "UserSearchRequestPagination",
    "VendorMoveResult",
    "VendorOrderLine",
    "VendorOrderLineRequiredFieldsItem",
    "VendorOrderLineShipTo",
    "VendorRecall",
    "VendorShipment",
    "WebhookEndpoint",
    "WebhookEndpointDisabledEvent",
    "WebhookEndpointDisabledEventData",
    "WebhookEndpointTestEvent",
    "WebhookEndpointTestEventData",
    "WebhookTestRequest",
]
