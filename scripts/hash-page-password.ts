/**
 * Prints the scrypt hash of a page password for the site file's `pages[].password` (docs/site-file.md), so the file
 * need not hold the password as written: `npx tsx scripts/hash-page-password.ts` reads the first line of standard input
 * (type it, or `… < file`; it is not in the shell's history that way) and prints the hash.
 */
import { createInterface } from 'node:readline';
import { hashPassword } from '../src/modules/siteUsers/passwords';

async function readPassword(): Promise<string> {
  if (process.stdin.isTTY) process.stderr.write('Page password: ');
  const lines = createInterface({ input: process.stdin, terminal: false });
  for await (const line of lines) {
    lines.close();
    return line;
  }
  return '';
}

const password = await readPassword();
if (password.trim() === '' || password.length > 256) {
  process.stderr.write('\nThe password must be 1 to 256 characters and not only spaces.\n');
  process.exit(1);
}
process.stdout.write(`${await hashPassword(password)}\n`);
