/**
 * Kysely table types: the database contract of docs/architecture.md. Same logical schema on SQLite and PostgreSQL:
 * booleans are integers 0/1, JSON documents are TEXT, times are ISO-8601 TEXT (UTC), money is integer minor units.
 * Each module declares its own tables in its tables.ts; row types and site-file types (src/modules/site/schema.ts)
 * are different types, and services map between them.
 */

/** 0 or 1. */
export type Bool = 0 | 1;

/**
 * The whole database: empty here, filled by each module's tables.ts (and the outbox's, src/platform/mail/tables.ts)
 * through declaration merging, so the platform names no module while every query sees every table. A table belongs to
 * the module that writes it; the others read it through that module's index.ts.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface Database {}
