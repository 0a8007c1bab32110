import type { GraphiQLOptions } from 'graphql-yoga';

/** The command that prints an analyst token (alone on its last line). */
export const analystTokenCommand = 'npm run --silent cli -- token issue --group analyst';

/**
 * What GraphiQL opens with: the Authorization header to fill in, and a first query that says where
 * the token comes from (a browser has none, and /graphql answers 401 without one).
 */
export const graphiqlOptions: GraphiQLOptions = {
  title: 'Orders and after-sales GraphQL',
  headers: JSON.stringify({ Authorization: 'Bearer <analyst token>' }, null, 2),
  defaultHeaders: JSON.stringify({ Authorization: 'Bearer <analyst token>' }, null, 2),
  defaultEditorToolsVisibility: 'headers',
  defaultQuery: `# Run this with an analyst token. In a terminal:
#   ${analystTokenCommand}
# prints it on its last line. Paste it in the
# Authorization header (Headers, below), in place
# of <analyst token>, then run the query.
query LatestSales {
  sales(last: 5) {
    edges {
      node {
        incrementId
        importedAt
        grandTotal
      }
    }
  }
}
`,
};
