/**
 * Validation of a workspace's `git_remote` before Folio ever fetches from it.
 * A remote URL is user input that makes the server open connections and read
 * paths, so it is checked for server-side request forgery and local file access.
 *
 * Decisions: accepted are https, ssh (`ssh://` and scp-like `user@host:path`)
 * and, when the operator names a root for them, `file://` or absolute local
 * paths to a repository below that root. Refused are `git://`
 * (no encryption or authentication, so a pulled tree could be tampered with in
 * transit), `ext::`/`fd::` and any other transport helper (they run commands),
 * plain `http://` unless `allowPrivateHosts` (a test or trusted-LAN override),
 * and relative paths (they would depend on the server's working directory).
 * The host check runs at validation time; DNS may answer differently later
 * (rebinding), so this is a guard against mistakes and casual SSRF, not a sandbox.
 */
import { promises as dns } from 'node:dns';
import { lstat, realpath, stat } from 'node:fs/promises';
import { BlockList, isIP } from 'node:net';
import { isAbsolute, join, relative, resolve } from 'node:path';
import { invalid } from '../errors.js';

export type RemoteKind = 'file' | 'https' | 'ssh';

export interface ClassifiedRemote {
  /** 'https' covers plain http too when it was allowed: both are git's smart-HTTP transport. */
  kind: RemoteKind;
  /** The URL safe to show and store in listings: no password, and for http(s) no userinfo at all. */
  display: string;
}

/** Resolves a host name to its IP addresses. */
export type HostResolver = (host: string) => Promise<string[]>;

export interface ClassifyRemoteOptions {
  /**
   * GIT_FILE_REMOTE_ROOT when GIT_ALLOW_FILE_REMOTES is on: `file://` and absolute local
   * paths are accepted only for a repository below it. Undefined refuses every local remote.
   */
  fileRemoteRoot?: string | undefined;
  /** Local remotes inside it are always refused (they could expose other workspaces or keys). */
  dataDir: string;
  /** Skip the loopback/private address check and accept plain http (tests, trusted networks). */
  allowPrivateHosts?: boolean;
  /** Injectable for tests; defaults to `dns.promises.lookup(host, { all: true })`. */
  resolveHost?: HostResolver;
}

/** The real resolver: every address the system resolver returns for `host`. */
export const defaultResolveHost: HostResolver = async (host) =>
  (await dns.lookup(host, { all: true, verbatim: true })).map((a) => a.address);

let blockList: BlockList | undefined;
/** The blocked ranges, built on the first check (Node loads BlockList's code only then). */
function blocked(): BlockList {
  if (blockList) return blockList;
  blockList = new BlockList();
  for (const [net, prefix] of [
    ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16],
    ['172.16.0.0', 12], ['192.0.0.0', 24], ['192.0.2.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15],
    ['198.51.100.0', 24], ['203.0.113.0', 24], ['224.0.0.0', 4], ['240.0.0.0', 4],
  ] as const) blockList.addSubnet(net, prefix, 'ipv4'); // prettier-ignore
  for (const [net, prefix] of [
    ['::', 96], ['::1', 128], ['fc00::', 7], ['fe80::', 10], ['fec0::', 10], ['ff00::', 8], ['2001:db8::', 32],
  ] as const) blockList.addSubnet(net, prefix, 'ipv6'); // prettier-ignore
  return blockList;
}

/** The eight 16-bit groups of an IPv6 address (a trailing dotted IPv4 part included). */
function ipv6Groups(ip: string): number[] {
  let text = ip.toLowerCase();
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const parse = (part: string) => (part === '' ? [] : part.split(':').map((g) => Number.parseInt(g, 16)));
  const left = parse(head);
  const right = tail === undefined ? [] : parse(tail);
  return [...left, ...Array<number>(8 - left.length - right.length).fill(0), ...right];
}

const ipv4Of = (high: number, low: number): string => [high >> 8, high & 255, low >> 8, low & 255].join('.');

/**
 * The IPv4 address an IPv6 address carries to the same host, whatever the
 * spelling: NAT64 (64:ff9b::/96, RFC 6052) and 6to4 (2002::/16). URL parsers
 * rewrite `[64:ff9b::127.0.0.1]` as `[64:ff9b::7f00:1]`, so the groups are read,
 * never the text.
 */
function embeddedIPv4(groups: number[]): string | null {
  const g = (i: number) => groups[i] ?? 0;
  if (g(0) === 0x64 && g(1) === 0xff9b && [2, 3, 4, 5].every((i) => g(i) === 0)) return ipv4Of(g(6), g(7));
  if (g(0) === 0x2002) return ipv4Of(g(1), g(2));
  return null;
}

/** Translation prefixes whose far end Folio cannot see: local-use NAT64 (RFC 8215) and Teredo. */
const OPAQUE_IPV6 = (groups: number[]): boolean =>
  (groups[0] === 0x64 && groups[1] === 0xff9b && groups[2] === 1) ||
  (groups[0] === 0x2001 && groups[1] === 0);

/**
 * True for loopback, private, CGNAT, link-local (cloud metadata at
 * 169.254.169.254), multicast, reserved and documentation addresses, IPv4 or
 * IPv6, including IPv4-mapped (::ffff:a.b.c.d), NAT64 (64:ff9b::a.b.c.d in
 * either spelling) and 6to4 forms.
 */
export function isBlockedAddress(ip: string): boolean {
  const family = isIP(ip);
  if (family === 4) return blocked().check(ip, 'ipv4');
  if (family !== 6) return true; // not an address at all: refuse rather than guess
  const groups = ipv6Groups(ip);
  if (OPAQUE_IPV6(groups)) return true;
  const inner = embeddedIPv4(groups);
  if (inner !== null) return blocked().check(inner, 'ipv4');
  return blocked().check(ip, 'ipv6'); // BlockList applies IPv4 rules to IPv4-mapped addresses itself
}

/** Names that always mean this machine or a cloud metadata service. */
export const BLOCKED_NAMES = /^(localhost|.*\.localhost|metadata|metadata\.google\.internal|.*\.internal)$/i;

const refuse = (message: string): never => {
  throw invalid('git_remote', message);
};

async function assertPublicHost(hostname: string, options: ClassifyRemoteOptions): Promise<void> {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (host === '' || host.startsWith('-')) refuse('The git remote has no valid host');
  if (options.allowPrivateHosts) return;
  if (BLOCKED_NAMES.test(host)) refuse('The git remote must not point at a local or internal host');
  let addresses: string[];
  if (isIP(host)) addresses = [host];
  else {
    try {
      addresses = await (options.resolveHost ?? defaultResolveHost)(host);
    } catch {
      addresses = [];
    }
    if (addresses.length === 0) refuse(`The git remote's host ${host} cannot be resolved`);
  }
  if (addresses.some(isBlockedAddress)) {
    refuse('The git remote must not point at a loopback, private, link-local or metadata address');
  }
}

/** Whether `child` is `parent` or below it. */
const within = (child: string, parent: string): boolean => {
  const rel = relative(parent, child);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
};

const real = (p: string): Promise<string> => realpath(p).catch(() => resolve(p));

const isDirectory = (p: string): Promise<boolean> => stat(p).then((s) => s.isDirectory(), () => false); // prettier-ignore
const present = (p: string): Promise<boolean> => lstat(p).then(() => true, () => false); // prettier-ignore

/**
 * The git directory git itself would open for `dir` (a working tree's `.git`
 * folder, or `dir` when it is a bare repository), after refusing git's own
 * indirections: a `.git` file (`gitdir: …`), a `commondir` file and
 * `objects/info/alternates` each let a repository below the root read objects
 * from anywhere, another workspace included.
 */
async function gitDirOf(dir: string): Promise<string> {
  const dotGit = join(dir, '.git');
  if (await present(dotGit)) {
    if (!(await isDirectory(dotGit))) refuse('A local git remote must not use a gitdir file');
    return dotGit;
  }
  const bare = (await Promise.all(['HEAD', 'objects', 'refs'].map((f) => present(join(dir, f))))).every(
    Boolean,
  );
  if (!bare) refuse('The local git remote is not a git repository');
  return dir;
}

/** Whether `path` (resolved) lies below `root` (resolved) and outside DATA_DIR. */
async function confined(path: string, root: string, dataDir: string): Promise<boolean> {
  const target = await real(path);
  return within(target, root) && !within(target, dataDir);
}

async function classifyLocal(
  path: string,
  display: string,
  options: ClassifyRemoteOptions,
): Promise<ClassifiedRemote> {
  if (options.fileRemoteRoot === undefined) {
    refuse('Local and file:// git remotes are not allowed on this server');
  }
  if (!isAbsolute(path)) refuse('A local git remote must be an absolute path');
  // Compare both the literal and the symlink-resolved forms, so neither a link into DATA_DIR nor a linked DATA_DIR slips by.
  const [target, dataDir] = [resolve(path), resolve(options.dataDir)];
  const realDataDir = await real(dataDir);
  if (within(target, dataDir) || within(await real(target), realDataDir)) {
    refuse('A local git remote must not be inside the data directory');
  }
  const root = await real(resolve(options.fileRemoteRoot ?? '/'));
  if (!within(await real(target), root)) {
    refuse('A local git remote must be inside the directory the server allows for them');
  }
  if (!(await isDirectory(target))) refuse('The local git remote does not exist');
  const gitDir = await gitDirOf(target);
  if (await present(join(gitDir, 'commondir'))) refuse('A local git remote must not use a commondir file');
  for (const alternates of ['objects/info/alternates', 'objects/info/http-alternates']) {
    if (await present(join(gitDir, alternates))) refuse('A local git remote must not use alternates');
  }
  // A symlinked objects or refs folder is an alternates file by another name.
  for (const part of ['', 'objects', 'objects/pack', 'refs']) {
    if (!(await confined(join(gitDir, part), root, realDataDir))) {
      refuse('A local git remote must not link outside the directory the server allows for them');
    }
  }
  return { kind: 'file', display };
}

/**
 * Classifies and validates a git remote URL, throwing 400 VALIDATION_ERROR
 * (`details.field: 'git_remote'`) for anything Folio must not fetch from.
 */
export async function classifyRemote(url: string, options: ClassifyRemoteOptions): Promise<ClassifiedRemote> {
  const value = url.trim();
  // eslint-disable-next-line no-control-regex
  if (value === '' || value.startsWith('-') || /[\s\u0000-\u001f\u007f]/.test(value)) {
    return refuse('Invalid git remote');
  }
  if (/^[a-z][a-z0-9+.-]*::/i.test(value))
    return refuse('Git transport helpers (such as ext::) are not allowed');

  const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(value)?.[1]?.toLowerCase();
  if (scheme !== undefined) {
    let parsed: URL;
    try {
      parsed = new URL(value);
    } catch {
      return refuse('Invalid git remote URL');
    }
    if (scheme === 'file') {
      if (parsed.hostname !== '' && parsed.hostname !== 'localhost') refuse('file:// remotes must be local');
      return classifyLocal(decodeURIComponent(parsed.pathname), `file://${parsed.pathname}`, options);
    }
    if (scheme === 'https' || (scheme === 'http' && options.allowPrivateHosts)) {
      await assertPublicHost(parsed.hostname, options);
      return {
        kind: 'https',
        display: `${parsed.protocol}//${parsed.host}${parsed.pathname}${parsed.search}`,
      };
    }
    if (scheme === 'ssh' || scheme === 'git+ssh' || scheme === 'ssh+git') {
      await assertPublicHost(parsed.hostname, options);
      const user = parsed.username ? `${parsed.username}@` : '';
      return { kind: 'ssh', display: `ssh://${user}${parsed.host}${parsed.pathname}` };
    }
    if (scheme === 'http') return refuse('Use https:// for git remotes');
    if (scheme === 'git')
      return refuse('git:// remotes are unauthenticated and unencrypted; use https:// or ssh');
    return refuse(`Unsupported git remote scheme: ${scheme}`);
  }

  if (value.startsWith('/')) return classifyLocal(value, value, options);

  // scp-like syntax, as git reads it: a colon before any slash, e.g. git@github.com:org/docs.git
  const scp = /^(?:([^@/:]+)@)?(\[[^\]/]+\]|[^@/:[\]]+):(.*)$/.exec(value);
  if (scp) {
    await assertPublicHost(scp[2] ?? '', options);
    return { kind: 'ssh', display: value };
  }
  return refuse('A git remote must be an https:// or ssh URL, or an absolute local path');
}
