import type { Context } from "hono";
import { Hono } from "hono";
import type { AppEnv } from "../../env";
import { ediOf } from "../edi/bindings";
import { invoicePage, orderPage, returnSections } from "./document-pages";
import {
  creditMemoDraft,
  documentOf,
  invoiceDraft,
  RETURN_STEPS,
  type ReturnStep,
  returnOf,
  returnStepBody,
  returnsOfLine,
  sendDocument,
  takeReturnStep,
} from "./documents";
import { auditDeskAction, formFields, signedInForm } from "./forms";
import { linePage, notFoundPage } from "./pages";
import type { DeskSession } from "./sessions";
import { canShip, deskApi, lineOf, orderLinesOf, parcelBody, shipParcel } from "./vendor-work";

/**
 * The desk's routes for an order and its invoice, an invoice or credit memo, and a line's returns (docs/desk.md,
 * "Invoices" and "Returns"). Mounted in routes.ts under its middleware (session, origin check, CSP).
 */

const ORDER = "[A-Za-z0-9-]{1,64}";
const ID = "[0-9]{1,12}";

const DONE: Record<string, string> = {
  invoice: "the invoice is sent",
  parcel: "the parcel is shipped",
  credit: "the credit memo is sent",
  authorize: "the return is authorized",
  decline: "the return is declined",
  receive: "the unit is received",
  diagnose: "the diagnosis is sent",
  "send-back": "the unit is on its way back",
};

const doneMessage = (done: string | undefined) => (done && DONE[done] ? { text: `Done: ${DONE[done]}.`, error: false } : null);
const notDone = (detail: string | null, status: number) => ({
  text: `Not done: ${detail ?? `the vendor API answered ${status}`}`,
  error: true,
});

/** The order of the path, the vendor's lines of it and the API that read them; a 404 page when the vendor has none. */
async function orderOf(c: Context<AppEnv>, session: DeskSession) {
  const orderNumber = c.req.param("orderNumber")!;
  const api = await deskApi(ediOf(c.env), session.userId);
  const lines = await orderLinesOf(api, orderNumber);
  if (!lines || lines.length === 0) return c.html(notFoundPage(session, "order"), 404);
  return { api, orderNumber, lines };
}

export const deskDocumentRoutes = new Hono<AppEnv>()
  .get(`/orders/:orderNumber{${ORDER}}`, async (c) => {
    const session = c.get("deskSession");
    if (!session) return c.redirect("/desk/sign-in", 303);
    const order = await orderOf(c, session);
    if (order instanceof Response) return order;
    return c.html(orderPage(session, order.orderNumber, order.lines, doneMessage(c.req.query("done"))));
  })
  .post(`/orders/:orderNumber{${ORDER}}/ship`, async (c) => {
    const session = await signedInForm(c);
    if (session instanceof Response) return session;
    const order = await orderOf(c, session);
    if (order instanceof Response) return order;
    const { api, orderNumber, lines } = order;
    const body = parcelBody(lines.filter(canShip), await formFields(c));
    if (!body)
      return c.html(orderPage(session, orderNumber, lines, { text: "Not shipped: tick the lines in the parcel.", error: true }), 422);
    const shipped = await shipParcel(api, body);
    if (!shipped.ok) return c.html(orderPage(session, orderNumber, lines, notDone(shipped.detail, shipped.status)), 422);
    await auditDeskAction(c.env.DB, session, "desk_user.parcel_shipped", { orderNumber, ...body });
    return c.redirect(`/desk/orders/${orderNumber}?done=parcel`, 303);
  })
  .post(`/orders/:orderNumber{${ORDER}}/invoice`, async (c) => {
    const session = await signedInForm(c);
    if (session instanceof Response) return session;
    const order = await orderOf(c, session);
    if (order instanceof Response) return order;
    const { api, orderNumber, lines } = order;
    const draft = invoiceDraft(orderNumber, lines, await formFields(c));
    if (!draft.body)
      return c.html(orderPage(session, orderNumber, lines, { text: `Not sent: ${draft.errors.join(" ")}`, error: true }), 422);
    const sent = await sendDocument(api, "invoice", draft.body);
    if (!sent.ok || !sent.record) return c.html(orderPage(session, orderNumber, lines, notDone(sent.detail, sent.status)), 422);
    await auditDeskAction(c.env.DB, session, "desk_user.invoice_sent", { invoiceId: sent.record.invoiceId, ...draft.body });
    return c.redirect(`/desk/invoices/${sent.record.invoiceId}?done=invoice`, 303);
  })
  .get(`/invoices/:invoiceId{${ID}}`, async (c) => {
    const session = c.get("deskSession");
    if (!session) return c.redirect("/desk/sign-in", 303);
    const invoice = await documentOf(await deskApi(ediOf(c.env), session.userId), Number(c.req.param("invoiceId")));
    if (!invoice) return c.html(notFoundPage(session, "invoice"), 404);
    return c.html(invoicePage(session, invoice, doneMessage(c.req.query("done"))));
  })
  .post(`/invoices/:invoiceId{${ID}}/credit-memo`, async (c) => {
    const session = await signedInForm(c);
    if (session instanceof Response) return session;
    const api = await deskApi(ediOf(c.env), session.userId);
    const invoice = await documentOf(api, Number(c.req.param("invoiceId")));
    if (invoice?.kind !== "invoice") return c.html(notFoundPage(session, "invoice"), 404);
    const draft = creditMemoDraft(invoice, await formFields(c));
    if (!draft.body) return c.html(invoicePage(session, invoice, { text: `Not sent: ${draft.errors.join(" ")}`, error: true }), 422);
    const sent = await sendDocument(api, "credit_memo", draft.body);
    if (!sent.ok || !sent.record) return c.html(invoicePage(session, invoice, notDone(sent.detail, sent.status)), 422);
    await auditDeskAction(c.env.DB, session, "desk_user.credit_memo_sent", { invoiceId: sent.record.invoiceId, ...draft.body });
    return c.redirect(`/desk/invoices/${sent.record.invoiceId}?done=credit`, 303);
  })
  .post(`/returns/:returnId{${ID}}/:step{${RETURN_STEPS.join("|")}}`, async (c) => {
    const session = await signedInForm(c);
    if (session instanceof Response) return session;
    const returnId = Number(c.req.param("returnId"));
    const step = c.req.param("step") as ReturnStep;
    const api = await deskApi(ediOf(c.env), session.userId);
    const unit = await returnOf(api, returnId);
    if (!unit) return c.html(notFoundPage(session, "return"), 404);
    const body = returnStepBody(step, await formFields(c));
    const taken = await takeReturnStep(api, returnId, step, body);
    if (taken.ok) {
      await auditDeskAction(c.env.DB, session, `desk_user.return_${step.replace("-", "_")}`, { returnId, ...body });
      return c.redirect(`/desk/lines/${unit.lineId}?done=${step}#return-${returnId}`, 303);
    }
    const [line, returns] = await Promise.all([lineOf(api, unit.lineId), returnsOfLine(api, unit.lineId)]);
    if (!line) return c.html(notFoundPage(session), 404);
    return c.html(linePage(session, line, notDone(taken.detail, taken.status), returnSections(session, returns)), 422);
  });

export { doneMessage };
