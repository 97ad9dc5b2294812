/**
 * AI writing assistance and documentation chat over the
 * provider seam of `src/ai`. The provider is built once from config.ai; with
 * none configured every AI action answers 503 AI_DISABLED and `status()` says
 * so. Chat grounding (which pages, which text) lives in context.ts.
 */
import { z } from 'zod';
import {
  buildChatPrompt,
  buildWritingPrompt,
  chatInput,
  writingAssistInput,
  type WritingAction,
} from '../../ai/prompts.js';
import { createAiProvider, type AiProvider, type AiProviderConfig } from '../../ai/provider.js';
import type { Actor } from '../../domain/actor.js';
import { CAN, requireScope } from '../../domain/policy.js';
import { AppError } from '../../errors.js';
import { parseInput } from '../../domain/validate.js';
import type { Logger } from '../../logger.js';
import type { Store } from '../../store/database.js';
import { listMembershipsOfUser } from '../../store/repositories/orgs.js';
import { holdsWorkspaceRole } from '../../store/repositories/workspace-members.js';
import type { AccessService } from '../access.js';
import type { ChatContextBuilder, ChatSourceRef } from './context.js';

/** `GET /api/ai/status`: never a key, never the base URL (it may embed credentials). */
export interface AiStatus {
  enabled: boolean;
  provider: 'openai' | 'anthropic' | null;
  model: string | null;
}

export interface WritingAssistResult {
  action: WritingAction;
  result: string;
}

export interface ChatResult {
  answer: string;
  sources: ChatSourceRef[];
}

/** What `chatStream` yields: the answer's text deltas in order, then the pages it drew on. */
export type ChatStreamEvent = { type: 'token'; text: string } | { type: 'sources'; sources: ChatSourceRef[] };

export interface AiServiceDeps {
  config: AiProviderConfig;
  store: Store;
  access: AccessService;
  context: ChatContextBuilder;
  logger: Logger;
  /** Replaces the provider built from config (null disables AI); for tests and embedders. */
  provider?: AiProvider | null;
}

const EDITOR_ROLES = ['editor', 'admin', 'superadmin'];

/** The optional workspace a text to assist with belongs to (id or slug); it decides the role check. */
const workspaceRef = z.object({ workspace_id: z.string().min(1).max(200).optional() });

/** Builds the AI service; see the file header. */
export function createAiService(deps: AiServiceDeps) {
  const { store, access, context, logger } = deps;
  const provider = deps.provider !== undefined ? deps.provider : createAiProvider(deps.config);

  function requireProvider(): AiProvider {
    if (!provider) throw new AppError('AI_DISABLED', 'AI is not enabled on this instance');
    return provider;
  }

  /**
   * Whether the actor may edit anywhere: Super Admin of an organization (so
   * editor+ in all its workspaces) or editor+ member of a live workspace. An
   * API key counts only within its own organization, as everywhere else.
   */
  async function canEditSomewhere(actor: Actor): Promise<boolean> {
    if (actor.via === 'system') return true;
    const onlyOrg = actor.via === 'api_key' ? actor.orgId : undefined;
    const superadminOf = await listMembershipsOfUser(store.db, actor.userId, {
      role: 'superadmin',
      ...(onlyOrg ? { orgId: onlyOrg } : {}),
    });
    if (superadminOf.length > 0) return true;
    return holdsWorkspaceRole(store.db, actor.userId, EDITOR_ROLES, onlyOrg);
  }

  /** Provider failures are the operator's to see: logged with their code and safe details only. */
  function logFailure(what: string, err: unknown): void {
    if (err instanceof AppError && err.code === 'AI_PROVIDER_ERROR') {
      logger.warn({ details: err.details }, `AI ${what} failed: ${err.message}`);
    }
  }

  async function prepareChat(actor: Actor, rawInput: unknown) {
    const ai = requireProvider();
    const input = parseInput(chatInput, rawInput);
    // A POST: API-key scopes give it to keys with the write scope, although chat only reads.
    requireScope(actor, 'write');
    const grounding = await context.build(actor, input);
    return { ai, prompt: buildChatPrompt(input.messages, grounding.excerpts), sources: grounding.sources };
  }

  return {
    /** Whether AI is on, with which provider and model; safe to show anyone. */
    status(): AiStatus {
      return provider
        ? { enabled: true, provider: provider.name, model: provider.model }
        : { enabled: false, provider: null, model: null };
    },

    /**
     * Runs one writing action on a Markdown text. Order of refusals: 503
     * AI_DISABLED, 400 on bad input, then permission. The caller needs the
     * editor role: in `workspace_id` when given (CAN.edit, so a viewer gets
     * 403 and a stranger 404), else in at least one workspace, because
     * writing assistance is an editing tool that spends the instance's AI
     * budget and a read-only reader has nothing to edit.
     */
    async writingAssist(actor: Actor, rawInput: unknown, signal?: AbortSignal): Promise<WritingAssistResult> {
      const ai = requireProvider();
      const input = parseInput(writingAssistInput, rawInput);
      const { workspace_id: workspaceId } = parseInput(workspaceRef, rawInput);
      if (workspaceId !== undefined) {
        await access.require(actor, workspaceId, CAN.edit);
      } else {
        requireScope(actor, 'write');
        if (!(await canEditSomewhere(actor))) {
          throw new AppError('FORBIDDEN', 'Writing assistance needs the editor role in a workspace');
        }
      }
      try {
        const result = await ai.complete({ ...buildWritingPrompt(input), ...(signal ? { signal } : {}) });
        return { action: input.action, result };
      } catch (err) {
        logFailure('writing assist', err);
        throw err;
      }
    },

    /**
     * Answers the conversation's last question from the pages of one workspace
     * the caller can read (see context.ts for which pages and how much of
     * them), with those pages as sources.
     */
    async chat(actor: Actor, rawInput: unknown, signal?: AbortSignal): Promise<ChatResult> {
      const { ai, prompt, sources } = await prepareChat(actor, rawInput);
      try {
        const answer = await ai.complete({ ...prompt, ...(signal ? { signal } : {}) });
        return { answer, sources };
      } catch (err) {
        logFailure('chat', err);
        throw err;
      }
    },

    /**
     * The same answer as text deltas, then one `sources` event. Nothing runs
     * until the first `next()`, which does every check and waits for the first
     * delta, so an adapter can still answer a refusal or an early provider
     * failure as an ordinary error before it commits to a stream.
     */
    async *chatStream(
      actor: Actor,
      rawInput: unknown,
      signal?: AbortSignal,
    ): AsyncGenerator<ChatStreamEvent> {
      const { ai, prompt, sources } = await prepareChat(actor, rawInput);
      try {
        for await (const text of ai.stream({ ...prompt, ...(signal ? { signal } : {}) })) {
          yield { type: 'token', text };
        }
      } catch (err) {
        logFailure('chat stream', err);
        throw err;
      }
      yield { type: 'sources', sources };
    },
  };
}

export type AiService = ReturnType<typeof createAiService>;
