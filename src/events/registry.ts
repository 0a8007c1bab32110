import { z } from 'zod';
import type { EventDefinition } from './schema/define-event.ts';
import { reportReadRepair } from './schema/read-repairs.ts';
import type { JsonObject, RecordedEvent } from './store/event-store.ts';
import { saleEventDefinitions, type SaleEvent } from './sales/events.ts';
import { savEventDefinitions, type SavEvent } from './after-sales/events.ts';
import { leadEventDefinitions, type LeadEvent } from './leads/events.ts';
import { productEventDefinitions, type ProductEvent } from './catalog/events.ts';
import { planningEventDefinitions, type PlanningEvent } from './planning/events.ts';
import { accessEventDefinitions, type AccessEvent } from './access/events.ts';
import { idEventDefinitions, type IdEvent } from './ids/events.ts';
import { customerEventDefinitions, type CustomerEvent } from './customers/events.ts';
import type { PersonalDataRule } from './schema/personal-data.ts';
import { invoicingEventDefinitions, type InvoicingEvent } from './invoicing/events.ts';
import { treeHeadEventDefinitions, type TreeHeadEvent } from './audit/events.ts';
import { customerMailEventDefinitions, type CustomerMailEvent } from './customer-mails/events.ts';
import { webhookEventDefinitions, type WebhookEvent } from './webhooks/events.ts';
import { eInvoicingEventDefinitions, type EInvoicingEvent } from './e-invoicing/events.ts';

/**
 * Every event type the service records. An event is validated against its schema when it is appended
 * and again when it is read (after upcasting from the version it was written at), so a read model or a
 * decision never sees data of the wrong shape.
 */

export type DomainEvent =
  | SaleEvent
  | SavEvent
  | LeadEvent
  | ProductEvent
  | PlanningEvent
  | AccessEvent
  | IdEvent
  | CustomerEvent
  | InvoicingEvent
  | TreeHeadEvent
  | CustomerMailEvent
  | WebhookEvent
  | EInvoicingEvent;
export type DomainEventType = DomainEvent['type'];
export type EventOfType<T extends DomainEventType> = Extract<DomainEvent, { type: T }>;

/** A domain event as read back from the store, with its position, revision and metadata. */
export type StoredEvent<E extends DomainEvent = DomainEvent> = E & Omit<RecordedEvent, 'type' | 'data'>;

const definitions: readonly EventDefinition[] = [
  ...saleEventDefinitions,
  ...savEventDefinitions,
  ...leadEventDefinitions,
  ...productEventDefinitions,
  ...planningEventDefinitions,
  ...accessEventDefinitions,
  ...idEventDefinitions,
  ...customerEventDefinitions,
  ...invoicingEventDefinitions,
  ...treeHeadEventDefinitions,
  ...customerMailEventDefinitions,
  ...webhookEventDefinitions,
  ...eInvoicingEventDefinitions,
];

const byType = new Map<string, EventDefinition>(definitions.map((definition) => [definition.type, definition]));

export const allEventTypes = [...byType.keys()] as DomainEventType[];

/** An event whose type is unknown or whose data does not match its schema. */
export class InvalidEventError extends Error {
  readonly code = 'INVALID_EVENT';
  constructor(
    readonly eventType: string,
    readonly issues: string,
  ) {
    super(`Invalid ${eventType} event: ${issues}`);
    this.name = 'InvalidEventError';
  }
}

const definitionOf = (type: string): EventDefinition => {
  const definition = byType.get(type);
  if (!definition) throw new InvalidEventError(type, 'unknown event type');
  return definition;
};

const parseWith = (definition: EventDefinition, data: unknown): unknown => {
  const result = definition.schema.safeParse(data);
  if (!result.success) throw new InvalidEventError(definition.type, z.prettifyError(result.error));
  return result.data;
};

/** Validates a new event's data and returns it with the schema version to record in its metadata. */
export const encodeEvent = (event: DomainEvent): { data: JsonObject; schemaVersion: number } => {
  const definition = definitionOf(event.type);
  return { data: parseWith(definition, event.data) as JsonObject, schemaVersion: definition.version };
};

/** Upcasts a recorded event to the current version of its type and validates it. */
export const decodeEvent = (recorded: RecordedEvent): StoredEvent => {
  const definition = definitionOf(recorded.type);
  let data: unknown = recorded.data;
  for (let version = recorded.metadata.schemaVersion ?? 1; version < definition.version; version++) {
    const upcast = definition.upcasters[version];
    if (!upcast) throw new InvalidEventError(recorded.type, `no upcaster from version ${version}`);
    data = upcast(data, (field, before, after, reason) =>
      reportReadRepair({ type: recorded.type, streamName: recorded.streamName, position: recorded.position, field, recorded: before, read: after, reason }),
    );
  }
  return { ...recorded, data: parseWith(definition, data) } as StoredEvent;
};

/** The personal data an event type carries, as declared beside its schema; undefined when none. */
export const personalDataOf = (type: string): PersonalDataRule | undefined => byType.get(type)?.personal;

/** Every event type that carries personal data. */
export const personalEventTypes = definitions.filter((definition) => definition.personal !== undefined).map((definition) => definition.type);

export const isDomainEventType = (type: string): type is DomainEventType => byType.has(type);
