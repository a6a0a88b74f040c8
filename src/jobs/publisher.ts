import type { AppContext } from '../context.js';
import { publishDue } from '../services/audiences/scheduled.js';
import { every, type Periodic } from './periodic.js';

/** How often scheduled items are looked for: well inside the minute the contract allows, whatever MAINTENANCE_INTERVAL_SECONDS is. */
export const PUBLISH_CHECK_MS = 15_000;

/** Publishes scheduled activities and notices as their time comes; several instances may run one each. */
export function startPublisher(ctx: AppContext): Periodic {
  return every(PUBLISH_CHECK_MS, (stopping) => publishDue(ctx, new Date(), stopping), ctx.log, 'scheduled publishing pass');
}
