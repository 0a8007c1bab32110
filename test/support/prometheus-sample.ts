/** The value of one series of a Prometheus text exposition (`/metrics`), or undefined when it is not there. */
export const sample = (text: string, series: string): number | undefined => {
  const line = text.split('\n').find((candidate) => candidate.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
};
