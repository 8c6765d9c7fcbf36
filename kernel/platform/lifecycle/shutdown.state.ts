/** Set on SIGTERM: readiness answers 503 at once, before the server stops accepting. */
export class ShutdownState {
  private draining = false;

  isDraining(): boolean {
    return this.draining;
  }

  beginDrain(): void {
    this.draining = true;
  }
}
