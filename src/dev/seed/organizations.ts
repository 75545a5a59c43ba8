/** Demo buyer organizations: three tenants, so cross-tenant checks are real. Ids are fixed for docs and tests. */

export const TENANTS = [
  { id: 1, name: "St. Mary's Health System" },
  { id: 2, name: "Lakeside Regional Hospitals" },
  { id: 3, name: "Northwind Veterans Clinic" },
];

export const COMPANIES = [
  { id: 101, tenantId: 1, name: "St. Mary's Medical Center" },
  { id: 102, tenantId: 1, name: "St. Mary's Children's Hospital" },
  { id: 103, tenantId: 1, name: "St. Mary's Outpatient Surgery" },
  { id: 201, tenantId: 2, name: "Lakeside General Hospital" },
  { id: 202, tenantId: 2, name: "Lakeside Surgical Institute" },
  { id: 301, tenantId: 3, name: "Northwind VA Clinic" },
];

export const FACILITIES = [
  { id: 1001, companyId: 101, name: "Main Campus Operating Rooms" },
  { id: 1002, companyId: 101, name: "Biomedical Engineering" },
  { id: 1003, companyId: 102, name: "Pediatric ICU" },
  { id: 1004, companyId: 103, name: "Ambulatory Surgery Center" },
  { id: 2001, companyId: 201, name: "Clinical Engineering" },
  { id: 2002, companyId: 201, name: "Imaging Department" },
  { id: 2003, companyId: 202, name: "Surgical Suites" },
  { id: 3001, companyId: 301, name: "Primary Care Wing" },
];

const CITIES: Record<number, { city: string; state: string; zip: string; streets: string[] }> = {
  101: { city: "Springfield", state: "IL", zip: "62701", streets: ["800 E Carpenter St", "1200 N 9th St"] },
  102: { city: "Springfield", state: "IL", zip: "62702", streets: ["301 W Miller St", "415 N 5th St"] },
  103: { city: "Decatur", state: "IL", zip: "62521", streets: ["2300 N Edward St", "150 W Pershing Rd"] },
  201: { city: "Madison", state: "WI", zip: "53703", streets: ["600 Highland Ave", "1313 Fish Hatchery Rd"] },
  202: { city: "Middleton", state: "WI", zip: "53562", streets: ["6630 University Ave", "7601 Murphy Dr"] },
  301: { city: "Portland", state: "OR", zip: "97239", streets: ["3710 SW US Veterans Hospital Rd", "1601 E 4th Plain Blvd"] },
};

/** Per company: two shipping addresses and one billing address. */
export const ADDRESSES = COMPANIES.flatMap((company, i) => {
  const place = CITIES[company.id]!;
  const base = (i + 1) * 10;
  const address = (offset: number, kind: "shipping" | "billing", line1: string, attentionTo: string) => ({
    id: base + offset,
    companyId: company.id,
    kind,
    attentionTo,
    line1,
    city: place.city,
    state: place.state,
    zip: place.zip,
    country: "US",
  });
  return [
    address(1, "shipping", `${place.streets[0]}, Receiving Dock A`, "Materials Management"),
    address(2, "shipping", `${place.streets[1]}, Loading Dock`, "Biomed Receiving"),
    address(3, "billing", `${place.streets[0]}, Accounts Payable`, "Accounts Payable"),
  ];
});

export const USERS = [
  {
    id: 1,
    tenantId: 1,
    contactId: 50001,
    loginUserId: "jsmith",
    firstName: "John",
    lastName: "Smith",
    email: "john.smith@stmarys.example",
    companies: [101, 102],
    facilities: [1001, 1002, 1003],
  },
  {
    id: 2,
    tenantId: 1,
    contactId: 50002,
    loginUserId: "mgarcia",
    firstName: "Maria",
    lastName: "Garcia",
    email: "maria.garcia@stmarys.example",
    companies: [101],
    facilities: [1001],
  },
  {
    id: 3,
    tenantId: 1,
    contactId: 50003,
    loginUserId: "achen",
    firstName: "Alice",
    lastName: "Chen",
    email: "alice.chen@stmarys.example",
    companies: [103],
    facilities: [1004],
  },
  {
    id: 4,
    tenantId: 1,
    contactId: 50004,
    loginUserId: "bwilliams",
    firstName: "Brian",
    lastName: "Williams",
    email: "brian.williams@stmarys.example",
    companies: [101],
    facilities: [],
  },
  {
    id: 5,
    tenantId: 1,
    contactId: 50005,
    loginUserId: "pobrien",
    firstName: "Patrick",
    lastName: "O'Brien",
    email: "patrick.obrien@stmarys.example",
    companies: [102],
    facilities: [1003],
  },
  {
    id: 6,
    tenantId: 2,
    contactId: 60001,
    loginUserId: "kjohnson",
    firstName: "Karen",
    lastName: "Johnson",
    email: "karen.johnson@lakeside.example",
    companies: [201, 202],
    facilities: [2001, 2002, 2003],
  },
  {
    id: 7,
    tenantId: 2,
    contactId: 60002,
    loginUserId: "dpatel",
    firstName: "Dev",
    lastName: "Patel",
    email: "dev.patel@lakeside.example",
    companies: [201],
    facilities: [2001],
  },
  {
    id: 8,
    tenantId: 2,
    contactId: 60003,
    loginUserId: "lnguyen",
    firstName: "Linh",
    lastName: "Nguyen",
    email: "linh.nguyen@lakeside.example",
    companies: [202],
    facilities: [2003],
  },
  {
    id: 9,
    tenantId: 2,
    contactId: 60004,
    loginUserId: "rsmith",
    firstName: "Rachel",
    lastName: "Smith",
    email: "rachel.smith@lakeside.example",
    companies: [201],
    facilities: [2002],
  },
  {
    id: 10,
    tenantId: 3,
    contactId: 70001,
    loginUserId: "tbrown",
    firstName: "Thomas",
    lastName: "Brown",
    email: "thomas.brown@northwind.example",
    companies: [301],
    facilities: [3001],
  },
];
