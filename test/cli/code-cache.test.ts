/**
 * The bundle run from V8's code cache (src/cli/code-cache.ts), as `bin/folio.js` runs it:
 * the first start saves the cache, later starts use it (V8 accepts it, so it is not
 * written again), packages loaded on first use still load from cached code, and a damaged
 * cache is compiled over and replaced, never fatal. Started as plain `node bin/folio.js` is,
 * the young generation's growth stopping on the way changes no cache's validity.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../helpers/ports.js';
import { request, tempDir, testEnv } from '../helpers/server.js';
import { registerUser } from '../helpers/users.js';
import { ensureServerBuilt } from '../helpers/web-app.js';

const ROOT = path.resolve(import.meta.dirname, '../..');

/** Polls `check` until it holds (a throw counts as not yet), or fails after `ms`. */
async function until(
  check: () => boolean | Promise<boolean>,
  ms = 10_000,
  what = 'condition',
): Promise<void> {
  const deadline = Date.now() + ms;
  while (
    !(await Promise.resolve()
      .then(check)
      .catch(() => false))
  ) {
    if (Date.now() > deadline) throw new Error(`${what}: not met in ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('the code cache', () => {
  // A copy of the server bundle of its own, inside the project so its packages resolve.
  const bundle = path.join(ROOT, 'node_modules', '.cache', `folio-code-cache-${process.pid}`);
  const cacheRoot = path.join(bundle, '.code-cache');
  const running: ChildProcess[] = [];

  beforeAll(async () => {
    await ensureServerBuilt();
    fs.cpSync(path.join(ROOT, 'dist'), bundle, {
      recursive: true,
      filter: (source) => !/[\\/](?:web|\.code-cache)$/.test(source),
    });
  }, 300_000);

  afterAll(async () => {
    for (const child of running) if (child.exitCode === null) child.kill('SIGKILL');
    fs.rmSync(bundle, { recursive: true, force: true });
  });

  /** `folio serve` through the loader, as bin/folio.js starts it; resolves once healthy. */
  async function serve(nodeFlags: string[] = []) {
    const port = await freePort();
    // As bin/folio.js: without a young generation size, it grows during the start and then
    // stops, a change of V8 flags that must not make V8 refuse the cache.
    const growYoungGeneration = !nodeFlags.some((flag) => flag.startsWith('--max-semi-space-size'));
    const launcher = `require(${JSON.stringify(path.join(bundle, 'code-cache.js'))}).runWithCodeCache(${JSON.stringify(path.join(bundle, 'folio.js'))}, { growYoungGeneration: ${growYoungGeneration} })`;
    const child = spawn(process.execPath, [...nodeFlags, '-e', launcher, 'serve'], {
      env: { PATH: process.env.PATH ?? '', ...testEnv(tempDir()), PORT: String(port) },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    running.push(child);
    let stderr = '';
    child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
    const url = `http://127.0.0.1:${port}`;
    await until(
      async () => {
        if (child.exitCode !== null) throw new Error(`folio serve exited: ${stderr}`);
        return (await fetch(`${url}/api/health`)).status === 200;
      },
      20_000,
      'healthy',
    );
    expect(child.exitCode, stderr).toBeNull();
    return {
      url,
      request: (method: string, urlPath: string, options?: Parameters<typeof request>[3]) =>
        request(url, method, urlPath, options),
      stderr: () => stderr,
      stop: async () => {
        child.kill('SIGTERM');
        await new Promise((resolve) => child.once('close', resolve));
      },
    };
  }

  /** Every cache file under a flavour directory, with its last change. */
  function cacheFiles(flavour: string): Map<string, number> {
    const dir = path.join(cacheRoot, flavour);
    const files = fs
      .readdirSync(dir, { recursive: true, encoding: 'utf8' })
      .filter((f) => f.endsWith('.bin'));
    return new Map(files.map((f) => [f, fs.statSync(path.join(dir, f)).mtimeMs]));
  }

  const flavours = () => (fs.existsSync(cacheRoot) ? fs.readdirSync(cacheRoot) : []);
  /** The directory of plain `node`'s caches, once the first start has made it. */
  let plainFlavour = '';

  it('is saved by the first start and used, not rewritten, by the next', async () => {
    const first = await serve();
    await until(() => flavours().length === 1);
    const [flavour] = flavours() as [string];
    plainFlavour = flavour;
    // Saved a while after the last file compiled: the chunks the start loaded come with it.
    const chunks = () => [...cacheFiles(flavour).keys()].filter((f) => f.startsWith('chunks')).length;
    await until(() => cacheFiles(flavour).has('folio.js.bin') && chunks() > 3, 20_000, 'the first save');
    await first.stop();
    const saved = cacheFiles(flavour);

    const second = await serve();
    // A package loaded on first use from cached code (jose signs the session's tokens).
    const user = await registerUser(second);
    expect(user.token).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
    await new Promise((resolve) => setTimeout(resolve, 3_000)); // past the loader's save
    expect(second.stderr()).toBe('');
    await second.stop();
    // Chunks the registration loaded are saved now; the files of the first start are untouched.
    const after = cacheFiles(flavour);
    expect([...saved.keys()].map((file) => [file, after.get(file)])).toEqual([...saved.entries()]);
  }, 60_000);

  it('keeps a cache of its own for other V8 flags', async () => {
    const before = flavours();
    const server = await serve(['--max-semi-space-size=2']);
    await until(() => flavours().length === before.length + 1);
    expect(flavours()).toEqual(expect.arrayContaining(before));
    await server.stop();
  }, 60_000);

  it('compiles over a damaged cache and replaces it', async () => {
    const file = path.join(cacheRoot, plainFlavour, 'folio.js.bin');
    const size = fs.statSync(file).size;
    fs.writeFileSync(file, Buffer.alloc(size, 7));
    const server = await serve();
    expect((await server.request('GET', '/api/health')).body.status).toBe('ok');
    await until(() => !fs.readFileSync(file).equals(Buffer.alloc(size, 7)));
    await server.stop();
  }, 60_000);
});
