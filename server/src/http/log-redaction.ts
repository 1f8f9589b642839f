/** Query parameters that carry sign-in material; their values never reach the request log. */
const SECRET_PARAMETERS = new Set([
  'code',
  'token',
  'id_token_hint',
  'password',
  'refresh_token',
  'access_token',
  'client_secret',
  'state',
  'session_state',
]);
/** Paths whose whole query string is sign-in material (the authorization response). */
const SECRET_QUERY_PATHS = ['/user/callback', '/user/silent-renew'];

/**
 * A request address as the log shows it: authorization codes, ID token hints and any other
 * sign-in parameter replaced by `[redacted]`.
 *
 * @example redactUrl('/user/callback?code=abc&state=x') // '/user/callback?[redacted]'
 */
export function redactUrl(url: string): string {
  const mark = url.indexOf('?');
  if (mark < 0) return url;
  const path = url.slice(0, mark);
  if (SECRET_QUERY_PATHS.some((prefix) => path.toLowerCase().startsWith(prefix))) return `${path}?[redacted]`;
  const params = new URLSearchParams(url.slice(mark + 1));
  let changed = false;
  for (const name of [...params.keys()]) {
    if (SECRET_PARAMETERS.has(name.toLowerCase())) {
      params.set(name, '[redacted]');
      changed = true;
    }
  }
  return changed ? `${path}?${params.toString()}` : url;
}
