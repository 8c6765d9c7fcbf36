import { installLastResort, isLostConnection } from './last-resort';

describe('the last resort', () => {
  it('tells a lost connection from a defect', () => {
    expect(isLostConnection(new Error('Connection terminated unexpectedly'))).toBe(true);
    expect(isLostConnection(Object.assign(new Error('x'), { code: 'ECONNRESET' }))).toBe(true);
    expect(isLostConnection(Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' }))).toBe(true);
    expect(isLostConnection(Object.assign(new Error('x'), { code: '08006' }))).toBe(true);
    expect(isLostConnection(new TypeError("Cannot read properties of undefined (reading 'id')"))).toBe(false);
    expect(isLostConnection(Object.assign(new Error('duplicate key'), { code: '23505' }))).toBe(false);
    expect(isLostConnection('a string')).toBe(false);
  });

  it('serves on after a rejection or a lost connection, ends the process on any other exception, logging each with its stack', () => {
    const logged: [boolean, string, string][] = [];
    const exits: number[] = [];
    const uninstall = installLastResort(
      (fatal, msg, stack) => logged.push([fatal, msg, stack]),
      (c) => exits.push(c),
    );
    try {
      process.emit('unhandledRejection', new Error('nobody awaited me'), Promise.resolve());
      (process.emit as (e: string, ...a: unknown[]) => boolean)(
        'uncaughtException',
        new Error('Connection terminated unexpectedly'),
        'uncaughtException',
      );
      expect(exits).toEqual([]);
      (process.emit as (e: string, ...a: unknown[]) => boolean)('uncaughtException', new TypeError('a defect'), 'uncaughtException');
      expect(exits).toEqual([1]);
      expect(logged.map(([fatal]) => fatal)).toEqual([false, false, true]);
      expect(logged[0][2]).toMatch(/nobody awaited me\n\s+at /);
      expect(logged[2][1]).toMatch(/ending the process/);
    } finally {
      uninstall();
    }
  });

  it('takes an error of its own log streams (EPIPE: the reader went) without logging it, and gives them back when removed', () => {
    const logged: string[] = [];
    const before = [process.stdout.listenerCount('error'), process.stderr.listenerCount('error')];
    const uninstall = installLastResort(
      (_fatal, msg) => logged.push(msg),
      () => undefined,
    );
    try {
      const epipe = Object.assign(new Error('write EPIPE'), { code: 'EPIPE', syscall: 'write' });
      expect(() => process.stderr.emit('error', epipe)).not.toThrow(); // with no listener, emit throws it
      expect(() => process.stdout.emit('error', epipe)).not.toThrow();
      expect(logged).toEqual([]);
    } finally {
      uninstall();
    }
    expect([process.stdout.listenerCount('error'), process.stderr.listenerCount('error')]).toEqual(before);
  });
});
