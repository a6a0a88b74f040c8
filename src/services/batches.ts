/** Rows handled this many at a time: a statement per batch, never one per row, and none too large to send. */
export const BATCH_SIZE = 500;

export const chunks = <T>(items: T[], size = BATCH_SIZE): T[][] => Array.from({ length: Math.ceil(items.length / size) }, (_, i) => items.slice(i * size, (i + 1) * size));
