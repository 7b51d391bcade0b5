/** The measurement module's requests: form posts with the §9 census timeout, swallowing every failure. */
import { CENSUS_TIMEOUT_MS } from '../../core/timing';

/** POSTs a form; resolves with the status (0: no answer in 2.5 s or no network). Never rejects. */
export async function postForm(url: string, fields: Record<string, string>): Promise<number> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), CENSUS_TIMEOUT_MS);
  try {
    const response = await fetch(url, {
      method: 'POST',
      body: new URLSearchParams(fields),
      credentials: 'same-origin',
      keepalive: true,
      signal: controller.signal,
    });
    return response.status;
  } catch {
    return 0;
  } finally {
    clearTimeout(timer);
  }
}
