import { z } from "@hono/zod-openapi";
import { closedObject, moneyText, readableText } from "../../platform/schemas";
import { DEMO_ORDER_NUMBER } from "../orders/retrieve-routes";
import { MATCH_STATUSES } from "./match";
import { CURRENCY } from "./submit";

/** The invoice documents' schemas (docs/api.md, "Invoices"): what vendors send, what both sides read. */

/** A vendor's document number: letters, digits and . _ / - (as ERPs print them), up to 40. */
const documentNumber = (description: string) =>
  z
    .string()
    .min(1)
    .max(40)
    .regex(/^[A-Za-z0-9][A-Za-z0-9._/-]*$/, "Letters, digits and . _ / - only, starting with a letter or digit.")
    .openapi({ description, example: "INV-2026-0042" });

/** A document's date: a calendar day, at most one day ahead of UTC (time zones). */
const documentDate = (description: string) =>
  z.iso
    .date("Must be a date, YYYY-MM-DD.")
    .refine((day) => day <= new Date(Date.now() + 86_400_000).toISOString().slice(0, 10), "Must not be in the future.")
    .openapi({ description: `${description}: a date not after tomorrow (UTC)`, example: "2026-11-28" });

const currency = z.literal(CURRENCY).openapi({ description: "ISO 4217: USD, the currency of every order" });

export const SummarySchema = closedObject({
  subtotal: moneyText("The sum of the lines' amounts"),
  tax: moneyText("The sum of the lines' tax"),
  freight: moneyText("Freight and handling"),
  total: moneyText("subtotal + tax + freight"),
}).openapi("DocumentSummary");

const orderNumber = (description: string) =>
  z
    .string()
    .regex(/^[A-Za-z0-9-]{1,64}$/, "Must be an order number.")
    .openapi({ description, example: DEMO_ORDER_NUMBER });

const quantity = z.number().int().min(1).max(99_999);

export const InvoiceRequestSchema = closedObject({
  invoiceNumber: documentNumber("The vendor's invoice number: one document per number, per buyer"),
  orderNumber: orderNumber("The order (PO) it bills"),
  invoiceDate: documentDate("The date on the invoice"),
  currency,
  lines: z
    .array(
      closedObject({
        lineId: z
          .number()
          .int()
          .positive()
          .max(Number.MAX_SAFE_INTEGER)
          .optional()
          .openapi({ description: "The order line billed; absent for a charge not on the order (matched not_on_po)" }),
        partNumber: readableText(64).optional().openapi({ example: "GE100000" }),
        description: readableText(500)
          .optional()
          .openapi({ description: "Required for a line without lineId", example: "Expedited freight surcharge" }),
        quantity,
        unitPrice: moneyText("The unit price billed"),
        amount: moneyText("quantity × unitPrice, exactly"),
        tax: moneyText("The line's tax; default 0").optional(),
      }),
    )
    .min(1)
    .max(200),
  summary: SummarySchema,
})
  .superRefine((invoice, ctx) => {
    invoice.lines.forEach((line, i) => {
      if (line.lineId === undefined && line.description === undefined) {
        ctx.addIssue({ code: "custom", path: ["lines", i, "description"], message: "Required for a line without lineId." });
      }
    });
    if (!invoice.lines.some((line) => line.lineId !== undefined)) {
      ctx.addIssue({ code: "custom", path: ["lines"], message: "At least one line names a line of the order (lineId)." });
    }
  })
  .openapi("InvoiceRequest", {
    example: {
      invoiceNumber: "INV-2026-0042",
      orderNumber: "ORD-20251111-DEMO0001",
      invoiceDate: "2026-11-28",
      currency: "USD",
      lines: [{ lineId: 100001, quantity: 2, unitPrice: "120.00", amount: "240.00", tax: "19.20" }],
      summary: { subtotal: "240.00", tax: "19.20", freight: "15.00", total: "274.20" },
    },
  });

const rowId = z.number().int().positive().max(Number.MAX_SAFE_INTEGER);

export const CreditMemoRequestSchema = closedObject({
  creditMemoNumber: documentNumber("The vendor's credit memo number"),
  invoiceId: rowId.optional().openapi({
    description: "The invoice credited, by its invoiceId; or, instead, name it by orderNumber and invoiceNumber (one form only)",
  }),
  orderNumber: orderNumber("With invoiceNumber, instead of invoiceId: the order (PO) the credited invoice bills").optional(),
  invoiceNumber: documentNumber("With orderNumber, instead of invoiceId: the vendor's number of the invoice credited").optional(),
  creditDate: documentDate("The date on the credit memo"),
  currency,
  reason: readableText(500).nullish().openapi({ example: "2 units returned under RMA-20391" }),
  lines: z
    .array(
      closedObject({
        invoiceLineNumber: z
          .number()
          .int()
          .min(1)
          .max(200)
          .optional()
          .openapi({ description: "The invoice's line credited; or, instead, lineId (one of the two)" }),
        lineId: rowId.optional().openapi({
          description: "Instead of invoiceLineNumber: the order line credited, the invoice's one line that bills it (its lineId)",
        }),
        quantity: z
          .number()
          .int()
          .min(0)
          .max(99_999)
          .openapi({ description: "Units credited (returned, not received); 0 for a price-only credit" }),
        unitPrice: moneyText("The unit amount credited"),
        amount: moneyText("quantity × unitPrice (or, for quantity 0, the amount credited)"),
        tax: moneyText("The tax credited; default 0").optional(),
      }),
    )
    .min(1)
    .max(200)
    .optional()
    .openapi({ description: "Absent (with summary): the whole of what remains of the invoice is credited" }),
  summary: SummarySchema.optional(),
})
  .superRefine((memo, ctx) => {
    const byNumbers = memo.orderNumber !== undefined || memo.invoiceNumber !== undefined;
    if (memo.invoiceId !== undefined && byNumbers) {
      ctx.addIssue({
        code: "custom",
        path: ["invoiceId"],
        message: "Name the invoice by invoiceId, or by orderNumber and invoiceNumber: not both.",
      });
    } else if (memo.invoiceId === undefined && !byNumbers) {
      ctx.addIssue({ code: "custom", path: ["invoiceId"], message: "Required, or orderNumber and invoiceNumber instead." });
    } else if (byNumbers) {
      for (const field of ["orderNumber", "invoiceNumber"] as const) {
        if (memo[field] === undefined) {
          ctx.addIssue({ code: "custom", path: [field], message: "orderNumber and invoiceNumber name the invoice together." });
        }
      }
    }
    memo.lines?.forEach((line, i) => {
      if ((line.invoiceLineNumber === undefined) === (line.lineId === undefined)) {
        ctx.addIssue({
          code: "custom",
          path: ["lines", i, "invoiceLineNumber"],
          message: "Name the invoice's line by invoiceLineNumber or the order line by lineId: one of the two.",
        });
      }
    });
  })
  .openapi("CreditMemoRequest", {
    example: {
      creditMemoNumber: "CM-2026-0007",
      invoiceId: 1,
      creditDate: "2026-11-28",
      currency: "USD",
      reason: "One unit returned damaged",
      lines: [{ invoiceLineNumber: 1, quantity: 1, unitPrice: "120.00", amount: "120.00", tax: "9.60" }],
      summary: { subtotal: "120.00", tax: "9.60", freight: "0.00", total: "129.60" },
    },
  });

const money = (description: string) =>
  z.string().openapi({ description: `${description} (a decimal string, 2 places)`, example: "240.00" });

export const InvoiceRecordSchema = z
  .object({
    invoiceId: z.number().int(),
    kind: z.enum(["invoice", "credit_memo"]),
    invoiceNumber: z.string().openapi({ description: "The vendor's invoice or credit memo number" }),
    orderNumber: z.string(),
    vendorId: z.number().int(),
    invoiceDate: z.iso.date(),
    receivedAt: z.string().datetime(),
    lastUpdated: z.string().datetime(),
    currency: z.string(),
    subtotal: money("The lines' amounts"),
    tax: money("Tax"),
    freight: money("Freight"),
    total: money("Total"),
    status: z
      .string()
      .openapi({ description: "Invoices: matched, exception, accepted, disputed; credit memos: received", example: "matched" }),
    statusReason: z.string().nullable().openapi({ description: "The buyer's dispute reason, or the credit memo's reason" }),
    matchStatus: z
      .enum(["matched", "exception"])
      .nullable()
      .openapi({ description: "Invoices: whether every line matches now; null for a credit memo" }),
    credited: money("Invoices: what credit memos credit of it").nullable(),
    creditedInvoiceId: z.number().int().nullable().openapi({ description: "Credit memos: the invoice credited" }),
    creditedInvoiceNumber: z.string().nullable(),
    origin: z.enum(["core_charge", "late_fee"]).nullable().openapi({
      description:
        "Null for the vendor's own document; core_charge or late_fee for a charge Medparts wrote at the quoted terms when a core was overdue or refused, or a loaner came back late (docs/api.md, Cores and loaners)",
    }),
    lines: z.array(
      z.object({
        lineNumber: z.number().int(),
        lineId: z
          .number()
          .int()
          .nullable()
          .openapi({ description: "The order line billed (or credited); null for a charge not on the order" }),
        creditedLineNumber: z.number().int().nullable().openapi({ description: "Credit memos: the invoice line credited" }),
        partNumber: z.string().nullable(),
        description: z.string().nullable(),
        quantity: z.number().int(),
        unitPrice: money("Unit price"),
        amount: money("quantity × unitPrice"),
        tax: money("Tax"),
        matchStatus: z
          .enum(MATCH_STATUSES)
          .nullable()
          .openapi({ description: "Invoices: the line's three-way match; null for a credit memo" }),
        matchExplanation: z.string().nullable().openapi({ description: "Why: the values compared" }),
      }),
    ),
  })
  .openapi("InvoiceRecord");
