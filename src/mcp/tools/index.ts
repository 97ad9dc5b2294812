import type { ToolDefinition } from '../tool.js';
import { collaborationTools } from './collaboration.js';
import { contentTools } from './content.js';
import { discoveryTools } from './discovery.js';
import { managementTools } from './management.js';
import { publishingTools } from './publishing.js';

/** Every tool, in the order `tools/list` shows them. */
export const ALL_TOOLS: ToolDefinition[] = [
  ...contentTools,
  ...discoveryTools,
  ...managementTools,
  ...collaborationTools,
  ...publishingTools,
];
