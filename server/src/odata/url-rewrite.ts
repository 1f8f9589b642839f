/**
 * Fastify's `rewriteUrl` for the spec's OData-style paths, so routes are declared in plain form.
 * Only a last path segment shaped `Name(...)` is rewritten; everything else passes unchanged.
 *
 * @example
 *   Fastify({ rewriteUrl: (request) => rewriteODataUrl(request.url ?? '/') });
 *   rewriteODataUrl("/v1/tenants('3f25…')")                   // → /v1/tenants/3f25…
 *   rewriteODataUrl('/v1/workunits/GetWorkUnitHistoryRecords(workUnitId=5)?$top=10')
 *                                                             // → /v1/workunits/GetWorkUnitHistoryRecords?$top=10&workUnitId=5
 *   rewriteODataUrl('/v1/workunits/Export()')                 // → /v1/workunits/Export
 */
export function rewriteODataUrl(url: string): string {
  const queryStart = url.indexOf('?');
  const path = queryStart < 0 ? url : url.slice(0, queryStart);
  const query = queryStart < 0 ? '' : url.slice(queryStart + 1);
  const lastSlash = path.lastIndexOf('/');
  const call = /^([A-Za-z_][\w.]*)\((.*)\)$/s.exec(path.slice(lastSlash + 1));
  if (!call) return url;
  const [, name = '', encodedArgs = ''] = call;
  const target = `${path.slice(0, lastSlash + 1)}${name}`;
  let args: string;
  try {
    args = decodeURIComponent(encodedArgs);
  } catch {
    return url;
  }
  const withQuery = (extra: string) =>
    `${target}${[query, extra].some(Boolean) ? '?' : ''}${[query, extra].filter(Boolean).join('&')}`;
  if (args.trim() === '') return withQuery('');

  const parts = splitOutsideQuotes(args, ',');
  if (!parts) return url;
  const [first = ''] = parts;
  if (parts.length === 1 && splitOutsideQuotes(first, '=')?.length === 1) {
    const key = unquote(first);
    return !key ? url : `${target}/${encodeURIComponent(key)}${query ? `?${query}` : ''}`;
  }
  const params: string[] = [];
  for (const part of parts) {
    const [rawName = '', rawValue, ...rest] = splitOutsideQuotes(part, '=') ?? [];
    const value = rawValue === undefined || rest.length > 0 ? undefined : unquote(rawValue);
    if (!/^\s*[A-Za-z_]\w*\s*$/.test(rawName) || value === undefined) return url;
    params.push(`${encodeURIComponent(rawName.trim())}=${encodeURIComponent(value)}`);
  }
  return withQuery(params.join('&'));
}

/** Splits on `separator` outside '…' strings (where '' is an escaped quote); undefined if a quote is left open. */
function splitOutsideQuotes(text: string, separator: string): string[] | undefined {
  const parts: string[] = [];
  let quoted = false;
  let start = 0;
  for (let index = 0; index < text.length; index++) {
    if (text[index] === "'") quoted = !quoted;
    else if (!quoted && text[index] === separator) {
      parts.push(text.slice(start, index));
      start = index + 1;
    }
  }
  if (quoted) return undefined;
  parts.push(text.slice(start));
  return parts;
}

function unquote(raw: string): string | undefined {
  const text = raw.trim();
  if (!text.includes("'")) return text === '' ? undefined : text;
  const inner = /^'((?:[^']|'')*)'$/.exec(text)?.[1];
  return inner?.replace(/''/g, "'");
}
