import cluster, { type Worker } from 'node:cluster';
import type { Config } from '../config.js';
import { createLogger, type Logger } from '../logger.js';
import { EXIT } from './command.js';

/**
 * `folio serve` with FOLIO_PROCESSES above 1: one Folio server per worker process, all on
 * one port through node's cluster module, so JavaScript runs on that many cores. They are
 * instances sharing DATA_DIR, PostgreSQL and Redis, as separate servers behind a proxy
 * would be. The primary process serves nothing: it starts the workers, restarts one that
 * dies, and stops them all on SIGTERM or SIGINT.
 *
 * The first worker starts alone and the others once it listens, so a start that cannot
 * succeed (the port taken, the database unreachable) fails once, with that worker's own
 * one-line reason and exit code 1, as a single process would; and the one-time start-up
 * work (migrations, creating the JWT key) is done before the others join, though they
 * would cope with doing it together.
 */

type ServeHere = (config: Config, onListening?: (address: string) => void) => Promise<number>;

const LISTENING = 'folio:listening';

/** What a worker tells the primary once its server listens and its start-up work is done. */
interface ListeningMessage {
  type: typeof LISTENING;
  address: string;
}

/** The wait before restarting a worker that died; it doubles with each death in a row. */
const RESTART_FIRST_MS = 1_000;
const RESTART_MAX_MS = 30_000;
/** A worker that served this long before it died is restarted after the first wait again. */
const HEALTHY_AFTER_MS = 60_000;
/** A worker failing to start this many times in a row stops the whole server. */
const START_ATTEMPTS = 5;

/**
 * Timed work every process would otherwise do at the same moment, left to the first
 * worker: a scheduled backup (each would take its own copy of DATA_DIR) and the poll of
 * git remotes (each would fetch). Webhook and manual syncs still run on any worker.
 */
const OTHER_WORKERS_ENV = { BACKUP_INTERVAL_HOURS: '0', GIT_SYNC_INTERVAL: '0' };

/**
 * Runs `folio serve` as a cluster: in the primary it supervises `config.processes`
 * workers and resolves with the exit code once they have all stopped; in a worker it
 * serves with `serveHere`. Several processes need PostgreSQL and Redis, which they
 * share; without them it refuses in one sentence and resolves 1.
 */
export async function serveProcesses(config: Config, serveHere: ServeHere): Promise<number> {
  if (cluster.isWorker) return serveAsWorker(config, serveHere);
  if (!config.databaseUrl || !config.redisUrl) {
    process.stderr.write(
      `folio: FOLIO_PROCESSES asks for ${config.processes} processes, which must share PostgreSQL ` +
        'and Redis: set DATABASE_URL and REDIS_URL, or FOLIO_PROCESSES=1.\n',
    );
    return EXIT.failure;
  }
  return supervise(config.processes, createLogger(config.logLevel));
}

async function serveAsWorker(config: Config, serveHere: ServeHere): Promise<number> {
  const code = await serveHere(config, (address) => {
    const message: ListeningMessage = { type: LISTENING, address };
    process.send?.(message);
  });
  // The channel to the primary would keep this process alive once its server has closed.
  cluster.worker?.disconnect();
  return code;
}

function isListening(message: unknown): message is ListeningMessage {
  return (
    typeof message === 'object' && message !== null && (message as { type?: unknown }).type === LISTENING
  );
}

interface Slot {
  /** 1 for the first worker, which also does OTHER_WORKERS_ENV's timed work. */
  number: number;
  worker: Worker | null;
  listeningSince: number | null;
  deathsInARow: number;
  startFailuresInARow: number;
  restart: NodeJS.Timeout | null;
}

function supervise(processes: number, logger: Logger): Promise<number> {
  return new Promise((resolve) => {
    const slots: Slot[] = Array.from({ length: processes }, (_, i) => ({
      number: i + 1,
      worker: null,
      listeningSince: null,
      deathsInARow: 0,
      startFailuresInARow: 0,
      restart: null,
    }));
    let started = false;
    let stopping = false;
    let exitCode: number = EXIT.ok;

    const fork = (slot: Slot) => {
      slot.restart = null;
      slot.listeningSince = null;
      const worker = cluster.fork(slot.number === 1 ? {} : OTHER_WORKERS_ENV);
      slot.worker = worker;
      worker.on('message', (message: unknown) => {
        if (!isListening(message)) return;
        slot.listeningSince = Date.now();
        slot.startFailuresInARow = 0;
        const about = { worker: slot.number, worker_pid: worker.process.pid, address: message.address };
        logger.info(about, 'worker listening');
        if (started || stopping) return;
        started = true;
        for (const other of slots) if (other !== slot) fork(other);
      });
      worker.on('exit', (code, signal) => exited(slot, worker, code, signal));
    };

    const exited = (slot: Slot, worker: Worker, code: number | null, signal: string | null) => {
      slot.worker = null;
      const about = { worker: slot.number, worker_pid: worker.process.pid, code, signal };
      if (stopping) {
        if (code !== null && code !== EXIT.ok) exitCode = EXIT.failure;
        return finishWhenAllStopped();
      }
      if (!started) {
        // The worker has said why on stderr (the port in use, for one).
        logger.error(about, 'the first worker failed to start');
        return stop(EXIT.failure);
      }
      if (slot.listeningSince === null && ++slot.startFailuresInARow >= START_ATTEMPTS) {
        process.stderr.write(
          `folio: a server process failed to start ${START_ATTEMPTS} times in a row; stopping.\n`,
        );
        logger.error(about, 'a worker keeps failing to start');
        return stop(EXIT.failure);
      }
      if (slot.listeningSince !== null && Date.now() - slot.listeningSince >= HEALTHY_AFTER_MS)
        slot.deathsInARow = 0;
      const delay = Math.min(RESTART_MAX_MS, RESTART_FIRST_MS * 2 ** slot.deathsInARow);
      slot.deathsInARow += 1;
      logger.warn({ ...about, restart_in_ms: delay }, 'worker died; restarting it');
      slot.restart = setTimeout(() => fork(slot), delay);
    };

    // SIGTERM for either signal: after Ctrl-C the terminal's own SIGINT reaches the workers
    // too, and a worker handles each signal once, so a second SIGINT would cut its close short.
    const stop = (code: number) => {
      if (stopping) return;
      stopping = true;
      exitCode = code;
      process.off('SIGTERM', onSignal);
      process.off('SIGINT', onSignal);
      for (const slot of slots) {
        if (slot.restart) clearTimeout(slot.restart);
        slot.restart = null;
        slot.worker?.process.kill('SIGTERM');
      }
      finishWhenAllStopped();
    };

    const finishWhenAllStopped = () => {
      if (slots.every((slot) => slot.worker === null)) resolve(exitCode);
    };

    const onSignal = (signal: NodeJS.Signals) => {
      logger.info({ signal }, 'shutting down the workers');
      stop(EXIT.ok);
    };
    process.on('SIGTERM', onSignal);
    process.on('SIGINT', onSignal);
    fork(slots[0]!);
  });
}
