import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ListToolsRequestSchema, type Tool } from '@modelcontextprotocol/sdk/types.js';
import { VERSION } from '../version.js';

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

/**
 * Serves MCP on stdio by relaying to a running Folio's `/mcp` with the API
 * key, every workspace tool fixed to one workspace. The server does the work,
 * so all 26 tools (sync included) are offered as the server offers them.
 */
export async function bridgeStdioToServer(options: { serverUrl: string; apiKey: string; workspace: string }) {
  const remote = new Client({ name: 'folio-mcp-bridge', version: VERSION });
  await remote.connect(
    new StreamableHTTPClientTransport(new URL('/mcp', options.serverUrl), {
      requestInit: { headers: { Authorization: `Bearer ${options.apiKey}` } },
    }),
  );
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
