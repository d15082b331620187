/**
 * Secrets kept out of logs (docs/contract/operations.md, "Quotas and outbound rules": logs never show a password,
 * a key or a secret, in a URL or anywhere else). `serve --db postgres://user:password@host/db`
 * logged the password until issue 38.
 */

/** Query parameters that carry a credential in the URLs we are given (libpq's `password`, tokens). */
const SECRET_PARAMS = ['password', 'pass', 'passwd', 'token', 'secret', 'key', 'api_key', 'apikey', 'access_token', 'sslpassword'];

/**
 * A URL as it may be logged: without user and password, and with secret query parameters masked.
 * Anything that does not parse as a URL with a `//` authority (a SQLite path) is returned as given,
 * after `redactText`.
 */
export function redactUrl(value: string): string {
  if (!value.includes('://')) return value;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return redactText(value);
  }
  url.username = '';
  url.password = '';
  for (const name of [...url.searchParams.keys()]) {
    if (SECRET_PARAMS.includes(name.toLowerCase())) url.searchParams.set(name, '***');
  }
  return url.toString();
}

/**
 * Free text (an error message) with the credentials of any URL in it removed: `scheme://user:pw@host`
 * becomes `scheme://host`. Matches start only at `://` and stop at the next `/`, `@` or space, so
 * the cost is linear in the text.
 */
export function redactText(text: string): string {
  return text.replace(/:\/\/[^/\s@]*@/g, '://');
}
