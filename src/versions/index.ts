import type { VersionChange } from "../platform/versions/change";
import { deleteAnswers204 } from "./changes/2026-11-25-delete-answers-204";
import { problemTypePages } from "./changes/2026-11-29-problem-type-pages";
import { moneyAsDecimalStrings } from "./changes/2026-12-07-money-as-decimal-strings";
import { oneErrorForm } from "./changes/2026-12-07-one-error-form";
import { orderCreatedOnce } from "./changes/2026-12-07-order-created-once";

/**
 * Every breaking change since the first version, oldest first: one module each in ./changes, named after the version
 * that released it. Both planes render their answers through them (src/platform/versions/middleware.ts).
 */
export const VERSION_CHANGES: readonly VersionChange[] = [
  deleteAnswers204,
  problemTypePages,
  oneErrorForm,
  moneyAsDecimalStrings,
  orderCreatedOnce,
];
