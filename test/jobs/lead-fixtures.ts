import { systemContext, type Clock } from '../../src/events/command-context.ts';
import { leadStreamName } from '../../src/events/leads/events.ts';
import { captureLead, type CaptureLeadInput } from '../../src/events/leads/lead-handlers.ts';
import type { Runtime } from '../../src/runtime.ts';

/** A clock the test moves by hand, to reach a failed notification's next attempt. */
export type ManualClock = Clock & { advance: (milliseconds: number) => void; iso: () => string };

export const manualClock = (start = '2026-03-12T09:30:00.000Z'): ManualClock => {
  let current = Date.parse(start);
  return {
    now: () => new Date(current),
    advance: (milliseconds) => {
      current += milliseconds;
    },
    iso: () => new Date(current).toISOString(),
  };
};

export const mailSettings = { MAIL_FROM: 'Service commandes <commandes@meubles-example.fr>', LEAD_NOTIFY_TO: 'equipe-pro@meubles-example.fr' };

export const elodie: CaptureLeadInput = {
  name: 'Élodie Marchand',
  email: 'elodie.marchand@example.fr',
  phone: '+33 6 12 34 56 78',
  projectName: 'Cuisine équipée pour un gîte',
};

/** A lead recorded through its command, as the API records it, and in the read models when this resolves. */
export const recordLead = async (runtime: Runtime, input: Partial<CaptureLeadInput> = {}): Promise<string> => {
  const { leadId, written } = await captureLead(runtime.write, { ...elodie, ...input }, systemContext());
  if (written) await runtime.projections.waitFor(written.position);
  return leadId;
};

export const leadEvents = async (runtime: Runtime, leadId: string) =>
  (await runtime.eventStore.readStream(leadStreamName(leadId))).map(({ type, data }) => ({ type, data }));
