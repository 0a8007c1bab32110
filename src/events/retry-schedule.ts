/**
 * The attempts of an outbox's item (a mail, a webhook delivery, a platform transmission), as their
 * deciders and jobs share them: an attempt is due once its next attempt, if one was set, has come; the
 * wait after a failure is the schedule's next step, its last one repeating.
 */

/** No next attempt set (try now), or its time has come. */
export const isAttemptDue = (nextAttemptAt: string | null, now: Date): boolean => nextAttemptAt === null || Date.parse(nextAttemptAt) <= now.getTime();

/** The instant of the attempt after `failures` failed ones, failing `at`: the schedule's step for that many, its last one repeating. */
export const nextAttemptAfter = (scheduleMs: readonly number[], failures: number, at: Date): Date =>
  new Date(at.getTime() + scheduleMs[Math.min(failures, scheduleMs.length - 1)]!);
