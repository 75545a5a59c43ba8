/** An SQL identifier (a table's or a column's name) quoted for SQLite, a double quote inside it doubled. */
export const quotedIdentifier = (name: string) => `"${name.replaceAll('"', '""')}"`;
