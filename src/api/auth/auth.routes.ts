import type { Request } from 'express';
import { z } from 'zod';
import type { Config } from '../../config.js';
import { adminLogin, parentLogin, staffLogin } from '../../services/auth/login.js';
import { logout, sessionLifetimeMs, type DeviceInfo } from '../../services/auth/sessions.js';
import { signup } from '../../services/schools/schools.js';
import { appRouters, type Routers } from '../routers.js';
import { device, email, name, password, phone, schoolIdField, sessionResponse } from '../../services/schemas.js';

const deviceOf = (req: Request, body: DeviceInfo): DeviceInfo => ({
  fcm_token: body.fcm_token,
  device_id: body.device_id,
  device_name: body.device_name,
  user_agent: req.headers['user-agent'] ?? null,
  ip: req.ip ?? null,
});

const cookieOptions = (config: Config) => ({ httpOnly: true, sameSite: 'lax' as const, secure: config.production, path: '/' });

export function registerAuthRoutes(r: Routers): void {
  const loginPin = z.string().min(1).max(128);
  const before = [r.limits.login];

  r.parent.publicRoute(
    {
      method: 'post', path: '/parent-auth-verification', auth: false,
      summary: 'Parent login with phone and PIN',
      description:
        'Without school_id the phone is looked up in every school; if the PIN matches in several, the answer is 400 listing them in ' +
        '`error.details.schools`. Five wrong PINs in 15 minutes lock the phone for 15 minutes (429, even for the right PIN).',
      body: z.object({ phone_no: phone(), pin: loginPin, school_id: schoolIdField().optional(), ...device }),
      response: z.object({
        ...sessionResponse,
        parent: z.object({ id: z.number(), father_name: z.string().nullable(), school_id: z.string() }),
        children: z.array(z.object({ id: z.number(), name: z.string(), roll_no: z.string(), grade: z.string(), status: z.string() })),
      }),
      errors: [401, 403, 429], before,
      example: { phone_no: '9876543210', pin: '1234', fcm_token: 'device-token' },
      responseExample: { message: 'Login successful' },
    },
    async ({ ctx, body, req }) => ({ message: 'Login successful', data: await parentLogin(ctx, body, deviceOf(req, body)) }),
  );

  r.teachers.publicRoute(
    {
      method: 'post', path: '/teacher-auth-verification', auth: false,
      summary: 'Staff login with phone, PIN and school',
      description:
        'A person who works at two schools has a staff record in each, so the school is part of the login. An archived staff member or a ' +
        'suspended school gets 403. Five wrong PINs in 15 minutes lock the account for 15 minutes (429). `staff.rbac` is the effective rbac.',
      body: z.object({ phone_no: phone(), pin: loginPin, school_id: schoolIdField(), ...device }),
      response: z.object({
        ...sessionResponse,
        staff: z.object({ id: z.number(), name: z.string(), designation: z.string().nullable(), school_id: z.string(), rbac: z.record(z.string(), z.string()) }),
      }),
      errors: [401, 403, 429], before,
      example: { phone_no: '9876500001', pin: '4321', school_id: 'greenwood' },
      responseExample: { message: 'Login successful' },
    },
    async ({ ctx, body, req }) => ({ message: 'Login successful', data: await staffLogin(ctx, body, deviceOf(req, body)) }),
  );

  r.web.publicRoute(
    {
      method: 'post', path: '/signin', auth: false,
      summary: 'Administrator sign-in with e-mail and password',
      description:
        'Also sets the HttpOnly cookie access_token for browser clients; a write authenticated only by that cookie must come from an ' +
        'Origin listed in CORS_ORIGINS. The token lasts ADMIN_SESSION_HOURS (12 unless set). Five wrong passwords in 15 minutes lock the account (429).',
      body: z.object({ email: email(), password: z.string().min(1).max(128) }),
      response: z.object({
        ...sessionResponse,
        user: z.object({ id: z.number(), name: z.string(), email: z.string(), role: z.string(), school_id: z.string() }),
      }),
      errors: [401, 403, 429], before,
      example: { email: 'principal@greenwood.example', password: 'correct horse battery' },
      responseExample: { message: 'Signed in' },
    },
    async ({ ctx, body, req, res }) => {
      const data = await adminLogin(ctx, body, deviceOf(req, {}));
      res.cookie('access_token', data.access_token, { ...cookieOptions(ctx.config), maxAge: sessionLifetimeMs(ctx, 'admin') });
      return { message: 'Signed in', data };
    },
  );

  r.web.publicRoute(
    {
      method: 'post', path: '/signup', auth: false, status: 201,
      summary: 'Register a new school and its first super_admin',
      description:
        'Creates the school with its default grades and designations, and its first admin user with the role super_admin. `school_name` ' +
        'defaults to the id. A school id or e-mail already taken answers 409; SIGNUP_ENABLED=false turns the route off (403).',
      body: z.object({ name: name(), email: email(), password: password(), school_id: schoolIdField(), school_name: z.string().trim().min(1).max(200).optional() }),
      response: z.object({ user_id: z.number(), school_id: z.string() }),
      errors: [403, 409],
      example: { name: 'Asha Principal', email: 'principal@greenwood.example', password: 'correct horse battery', school_id: 'greenwood', school_name: 'Greenwood High' },
      responseExample: { message: 'School registered', data: { user_id: 1, school_id: 'greenwood' } },
    },
    async ({ ctx, body }) => ({
      message: 'School registered',
      data: await signup(ctx, { school_id: body.school_id, school_name: body.school_name, admin: { name: body.name, email: body.email, password: body.password } }),
    }),
  );

  for (const router of appRouters(r)) {
    router.route(
      {
        method: 'post', path: '/logout', summary: 'End the current session', description: 'The same token is refused from the next call on.',
        responseExample: { message: 'Logged out' },
      },
      async ({ ctx, principal, res }) => {
        await logout(ctx, principal);
        if (router.app === 'web-app') res.clearCookie('access_token', cookieOptions(ctx.config));
        return { message: 'Logged out' };
      },
    );
  }
}
