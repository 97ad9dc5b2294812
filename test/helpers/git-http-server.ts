/**
 * A git smart-HTTP remote for tests: a tiny Node server running
 * `git http-backend` as a CGI over bare repositories under `projectRoot`.
 * Repository URLs are `${url}/<name>.git`.
 */
import { spawn } from 'node:child_process';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface GitHttpServer {
  /** `http://127.0.0.1:<port>`, no trailing slash. */
  url: string;
  close(): Promise<void>;
  /** While down, every request answers 503 (a remote that is unavailable). */
  setDown(down: boolean): void;
  /** Requests served so far, for assertions about whether the remote was contacted. */
  readonly requests: number;
}

export interface GitHttpServerOptions {
  /** When set, requests need this Basic auth; otherwise 401 with a challenge. */
  auth?: { username: string; password: string };
}

function authorised(req: IncomingMessage, auth: GitHttpServerOptions['auth']): string | null {
  if (!auth) return 'anonymous';
  const m = /^Basic (.+)$/i.exec(req.headers.authorization ?? '');
  if (!m?.[1]) return null;
  const decoded = Buffer.from(m[1], 'base64').toString('utf8');
  const sep = decoded.indexOf(':');
  const [user, pass] = [decoded.slice(0, sep), decoded.slice(sep + 1)];
  return sep > 0 && user === auth.username && pass === auth.password ? user : null;
}

/** Runs one CGI request through git http-backend and relays its response. */
function cgi(projectRoot: string, remoteUser: string, req: IncomingMessage, res: ServerResponse): void {
  const url = new URL(req.url ?? '/', 'http://localhost');
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    GIT_PROJECT_ROOT: projectRoot,
    GIT_HTTP_EXPORT_ALL: '1',
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: '/dev/null',
    PATH_INFO: decodeURIComponent(url.pathname),
    REQUEST_METHOD: req.method ?? 'GET',
    QUERY_STRING: url.search.replace(/^\?/, ''),
    CONTENT_TYPE: req.headers['content-type'] ?? '',
    // REMOTE_USER set is what lets http-backend accept receive-pack (push).
    REMOTE_USER: remoteUser,
    REMOTE_ADDR: req.socket.remoteAddress ?? '127.0.0.1',
  };
  if (req.headers['content-length']) env.CONTENT_LENGTH = req.headers['content-length'];
  if (req.headers['content-encoding']) env.HTTP_CONTENT_ENCODING = req.headers['content-encoding'];
  const protocol = req.headers['git-protocol'];
  if (typeof protocol === 'string') env.GIT_PROTOCOL = protocol;

  const child = spawn('git', ['http-backend'], { env, stdio: ['pipe', 'pipe', 'pipe'] });
  req.pipe(child.stdin);
  child.stdin.on('error', () => {});
  child.stderr.resume();

  let head = Buffer.alloc(0);
  let headersSent = false;
  child.stdout.on('data', (chunk: Buffer) => {
    if (headersSent) {
      res.write(chunk);
      return;
    }
    head = Buffer.concat([head, chunk]);
    const text = head.toString('latin1');
    const crlf = text.indexOf('\r\n\r\n');
    const lf = text.indexOf('\n\n');
    const end = crlf >= 0 && (lf < 0 || crlf < lf) ? crlf + 4 : lf >= 0 ? lf + 2 : -1;
    if (end < 0) return;
    let status = 200;
    for (const line of text.slice(0, end).split(/\r?\n/)) {
      const sep = line.indexOf(':');
      if (sep <= 0) continue;
      const name = line.slice(0, sep).trim();
      const value = line.slice(sep + 1).trim();
      if (name.toLowerCase() === 'status') status = Number.parseInt(value, 10) || 500;
      else res.setHeader(name, value);
    }
    res.statusCode = status;
    headersSent = true;
    res.write(head.subarray(end));
  });
  child.on('close', (code) => {
    if (!headersSent) {
      res.statusCode = 500;
      res.end(`http-backend exited ${code}`);
    } else res.end();
  });
}

/** Starts the server on 127.0.0.1 with an ephemeral port. */
export async function startGitHttpServer(
  projectRoot: string,
  options: GitHttpServerOptions = {},
): Promise<GitHttpServer> {
  let down = false;
  let requests = 0;
  const server = createServer((req, res) => {
    requests++;
    if (down) {
      req.resume();
      res.writeHead(503, { 'Content-Type': 'text/plain' }).end('down for maintenance');
      return;
    }
    const user = authorised(req, options.auth);
    if (user === null) {
      req.resume();
      res.writeHead(401, { 'WWW-Authenticate': 'Basic realm="git"', 'Content-Type': 'text/plain' }).end();
      return;
    }
    cgi(projectRoot, user, req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((e) => (e ? reject(e) : resolve()));
      }),
    setDown: (value) => {
      down = value;
    },
    get requests() {
      return requests;
    },
  };
}
