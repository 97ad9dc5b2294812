import { backupCommand } from './backup.js';
import type { Command } from './command.js';
import { EXIT } from './command.js';
import { importCommand } from './import.js';
import { mcpCommand } from './mcp.js';
import { mcpServerCommand } from './mcp-server.js';
import { rebuildCommand } from './rebuild.js';
import { resetPasswordCommand } from './reset-password.js';
import { serveCommand } from './serve.js';

/** Every command; a new one is a file in this folder and a line here. */
const COMMANDS: Command[] = [
  serveCommand,
  rebuildCommand,
  resetPasswordCommand,
  mcpCommand,
  mcpServerCommand,
  backupCommand,
  importCommand,
];

function help(): string {
  const width = Math.max(...COMMANDS.map((c) => c.name.length));
  return [
    'Usage: folio <command> [options]',
    '',
    'Commands:',
    ...COMMANDS.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`),
    '',
    'Without a command, folio serves. `folio <command> --help` shows its options.',
    'Configuration comes from environment variables; see README.md.',
  ].join('\n');
}

/** Runs the CLI with argv (without node and script) and resolves with the exit code. */
export async function main(argv: string[]): Promise<number> {
  const [first, ...rest] = argv;
  if (first === '--help' || first === '-h' || first === 'help') {
    process.stdout.write(help() + '\n');
    return EXIT.ok;
  }
  const name = !first || first.startsWith('-') ? 'serve' : first;
  const args = !first || first.startsWith('-') ? argv : rest;
  const command = COMMANDS.find((c) => c.name === name);
  if (!command) {
    process.stderr.write(`folio: unknown command "${name}"\n\n${help()}\n`);
    return EXIT.usage;
  }
  if (args.includes('--help') || args.includes('-h')) {
    process.stdout.write(`Usage: ${command.usage}\n\n${command.summary}\n`);
    return EXIT.ok;
  }
  return command.run(args);
}
