// GET /health/live through the whole service vs a bare node:http route, in alternating rounds.
const { join } = require('node:path');
const { freshDatabase, startService, startBare, compare, pair } = require('./lib');

async function main() {
  const db = await freshDatabase();
  const bare = await startBare(join(__dirname, 'bare/health.js'));
  const svc = await startService({ DATABASE_URL: db.url });
  try {
    const r = await compare({ url: `${bare.url}/health/live` }, { url: `${svc.url}/health/live` });
    pair('health.live', r.bare, r.service);
  } finally {
    await bare.stop();
    await svc.stop();
    await db.drop();
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
