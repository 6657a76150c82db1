import type { Settings } from '../settings.js';
import { ModelError } from '../errors.js';
import type { Logger } from '../logger.js';
import type { ModelRequest, ModelResponse, Provider } from './provider.js';
import { createOpenAIProvider } from './openai.js';
import { createAnthropicProvider } from './anthropic.js';

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
      ollama = createOpenAIProvider({
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
      if (!p) throw new ModelError(HOW_TO_CONFIGURE_MODEL);
      return p.complete(request);
    },
    async check(): Promise<string | null> {
      const p = await probe();
      return p ? p.check() : HOW_TO_CONFIGURE_MODEL;
    },
  };
}

export function createProvider(settings: Settings, logger: Logger): Provider {
  const m = settings.model;
  const common = { timeoutMs: settings.config.model.timeout_seconds * 1000, maxRetries: settings.config.model.max_retries };
  if (m.provider === 'openai') return createOpenAIProvider({ apiKey: m.apiKey, baseURL: m.baseURL, ...common });
  if (m.provider === 'anthropic')
    return createAnthropicProvider({ apiKey: m.apiKey, baseURL: m.baseURL, cacheTtl: settings.config.model.cache_ttl, ...common });
  return createAutoProvider(m.baseURL, m.name, settings, logger);
}
