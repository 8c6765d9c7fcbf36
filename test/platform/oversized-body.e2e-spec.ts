import { startTestApp, TestApp } from '../support/test-app';

/**
 * A body over the limit gets its 413 in the envelope, never a reset connection: the service
 * reads (and discards) the rest of what the client is sending before it answers, so a client
 * that writes its whole body before reading (Node's fetch, most SDKs) reads the 413. Half the
 * bodies are one string (refused from their Content-Length), half arrive in 64 KiB pieces as
 * over a real network (refused once past the limit): answered and closed while the last pieces
 * were on their way, most of those ended in EPIPE or ECONNRESET instead.
 */
const ROUTES = ['/v1/banking/pix/automatic/recurrences', '/admin/tenants', '/v1/oauth/token', '/v1/acquiring/links'];
const ROUNDS = 40;
const CONCURRENCY = 4;
const PIECE = 64 * 1024;
/** 1.18 MB: the limit (1 MiB, 16 pieces) is passed with the 17th piece, and one more is on its way. */
const SIZE = 18 * PIECE - 20;

function trickled(json: string): ReadableStream<Uint8Array> {
  const bytes = new TextEncoder().encode(json);
  let at = 0;
  return new ReadableStream({
    async pull(c) {
      if (at >= bytes.length) return c.close();
      await new Promise((r) => setTimeout(r, 0));
      c.enqueue(bytes.subarray(at, at + PIECE));
      at += PIECE;
    },
  });
}

describe('an oversized body is answered 413 in the envelope', () => {
  jest.setTimeout(60_000);
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t?.close());

  it(`${ROUNDS} JSON bodies of 1.18 MB sent with fetch to POST routes: every client reads 413`, async () => {
    const json = JSON.stringify({ payerName: 'x'.repeat(SIZE) });
    const bad: string[] = [];
    let answered = 0;
    let next = 0;
    const worker = async () => {
      while (next < ROUNDS) {
        const i = next++;
        const path = ROUTES[i % ROUTES.length];
        const streamed = Math.floor(i / ROUTES.length) % 2 === 1;
        const label = `${path} (${streamed ? 'streamed' : 'one string'})`;
        try {
          const res = await fetch(`${t.url}${path}`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', authorization: 'Bearer nothing', 'x-admin-key': t.adminKey },
            body: streamed ? trickled(json) : json,
            ...(streamed ? { duplex: 'half' } : {}),
          } as RequestInit);
          const answer = await res.json();
          answered++;
          const envelope =
            answer.statusCode === 413 &&
            typeof answer.error === 'string' &&
            typeof answer.message === 'string' &&
            answer.requestId === res.headers.get('x-request-id');
          if (res.status !== 413 || !envelope) bad.push(`${label} → ${res.status} ${JSON.stringify(answer)}`);
        } catch (e: any) {
          bad.push(`${label} → ${e?.cause?.code ?? e?.message ?? e}`);
        }
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    expect(bad).toEqual([]);
    expect(answered).toBe(ROUNDS);
  });
});
