/**
 * Zero acknowledged writes lost: many writers save pages of one workspace at once (their
 * saves applied in batches), the server is killed with SIGKILL while saves are in flight,
 * and after a restart every save that was answered is there, in the file and in the index.
 */
import fs from 'node:fs';
import { afterAll, expect, it } from 'vitest';
import { contentHash } from '../../src/domain/frontmatter.js';
import { describeEachDatabase } from '../helpers/databases.js';
import { eventually } from '../helpers/eventually.js';
import { serverProcess, type ServerProcess } from '../helpers/server-process.js';
import { type TestServer } from '../helpers/server.js';
import { firstWorkspace, registerUser } from '../helpers/users.js';
import { fileIn, pageUrl } from './content-helpers.js';

const WRITERS = 16;

describeEachDatabase('acknowledged saves survive kill -9 with concurrent writers ($name)', (target) => {
  let killable: ServerProcess | null = null;
  let cleanup: (() => Promise<void>) | undefined;
  afterAll(async () => {
    await killable?.kill();
    await cleanup?.();
  });

  it('keeps every answered save and every answered create of one workspace', async () => {
    const db = await target.prepare();
    cleanup = db.cleanup;
    const env: Record<string, string> = {};
    if (db.env.DATABASE_URL) {
      // The CLI has no schema option; PostgreSQL takes the search path from the URL.
      const url = new URL(db.env.DATABASE_URL);
      url.searchParams.set('options', `-c search_path=${db.pgSchema}`);
      env.DATABASE_URL = url.toString();
    }
    killable = await serverProcess({ env });
    await killable.start();
    const server = killable as unknown as TestServer;
    const owner = await registerUser(server);
    const ws = await firstWorkspace(server, owner);
    const url = (p: string) => pageUrl(ws.slug, p);
    const text = (writer: number, revision: number) => `Writer ${writer}, revision ${revision}.\n`;

    // Each writer saves its own page (in two folders) back to back and creates a page now and then.
    const pageOf = (w: number) => `${w % 2 ? 'odd' : 'even'}/writer-${w}.md`;
    const acked = Array.from({ length: WRITERS }, () => ({ revision: 0, created: [] as string[] }));
    for (let w = 0; w < WRITERS; w++) {
      const res = await server.request('POST', url(pageOf(w)), {
        token: owner.token,
        body: { title: `Writer ${w}`, body: text(w, 0) },
      });
      expect(res.status).toBe(201);
    }
    let answered = 0;
    let killed = false;
    let failure: unknown;
    const writer = async (w: number) => {
      let hash = contentHash(text(w, 0));
      for (let revision = 1; !killed; revision++) {
        try {
          const creating = revision % 5 === 0;
          const res = creating
            ? await server.request('POST', url(`new/w${w}-r${revision}.md`), {
                token: owner.token,
                body: { title: `New ${w} ${revision}`, body: text(w, revision) },
              })
            : await server.request('PUT', url(pageOf(w)), {
                token: owner.token,
                body: { body: text(w, revision), lastKnownHash: hash },
              });
          expect(res.status, res.text).toBe(creating ? 201 : 200);
          if (creating) acked[w]!.created.push(`new/w${w}-r${revision}.md`);
          else {
            acked[w]!.revision = revision;
            hash = res.body.content_hash;
          }
          answered++;
        } catch (error) {
          if (killed) return; // the connection died with the server: not acknowledged
          throw error;
        }
      }
    };
    const writing = Array.from({ length: WRITERS }, (_, w) =>
      writer(w).catch((error: unknown) => {
        failure ??= error;
      }),
    );
    // Killed mid-stream: enough saves answered that batches formed, more still in flight.
    await eventually(async () => {
      if (failure) throw failure;
      return answered >= WRITERS * 8;
    }, 60_000);
    killed = true;
    await killable.kill();
    await Promise.all(writing);
    expect(failure).toBeUndefined();

    await killable.start();
    for (let w = 0; w < WRITERS; w++) {
      const page = await server.request('GET', url(pageOf(w)), { token: owner.token });
      expect(page.status).toBe(200);
      // The last answered save, or one sent after it that landed before the kill.
      const found = Number(/revision (\d+)/.exec(page.body.content)?.[1]);
      expect(found, pageOf(w)).toBeGreaterThanOrEqual(acked[w]!.revision);
      expect(page.body.content_hash).toBe(contentHash(page.body.content));
      expect(fs.readFileSync(fileIn(server, ws.id, pageOf(w)), 'utf8')).toContain(page.body.content);
      // The index agrees: a save from the hash it answers is accepted.
      const next = await server.request('PUT', url(pageOf(w)), {
        token: owner.token,
        body: { body: text(w, 1_000_000), lastKnownHash: page.body.content_hash },
      });
      expect(next.status).toBe(200);
      for (const created of acked[w]!.created) {
        const res = await server.request('GET', url(created), { token: owner.token });
        expect(res.status, created).toBe(200);
      }
    }
    const tree = await server.request('GET', `/api/v1/content/${ws.slug}/tree`, { token: owner.token });
    const listed = JSON.stringify(tree.body);
    for (const { created } of acked) for (const p of created) expect(listed).toContain(p.split('/')[1]);
  }, 180_000);
});
