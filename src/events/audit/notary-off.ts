/** What the log's proofs, heads and key answer when the service keeps no tree (LOG_NOTARY=off). */
export const notaryOff =
  "The log's notary is off on this service (LOG_NOTARY=off): it keeps no tree of the log and signs no heads; `events audit verify` recomputes the tree from the log";
