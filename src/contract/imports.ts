import { z } from 'zod';
import { record, timestamp } from './shape.js';

/** What an import turned into pages, kept as they were, and left out. */
export const importReport = record({
  from: z.enum(['notion', 'confluence', 'gitbook', 'obsidian', 'mkdocs', 'docusaurus']),
  commit: z.string().nullable(),
  converted: z.array(record({ source: z.string(), path: z.string() })),
  kept: z.array(record({ source: z.string(), path: z.string(), note: z.string() })),
  dropped: z.array(record({ source: z.string(), reason: z.string() })),
});

/** POST `…/imports` (202) and GET `…/imports/:job_id`: an import's progress and, once done, its report. */
export const importJob = record({
  id: z.string(),
  status: z.enum(['reading', 'importing', 'done', 'failed']),
  progress: record({ done: z.number().int(), total: z.number().int() }),
  report: importReport.nullable(),
  error: record({ error: z.string(), message: z.string() }).nullable(),
  created_at: timestamp,
});
export type ImportJob = z.infer<typeof importJob>;
