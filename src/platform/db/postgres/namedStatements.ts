/**
 * PostgreSQL parses and plans every statement it is sent unless it is a named (prepared) one, which each connection
 * parses once and then only executes (issue 27: an order runs 19 statements, the same ones each time). This gives each
 * parameterised statement of the pool's clients a name — the same text, the same name, on every connection — so pg
 * prepares it on a connection's first use and reuses it after. Statements without parameters (BEGIN, COMMIT, a
 * migration's DDL) and multi-statement texts stay unnamed; after NAMED_STATEMENTS_MAX different texts (a query built
 * with a list of a varying length is a new text each time) new ones stay unnamed too, so a connection never holds an
 * unbounded number of prepared statements.
 */
import type pg from 'pg';

export const NAMED_STATEMENTS_MAX = 1_000;

type Query = (...args: unknown[]) => unknown;

/** Makes the clients `pool` connects from now on send their parameterised statements as named ones. */
export function nameStatements(pool: pg.Pool, max: number = NAMED_STATEMENTS_MAX): void {
  const names = new Map<string, string>();
  pool.on('connect', (client) => {
    const query = (client.query as Query).bind(client);
    (client as unknown as { query: Query }).query = (text: unknown, values?: unknown, ...rest: unknown[]) => {
      if (typeof text === 'string' && Array.isArray(values) && values.length > 0 && rest.length === 0) {
        let name = names.get(text);
        if (name === undefined && names.size < max && !text.includes(';')) {
          name = `s${names.size + 1}`;
          names.set(text, name);
        }
        if (name !== undefined) return query({ name, text, values });
      }
      return query(text, values, ...rest);
    };
  });
}
