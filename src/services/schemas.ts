import { z } from 'zod';

/** Field shapes shared by every door (the routes, the console, the command line), with the limits of CONTRACT.md section 14. */
export const idParam = z.object({ id: z.coerce.number().int().min(1).max(2_147_483_647) });
export const id = () => z.coerce.number().int().min(1).max(2_147_483_647);
export const name = () => z.string().trim().min(1).max(120);
export const title = () => z.string().trim().min(1).max(200);
export const longText = () => z.string().max(10_000);
export const email = () => z.string().trim().toLowerCase().max(254).email();
export const password = () => z.string().min(8).max(128);
export const pin = () => z.string().regex(/^\d{4,8}$/, 'must be 4 to 8 digits');
/**
 * Digits with an optional leading +; spaces, dots, dashes and brackets are dropped first. The
 * document says the same of the value as sent: 6 to 15 digits, the + first, separators anywhere.
 */
export const phone = () =>
  z
    .string()
    .transform((v) => v.replace(/[\s().-]/g, ''))
    .pipe(z.string().regex(/^\+?\d{6,15}$/, 'must be a phone number of 6 to 15 digits'))
    .meta({
      pattern: String.raw`^[\s().-]*\+?(?:[\s().-]*\d){6,15}[\s().-]*$`,
      description: '6 to 15 digits, with an optional leading +; spaces, dots, dashes and brackets are dropped',
    });
export const schoolIdField = () => z.string().trim().regex(/^[A-Za-z0-9][A-Za-z0-9_-]{1,63}$/, 'is not a valid school id');
export const date = () =>
  z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/, { message: 'must be a date YYYY-MM-DD', abort: true })
    .refine((v) => !Number.isNaN(Date.parse(v)) && new Date(v).toISOString().startsWith(v), 'is not a real date')
    .meta({ format: 'date' });
export const timestamp = () => z.string().meta({ format: 'date-time', description: 'ISO 8601 timestamp in UTC' });
/**
 * A time that is stored: MySQL's DATETIME holds the years 1000 to 9999, and an offset or an all-day
 * event's end can carry a time a day past what was written, so the last year is left out.
 */
export const storable = (v: string) => {
  const year = new Date(v).getUTCFullYear();
  // What is no time at all is the format check's to refuse, in its own words.
  return Number.isNaN(year) || (year >= 1000 && year <= 9998);
};
export const STORABLE_YEARS = 'must fall in the years 1000 to 9998';
/** An ISO 8601 time with its offset, as the API takes one to store. */
export const instant = (error = 'must be an ISO 8601 timestamp') => z.iso.datetime({ offset: true, error }).refine(storable, STORABLE_YEARS);

/** "At least one of these fields", as JSON Schema says it: a change naming none is refused (400 "Send at least one field to change"). */
export const anyFieldOf = (fields: string[]) => ({ anyOf: fields.map((field) => ({ required: [field] })) });

/** page (default 1) and limit (default 10, at most 100), as every web list takes them. */
export const pageQuery = (defaultLimit = 10) => ({
  page: z.coerce.number().int().min(1).max(1_000_000).default(1),
  limit: z.coerce.number().int().min(1).max(100).default(defaultLimit),
});

export const device = {
  fcm_token: z.string().max(512).optional(),
  device_id: z.string().max(200).optional(),
  device_name: z.string().max(200).optional(),
};

export const sessionResponse = {
  access_token: z.string(),
  token_type: z.literal('Bearer'),
  expires_at: timestamp(),
};

/** An activity's or a notice's audience as lists show it: null for the whole school. */
export const audienceView = z
  .object({ grades: z.array(z.string()), group_ids: z.array(z.number()), student_ids: z.array(z.number()) })
  .nullable()
  .describe('Who it is for: the union of these grades, groups and students; null for the whole school');

/** An attachment as every view of its item shows it (CONTRACT.md section 25). */
export const attachmentView = z.object({
  id: z.number(),
  name: z.string().describe('The file name the uploader gave, without any path'),
  content_type: z.enum(['image/jpeg', 'image/png', 'image/gif', 'image/webp', 'application/pdf']).describe('Of the stored file, judged by its content'),
  size: z.number().describe('Bytes of the stored file (an image as rebuilt)'),
  width: z.number().nullable().describe('Pixels of the stored image, as displayed; null for a PDF'),
  height: z.number().nullable(),
  url: z.string().describe('Signed for this response: `{PUBLIC_APP_URL}/files/<id>?exp=&sig=`, working for FILE_URL_TTL_SECONDS'),
  thumbnail_url: z.string().nullable().describe('A 400 px still of an image, signed likewise; null for a PDF'),
});

export const attachmentsView = z.array(attachmentView).describe('In the order of the item\'s attachment_ids; [] when none');
