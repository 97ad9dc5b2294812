/**
 * What the change-request routes accept, one schema per input, shared by the HTTP routes
 * and the OpenAPI document.
 */
import { z } from 'zod';

const requestNumber = z.coerce
  .number({ error: 'A change request number is a whole number' })
  .int('A change request number is a whole number')
  .min(1)
  .max(2_147_483_647);

/** `POST /workspaces/:id/change-requests`. */
export const createChangeRequestInput = z.strictObject({
  title: z
    .string({ error: 'Title is required' })
    .trim()
    .min(1, 'Title is required')
    .max(200)
    .describe('What the change request does, e.g. "Document the v2 API".'),
  description: z.string().max(20_000).default('').describe('Why, and what reviewers should look at.'),
});

/** `GET /workspaces/:id/change-requests`. */
export const listChangeRequestsInput = z.object({
  status: z
    .enum(['open', 'merged', 'closed'], { error: 'status must be open, merged or closed' })
    .optional()
    .describe('Only requests in this state.'),
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .max(100)
    .default(20)
    .describe('Most requests to return (default 20).'),
  cursor: z
    .string()
    .regex(/^\d{1,10}$/, 'cursor is not one this API gave out')
    .optional()
    .describe('next_cursor from a previous call, for the next page.'),
});

/** `POST /workspaces/:id/change-requests/:n/reviews`. */
export const reviewChangeRequestInput = z.strictObject({
  verdict: z
    .enum(['approve', 'request_changes', 'comment'], {
      error: 'verdict must be approve, request_changes or comment',
    })
    .describe('approve, request_changes or comment.'),
  body: z.string().max(20_000).default('').describe('The review text (Markdown).'),
  comments: z
    .array(
      z.strictObject({
        page: z.string().min(1).max(1024).describe('The page path, e.g. guides/start.md.'),
        line: z
          .number()
          .int()
          .min(1)
          .max(10_000_000)
          .describe("A line of the page's version in the request."),
        body: z.string().trim().min(1, 'A comment needs a body').max(20_000),
      }),
    )
    .max(200)
    .default([])
    .describe('Inline comments, each on one line of a page of the request.'),
});

/** `:id/change-requests/:n` path parameters. */
export const changeRequestParams = z.object({
  id: z.string().describe('The workspace id or its slug'),
  n: requestNumber.describe('The change request number'),
});

/**
 * The content API's `change_request` query parameter: with it, page reads and writes act
 * on that change request's branch instead of the live pages.
 */
export const changeRequestQuery = z.object({
  change_request: requestNumber
    .optional()
    .describe('Read or edit the page inside this change request instead of the live workspace.'),
});

export type CreateChangeRequestInput = z.output<typeof createChangeRequestInput>;
export type ListChangeRequestsInput = z.output<typeof listChangeRequestsInput>;
export type ReviewChangeRequestInput = z.output<typeof reviewChangeRequestInput>;
