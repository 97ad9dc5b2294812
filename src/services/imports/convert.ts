/**
 * The conversion of an export into a plan: pure functions, run in a worker thread
 * (convert-worker.ts) so a large export never holds up the server.
 */
import type { ExportFiles } from './archive.js';
import { convertConfluence } from './confluence.js';
import { convertFiles } from './files.js';
import { convertNotion } from './notion.js';
import type { ImportFormat, ImportPlan } from './plan.js';

/** The plan for an export of `format`. */
export function planFor(format: ImportFormat, files: ExportFiles): ImportPlan {
  switch (format) {
    case 'notion':
      return convertNotion(files);
    case 'confluence':
      return convertConfluence(files);
    default:
      return convertFiles(files, format);
  }
}
