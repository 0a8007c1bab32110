import cliProgress from 'cli-progress';
import type { Runtime } from '../runtime.ts';

/**
 * The one progress bar of the long commands (`demo seed`, `projections rebuild`, `projections reset`),
 * on stderr: a percentage, the count, a rate and the time left. The rate is measured over the last
 * seconds of work only, from the first unit done: the setup before it (opening the stores, the
 * catalog) does not make the first estimate hours long. On a terminal the bar redraws in place;
 * elsewhere (a pipe, CI) it prints a line every 10 s.
 */
export type ProgressBar = {
  update(value: number): void;
  stop(): void;
};

const windowMs = 10_000;

/** 42s, 3m05s, 1h02m. */
export const formatDuration = (seconds: number): string => {
  const whole = Math.max(0, Math.round(seconds));
  if (whole < 60) return `${whole}s`;
  if (whole < 3600) return `${Math.floor(whole / 60)}m${String(whole % 60).padStart(2, '0')}s`;
  return `${Math.floor(whole / 3600)}h${String(Math.floor((whole % 3600) / 60)).padStart(2, '0')}m`;
};

const grouped = new Intl.NumberFormat('en-US');

/** What a bar over the log counts: events in the embedded store; on EventStoreDB, positions in its log. */
export const logUnit = (runtime: Runtime): string => (runtime.config.eventStoreUrl ? 'positions' : 'events');

export const progressBar = (label: string, total: number, unit: string, stream: NodeJS.WriteStream = process.stderr): ProgressBar => {
  const bar = new cliProgress.SingleBar(
    {
      format: `${label} {bar} {percentage}% | {count} ${unit} | {rate} | {left}`,
      stream,
      noTTYOutput: true,
      notTTYSchedule: 10_000,
      hideCursor: true,
      barsize: 30,
      clearOnComplete: false,
    },
    cliProgress.Presets.shades_classic,
  );
  const samples: { at: number; value: number }[] = [];
  let started = false;
  const payload = (value: number, now: number) => {
    const first = samples[0];
    const seconds = first ? (now - first.at) / 1000 : 0;
    const rate = first && seconds >= 0.5 ? (value - first.value) / seconds : 0;
    return {
      count: `${grouped.format(value)}/${grouped.format(total)}`,
      rate: rate > 0 ? `${grouped.format(Math.round(rate))} ${unit}/s` : `… ${unit}/s`,
      left: value >= total ? 'done' : rate > 0 ? `${formatDuration((total - value) / rate)} left` : 'time left …',
    };
  };
  return {
    update(value) {
      const now = performance.now();
      if (!started) {
        started = true;
        // From 0: off a terminal the start is a line of its own, and the end another (not the same twice).
        bar.start(total, 0, payload(0, now));
      }
      samples.push({ at: now, value });
      while (samples.length > 2 && samples[1]!.at < now - windowMs) samples.shift();
      bar.update(value, payload(value, now));
    },
    stop() {
      if (started) bar.stop();
    },
  };
};
