/** Whether the database has been reached and migrated; features wait on it to start timers. */
export class DatabaseState {
  private ready = false;
  private readonly waiters: (() => void)[] = [];
  lastError: string | null = null;

  isReady(): boolean {
    return this.ready;
  }

  markReady(): void {
    this.ready = true;
    this.lastError = null;
    for (const w of this.waiters.splice(0)) w();
  }

  onReady(fn: () => void): void {
    if (this.ready) fn();
    else this.waiters.push(fn);
  }
}
