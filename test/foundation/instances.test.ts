/**
 * Several instances on one DATA_DIR: started at the same moment on an empty directory
 * they create one JWT key and one API-key pepper between them, so each accepts the
 * others' tokens and keys (PostgreSQL); relaying events over Redis, only the instance
 * that made an edit commits it; on SQLite a second server is refused at start.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { configFrom } from '../../src/config.js';
import { createFolio, type Folio } from '../../src/main.js';
import { runCli } from '../helpers/cli.js';
import { describeEachDatabase, TEST_REDIS_URL } from '../helpers/databases.js';
import { request, startServer, tempDir, testEnv, type TestServer } from '../helpers/server.js';

describeEachDatabase(
  'instances sharing a DATA_DIR and a database ($name)',
  (target) => {
    const started: Folio[] = [];
    const cleanups: Array<() => Promise<void>> = [];
    afterAll(async () => {
      await Promise.all(started.map((f) => f.close()));
      for (const cleanup of cleanups) await cleanup();
    });

    it('share one JWT key and pepper: a token or key from one works on the others', async () => {
      const db = await target.prepare();
      cleanups.push(db.cleanup);
      const dataDir = tempDir();
      const options = db.pgSchema ? { pgSchema: db.pgSchema } : {};
      // All three open the empty DATA_DIR at once: each would make its own keys if it could.
      const folios = await Promise.all(
        [0, 1, 2].map(() => createFolio(configFrom({ ...testEnv(dataDir), ...db.env }), options)),
      );
      started.push(...folios);
      const urls = (await Promise.all(folios.map((f) => f.listen()))).map((a) =>
        a.replace('0.0.0.0', '127.0.0.1'),
      );

      const registered = await request(urls[0]!, 'POST', '/api/auth/register', {
        body: {
          name: 'Ida Instance',
          email: 'ida@example.com',
          password: 'correct horse',
          terms_accepted: true,
        },
      });
      expect(registered.status).toBe(201);
      const token = registered.body.access_token as string;
      const key = (await request(urls[1]!, 'POST', '/api/v1/api-keys', { token, body: { name: 'ci' } })).body
        .key as string;
      for (const url of urls) {
        expect((await request(url, 'GET', '/api/auth/me', { token })).status, url).toBe(200);
        expect((await request(url, 'GET', '/api/v1/workspaces', { token: key })).status, url).toBe(200);
      }
      // One key file, one pepper file, and no temporary files left behind.
      const names = fs.readdirSync(dataDir);
      expect(names).toEqual(expect.arrayContaining(['jwt-private.pem', 'api-key-pepper']));
      expect(names.filter((n) => n.startsWith('.folio-tmp-'))).toEqual([]);
    }, 60_000);

    it.runIf(TEST_REDIS_URL)(
      'commit a batch of edits once, on the instance that made them',
      async () => {
        const db = await target.prepare();
        cleanups.push(db.cleanup);
        const dataDir = tempDir();
        const env = { ...testEnv(dataDir), ...db.env, REDIS_URL: TEST_REDIS_URL! };
        // The writer batches for 3 s; the other would commit 50 ms after any change it hears of.
        const [writer, other] = await Promise.all(
          [3_000, 50].map((gitCommitDebounceMs) =>
            createFolio(configFrom(env), {
              pgSchema: db.pgSchema!,
              gitCommitDebounceMs,
              // Redis keeps the counts of every run on this machine.
              rateLimits: { registration: { limit: 1_000_000 } },
            }),
          ),
        );
        started.push(writer!, other!);
        const [url] = await Promise.all([writer!.listen(), other!.listen()]).then((all) =>
          all.map((a) => a.replace('0.0.0.0', '127.0.0.1')),
        );
        const registered = await request(url!, 'POST', '/api/auth/register', {
          body: {
            name: 'Ida Instance',
            email: 'ida@example.com',
            password: 'correct horse',
            terms_accepted: true,
          },
        });
        const token = registered.body.access_token as string;
        expect(registered.status, registered.text).toBe(201);
        const ws = (await request(url!, 'GET', '/api/v1/workspaces', { token })).body.data[0];
        const tree = path.join(dataDir, 'workspaces', ws.id);
        // The repository is created with the first commit, in the background.
        const commits = (): string[] => {
          try {
            return execFileSync('git', ['-C', tree, 'log', '--format=%s'], {
              encoding: 'utf8',
              stdio: 'pipe',
            })
              .trim()
              .split('\n');
          } catch {
            return [];
          }
        };
        const settled = async () => {
          let last = commits().length;
          for (;;) {
            await new Promise((r) => setTimeout(r, 4_000));
            if (commits().length === last) return last;
            last = commits().length;
          }
        };
        await settled();
        expect(commits().filter((subject) => subject.startsWith('docs: update'))).toEqual([]);

        const page = `/api/v1/content/${ws.slug}/index.md`;
        let hash = (await request(url!, 'GET', page, { token })).body.content_hash as string;
        for (const body of ['First edit.', 'Second edit.']) {
          const saved = await request(url!, 'PUT', page, { token, body: { body, lastKnownHash: hash } });
          expect(saved.status).toBe(200);
          hash = saved.body.content_hash;
          await new Promise((r) => setTimeout(r, 500));
        }
        // The batch's commit comes 3 s after the first edit, later on a loaded machine; then
        // nothing more may follow it (the other instance must not commit the edits again).
        const committed = () => commits().filter((subject) => subject.startsWith('docs: update'));
        for (let waited = 0; committed().length === 0 && waited < 30_000; waited += 250) {
          await new Promise((r) => setTimeout(r, 250));
        }
        await settled();
        // (Opening the repository for the first commit may add one of its own, about .gitignore.)
        const updates = committed();
        expect(updates).toEqual(['docs: update Welcome to Folio']);
        expect(execFileSync('git', ['-C', tree, 'show', 'HEAD:index.md'], { encoding: 'utf8' })).toContain(
          'Second edit.',
        );
      },
      90_000,
    );
  },
  { only: 'postgres' },
);

describe('a second server on a SQLite DATA_DIR', () => {
  let server: TestServer | undefined;
  afterAll(() => server?.close());

  it('is refused at start with a message saying why', async () => {
    server = await startServer();
    const res = await runCli(['serve'], { DATA_DIR: server.dataDir, PORT: '0' });
    expect(res.code).toBe(1);
    expect(res.stderr).toContain(
      `Another Folio (pid ${process.pid}) is serving ${path.resolve(server.dataDir)}`,
    );
    expect(res.stderr).toContain('DATABASE_URL');
    // The running one is untouched.
    expect((await server.request('GET', '/api/health')).status).toBe(200);
  }, 60_000);
});
