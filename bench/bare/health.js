// Bare baseline for GET /health/live: node:http answering the same JSON.
const { createServer } = require('node:http');
const body = JSON.stringify({ status: 'ok' });
createServer((req, res) => {
  if (req.url === '/health/live' || req.url === '/__ready') {
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) });
    res.end(body);
    return;
  }
  res.writeHead(404).end();
}).listen(Number(process.env.PORT), '127.0.0.1');
