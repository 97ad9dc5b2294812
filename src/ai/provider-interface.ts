/**
 * What every AI provider offers, apart from the providers themselves, so each provider
 * module and the factory that chooses one (provider.ts) can name it without importing
 * each other.
 */
import type { ProviderName } from './http.js';

export interface AiMessage {
  role: 'user' | 'assistant';
  content: string;
}

export interface AiRequest {
  system: string;
  messages: AiMessage[];
  maxTokens?: number;
  signal?: AbortSignal;
}

export interface AiProvider {
  name: ProviderName;
  model: string;
  /** The whole answer as text. Throws AI_PROVIDER_ERROR, or the abort reason of `req.signal`. */
  complete(req: AiRequest): Promise<string>;
  /** The answer's text deltas in order; the request starts on first iteration, errors as for complete. */
  stream(req: AiRequest): AsyncIterable<string>;
}
