import { z } from 'zod';
import { postPage, unsubscribePage, verifyEmailPage } from '../../services/delivery/pages.js';
import type { Routers } from '../routers.js';
import { PAGE_HEADERS, renderLinkPage, sendLinkPage } from './link-page-html.js';

const tokenParam = z.object({ token: z.string().describe('The token of the link the message carried') });
const html = 'text/html; charset=utf-8';
const examplePost = renderLinkPage({ status: 200, page: 'post', school: 'Greenwood High', title: 'Sports day on Friday', text: 'Bring water and a cap.', date: '2026-11-20', label: 'Notice' });
const missing = 'Unknown or expired link: an HTML page saying so';
/** Whatever stops a page's request is answered as a page, with the reason in words. */
const refused = {
  400: 'A body that cannot be read: an HTML page saying so',
  404: missing,
  413: 'A body over 1 MiB: an HTML page saying so',
  429: 'Too many requests from this address (`Retry-After`): an HTML page saying so',
  500: 'A failure on our side: an HTML page saying so',
  503: 'The service is unavailable for now (`Retry-After`): an HTML page saying so',
};
const exampleOf = (page: 'unsubscribe' | 'unsubscribed' | 'verified') => renderLinkPage({ status: 200, page, school: 'Greenwood High', email: 'ravi@example.com' });
const pageHeaderList = Object.fromEntries(Object.entries(PAGE_HEADERS).filter(([name]) => name !== 'Content-Type').map(([name, value]) => [name, value]));
const pageHeaders =
  'Every answer of these pages, errors included, is `text/html; charset=utf-8` with `Cache-Control: no-store`, `X-Robots-Tag: noindex`, ' +
  "`Referrer-Policy: no-referrer` and a `Content-Security-Policy` that allows no script.";

export function registerLinkPageRoutes(r: Routers): void {
  r.root.publicRoute(
    {
      method: 'get', path: '/v/:token', auth: false, params: tokenParam, summary: 'A post\'s web page, from an SMS or an e-mail',
      description:
        'The activity or notice an SMS or e-mail told the family about (or the staff reply to their request), readable on a phone without the app: ' +
        'the school\'s name, the title, the text (HTML-escaped) and its date in the school\'s time zone. Opening the page of an activity or a notice ' +
        `records that parent's read (the first read is kept); \`HEAD\`, as link checkers send, records nothing. A link works for 30 days from its message. ${pageHeaders}`,
      produces: { type: html, description: 'The post', example: examplePost, headers: pageHeaderList, errors: { ...refused, 410: 'The post was deleted, or is no longer for this family: no read is recorded' } },
    },
    async ({ ctx, params, req, res }) => sendLinkPage(res, await postPage(ctx, params.token, req.method === 'GET')),
  );
  r.root.publicRoute(
    {
      method: 'get', path: '/u/:token', auth: false, params: tokenParam, summary: 'An e-mail\'s unsubscribe page (asks to confirm)',
      description: `Changes nothing (mail scanners open links): a page with a button that confirms by POST to the same URL. The link works for 90 days. ${pageHeaders}`,
      produces: { type: html, description: 'The confirmation page', example: exampleOf('unsubscribe'), headers: pageHeaderList, errors: refused },
    },
    async ({ ctx, params, res }) => sendLinkPage(res, await unsubscribePage(ctx, params.token, false)),
  );
  r.root.publicRoute(
    {
      method: 'post', path: '/u/:token', auth: false, params: tokenParam, form: true, summary: 'Unsubscribe from e-mail (one click, RFC 8058)',
      description:
        'Turns e-mail off for the parent the link was sent to (their `channels.email`), audited as `preference.update`; again: the same page. ' +
        `Mail clients send \`List-Unsubscribe=One-Click\`; the confirmation page's button sends the same. ${pageHeaders}`,
      // The link alone decides: whatever the field holds (mail clients send One-Click), an unknown token is the 404 page.
      body: z.object({ 'List-Unsubscribe': z.unknown().optional().describe('One-Click; any value, or none, is taken') }),
      example: { 'List-Unsubscribe': 'One-Click' },
      produces: { type: html, description: 'Unsubscribed', example: exampleOf('unsubscribed'), headers: pageHeaderList, errors: refused },
    },
    async ({ ctx, params, res }) => sendLinkPage(res, await unsubscribePage(ctx, params.token, true)),
  );
  r.root.publicRoute(
    {
      method: 'get', path: '/e/:token', auth: false, params: tokenParam, summary: 'Confirm a parent\'s e-mail address',
      description:
        'The link of the verification e-mail sent when a parent sets their address in the app (`PUT /parent-app/profile`): marks the address verified, ' +
        `audited as \`parent.update\`; opened again while it works, the same page; \`HEAD\` verifies nothing. 7 days; a link for an address since replaced is unknown. ${pageHeaders}`,
      produces: { type: html, description: 'The address is verified', example: exampleOf('verified'), headers: pageHeaderList, errors: refused },
    },
    async ({ ctx, params, req, res }) => sendLinkPage(res, await verifyEmailPage(ctx, params.token, req.method === 'GET')),
  );
}
