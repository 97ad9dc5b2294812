/**
 * The floor any Fastify service stands on: a Fastify app answering `GET /api/health`
 * with Folio's body, nothing else. `npm run bench startup` starts it beside Folio
 * (PORT and HOST as Folio reads them) to compare cold starts and idle memory.
 */
import Fastify from 'fastify';
import process from 'node:process';

const app = Fastify();
app.get('/api/health', async () => ({ status: 'ok', version: '0.1.0' }));
await app.listen({ port: Number(process.env.PORT ?? 3000), host: process.env.HOST ?? '127.0.0.1' });
