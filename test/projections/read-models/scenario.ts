import { randomUUID } from 'node:crypto';
import { eventLog } from './event-log.ts';
import { creditNoteData, linesToCredit } from '../../../src/invoicing/credit-note-data.ts';
import { invoiceData } from '../../../src/invoicing/invoice-data.ts';
import { aSale, aSaleWithCancelledLamp, invoiceOptions } from '../../invoicing/invoice-fixtures.ts';
import { address, cushion, fridge, saleImported, sofa } from './sale-fixtures.ts';
import { recordReformSales } from './reform-sales.ts';

/**
 * A realistic history touching every read model: a sale of three products (a sofa drop-shipped by
 * supplier-a, a fridge by supplier-b, a cushion from own stock), imported before tracking numbers came
 * with the import (one label as recorded then, one number allocated later), acknowledged, shipped, partly
 * cancelled and refunded, re-addressed and given delivery appointments; a SAV with an appointment, a
 * stored file and two given by URL (one fetched at its second attempt, one given up), then resolved,
 * closed, reopened and cancelled; an older order of the same customer imported later; the catalog, the plannings, leads and tokens;
 * an invoice issued, and a credit note for a line cancelled after it; the day of both sales handed to the approved platform; and
 * the sales the 2026 reform reads (reform-sales.ts).
 */

export const timezone = 'Europe/Paris';

export const mainSale = { saleId: 101, incrementId: '100000101', stream: 'sale-100000101' } as const;
export const savId = 7;

export const buildScenario = () => {
  const log = eventLog();
  const { saleId, stream } = mainSale;
  const fileId = randomUUID();
  const links = { fetched: randomUUID(), givenUp: randomUUID() };
  const leads = { sent: randomUUID(), failed: randomUUID(), pending: randomUUID() };

  // 23:30 UTC on 9 March is 00:30 on 10 March in Paris: the order's local date is the 10th.
  saleImported(log, { ...mainSale, orderedAt: '2025-03-09T23:30:00Z', products: [sofa, fridge, cushion] });
  log.record('sequence-sale', { type: 'IdRangeReserved', data: { sequence: 'sale', first: 1, last: 200 } });
  log.record(stream, {
    type: 'SaleProductAcknowledged',
    data: { saleId, saleProductId: 1001, supplier: 'supplier-a', acknowledgedAt: '2025-03-10T09:00:00+01:00' },
  });
  log.record(stream, {
    type: 'ShippingLabelCreated',
    data: {
      saleId,
      saleProductId: 1001,
      supplier: 'supplier-a',
      carrier: 'colissimo',
      trackingNumber: '6A123',
      labelPath: 'labels/100000101_1001.pdf',
      createdAt: '2025-03-10T09:05:00+01:00',
    },
  });
  // Imported before numbers came with the import: the fridge's line gets its number when its label is first asked for.
  log.record(stream, {
    type: 'TrackingNumberAllocated',
    data: { saleId, saleProductId: 1002, supplier: 'supplier-b', trackingNumber: 'MC0000000000422', allocatedAt: '2025-03-10T09:06:00+01:00' },
  });
  log.record(stream, {
    type: 'SaleProductShipped',
    data: { saleId, saleProductId: 1001, supplier: 'supplier-a', preparedAt: '2025-03-11T15:00:00+01:00', logUser: 'cron' },
  });
  log.record(stream, { type: 'SaleAddressUpdated', data: { saleId, shippingAddress: address('2 rue des Écoles'), updatedAt: '2025-03-11T16:00:00+01:00' } });
  log.record(stream, { type: 'SaleProductCancelled', data: { saleId, saleProductId: 1002, reason: 'changed mind', cancelledAt: '2025-03-12T10:00:00+01:00' } });
  log.record(stream, {
    type: 'RefundRequested',
    data: { saleId, refundId: 55, amount: 901, currency: 'EUR', reason: 'changed mind', saleProductIds: [1002], requestedAt: '2025-03-12T10:00:00+01:00' },
  });
  log.record(stream, { type: 'RefundPaid', data: { saleId, refundId: 55, paidAt: '2025-03-13T10:00:00+01:00' } });
  log.record(stream, {
    type: 'SaleDeliveryAppointmentScheduled',
    data: { saleId, planningType: 'delivery', date: '2025-03-18', time: '09:00', previous: null, scheduledAt: '2025-03-12T11:00:00+01:00' },
  });
  log.record(stream, {
    type: 'DeliveryServiceAppointmentSaved',
    data: { saleId, provider: 'geodis', reference: 'GEO-1', date: '2025-03-18', timeWindow: '08:00-12:00', savedAt: '2025-03-12T12:00:00+01:00' },
  });
  log.record(`sav-${savId}`, {
    type: 'SavCreated',
    data: {
      savId,
      saleId,
      incrementId: mainSale.incrementId,
      saleProductIds: [1001],
      products: [{ saleProductId: 1001, sku: sofa.sku, name: sofa.name }],
      complaint: 'Pied cassé à la livraison',
      complaintName: 'damaged',
      savType: 'repair',
      channel: 'chatbot',
      customerEmail: null,
      createdAt: '2025-03-14T10:00:00+01:00',
    },
  });
  log.record(`sav-${savId}`, {
    type: 'SavAppointmentScheduled',
    data: {
      savId,
      date: '2025-03-20',
      time: '14:00',
      phone: '0600000000',
      comment: 'Sonner deux fois',
      previous: null,
      scheduledAt: '2025-03-14T10:00:00+01:00',
    },
  });
  log.record(`sav-${savId}`, {
    type: 'SavFileAttached',
    data: {
      savId,
      fileId,
      kind: 'image',
      category: 'photo',
      sourceUrl: 'https://example.com/pied.jpg',
      storedPath: 'sav/7/pied.jpg',
      fileName: 'pied.jpg',
      contentType: 'image/jpeg',
      size: 2048,
      attachedAt: '2025-03-14T10:01:00+01:00',
    },
  });
  for (const [id, fileName] of [
    [links.fetched, 'clip.mp4'],
    [links.givenUp, 'video-2'],
  ] as const) {
    log.record(`sav-${savId}`, {
      type: 'SavFileAttached',
      data: {
        savId,
        fileId: id,
        kind: 'video',
        category: 'video',
        sourceUrl: `https://example.com/${fileName}`,
        storedPath: null,
        fileName,
        contentType: null,
        size: null,
        attachedAt: '2025-03-14T10:01:00+01:00',
      },
    });
  }
  log.record(`sav-${savId}`, {
    type: 'SavFileFetchFailed',
    data: {
      savId,
      fileId: links.fetched,
      fileName: 'clip.mp4',
      attempt: 1,
      reason: 'remote_failed',
      error: 'the file host answered HTTP 503',
      nextAttemptAt: '2025-03-14T10:02:00+01:00',
      failedAt: '2025-03-14T10:01:00+01:00',
    },
  });
  log.record(`sav-${savId}`, {
    type: 'SavFileFetched',
    data: {
      savId,
      fileId: links.fetched,
      fileName: 'clip.mp4',
      attempt: 2,
      kind: 'video',
      storedPath: 'sav-files/7/clip.mp4',
      contentType: 'video/mp4',
      size: 4096,
      fetchedAt: '2025-03-14T10:02:00+01:00',
    },
  });
  log.record(`sav-${savId}`, {
    type: 'SavFileFetchFailed',
    data: {
      savId,
      fileId: links.givenUp,
      fileName: 'video-2',
      attempt: 1,
      reason: 'unsupported_type',
      error: 'the file is not an accepted image or video',
      nextAttemptAt: null,
      failedAt: '2025-03-14T10:01:00+01:00',
    },
  });
  // The SAV's life, by the back office: resolved, closed, reopened, then cancelled after its appointment's day (kept).
  const backOffice = { kind: 'token', group: 'core', label: 'back-office' } as const;
  log.record(`sav-${savId}`, { type: 'SavResolved', data: { savId, resolution: 'Pied remplacé', resolvedAt: '2025-03-20T15:00:00+01:00' } }, backOffice);
  log.record(`sav-${savId}`, { type: 'SavClosed', data: { savId, releasedAppointment: null, closedAt: '2025-03-21T09:00:00+01:00' } }, backOffice);
  log.record(
    `sav-${savId}`,
    { type: 'SavReopened', data: { savId, reason: 'Le pied bouge', reopenedFrom: 'closed', reopenedAt: '2025-03-24T09:00:00+01:00' } },
    backOffice,
  );
  log.record(
    `sav-${savId}`,
    { type: 'SavCancelled', data: { savId, reason: 'Doublon du SAV 8', releasedAppointment: null, cancelledAt: '2025-03-25T09:00:00+01:00' } },
    backOffice,
  );
  // An older order of the same customer, under an older name, imported after the newer one.
  saleImported(log, {
    saleId: 102,
    incrementId: '100000090',
    orderedAt: '2024-12-01T10:00:00+01:00',
    products: [{ ...cushion, saleProductId: 1010 }],
    email: 'marie.curie@example.fr',
    lastname: 'Sklodowska',
  });

  log.record('product-SOFA-3P', {
    type: 'ProductCatalogued',
    data: {
      product: {
        sku: 'SOFA-3P',
        ean14: '03760000000017',
        name: 'Canapé 3 places',
        description: null,
        price: 899,
        wholesale_price: 400,
        availability: 'In Stock',
        stock_qty: 3,
        images: ['https://example.com/sofa.jpg'],
        supplier: 'supplier-a',
        carrier: 'geodis',
        weight_kg: 80,
        package_count: 2,
        vat_rate: 20,
        operation_category: 'goods',
      },
      cataloguedAt: '2025-01-01T00:00:00Z',
    },
  });
  log.record('product-SOFA-3P', { type: 'ProductUpdated', data: { sku: 'SOFA-3P', changes: { price: 849, stock_qty: 2 }, updatedAt: '2025-02-01T00:00:00Z' } });

  log.record('planning-sav', {
    type: 'PlanningConfigured',
    data: { planningType: 'sav', slotTimes: ['09:00', '14:00'], capacityPerSlot: 2, workingDays: [1, 2, 3, 4, 5], configuredAt: '2025-01-01T00:00:00Z' },
  });
  log.record('holidays-calendar', { type: 'HolidayDeclared', data: { date: '2025-04-21', label: 'Lundi de Pâques', declaredAt: '2025-01-01T00:00:00Z' } });
  log.record('holidays-calendar', { type: 'HolidayDeclared', data: { date: '2025-03-21', label: 'Inventaire', declaredAt: '2025-01-01T00:00:00Z' } });
  log.record('holidays-calendar', { type: 'HolidayRemoved', data: { date: '2025-03-21', removedAt: '2025-02-01T00:00:00Z' } });
  log.record('planningday-delivery-2025-03-18', {
    type: 'PlanningSlotBooked',
    data: {
      planningType: 'delivery',
      date: '2025-03-18',
      time: '09:00',
      booking: { kind: 'sale', saleId, incrementId: mainSale.incrementId },
      bookedAt: '2025-03-12T11:00:00+01:00',
    },
  });
  log.record('planningday-sav-2025-03-20', {
    type: 'PlanningSlotBooked',
    data: { planningType: 'sav', date: '2025-03-20', time: '14:00', booking: { kind: 'sav', savId }, bookedAt: '2025-03-14T10:00:00+01:00' },
  });
  log.record('planningday-sav-2025-03-20', {
    type: 'PlanningSlotBooked',
    data: { planningType: 'sav', date: '2025-03-20', time: '14:00', booking: { kind: 'sav', savId: 8 }, bookedAt: '2025-03-14T11:00:00+01:00' },
  });
  log.record('planningday-sav-2025-03-20', {
    type: 'PlanningSlotBooked',
    data: { planningType: 'sav', date: '2025-03-20', time: '09:00', booking: { kind: 'sav', savId: 9 }, bookedAt: '2025-03-14T12:00:00+01:00' },
  });
  log.record('planningday-sav-2025-03-20', {
    type: 'PlanningSlotReleased',
    data: { planningType: 'sav', date: '2025-03-20', time: '09:00', booking: { kind: 'sav', savId: 9 }, releasedAt: '2025-03-14T13:00:00+01:00' },
  });

  const captured = (leadId: string, name: string) =>
    log.record(`lead-${leadId}`, {
      type: 'ContactLeadCaptured',
      data: { leadId, name, email: `${name.toLowerCase()}@example.com`, phone: null, projectName: 'Hôtel', capturedAt: '2025-03-15T09:00:00+01:00' },
    });
  captured(leads.sent, 'Alice');
  captured(leads.failed, 'Bob');
  captured(leads.pending, 'Chloe');
  log.record(`lead-${leads.sent}`, {
    type: 'LeadNotificationSent',
    data: { leadId: leads.sent, attempt: 1, transport: 'smtp', messageId: '<m1@example.com>', sentAt: '2025-03-15T09:00:05+01:00' },
  });
  log.record(`lead-${leads.failed}`, {
    type: 'LeadNotificationFailed',
    data: { leadId: leads.failed, attempt: 1, error: 'connection refused', nextAttemptAt: '2025-03-15T09:05:00+01:00', failedAt: '2025-03-15T09:00:05+01:00' },
  });

  log.record('accesstoken-supplieratoken', {
    type: 'AccessTokenIssued',
    data: { tokenId: 'supplieratoken', group: 'supplier-a', label: 'Supplier A', secretHash: 'a'.repeat(64), issuedAt: '2025-01-01T00:00:00Z' },
  });
  log.record('accesstoken-oldchatbot', {
    type: 'AccessTokenIssued',
    data: { tokenId: 'oldchatbot', group: 'chatbot', label: 'Chatbot 2024', secretHash: 'b'.repeat(64), issuedAt: '2024-01-01T00:00:00Z' },
  });
  log.record('accesstoken-oldchatbot', { type: 'AccessTokenRevoked', data: { tokenId: 'oldchatbot', revokedAt: '2025-01-02T00:00:00Z' } });
  log.record('actiontoken-jti12345678', {
    type: 'ActionTokenConsumed',
    data: { tokenJti: 'jti12345678', action: 'cancel', saleId, consumedAt: '2025-03-12T10:00:00+01:00' },
  });

  const issue = { number: 'FA-2025-1', issuedAt: '2025-03-11T09:00:00Z', issuedOn: '2025-03-11' };
  const invoice = invoiceData(aSale({ _id: saleId, incrementId: mainSale.incrementId }), issue, invoiceOptions());
  log.record('invoices-2025', { type: 'InvoiceIssued', data: { number: issue.number, year: 2025, sequence: 1, saleId, issuedAt: issue.issuedAt, invoice } });
  const credited = linesToCredit(invoice, aSaleWithCancelledLamp(), [], timezone);
  const creditNote = creditNoteData(invoice, credited, { number: 'AV-2025-1', issuedAt: '2025-03-12T10:00:00Z', issuedOn: '2025-03-12' }, invoice.seller);
  log.record('credit_notes-2025', {
    type: 'CreditNoteIssued',
    data: {
      number: creditNote.number,
      year: 2025,
      sequence: 1,
      saleId,
      invoiceNumber: invoice.number,
      saleProductIds: credited.map((line) => line.saleProductId),
      issuedAt: creditNote.issuedAt,
      creditNote,
    },
  });

  // The day of both sales' import handed to the approved platform as its e-reporting: a failure, then sent and deposited.
  const reported = { documentId: 'ER-2025-03-10', kind: 'e-reporting' as const, date: '2025-03-10' };
  log.record('platformtransmission-ER-2025-03-10', {
    type: 'PlatformTransmissionFailed',
    data: { ...reported, attempt: 1, status: null, error: 'not sent: ECONNREFUSED', nextAttemptAt: '2025-03-12T00:00:30Z', failedAt: '2025-03-12T00:00:00Z' },
  });
  log.record('platformtransmission-ER-2025-03-10', {
    type: 'PlatformTransmissionSent',
    data: { ...reported, attempt: 2, status: 201, platformReference: 'pa-1', sentAt: '2025-03-12T00:00:31Z' },
  });
  log.record('platformtransmission-ER-2025-03-10', {
    type: 'PlatformStatusReceived',
    data: { ...reported, status: 'deposited', reason: null, receivedAt: '2025-03-12T00:00:31Z' },
  });
  recordReformSales(log);

  // supplier-a's webhook: subscribed, its secret rotated; the sofa's line told (after one failure), the
  // message asked again; supplier-b's subscription failing on the fridge's line, then removed.
  const hookA = 'wh_aaaaaaaaaaaaaaaa';
  const hookB = 'wh_bbbbbbbbbbbbbbbb';
  const sofaMessage = {
    subscriptionId: hookA,
    messageId: `msg_${'1'.repeat(32)}_100000101_1001`,
    sourceEventId: '11111111-1111-4111-8111-111111111111',
    serviceOrderId: '100000101_1001',
    position: 1,
    kind: 'line.opened' as const,
  };
  log.record(`webhook-${hookA}`, {
    type: 'WebhookSubscribed',
    data: {
      subscriptionId: hookA,
      supplier: 'supplier-a',
      url: 'https://hooks.supplier-a.example/sav',
      kinds: ['line.opened'],
      fromPosition: 0,
      subscribedAt: '2025-03-09T08:00:00Z',
    },
  });
  log.record(`webhook-${hookA}`, {
    type: 'WebhookSecretRotated',
    data: { subscriptionId: hookA, secretVersion: 2, previousValidUntil: '2025-03-11T08:00:00Z', rotatedAt: '2025-03-10T08:00:00Z' },
  });
  const sofaDelivery = `webhookdelivery-${hookA}-${sofaMessage.messageId}`;
  log.record(sofaDelivery, {
    type: 'WebhookDeliveryFailed',
    data: {
      ...sofaMessage,
      attempt: 1,
      status: 503,
      error: 'the endpoint answered HTTP 503',
      nextAttemptAt: '2025-03-10T00:00:05Z',
      failedAt: '2025-03-10T00:00:00Z',
    },
  });
  log.record(sofaDelivery, { type: 'WebhookDelivered', data: { ...sofaMessage, attempt: 2, status: 200, deliveredAt: '2025-03-10T00:00:05Z' } });
  log.record(sofaDelivery, { type: 'WebhookRedeliveryRequested', data: { ...sofaMessage, requestedAt: '2025-03-10T09:00:00Z' } });
  log.record(`webhook-${hookB}`, {
    type: 'WebhookSubscribed',
    data: {
      subscriptionId: hookB,
      supplier: 'supplier-b',
      url: 'https://hooks.supplier-b.example/in',
      kinds: ['line.opened', 'line.cancelled'],
      fromPosition: 0,
      subscribedAt: '2025-03-09T08:00:00Z',
    },
  });
  log.record(`webhook-${hookB}`, {
    type: 'WebhookSubscriptionFailing',
    data: { subscriptionId: hookB, messageId: `msg_${'2'.repeat(32)}_100000101_1002`, lastError: 'no answer within 10 s', failingAt: '2025-03-11T00:00:00Z' },
  });
  log.record(`webhook-${hookB}`, { type: 'WebhookSubscriptionResumed', data: { subscriptionId: hookB, resumedAt: '2025-03-11T09:00:00Z' } });

  return { log, events: log.events, fileId, links, leads };
};
