/**
 * Co-editing: keystroke-to-remote latency over loopback, memory per open room
 * with a 5,000-line page, and 50 rooms with 3 writers each on one instance.
 * Writers are Node clients with their own Yjs documents on real `/ws`
 * sockets (the web app's protocol); "remote screen" is the other client's
 * document receiving the keystroke, before a browser would paint it.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import v8 from 'node:v8';
import vm from 'node:vm';
import WebSocket from 'ws';
import * as Y from 'yjs';
import { configFrom } from '../src/config.js';
import { createFolio } from '../src/main.js';
import { jsonClient, registerBenchUser } from './fixture.js';
import { percentile, report } from './report.js';

v8.setFlagsFromString('--expose_gc');
const gc = vm.runInNewContext('gc') as () => void;
const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64');

/** One writer: a socket in one room with its own document. */
class Writer {
  doc = new Y.Doc();
  onText: (() => void) | null = null;
  private constructor(
    private readonly socket: WebSocket,
    private readonly workspaceId: string,
    private readonly pagePath: string,
  ) {}

  static async join(base: string, cookie: string, workspaceId: string, pagePath: string): Promise<Writer> {
    const socket = new WebSocket(base.replace('http', 'ws') + '/ws', { headers: { cookie } });
    await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
    const writer = new Writer(socket, workspaceId, pagePath);
    const joined = new Promise<void>((resolve) => {
      socket.on('message', (data) => {
        const m = JSON.parse(String(data)) as Record<string, string>;
        if (m.type === 'yjs-joined') {
          Y.applyUpdate(writer.doc, Buffer.from(m.state!, 'base64'), 'server');
          resolve();
        } else if (m.type === 'yjs-update') {
          Y.applyUpdate(writer.doc, Buffer.from(m.update!, 'base64'), 'server');
          writer.onText?.();
        }
      });
    });
    socket.send(JSON.stringify({ type: 'yjs-join', workspace_id: workspaceId, path: pagePath }));
    await joined;
    return writer;
  }

  get text(): string {
    return this.doc.getText('body').toString();
  }

  type(text: string): void {
    const before = Y.encodeStateVector(this.doc);
    const ytext = this.doc.getText('body');
    ytext.insert(Math.floor(Math.random() * (ytext.length + 1)), text);
    const update = Y.encodeStateAsUpdate(this.doc, before);
    this.socket.send(
      JSON.stringify({
        type: 'yjs-update',
        workspace_id: this.workspaceId,
        path: this.pagePath,
        update: b64(update),
      }),
    );
  }

  close(): void {
    this.socket.close();
  }
}

const fiveThousandLines = () =>
  Array.from({ length: 5000 }, (_, i) => `Line ${i}: the quick brown fox jumps over the lazy dog.`).join(
    '\n',
  ) + '\n';

export async function benchCoedit(): Promise<void> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-bench-coedit-'));
  const config = configFrom({
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
  });
  const unlimited = { limit: 1_000_000_000 };
  const folio = await createFolio(config, {
    rateLimits: { contentRead: unlimited, contentWrite: unlimited, registration: unlimited, auth: unlimited },
  });
  const base = (await folio.listen()).replace('0.0.0.0', '127.0.0.1');
  const writers: Writer[] = [];
  try {
    const call = jsonClient(base);
    const token = await registerBenchUser(call);
    const ws = (
      (await call('GET', '/api/v1/workspaces', token)).data as Array<{ id: string; slug: string }>
    )[0]!;
    const res = await fetch(`${base}/api/auth/ws-token`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
    });
    const cookie = res.headers
      .getSetCookie()
      .find((c) => c.startsWith('svc_ws_token='))!
      .split(';')[0]!;
    const page = (p: string, body: string) => call('PUT', `/api/v1/content/${ws.slug}/${p}`, token, { body });

    // 1. Keystroke to the other writer's document, one key at a time.
    await page('latency.md', 'Latency page.\n');
    const a = await Writer.join(base, cookie, ws.id, 'latency.md');
    const b = await Writer.join(base, cookie, ws.id, 'latency.md');
    writers.push(a, b);
    const latencies: number[] = [];
    for (let i = 0; i < 520; i++) {
      const seen = new Promise<void>((resolve) => (b.onText = resolve));
      const t0 = performance.now();
      a.type('x');
      await seen;
      if (i >= 20) latencies.push(performance.now() - t0);
    }

    // 2. Memory of open rooms holding a 5,000-line page (clients' documents dropped).
    const rooms = 20;
    const text = fiveThousandLines();
    for (let i = 0; i < rooms; i++) await page(`big/p${i}.md`, text);
    gc();
    const heapBefore = process.memoryUsage().heapUsed;
    const bigWriters: Writer[] = [];
    for (let i = 0; i < rooms; i++) bigWriters.push(await Writer.join(base, cookie, ws.id, `big/p${i}.md`));
    for (const w of bigWriters) w.doc.destroy();
    for (const w of bigWriters) w.doc = new Y.Doc();
    gc();
    const perRoom = (process.memoryUsage().heapUsed - heapBefore) / rooms;
    writers.push(...bigWriters);

    // 3. 50 rooms, 3 writers each, each typing a key every 100 ms for 10 s.
    const busyRooms = 50;
    const crowd: Writer[][] = [];
    for (let r = 0; r < busyRooms; r++) {
      await page(`busy/r${r}.md`, `Room ${r}\n`);
      const three: Writer[] = [];
      for (let w = 0; w < 3; w++) three.push(await Writer.join(base, cookie, ws.id, `busy/r${r}.md`));
      crowd.push(three);
      writers.push(...three);
    }
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    let keys = 0;
    await new Promise<void>((resolve) => {
      const timer = setInterval(() => {
        for (const three of crowd) {
          for (const w of three) {
            w.type('k');
            keys++;
          }
        }
        if (performance.now() - t0 >= 10_000) {
          clearInterval(timer);
          resolve();
        }
      }, 100);
    });
    const converge0 = performance.now();
    const converged = () => crowd.every((three) => three.every((w) => w.text === three[0]!.text));
    while (!converged() && performance.now() - converge0 < 30_000)
      await new Promise((r) => setTimeout(r, 20));
    const convergeMs = performance.now() - converge0;
    const cpu = process.cpuUsage(cpu0);
    const elapsed = performance.now() - t0;
    const stats = await folio.rooms!.stats();

    report('coedit: `npm run bench coedit`', [
      {
        figure: 'keystroke to the other writer’s document over loopback, p50 / p99 (500 keys)',
        value: `${percentile(latencies, 50).toFixed(2)} / ${percentile(latencies, 99).toFixed(2)} ms`,
        goal: 'p99 < 50 ms',
      },
      {
        figure: 'JS heap per open room with a 5,000-line (275 KB) page, mean of 20',
        value: `${(perRoom / 1024 / 1024).toFixed(2)} MB`,
      },
      {
        figure: `50 rooms × 3 writers, a key each every 100 ms for 10 s (${keys} keys): all converged`,
        value: converged() ? `yes, ${convergeMs.toFixed(0)} ms after the last key` : 'NO',
      },
      {
        figure: '50 rooms × 3 writers: CPU of the process (server and the 150 clients) per wall second',
        value: `${((cpu.user + cpu.system) / 1000 / elapsed).toFixed(2)} cores`,
      },
      { figure: 'open rooms / sockets in rooms at the end', value: `${stats.rooms} / ${stats.peers}` },
    ]);
  } finally {
    for (const w of writers) w.close();
    await folio.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
