/** A CLI failure caused by its input: printed as it is (no stack), exit code 2. */
export class CliError extends Error {
  readonly code = 'CLI_INPUT';
  constructor(message: string) {
    super(message);
    this.name = 'CliError';
  }
}

/** A check that ran and found a fault (an audit that fails): printed as it is, exit code 1. */
export class CheckFailed extends Error {
  readonly code = 'CHECK_FAILED';
  constructor(message: string) {
    super(message);
    this.name = 'CheckFailed';
  }
}
