import { registerActivityRoutes } from './activities/activities.routes.js';
import { registerAdminRoutes } from './admins/admins.routes.js';
import { registerAttachmentRoutes } from './attachments/attachments.routes.js';
import { registerAuditRoutes } from './audit/audit.routes.js';
import { registerAuthRoutes } from './auth/auth.routes.js';
import { registerCalendarRoutes } from './calendar/calendar.routes.js';
import { registerDiagnosticsRoutes } from './diagnostics/diagnostics.routes.js';
import { registerEngagementRoutes } from './engagement/engagement.routes.js';
import { registerFormRoutes } from './forms/forms.routes.js';
import { registerGroupRoutes } from './groups/groups.routes.js';
import { registerImportRoutes } from './imports/imports.routes.js';
import { registerLinkPageRoutes } from './links/link-pages.routes.js';
import { registerTwilioRoutes } from './links/twilio.routes.js';
import { registerNoticeboardRoutes } from './noticeboard/noticeboard.routes.js';
import { registerNotificationRoutes } from './notifications/notifications.routes.js';
import { registerParentRoutes } from './parents/parents.routes.js';
import { registerReachRoutes } from './reach/reach.routes.js';
import { registerPrivacyRoutes } from './privacy/privacy.routes.js';
import { registerProfileRoutes } from './profile/profile.routes.js';
import type { Routers } from './routers.js';
import { registerSchoolRoutes } from './school/school.routes.js';
import { registerSessionRoutes } from './sessions/sessions.routes.js';
import { registerStaffRoutes } from './staff/staff.routes.js';
import { registerStudentRoutes } from './students/students.routes.js';
import { registerWebhookRoutes } from './webhooks/webhooks.routes.js';
import { registerWriteToRoutes } from './write-to/write-to.routes.js';

/** Every feature's routes, in the order they are registered on the app routers. */
export const features: Array<(r: Routers) => void> = [
  registerAuthRoutes,
  registerSessionRoutes,
  registerAdminRoutes,
  registerSchoolRoutes,
  registerStaffRoutes,
  registerEngagementRoutes,
  registerActivityRoutes,
  registerNoticeboardRoutes,
  registerFormRoutes,
  registerCalendarRoutes,
  registerReachRoutes,
  registerStudentRoutes,
  registerParentRoutes,
  registerPrivacyRoutes,
  registerGroupRoutes,
  registerImportRoutes,
  registerWriteToRoutes,
  registerAttachmentRoutes,
  registerNotificationRoutes,
  registerDiagnosticsRoutes,
  registerAuditRoutes,
  registerWebhookRoutes,
  registerProfileRoutes,
  registerLinkPageRoutes,
  registerTwilioRoutes,
];
