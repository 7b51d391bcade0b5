/**
 * A real SMTP server for the e-mail tests (smtp-server on 127.0.0.1, a free port): it keeps every message it accepts,
 * can refuse recipients or answer slowly, and `readMail` reads what it got — headers (unfolded, encoded words
 * decoded) and the text and HTML parts — enough to assert on what a mail client would show.
 */
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  /** The envelope (MAIL FROM / RCPT TO), which is where the message really goes. */
  envelopeFrom: string;
  envelopeTo: string[];
  /** The authenticated user, when the client logged in. */
  user: string | undefined;
  raw: string;
  headers: Map<string, string>;
  text: string;
  html: string;
}

export interface TestSmtpServer {
  url: string;
  port: number;
  received: ReceivedMail[];
  /** Refuse every recipient with this reply (e.g. '550 Mailbox unavailable'), or accept again with null. */
  refuse(reply: string | null): void;
  /** Wait this long before accepting each message. */
  setDelay(ms: number): void;
  reset(): void;
  close(): Promise<void>;
}

/** `credentials` makes the server ask for a login (plain text allowed: it is a test on 127.0.0.1). */
export async function startSmtpServer(credentials?: { user: string; pass: string }): Promise<TestSmtpServer> {
  const received: ReceivedMail[] = [];
  let refusal: string | null = null;
  let delay = 0;
  const server = new SMTPServer({
    logger: false,
    disabledCommands: credentials ? ['STARTTLS'] : ['STARTTLS', 'AUTH'],
    authOptional: !credentials,
    allowInsecureAuth: true,
    onAuth(auth, _session, callback) {
      if (credentials && auth.username === credentials.user && auth.password === credentials.pass)
        callback(null, { user: auth.username });
      else callback(Object.assign(new Error('Invalid username or password'), { responseCode: 535 }));
    },
    onRcptTo(_address, _session, callback) {
      if (refusal === null) return callback();
      const [code, ...words] = refusal.split(' ');
      callback(Object.assign(new Error(words.join(' ')), { responseCode: Number(code) }));
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        const envelopeFrom = session.envelope.mailFrom ? session.envelope.mailFrom.address : '';
        received.push({
          envelopeFrom,
          envelopeTo: session.envelope.rcptTo.map((r) => r.address),
          user: typeof session.user === 'string' ? session.user : undefined,
          raw,
          ...readMail(raw),
        });
        setTimeout(() => callback(), delay);
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const address = server.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const auth = credentials ? `${encodeURIComponent(credentials.user)}:${encodeURIComponent(credentials.pass)}@` : '';
  return {
    url: `smtp://${auth}127.0.0.1:${port}`,
    port,
    received,
    refuse: (reply) => (refusal = reply),
    setDelay: (ms) => (delay = ms),
    reset() {
      received.length = 0;
      refusal = null;
      delay = 0;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** 'Crème' from '=?UTF-8?Q?Cr=C3=A8me?=' (and the base64 form). */
function decodeWords(value: string): string {
  return value
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(/=\?([^?]+)\?([QqBb])\?([^?]*)\?=/g, (_all, _charset: string, encoding: string, data: string) =>
      encoding.toUpperCase() === 'B'
        ? Buffer.from(data, 'base64').toString('utf8')
        : quotedPrintable(data.replace(/_/g, ' ')),
    );
}

function quotedPrintable(text: string): string {
  const bytes: number[] = [];
  const source = text.replace(/=\r?\n/g, '');
  for (let i = 0; i < source.length; i++) {
    const match = source[i] === '=' ? /^[0-9A-Fa-f]{2}$/.exec(source.slice(i + 1, i + 3)) : null;
    if (match) {
      bytes.push(parseInt(match[0], 16));
      i += 2;
    } else {
      bytes.push(...Buffer.from(source[i] as string, 'utf8'));
    }
  }
  return Buffer.from(bytes).toString('utf8');
}

interface Part {
  headers: Map<string, string>;
  body: string;
}

function splitPart(raw: string): Part {
  const end = raw.indexOf('\r\n\r\n');
  const head = end === -1 ? raw : raw.slice(0, end);
  const body = end === -1 ? '' : raw.slice(end + 4);
  const headers = new Map<string, string>();
  for (const line of head.replace(/\r\n[ \t]+/g, ' ').split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), decodeWords(line.slice(colon + 1).trim()));
  }
  return { headers, body };
}

function decodeBody(part: Part): string {
  const encoding = (part.headers.get('content-transfer-encoding') ?? '7bit').toLowerCase();
  if (encoding === 'base64') return Buffer.from(part.body.replace(/\s+/g, ''), 'base64').toString('utf8');
  if (encoding === 'quoted-printable') return quotedPrintable(part.body);
  return part.body;
}

/** The headers of a message and its text/plain and text/html bodies (one level of multipart is enough here). */
export function readMail(raw: string): { headers: Map<string, string>; text: string; html: string } {
  const message = splitPart(raw);
  const type = message.headers.get('content-type') ?? 'text/plain';
  const parts: Part[] = [];
  const boundary = /boundary="?([^";]+)"?/i.exec(type)?.[1];
  if (/^multipart\//i.test(type) && boundary) {
    for (const chunk of message.body.split(`--${boundary}`).slice(1)) {
      if (chunk.startsWith('--')) break;
      parts.push(splitPart(chunk.replace(/^\r\n/, '').replace(/\r\n$/, '')));
    }
  } else {
    parts.push(message);
  }
  const bodyOf = (mime: string) => {
    const part = parts.find((p) => (p.headers.get('content-type') ?? 'text/plain').toLowerCase().startsWith(mime));
    return part ? decodeBody(part).replace(/\r\n/g, '\n') : '';
  };
  return { headers: message.headers, text: bodyOf('text/plain'), html: bodyOf('text/html') };
}
