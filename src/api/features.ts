import { registerAdminRoutes } from './admins/admins.routes.js';
import { registerAuthRoutes } from './auth/auth.routes.js';
import type { Routers } from './routers.js';
import { registerSessionRoutes } from './sessions/sessions.routes.js';

/** Every feature's routes, in the order they are registered on the app routers. */
export const features: Array<(r: Routers) => void> = [
  registerAuthRoutes,
  registerSessionRoutes,
  registerAdminRoutes,
];
