/**
 * The one cart store every island reads (cart pill, add buttons, cart page list). It holds the last cart the
 * server answered and tells subscribers when it changes; nothing else in the browser keeps cart state.
 */
import { parseMoney } from '../core/money';
import type { AddRequestFailure } from '../core/addToCartErrors';
import { shouldLoadCartAtStart } from '../core/cartLoad';

export const CART_API = '/api/commerce/shopping-cart';
export const CART_ENTRIES_API = '/api/commerce/shopping-cart/entries';

export interface CartLine {
  id: string;
  itemId: string;
  sku: string;
  title: string;
  attributes: Record<string, string>;
  quantity: number;
  /** Line total in minor units. */
  subtotalCents: number;
  /** Unit price in minor units. */
  unitPriceCents: number;
  /** JSON text of the product form's answers, '' when none. */
  additionalFields: string;
  /** The answers as the server summarized them (field title and lines), [] when none. */
  answers: { title: string; lines: string[] }[];
}

export interface CartSnapshot {
  /** False until the cart has been fetched (or we know there is none to fetch). */
  loaded: boolean;
  totalQuantity: number;
  subtotalCents: number;
  entries: CartLine[];
}

export interface AddEntryPayload {
  itemId: string;
  sku: string;
  quantity: number;
  additionalFields?: string;
}

export type AddEntryResult =
  | { ok: true; cart: CartSnapshot }
  /** `fields`: the server's per-field messages for product form answers (field id → message), when it sent them. */
  | { ok: false; failure: AddRequestFailure; fields?: Record<string, string> };

/** What the server renders and what hydration starts from: nothing known about this visitor's cart. */
export const UNKNOWN_CART: CartSnapshot = Object.freeze({ loaded: false, totalQuantity: 0, subtotalCents: 0, entries: [] });
const EMPTY_CART: CartSnapshot = Object.freeze({ loaded: true, totalQuantity: 0, subtotalCents: 0, entries: [] });

const num = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) ? v : Number(v) || 0);
const str = (v: unknown): string => (typeof v === 'string' ? v : v === undefined || v === null ? '' : String(v));
const cents = (v: unknown): number => {
  if (typeof v === 'number') return num(v);
  const parsed = parseMoney(v);
  return parsed.ok ? parsed.value.minorUnits : 0;
};

/** Reads the §3 cart answer (tolerating missing fields) into the snapshot the islands render. */
export function toSnapshot(answer: unknown): CartSnapshot {
  if (typeof answer !== 'object' || answer === null) return EMPTY_CART;
  const cart = answer as Record<string, unknown>;
  const entries = Array.isArray(cart.entries) ? (cart.entries as Record<string, unknown>[]) : [];
  const lines = entries.map((e): CartLine => {
    const variant = (e.chosenVariant ?? {}) as Record<string, unknown>;
    const quantity = num(e.quantity);
    const unit = num(e.purchasePriceCents);
    return {
      id: str(e.id),
      itemId: str(e.itemId),
      sku: str(variant.sku ?? e.sku),
      title: str(e.title),
      attributes: (typeof variant.attributes === 'object' && variant.attributes !== null ? variant.attributes : {}) as Record<string, string>,
      quantity,
      unitPriceCents: unit,
      subtotalCents: e.subTotal !== undefined ? cents(e.subTotal) : unit * quantity,
      additionalFields: str(e.additionalFields),
      answers: answerSummaries(e.additionalFieldsSummary),
    };
  });
  return {
    loaded: true,
    totalQuantity: cart.totalQuantity !== undefined ? num(cart.totalQuantity) : lines.reduce((n, l) => n + l.quantity, 0),
    subtotalCents: num(cart.subtotalCents),
    entries: lines,
  };
}

/** The entry's additionalFieldsSummary (docs/api.md), keeping only well-formed items. */
function answerSummaries(value: unknown): CartLine['answers'] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((item: unknown) => {
    if (typeof item !== 'object' || item === null) return [];
    const { title, lines } = item as { title?: unknown; lines?: unknown };
    if (typeof title !== 'string' || !Array.isArray(lines)) return [];
    return [{ title, lines: lines.filter((l): l is string => typeof l === 'string') }];
  });
}

function readCookie(cookieString: string, name: string): string | null {
  for (const part of cookieString.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return null;
}

/** The refusal's message (null: none, the core falls back to its own text) and per-field messages, if any. */
async function serverRefusal(response: Response): Promise<{ message: string | null; fields?: Record<string, string> }> {
  try {
    const body = (await response.json()) as { message?: unknown; error?: unknown; fields?: unknown };
    const fields =
      typeof body.fields === 'object' && body.fields !== null && !Array.isArray(body.fields)
        ? Object.fromEntries(Object.entries(body.fields).filter((e): e is [string, string] => typeof e[1] === 'string'))
        : undefined;
    const withFields = fields ? { fields } : {};
    if (typeof body.message === 'string') return { message: body.message, ...withFields };
    if (typeof body.error === 'string') return { message: body.error, ...withFields };
    if (typeof body.error === 'object' && body.error !== null && typeof (body.error as { message?: unknown }).message === 'string') {
      return { message: (body.error as { message: string }).message, ...withFields };
    }
    return { message: null, ...withFields };
  } catch {
    // Not JSON (a proxy error page, say): the core falls back to its own text.
  }
  return { message: null };
}

type Listener = () => void;

export class CartStore {
  #snapshot: CartSnapshot = UNKNOWN_CART;
  readonly #listeners = new Set<Listener>();
  #loading: Promise<void> | null = null;

  constructor(private readonly fetchImpl: typeof fetch = (...args) => fetch(...args)) {}

  getSnapshot = (): CartSnapshot => this.#snapshot;
  getServerSnapshot = (): CartSnapshot => UNKNOWN_CART;

  subscribe = (listener: Listener): (() => void) => {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  };

  #set(snapshot: CartSnapshot): void {
    this.#snapshot = snapshot;
    this.#listeners.forEach((l) => l());
  }

  /** §4: at page start the cart is fetched only for signed-in visitors or when a cart is known to exist. */
  start(cookieString: string): Promise<void> {
    const wanted = shouldLoadCartAtStart({
      siteUserInfo: readCookie(cookieString, 'SiteUserInfo'),
      hasCart: readCookie(cookieString, 'hasCart'),
      cartCookie: readCookie(cookieString, 'CART') !== null,
    });
    if (!wanted) {
      this.#set(EMPTY_CART);
      return Promise.resolve();
    }
    return this.load();
  }

  load(): Promise<void> {
    this.#loading ??= (async () => {
      try {
        const response = await this.fetchImpl(CART_API, { credentials: 'same-origin', headers: { accept: 'application/json' } });
        this.#set(response.ok ? toSnapshot(await response.json()) : EMPTY_CART);
      } catch {
        // Offline at page start: show no cart rather than a broken one; the next add fetches it again.
        this.#set(EMPTY_CART);
      } finally {
        this.#loading = null;
      }
    })();
    return this.#loading;
  }

  /** POST an entry; on success every island sees the new cart at once. */
  addEntry(payload: AddEntryPayload): Promise<AddEntryResult> {
    return this.#change(CART_ENTRIES_API, 'POST', { additionalFields: '', ...payload });
  }

  /** The cart page's quantity box: sets a line's quantity (the server re-checks stock when it grows). */
  setQuantity(entryId: string, quantity: number | string): Promise<AddEntryResult> {
    return this.#change(`${CART_ENTRIES_API}/${encodeURIComponent(entryId)}/quantity`, 'PUT', { quantity });
  }

  /** The cart page's remove button. */
  removeEntry(entryId: string): Promise<AddEntryResult> {
    return this.#change(`${CART_ENTRIES_API}/${encodeURIComponent(entryId)}`, 'DELETE');
  }

  /**
   * One write to the cart API; the answered cart (in `shoppingCart`) is published to every island. When the line is
   * gone (404: removed in another tab), the cart is fetched again so the page shows what is really there.
   */
  async #change(url: string, method: 'POST' | 'PUT' | 'DELETE', body?: unknown): Promise<AddEntryResult> {
    let response: Response;
    try {
      response = await this.fetchImpl(url, {
        method,
        credentials: 'same-origin',
        headers: body === undefined ? { accept: 'application/json' } : { 'content-type': 'application/json', accept: 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
    } catch {
      return { ok: false, failure: { kind: 'network' } };
    }
    if (!response.ok) {
      const refusal = await serverRefusal(response);
      const failure = { kind: 'http', status: response.status, serverMessage: refusal.message } as const;
      if (response.status === 404 && method !== 'POST') await this.load();
      return { ok: false, failure, ...(refusal.fields ? { fields: refusal.fields } : {}) };
    }
    const answer = (await response.json().catch(() => ({}))) as { shoppingCart?: unknown };
    const cart = toSnapshot(answer.shoppingCart);
    this.#set(cart);
    return { ok: true, cart };
  }

  /** Units of one SKU already in the cart (the §5 stock check counts them). */
  quantityInCart(sku: string): number {
    return this.#snapshot.entries.filter((e) => e.sku === sku).reduce((n, e) => n + e.quantity, 0);
  }
}

/** The page's store. Created lazily so importing this module on the server touches no browser API. */
let shared: CartStore | null = null;
export const cartStore = (): CartStore => (shared ??= new CartStore());
