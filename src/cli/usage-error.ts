/** Bad command-line arguments: the CLI prints the message as one line and exits 2. */
export class UsageError extends Error {
  override name = 'UsageError';
}
