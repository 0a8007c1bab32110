/** A CLI failure caused by its input: printed as it is (no stack), exit code 2. */
export class CliError extends Error {
  readonly code = 'CLI_INPUT';
  constructor(message: string) {
    super(message);
    this.name = 'CliError';
  }
}
