/** Waits for a condition the code under test reaches asynchronously (a live event being applied). */
export const eventually = async (condition: () => Promise<boolean> | boolean, timeoutMs = 2000): Promise<void> => {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('condition not reached in time');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
};
