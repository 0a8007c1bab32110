/**
 * Fields of recorded events that the feed does not show: credentials stay out of an analyst's reach
 * even though the log keeps them (the hash of a token's secret is what a token is checked against).
 * The CLI replay, for operators who hold the data files anyway, shows events whole.
 */
const withheld: Readonly<Record<string, readonly string[]>> = {
  AccessTokenIssued: ['secretHash'],
};

/** The event's data without its withheld fields (the same object when it has none). */
export const feedData = (type: string, data: unknown): unknown => {
  const fields = withheld[type];
  if (fields === undefined || typeof data !== 'object' || data === null) return data;
  return Object.fromEntries(Object.entries(data).filter(([key]) => !fields.includes(key)));
};
