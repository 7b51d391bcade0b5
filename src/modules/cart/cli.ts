/**
 * `vitrine carts expire`: removes the expired carts now, as the cart-expiry job of `vitrine serve` does every hour —
 * open carts untouched for 30 days (the cart cookie's lifetime) and empty ones untouched for a day; bought carts stay
 * (src/modules/cart/cartExpiry.ts).
 */
import { expireCarts } from './cartExpiry';
import { loadSettings, UsageError, withDatabase, type CliIo } from '../../cli/run';
import { printable } from '../../platform/cli/table';

export async function cartsCommand(args: string[], io: CliIo): Promise<number> {
  const [first, ...rest] = args;
  if (first !== 'expire') {
    throw new UsageError(
      first === undefined
        ? "'carts' needs a command: vitrine carts expire"
        : `unknown carts command '${printable(first)}' (use 'vitrine carts expire')`,
    );
  }
  if (rest.length) throw new UsageError(`'carts expire' takes no arguments, got '${printable(rest.join(' '))}'`);
  return withDatabase(loadSettings(), io, async (handle) => {
    const { removed } = await expireCarts(handle.db, new Date());
    io.out(
      removed === 0
        ? 'No expired carts to remove.'
        : `Removed ${removed} expired cart${removed === 1 ? '' : 's'} (open and untouched for 30 days, or empty for a day).`,
    );
    return 0;
  });
}
