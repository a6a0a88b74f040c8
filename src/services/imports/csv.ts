import { parse } from 'csv-parse';
import { Readable } from 'node:stream';
import type { ImportError } from './report.js';

export interface CsvRow {
  /** The line of the file the record starts on: the header is line 1. */
  line: number;
  /** The record's values by column (names trimmed and lowercased); empty fields are absent. */
  values: Record<string, string>;
}

export interface CsvTable {
  file: string;
  columns: string[];
  rows: CsvRow[];
  /** A file that could not be read as CSV (an unclosed quote, say): one error, where it happened. */
  error?: ImportError;
}

/** A record's own text: blank lines skipped before it come first in `raw`, and its line break ends it. */
const recordText = (raw: string) => raw.replace(/^[\r\n]+/, '').replace(/(\r\n|\r|\n)$/, '');
/** Line breaks inside a record: the start line is its end line less these. */
const lineBreaks = (text: string) => (text.match(/\r\n|\r|\n/g) ?? []).length;
/** csv-parse counts a CRLF inside quotes as two lines (one anywhere else): what it counted twice is taken off. */
const doubleCounted = (text: string) => (text.match(/\r\n/g) ?? []).length;

/**
 * Reads a CSV file as a stream (UTF-8, with or without a byte-order mark; quoted fields may hold
 * commas, quotes and line breaks), the first row naming the columns in any order.
 */
export async function readCsv(file: string, source: Buffer | Readable): Promise<CsvTable> {
  let columns: string[] = [];
  const parser = parse({
    bom: true,
    columns: (header: string[]) => (columns = header.map((h) => h.trim().toLowerCase())),
    info: true,
    raw: true,
    skip_empty_lines: true,
    relax_column_count: true,
    trim: true,
  });
  const rows: CsvRow[] = [];
  const input = Buffer.isBuffer(source) ? Readable.from([source]) : source;
  let overcount = 0;
  try {
    for await (const { record, info, raw } of input.pipe(parser) as AsyncIterable<{ record: Record<string, string>; info: { lines: number }; raw: string }>) {
      const text = recordText(raw);
      overcount += doubleCounted(text);
      const values: Record<string, string> = {};
      for (const [key, value] of Object.entries(record)) if (value !== '' && value !== undefined) values[key] = value;
      if (Object.keys(values).length === 0) continue;
      rows.push({ line: info.lines - overcount - lineBreaks(text), values });
    }
  } catch (err) {
    const reported = (err as { lines?: number }).lines;
    const line = reported === undefined ? 1 : reported - overcount;
    return { file, columns, rows, error: { file, line, field: 'file', message: `is not readable as CSV: ${(err as Error).message}` } };
  }
  return { file, columns, rows };
}

/** One error on line 1 for each required column the header lacks. */
export function missingColumns(table: CsvTable, required: readonly string[]): ImportError[] {
  return required.filter((c) => !table.columns.includes(c)).map((c) => ({ file: table.file, line: 1, field: c, message: 'is a required column and the header lacks it' }));
}
