/** The `next` query parameter when it is a path of this app, else `/` (never another origin). */
export function nextPath(search: string): string {
  const next = new URLSearchParams(search).get('next');
  return next && next.startsWith('/') && !next.startsWith('//') ? next : '/';
}
