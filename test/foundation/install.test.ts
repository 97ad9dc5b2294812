/**
 * `npm ci` on the oldest Node that Folio supports must install cleanly: npm prints an
 * EBADENGINE warning for every locked package whose `engines.node` excludes the running
 * Node, and a newcomer reads that as a broken install. The lock file records each
 * package's engines, so checking it here catches a dependency bump that would warn.
 */
import fs from 'node:fs';
import path from 'node:path';
import semver from 'semver';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');

interface LockFile {
  packages: Record<string, { version?: string; engines?: { node?: string } | string[] }>;
}

const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
  engines: { node: string };
};
const lock = JSON.parse(fs.readFileSync(path.join(ROOT, 'package-lock.json'), 'utf8')) as LockFile;

describe('npm ci on the oldest supported Node', () => {
  const oldest = semver.minVersion(pkg.engines.node)?.version;

  it('names a minimum Node version in package.json', () => {
    expect(oldest).toMatch(/^20\./);
  });

  it('installs no package whose engines exclude that Node', () => {
    const refusing = Object.entries(lock.packages)
      .filter(([name]) => name !== '')
      .flatMap(([name, entry]) => {
        const range = Array.isArray(entry.engines) ? undefined : entry.engines?.node;
        if (!range || semver.satisfies(oldest!, range)) return [];
        return [`${name.replace(/^.*node_modules\//, '')}@${entry.version} needs node ${range}`];
      });
    expect(refusing).toEqual([]);
  });
});
