// Top frames of a .cpuprofile by self time and by total time (a frame counted once per sample
// even when it recurses). `node bench/tools/profile-top.js file.cpuprofile [n] [filter] [fromMs toMs]`:
// with a window (milliseconds counted back from the profile's end), only the samples taken in it,
// so the boot and the tenant setup do not mix with the load.
const { readFileSync } = require('node:fs');

function top(file, n = 30, filter = '', window = null) {
  const p = JSON.parse(readFileSync(file, 'utf8'));
  const byId = new Map(p.nodes.map((x) => [x.id, x]));
  const parent = new Map();
  for (const x of p.nodes) for (const c of x.children ?? []) parent.set(c, x.id);
  const key = (x) => {
    const f = x.callFrame;
    const url = f.url.replace(/^file:\/\//, '').replace(/^.*node_modules\//, 'nm/').replace(/^.*\/dist\//, 'dist/');
    return `${f.functionName || '(anon)'} ${url}:${f.lineNumber + 1}`;
  };
  const hitsOf = new Map();
  if (window) {
    let t = p.endTime;
    for (let i = p.samples.length - 1; i >= 0; i--) {
      const ago = (p.endTime - t) / 1000;
      if (ago >= window[1] && ago <= window[0]) hitsOf.set(p.samples[i], (hitsOf.get(p.samples[i]) ?? 0) + 1);
      t -= p.timeDeltas[i];
    }
  }
  const self = new Map();
  const total = new Map();
  let all = 0;
  for (const x of p.nodes) {
    const hits = window ? (hitsOf.get(x.id) ?? 0) : (x.hitCount ?? 0);
    if (!hits) continue;
    all += hits;
    self.set(key(x), (self.get(key(x)) ?? 0) + hits);
    const seen = new Set();
    for (let id = x.id; id !== undefined; id = parent.get(id)) {
      const k = key(byId.get(id));
      if (seen.has(k)) continue;
      seen.add(k);
      total.set(k, (total.get(k) ?? 0) + hits);
    }
  }
  const idle = self.get('(idle) :0') ?? 0;
  const print = (title, m) => {
    console.log(`\n${title} (samples ${all}, idle ${idle}, busy ${all - idle})`);
    [...m.entries()]
      .filter(([k]) => !filter || k.includes(filter))
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .forEach(([k, v]) => console.log(`${String(v).padStart(7)} ${((100 * v) / (all - idle)).toFixed(1).padStart(5)}%  ${k}`));
  };
  print('self', self);
  print('total', total);
}

if (require.main === module) {
  const [file, n, filter, from, to] = process.argv.slice(2);
  top(file, Number(n || 30), filter || '', from ? [Number(from), Number(to || 0)] : null);
}
module.exports = { top };
