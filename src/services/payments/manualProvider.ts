/** Bank transfer or pay on pickup: nothing is charged at checkout; the order is placed as awaiting payment. */
import { createHash } from 'node:crypto';
import { ok } from '../../core/result';
import type { PaymentProvider } from './provider';

export function manualProvider(instructions: string): PaymentProvider {
  return {
    name: 'manual',
    notice: instructions,
    authorize: async (req) => ({
      status: 'awaiting-payment',
      reference: `manual_${createHash('sha256').update(req.idempotencyKey).digest('hex').slice(0, 24)}`,
    }),
    capture: async () => ok(undefined),
    void: async () => ok(undefined),
    refund: async () => ok(undefined),
  };
}
