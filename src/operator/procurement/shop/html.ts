import { escapeXml } from "../cxml";

/**
 * Server-rendered HTML of the PunchOut shop: `html` escapes every interpolated value unless it is itself `Html`, so no
 * catalog or buyer text becomes markup. Pages need no script; the only one is the transfer page's auto-submit, allowed by
 * its hash in the Content-Security-Policy.
 */

export class Html {
  constructor(readonly text: string) {}
  toString() {
    return this.text;
  }
}
type Value = Html | string | number | null | undefined | false | readonly Value[];

const render = (value: Value): string =>
  value === null || value === undefined || value === false
    ? ""
    : value instanceof Html
      ? value.text
      : Array.isArray(value)
        ? value.map(render).join("")
        : escapeXml(String(value));

export function html(strings: TemplateStringsArray, ...values: Value[]): Html {
  return new Html(strings.reduce((out, text, i) => out + text + (i < values.length ? render(values[i]!) : ""), ""));
}

export const AUTO_SUBMIT = "document.getElementById('transfer').submit();";

let autoSubmitHash: Promise<string> | undefined;
/** The CSP source of the auto-submit script: its SHA-256. */
export function autoSubmitSource(): Promise<string> {
  autoSubmitHash ??= crypto.subtle
    .digest("SHA-256", new TextEncoder().encode(AUTO_SUBMIT))
    .then((digest) => `'sha256-${btoa(String.fromCharCode(...new Uint8Array(digest)))}'`);
  return autoSubmitHash;
}

const STYLE = `
body{font:16px/1.45 system-ui,sans-serif;margin:0;color:#1b1f24;background:#fff}
header{display:flex;flex-wrap:wrap;gap:1rem;align-items:center;padding:.75rem 1rem;background:#0b3d5c;color:#fff}
header a{color:#fff}
main{padding:1rem;max-width:72rem}
form.inline{display:inline}
label{font-weight:600;margin-right:.25rem}
input,select,button{font:inherit;padding:.35rem .5rem}
button{background:#0b5c8e;color:#fff;border:0;border-radius:4px;cursor:pointer}
button:focus-visible,a:focus-visible,input:focus-visible{outline:3px solid #f5a623;outline-offset:2px}
table{border-collapse:collapse;width:100%}
th,td{border-bottom:1px solid #ccd3da;padding:.4rem;text-align:left;vertical-align:top}
.facets{display:flex;gap:2rem;flex-wrap:wrap}
.notice{padding:.5rem .75rem;border-left:4px solid #0b5c8e;background:#eef5fa}
.error{border-color:#b00020;background:#fdeeee}
.skip{position:absolute;left:-999px}.skip:focus{left:1rem;top:1rem;background:#fff;color:#000;padding:.5rem}
`;

export interface PageOptions {
  title: string;
  cartCount?: number;
  readOnly?: boolean;
  notice?: { text: string; error?: boolean } | null;
}

/** The shop's frame: skip link, the header with search, scan and cart, then the page's content in <main>. */
export function page(options: PageOptions, content: Html): string {
  const count = options.cartCount ?? 0;
  const notice = options.notice;
  return `<!doctype html>${html`<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${options.title} · Medparts PunchOut</title><style>${new Html(STYLE)}</style></head><body>
<a class="skip" href="#main">Skip to content</a>
<header>
<strong>Medparts</strong>
<form role="search" action="/punchout/shop" method="get"><label for="q">Search parts</label><input id="q" name="q" type="search" autocomplete="off"> <button type="submit">Search</button></form>
${
  options.readOnly
    ? ""
    : html`<form action="/punchout/shop/scan" method="post"><label for="scan">Scan a label</label><input id="scan" name="code" autocomplete="off" inputmode="text" aria-describedby="scan-help"> <button type="submit">Add</button><span id="scan-help" class="skip">A UDI barcode scanner types the label here and presses Enter</span></form>`
}
<a href="/punchout/shop/cart">Cart (${count} ${count === 1 ? "line" : "lines"})</a>
</header>
<main id="main">
${notice ? html`<p class="notice${notice.error ? " error" : ""}" role="status">${notice.text}</p>` : ""}
${content}
</main></body></html>`}`;
}
