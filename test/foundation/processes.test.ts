/**
 * `folio serve` with FOLIO_PROCESSES=2 on PostgreSQL and Redis: a primary process and two
 * workers sharing one port. Which worker answered a request is read from the worker's
 * own request log line (its `pid` and the response's X-Request-ID); which one holds a
 * WebSocket from the kernel's socket table (/proc). The server runs from the TypeScript
 * sources, as the CLI suite does, so this checkout is what is tested, not an older build.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { folioCommand, runCli } from '../helpers/cli.js';
import { createPgSchema, TEST_DATABASE_URL, TEST_REDIS_URL } from '../helpers/databases.js';
import { eventually } from '../helpers/eventually.js';
import { freePort } from '../helpers/ports.js';
import { tempDir } from '../helpers/server.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
const services = Boolean(TEST_DATABASE_URL && TEST_REDIS_URL);
if (!services)
  console.warn(
    '[folio tests] TEST_DATABASE_URL or TEST_REDIS_URL is not set: the FOLIO_PROCESSES=2 suite is skipped.',
  );

interface LogLine {
  pid: number;
  msg: string;
  [field: string]: unknown;
}

interface WsMessage {
  type: string;
  path?: string;
}

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: any; // eslint-disable-line @typescript-eslint/no-explicit-any -- tests inspect arbitrary JSON
}

describe.runIf(services)('folio serve with FOLIO_PROCESSES=2 (PostgreSQL, Redis)', () => {
  let dataDir: string;
  let port: number;
  let primary: ChildProcess;
  let exited: Promise<number | null>;
  let stdout = '';
  let stderr = '';
  let dropSchema: (() => Promise<void>) | undefined;
  let databaseUrl: string;

  const lines = (): LogLine[] =>
    stdout.split('\n').flatMap((line) => {
      try {
        return [JSON.parse(line) as LogLine];
      } catch {
        return [];
      }
    });

  /** The primary's 'worker listening' lines: worker number -> pid of its latest process. */
  const workers = (): Map<number, number> =>
    new Map(
      lines()
        .filter((l) => l.pid === primary.pid && l.msg === 'worker listening')
        .map((l) => [l.worker as number, l.worker_pid as number]),
    );

  /** One request on a connection of its own, so the cluster hands each to the next worker. */
  const send = (method: string, urlPath: string, options: { token?: string; body?: unknown } = {}) =>
    new Promise<Answer>((resolve, reject) => {
      const payload = options.body === undefined ? undefined : JSON.stringify(options.body);
      const headers: Record<string, string> = {};
      if (options.token) headers.authorization = `Bearer ${options.token}`;
      if (payload) headers['content-type'] = 'application/json';
      const req = http.request(
        `http://127.0.0.1:${port}${urlPath}`,
        { method, headers, agent: false },
        (res) => {
          let text = '';
          res.on('data', (chunk: Buffer) => (text += chunk.toString()));
          res.on('end', () =>
            resolve({
              status: res.statusCode!,
              headers: res.headers,
              body: text ? JSON.parse(text) : undefined,
            }),
          );
        },
      );
      req.on('error', reject);
      req.end(payload);
    });

  /** The pid of the process that logged the request this answer answered. */
  const answeredBy = (answer: Answer) =>
    eventually(async () => lines().find((l) => l.request_id === answer.headers['x-request-id'])?.pid, 10_000);

  /** The pid among `pids` holding the server end of the loopback connection from `clientPort`. */
  const holderOf = (clientPort: number, pids: number[]): number | undefined => {
    const hexPort = (n: number) => `:${n.toString(16).toUpperCase().padStart(4, '0')}`;
    const row = fs
      .readFileSync('/proc/net/tcp', 'utf8')
      .split('\n')
      .map((line) => line.trim().split(/\s+/))
      .find((f) => f[1]?.endsWith(hexPort(port)) && f[2]?.endsWith(hexPort(clientPort)));
    const socket = `socket:[${row?.[9]}]`;
    return pids.find((pid) =>
      fs.readdirSync(`/proc/${pid}/fd`).some((fd) => {
        try {
          return fs.readlinkSync(`/proc/${pid}/fd/${fd}`) === socket;
        } catch {
          return false;
        }
      }),
    );
  };

  const register = async (name: string) => {
    const answer = await send('POST', '/api/auth/register', {
      body: {
        name,
        email: `${name}-${Date.now()}@example.com`,
        password: 'correct horse',
        terms_accepted: true,
      },
    });
    expect(answer.status).toBe(201);
    return { token: answer.body.access_token as string, answer };
  };

  beforeAll(async () => {
    const schema = await createPgSchema(TEST_DATABASE_URL!);
    dropSchema = schema.cleanup;
    // The CLI has no schema option; PostgreSQL takes the search path from the URL.
    const url = new URL(TEST_DATABASE_URL!);
    url.searchParams.set('options', `-c search_path=${schema.schema}`);
    databaseUrl = url.toString();
    dataDir = tempDir();
    port = await freePort();
    const [node, folio] = await folioCommand();
    primary = spawn(node, [folio, 'serve'], {
      cwd: ROOT,
      env: {
        PATH: process.env.PATH ?? '',
        HOME: process.env.HOME ?? '',
        FOLIO_PROCESSES: '2',
        DATA_DIR: dataDir,
        PORT: String(port),
        HOST: '127.0.0.1',
        DATABASE_URL: databaseUrl,
        REDIS_URL: TEST_REDIS_URL!,
        LOG_LEVEL: 'info',
        // Redis keeps the rate-limit counts of every run on this machine.
        RATE_LIMITS: 'registration=off,auth=off',
        ARGON2_MEMORY: '1024',
        ARGON2_TIME: '1',
        ARGON2_THREADS: '1',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    primary.stdout!.on('data', (d: Buffer) => (stdout += d.toString()));
    primary.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
    exited = new Promise((resolve) => primary.on('close', resolve));
    // Workers start from the TypeScript sources, one after the other: slow on a busy machine.
    await eventually(async () => {
      if (primary.exitCode !== null) throw new Error(`the server exited:\n${stderr}`);
      return workers().size === 2;
    }, 120_000);
  }, 150_000);

  afterAll(async () => {
    if (primary && primary.exitCode === null && primary.signalCode === null) {
      // Its workers end with it: their channel to the primary closes.
      primary.kill('SIGKILL');
      await exited;
    }
    await dropSchema?.();
  });

  it('answers requests from two worker processes, never from the primary', async () => {
    const pids = [...workers().values()];
    expect(new Set(pids).size).toBe(2);
    expect(pids).not.toContain(primary.pid);
    const answers = await Promise.all(Array.from({ length: 20 }, () => send('GET', '/api/ready')));
    expect(answers.map((a) => a.status)).toEqual(Array(20).fill(200));
    const answering = new Set(await Promise.all(answers.map(answeredBy)));
    expect([...answering].sort()).toEqual([...pids].sort());
  });

  it('accepts a token and an API key issued through one worker on every worker', async () => {
    const { token, answer } = await register('ida');
    const issuer = await answeredBy(answer);
    const created = await send('POST', '/api/v1/api-keys', { token, body: { name: 'ci' } });
    expect(created.status).toBe(201);
    const key = created.body.key as string;

    const answering = new Set<number>();
    for (let i = 0; i < 6; i++) {
      const me = await send('GET', '/api/auth/me', { token });
      const listed = await send('GET', '/api/v1/workspaces', { token: key });
      expect([me.status, listed.status]).toEqual([200, 200]);
      answering.add(await answeredBy(me)).add(await answeredBy(listed));
    }
    expect(answering).toEqual(new Set(workers().values()));
    expect([...answering]).toContain(issuer);
  });

  it('shows a page written through one worker to readers and WebSocket subscribers on the other', async () => {
    const { token } = await register('ada');
    const workspace = (await send('GET', '/api/v1/workspaces', { token })).body.data[0];
    const pids = [...workers().values()];

    // Cookies first: a request between two sockets would take every other connection.
    const cookies: string[] = [];
    for (let i = 0; i < 4; i++) {
      const cookie = await send('POST', '/api/auth/ws-token', { token });
      expect(cookie.status).toBe(204);
      cookies.push(String(cookie.headers['set-cookie']?.[0]).split(';')[0]!);
    }
    const subscribers: Array<{ socket: WebSocket; holder: number | undefined; messages: WsMessage[] }> = [];
    try {
      for (const pair of cookies) {
        const socket = new WebSocket(`ws://127.0.0.1:${port}/ws`, { headers: { cookie: pair } });
        let clientPort = 0;
        socket.once('upgrade', (res) => (clientPort = res.socket.localPort!));
        const messages: WsMessage[] = [];
        socket.on('message', (data) => messages.push(JSON.parse(String(data)) as WsMessage));
        await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
        socket.send(JSON.stringify({ type: 'subscribe', workspace_id: workspace.id }));
        await eventually(async () => messages.some((m) => m.type === 'subscribed'), 10_000);
        subscribers.push({ socket, holder: holderOf(clientPort, pids), messages });
      }
      expect(new Set(subscribers.map((s) => s.holder))).toEqual(new Set(pids));

      const created = await send('POST', `/api/v1/content/${workspace.slug}/across/workers.md`, {
        token,
        body: { title: 'Across workers', body: 'Written through one worker.' },
      });
      expect(created.status).toBe(201);
      const writer = await answeredBy(created);
      for (const subscriber of subscribers) {
        await eventually(
          async () =>
            subscriber.messages.some((m) => m.type === 'page-created' && m.path === 'across/workers.md'),
          10_000,
        );
      }

      // Read back until the other worker has answered.
      const readers = new Set<number>();
      for (let i = 0; i < 10 && !readers.has(pids.find((pid) => pid !== writer)!); i++) {
        const read = await send('GET', `/api/v1/content/${workspace.slug}/across/workers.md`, { token });
        expect(read.status).toBe(200);
        expect(read.body.title).toBe('Across workers');
        readers.add(await answeredBy(read));
      }
      expect([...readers]).toContain(pids.find((pid) => pid !== writer));
    } finally {
      for (const { socket } of subscribers) socket.terminate();
    }
  });

  it('restarts a worker killed with SIGKILL while the other keeps answering', async () => {
    const [survivor, victim] = [workers().get(1)!, workers().get(2)!];
    process.kill(victim, 'SIGKILL');
    await eventually(async () =>
      lines().some(
        (l) => l.pid === primary.pid && l.msg === 'worker died; restarting it' && l.worker_pid === victim,
      ),
    );
    for (let i = 0; i < 10; i++) {
      const answer = await send('GET', '/api/ready');
      expect(answer.status).toBe(200);
      expect(await answeredBy(answer)).not.toBe(victim);
    }

    const replacement = await eventually(async () => {
      const pid = workers().get(2);
      return pid !== victim && pid;
    }, 60_000);
    // The replacement listens before its start-up reconciliation ends, and answers /api/ready
    // with 503 until then (`reconciling`); the survivor answers 200 throughout.
    const answering = new Set<number>();
    const deadline = Date.now() + 30_000;
    while (!answering.has(replacement) && Date.now() < deadline) {
      const answer = await send('GET', '/api/ready');
      const by = await answeredBy(answer);
      if (by === replacement && answer.status === 503) {
        expect(answer.body.checks.reconciling.status).toBe('fail');
        continue;
      }
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      answering.add(by);
    }
    expect(answering).toEqual(new Set([survivor, replacement]));
  }, 90_000);

  it('stops every worker on SIGTERM to the primary and exits 0', async () => {
    const pids = [...workers().values()];
    primary.kill('SIGTERM');
    expect(await exited).toBe(0);
    for (const pid of pids) {
      expect(() => process.kill(pid, 0), `worker ${pid}`).toThrow();
      expect(lines().some((l) => l.pid === pid && l.msg === 'shutting down')).toBe(true);
    }
    // Each worker released its lock on DATA_DIR on the way out (the killed one's is stale, ignored).
    const locks = fs.readdirSync(path.join(dataDir, 'run'));
    for (const pid of pids) expect(locks).not.toContain(`server-${pid}.lock`);
    expect(stderr).toBe('');
  }, 60_000);

  it('says in one line that the port is in use, as one process does, and exits 1', async () => {
    const busy = net.createServer();
    const busyPort = await freePort();
    await new Promise<void>((resolve) => busy.listen(busyPort, '127.0.0.1', resolve));
    try {
      const env = {
        FOLIO_PROCESSES: '2',
        DATA_DIR: tempDir(),
        PORT: String(busyPort),
        HOST: '127.0.0.1',
        DATABASE_URL: databaseUrl,
        REDIS_URL: TEST_REDIS_URL!,
      };
      const res = await runCli(['serve'], env, { timeoutMs: 60_000 });
      expect(res.code).toBe(1);
      expect(res.stderr).toBe(`folio: port ${busyPort} is in use; set PORT\n`);
    } finally {
      busy.close();
    }
  }, 90_000);
});

describe('folio serve with FOLIO_PROCESSES=2 on SQLite or without Redis', () => {
  it.each([
    ['DATABASE_URL', { REDIS_URL: 'redis://127.0.0.1:1' }],
    ['REDIS_URL', { DATABASE_URL: 'postgres://folio@127.0.0.1:1/folio' }],
  ])('without %s, refuses to start in one sentence and exits 1', async (_missing, env) => {
    const res = await runCli(['serve'], { FOLIO_PROCESSES: '2', DATA_DIR: tempDir(), ...env });
    expect(res.code).toBe(1);
    expect(res.stderr).toBe(
      'folio: FOLIO_PROCESSES asks for 2 processes, which must share PostgreSQL and Redis: ' +
        'set DATABASE_URL and REDIS_URL, or FOLIO_PROCESSES=1.\n',
    );
  });
});
