/**
 * The kinds of mail the outbox knows: each module registers its own at startup (src/modules/mailKinds.ts, called by
 * the server and the CLI), so the outbox, which knows nothing of orders or gift cards, asks the registry what a
 * message's kind needs. A kind needs an entry only when its messages are not sent as stored:
 *
 * - `renderer`: messages stored as render data (an order's e-mails) get their text and HTML rendered when they are
 *   sent or shown; made once per drain or listing, so it can read what several messages share once.
 * - `prepare`: a claimed message's bodies are made just before the send (a gift card's code, made then and stored
 *   nowhere), and `confirm` runs in the transaction that marks it sent.
 *
 * Every other message (restock, subscriptions, forms) is rendered when written and needs no entry.
 */
import type { Kysely } from 'kysely';
import { err, ok, type Result } from '../../core/result';
import type { Database } from '../db/tables';

type Db = Kysely<Database>;

/** What a kind reads of a message in the outbox (outbox.ts's OutboxMessage is one). */
export interface QueuedMessage {
  id: string;
  siteId: string;
  kind: string;
  to: string;
  subject: string;
  /** As stored ('' for a message stored as render data). */
  text: string;
  html: string;
  orderId: string | null;
  /** JSON its kind's renderer reads, or null: the text and HTML are stored. */
  renderData: string | null;
}

/** The text and HTML of a message stored as render data, or why they cannot be rendered (it can never be sent). */
export type BodyRenderer = (message: QueuedMessage) => Promise<Result<{ text: string; html: string }, string>>;

/** What to send for a claimed message, made just before the send. */
export interface PreparedSend {
  text: string;
  html: string;
  /** After the server accepted it, in the transaction that marks it sent. */
  confirm?: (trx: Db, now: Date) => Promise<void>;
  /** Told to the drain's onSent and stored nowhere (a gift card's code, for `vitrine giftcards issue`). */
  detail?: string;
}

/** Why a claimed message is not sent now: 'busy', another sender has it (left alone); 'gone', never to be sent. */
export interface NotPrepared {
  reason: 'busy' | 'gone';
  message: string;
}

export interface MailKind {
  /** The outbox's `kind` of its messages, e.g. 'order-confirmation'. */
  kind: string;
  renderer?: (db: Db) => BodyRenderer;
  prepare?: (db: Db, message: QueuedMessage, now: Date) => Promise<Result<PreparedSend, NotPrepared>>;
}

const kinds = new Map<string, MailKind>();

/**
 * Registers kinds of mail (again with the same definitions is a no-op: each entry point registers at its start).
 * Throws when another definition already holds one of the kinds: two modules must not claim the same messages.
 */
export function registerMailKinds(definitions: readonly MailKind[]): void {
  for (const definition of definitions) {
    const known = kinds.get(definition.kind);
    if (known !== undefined && known !== definition)
      throw new Error(`the mail kind '${definition.kind}' is registered twice`);
  }
  for (const definition of definitions) kinds.set(definition.kind, definition);
}

/** The registered definition of a kind of mail, if any. */
export const mailKind = (kind: string): MailKind | undefined => kinds.get(kind);

/** Every kind registered, in order of registration (for checks and tests). */
export const registeredMailKinds = (): string[] => [...kinds.keys()];

/**
 * Kinds whose definitions are loaded when the outbox first meets one of their messages: an entry point registers every
 * kind at its start without loading the modules' mail code (React, their services) until a drain or listing needs it.
 * `load` answers the definitions of exactly `kinds`.
 */
export function lazyMailKinds(kinds: readonly string[], load: () => Promise<readonly MailKind[]>): MailKind[] {
  let loaded: Promise<Map<string, MailKind>> | undefined;
  const definition = async (kind: string): Promise<MailKind | undefined> =>
    (await (loaded ??= load().then((definitions) => new Map(definitions.map((d) => [d.kind, d]))))).get(kind);
  // One per drain or listing, shared by these kinds; each loaded renderer is made once in it, as the outbox does.
  const renderer = (db: Db): BodyRenderer => {
    const made = new Map<NonNullable<MailKind['renderer']>, BodyRenderer>();
    return async (message) => {
      const make = (await definition(message.kind))?.renderer;
      if (make === undefined)
        return err(`cannot render the ${message.kind} e-mail: no template renders that kind from render data`);
      let render = made.get(make);
      if (render === undefined) made.set(make, (render = make(db)));
      return render(message);
    };
  };
  const prepare: NonNullable<MailKind['prepare']> = async (db, message, now) => {
    const made = (await definition(message.kind))?.prepare;
    return made === undefined ? ok({ text: message.text, html: message.html }) : made(db, message, now);
  };
  return kinds.map((kind) => ({ kind, renderer, prepare }));
}
