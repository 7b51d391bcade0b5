import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { queueRequests, TurnQueue } from './requestTurns';

describe('TurnQueue', () => {
  it('gives turns in the order they were asked for', async () => {
    const turns = new TurnQueue();
    const order: number[] = [];
    await Promise.all([1, 2, 3, 4].map((n) => turns.wait().then(() => order.push(n))));
    expect(order).toEqual([1, 2, 3, 4]);
    expect(turns.length).toBe(0);
  });

  it('lets the event loop turn between two turns (a timer set in the first runs before the second)', async () => {
    const turns = new TurnQueue();
    const events: string[] = [];
    await Promise.all([
      turns.wait().then(() => {
        events.push('first');
        // Due before the next turn's timers run: the turn after this one runs it first.
        setTimeout(() => events.push('timer'), 1);
        const until = performance.now() + 5;
        while (performance.now() < until);
      }),
      turns.wait().then(() => events.push('second')),
    ]);
    expect(events).toEqual(['first', 'timer', 'second']);
  });

  it('keeps its order past the point where it drops the turns already given', async () => {
    const turns = new TurnQueue();
    const order: number[] = [];
    const count = 3000;
    await Promise.all(Array.from({ length: count }, (_, n) => turns.wait().then(() => order.push(n))));
    expect(order).toEqual(Array.from({ length: count }, (_, n) => n));
    expect(turns.length).toBe(0);
  });
});

describe('queueRequests', () => {
  it('queues the routes registered after it, reads and writes alike, in the order they came', async () => {
    const app = Fastify();
    const turns = queueRequests(app);
    app.get('/read', async () => ({ waiting: turns.length }));
    app.post('/write', async () => ({ waiting: turns.length }));
    // Three requests at once: each runs in its turn while the later ones still wait for theirs.
    const answers = await Promise.all([
      app.inject({ method: 'POST', url: '/write' }),
      app.inject({ method: 'GET', url: '/read' }),
      app.inject({ method: 'POST', url: '/write' }),
    ]);
    expect(answers.map((res) => (res.json() as { waiting: number }).waiting)).toEqual([2, 1, 0]);
    await app.close();
  });
});
