/** The examples closing a command's `--help`, each as an operator types it. */
export const examples = (...commands: string[]): string => `\nExamples:\n${commands.map((command) => `  $ npm run --silent cli -- ${command}`).join('\n')}\n`;
