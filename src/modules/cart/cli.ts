/**
 * `vitrine carts expire`: removes the expired carts now, as the cart-expiry job of `vitrine serve` does every hour —
 * open carts untouched for 30 days (the cart cookie's lifetime) and empty ones untouched for a day; bought carts stay
 * (src/modules/cart/cartExpiry.ts).
 */
import { expireCarts } from './cartExpiry';
import { defineCommand, type Command } from '../../platform/cli/command';
import { loadSettings } from '../../config';
import { withDatabase } from '../../platform/cli/database';

const expireCommand = defineCommand({
  name: 'carts expire',
  details: ["What the cart-expiry job of 'vitrine serve' does every hour; bought carts stay."],
  async run(_args, io) {
    return withDatabase(loadSettings(), io, async (handle) => {
      const { removed } = await expireCarts(handle.db, new Date());
      io.out(
        removed === 0
          ? 'No expired carts to remove.'
          : `Removed ${removed} expired cart${removed === 1 ? '' : 's'} (open and untouched for 30 days, or empty for a day).`,
      );
      return 0;
    });
  },
});

export const commands: readonly Command[] = [expireCommand];
