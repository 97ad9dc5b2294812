import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import type { Actor } from '../../domain/actor.js';
import { CAN } from '../../domain/policy.js';
import { invalid } from '../../errors.js';
import { generateDeployKey, writePrivateKeyFile } from '../../git/deploy-key.js';
import { runGit, type GitAuth } from '../../git/git.js';
import type { WorkspaceLock } from '../../git/lock.js';
import { classifyRemote, type ClassifiedRemote } from '../../git/remote-url.js';
import type { Store } from '../../store/database.js';
import * as syncState from '../../store/repositories/sync-state.js';
import * as workspacesTable from '../../store/repositories/workspaces.js';
import type { WorkspaceRow } from '../../store/schema.js';
import type { AccessService } from '../access.js';
import { actorIdOf, record } from '../activity.js';
import type { Clock } from '../../lib/clock.js';
import type { RepoOpener } from './repo-opener.js';
import { classifyRemoteFor, type RemoteRules } from '../workspaces/remote-rules.js';
import { createSecretBox } from '../../lib/secret-box.js';
import { knownHostsFile } from './state.js';
import { saveWorkspaceMeta } from '../workspaces/records.js';

export const gitCredentialsInput = z.object({
  username: z.string({ error: 'username is required' }).trim().min(1, 'username is required').max(256),
  password: z.string({ error: 'password is required' }).min(1, 'password is required').max(4096),
});

export const gitRemoteInput = z.object({
  git_remote: z.string().trim().max(2048).nullable(),
  git_branch: z.string().trim().min(1).max(255).optional(),
});

export interface GitRemoteDeps {
  store: Store;
  clock: Clock;
  access: AccessService;
  lock: WorkspaceLock;
  /** The sync engine's network lock: a remote never changes under a running fetch or push. */
  network: WorkspaceLock;
  repos: RepoOpener;
  dataDir: string;
  /** What the remote may be; checked when it is set and again before each fetch and push. */
  rules: RemoteRules;
  /** Called under the lock when the remote changes: conflicts with the old remote no longer apply. */
  onRemoteChanged: (workspaceId: string) => Promise<void>;
}

/** The public half of a workspace's deploy key, for the admin to add to the git host. */
export interface DeployKeyRecord {
  workspace_id: string;
  public_key: string;
  fingerprint: string;
}

const KEYS_DIR = 'git-keys';

/** A branch name git accepts (check-ref-format), never one read as an option. */
async function assertBranch(branch: string): Promise<void> {
  const ok =
    !branch.startsWith('-') &&
    (await runGit(tmpdir(), ['check-ref-format', `refs/heads/${branch}`], { allowFailure: true })).code === 0;
  if (!ok) throw invalid('git_branch', `Invalid branch name: ${branch}`);
}

/**
 * A workspace's remote and how Folio authenticates to it: HTTPS credentials
 * (stored encrypted, never returned or logged), a per-workspace SSH deploy key
 * (private half 0600 under DATA_DIR/git-keys, outside every working tree), and
 * changing the remote itself. Every remote is checked by `classifyRemote` when
 * set and again before each use (a host's DNS may have changed since).
 */
export function createGitRemote(deps: GitRemoteDeps) {
  const db = deps.store.db;
  // The workspace id is the sealed context: a ciphertext copied to another workspace's row fails to open.
  const box = createSecretBox(path.join(deps.dataDir, 'git-credentials.key'));
  const seal = box.seal;
  const open = box.open;

  const keyDir = (workspaceId: string) => path.join(deps.dataDir, KEYS_DIR, workspaceId);

  /** The workspace's deploy key, generated on first use (under the lock, so once). */
  async function ensureDeployKey(
    workspaceId: string,
  ): Promise<{ privateKeyPath: string; publicKey: string; fingerprint: string }> {
    const dir = keyDir(workspaceId);
    const privateKeyPath = path.join(dir, 'id_ed25519');
    const read = async () => {
      const line = (await readFile(`${privateKeyPath}.pub`, 'utf8')).trim();
      const fingerprint = (await readFile(path.join(dir, 'fingerprint'), 'utf8').catch(() => '')).trim();
      return { privateKeyPath, publicKey: line, fingerprint };
    };
    try {
      return await read();
    } catch {
      // Not generated yet.
    }
    return deps.lock.run(workspaceId, async () => {
      try {
        return await read();
      } catch {
        await mkdir(dir, { recursive: true, mode: 0o700 });
        const key = generateDeployKey(`folio-${workspaceId}`);
        await writePrivateKeyFile(privateKeyPath, key.privateKeyPem);
        await writeFile(path.join(dir, 'fingerprint'), `${key.fingerprint}\n`);
        // The public half last: its presence means the pair is complete.
        await writeFile(`${privateKeyPath}.pub`, `${key.publicKeyOpenSsh}\n`);
        return read();
      }
    });
  }

  const classify = (url: string): Promise<ClassifiedRemote> => classifyRemote(url, deps.rules);

  return {
    classify,

    /**
     * How to authenticate to the workspace's remote, re-validating it first
     * (400 VALIDATION_ERROR when it is no longer acceptable): HTTPS
     * credentials if set, the deploy key for SSH, nothing for file remotes.
     */
    async authFor(ws: Pick<WorkspaceRow, 'id' | 'git_remote'>): Promise<GitAuth | undefined> {
      if (!ws.git_remote) return undefined;
      const { kind } = await classify(ws.git_remote);
      if (kind === 'ssh') {
        const key = await ensureDeployKey(ws.id);
        return {
          kind: 'ssh',
          privateKeyPath: key.privateKeyPath,
          knownHostsPath: knownHostsFile(deps.dataDir, ws.id),
        };
      }
      if (kind !== 'https') return undefined;
      const row = await syncState.findSyncCredentials(db, ws.id);
      if (!row?.git_username || !row.git_password) return undefined;
      return { kind: 'https', username: row.git_username, password: await open(ws.id, row.git_password) };
    },

    /** Admins: stores HTTPS credentials for the remote. The password is never shown again. */
    async setCredentials(actor: Actor, idOrSlug: string, input: z.infer<typeof gitCredentialsInput>) {
      const { workspace } = await deps.access.require(actor, idOrSlug, CAN.administer);
      const now = deps.clock.now().toISOString();
      const fields = {
        git_username: input.username,
        git_password: await seal(workspace.id, input.password),
        credentials_updated_at: now,
        updated_at: now,
      };
      await db.transaction().execute(async (trx) => {
        await syncState.upsertSyncRecord(trx, workspace.id, fields);
        await record(trx, {
          workspaceId: workspace.id,
          action: 'git_credentials_updated',
          actorId: actorIdOf(actor),
          at: now,
          details: { username: input.username },
        });
      });
      return { workspace_id: workspace.id, username: input.username, has_password: true, updated_at: now };
    },

    /** Admins: forgets the HTTPS credentials. */
    async clearCredentials(actor: Actor, idOrSlug: string): Promise<void> {
      const { workspace } = await deps.access.require(actor, idOrSlug, CAN.administerDelete);
      await syncState.clearSyncCredentials(db, workspace.id, deps.clock.now().toISOString());
    },

    /**
     * Admins: forgets the SSH host key trusted for the remote, so the next
     * fetch trusts the key the server shows then (after the git host replaced
     * its key). Answers the workspace id.
     */
    async resetHostKey(actor: Actor, idOrSlug: string): Promise<string> {
      const { workspace } = await deps.access.require(actor, idOrSlug, CAN.administerDelete);
      await deps.network.run(workspace.id, async () => {
        await rm(knownHostsFile(deps.dataDir, workspace.id), { force: true });
        await record(db, {
          workspaceId: workspace.id,
          action: 'git_host_key_reset',
          actorId: actorIdOf(actor),
          at: deps.clock.now().toISOString(),
          details: { git_remote: workspace.git_remote },
        });
      });
      return workspace.id;
    },

    /** Admins: the deploy key's public line (generated on first request) to add to the git host. */
    async deployKey(actor: Actor, idOrSlug: string): Promise<DeployKeyRecord> {
      const { workspace } = await deps.access.require(actor, idOrSlug, CAN.readAdmin);
      const key = await ensureDeployKey(workspace.id);
      return { workspace_id: workspace.id, public_key: key.publicKey, fingerprint: key.fingerprint };
    },

    /**
     * Admins: connects, changes or (with null) disconnects the remote and/or
     * branch. The URL is validated (400 VALIDATION_ERROR) and stored without
     * credentials; open conflicts with the old remote are set aside.
     */
    async setRemote(actor: Actor, idOrSlug: string, input: z.infer<typeof gitRemoteInput>): Promise<string> {
      const { workspace } = await deps.access.require(actor, idOrSlug, CAN.administer);
      const gitRemote = input.git_remote
        ? (await classifyRemoteFor(actor, input.git_remote, deps.rules)).display
        : null;
      const gitBranch = input.git_branch ?? workspace.git_branch;
      await assertBranch(gitBranch);
      const now = deps.clock.now().toISOString();
      await deps.network.run(workspace.id, () =>
        deps.lock.run(workspace.id, async () => {
          const updated = { ...workspace, git_remote: gitRemote, git_branch: gitBranch, updated_at: now };
          const changed = gitRemote !== workspace.git_remote || gitBranch !== workspace.git_branch;
          // Removing origin drops its tracking refs: what the old remote had says nothing about the new one.
          if (changed) await (await deps.repos.open(workspace)).setRemote(null);
          await deps.repos.open(updated);
          await db.transaction().execute(async (trx) => {
            await workspacesTable.updateRemote(trx, workspace.id, {
              git_remote: gitRemote,
              git_branch: gitBranch,
              updated_at: now,
            });
            await record(trx, {
              workspaceId: workspace.id,
              action: 'git_remote_changed',
              actorId: actorIdOf(actor),
              at: now,
              details: { git_remote: gitRemote, git_branch: gitBranch },
            });
          });
          await saveWorkspaceMeta(db, deps.dataDir, updated);
          if (changed) await deps.onRemoteChanged(workspace.id);
        }),
      );
      return workspace.id;
    },
  };
}

export type GitRemote = ReturnType<typeof createGitRemote>;
