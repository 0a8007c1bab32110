import { ConfigError, loadConfig } from '../../src/config/config.ts';

/** What the service says, one line a setting, when it refuses to start with `env`; none when it starts. */
export const configProblems = (env: Record<string, string>): string[] => {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  return [];
};
