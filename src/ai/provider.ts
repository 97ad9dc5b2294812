/**
 * The AI provider seam: services ask for a completion or a stream of text
 * deltas and never see which wire format answers. `createAiProvider` returns
 * null when no provider is configured (AI disabled).
 */
import { createAnthropicProvider } from './anthropic.js';
import { DEFAULT_TIMEOUT_MS, defaultSleep, type HttpOptions, type ProviderName, type Sleep } from './http.js';
import { createOpenAiProvider } from './openai.js';
import type { AiProvider } from './provider-interface.js';

export type { AiMessage, AiProvider, AiRequest } from './provider-interface.js';

export interface AiProviderConfig {
  /** `openai` (any OpenAI-compatible endpoint) or `anthropic`; unset or empty disables AI. */
  provider?: string | undefined;
  baseUrl?: string | undefined;
  apiKey?: string | undefined;
  model?: string | undefined;
  timeoutMs?: number | undefined;
  fetch?: typeof fetch | undefined;
  /** Waits before the retry; injected by tests. */
  sleep?: Sleep | undefined;
}

export const AI_DEFAULTS = {
  openai: { baseUrl: 'https://api.openai.com/v1', model: 'gpt-4o-mini' },
  anthropic: { baseUrl: 'https://api.anthropic.com', model: 'claude-sonnet-4-5' },
} as const satisfies Record<ProviderName, { baseUrl: string; model: string }>;

const blankToUndefined = (value: string | undefined): string | undefined => value?.trim() || undefined;

/**
 * Builds the configured provider, or null when `provider` is unset or empty.
 * An unknown provider name is a configuration mistake and throws.
 */
export function createAiProvider(config: AiProviderConfig): AiProvider | null {
  const name = blankToUndefined(config.provider)?.toLowerCase();
  if (name === undefined) return null;
  if (name !== 'openai' && name !== 'anthropic') {
    throw new Error(`Unknown AI provider "${name}": expected "openai" or "anthropic"`);
  }
  const timeoutMs = config.timeoutMs;
  const http: HttpOptions = {
    timeoutMs:
      timeoutMs !== undefined && Number.isFinite(timeoutMs) && timeoutMs > 0 ? timeoutMs : DEFAULT_TIMEOUT_MS,
    fetch: config.fetch ?? globalThis.fetch,
    sleep: config.sleep ?? defaultSleep,
  };
  const options = {
    ...http,
    baseUrl: (blankToUndefined(config.baseUrl) ?? AI_DEFAULTS[name].baseUrl).replace(/\/+$/, ''),
    apiKey: blankToUndefined(config.apiKey),
    model: blankToUndefined(config.model) ?? AI_DEFAULTS[name].model,
  };
  return name === 'openai' ? createOpenAiProvider(options) : createAnthropicProvider(options);
}
