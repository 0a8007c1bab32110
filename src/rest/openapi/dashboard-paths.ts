import { z } from 'zod';
import { dashboardPaths } from '../dashboard/routes.ts';
import type { RouteDoc } from './document.ts';

/** The dashboards' pages and their two files (rest/dashboard), without authentication: their figures come from POST /graphql. */

const dashboardError = z.object({ success: z.literal(false), error: z.string(), message: z.string() });

const titles: Record<(typeof dashboardPaths)[number], string> = {
  '/dashboard': 'The dashboards (the overview)',
  '/dashboard/overview': 'Dashboard: orders, revenue, refunds, leads and SAVs over a period, beside the period before',
  '/dashboard/sale': 'Dashboard: a sale, by increment ID or customer e-mail, and as it stood at an earlier instant',
  '/dashboard/after-sales': 'Dashboard: SAVs by category, type and status, and the SAV planning of the next 30 days',
  '/dashboard/suppliers': "Dashboard: each supplier's lines and delays over a period",
  '/dashboard/events': 'Dashboard: the event feed, filtered by type and stream',
};

const operationIdOf = (path: string): string =>
  `getDashboard${path
    .split('/')
    .slice(2)
    .flatMap((segment) => segment.split('-'))
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join('')}Page`;

export const dashboardRouteDocs = (): RouteDoc[] => [
  ...dashboardPaths.map((path): RouteDoc => ({
    method: 'get',
    path,
    operationId: operationIdOf(path),
    summary: titles[path],
    description: 'A page in French; it asks for an analyst, auditor or core token and reads only the GraphQL API with it (docs/dashboard.md).',
    tags: ['reference'],
    responses: { 200: { description: 'The page.', file: 'text/html' } },
  })),
  {
    method: 'get',
    path: '/dashboard/assets/:file',
    operationId: 'getDashboardAsset',
    summary: "The dashboards' script or style sheet",
    tags: ['reference'],
    pathParams: z.object({ file: z.enum(['dashboard.js', 'dashboard.css']).describe('One of the files of the dashboards') }),
    responses: {
      200: { description: 'The file.', file: '*/*' },
      404: {
        description: 'No such file.',
        body: dashboardError,
        example: { success: false, error: 'Not Found', message: 'No route for GET /dashboard/assets/nope.js' },
      },
    },
  },
];
