import { AsyncLocalStorage } from 'node:async_hooks';
import type { ActorType, Door } from '../../models/audit-event.js';

/** Who is acting and through which door: set once by each door, read by the audit capture. */
export interface AuditActor {
  door: Door;
  actorType: ActorType;
  actorId: string | null;
  actorName: string | null;
  ip: string | null;
  requestId: string | null;
}

const storage = new AsyncLocalStorage<AuditActor>();

/** Anything that changes data outside a door (a seeder, a test calling a service) is the system's. */
const SYSTEM: AuditActor = { door: 'job', actorType: 'system', actorId: null, actorName: null, ip: null, requestId: null };

export const currentActor = (): AuditActor => storage.getStore() ?? SYSTEM;

/** Runs `work` as `actor`; everything it awaits is recorded under that actor. */
export function actingAs<T>(actor: Partial<AuditActor> & Pick<AuditActor, 'door' | 'actorType'>, work: () => T): T {
  return storage.run({ actorId: null, actorName: null, ip: null, requestId: null, ...actor }, work);
}

/** Names the caller once it is known (the API authenticates after the request's context is set). */
export function identifyActor(actorType: ActorType, actorId: string | number | null, actorName: string | null = null): void {
  const store = storage.getStore();
  if (!store) return;
  store.actorType = actorType;
  store.actorId = actorId === null ? null : String(actorId);
  store.actorName = actorName;
}
