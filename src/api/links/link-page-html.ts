import type { ErrorRequestHandler, Response } from 'express';
import { toAppError } from '../middleware/errors.js';
import type { LinkPage } from '../../services/delivery/pages.js';
import { escapeHtml, htmlParagraphs } from '../../services/delivery/content.js';

/**
 * The pages a parent opens from an SMS or an e-mail: server-rendered, readable on a phone without
 * the app, and inert. No script runs on them (their policy allows none, and the author's text is
 * escaped), nothing is cached or indexed, and no referrer leaves with their token.
 */
export const PAGE_HEADERS = {
  'Content-Type': 'text/html; charset=utf-8',
  'Cache-Control': 'no-store',
  'X-Robots-Tag': 'noindex',
  'Referrer-Policy': 'no-referrer',
  'Content-Security-Policy': "default-src 'none'; script-src 'none'; style-src 'unsafe-inline'; img-src data:; form-action 'self'; base-uri 'none'; frame-ancestors 'none'",
};

const STYLE = `
*{box-sizing:border-box}
body{margin:0;background:#f4f6f8;color:#1f2933;font:17px/1.55 -apple-system,BlinkMacSystemFont,"Segoe UI",Roboto,"Noto Sans",Arial,sans-serif}
main{max-width:40rem;margin:0 auto;padding:1.25rem 1rem 2rem}
.school{margin:0 0 1rem;font-weight:600;color:#334e68;font-size:.95rem;letter-spacing:.01em}
article,.card{background:#fff;border-radius:12px;padding:1.25rem 1.1rem;box-shadow:0 1px 3px rgba(15,23,42,.08)}
.meta{margin:0 0 .4rem;color:#627d98;font-size:.85rem;text-transform:uppercase;letter-spacing:.04em}
h1{margin:0 0 .9rem;font-size:1.45rem;line-height:1.25;overflow-wrap:anywhere}
.text p{margin:0 0 .9rem;overflow-wrap:anywhere}
button{font:inherit;font-weight:600;color:#fff;background:#c81e1e;border:0;border-radius:8px;padding:.75rem 1.25rem;width:100%}
footer{margin-top:1.5rem;color:#829ab1;font-size:.8rem}
`;

function layout(title: string, school: string | undefined, body: string): string {
  return [
    '<!doctype html>',
    '<html lang="en"><head><meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    '<meta name="robots" content="noindex">',
    `<title>${escapeHtml(title)}${school ? ` \u00b7 ${escapeHtml(school)}` : ''}</title>`,
    `<style>${STYLE}</style></head>`,
    '<body><main>',
    school ? `<p class="school">${escapeHtml(school)}</p>` : '',
    body,
    `<footer>${school ? `Sent by ${escapeHtml(school)} through the school platform.` : 'The school platform.'}</footer>`,
    '</main></body></html>',
  ].join('\n');
}

/** The author's text as paragraphs: blank lines part them, single line breaks stay. */
const paragraphs = (text: string) =>
  text.split(/\r?\n\s*\r?\n/).map((p) => p.trim()).filter(Boolean).map((p) => `<p>${htmlParagraphs(p)}</p>`).join('\n');

export function renderLinkPage(page: LinkPage): string {
  switch (page.page) {
    case 'post':
      return layout(page.title, page.school, [
        '<article>',
        `<p class="meta">${escapeHtml(page.label)}${page.date ? ` \u00b7 <time datetime="${page.date}">${page.date}</time>` : ''}</p>`,
        `<h1>${escapeHtml(page.title)}</h1>`,
        `<div class="text">${paragraphs(page.text)}</div>`,
        '</article>',
      ].join('\n'));
    case 'unsubscribe':
      return layout('Unsubscribe', page.school, [
        '<div class="card">',
        `<h1>Stop e-mails from ${escapeHtml(page.school)}?</h1>`,
        '<p>You will no longer be sent the school\u2019s news by e-mail. You can turn e-mail on again in the parent app\u2019s notification settings.</p>',
        '<form method="post"><input type="hidden" name="List-Unsubscribe" value="One-Click"><button type="submit">Unsubscribe</button></form>',
        '</div>',
      ].join('\n'));
    case 'unsubscribed':
      return layout('Unsubscribed', page.school, [
        '<div class="card">',
        '<h1>You are unsubscribed</h1>',
        `<p>${escapeHtml(page.school)} will no longer send you e-mails. You can turn e-mail on again in the parent app\u2019s notification settings.</p>`,
        '</div>',
      ].join('\n'));
    case 'verified':
      return layout('E-mail address confirmed', page.school, [
        '<div class="card">',
        '<h1>Your e-mail address is confirmed</h1>',
        `<p>${escapeHtml(page.school)} can now send its news to <strong>${escapeHtml(page.email ?? '')}</strong>.</p>`,
        '</div>',
      ].join('\n'));
    case 'refused':
      return layout('Not possible just now', undefined, `<div class="card"><h1>This link could not be opened</h1><p>${escapeHtml(page.message)}</p></div>`);
    case 'gone':
      return layout('No longer available', page.school, '<div class="card"><h1>This post is no longer available</h1><p>The school has removed it, or it is no longer meant for your family.</p></div>');
    default:
      return layout('Link not valid', undefined, '<div class="card"><h1>This link is not valid</h1><p>It may have expired, or been replaced by a newer one. Open the school\u2019s app, or ask the school to send it again.</p></div>');
  }
}

export function sendLinkPage(res: Response, page: LinkPage): void {
  res.status(page.status).set(PAGE_HEADERS).send(renderLinkPage(page));
}

/** The pages' paths: `/v/`, `/u/` and `/e/`, with or without a token. */
export const LINK_PAGE_PATH = /^\/[uve](?:\/|$)/;

/**
 * Whatever stops a page's request before its handler (a path no page has, a body that cannot be read,
 * the rate limit) answers as a page too, with its status: a parent opened it in a browser.
 */
export const linkPageErrors: ErrorRequestHandler = (err, req, res, next) => {
  if (!LINK_PAGE_PATH.test(req.path) || res.headersSent) return next(err);
  const refusal = toAppError(err);
  if (refusal.status >= 500) (req.log ?? console).error({ err }, 'request failed');
  // A token that cannot even be percent-decoded is an unknown one.
  if (err instanceof URIError) return sendLinkPage(res, { status: 404, page: 'missing' });
  for (const [name, value] of Object.entries(refusal.headers ?? {})) res.setHeader(name, value);
  sendLinkPage(res, refusal.status === 404 ? { status: 404, page: 'missing' } : { status: refusal.status, page: 'refused', message: refusal.message });
};
