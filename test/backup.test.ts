import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createLogger } from '../src/logger.js';
import {
  backupName,
  BACKUPS_DIR,
  createBackups,
  MANIFEST,
  NO_DATABASE_NOTE,
} from '../src/services/operations/backups.js';
import { manualClock } from '../src/lib/clock.js';
import { openStore, type Store } from '../src/store/database.js';
import { runGit } from '../src/git/git.js';
import { runCli } from './helpers/cli.js';
import { describeEachDatabase, TEST_DATABASE_URL } from './helpers/databases.js';
import { eventually } from './helpers/eventually.js';
import { startServer, tempDir, type TestServer } from './helpers/server.js';
import { registerUser } from './helpers/users.js';
import { createPage, createWorkspace } from './helpers/workspace-access.js';

const silent = createLogger('silent');

/** Every file under `dir` (recursively, `.git` included) with its bytes, keyed by relative path. */
function treeOf(dir: string): Map<string, string> {
  const files = new Map<string, string>();
  const walk = (rel: string) => {
    for (const entry of fs.readdirSync(path.join(dir, rel), { withFileTypes: true })) {
      const child = path.join(rel, entry.name);
      if (entry.isDirectory()) walk(child);
      else if (entry.isFile()) files.set(child, fs.readFileSync(path.join(dir, child)).toString('base64'));
    }
  };
  walk('');
  return files;
}

describe('folio backup (CLI, SQLite, while the server runs)', () => {
  let server: TestServer;
  const emails: string[] = [];
  let workspaceId: string;

  beforeAll(async () => {
    server = await startServer();
    for (let i = 0; i < 2; i++) emails.push((await registerUser(server)).email);
    const owner = await registerUser(server);
    emails.push(owner.email);
    const ws = await createWorkspace(server, owner, 'backed-up');
    workspaceId = ws.id;
    await createPage(server, owner, ws, 'guides/setup', { title: 'Setup', body: 'Install it.' });
    await createPage(server, owner, ws, 'index', { title: 'Home', body: 'Welcome.' });
    // An API key, so DATA_DIR holds the pepper its hash needs (made with the first key).
    const key = await server.request('POST', '/api/v1/api-keys', {
      body: { name: 'ci' },
      token: owner.token,
    });
    expect(key.status).toBe(201);
    // Web changes are committed in the background; compare trees only once git is at rest.
    const tree = path.join(server.dataDir, 'workspaces', workspaceId);
    await eventually(async () => {
      const status = await runGit(tree, ['status', '--porcelain'], { env: { GIT_OPTIONAL_LOCKS: '0' } });
      return status.code === 0 && status.stdout === '' && !fs.existsSync(path.join(tree, '.git/index.lock'));
    });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('writes a snapshot whose database opens and whose workspace files match', async () => {
    const stale = path.join(server.dataDir, BACKUPS_DIR, '20000101T000000Z');
    const foreign = path.join(server.dataDir, BACKUPS_DIR, 'keep-me');
    fs.mkdirSync(stale, { recursive: true });
    fs.mkdirSync(foreign);

    const result = await runCli(['backup'], { DATA_DIR: server.dataDir });
    expect(result.stderr).toMatch(/folio\.db/);
    expect(result.code).toBe(0);
    const backup = result.stdout.trim();
    expect(path.dirname(backup)).toBe(path.join(server.dataDir, BACKUPS_DIR));
    expect(path.basename(backup)).toMatch(/^\d{8}T\d{6}Z$/);

    const db = new Database(path.join(backup, 'folio.db'), { readonly: true });
    try {
      const rows = db.prepare('select email from users').all() as Array<{ email: string }>;
      expect(rows.map((r) => r.email).sort()).toEqual([...emails].sort());
      expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
    } finally {
      db.close();
    }

    const source = treeOf(path.join(server.dataDir, 'workspaces', workspaceId));
    const copy = treeOf(path.join(backup, 'workspaces', workspaceId));
    expect([...source.keys()]).toEqual(expect.arrayContaining(['guides/setup.md', 'index.md']));
    expect([...source.keys()].some((k) => k.startsWith('.git/'))).toBe(true);
    expect(copy).toEqual(source);

    expect(fs.readFileSync(path.join(backup, 'api-key-pepper'), 'utf8')).toBe(
      fs.readFileSync(path.join(server.dataDir, 'api-key-pepper'), 'utf8'),
    );
    const manifest = JSON.parse(fs.readFileSync(path.join(backup, MANIFEST), 'utf8'));
    expect(manifest).toMatchObject({ dialect: 'sqlite', database: 'folio.db' });
    // Every workspace, the starter ones of each registration included.
    expect([...manifest.workspaces].sort()).toEqual(
      fs.readdirSync(path.join(server.dataDir, 'workspaces')).sort(),
    );
    expect(manifest.workspaces).toContain(workspaceId);

    // Pruning: the backup from 2000 is gone, a folder that is not a backup is left alone,
    // and no temp folder remains.
    const left = fs.readdirSync(path.join(server.dataDir, BACKUPS_DIR)).sort();
    expect(left).toEqual([path.basename(backup), 'keep-me'].sort());
  });

  it('refuses to run without a database and rejects unknown options', async () => {
    const empty = await runCli(['backup'], { DATA_DIR: tempDir() });
    expect(empty.code).toBe(1);
    expect(empty.stderr).toMatch(/no database/);
    expect((await runCli(['backup', '--frobnicate'], { DATA_DIR: server.dataDir })).code).toBe(2);
  });
});

describeEachDatabase('backup service on $name', (target) => {
  let store: Store;
  let dataDir: string;
  let cleanup: () => Promise<void>;

  beforeAll(async () => {
    const prepared = await target.prepare();
    cleanup = prepared.cleanup;
    dataDir = tempDir();
    store = await openStore({
      databaseUrl: prepared.env.DATABASE_URL,
      sqlitePath: path.join(dataDir, 'folio.db'),
      ...(prepared.pgSchema ? { pgSchema: prepared.pgSchema } : {}),
    });
    await store.migrate();
    const now = new Date().toISOString();
    await store.db
      .insertInto('users')
      .values({
        id: 'u1',
        email: 'restore-me@example.com',
        name: 'Restore Me',
        handle: 'restore-me',
        password_hash: null,
        is_platform_owner: 1,
        session_epoch: 0,
        failed_logins: 0,
        locked_until: null,
        created_at: now,
        updated_at: now,
      })
      .execute();
    fs.mkdirSync(path.join(dataDir, 'workspaces', 'w1', '.git'), { recursive: true });
    fs.writeFileSync(path.join(dataDir, 'workspaces', 'w1', 'page.md'), '---\ntitle: P\n---\nbody\n');
    fs.writeFileSync(path.join(dataDir, 'workspaces', 'w1', '.git', 'HEAD'), 'ref: refs/heads/main\n');
    // A commit in progress: git's lock file is not data and stays out of the backup.
    fs.writeFileSync(path.join(dataDir, 'workspaces', 'w1', '.git', 'index.lock'), '');
  });
  afterAll(async () => {
    await store.close();
    await cleanup();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  const backups = (over: { clock?: { now(): Date }; retentionDays?: number; intervalHours?: number } = {}) =>
    createBackups({
      dataDir,
      store,
      clock: over.clock ?? manualClock(),
      logger: silent,
      retentionDays: over.retentionDays ?? 7,
      intervalHours: over.intervalHours ?? 0,
    });

  it('includes the database and the workspace trees', async () => {
    const result = await backups().run();
    expect(result.workspaces).toBe(1);
    expect(fs.readFileSync(path.join(result.path, 'workspaces/w1/.git/HEAD'), 'utf8')).toBe(
      'ref: refs/heads/main\n',
    );
    expect(fs.existsSync(path.join(result.path, 'workspaces/w1/.git/index.lock'))).toBe(false);
    if (target.name === 'sqlite') {
      expect(result.database).toBe('folio.db');
      const db = new Database(path.join(result.path, 'folio.db'), { readonly: true });
      expect(db.prepare('select email from users').pluck().all()).toEqual(['restore-me@example.com']);
      db.close();
    } else {
      expect(result.database).toBe('dump.sql');
      const dump = fs.readFileSync(path.join(result.path, 'dump.sql'), 'utf8');
      expect(dump).toMatch(/CREATE TABLE [\w.]*users/);
      expect(dump).toContain('restore-me@example.com');
    }
  });

  it('prunes backups older than the retention period, by the injected clock', async () => {
    const clock = manualClock(new Date('2031-03-10T12:00:00Z'));
    const root = path.join(dataDir, BACKUPS_DIR);
    fs.rmSync(root, { recursive: true, force: true });
    for (const name of [
      '20310301T000000Z',
      '20310302T120000Z',
      '20310305T000000Z',
      '.tmp-20310308T000000Z-ab12',
    ]) {
      fs.mkdirSync(path.join(root, name), { recursive: true });
    }
    const service = backups({ clock, retentionDays: 7 });
    const pruned = await service.prune();
    expect(pruned.sort()).toEqual(
      ['.tmp-20310308T000000Z-ab12', '20310301T000000Z', '20310302T120000Z'].sort(),
    );
    expect(fs.existsSync(path.join(root, '20310305T000000Z'))).toBe(true);

    // The newest backup survives even when everything is past the retention period.
    clock.advance(365 * 24 * 3600_000);
    expect(await service.prune()).toEqual([]);
    const newest = (await service.list())[0]!;
    expect(newest).toBe('20310305T000000Z');
    expect(await backups({ clock, retentionDays: 0 }).prune()).toEqual([]);
  });

  it('takes a scheduled backup an hour after the server starts', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const clock = manualClock(new Date('2040-01-01T00:00:00Z'));
    fs.rmSync(path.join(dataDir, BACKUPS_DIR), { recursive: true, force: true });
    const service = backups({ clock, intervalHours: 24 });
    service.start();
    // start() reads the backups folder before arming its timer.
    await vi.waitFor(() => expect(vi.getTimerCount()).toBe(1));
    await vi.advanceTimersByTimeAsync(59 * 60_000);
    expect(await service.list()).toEqual([]);
    await vi.advanceTimersByTimeAsync(60_000);
    await vi.waitFor(async () => expect(await service.list()).toEqual([backupName(clock.now())]), {
      timeout: 10_000,
    });
    await service.stop();
  });
});

describeEachDatabase(
  'folio backup on $name without pg_dump',
  () => {
    it('writes a note instead of a dump, and still copies the workspaces', async () => {
      const dataDir = tempDir();
      fs.mkdirSync(path.join(dataDir, 'workspaces', 'w1'), { recursive: true });
      fs.writeFileSync(path.join(dataDir, 'workspaces', 'w1', 'a.md'), 'x');
      const result = await runCli(['backup'], {
        DATA_DIR: dataDir,
        DATABASE_URL: TEST_DATABASE_URL!,
        PATH: '/nonexistent',
      });
      expect(result.code).toBe(0);
      const backup = result.stdout.trim();
      expect(fs.readFileSync(path.join(backup, NO_DATABASE_NOTE), 'utf8')).toMatch(/pg_dump/);
      expect(fs.readFileSync(path.join(backup, 'workspaces/w1/a.md'), 'utf8')).toBe('x');
    });
  },
  { only: 'postgres' },
);
