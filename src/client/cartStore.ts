/**
 * The one cart store every island reads (cart pill, add buttons, cart page list). It holds the last cart the
 * server answered and tells subscribers when it changes; nothing else in the browser keeps cart state.
 */
import type { AddRequestFailure } from '../core/addToCartErrors';
import { shouldLoadCartAtStart } from '../core/cartLoad';
import { CART_CLAIM_HEADER, isCartClaim } from '../core/cartClaim';
import { CRUMB_FAILURE_CODE, readCookie } from '../core/crumb';
import { cookiesEnabled, crumbHeaders } from './crumb';

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
  /** The product's type (§3), null when unknown (a removed product). */
  productType: number | null;
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
export const UNKNOWN_CART: CartSnapshot = Object.freeze({
  loaded: false,
  totalQuantity: 0,
  subtotalCents: 0,
  entries: [],
});
/** No cart: what a visitor without a cart cookie has. */
export const EMPTY_CART: CartSnapshot = Object.freeze({
  loaded: true,
  totalQuantity: 0,
  subtotalCents: 0,
  entries: [],
});

const num = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) ? v : Number(v) || 0);
const str = (v: unknown): string => (typeof v === 'string' ? v : v === undefined || v === null ? '' : String(v));

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
      attributes: (typeof variant.attributes === 'object' && variant.attributes !== null
        ? variant.attributes
        : {}) as Record<string, string>,
      quantity,
      unitPriceCents: unit,
      // subTotal is minor units (docs/openapi.json's CartEntry).
      subtotalCents: e.subTotal !== undefined ? num(e.subTotal) : unit * quantity,
      additionalFields: str(e.additionalFields),
      answers: answerSummaries(e.additionalFieldsSummary),
      productType: typeof e.productType === 'number' && Number.isInteger(e.productType) ? e.productType : null,
    };
  });
  return {
    loaded: true,
    totalQuantity:
      cart.totalQuantity !== undefined ? num(cart.totalQuantity) : lines.reduce((n, l) => n + l.quantity, 0),
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

/** The refusal's message (null: none, the core falls back to its own text) and per-field messages, if any. */
async function serverRefusal(
  response: Response,
): Promise<{ message: string | null; code?: string; fields?: Record<string, string> }> {
  try {
    const body = (await response.json()) as { message?: unknown; error?: unknown; fields?: unknown; code?: unknown };
    if (body.code === CRUMB_FAILURE_CODE) return { message: null, code: body.code };
    const fields =
      typeof body.fields === 'object' && body.fields !== null && !Array.isArray(body.fields)
        ? Object.fromEntries(Object.entries(body.fields).filter((e): e is [string, string] => typeof e[1] === 'string'))
        : undefined;
    const withFields = fields ? { fields } : {};
    if (typeof body.message === 'string') return { message: body.message, ...withFields };
    if (typeof body.error === 'string') return { message: body.error, ...withFields };
    if (
      typeof body.error === 'object' &&
      body.error !== null &&
      typeof (body.error as { message?: unknown }).message === 'string'
    ) {
      return { message: (body.error as { message: string }).message, ...withFields };
    }
    return { message: null, ...withFields };
  } catch {
    // Not JSON (a proxy error page, say): the core falls back to its own text.
  }
  return { message: null };
}

type Listener = () => void;

/** Where the page's cart claim is kept: shared by the site's tabs, so two tabs adding at once also make one cart. */
export const CART_CLAIM_STORAGE_KEY = 'vitrine.cartClaim';

/** What the store reads of the page besides the network (replaceable in tests). */
export interface CartStoreEnv {
  /** document.cookie. */
  cookies: () => string;
  /** localStorage, or null where it is unavailable (the claim then lives as long as the page). */
  storage: () => Pick<Storage, 'getItem' | 'setItem' | 'removeItem'> | null;
  /** A new claim: 128 random bits, base64url. */
  newClaim: () => string;
  /** navigator.cookieEnabled (§8: a crumb failure asks to enable cookies when false). */
  cookiesEnabled: () => boolean;
}

const browserEnv: CartStoreEnv = {
  cookies: () => (typeof document === 'undefined' ? '' : document.cookie),
  cookiesEnabled,
  storage: () => {
    try {
      return typeof localStorage === 'undefined' ? null : localStorage;
    } catch {
      return null; // Storage blocked by the browser's settings.
    }
  },
  newClaim: () => {
    const bytes = crypto.getRandomValues(new Uint8Array(16));
    return btoa(String.fromCharCode(...bytes))
      .replace(/\+/g, '-')
      .replace(/\//g, '_')
      .replace(/=+$/, '');
  },
};

export class CartStore {
  #snapshot: CartSnapshot = UNKNOWN_CART;
  readonly #listeners = new Set<Listener>();
  #loading: Promise<void> | null = null;
  /** The add in flight that may create the cart (no hasCart cookie when it was sent): other adds wait for it. */
  #creating: Promise<unknown> | null = null;
  /** The claim when storage is unavailable. */
  #pageClaim: string | null = null;
  readonly #env: CartStoreEnv;

  constructor(
    private readonly fetchImpl: typeof fetch = (...args) => fetch(...args),
    env: Partial<CartStoreEnv> = {},
  ) {
    this.#env = { ...browserEnv, ...env };
  }

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
        const response = await this.fetchImpl(CART_API, {
          credentials: 'same-origin',
          headers: { accept: 'application/json' },
        });
        this.#set(response.ok ? toSnapshot(await response.json()) : EMPTY_CART);
        if (response.ok) this.#dropLeftClaim();
      } catch {
        // Offline at page start: show no cart rather than a broken one; the next add fetches it again.
        this.#set(EMPTY_CART);
      } finally {
        this.#loading = null;
      }
    })();
    return this.#loading;
  }

  /**
   * POST an entry; on success every island sees the new cart at once. While no cart is known (no hasCart cookie) an
   * add may create the cart, so it goes alone: adds made meanwhile wait for it and then carry the cookie it set (or,
   * when it failed, the next one may create the cart). Every add also sends the page's cart claim, so adds that
   * still meet on the server without a cookie (another tab's, or ones sent beside a stale cookie) make one cart.
   */
  async addEntry(payload: AddEntryPayload): Promise<AddEntryResult> {
    const body = { additionalFields: '', ...payload };
    while (this.#creating) await this.#creating;
    const mayCreate = readCookie(this.#env.cookies(), 'hasCart') !== 'true';
    const claim = this.#claim();
    const sent = this.#change(CART_ENTRIES_API, 'POST', body, { [CART_CLAIM_HEADER]: claim });
    if (mayCreate) this.#creating = sent.catch(() => undefined);
    const creating = this.#creating;
    try {
      const result = await sent;
      // The cookie now names the cart: the next cart (after this one is bought, say) gets a claim of its own.
      if (result.ok) this.#dropClaim(claim);
      return result;
    } finally {
      if (mayCreate && this.#creating === creating) this.#creating = null;
    }
  }

  /** The page's cart claim: the stored one, or a new one stored for the next adds (docs/api.md). */
  #claim(): string {
    const storage = this.#env.storage();
    let stored: string | null = null;
    try {
      stored = storage?.getItem(CART_CLAIM_STORAGE_KEY) ?? null;
    } catch {
      // Unreadable storage: the page's own claim below.
    }
    if (isCartClaim(stored)) return stored;
    if (!isCartClaim(this.#pageClaim)) this.#pageClaim = this.#env.newClaim();
    try {
      storage?.setItem(CART_CLAIM_STORAGE_KEY, this.#pageClaim);
    } catch {
      // Full or blocked storage: the claim lives as long as the page.
    }
    return this.#pageClaim;
  }

  #dropClaim(claim: string): void {
    if (this.#pageClaim === claim) this.#pageClaim = null;
    try {
      const storage = this.#env.storage();
      if (storage?.getItem(CART_CLAIM_STORAGE_KEY) === claim) storage.removeItem(CART_CLAIM_STORAGE_KEY);
    } catch {
      // Nothing stored to drop.
    }
  }

  /**
   * A page that was left between an add's answer and its reading (the shopper clicked on at once) keeps its claim in
   * storage; once a cart is loaded while the hasCart cookie names it, that claim has done its work: dropped, so the
   * next cart (after this one is bought) gets a claim of its own.
   */
  #dropLeftClaim(): void {
    if (readCookie(this.#env.cookies(), 'hasCart') !== 'true') return;
    try {
      const stored = this.#env.storage()?.getItem(CART_CLAIM_STORAGE_KEY) ?? null;
      if (stored !== null) this.#dropClaim(stored);
    } catch {
      // Unreadable storage: nothing stored to drop.
    }
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
  async #change(
    url: string,
    method: 'POST' | 'PUT' | 'DELETE',
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<AddEntryResult> {
    let response: Response;
    try {
      response = await this.fetchImpl(url, {
        method,
        credentials: 'same-origin',
        headers: {
          ...(body === undefined
            ? { accept: 'application/json' }
            : { 'content-type': 'application/json', accept: 'application/json' }),
          ...crumbHeaders(this.#env.cookies()),
          ...headers,
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
    } catch {
      return { ok: false, failure: { kind: 'network' } };
    }
    if (!response.ok) {
      const refusal = await serverRefusal(response);
      // §8: a crumb failure has its own texts (whether the browser keeps cookies decides which).
      if (refusal.code === CRUMB_FAILURE_CODE)
        return { ok: false, failure: { kind: 'crumb', cookiesEnabled: this.#env.cookiesEnabled() } };
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
