/**
 * The bootstrap configuration (spec §7 `GET /api/context/config`; its fields: src/modules/site/contextConfig.ts), for the
 * few places a script needs something the page's HTML does not carry. Asked once per page, at the first need, never
 * at page start. On failure (no answer, an error status, an unreadable body) the error is reported through the error
 * reporter (`reportError`: it reaches src/client/measure/catchErrors.ts like an uncaught error) and the answer is
 * null: callers go on without it. A failed call is asked again at the next need.
 */
import type { ContextConfig } from '../modules/site/contextConfig';

export type { ContextConfig };

export const CONTEXT_CONFIG_API = '/api/context/config';

let asked: Promise<ContextConfig | null> | null = null;

/** Whether an answer has the shape every caller relies on (the rest is read defensively where it is used). */
const isContextConfig = (answer: unknown): answer is ContextConfig => {
  if (typeof answer !== 'object' || answer === null) return false;
  const { website, labels, storeSettings } = answer as Record<string, unknown>;
  return (
    typeof website === 'object' &&
    website !== null &&
    typeof (website as { id?: unknown }).id === 'string' &&
    typeof labels === 'object' &&
    labels !== null &&
    typeof storeSettings === 'object' &&
    storeSettings !== null
  );
};

/** Loads the configuration (`fetchImpl` and `report` for tests; `base` is the site's origin, '' in the browser). */
export async function loadContextConfig(
  options: { fetchImpl?: typeof fetch; report?: (error: Error) => void; base?: string } = {},
): Promise<ContextConfig | null> {
  const { fetchImpl = fetch, report = (error: Error) => reportError(error), base = '' } = options;
  try {
    const response = await fetchImpl(`${base}${CONTEXT_CONFIG_API}`, { credentials: 'same-origin' });
    if (!response.ok) throw new Error(`${CONTEXT_CONFIG_API} answered HTTP ${response.status}`);
    const answer: unknown = await response.json();
    if (!isContextConfig(answer))
      throw new Error(`${CONTEXT_CONFIG_API} answered a body that is not the configuration`);
    return answer;
  } catch (error) {
    report(
      error instanceof Error
        ? new Error(`Bootstrap configuration unavailable: ${error.message}`)
        : new Error('Bootstrap configuration unavailable'),
    );
    return null;
  }
}

/** The page's configuration, asked once (null, reported, when it could not be had). */
export function contextConfig(): Promise<ContextConfig | null> {
  asked ??= loadContextConfig().then((config) => {
    if (config === null) asked = null;
    return config;
  });
  return asked;
}
