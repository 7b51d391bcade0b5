/**
 * A query built with Kysely's builder once per engine, then run again and again with new values (issue 13: building
 * and compiling each query anew took about a tenth of an add to cart's time, two thirds of what SQLite took to run them).
 *
 * The builder is given, in place of each value, a marker naming it; the compiled SQL is kept with, for each of its
 * parameters, the name of the value that goes there (or the constant the builder wrote). A run copies the values in
 * and hands the compiled query to Kysely, which runs it as it runs any other (the same driver, the same statement
 * cache on SQLite); on SQLite, inside a transaction it runs straight on the held connection (./heldConnection) and
 * outside one a read goes to the reading connection and a write joins a commit group (./outsideTransaction). The SQL
 * text stays the builder's, checked by TypeScript against the tables as any query is.
 *
 * A builder must put each value where Kysely makes a parameter of it (a comparison, an inserted or updated value),
 * never in a list whose length varies (`in (…)`) nor in raw SQL (a marker that reached the SQL text throws on the
 * first run), and must build the same query whatever the values (no branching on them: they are markers then).
 * A Kysely with plugins builds the query anew on every run, with the values: a plugin sees every query as usual.
 */
import type { Compilable, CompiledQuery, Kysely, QueryResult } from 'kysely';
import { engineOf, type Engine } from '../connect';
import { heldStatements, readerOf, runStatement, statementsOf } from './heldConnection';
import { runOutsideTransaction } from './outsideTransaction';
import type { Database } from '../tables';

/** Stands for the value `name` while the query is built: text no value can be (PostgreSQL refuses a NUL in text). */
const MARKER_START = '\u0000value:';
const marker = (name: string): string => `${MARKER_START}${name}\u0000`;

interface Compiled<R> {
  query: CompiledQuery<R>;
  /** For each parameter of the SQL, the name of the value that goes there, or undefined to keep the built one. */
  slots: (string | undefined)[];
}

export interface PreparedQuery<V, R> {
  /** Runs the query inside `db` (a transaction or connection as well) with these values. */
  execute(db: Kysely<Database>, values: V): Promise<QueryResult<R>>;
}

/**
 * `build` receives the values as markers (typed as the values, for the builder's checks) and returns the query; it
 * runs once per engine.
 */
export function compiledQuery<V extends Record<string, unknown>, R>(
  build: (db: Kysely<Database>, values: V) => Compilable<R>,
): PreparedQuery<V, R> {
  const compiledFor = new Map<Engine, Compiled<R>>();
  const compile = (db: Kysely<Database>): Compiled<R> => {
    const markers = new Proxy({} as V, {
      get: (_target, name) => (typeof name === 'string' ? marker(name) : undefined),
    });
    const query = build(db, markers).compile();
    const slots = query.parameters.map((parameter) =>
      typeof parameter === 'string' && parameter.startsWith(MARKER_START)
        ? parameter.slice(MARKER_START.length, -1)
        : undefined,
    );
    if (query.sql.includes('\u0000'))
      throw new Error(`compiledQuery: a value was written into the SQL text: ${query.sql}`);
    return { query, slots };
  };
  return {
    async execute(db, values) {
      // A plugin may rewrite or watch each query (the query-plan test records them): built anew, with the values.
      if (db.getExecutor().plugins.length > 0) return db.executeQuery(build(db, values));
      const engine = engineOf(db);
      let compiled = compiledFor.get(engine);
      if (compiled === undefined) compiledFor.set(engine, (compiled = compile(db)));
      const { query, slots } = compiled;
      const parameters = slots.map((name, i) => {
        if (name === undefined) return query.parameters[i];
        if (!(name in values)) throw new Error(`compiledQuery: no value given for ${name}`);
        return values[name];
      });
      const held = heldStatements(db);
      if (held !== undefined) return runStatement<R>(held, query.sql, parameters);
      const statements = statementsOf(db);
      const reader = readerOf(db);
      if (statements !== undefined && reader !== undefined)
        return runOutsideTransaction<Database, R>(db, statements, reader, query.sql, parameters);
      return db.executeQuery<R>({ ...query, parameters });
    },
  };
}
