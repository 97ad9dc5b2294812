import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  StreamableHTTPClientTransport,
  StreamableHTTPError,
} from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ListToolsRequestSchema, type Tool } from '@modelcontextprotocol/sdk/types.js';
import { AppError } from '../errors.js';
import { VERSION } from '../version.js';
import { mcpEndpointOf } from './endpoint.js';
import { invalidApiKey, unknownWorkspace } from './start-up-errors.js';

/** A remote tool as offered locally: the `workspace` argument is fixed, so it disappears from the schema. */
function withoutWorkspace(tool: Tool): Tool {
  const schema = tool.inputSchema;
  const properties = { ...(schema.properties ?? {}) };
  if (!('workspace' in properties)) return tool;
  delete properties.workspace;
  const required = (schema.required ?? []).filter((name) => name !== 'workspace');
  return {
    ...tool,
    inputSchema: { ...schema, properties, ...(required.length ? { required } : { required: [] }) },
  };
}

/** Turns a failed connection into a sentence: a refused key, or a server that cannot be reached. */
function connectionError(error: unknown, serverUrl: string): AppError {
  if (error instanceof StreamableHTTPError && error.code === 401) return invalidApiKey();
  if (error instanceof StreamableHTTPError)
    return new AppError('SERVICE_UNAVAILABLE', `the server at ${serverUrl} answered HTTP ${error.code}`);
  const reason = error instanceof Error ? ((error.cause as Error | undefined)?.message ?? error.message) : '';
  return new AppError('SERVICE_UNAVAILABLE', `cannot reach the server at ${serverUrl} (${reason})`);
}

/**
 * Connects to a Folio server's `/mcp` with an API key and checks that the key can read
 * `workspace`. Throws an AppError (invalid key, unknown workspace, unreachable server).
 */
async function connectToWorkspace(options: { serverUrl: string; apiKey: string; workspace: string }) {
  const remote = new Client({ name: 'folio-mcp-bridge', version: VERSION });
  try {
    await remote.connect(
      new StreamableHTTPClientTransport(mcpEndpointOf(options.serverUrl), {
        requestInit: { headers: { Authorization: `Bearer ${options.apiKey}` } },
      }),
    );
  } catch (error) {
    throw connectionError(error, options.serverUrl);
  }
  const found = await remote.callTool({
    name: 'svc_get_workspace',
    arguments: { workspace: options.workspace },
  });
  if (found.isError) {
    await remote.close();
    const body = found.structuredContent as { error?: string; message?: string } | undefined;
    if (body?.error === 'NOT_FOUND') throw unknownWorkspace(options.workspace);
    throw new AppError('SERVICE_UNAVAILABLE', body?.message ?? 'the server refused the workspace');
  }
  return remote;
}

/**
 * Serves MCP on stdio by relaying to a running Folio's `/mcp` with the API key, every
 * workspace tool fixed to one workspace. The server does the work, so all 26 tools (sync
 * included) are offered as the server offers them. The key and the workspace are checked
 * before anything is served; a refusal is thrown as an AppError.
 */
export async function bridgeStdioToServer(options: { serverUrl: string; apiKey: string; workspace: string }) {
  const remote = await connectToWorkspace(options);
  const { tools } = await remote.listTools();
  const workspaceTools = new Set(tools.filter((t) => t.inputSchema.properties?.workspace).map((t) => t.name));

  const local = new Server({ name: 'folio', version: VERSION }, { capabilities: { tools: {} } });
  local.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: tools.map(withoutWorkspace) }));
  local.setRequestHandler(CallToolRequestSchema, async (request) => {
    const args = { ...(request.params.arguments ?? {}) };
    if (workspaceTools.has(request.params.name)) args.workspace = options.workspace;
    return remote.callTool({ name: request.params.name, arguments: args });
  });
  local.onclose = () => void remote.close();
  await local.connect(new StdioServerTransport());
  return local;
}
