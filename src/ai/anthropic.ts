/** Anthropic's Messages API: `POST {base}/v1/messages`. */
import { postJson, providerError, type HttpOptions, type ProviderResponse } from './http.js';
import type { AiProvider, AiRequest } from './provider-interface.js';

export const ANTHROPIC_VERSION = '2023-06-01';
/** The API requires max_tokens; this is used when the caller gives none. */
export const ANTHROPIC_DEFAULT_MAX_TOKENS = 8192;

export interface AnthropicOptions extends HttpOptions {
  /** The host root, e.g. `https://api.anthropic.com` (a trailing `/v1` is tolerated); no trailing slash. */
  baseUrl: string;
  /** Sent as `x-api-key`; omitted when unset (a proxy that adds it). */
  apiKey?: string | undefined;
  model: string;
}

interface MessageBody {
  content?: Array<{ type?: unknown; text?: unknown }>;
}

interface StreamEventBody {
  type?: unknown;
  delta?: { type?: unknown; text?: unknown };
  error?: { type?: unknown };
}

/** An AiProvider over the Messages API. */
export function createAnthropicProvider(options: AnthropicOptions): AiProvider {
  const url = `${options.baseUrl.replace(/\/v1$/, '')}/v1/messages`;
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    'anthropic-version': ANTHROPIC_VERSION,
  };
  if (options.apiKey) headers['x-api-key'] = options.apiKey;

  const send = (req: AiRequest, stream: boolean): Promise<ProviderResponse> =>
    postJson({
      ...options,
      provider: 'anthropic',
      url,
      headers: stream ? { ...headers, accept: 'text/event-stream' } : headers,
      signal: req.signal,
      body: {
        model: options.model,
        ...(req.system ? { system: req.system } : {}),
        messages: req.messages.map(({ role, content }) => ({ role, content })),
        max_tokens: req.maxTokens ?? ANTHROPIC_DEFAULT_MAX_TOKENS,
        stream,
      },
    });

  return {
    name: 'anthropic',
    model: options.model,

    async complete(req) {
      const response = await send(req, false);
      const body = (await response.json()) as MessageBody | null;
      if (!Array.isArray(body?.content)) throw response.unexpected();
      return body.content
        .map((block) => (block?.type === 'text' && typeof block.text === 'string' ? block.text : ''))
        .join('');
    },

    async *stream(req) {
      const response = await send(req, true);
      for await (const event of response.events()) {
        let body: StreamEventBody | null;
        try {
          body = JSON.parse(event.data) as StreamEventBody | null;
        } catch {
          throw response.unexpected();
        }
        const type = body?.type ?? event.event;
        if (type === 'message_stop') return;
        if (type === 'error') {
          const errorType = body?.error?.type;
          throw providerError('anthropic', 'The AI provider reported an error while streaming', {
            reason: 'stream_error',
            // Anthropic's error types are a fixed vocabulary (overloaded_error, ...): safe to pass on.
            ...(typeof errorType === 'string' && /^[a-z_]{1,40}$/.test(errorType)
              ? { error_type: errorType }
              : {}),
          });
        }
        if (
          type === 'content_block_delta' &&
          body?.delta?.type === 'text_delta' &&
          typeof body.delta.text === 'string' &&
          body.delta.text !== ''
        ) {
          yield body.delta.text;
        }
      }
      throw providerError('anthropic', 'The AI provider ended the stream early', { reason: 'truncated' });
    },
  };
}
