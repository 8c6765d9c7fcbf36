import createClient, { Client } from 'openapi-fetch';
import { request } from 'node:https';
import type { paths } from './pix-api';

/**
 * An API Pix client that is not the service's: `openapi-fetch` over the types `openapi-typescript`
 * generates from the Central Bank's file as published (test/fixtures/pix-api, generated into
 * ./pix-api.d.ts with ./redocly.yaml; test/sandbox/pix-api-conformance.e2e-spec.ts checks the
 * committed file is what the generator makes today). What an integrator's generated client does.
 */
export type PixApi = Client<paths>;

export interface MutualTls {
  cert: string;
  key: string;
  ca: string;
}

/**
 * `fetch` with a client certificate, over node:https (Node's own fetch takes no client
 * certificate without the undici package). Only transport: paths, bodies and answers are the
 * generated client's.
 */
export function mutualTlsFetch(tls: MutualTls): (input: Request) => Promise<Response> {
  return async (input) => {
    const url = new URL(input.url);
    const body = input.body ? Buffer.from(await input.arrayBuffer()) : undefined;
    return new Promise<Response>((resolve, reject) => {
      const req = request(
        {
          hostname: url.hostname,
          port: url.port,
          path: url.pathname + url.search,
          method: input.method,
          headers: Object.fromEntries(input.headers),
          ...tls,
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => {
            const headers = new Headers();
            for (const [k, v] of Object.entries(res.headers)) for (const x of [v ?? []].flat()) headers.append(k, x);
            const empty = res.statusCode === 204 || res.statusCode === 304;
            resolve(new Response(empty ? null : Buffer.concat(chunks), { status: res.statusCode, headers }));
          });
        },
      );
      req.on('error', reject);
      req.end(body);
    });
  };
}

/** OAuth2 client_credentials at `<baseUrl>/oauth/token` (HTTP Basic), then the generated client with the bearer. */
export async function pixApiClient(baseUrl: string, tls: MutualTls, clientId: string, clientSecret: string): Promise<PixApi> {
  const fetch = mutualTlsFetch(tls);
  const answer = await fetch(
    new Request(`${baseUrl}/oauth/token`, {
      method: 'POST',
      headers: {
        authorization: `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString('base64')}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: 'grant_type=client_credentials',
    }),
  );
  if (answer.status !== 200) throw new Error(`token: ${answer.status} ${await answer.text()}`);
  const { access_token } = (await answer.json()) as { access_token: string };
  return createClient<paths>({ baseUrl, fetch, headers: { authorization: `Bearer ${access_token}` } });
}
