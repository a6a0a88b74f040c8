/**
 * What an SMS and an e-mail say, and how a channel carries the author's text: titles are stored as
 * they were sent, and what a channel cannot carry is removed here, never refused.
 */

export const SMS_MAX = 320;
const ELLIPSIS = '\u2026';

/** Every control character (C0, DEL and C1: CR and LF included), which a mail header must never carry. */
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/g;
const codePoints = (s: string) => [...s];

/** A header value: control characters removed. */
export const headerText = (s: string) => s.replace(CONTROL, '');

/** At most `n` code points of `s`, cut with an ellipsis when longer. */
export function cut(s: string, n: number): string {
  const chars = codePoints(s);
  return chars.length <= n ? s : n <= 0 ? '' : chars.slice(0, n - 1).join('') + ELLIPSIS;
}

/**
 * `<school>: <title> <link> Reply STOP to opt out.` in at most 320 code points: the title cut to what
 * fits (ending with an ellipsis) when the whole is longer; the school's name too when even an empty
 * title would not fit.
 */
export function smsBody(school: string, title: string, link: string): string {
  const name = school;
  const tail = ` ${link} Reply STOP to opt out.`;
  const text = title;
  const whole = `${name}: ${text}${tail}`;
  if (codePoints(whole).length <= SMS_MAX) return whole;
  const room = SMS_MAX - codePoints(`${name}: `).length - codePoints(tail).length;
  if (room >= 1) return `${name}: ${cut(text, room)}${tail}`;
  const nameRoom = SMS_MAX - codePoints(`: ${ELLIPSIS}${tail}`).length;
  return `${cut(name, nameRoom)}: ${ELLIPSIS}${tail}`;
}

/** A new parent's PIN set-up SMS: names the school (cut when needed) and carries the link, in at most 320 code points. */
export function pinSetupSms(school: string, why: string, days: number, url: string): string {
  const tail = `: ${why}. Set your parent app PIN within ${days} days: ${url}`;
  const room = SMS_MAX - codePoints(tail).length;
  return `${cut(school, Math.max(room, 1))}${tail}`;
}

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
/** Text for HTML: `& < > " '` as entities, so an author's markup shows as text. */
export const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => ENTITIES[c]!);
/** Escaped text with its line breaks kept. */
export const htmlParagraphs = (s: string) => escapeHtml(s).replace(/\r\n|\r|\n/g, '<br>\n');

export interface EmailContent {
  school: string;
  title: string;
  text: string;
  /** The post's web page. */
  link?: { url: string; label: string };
  unsubscribeUrl?: string;
}

/** The subject: `[<school>] <title>`, control characters removed (nodemailer encodes the rest as RFC 2047 words). */
export const emailSubject = (school: string, title: string) => headerText(`[${school}] ${title}`);

/** The e-mail's plain-text and HTML parts: the same title, text, link and unsubscribe footer, the HTML escaped. */
export function emailParts(c: EmailContent): { text: string; html: string } {
  const footer = c.unsubscribeUrl ? `You receive this from ${c.school} through the school platform. Unsubscribe: ${c.unsubscribeUrl}` : `Sent by ${c.school} through the school platform.`;
  const text = [c.title, '', c.text, ...(c.link ? ['', `${c.link.label}: ${c.link.url}`] : []), '', '--', footer].join('\n');
  const style = 'font-family:-apple-system,Segoe UI,Roboto,Arial,sans-serif;max-width:36em;margin:0 auto;padding:1em;color:#1f2933;line-height:1.5';
  const html = [
    '<!doctype html>',
    '<html><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeHtml(c.title)}</title></head>`,
    `<body style="${style}">`,
    `<p style="color:#52606d;margin:0">${escapeHtml(c.school)}</p>`,
    `<h1 style="font-size:1.4em">${escapeHtml(c.title)}</h1>`,
    `<p>${htmlParagraphs(c.text)}</p>`,
    ...(c.link ? [`<p><a href="${escapeHtml(c.link.url)}">${escapeHtml(c.link.label)}</a></p>`] : []),
    '<hr style="border:0;border-top:1px solid #d9e2ec">',
    c.unsubscribeUrl
      ? `<p style="font-size:.85em;color:#52606d">You receive this from ${escapeHtml(c.school)} through the school platform. <a href="${escapeHtml(c.unsubscribeUrl)}">Unsubscribe</a></p>`
      : `<p style="font-size:.85em;color:#52606d">Sent by ${escapeHtml(c.school)} through the school platform.</p>`,
    '</body></html>',
  ].join('\n');
  return { text, html };
}
