/** One `folio <name>` command. Each file in src/cli/ exports one and index.ts lists it. */
export interface Command {
  name: string;
  summary: string;
  usage: string;
  /** Resolves with the process exit code. */
  run(args: string[]): Promise<number>;
}

/** Exit codes shared by the commands: usage mistakes and configuration errors are distinct. */
export const EXIT = { ok: 0, failure: 1, usage: 2 } as const;
