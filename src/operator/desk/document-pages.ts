import { html } from "hono/html";
import { amountText } from "../../platform/money";
import { creditField, type InvoiceView, invoiceField, type ReturnView, today } from "./documents";
import { csrfField, layout, notice } from "./pages";
import type { DeskSession } from "./sessions";
import { canShip, type DeskLine, parcelField } from "./vendor-work";

/**
 * The desk's pages for an order, its invoices and credit memos, and a line's returns (docs/desk.md): server-rendered
 * forms, as the rest of the desk's pages (pages.ts).
 */

type Message = { text: string; error: boolean } | null;

const messageOf = (message: Message) => (message ? notice(message.text, message.error) : "");

/** An order's lines of the vendor, and the invoice form for what shipped (filled in: shipped units at the line's price). */
export const orderPage = (session: DeskSession, orderNumber: string, lines: DeskLine[], message: Message) => {
  const shipped = lines.filter((line) => line.shippedQuantity > 0);
  return layout(
    `Order ${orderNumber}`,
    html`${messageOf(message)}
<table><caption>Your ${lines.length} line${lines.length === 1 ? "" : "s"} of this order</caption>
<thead><tr><th scope="col">Line</th><th scope="col">Part</th><th scope="col">Qty</th><th scope="col">Shipped</th><th scope="col">Unit price</th><th scope="col">State</th></tr></thead>
<tbody>${lines.map(
      (line) =>
        html`<tr><td><a href="/desk/lines/${line.lineId}">${line.lineNumber}</a></td><td>${line.partNumber}<br><small>${line.description}</small></td><td>${line.quantity}</td><td>${line.shippedQuantity}</td><td>${amountText(line.price)}</td><td>${line.statusName}</td></tr>`,
    )}</tbody></table>
${parcelForm(session, orderNumber, lines.filter(canShip))}
<section aria-labelledby="invoice-title"><h2 id="invoice-title">Invoice what shipped</h2>
${
  shipped.length === 0
    ? html`<p>Nothing of this order has shipped yet: an invoice bills shipped units.</p>`
    : html`<form method="post" action="/desk/orders/${orderNumber}/invoice" class="document">${csrfField(session)}
<div class="fields">
<label for="invoiceNumber">Invoice number</label><input id="invoiceNumber" name="invoiceNumber" required maxlength="40" pattern="[A-Za-z0-9][A-Za-z0-9._/\\-]*" autocomplete="off">
<label for="invoiceDate">Invoice date</label><input id="invoiceDate" name="invoiceDate" type="date" value="${today()}" required>
</div>
<table><caption>Lines billed: each amount is quantity × unit price</caption>
<thead><tr><th scope="col">Bill</th><th scope="col">Line</th><th scope="col">Quantity</th><th scope="col">Unit price</th><th scope="col">Tax</th></tr></thead>
<tbody>${shipped.map(
        (line) =>
          html`<tr><td><input type="checkbox" id="${invoiceField(line.lineId, "bill")}" name="${invoiceField(line.lineId, "bill")}" checked></td>
<td><label for="${invoiceField(line.lineId, "bill")}">Line ${line.lineNumber}: ${line.partNumber}</label></td>
<td><input aria-label="Quantity of line ${line.lineNumber}" name="${invoiceField(line.lineId, "quantity")}" value="${line.shippedQuantity}" inputmode="numeric" pattern="[0-9]{1,5}" size="6"></td>
<td><input aria-label="Unit price of line ${line.lineNumber}" name="${invoiceField(line.lineId, "unitPrice")}" value="${amountText(line.price)}" inputmode="decimal" size="10"></td>
<td><input aria-label="Tax of line ${line.lineNumber}" name="${invoiceField(line.lineId, "tax")}" inputmode="decimal" placeholder="0.00" size="8"></td></tr>`,
      )}</tbody></table>
<div class="fields">
<label for="freight">Freight</label><input id="freight" name="freight" inputmode="decimal" placeholder="0.00">
</div>
<p>The buyer's three-way match (order, shipments, invoice) answers at once, line by line.</p>
<button type="submit">Send the invoice</button></form>`
}</section>
<p><a href="/desk">Back to your work</a></p>`,
    session,
  );
};

/** A parcel of several of the order's lines: each ticked line with its quantity and its units' labels scanned. */
const parcelForm = (session: DeskSession, orderNumber: string, shippable: DeskLine[]) =>
  shippable.length < 2
    ? ""
    : html`<section aria-labelledby="parcel-title"><h2 id="parcel-title">Ship a parcel of several lines</h2>
<form method="post" action="/desk/orders/${orderNumber}/ship" class="document">${csrfField(session)}
<div class="fields">
<label for="parcelTracking">Tracking number</label><input id="parcelTracking" name="trackingNumber" required maxlength="64" autocomplete="off">
<label for="parcelCarrier">Carrier</label><input id="parcelCarrier" name="carrierName" maxlength="100" placeholder="the order's" autocomplete="off">
</div>
<table><caption>Lines in the parcel: a quantity (blank: all that is left) and each unit's label scanned, one a line</caption>
<thead><tr><th scope="col">In the parcel</th><th scope="col">Line</th><th scope="col">Quantity</th><th scope="col">Scanned labels</th></tr></thead>
<tbody>${shippable.map(
        (line) =>
          html`<tr><td><input type="checkbox" id="${parcelField(line.lineId, "in")}" name="${parcelField(line.lineId, "in")}"></td>
<td><label for="${parcelField(line.lineId, "in")}">Line ${line.lineNumber}: ${line.partNumber}</label></td>
<td><input aria-label="Quantity of line ${line.lineNumber} in the parcel" name="${parcelField(line.lineId, "quantity")}" inputmode="numeric" pattern="[0-9]{1,9}" placeholder="${line.quantity - line.shippedQuantity}" size="6"></td>
<td><textarea aria-label="Scanned labels of line ${line.lineNumber}" name="${parcelField(line.lineId, "units")}" rows="2" cols="36" autocomplete="off" spellcheck="false"></textarea></td></tr>`,
      )}</tbody></table>
<button type="submit">Ship the parcel</button></form></section>`;

const MATCH_WORDS: Record<string, string> = {
  matched: "matched",
  price_variance: "price differs from the order",
  quantity_variance: "quantity differs from what shipped",
  not_on_po: "not on the order",
  contract_price_exception: "differs from the buyer's contract price",
};

/** An invoice or credit memo: its totals, the buyer's answer, each line's three-way match explained; credit memo form. */
export const invoicePage = (session: DeskSession, invoice: InvoiceView, message: Message) => {
  const isInvoice = invoice.kind === "invoice";
  const exceptions = invoice.lines.filter((line) => line.matchStatus !== null && line.matchStatus !== "matched").length;
  return layout(
    `${isInvoice ? "Invoice" : "Credit memo"} ${invoice.invoiceNumber}`,
    html`${messageOf(message)}
${
  isInvoice
    ? invoice.matchStatus === "exception"
      ? notice(
          `In exception: ${exceptions} line${exceptions === 1 ? " does" : "s do"} not match the order or what shipped. The buyer reviews it before paying; a credit memo or a corrected invoice settles it.`,
          true,
        )
      : notice("Matched: every line agrees with the order and what shipped.")
    : ""
}
<dl class="facts">
<dt>Order</dt><dd><a href="/desk/orders/${invoice.orderNumber}">${invoice.orderNumber}</a></dd>
<dt>Date</dt><dd>${invoice.invoiceDate}</dd>
<dt>Status</dt><dd>${invoice.status}${invoice.statusReason ? html` (${invoice.statusReason})` : ""}</dd>
${invoice.creditedInvoiceId ? html`<dt>Credits</dt><dd><a href="/desk/invoices/${invoice.creditedInvoiceId}">invoice ${invoice.creditedInvoiceNumber}</a></dd>` : ""}
<dt>Subtotal</dt><dd>${invoice.subtotal}</dd><dt>Tax</dt><dd>${invoice.tax}</dd><dt>Freight</dt><dd>${invoice.freight}</dd>
<dt>Total</dt><dd><strong>${invoice.total}</strong> USD</dd>
${isInvoice ? html`<dt>Credited</dt><dd>${invoice.credited ?? "0.00"}</dd>` : ""}
</dl>
<table><caption>Lines</caption>
<thead><tr><th scope="col">#</th><th scope="col">Part</th><th scope="col">Qty</th><th scope="col">Unit price</th><th scope="col">Amount</th><th scope="col">Tax</th>${isInvoice ? html`<th scope="col">Match</th>` : ""}</tr></thead>
<tbody>${invoice.lines.map(
      (line) =>
        html`<tr><td>${line.lineNumber}</td><td>${line.partNumber ?? ""}${line.description ? html`<br><small>${line.description}</small>` : ""}</td><td>${line.quantity}</td><td>${line.unitPrice}</td><td>${line.amount}</td><td>${line.tax}</td>${
          isInvoice
            ? html`<td>${MATCH_WORDS[line.matchStatus ?? ""] ?? line.matchStatus ?? ""}${line.matchExplanation ? html`<br><small>${line.matchExplanation}</small>` : ""}</td>`
            : ""
        }</tr>`,
    )}</tbody></table>
${isInvoice ? creditMemoForm(session, invoice) : ""}
<p><a href="/desk/orders/${invoice.orderNumber}">Back to the order</a></p>`,
    session,
  );
};

const creditMemoForm = (session: DeskSession, invoice: InvoiceView) =>
  html`<section aria-labelledby="credit-title"><h2 id="credit-title">Credit memo</h2>
<form method="post" action="/desk/invoices/${invoice.invoiceId}/credit-memo" class="document">${csrfField(session)}
<div class="fields">
<label for="creditMemoNumber">Credit memo number</label><input id="creditMemoNumber" name="creditMemoNumber" required maxlength="40" autocomplete="off">
<label for="creditDate">Date</label><input id="creditDate" name="creditDate" type="date" value="${today()}" required>
<label for="creditReason">Reason (shown to the buyer)</label><input id="creditReason" name="reason" maxlength="500">
</div>
<p><input type="checkbox" id="whole" name="whole"> <label for="whole">Credit everything that remains of the invoice</label></p>
<table><caption>Or units per line, at the invoice's unit price (tax: the line's share unless typed)</caption>
<thead><tr><th scope="col">Line</th><th scope="col">Units to credit</th><th scope="col">Tax</th></tr></thead>
<tbody>${invoice.lines.map(
    (line) =>
      html`<tr><td>${line.lineNumber}: ${line.partNumber ?? line.description ?? ""} (${line.quantity} at ${line.unitPrice})</td>
<td><input aria-label="Units to credit of line ${line.lineNumber}" name="${creditField(line.lineNumber, "quantity")}" inputmode="numeric" pattern="[0-9]{1,5}" placeholder="0" size="6"></td>
<td><input aria-label="Tax credited of line ${line.lineNumber}" name="${creditField(line.lineNumber, "tax")}" inputmode="decimal" size="8"></td></tr>`,
  )}</tbody></table>
<div class="fields"><label for="creditFreight">Freight credited</label><input id="creditFreight" name="freight" inputmode="decimal" placeholder="0.00"></div>
<button type="submit">Send the credit memo</button></form></section>`;

const KIND_NAMES: Record<string, string> = { core: "Core", loaner: "Loaner", repair: "Repair", return: "Return" };

/** A line's returns (cores, loaners, repairs, RMAs), each with a form for each step that is the vendor's now. */
export const returnSections = (session: DeskSession, returns: ReturnView[]) =>
  returns.length === 0
    ? ""
    : html`<section aria-labelledby="returns-title"><h2 id="returns-title">Returns</h2>
${returns.map((unit) => {
  const id = (name: string) => `r${unit.returnId}-${name}`;
  const steps = unit.nextSteps.filter((next) => next.actor === "vendor").map((next) => next.step);
  const action = (step: string) => `/desk/returns/${unit.returnId}/${step}`;
  return html`<article id="return-${unit.returnId}" aria-labelledby="${id("title")}"><h3 id="${id("title")}">${KIND_NAMES[unit.kind] ?? unit.kind} ${unit.rmaNumber ?? `#${unit.returnId}`}</h3>
<dl class="facts">
<dt>Status</dt><dd>${unit.status}${unit.open ? "" : " (closed)"}</dd>
<dt>Units</dt><dd>${unit.quantity}${unit.serialNumber ? html`, serial ${unit.serialNumber}` : ""}</dd>
${unit.reason ? html`<dt>Reason</dt><dd>${unit.reason}${unit.note ? html`: ${unit.note}` : ""}</dd>` : ""}
${unit.dueAt ? html`<dt>Due</dt><dd>${unit.dueAt}</dd>` : ""}
${unit.inbound ? html`<dt>On its way to you</dt><dd>${unit.inbound.carrierName} ${unit.inbound.trackingNumber}, sent ${unit.inbound.shippedAt.slice(0, 10)}</dd>` : ""}
${unit.outcome ? html`<dt>Outcome</dt><dd>${unit.outcome}${unit.outcomeReason ? html` (${unit.outcomeReason})` : ""}</dd>` : ""}
${unit.proposedPrice ? html`<dt>Proposed repair price</dt><dd>${unit.proposedPrice}, waiting for the buyer</dd>` : ""}
</dl>
${steps.length === 0 ? html`<p>${unit.open ? "Waiting for the buyer." : "Nothing more to do."}</p>` : ""}
${
  steps.includes("authorize")
    ? html`<form method="post" action="${action("authorize")}" class="step">${csrfField(session)}
<label for="${id("rma")}">RMA number</label><input id="${id("rma")}" name="rmaNumber" required maxlength="40" autocomplete="off">
<label for="${id("by")}">Return by</label><input id="${id("by")}" name="returnBy" type="date" required>
<label for="${id("fee")}">Restocking fee</label><input id="${id("fee")}" name="restockingFee" inputmode="decimal" placeholder="0.00">
<label for="${id("to")}">Return to</label><input id="${id("to")}" name="returnTo" maxlength="500">
<button type="submit">Authorize</button></form>`
    : ""
}
${
  steps.includes("decline")
    ? html`<form method="post" action="${action("decline")}" class="step">${csrfField(session)}
<label for="${id("decline")}">Reason</label><input id="${id("decline")}" name="reason" required maxlength="500"><button type="submit">Decline</button></form>`
    : ""
}
${
  steps.includes("receive")
    ? unit.kind === "core"
      ? html`<form method="post" action="${action("receive")}" class="step">${csrfField(session)}
<fieldset><legend>Grade the core</legend>
<input type="radio" id="${id("accepted")}" name="outcome" value="accepted" checked><label for="${id("accepted")}">Accept</label>
<input type="radio" id="${id("refused")}" name="outcome" value="refused"><label for="${id("refused")}">Refuse (the buyer is charged the core charge)</label>
</fieldset>
<label for="${id("why")}">Reason (for a refusal)</label><input id="${id("why")}" name="reason" maxlength="500">
<button type="submit">Receive the core</button></form>`
      : html`<form method="post" action="${action("receive")}" class="step">${csrfField(session)}<button type="submit">Received</button></form>`
    : ""
}
${
  steps.includes("diagnose")
    ? html`<form method="post" action="${action("diagnose")}" class="step">${csrfField(session)}
<fieldset><legend>Diagnosis</legend>
<input type="radio" id="${id("flat")}" name="withinFlatRate" value="yes" checked><label for="${id("flat")}">Within the flat rate</label>
<input type="radio" id="${id("beyond")}" name="withinFlatRate" value="no"><label for="${id("beyond")}">Beyond it, at a price the buyer decides on</label>
</fieldset>
<label for="${id("price")}">Price (beyond the flat rate)</label><input id="${id("price")}" name="price" inputmode="decimal">
<label for="${id("finding")}">Finding</label><input id="${id("finding")}" name="reason" maxlength="500">
<button type="submit">Send the diagnosis</button></form>`
    : ""
}
${
  steps.includes("send-back")
    ? html`<form method="post" action="${action("send-back")}" class="step">${csrfField(session)}
<label for="${id("carrier")}">Carrier</label><input id="${id("carrier")}" name="carrierName" required maxlength="50">
<label for="${id("tracking")}">Tracking number</label><input id="${id("tracking")}" name="trackingNumber" required maxlength="40" autocomplete="off">
<button type="submit">Send it back</button></form>`
    : ""
}
</article>`;
})}</section>`;
