import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';

/** A local HTTP server that answers every POST with `{}` after handing its JSON body (and path) to `onBody`. */
export async function jsonCollector(onBody: (path: string, body: any) => void | Promise<{ status: number; text: string } | undefined>) {
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', async () => {
      const answer = await onBody(req.url!, JSON.parse(body));
      if (answer) res.writeHead(answer.status, { 'content-type': 'application/json' }).end(answer.text);
      else res.writeHead(200).end('{}');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}
