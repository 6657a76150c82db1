import type { Settings } from '../settings.js';
import { ModelError } from '../errors.js';
import type { Logger } from '../logger.js';
import type { ModelRequest, ModelResponse, Provider } from './provider.js';
import type { OpenAIProviderOptions } from './openai.js';
import type { AnthropicProviderOptions } from './anthropic.js';

/**
 * The SDKs are loaded on first use: commands that never call a model (prompt, render, cron list)
 * start without paying for them.
 */
function lazy(name: Provider['name'], load: () => Promise<Provider>): Provider {
  let loaded: Promise<Provider> | null = null;
  const get = () => (loaded ??= load());
  return {
    name,
    complete: async (request) => (await get()).complete(request),
    check: async (options) => (await get()).check(options),
  };
}

function openai(options: OpenAIProviderOptions): Provider {
  return lazy('openai', async () => (await import('./openai.js')).createOpenAIProvider(options));
}

function anthropic(options: AnthropicProviderOptions): Provider {
  return lazy('anthropic', async () => (await import('./anthropic.js')).createAnthropicProvider(options));
}

export const HOW_TO_CONFIGURE_MODEL =
  'No model is configured: set OPENAI_API_KEY (or OPENAI_BASE_URL for Ollama, vLLM, llama.cpp, OpenRouter) or ANTHROPIC_API_KEY, then restart.';

/**
 * Nothing configured: use a local Ollama when one answers on its default port, else reply with one
 * line saying how to configure a model. Probed lazily (first call) and re-probed while absent.
 */
function createAutoProvider(baseURL: string, model: string, settings: Settings, logger: Logger): Provider {
  let ollama: Provider | null = null;
  const probe = async (): Promise<Provider | null> => {
    if (ollama) return ollama;
    try {
      const res = await fetch(`${baseURL.replace(/\/v1$/, '')}/api/tags`, { signal: AbortSignal.timeout(1500) });
      if (!res.ok) return null;
      logger.info('model', `no provider configured; using the local Ollama at ${baseURL} with model ${model}`);
      ollama = openai({
        apiKey: 'ollama',
        baseURL,
        timeoutMs: settings.config.model.timeout_seconds * 1000,
        maxRetries: settings.config.model.max_retries,
      });
      return ollama;
    } catch {
      return null;
    }
  };
  return {
    name: 'unconfigured',
    async complete(request: ModelRequest): Promise<ModelResponse> {
      const p = await probe();
      if (!p) throw new ModelError(HOW_TO_CONFIGURE_MODEL, { kind: 'unconfigured' });
      return p.complete(request);
    },
    async check(options?: { timeoutMs?: number }): Promise<string | null> {
      const p = await probe();
      return p ? p.check(options) : HOW_TO_CONFIGURE_MODEL;
    },
  };
}

export function createProvider(settings: Settings, logger: Logger): Provider {
  const m = settings.model;
  const common = { timeoutMs: settings.config.model.timeout_seconds * 1000, maxRetries: settings.config.model.max_retries };
  if (m.provider === 'openai') return openai({ apiKey: m.apiKey, baseURL: m.baseURL, ...common });
  if (m.provider === 'anthropic')
    return anthropic({ apiKey: m.apiKey, baseURL: m.baseURL, cacheTtl: settings.config.model.cache_ttl, ...common });
  return createAutoProvider(m.baseURL, m.name, settings, logger);
}
