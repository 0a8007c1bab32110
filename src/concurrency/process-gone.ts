/**
 * Whether the process with this ID on this machine is known to be gone: signal 0 reaches no process
 * (ESRCH). Any other answer, a process of another user (EPERM) included, means it may still run.
 */
export const processIsGone = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
};
