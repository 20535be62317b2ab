/** A command-line mistake (exit code 2): its message names the bad value and what would be valid. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}
