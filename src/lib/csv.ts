// Safe CSV exports (ARCHITECTURE.md, departure 6): every value quoted, and a cell that a
// spreadsheet would run as a formula (starting with = + - @, tab or CR) is prefixed with
// an apostrophe so it shows as text. papaparse writes the file.
import Papa from "papaparse";

const FORMULA_START = /^[=+\-@\t\r]/;
/** A plain number ("-12.50") is data, not a formula: negative amounts stay numbers. */
const PLAIN_NUMBER = /^-?\d+(\.\d+)?$/;

/** A cell value a spreadsheet shows as text, never evaluates. */
export function neutralizeCell(value: string | number | boolean | null | undefined): string {
  const text = value === null || value === undefined ? "" : String(value);
  return FORMULA_START.test(text) && !PLAIN_NUMBER.test(text) ? `'${text}` : text;
}

/** CSV text with a header row; every value quoted and neutralised. */
export function toCsv(header: readonly string[], rows: ReadonlyArray<ReadonlyArray<string | number | boolean | null | undefined>>): string {
  return Papa.unparse(
    { fields: header.map(neutralizeCell), data: rows.map((row) => row.map(neutralizeCell)) },
    { quotes: true, newline: "\r\n" },
  );
}

/** Hands `content` to the browser as a download named `fileName`. */
export function downloadText(fileName: string, content: string, type = "text/csv;charset=utf-8"): void {
  const url = URL.createObjectURL(new Blob([content], { type }));
  const link = document.createElement("a");
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
