/**
 * The pieces every email of the portal is made of: the address check, escaped HTML paragraphs,
 * headings, fact tables and links, and the page around them. The Send Email action's templates
 * and the communications' notices compose their bodies from these, so every email looks alike and
 * every value in it is escaped the same way.
 *
 * @example
 *   const body = emailDocument(subject, [headerHtml('Contoso'), headingHtml('Internal notification'), tableHtml([['Title', title]]), footerHtml()]);
 */

// Deliberately plain: one @, no spaces or angle brackets, a dot in the domain. The SMTP server has the last word.
const EMAIL_ADDRESS = /^[^\s@<>,;"]+@[^\s@<>,;"]+\.[^\s@<>,;"]+$/;

export const isEmailAddress = (text: string): boolean => text.length <= 254 && EMAIL_ADDRESS.test(text);

/** Text made safe for HTML content and attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(
    /[&<>"']/g,
    (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[char] ?? char,
  );
}

export const paragraphHtml = (text: string): string =>
  `<p style="margin:0 0 12px">${escapeHtml(text).replace(/\r?\n/g, '<br>')}</p>`;

/** The small line above an email's content: whose email it is. */
export const headerHtml = (tenantName: string): string =>
  `<p style="margin:0 0 16px;font-size:12px;color:#757575">${escapeHtml(tenantName)} · CFS Portal</p>`;

export const headingHtml = (text: string): string =>
  `<h1 style="margin:0 0 16px;font-size:20px;font-weight:600">${escapeHtml(text)}</h1>`;

export const subheadingHtml = (text: string): string =>
  `<h2 style="margin:16px 0 8px;font-size:16px">${escapeHtml(text)}</h2>`;

/** Name and value rows, names in the first column; line breaks in values kept. */
export function tableHtml(rows: readonly (readonly [string, string])[]): string {
  const cells = rows
    .map(
      ([name, value]) =>
        `<tr><th align="left" valign="top" style="padding:4px 16px 4px 0;color:#616161;font-weight:600;white-space:nowrap">${escapeHtml(name)}</th><td style="padding:4px 0">${escapeHtml(value).replace(/\r?\n/g, '<br>')}</td></tr>`,
    )
    .join('');
  return `<table role="presentation" cellspacing="0" cellpadding="0" style="border-collapse:collapse;margin:0 0 16px;font-size:14px">${cells}</table>`;
}

/** Only http(s) links are written; anything else would be a script in a mail client's hands. */
const safeHref = (href: string) => (/^https?:\/\//i.test(href) ? escapeHtml(href) : '#');

export const linkHtml = (href: string, label: string): string =>
  `<p style="margin:16px 0"><a href="${safeHref(href)}" style="color:#1565c0">${escapeHtml(label)}</a></p>`;

export const footerHtml = (): string =>
  '<p style="margin:24px 0 0;font-size:12px;color:#9e9e9e">This message was sent by CFS Portal.</p>';

/** The whole HTML body around the composed parts. */
export function emailDocument(subject: string, parts: readonly string[]): string {
  return `<!DOCTYPE html><html><head><meta charset="utf-8"><title>${escapeHtml(subject)}</title></head><body style="margin:0;padding:0;background:#f5f5f5"><div style="max-width:640px;margin:0 auto;padding:24px;background:#ffffff;font-family:'Segoe UI',Arial,sans-serif;font-size:14px;line-height:1.5;color:#212121">${parts.join('')}</div></body></html>`;
}
