/** The `/mcp` endpoint of the Folio server at `serverUrl` (what `FOLIO_SERVER_URL` names). */
export const mcpEndpointOf = (serverUrl: string): URL => new URL('/mcp', serverUrl);
