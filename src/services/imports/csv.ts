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
  /** A column the header names twice (line 1), and each row with more cells than the header names: one error each, on its line. */
  rowErrors: ImportError[];
  /** A file that could not be read as CSV (an unclosed quote, say): one error, on the line its record starts. */
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
 * commas, quotes and line breaks), the first row naming the columns in any order. A row may leave
 * its last cells out; one with more cells than the header names (an address with an unquoted comma)
 * is an error on its line, never a value cut short.
 */
export async function readCsv(file: string, source: Buffer | Readable): Promise<CsvTable> {
  let overcount = 0;
  // Where the next record starts, known as each record is parsed: an unreadable one is reported there, not where reading stopped.
  let nextLine = 1;
  const parser = parse({
    bom: true, raw: true, skip_empty_lines: true, relax_column_count: true, trim: true,
    // With `raw`, a record comes as {record, raw}; it leaves as its cells and the line it starts on.
    on_record: (({ record, raw }: { record: string[]; raw: string }, info: { lines: number }) => {
      const text = recordText(raw);
      overcount += doubleCounted(text);
      nextLine = info.lines - overcount + 1;
      return { cells: record, line: info.lines - overcount - lineBreaks(text) };
    }) as never,
  });
  let columns: string[] | null = null;
  const rows: CsvRow[] = [];
  const rowErrors: ImportError[] = [];
  const input = Buffer.isBuffer(source) ? Readable.from([source]) : source;
  try {
    for await (const { cells, line } of input.pipe(parser) as AsyncIterable<{ cells: string[]; line: number }>) {
      if (columns === null) {
        columns = cells.map((h) => h.trim().toLowerCase());
        const named = columns.filter((c) => c !== '');
        for (const twice of new Set(named.filter((c, i) => named.indexOf(c) !== i))) rowErrors.push({ file, line, field: twice, message: 'is named twice in the header' });
        continue;
      }
      if (cells.slice(columns.length).some((cell) => cell !== '')) {
        rowErrors.push({ file, line, field: 'row', message: `has ${cells.length} cells where the header names ${columns.length}: quote a value that holds a comma` });
        continue;
      }
      const values: Record<string, string> = {};
      columns.forEach((column, i) => {
        const value = cells[i];
        if (column !== '' && value !== undefined && value !== '' && !(column in values)) values[column] = value;
      });
      if (Object.keys(values).length === 0) continue;
      rows.push({ line, values });
    }
  } catch (err) {
    const unclosed = (err as { code?: string }).code === 'CSV_QUOTE_NOT_CLOSED';
    const line = unclosed ? nextLine : ((err as { lines?: number }).lines ?? 1) - overcount;
    const why = unclosed ? 'a quoted value that starts on this line is never closed' : (err as Error).message;
    return { file, columns: columns ?? [], rows, rowErrors, error: { file, line, field: 'file', message: `is not readable as CSV: ${why}` } };
  }
  return { file, columns: columns ?? [], rows, rowErrors };
}

/** One error on line 1 for each required column the header lacks. */
export function missingColumns(table: CsvTable, required: readonly string[]): ImportError[] {
  return required.filter((c) => !table.columns.includes(c)).map((c) => ({ file: table.file, line: 1, field: c, message: 'is a required column and the header lacks it' }));
}
