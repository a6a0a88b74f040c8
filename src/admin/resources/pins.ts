import { randomInt } from 'node:crypto';

/** A PIN the console makes up for a reset: six digits from the system's secure generator. */
export const newPin = () => String(randomInt(0, 1_000_000)).padStart(6, '0');
