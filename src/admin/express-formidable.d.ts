/** express-formidable ships no types: the one call the console makes. */
declare module 'express-formidable' {
  import type { RequestHandler } from 'express';
  export default function formidable(options?: { maxFieldsSize?: number; maxFileSize?: number; maxFields?: number }): RequestHandler;
}
