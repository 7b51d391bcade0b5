/**
 * A Vitrine server in a process of its own (./serveApp.ts) on a database URL, over real HTTP: what the
 * multi-process tests run two of. `stop` ends it (SIGTERM) and waits for it.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { resolve } from 'node:path';

const TSX = resolve('node_modules/.bin/tsx');
const SERVER = resolve('test/support/serveApp.ts');

export interface ServerProcess {
  child: ChildProcess;
  /** http://127.0.0.1:<port> */
  base: string;
  stop(): Promise<void>;
}

export function startServerProcess(databaseUrl: string): Promise<ServerProcess> {
  return new Promise((ready, fail) => {
    const child = spawn(TSX, [SERVER, databaseUrl], { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    const timer = setTimeout(() => fail(new Error(`server did not start: ${output}`)), 30_000);
    const stop = () =>
      new Promise<void>((done) =>
        child.exitCode !== null ? done() : (child.once('exit', () => done()), child.kill('SIGTERM')),
      );
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /listening (\d+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        ready({ child, base: `http://127.0.0.1:${match[1]}`, stop });
      }
    });
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('exit', (code) => fail(new Error(`server exited with ${code}: ${output}`)));
  });
}
