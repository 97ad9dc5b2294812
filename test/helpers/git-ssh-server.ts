/**
 * A git-over-SSH remote for tests: OpenSSH's sshd on a loopback port, letting
 * in the current user with the keys written to its authorized_keys (git then
 * runs git-upload-pack / git-receive-pack on repositories by absolute path).
 * Needs /usr/sbin/sshd (Debian's openssh-server); `sshdAvailable` says whether it is there.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import { userInfo } from 'node:os';
import path from 'node:path';
import { freePort } from './ports.js';

const SSHD = '/usr/sbin/sshd';

export const sshdAvailable = fs.existsSync(SSHD);

export interface GitSshServer {
  /** `ssh://<user>@127.0.0.1:<port>` + an absolute repository path is a remote URL. */
  urlFor(repoPath: string): string;
  /** Lets in the holder of this public key line. */
  authorize(publicKey: string): void;
  /** The SHA256 fingerprint of the host key the server shows now. */
  fingerprint(): string;
  /** Restarts on the same port with a new host key (a replaced server, or an impostor). */
  replaceHostKey(): Promise<void>;
  close(): Promise<void>;
}

/** Starts sshd with its configuration, keys and logs in `dir`. */
export async function startGitSshServer(dir: string): Promise<GitSshServer> {
  fs.mkdirSync(dir, { recursive: true });
  fs.mkdirSync('/run/sshd', { recursive: true }); // sshd's privilege separation folder, when run as root
  const port = await freePort();
  const hostKey = path.join(dir, 'host_key');
  const authorized = path.join(dir, 'authorized_keys');
  fs.writeFileSync(authorized, '');
  const config = path.join(dir, 'sshd_config');
  fs.writeFileSync(
    config,
    [
      `Port ${port}`,
      'ListenAddress 127.0.0.1',
      `HostKey ${hostKey}`,
      `AuthorizedKeysFile ${authorized}`,
      `PidFile ${path.join(dir, 'sshd.pid')}`,
      'StrictModes no',
      'PasswordAuthentication no',
      'KbdInteractiveAuthentication no',
      'PermitRootLogin prohibit-password',
      'UsePAM no',
      '',
    ].join('\n'),
  );
  let child: ChildProcess | null = null;

  const newHostKey = () => {
    fs.rmSync(hostKey, { force: true });
    fs.rmSync(`${hostKey}.pub`, { force: true });
    execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', hostKey]);
  };
  const start = async () => {
    const sshd = spawn(SSHD, ['-D', '-e', '-f', config], { stdio: ['ignore', 'ignore', 'pipe'] });
    child = sshd;
    // Listening once it says so on stderr (-e), or failed once it exits.
    await new Promise<void>((resolve, reject) => {
      let said = '';
      sshd.stderr!.on('data', (chunk: Buffer) => {
        said += chunk.toString();
        if (/Server listening/.test(said)) resolve();
      });
      sshd.once('exit', (code) => reject(new Error(`sshd exited ${code}: ${said}`)));
    });
  };
  const stop = async () => {
    const running = child;
    child = null;
    if (!running || running.exitCode !== null) return;
    await new Promise<void>((resolve) => {
      running.once('exit', () => resolve());
      running.kill('SIGTERM');
    });
  };

  newHostKey();
  await start();
  return {
    urlFor: (repoPath) => `ssh://${userInfo().username}@127.0.0.1:${port}${repoPath}`,
    authorize: (publicKey) => fs.appendFileSync(authorized, `${publicKey.trim()}\n`),
    fingerprint: () =>
      execFileSync('ssh-keygen', ['-l', '-f', `${hostKey}.pub`], { encoding: 'utf8' }).split(' ')[1] ?? '',
    async replaceHostKey() {
      await stop();
      newHostKey();
      await start();
    },
    close: stop,
  };
}
