/**
 * No request, of any size the limits accept, blocks the event loop for more than 100 ms.
 * The server runs in this process, so its loop is watched here (see `longestBlock`). The
 * client runs in a worker thread of its own (building the bodies, reading megabytes of
 * answers, parsing them), so what is measured is the server's work and nothing else: a
 * page of 60,000 wikilinks as Markdown, llms-full.txt and the quality report over a 9 MB
 * page, the write of a 9 MB page, and frontmatter of 15,000 keys written and read, and at
 * the limits, each measured on its own so a failure names the request.
 */
import fs from 'node:fs';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { Worker } from 'node:worker_threads';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from '../helpers/server.js';
import { registerUser, type TestUser } from '../helpers/users.js';
import { createPage, createWorkspace, type TestWorkspace } from '../helpers/workspace-access.js';
import { setSettings, startPublishing } from '../publishing/publishing-helpers.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- tests inspect arbitrary JSON */

const MAX_DELAY_MS = 100;

const SCHEDSTAT = `/proc/self/task/${process.pid}/schedstat`;

/** Nanoseconds this thread (the event loop's) has run on a CPU, where Linux tells it; else null. */
function loopThreadCpuNs(): number | null {
  try {
    return Number(fs.readFileSync(SCHEDSTAT, 'utf8').split(' ')[0]);
  } catch {
    return null;
  }
}

/**
 * Watches the event loop while `work` runs and answers the longest block in ms. The delay
 * the loop's timers see (`monitorEventLoopDelay`) is wall-clock time, which a machine
 * running other test files stretches; so on Linux a block is measured as the CPU time the
 * loop's thread spent between two turns of a 5 ms timer, which only the server's own work
 * makes long. Elsewhere the histogram's maximum is the measure.
 */
async function longestBlock<T>(
  work: () => Promise<T>,
): Promise<{ result: T; cpuMs: number | null; wallMs: number }> {
  const histogram = monitorEventLoopDelay({ resolution: 10 });
  let last = loopThreadCpuNs();
  let worstNs = 0;
  const turn = () => {
    const now = loopThreadCpuNs();
    if (now !== null && last !== null) worstNs = Math.max(worstNs, now - last);
    last = now;
  };
  const timer = setInterval(turn, 5);
  histogram.enable();
  let result: T;
  try {
    result = await work();
  } finally {
    turn();
    clearInterval(timer);
    histogram.disable();
  }
  const cpuMs = last === null ? null : Math.round(worstNs / 1e6);
  return { result, cpuMs, wallMs: Math.round(histogram.max / 1e6) };
}

/**
 * A full garbage collection, run before each measured request: the megabytes the previous
 * request left (a 9 MB body, its JSON, its copies) are collected outside the next one's
 * measurement rather than in the middle of it, so each request is charged for its own work.
 */
const collectGarbage: () => void = (() => {
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
})();

/** A request the client thread sends; `body` names a body it was given earlier. */
interface ClientRequest {
  method: string;
  path: string;
  token?: string;
  body?: string;
  /** Top-level fields of a JSON answer to send back (answers can be megabytes). */
  pick?: string[];
  /** Strings whose occurrences in the answer are counted. */
  count?: string[];
}

/** What comes back: never the whole answer, so receiving it costs this thread nothing. */
interface ClientAnswer {
  status: number;
  length: number;
  json: Record<string, any>;
  counts: Record<string, number>;
}

/** The client thread: plain JavaScript, bodies built from recipes, answers summarised. */
const CLIENT_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const bodies = new Map();
parentPort.on('message', async (msg) => {
  if (msg.define) {
    const text = msg.repeat ? msg.text.repeat(msg.repeat) : msg.text;
    const json = msg.json_field ? { ...msg.json, [msg.json_field]: text } : msg.json;
    bodies.set(msg.define, json ? JSON.stringify(json) : text);
    parentPort.postMessage({ id: msg.id });
    return;
  }
  try {
    const headers = {};
    if (msg.token) headers.authorization = 'Bearer ' + msg.token;
    if (msg.body) headers['content-type'] = 'application/json';
    const res = await fetch(workerData.url + msg.path, {
      method: msg.method, headers, body: msg.body ? bodies.get(msg.body) : undefined, redirect: 'manual',
    });
    const text = await res.text();
    const counts = {};
    for (const needle of msg.count || []) counts[needle] = text.split(needle).length - 1;
    let json = {};
    try {
      const parsed = JSON.parse(text);
      for (const key of msg.pick || []) json[key] = parsed[key];
    } catch {}
    parentPort.postMessage({ id: msg.id, answer: { status: res.status, length: text.length, json, counts } });
  } catch (err) {
    parentPort.postMessage({ id: msg.id, error: String(err) });
  }
});
`;

function startClient(url: string) {
  const worker = new Worker(CLIENT_SOURCE, { eval: true, workerData: { url } });
  let next = 1;
  const waiting = new Map<number, (reply: any) => void>();
  worker.on('message', (reply: { id: number }) => {
    waiting.get(reply.id)?.(reply);
    waiting.delete(reply.id);
  });
  const send = (msg: Record<string, unknown>) =>
    new Promise<any>((resolve) => {
      const id = next++;
      waiting.set(id, resolve);
      worker.postMessage({ ...msg, id });
    });
  return {
    /** Gives the client a body to send later: `json`, with `field` set to `text` repeated when named. */
    define: (name: string, recipe: { text?: string; repeat?: number; json?: object; field?: string }) =>
      send({
        define: name,
        text: recipe.text,
        repeat: recipe.repeat,
        json: recipe.json,
        json_field: recipe.field,
      }),
    async request(req: ClientRequest): Promise<ClientAnswer> {
      const reply = await send({ ...req });
      if (reply.error) throw new Error(reply.error);
      return reply.answer;
    },
    close: () => worker.terminate(),
  };
}

/**
 * Waits until the loop has been quiet for a moment: the fixtures' background work (search
 * indexing, commits) must not be counted against the requests measured after it.
 */
async function settle(): Promise<void> {
  for (let tries = 0; tries < 200; tries++) {
    const histogram = monitorEventLoopDelay({ resolution: 10 });
    histogram.enable();
    await new Promise((resolve) => setTimeout(resolve, 300));
    histogram.disable();
    if (histogram.max / 1e6 < 30) return;
  }
  throw new Error('the event loop never settled');
}

/** About 700 bytes of prose with headings, links (one dead), an image and code, as writers produce. */
const BLOCK = [
  '## Section',
  '',
  'Readers follow [[a]] and [the guide](a.md#intro), and sometimes [[missing page]] too. ' +
    'A sentence of ordinary length keeps the readability score honest. '.repeat(8),
  '',
  '![diagram](uploads/diagram.png)',
  '',
  '```js',
  'const x = "[[not a link]]";',
  '```',
  '',
].join('\n');
const NINE_MB_REPEAT = Math.ceil((9 * 1024 * 1024) / BLOCK.length);

describe('the event loop under hostile requests', () => {
  let server: TestServer;
  let client: ReturnType<typeof startClient>;
  let owner: TestUser;
  let ws: TestWorkspace;
  let warm: TestWorkspace;

  beforeAll(async () => {
    server = await startPublishing();
    client = startClient(server.url);
    owner = await registerUser(server);
    ws = await createWorkspace(server, owner, 'hostile');
    warm = await createWorkspace(server, owner, 'warm');
    for (const w of [ws, warm]) {
      await setSettings(server, owner, w, { public_site: true });
      await createPage(server, owner, w, 'a.md', {
        title: 'A',
        body: '# A\n\n## Intro\n\nHello.',
        publish: true,
      });
    }
    await createPage(server, owner, ws, 'links.md', {
      title: 'Links',
      body: '[[a]] '.repeat(60_000),
      publish: true,
    });
    await createPage(server, owner, ws, 'keys.md', { title: 'Keys', body: 'Many keys.', publish: true });
    await createPage(server, owner, ws, 'big.md', { title: 'Big', body: 'Soon big.', publish: true });
    // Frontmatter far over the limits arrives through git: written to the tree directly.
    const keysFile = path.join(server.dataDir, 'workspaces', ws.id, 'keys.md');
    const original = fs.readFileSync(keysFile, 'utf8');
    const keys = Array.from({ length: 15_000 }, (_, i) => `key${i}: value ${i}`).join('\n');
    fs.writeFileSync(keysFile, original.replace(/^---\n/, `---\n${keys}\n`));

    // The first use of each code path loads modules, starts workers and compiles the hot
    // code (YAML of many keys among it): done on a small site.
    const warmA = await server.request('GET', '/api/v1/content/warm/a.md', { token: owner.token });
    for (const req of [
      { method: 'GET', path: '/p/warm/a.md' },
      { method: 'GET', path: '/p/warm/llms-full.txt' },
      { method: 'GET', path: `/api/v1/workspaces/${warm.id}/quality`, token: owner.token },
    ]) {
      await client.request(req);
    }
    await client.define('warm', {
      text: 'Warm body. ',
      repeat: 10_000,
      json: {
        lastKnownHash: warmA.body.content_hash,
        frontmatter: Object.fromEntries(Array.from({ length: 500 }, (_, i) => [`warm${i}`, [i]])),
      },
      field: 'body',
    });
    expect(
      (
        await client.request({
          method: 'PUT',
          path: '/api/v1/content/warm/a.md',
          token: owner.token,
          body: 'warm',
        })
      ).status,
    ).toBe(200);
  }, 240_000);

  afterAll(async () => {
    await client?.close();
    await server?.close();
  });

  it('stays under 100 ms while they are answered', { timeout: 240_000 }, async () => {
    const a = await server.request('GET', '/api/v1/content/hostile/a.md', { token: owner.token });
    const big = await server.request('GET', '/api/v1/content/hostile/big.md', { token: owner.token });
    await client.define('manyKeys', {
      json: {
        lastKnownHash: a.body.content_hash,
        frontmatter: Object.fromEntries(Array.from({ length: 15_000 }, (_, i) => [`key${i}`, `value ${i}`])),
      },
    });
    // Near the limits: 991 keys and a list, about 13 KB of YAML.
    await client.define('atLimits', {
      json: {
        lastKnownHash: a.body.content_hash,
        frontmatter: {
          ...Object.fromEntries(Array.from({ length: 990 }, (_, i) => [`k${i}`, i])),
          list: Array.from({ length: 600 }, (_, i) => i),
        },
      },
    });
    // The largest body the 10 MB request limit lets through, written over a small page.
    await client.define('nineMegabytes', {
      text: BLOCK,
      repeat: NINE_MB_REPEAT,
      json: { lastKnownHash: big.body.content_hash },
      field: 'body',
    });
    await settle();

    // Per request, so a failure names the one that blocked.
    const blocked: Record<string, { cpuMs: number | null; wallMs: number }> = {};
    const measure = async (name: string, req: ClientRequest): Promise<ClientAnswer> => {
      collectGarbage();
      await settle();
      const { result, cpuMs, wallMs } = await longestBlock(() => client.request(req));
      blocked[name] = { cpuMs, wallMs };
      return result;
    };
    const api = (method: string, page: string, more: Partial<ClientRequest> = {}): ClientRequest => ({
      method,
      path: `/api/v1/content/hostile/${page}`,
      token: owner.token,
      ...more,
    });
    const pick = ['error', 'message', 'title', 'frontmatter_error', 'content_hash'];
    const results = {
      write: await measure('PUT of a 9 MB body', api('PUT', 'big.md', { body: 'nineMegabytes', pick })),
      links: await measure('60,000 wikilinks as .md', {
        method: 'GET',
        path: '/p/hostile/links.md',
        count: ['/p/hostile/a) [a]('],
      }),
      full: await measure('llms-full.txt with 9 MB', {
        method: 'GET',
        path: '/p/hostile/llms-full.txt',
        count: ['\nURL: '],
      }),
      quality: await measure('quality report with 9 MB', {
        method: 'GET',
        path: `/api/v1/workspaces/${ws.id}/quality`,
        token: owner.token,
        pick: ['issue_counts'],
      }),
      tooMany: await measure('PUT of 15,000 keys', api('PUT', 'a.md', { body: 'manyKeys', pick })),
      atLimits: await measure('PUT at the limits', api('PUT', 'a.md', { body: 'atLimits', pick })),
      keysRead: await measure('GET of 15,000 keys', api('GET', 'keys.md', { pick })),
      keysMarkdown: await measure('.md of 15,000 keys', {
        method: 'GET',
        path: '/p/hostile/keys.md',
        count: ['Many keys.'],
      }),
      limitsRead: await measure('GET at the limits', api('GET', 'a.md', { pick })),
    };

    expect(results.write.status).toBe(200);
    expect(results.write.length).toBeGreaterThan(9 * 1024 * 1024);
    expect(results.links.status).toBe(200);
    expect(results.links.counts['/p/hostile/a) [a](']).toBe(59_999);
    expect(results.full.status).toBe(200);
    expect(results.full.counts['\nURL: ']).toBe(4);
    expect(results.full.length).toBeGreaterThan(9 * 1024 * 1024);
    expect(results.quality.status).toBe(200);
    expect(results.quality.json.issue_counts.dead_link).toBeGreaterThan(NINE_MB_REPEAT - 1);
    expect(results.tooMany.status).toBe(400);
    expect(results.tooMany.json.error).toBe('VALIDATION_ERROR');
    expect(results.tooMany.json.message).toContain('at most 1,000 keys and 16 KB');
    expect(results.atLimits.status).toBe(200);
    expect(results.keysRead.status).toBe(200);
    // Read in lenient mode: the last good frontmatter, and why the file's was not used.
    expect(results.keysRead.json.title).toBe('Keys');
    expect(results.keysRead.json.frontmatter_error).toBe(
      'Frontmatter may hold at most 1,000 keys and 16 KB of YAML',
    );
    expect(results.keysMarkdown.status).toBe(200);
    expect(results.keysMarkdown.counts['Many keys.']).toBe(1);
    expect(results.limitsRead.status).toBe(200);
    expect(results.limitsRead.json.frontmatter_error).toBeNull();
    const written = fs.readFileSync(path.join(server.dataDir, 'workspaces', ws.id, 'a.md'), 'utf8');
    expect(written).toContain('\nk989: 989\n');
    expect(written).toContain('\n  - 599\n');
    // The 9 MB page is searchable: its text was indexed (in the render workers).
    const search = await server.request('GET', `/api/v1/workspaces/${ws.id}/search?q=readability`, {
      token: owner.token,
    });
    expect(search.body.results.map((r: { path: string }) => r.path)).toContain('big.md');

    const worst = Math.max(...Object.values(blocked).map((b) => b.cpuMs ?? b.wallMs));
    // In the log of every run, passed or not: how close each request came to the bound.
    console.info(`longest block per request (ms): ${JSON.stringify(blocked)}`);
    expect(worst, `longest block per request (ms): ${JSON.stringify(blocked)}`).toBeLessThan(MAX_DELAY_MS);
  });
});
