import type { CustomFieldDefinition, PurchaseTerms, PurchaseType } from "../../db/schema";
import { gtin14Of } from "../../shared/catalog/gtin";
import { normalizePartNumber } from "../../shared/catalog/part-numbers";

/** Deterministic medical-parts catalog: same input size, same rows, on every machine. */

export const MANUFACTURERS = [
  ["GE Healthcare", "GE"],
  ["Philips Healthcare", "M"],
  ["Siemens Healthineers", "SH"],
  ["Medtronic", "MDT"],
  ["Baxter", "BX"],
  ["BD", "BD"],
  ["Stryker", "STR"],
  ["Hillrom", "HR"],
  ["Mindray", "MR"],
  ["Draeger", "DR"],
  ["Masimo", "MS"],
  ["Welch Allyn", "WA"],
  ["ZOLL Medical", "ZL"],
  ["Nihon Kohden", "NK"],
  ["Fujifilm", "FJ"],
  ["Olympus", "OLY"],
  ["STERIS", "STE"],
  ["Getinge", "GET"],
  ["Karl Storz", "KS"],
  ["Canon Medical", "CN"],
  ["Spacelabs Healthcare", "SL"],
  ["Smiths Medical", "SM"],
  ["ICU Medical", "ICU"],
  ["B. Braun", "BB"],
].map(([name, prefix], i) => ({ id: i + 1, name: name!, prefix: prefix! }));

const PRODUCT_TYPES: Record<string, string[]> = {
  "Patient Monitoring": [
    "SpO2 Sensor, Adult Reusable",
    "NIBP Cuff Hose",
    "Temperature Probe, Esophageal",
    "Multiparameter Module",
    "Monitor Mounting Bracket",
    "Touchscreen Display Assembly",
  ],
  "Cables & Leadwires": [
    "ECG Trunk Cable, 5-Lead",
    "ECG Leadwire Set, 3-Lead Snap",
    "SpO2 Extension Cable",
    "IBP Transducer Cable",
    "Power Cord, Hospital Grade",
  ],
  "Batteries & Power": [
    "Rechargeable Battery Pack 14.4V",
    "Lithium-Ion Battery 10.8V",
    "AC Power Adapter",
    "Charging Station",
    "Backup Battery, Sealed Lead Acid",
  ],
  Infusion: ["Infusion Pump Door Assembly", "Pressure Sensor Board", "Pole Clamp Assembly", "Keypad Membrane", "Air-in-Line Detector"],
  Imaging: [
    "X-Ray Tube Housing Assembly",
    "Ultrasound Transducer, Convex",
    "Collimator Lamp",
    "Detector Cable",
    "Image Intensifier Power Supply",
  ],
  Respiratory: [
    "Flow Sensor, Reusable",
    "Exhalation Valve Assembly",
    "O2 Cell Sensor",
    "Humidifier Chamber Heater Plate",
    "Patient Circuit Adapter",
  ],
  Surgical: [
    "Electrosurgical Pencil Holster",
    "Footswitch, Dual Pedal",
    "Surgical Light Handle Cover",
    "Table Pad Set",
    "Drill Battery Housing",
  ],
  Sterilization: ["Door Gasket, Autoclave", "Chamber Pressure Transducer", "Steam Trap Assembly", "Printer Module", "Water Level Probe"],
  Endoscopy: ["Light Guide Cable", "Insufflation Tubing Set", "Camera Head Coupler", "Biopsy Valve", "Video Processor Fan"],
  Cardiology: ["Defibrillator Paddle Set", "Therapy Cable", "ECG Recorder Printhead", "Pacing Cable", "Stress System Keyboard"],
};

export const CATEGORIES = Object.keys(PRODUCT_TYPES);

export const VENDORS = [
  { id: 1, name: "MedSource Direct", returnPolicy: "30-day return, 15% restocking fee" },
  { id: 2, name: "Biomed Parts Exchange", returnPolicy: "Core return due within 15 days of delivery" },
  { id: 3, name: "Clinical Repair Supply", returnPolicy: "Returns accepted within 60 days, unopened" },
  { id: 4, name: "OEM Authorized Distribution", returnPolicy: "Returns within 30 days with RMA" },
  { id: 5, name: "Evergreen Refurbishing", returnPolicy: "90-day exchange for defective units" },
  { id: 6, name: "Rapid Loaner Services", returnPolicy: "Loaner returned within 30 days; late fee applies" },
];

const MODELS = [
  "IntelliVue MX",
  "CARESCAPE B",
  "Infinity Delta",
  "BeneView T",
  "LIFEPAK",
  "Alaris",
  "Sigma Spectrum",
  "Evita V",
  "Radical-7",
  "Connex VSM",
  "R Series",
  "Vivid E",
  "CV-190",
  "Amsco 400",
];

const EXCHANGE_SERIAL: CustomFieldDefinition = {
  fieldId: "coreSerialNumber",
  prompt: "Serial number of the unit being exchanged",
  isRequired: true,
  formatRegex: "^[A-Z0-9-]{6,20}$",
  errorMessage: "Serial number must be 6 to 20 upper-case letters, digits or dashes.",
};
const LOANER_RETURN_DATE: CustomFieldDefinition = {
  fieldId: "loanReturnDate",
  prompt: "Date the loaner will be returned (YYYY-MM-DD)",
  isRequired: true,
  formatRegex: "^\\d{4}-\\d{2}-\\d{2}$",
  errorMessage: "Return date must be a date in the form YYYY-MM-DD.",
};
const COST_CENTER: CustomFieldDefinition = {
  fieldId: "costCenter",
  prompt: "Department cost center",
  isRequired: false,
  formatRegex: "^[0-9]{4,8}$",
  errorMessage: "Cost center must be 4 to 8 digits.",
};

/** mulberry32: small, fast, deterministic. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const pick = <T>(rand: () => number, items: readonly T[]): T => items[Math.floor(rand() * items.length)]!;

/**
 * Fisher-Yates with `rand`: the same order on every engine and every call. Sorting with a random comparator is not:
 * its result is implementation-defined, and workerd's V8 gave one order before optimizing the sort and another after,
 * so the seed wrote other offers in a vitest worker's first file than in its later ones.
 */
function shuffled<T>(rand: () => number, items: T[]): T[] {
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [items[i], items[j]] = [items[j]!, items[i]!];
  }
  return items;
}

export { normalizePartNumber };

export const productId = (index: number) => `MP-${String(index + 1).padStart(7, "0")}`;

export interface ProductRow {
  id: string;
  partNumber: string;
  displayPartNumber: string;
  normalizedPartNumber: string;
  title: string;
  description: string;
  manufacturerId: number;
  categories: string[];
}

export function generateProduct(index: number): ProductRow {
  const rand = prng(index + 1);
  const manufacturer = MANUFACTURERS[index % MANUFACTURERS.length]!;
  const category = CATEGORIES[Math.floor(index / MANUFACTURERS.length) % CATEGORIES.length]!;
  const type = pick(rand, PRODUCT_TYPES[category]!);
  const model = pick(rand, MODELS);
  // 7919 is coprime with 9,000,000, so every index below that gets its own digits.
  const digits = String(100000 + ((index * 7919) % 9_000_000));
  const suffix = rand() < 0.5 ? String.fromCharCode(65 + Math.floor(rand() * 6)) : "";
  const partNumber = `${manufacturer.prefix}${digits}${suffix}`;
  const displayPartNumber = `${manufacturer.prefix}-${digits.slice(0, 3)}-${digits.slice(3)}${suffix ? ` ${suffix}` : ""}`;
  const categories =
    rand() < 0.25
      ? [
          category,
          pick(
            rand,
            CATEGORIES.filter((c) => c !== category),
          ),
        ]
      : [category];
  return {
    id: productId(index),
    partNumber,
    displayPartNumber,
    normalizedPartNumber: normalizePartNumber(partNumber),
    title: `${manufacturer.name} ${type}`,
    description: `${type} for ${manufacturer.name} ${model} series equipment. OEM part ${displayPartNumber}.`,
    manufacturerId: manufacturer.id,
    categories,
  };
}

export interface OfferRow {
  /** The vendor's SKU of the offer: `MP-OFFER-<id>` (migrations/0016). */
  sku: string;
  id: number;
  productId: string;
  vendorId: number;
  condition: string;
  purchaseChoice: string;
  warranty: string;
  priceCents: number;
  leadTimeDays: number;
  customFields: CustomFieldDefinition[];
  purchaseType: PurchaseType;
  purchaseTerms: PurchaseTerms | null;
}

/** The demo terms of an exchange (a core charge of half the price, due in 30 days) and a loan (30 days, 2% a day late). */
function demoTerms(purchaseChoice: string, priceCents: number): PurchaseTerms | null {
  const returnTo = "Medparts Demo Returns, 100 Dock St, Memphis TN 38118";
  if (purchaseChoice === "Exchange")
    return {
      type: "exchange",
      coreChargeCents: Math.round(priceCents / 2),
      coreDueDays: 30,
      coreConditions: ["Complete, not disassembled", "No fluid or impact damage"],
      returnTo,
    };
  if (purchaseChoice === "Loan")
    return { type: "loan", loanDays: 30, lateFeePerDayCents: Math.max(500, Math.round(priceCents / 50)), returnTo };
  return null;
}

const OFFER_KINDS = [
  { condition: "New OEM", purchaseChoice: "Buy", warranty: "12 months", factor: 1, vendors: [4, 1] },
  { condition: "Refurbished", purchaseChoice: "Buy", warranty: "6 months", factor: 0.55, vendors: [5, 3] },
  { condition: "Refurbished", purchaseChoice: "Exchange", warranty: "6 months", factor: 0.4, vendors: [2, 5] },
  { condition: "Aftermarket", purchaseChoice: "Buy", warranty: "90 days", factor: 0.35, vendors: [3, 1] },
  { condition: "Refurbished", purchaseChoice: "Loan", warranty: "Loan period only", factor: 0.1, vendors: [6] },
];

/** Two to four vendor offers per product, from different vendors. Offer ids are index * 10 + n. */
export function generateOffers(index: number): OfferRow[] {
  const rand = prng((index + 1) * 31);
  const listPriceCents = 1500 + Math.floor(rand() * 1_200_000);
  const count = 2 + Math.floor(rand() * 3);
  const usedVendors = new Set<number>();
  const offers: OfferRow[] = [];
  for (const kind of [OFFER_KINDS[0]!, ...shuffled(rand, OFFER_KINDS.slice(1))]) {
    if (offers.length === count) break;
    const vendorId = kind.vendors.find((v) => !usedVendors.has(v));
    if (vendorId === undefined) continue;
    usedVendors.add(vendorId);
    const customFields =
      kind.purchaseChoice === "Exchange"
        ? [EXCHANGE_SERIAL, COST_CENTER]
        : kind.purchaseChoice === "Loan"
          ? [LOANER_RETURN_DATE]
          : vendorId === 3
            ? [COST_CENTER]
            : [];
    const id = (index + 1) * 10 + offers.length;
    const priceCents = Math.max(500, Math.round(listPriceCents * kind.factor));
    const purchaseTerms = demoTerms(kind.purchaseChoice, priceCents);
    offers.push({
      id,
      sku: `MP-OFFER-${id}`,
      productId: productId(index),
      vendorId,
      condition: kind.condition,
      purchaseChoice: kind.purchaseChoice,
      warranty: kind.warranty,
      priceCents,
      leadTimeDays: kind.purchaseChoice === "Loan" ? 1 : 2 + Math.floor(rand() * 12),
      customFields,
      purchaseType: purchaseTerms?.type ?? "buy",
      purchaseTerms,
    });
  }
  return offers;
}

/** A device identifier of a demo product (catalog-migrations/0004). */
export interface DeviceIdentifierRow {
  agency: "GS1";
  deviceId: string;
  productId: string;
  containsDeviceId: string | null;
  quantity: number | null;
}

/** Every tenth demo product is also sold by the case: a case DI of this many units. */
export const DEMO_CASE_QUANTITY = 10;

/**
 * The GS1 device identifiers of demo product `index`: a unit GTIN-14 (indicator 0, an invented company prefix 06141,
 * the index as item reference; valid check digit), and for every tenth product a case of DEMO_CASE_QUANTITY units
 * (indicator 1).
 */
export function generateDeviceIdentifiers(index: number): DeviceIdentifierRow[] {
  const itemReference = `06141${String(index).padStart(7, "0")}`;
  const unit = gtin14Of(`0${itemReference}`);
  const rows: DeviceIdentifierRow[] = [
    { agency: "GS1", deviceId: unit, productId: productId(index), containsDeviceId: null, quantity: null },
  ];
  if (index % 10 === 0) {
    rows.push({
      agency: "GS1",
      deviceId: gtin14Of(`1${itemReference}`),
      productId: productId(index),
      containsDeviceId: unit,
      quantity: DEMO_CASE_QUANTITY,
    });
  }
  return rows;
}
