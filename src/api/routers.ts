import type { RateLimits } from './middleware/rate-limits.js';
import type { ApiRouter } from './route.js';

/** The routers a feature registers on: one per app, and the public root. */
export interface Routers {
  parent: ApiRouter;
  teachers: ApiRouter;
  web: ApiRouter;
  root: ApiRouter;
  limits: RateLimits;
}

export const appRouters = (r: Routers) => [r.parent, r.teachers, r.web];
