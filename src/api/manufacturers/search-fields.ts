import { manufacturers } from "../../db/catalog-schema";
import { defineSearchResource } from "../../query/fields";

/** GET /manufacturers/search: the global manufacturer list (not tenant scoped). */
export const manufacturerSearch = defineSearchResource({
  name: "manufacturers",
  path: "/manufacturers/search",
  idColumn: manufacturers.id,
  defaultSort: "name",
  fields: [
    {
      name: "manufacturerId",
      aliases: ["id"],
      type: "Numeric",
      unit: "integer",
      column: manufacturers.id,
      sortable: true,
      description: "Manufacturer id",
    },
    {
      name: "name",
      type: "String",
      column: manufacturers.name,
      sortable: true,
      description: "Manufacturer name, e.g. `Philips Healthcare`",
    },
  ],
});
