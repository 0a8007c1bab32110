/** The secrets production requires (NODE_ENV=production): the action tokens' secret and the log's signing key (an Ed25519 seed). */
export const productionSecrets = {
  TOKEN_SECRET: 'a-production-secret-of-at-least-32-characters',
  LOG_SIGNING_KEY: 'BwcHBwcHBwcHBwcHBwcHBwcHBwcHBwcHBwcHBwcHBwc=',
};
