import { html } from "hono/html";
import { amountText } from "../../platform/money";
import { FINAL_STATES } from "../imports/jobs";
import type { Offer } from "../offers/schemas";
import { OFFERS_PAGE_SIZE, PRICE_FILES_PATH, type PriceFileJob, type RowError } from "./offers";
import { csrfField, DESK_ASSETS, layout, notice } from "./pages";
import type { DeskSession } from "./sessions";

/** The desk's offers and price files pages (docs/desk.md, "Offers and price files"): an admin's. */

type Message = { text: string; error: boolean } | null;
const messageOf = (message: Message) => (message ? notice(message.text, message.error) : "");

export interface OffersView {
  offers: Offer[];
  total: number;
  page: number;
  q: string;
  error: string | null;
}

/** The vendor's offers, searched with the q language, 25 a page; each links to its edit page. */
export const offersListPage = (session: DeskSession, view: OffersView) => {
  const pages = Math.max(1, Math.ceil(view.total / OFFERS_PAGE_SIZE));
  const query = (page: number) => `?${new URLSearchParams({ ...(view.q ? { q: view.q } : {}), page: String(page) })}`;
  return layout(
    "Your offers",
    html`${view.error ? notice(`That search was refused: ${view.error}`, true) : ""}
<form method="get" action="/desk/offers" class="filters" role="search">
<label for="q">Search</label>
<input id="q" name="q" value="${view.q}" size="48" maxlength="500" autocomplete="off" aria-describedby="q-help">
<button type="submit">Search</button>
</form>
<p id="q-help">The API's q language, e.g. <code>withdrawnAt:null AND price&lt;100</code> or <code>condition:"New OEM"</code>.</p>
<p><a href="${PRICE_FILES_PATH}">Upload a price file</a></p>
${
  view.offers.length === 0
    ? html`<p>No offer here.</p>`
    : html`<table><caption>${view.total} offer${view.total === 1 ? "" : "s"}</caption>
<thead><tr><th scope="col">SKU</th><th scope="col">Product</th><th scope="col">Condition</th><th scope="col">Purchase</th><th scope="col">Price</th><th scope="col">Lead time</th><th scope="col">Stock</th><th scope="col">Status</th></tr></thead>
<tbody>${view.offers.map(
        (offer) =>
          html`<tr><td><a href="/desk/offers/${encodeURIComponent(offer.sku)}">${offer.sku}</a></td><td>${offer.productId}</td><td>${offer.condition}</td><td>${offer.purchaseChoice}</td><td>${amountText(offer.price)}</td><td>${offer.leadTimeDays} d</td><td>${offer.quantityAvailable ?? "not said"}</td><td>${offer.status}</td></tr>`,
      )}</tbody></table>
<nav aria-label="Pages" class="pages">${view.page > 0 ? html`<a href="/desk/offers${query(view.page - 1)}" rel="prev">Previous</a>` : ""} Page ${view.page + 1} of ${pages} ${
        view.page + 1 < pages ? html`<a href="/desk/offers${query(view.page + 1)}" rel="next">Next</a>` : ""
      }</nav>`
}`,
    session,
  );
};

/** One offer: its terms, the form for what a person changes by hand, and withdraw (or publish again). */
export const offerPage = (session: DeskSession, offer: Offer, message: Message) => {
  const sku = encodeURIComponent(offer.sku);
  return layout(
    `Offer ${offer.sku}`,
    html`${messageOf(message)}
<dl class="facts">
<dt>Product</dt><dd>${offer.productId}</dd>
<dt>Purchase</dt><dd>${offer.purchaseChoice} (${offer.purchaseType})</dd>
<dt>Unit</dt><dd>${offer.unitOfMeasure} of ${offer.packQuantity}</dd>
<dt>Status</dt><dd>${offer.status}${offer.status === "withdrawn" ? " (no new quotes)" : ""}</dd>
<dt>Last change</dt><dd>${offer.updatedAt.slice(0, 16).replace("T", " ")} UTC</dd>
</dl>
<section aria-labelledby="edit-title"><h2 id="edit-title">${offer.status === "withdrawn" ? "Publish again" : "Change"}</h2>
<form method="post" action="/desk/offers/${sku}" class="document">${csrfField(session)}
<div class="fields">
<label for="price">Price (USD)</label><input id="price" name="price" value="${amountText(offer.price)}" inputmode="decimal" required>
<label for="leadTimeDays">Lead time (days)</label><input id="leadTimeDays" name="leadTimeDays" value="${offer.leadTimeDays}" inputmode="numeric" pattern="[0-9]{1,3}" required>
<label for="quantityAvailable">Stock (units)</label><input id="quantityAvailable" name="quantityAvailable" value="${offer.quantityAvailable ?? ""}" inputmode="numeric" placeholder="not said">
<label for="condition">Condition</label><input id="condition" name="condition" value="${offer.condition}" maxlength="50" required>
<label for="warranty">Warranty</label><input id="warranty" name="warranty" value="${offer.warranty}" maxlength="100" required>
</div>
<p>New quotes use the change at once; quotes issued before keep their terms for their 30 days.</p>
<button type="submit">${offer.status === "withdrawn" ? "Publish again" : "Save"}</button></form></section>
${
  offer.status === "active"
    ? html`<section aria-labelledby="withdraw-title"><h2 id="withdraw-title">Withdraw</h2>
<form method="post" action="/desk/offers/${sku}/withdraw">${csrfField(session)}<p>No new quotes; quotes already issued stay good for their 30 days.</p> <button type="submit">Withdraw the offer</button></form></section>`
    : ""
}
<p><a href="/desk/offers">Back to your offers</a></p>`,
    session,
  );
};

const jobSummary = (job: PriceFileJob) =>
  `${job.counts.created} created, ${job.counts.updated} updated, ${job.counts.unchanged} unchanged, ${job.counts.rejected} rejected of ${job.counts.read} read`;

/** The upload form and the vendor's latest price files. */
export const priceFilesPage = (session: DeskSession, jobs: PriceFileJob[], message: Message, maxMegabytes: number) =>
  layout(
    "Price files",
    html`${messageOf(message)}
<section aria-labelledby="upload-title"><h2 id="upload-title">Upload a price file</h2>
<form method="post" action="${PRICE_FILES_PATH}" enctype="multipart/form-data" class="document">${csrfField(session)}
<div class="fields">
<label for="file">File (.csv or .ndjson, gzip too; up to ${maxMegabytes} MB)</label><input id="file" name="file" type="file" accept=".csv,.ndjson,.jsonl,.gz" required>
<label for="onError">If a row is wrong</label><select id="onError" name="onError"><option value="skipFailedRows">apply the valid rows, list the others</option><option value="rejectAll">apply nothing</option></select>
</div>
<p><input type="checkbox" id="dryRun" name="dryRun"> <label for="dryRun">Check only: count and list the rows, change no offer</label></p>
<p>Each row is an offer with its sku, as the <a href="/docs/guides/offers#price-files">price file guide</a> describes: a CSV with a header row, or one JSON object a line. Rows only add or change offers: withdraw one from its page.</p>
<button type="submit">Upload and start</button></form></section>
<section aria-labelledby="recent-title"><h2 id="recent-title">Latest price files</h2>
${
  jobs.length === 0
    ? html`<p>None yet.</p>`
    : html`<table><caption>Newest first</caption><thead><tr><th scope="col">Started</th><th scope="col">State</th><th scope="col">Rows</th></tr></thead>
<tbody>${jobs.map(
        (job) =>
          html`<tr><td><a href="${PRICE_FILES_PATH}/${job.id}">${job.createdAt.slice(0, 16).replace("T", " ")} UTC</a></td><td>${job.state}${job.dryRun ? " (check only)" : ""}</td><td>${jobSummary(job)}</td></tr>`,
      )}</tbody></table>`
}</section>
<p><a href="/desk/offers">Back to your offers</a></p>`,
    session,
  );

/**
 * A price file's job: a progress bar with rows/s and time left while it runs (the page's script asks for the job every
 * second; without JavaScript the Refresh link does), then its counts and rejected rows.
 */
export const priceFilePage = (session: DeskSession, job: PriceFileJob, errors: RowError[]) => {
  const done = FINAL_STATES.includes(job.state);
  const percent = Math.round(job.progress.fraction * 100);
  return layout(
    "Price file",
    html`<div data-job="${PRICE_FILES_PATH}/${job.id}/progress" data-done="${done ? "yes" : "no"}">
<p><label for="job-progress">${done ? "Done" : `Working: ${job.progress.phase}`}</label>
<progress id="job-progress" max="100" value="${percent}">${percent}%</progress> <span class="job-percent">${percent}%</span></p>
<p class="job-rate" role="status" aria-live="polite">${
      done
        ? `${job.state}${job.dryRun ? " (check only: nothing changed)" : ""}: ${jobSummary(job)}.`
        : `${job.progress.rowsPerSecond ?? "…"} rows/s${job.progress.secondsLeft !== null ? `, about ${job.progress.secondsLeft} s left` : ""}.`
    }</p>
${done ? "" : html`<p><a href="${PRICE_FILES_PATH}/${job.id}">Refresh</a></p>`}
</div>
${job.failure ? notice(`The job failed: ${job.failure.message}`, true) : ""}
<dl class="facts">
<dt>File</dt><dd>${job.files.map((file) => file.name).join(", ")}</dd>
<dt>Format</dt><dd>${job.format}</dd>
<dt>If a row is wrong</dt><dd>${job.onError === "rejectAll" ? "apply nothing" : "apply the valid rows"}</dd>
</dl>
${
  errors.length === 0
    ? done
      ? html`<p>No row was rejected.</p>`
      : ""
    : html`<table><caption>Rejected rows${errors.length === 100 ? " (the first 100; the vendor API lists them all)" : ""}</caption>
<thead><tr><th scope="col">Line</th><th scope="col">SKU or product</th><th scope="col">Field</th><th scope="col">Why</th></tr></thead>
<tbody>${errors.map(
        (row) =>
          html`<tr><td>${row.line}</td><td>${row.productKey ?? ""}</td><td>${row.field ?? "the row"}</td><td>${row.message}</td></tr>`,
      )}</tbody></table>`
}
<p><a href="${PRICE_FILES_PATH}">Price files</a> · <a href="/desk/offers">Your offers</a></p>
<script src="${DESK_ASSETS}/desk.js" defer></script>`,
    session,
  );
};
