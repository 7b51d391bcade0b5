/** A URL as it may be printed: its password replaced by '***' (database and mail server URLs in messages and logs). */
export function redacted(url: string): string {
  try {
    const u = new URL(url);
    if (!u.password) return url;
    u.password = '***';
    return u.toString();
  } catch {
    // Not a URL for the parser (a bad port, say) — but it may still hold a password: user:password@
    return url.replace(/(\/\/[^/@:]*:)[^@/]*@/, '$1***@');
  }
}
