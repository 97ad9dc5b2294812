import type { Config } from '../../config.js';
import type { Actor } from '../../domain/actor.js';
import { forbidden } from '../../errors.js';
import { classifyRemote, type ClassifiedRemote, type ClassifyRemoteOptions } from '../../git/remote-url.js';

/** What the operator allows a workspace's git remote to be (GIT_ALLOW_* and GIT_FILE_REMOTE_ROOT). */
export type RemoteRules = Pick<ClassifyRemoteOptions, 'dataDir' | 'fileRemoteRoot' | 'allowPrivateHosts'>;

/** The remote rules of a configuration. */
export function remoteRulesOf(
  config: Pick<Config, 'dataDir' | 'gitFileRemoteRoot' | 'gitAllowPrivateHosts'>,
): RemoteRules {
  return {
    dataDir: config.dataDir,
    fileRemoteRoot: config.gitFileRemoteRoot,
    allowPrivateHosts: config.gitAllowPrivateHosts,
  };
}

/**
 * Validates a remote that `actor` connects to a workspace: 400 VALIDATION_ERROR
 * for anything Folio must not fetch from, 403 FORBIDDEN for a local remote
 * unless the actor is the platform owner. A local remote reads the server's
 * own disk, which is the operator's, not any organization's Super Admin's.
 */
export async function classifyRemoteFor(
  actor: Actor,
  url: string,
  rules: RemoteRules,
): Promise<ClassifiedRemote> {
  const classified = await classifyRemote(url, rules);
  if (classified.kind === 'file' && !actor.isPlatformOwner) {
    throw forbidden('Only the platform owner can connect a local git remote');
  }
  return classified;
}
