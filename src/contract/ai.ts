import { z } from 'zod';
import { record } from './shape.js';

/** Whether AI is configured; never a key or a base URL. */
export const aiStatus = record({
  enabled: z.boolean(),
  provider: z.enum(['openai', 'anthropic']).nullable(),
  model: z.string().nullable(),
});
export type AiStatus = z.infer<typeof aiStatus>;

/** The rewritten text. */
export const writingAssistAnswer = record({ action: z.string(), result: z.string() });
export type WritingAssistAnswer = z.infer<typeof writingAssistAnswer>;

/** A page an answer drew on. */
export const chatSource = record({ page_id: z.string(), path: z.string(), title: z.string() });
export type ChatSource = z.infer<typeof chatSource>;

/** The answer, whole (without `Accept: text/event-stream`). */
export const chatAnswer = record({ answer: z.string(), sources: z.array(chatSource) });
export type ChatAnswer = z.infer<typeof chatAnswer>;
