// GET /health/live through the whole service vs a bare node:http route.
const { join } = require('node:path');
const { freshDatabase, startService, startBare, load, pair } = require('./lib');

async function main() {
  const db = await freshDatabase();
  const bare = await startBare(join(__dirname, 'bare/health.js'));
  const b = await load({ url: `${bare.url}/health/live` });
  await bare.stop();
  const svc = await startService({ DATABASE_URL: db.url });
  const s = await load({ url: `${svc.url}/health/live` });
  await svc.stop();
  await db.drop();
  pair('health.live', b, s);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
