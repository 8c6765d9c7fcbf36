import { join } from 'node:path';

const LIB = join(__dirname, '..', '..', 'bench', 'lib.js');

type Lib = {
  knob: (name: string, normal: number) => number;
  report: (line: object) => object;
  SMOKE: boolean;
  SMOKE_KNOBS: Record<string, number>;
};

/** `use` of bench/lib.js loaded afresh under `env` (it reads BENCH_SMOKE when loaded, a knob when asked). */
function libWith<T>(env: Record<string, string | undefined>, use: (lib: Lib) => T): T {
  const saved = { ...process.env };
  Object.assign(process.env, env);
  for (const [k, v] of Object.entries(env)) if (v === undefined) delete process.env[k];
  try {
    let lib: Lib | undefined;
    jest.isolateModules(() => {
      lib = require(LIB) as Lib;
    });
    return use(lib!);
  } finally {
    process.env = saved;
  }
}

// CI runs every bench scenario once in smoke mode (`npm run bench -- --smoke`, .ci/run): the knobs
// that make a scenario brief live in one table in bench/lib.js, and a smoke run never judges a goal.
describe('bench smoke knobs', () => {
  const clear = { BENCH_SMOKE: undefined, BENCH_DURATION: undefined, BENCH_ENGINE_RECURRENCES: undefined };

  it('gives the scenario default outside a smoke run and the smoke value in one', () => {
    expect(libWith(clear, (lib) => lib.knob('BENCH_ENGINE_RECURRENCES', 100000))).toBe(100000);
    expect(
      libWith({ ...clear, BENCH_SMOKE: '1' }, (lib) => [lib.knob('BENCH_ENGINE_RECURRENCES', 100000), lib.knob('BENCH_DURATION', 10)]),
    ).toEqual([1000, 1]);
  });

  it('lets a knob set in the environment win over both', () => {
    expect(libWith({ ...clear, BENCH_SMOKE: '1', BENCH_DURATION: '3' }, (lib) => lib.knob('BENCH_DURATION', 10))).toBe(3);
  });

  it('refuses, in a smoke run, a knob with no smoke value (it would run at full size)', () => {
    expect(() => libWith({ ...clear, BENCH_SMOKE: '1' }, (lib) => lib.knob('BENCH_SOMETHING_NEW', 5))).toThrow(/SMOKE_KNOBS/);
  });

  it('marks a smoke line and leaves its goal unjudged', () => {
    const write = jest.spyOn(process.stdout, 'write').mockImplementation(() => true);
    try {
      const line = libWith({ ...clear, BENCH_SMOKE: '1' }, (lib) =>
        lib.report({ name: 'x', ratio: 0.4, met: false, verdict: { ofFloor: 'missed' } }),
      );
      expect(line).toEqual({ name: 'x', ratio: 0.4, met: 'not judged (smoke)', verdict: 'not judged (smoke)', smoke: true });
      expect(libWith(clear, (lib) => lib.report({ name: 'x', met: false }))).toEqual({ name: 'x', met: false });
    } finally {
      write.mockRestore();
    }
  });
});
