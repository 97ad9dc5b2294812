import { z } from 'zod';
import { record } from './shape.js';

const day = z.string().describe('A UTC day, YYYY-MM-DD');
/** The report's window: `days` days back from today, from `since` on. */
const window = { days: z.number().int(), since: day };

const pageViews = record({ path: z.string(), views: z.number().int(), visitors: z.number().int() });

/** Totals and a per-day series. */
export const analyticsOverview = record({
  ...window,
  views: z.number().int(),
  visitors: z.number().int().describe('Distinct anonymous visitors (a daily salted hash)'),
  searches: z.number().int(),
  daily: z.array(record({ day, views: z.number().int(), visitors: z.number().int() })),
  top_pages: z.array(pageViews),
});
export type AnalyticsOverview = z.infer<typeof analyticsOverview>;

/** The most read pages. */
export const analyticsPages = record({ ...window, data: z.array(pageViews) });
export type AnalyticsPages = z.infer<typeof analyticsPages>;

/** The most frequent site searches, with how many found nothing. */
export const analyticsSearches = record({
  ...window,
  data: z.array(record({ query: z.string(), count: z.number().int(), no_results: z.number().int() })),
});
export type AnalyticsSearches = z.infer<typeof analyticsSearches>;

/** `POST /api/analytics/consent` from a script (a form post is redirected back instead). */
export const consentAnswer = record({
  consent: z.boolean(),
  recording: z.boolean().describe('False when Do Not Track or Global Privacy Control is on'),
});
