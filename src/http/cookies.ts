import type { FastifyReply } from 'fastify';
import { ACCESS_TOKEN_SECONDS } from '../services/identity/index.js';
import { REFRESH_TOKEN_MS } from '../services/identity/index.js';

/** Cookie names. The WebSocket one is the API's exact name. */
export const COOKIES = {
  access: 'folio_access',
  refresh: 'folio_refresh',
  ws: 'svc_ws_token',
} as const;

/** Always Secure (browsers accept it on localhost), HttpOnly, SameSite=Strict, Path=/. */
const BASE = { httpOnly: true, secure: true, sameSite: 'strict', path: '/' } as const;

export function setSessionCookies(
  reply: FastifyReply,
  tokens: { access_token: string; refresh_token: string },
): void {
  reply.setCookie(COOKIES.access, tokens.access_token, { ...BASE, maxAge: ACCESS_TOKEN_SECONDS });
  reply.setCookie(COOKIES.refresh, tokens.refresh_token, { ...BASE, maxAge: REFRESH_TOKEN_MS / 1000 });
}

export function clearSessionCookies(reply: FastifyReply): void {
  for (const name of [COOKIES.access, COOKIES.refresh, COOKIES.ws]) reply.clearCookie(name, BASE);
}

export function setCookie(reply: FastifyReply, name: string, value: string, maxAgeSeconds: number): void {
  reply.setCookie(name, value, { ...BASE, maxAge: maxAgeSeconds });
}
