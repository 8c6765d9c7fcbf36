import { createServer, Server } from 'node:http';
import type { HttpAdapterHost } from '@nestjs/core';
import type { PeriodicJobs, PeriodicJobSpec } from '../../../kernel/platform/jobs/periodic-jobs';
import { PixApiRejection } from './pix-api-client';
import { PspCallbackRegistrar } from './psp-callback-registrar';

/** A real HTTP server not yet listening, as Nest's adapter holds it; the job runner records what is scheduled. */
function harness(put: (url: string) => Promise<void>) {
  const server: Server = createServer((_req, res) => res.end());
  const scheduled: PeriodicJobSpec[] = [];
  const jobs = { schedule: (spec: PeriodicJobSpec) => void scheduled.push(spec) } as unknown as PeriodicJobs;
  const host = { httpAdapter: { getHttpServer: () => server } } as unknown as HttpAdapterHost;
  const registrar = new PspCallbackRegistrar(
    { name: 'test-callbacks', label: 'test callbacks', registered: '/x', enabled: true, put },
    jobs,
    host,
  );
  const listen = () => new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const close = () => new Promise((r) => server.close(r));
  return { server, scheduled, registrar, listen, close };
}

const unreachable = () => Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });

describe('PspCallbackRegistrar: when and how often our callbacks are registered at the PSP', () => {
  it('nothing before listen; at listen, with the own address; an unreachable PSP is tried again a second later, then registered once', async () => {
    const urls: string[] = [];
    let fails = 1;
    const h = harness(async (url) => {
      urls.push(url);
      if (fails-- > 0) throw unreachable();
    });
    try {
      h.registrar.onApplicationBootstrap();
      await new Promise((r) => setTimeout(r, 200));
      expect(urls).toEqual([]); // not listening: its own address does not exist yet
      expect(h.scheduled.map((s) => [s.name, s.everyMs, s.needsDatabase])).toEqual([['test-callbacks', 60_000, false]]);
      const t0 = Date.now();
      await h.listen();
      while (urls.length < 2 && Date.now() - t0 < 3000) await new Promise((r) => setTimeout(r, 20));
      const port = (h.server.address() as { port: number }).port;
      expect(urls).toEqual([`http://127.0.0.1:${port}/provider/pix-api`, `http://127.0.0.1:${port}/provider/pix-api`]);
      expect(Date.now() - t0).toBeGreaterThanOrEqual(900); // the second try a second after the first
      // registered: the minute's job does not register again
      await h.scheduled[0].run();
      expect(urls).toHaveLength(2);
    } finally {
      h.registrar.onApplicationShutdown();
      await h.close();
    }
  });

  it('a refusal (4xx) is an answer: no hurried retries, the minute job tries again', async () => {
    let calls = 0;
    const h = harness(async () => {
      calls++;
      throw new PixApiRejection('putWebhook', { status: 400, title: 'Chave inválida' });
    });
    try {
      h.registrar.onApplicationBootstrap();
      await h.listen();
      await new Promise((r) => setTimeout(r, 1500));
      expect(calls).toBe(1);
      await expect(h.scheduled[0].run()).rejects.toBeInstanceOf(PixApiRejection);
      expect(calls).toBe(2);
    } finally {
      h.registrar.onApplicationShutdown();
      await h.close();
    }
  });

  it('off (the bank is not API Pix): no job, no PUT, even once listening', async () => {
    let calls = 0;
    const server: Server = createServer((_req, res) => res.end());
    const scheduled: PeriodicJobSpec[] = [];
    const r = new PspCallbackRegistrar(
      { name: 'off', label: 'off', registered: '', enabled: false, put: async () => void calls++ },
      { schedule: (spec: PeriodicJobSpec) => void scheduled.push(spec) } as unknown as PeriodicJobs,
      { httpAdapter: { getHttpServer: () => server } } as unknown as HttpAdapterHost,
    );
    r.onApplicationBootstrap();
    await new Promise<void>((res) => server.listen(0, '127.0.0.1', () => res()));
    await new Promise((res) => setTimeout(res, 100));
    await new Promise((res) => server.close(res));
    expect([scheduled.length, calls]).toEqual([0, 0]);
  });

  it('PIX_API_WEBHOOK_URL, when set, is what is registered', () => {
    const h = harness(async () => undefined);
    const r = new PspCallbackRegistrar(
      {
        name: 'n',
        label: 'l',
        registered: '',
        enabled: true,
        configuredUrl: 'https://pay.example.com.br/provider/pix-api',
        put: async () => undefined,
      },
      { schedule: () => undefined } as unknown as PeriodicJobs,
      { httpAdapter: { getHttpServer: () => h.server } } as unknown as HttpAdapterHost,
    );
    expect(r.webhookUrl()).toBe('https://pay.example.com.br/provider/pix-api');
  });
});
