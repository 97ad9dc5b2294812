/**
 * OpenAI-compatible Chat Completions: OpenAI itself, Ollama, vLLM, LiteLLM
 * and other servers that speak `POST {base}/chat/completions`.
 */
import { postJson, providerError, type HttpOptions, type ProviderResponse } from './http.js';
import type { AiProvider, AiRequest } from './provider-interface.js';

export interface OpenAiOptions extends HttpOptions {
  /** Up to and including the API version, e.g. `https://api.openai.com/v1`; no trailing slash. */
  baseUrl: string;
  /** Sent as `Authorization: Bearer`; omitted when unset (local servers). */
  apiKey?: string | undefined;
  model: string;
}

interface CompletionBody {
  choices?: Array<{ message?: { content?: unknown } }>;
}

interface ChunkBody {
  error?: unknown;
  choices?: Array<{ delta?: { content?: unknown }; finish_reason?: unknown }>;
}

/** Text of a message's `content`: a string, or (some compatible servers) an array of text parts. */
function textOf(content: unknown): string | undefined {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return undefined;
  return content
    .map((part: { type?: unknown; text?: unknown }) =>
      part?.type === 'text' && typeof part.text === 'string' ? part.text : '',
    )
    .join('');
}

/** An AiProvider over the Chat Completions API. */
export function createOpenAiProvider(options: OpenAiOptions): AiProvider {
  const url = `${options.baseUrl}/chat/completions`;
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (options.apiKey) headers.authorization = `Bearer ${options.apiKey}`;

  const send = (req: AiRequest, stream: boolean): Promise<ProviderResponse> =>
    postJson({
      ...options,
      provider: 'openai',
      url,
      headers: stream ? { ...headers, accept: 'text/event-stream' } : headers,
      signal: req.signal,
      body: {
        model: options.model,
        messages: [
          ...(req.system ? [{ role: 'system', content: req.system }] : []),
          ...req.messages.map(({ role, content }) => ({ role, content })),
        ],
        // Left to the server when unset: vLLM and Ollama reject a value beyond a small model's context.
        ...(req.maxTokens !== undefined ? { max_tokens: req.maxTokens } : {}),
        stream,
      },
    });

  return {
    name: 'openai',
    model: options.model,

    async complete(req) {
      const response = await send(req, false);
      const body = (await response.json()) as CompletionBody | null;
      const text = textOf(body?.choices?.[0]?.message?.content);
      if (text === undefined) throw response.unexpected();
      return text;
    },

    async *stream(req) {
      const response = await send(req, true);
      let finished = false;
      for await (const event of response.events()) {
        if (event.data === '[DONE]') return;
        let chunk: ChunkBody | null;
        try {
          chunk = JSON.parse(event.data) as ChunkBody | null;
        } catch {
          throw response.unexpected();
        }
        // vLLM and LiteLLM report failures after the 200 as a chunk with `error`.
        if (chunk?.error) {
          throw providerError('openai', 'The AI provider reported an error while streaming', {
            reason: 'stream_error',
          });
        }
        const choice = chunk?.choices?.[0];
        const text = textOf(choice?.delta?.content);
        if (text) yield text;
        if (typeof choice?.finish_reason === 'string') finished = true;
      }
      // A server may close without `[DONE]` once it has said why it finished; otherwise the answer was cut.
      if (!finished) {
        throw providerError('openai', 'The AI provider ended the stream early', { reason: 'truncated' });
      }
    },
  };
}
