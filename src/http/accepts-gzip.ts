import type { FastifyRequest } from 'fastify';

/** Whether the client takes a gzip-encoded body: `gzip` in Accept-Encoding, not refused with q=0. */
export function acceptsGzip(request: FastifyRequest): boolean {
  return String(request.headers['accept-encoding'] ?? '')
    .split(',')
    .some((part) => {
      const [coding, ...params] = part.split(';').map((s) => s.trim().toLowerCase());
      if (coding !== 'gzip') return false;
      const q = params.find((p) => p.startsWith('q='));
      return q === undefined || Number(q.slice(2)) > 0;
    });
}
