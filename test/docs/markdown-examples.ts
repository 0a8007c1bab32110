/**
 * The runnable examples of a markdown file: its fenced blocks whose info string is `bash`, in order.
 * Every other block (`sh`, `text`, `http`, `graphql`, ...) is explanation and is not run.
 */
export type Example = { line: number; code: string };

const fence = /^(`{3,}|~{3,})\s*([^\s`]*)/;

export const runnableExamples = (markdown: string): Example[] => {
  const examples: Example[] = [];
  const lines = markdown.split('\n');
  for (let index = 0; index < lines.length; index += 1) {
    const opening = fence.exec(lines[index]!);
    if (!opening) continue;
    const [, marker, info] = opening as unknown as [string, string, string];
    const body: string[] = [];
    let end = index + 1;
    while (end < lines.length && !lines[end]!.trimStart().startsWith(marker)) body.push(lines[end++]!);
    if (end === lines.length) throw new Error(`line ${index + 1}: a fenced block is never closed`);
    if (info === 'bash') examples.push({ line: index + 1, code: body.join('\n') });
    index = end;
  }
  return examples;
};
