// A local stand-in for ntfy and a webhook receiver on 127.0.0.1: records every request, answers
// what the test asks (200 by default). The recording server is misbehaving.ts's, so both read a
// request and close their connections the same way.
import { startServer } from '../helpers/misbehaving.ts';

export interface Received {
  method: string;
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

export interface Receiver {
  url: string;
  received: Received[];
  /** The next answers, in order, before 200 again: a status and its headers. */
  answerNext(...answers: { status: number; headers?: Record<string, string> }[]): void;
  close(): Promise<void>;
}

export async function startReceiver(): Promise<Receiver> {
  const received: Received[] = [];
  const queue: { status: number; headers?: Record<string, string> }[] = [];
  const server = await startServer(({ method, url, headers, body }, res) => {
    received.push({ method, path: url, headers, body });
    const a = queue.shift() ?? { status: 200 };
    res.writeHead(a.status, { 'Content-Type': 'application/json', ...a.headers }).end('{}');
  });
  return {
    url: server.origin,
    received,
    answerNext: (...a) => void queue.push(...a),
    close: () => server.close(),
  };
}
