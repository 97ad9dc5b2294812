import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import path from 'node:path';
import { folioCommand } from './cli.js';

const ROOT = path.resolve(import.meta.dirname, '../..');

/** The official SDK client over streamable HTTP, authenticated with an API key. */
export async function mcpOverHttp(url: string, apiKey: string): Promise<Client> {
  const client = new Client({ name: 'folio-tests', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(url), {
      requestInit: { headers: { Authorization: `Bearer ${apiKey}` } },
    }),
  );
  return client;
}

/** The official SDK client over stdio, running `folio mcp` as a child process. */
export async function mcpOverStdio(args: string[], env: Record<string, string>): Promise<Client> {
  const client = new Client({ name: 'folio-tests', version: '1.0.0' });
  const [node, folio] = await folioCommand();
  await client.connect(
    new StdioClientTransport({
      command: node,
      args: [folio, 'mcp', ...args],
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', LOG_LEVEL: 'warn', ...env },
      stderr: 'pipe',
    }),
  );
  return client;
}

/** A tool call's structured result, or its error body when the call failed. */
export async function callTool(client: Client, name: string, args: Record<string, unknown> = {}) {
  const result = await client.callTool({ name, arguments: args });
  return {
    isError: result.isError === true,
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests inspect arbitrary JSON
    data: result.structuredContent as any,
    text: (result.content as Array<{ type: string; text: string }>)[0]?.text ?? '',
  };
}
