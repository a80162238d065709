/**
 * A real SMTP server for tests (the `smtp-server` package, on a free loopback port) that keeps every
 * message it accepts, exactly as it arrived and as `mailparser` reads it, and answers as the test
 * tells it: accept, or refuse a message with a code (451 to be tried later, 550 for good). No TLS:
 * it stands for a local relay, which the service reaches in plain SMTP.
 */
import type { TestContext } from 'node:test';
import { type ParsedMail, simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  /** MAIL FROM and RCPT TO: what the server was told, whatever the headers say. */
  envelope: { from: string; to: string[] };
  /** The message as it arrived, headers and body. */
  raw: string;
  parsed: ParsedMail;
  messageId: string;
}

/** Every DATA the server saw, accepted or not, in order. */
export interface SmtpAttempt {
  messageId: string;
  /** The code it answered with. */
  code: number;
}

export interface Refusal {
  code: number;
  message: string;
}

export interface TestSmtpServer {
  /** `smtp://127.0.0.1:PORT`, with the credentials when the server asks for them. */
  url: string;
  port: number;
  received: ReceivedMail[];
  attempts: SmtpAttempt[];
  /** How to answer the next messages: a refusal, or undefined to accept (the default). */
  answer(decide: (mail: { messageId: string; attempt: number }) => Refusal | undefined): void;
  close(): Promise<void>;
}

export async function startSmtpServer(t: TestContext, options: { auth?: { user: string; pass: string } } = {}): Promise<TestSmtpServer> {
  const received: ReceivedMail[] = [];
  const attempts: SmtpAttempt[] = [];
  let decide: (mail: { messageId: string; attempt: number }) => Refusal | undefined = () => undefined;
  const { auth } = options;
  const server = new SMTPServer({
    logger: false,
    disabledCommands: auth ? ['STARTTLS'] : ['STARTTLS', 'AUTH'],
    // Credentials over plain SMTP: only because this is loopback, as the service allows.
    allowInsecureAuth: true,
    authOptional: !auth,
    onAuth(login, _session, callback) {
      if (auth && login.username === auth.user && login.password === auth.pass) return callback(null, { user: login.username });
      callback(Object.assign(new Error('Invalid username or password'), { responseCode: 535 }));
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        simpleParser(raw)
          .then((parsed) => {
            const messageId = parsed.messageId ?? '';
            const sameBefore = attempts.filter((a) => a.messageId === messageId).length;
            const refusal = decide({ messageId, attempt: sameBefore + 1 });
            attempts.push({ messageId, code: refusal?.code ?? 250 });
            if (refusal) return callback(Object.assign(new Error(refusal.message), { responseCode: refusal.code }));
            const envelope = {
              from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
              to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
            };
            received.push({ envelope, raw, parsed, messageId });
            callback(null, `OK: queued as ${received.length}`);
          })
          .catch((error: unknown) => callback(error as Error));
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const port = (server.server.address() as { port: number }).port;
  const credentials = auth ? `${encodeURIComponent(auth.user)}:${encodeURIComponent(auth.pass)}@` : '';
  let closed = false;
  const close = async () => {
    if (closed) return;
    closed = true;
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
  t.after(close);
  return {
    url: `smtp://${credentials}127.0.0.1:${port}`,
    port,
    received,
    attempts,
    answer(next) {
      decide = next;
    },
    close,
  };
}
