/**
 * Committing web edits and writing pages take different turns: a commit holds the
 * workspace's repository lock, a page write its page lock, so neither waits for the other.
 * Merges and conflict resolutions, which change the working tree too, hold both.
 */
import { afterEach, expect, it } from 'vitest';
import { runGit } from '../../src/git/git.js';
import { describeEachDatabase, type DatabaseTarget } from '../helpers/databases.js';
import { registerUser } from '../helpers/users.js';
import {
  type ContentServer,
  eventually,
  fileIn,
  pageUrl,
  startOn,
  starterWorkspace,
} from '../content/content-helpers.js';

/** Holds `run`'s lock until the returned release is called; resolves once it is held. */
async function hold(run: (fn: () => Promise<void>) => Promise<void>) {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let held!: () => void;
  const acquired = new Promise<void>((resolve) => (held = resolve));
  const done = run(async () => {
    held();
    await released;
  });
  await acquired;
  return async () => {
    release();
    await done;
  };
}

describeEachDatabase('commits and page writes take separate turns ($name)', (target: DatabaseTarget) => {
  let ctx: ContentServer;
  afterEach(() => ctx?.cleanup());

  it('commits while a page write holds the page lock, and saves while a commit holds the repository', async () => {
    ctx = await startOn(target, { gitCommitDebounceMs: 50 });
    const owner = await registerUser(ctx.server);
    const ws = await starterWorkspace(ctx.server, owner);
    const lock = ctx.server.folio.runtime.workspaceLock;
    // Before the first commit `git log` fails: no subjects yet.
    const subjects = async () =>
      (await runGit(fileIn(ctx.server, ws.id), ['log', '--format=%s'], { allowFailure: true })).stdout
        .trim()
        .split('\n');
    const as = (method: string, p: string, body?: unknown) =>
      ctx.server.request(method, pageUrl(ws.slug, p), { token: owner.token, body });

    const created = await as('POST', 'guide.md', { title: 'Guide', body: 'one' });
    expect(created.status).toBe(201);
    await eventually(async () => (await subjects()).includes('docs: create Guide'));

    // A save is waiting for its commit when a page write takes the page lock and keeps it:
    // the commit still lands.
    const saved = await as('PUT', 'guide.md', { body: 'two', lastKnownHash: created.body.content_hash });
    expect(saved.status).toBe(200);
    const releasePages = await hold((fn) => lock.run(ws.id, fn));
    const committed = await eventually(async () =>
      (await subjects()).filter((s) => s === 'docs: update Guide').length === 1 ? true : undefined,
    ).catch(() => false);
    await releasePages();
    expect(committed).toBe(true);

    // A commit holding the repository does not hold up a save.
    const releaseRepo = await hold((fn) => lock.run(`git:${ws.id}`, fn));
    const during = await Promise.race([
      as('PUT', 'guide.md', { body: 'three', lastKnownHash: saved.body.content_hash }),
      new Promise<'blocked'>((resolve) => setTimeout(() => resolve('blocked'), 10_000)),
    ]);
    const notYet = (await subjects()).filter((s) => s === 'docs: update Guide').length;
    await releaseRepo();
    expect(during === 'blocked' ? during : during.status).toBe(200);
    // Its commit waited for the repository and lands once it is free.
    expect(notYet).toBe(1);
    await eventually(async () => (await subjects()).filter((s) => s === 'docs: update Guide').length === 2);
  });
});
