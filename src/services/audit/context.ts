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

const isSystem = (actor: Partial<AuditActor>) =>
  (Object.keys(SYSTEM) as Array<keyof AuditActor>).every((k) => (actor[k] ?? null) === SYSTEM[k]);

type ActorInput = Partial<AuditActor> & Pick<AuditActor, 'door' | 'actorType'>;

/**
 * The context costs every promise of the process something (about 65 ns on Node 20) while it is on,
 * which a read-heavy server would pay on every request. It is switched on for the work that may
 * change data and off again when no such work is left.
 */
let open = 0;
function release(): void {
  if (--open === 0) storage.disable();
}

/**
 * Runs `work` as `actor`; everything it awaits is recorded under that actor. Inside a request (the
 * console's actions run inside the HTTP request that asked for them) the request's ip and id stay.
 */
export function actingAs<T>(actor: ActorInput, work: () => Promise<T>): Promise<T> {
  const outer = storage.getStore();
  // Outside any context the system's job is what `currentActor` already answers: a timer's pass,
  // every second, does not switch the context on (and every request served meanwhile with it).
  if (outer === undefined && isSystem(actor)) return work();
  open++;
  let result: Promise<T>;
  try {
    result = storage.run({ actorId: null, actorName: null, ip: outer?.ip ?? null, requestId: outer?.requestId ?? null, ...actor }, work);
  } catch (err) {
    release();
    throw err;
  }
  return result.finally(release);
}

/**
 * For a door whose work outlives the call that starts it (an HTTP request, ended by its response):
 * `start` runs as `actor`, and the context stays on until the returned function is called.
 */
export function actingUntil(actor: ActorInput, start: () => void): () => void {
  open++;
  let done = false;
  const end = () => {
    if (done) return;
    done = true;
    release();
  };
  try {
    storage.run({ actorId: null, actorName: null, ip: null, requestId: null, ...actor }, start);
  } catch (err) {
    end();
    throw err;
  }
  return end;
}

/** Names the caller once it is known (the API authenticates after the request's context is set). */
export function identifyActor(actorType: ActorType, actorId: string | number | null, actorName: string | null = null): void {
  const store = storage.getStore();
  if (!store) return;
  store.actorType = actorType;
  store.actorId = actorId === null ? null : String(actorId);
  store.actorName = actorName;
}
