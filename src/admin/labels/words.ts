/** A stored code in words, for codes no table names yet: "in_progress" -> "In progress". */
export function inWords(code: string): string {
  const text = code.replace(/[_.]+/g, ' ').trim();
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** The label of a code from its table, else the code in words. */
export const labelOf = (labels: Record<string, string>, code: string | null | undefined): string => (code == null ? '' : labels[code] ?? inWords(code));

/** A list's values for a select and a filter, each with its label from the table (else the value in words). */
export const choices = (values: readonly (string | number)[], labels: Record<string, string> = {}) =>
  values.map((v) => ({ value: String(v), label: labelOf(labels, String(v)) }));
