import { savStatusValues } from '../../events/after-sales/events.ts';
import type { SavDocument, SavFileDocument, SavStatusChange } from '../../projections/after-sales/sav-document.ts';
import { savFilePaths } from '../../contracts/sav-file-paths.ts';
import { builder } from '../builder.ts';

/** A SAV (after-sales request) as the `savs` read model holds it. */

const SavAppointmentRef = builder.objectRef<NonNullable<SavDocument['appointment']>>('SavAppointment').implement({
  fields: (t) => ({
    date: t.expose('date', { type: 'LocalDate' }),
    time: t.exposeString('time'),
    phone: t.exposeString('phone', { nullable: true }),
    comment: t.exposeString('comment', { nullable: true }),
    scheduledAt: t.expose('scheduledAt', { type: 'DateTime' }),
  }),
});

const SavFileRef = builder.objectRef<SavFileDocument & { savId: number }>('SavFile').implement({
  fields: (t) => ({
    fileId: t.exposeString('fileId'),
    kind: t.exposeString('kind'),
    category: t.exposeString('category'),
    fileName: t.exposeString('fileName'),
    contentType: t.exposeString('contentType', { nullable: true }),
    size: t.exposeInt('size', { nullable: true }),
    attachedAt: t.expose('attachedAt', { type: 'DateTime' }),
    state: t.exposeString('state', { description: 'pending: to be fetched from its URL (again); stored: downloadable; failed: given up.' }),
    sourceUrl: t.exposeString('sourceUrl', { nullable: true }),
    attempts: t.exposeInt('attempts', { description: 'Fetch attempts made.' }),
    lastError: t.exposeString('lastError', { nullable: true }),
    nextAttemptAt: t.expose('nextAttemptAt', { type: 'DateTime', nullable: true }),
    downloadUrl: t.string({
      nullable: true,
      description: 'Once stored: the core download link (a core Bearer token opens it).',
      resolve: (file, _args, { runtime }) => (file.state === 'stored' ? `${runtime.config.baseUrl}${savFilePaths.core(file.savId, file.fileId)}` : null),
    }),
  }),
});

export const SavStatusEnum = builder.enumType('SavStatus', {
  description: 'in_progress while open; resolved, then closed; resolved or closed SAVs can be reopened; cancelled for good.',
  values: savStatusValues.options,
});

const SavStatusChangeRef = builder.objectRef<SavStatusChange>('SavStatusChange').implement({
  description: 'One step of a SAV’s life, its creation first.',
  fields: (t) => ({
    status: t.expose('status', { type: SavStatusEnum, description: 'The status it entered.' }),
    at: t.expose('at', { type: 'DateTime' }),
    by: t.exposeString('by', { nullable: true, description: 'The label of the token it came through; null for the system.' }),
    note: t.exposeString('note', { nullable: true, description: 'The resolution, or why it was reopened or cancelled.' }),
  }),
});

const SavProductRef = builder.objectRef<SavDocument['products'][number]>('SavProduct').implement({
  fields: (t) => ({
    saleProductId: t.exposeInt('saleProductId'),
    sku: t.exposeString('sku'),
    name: t.exposeString('name'),
  }),
});

export const SavRef = builder.objectRef<SavDocument>('Sav').implement({
  fields: (t) => ({
    savId: t.exposeInt('_id'),
    saleId: t.exposeInt('saleId'),
    incrementId: t.exposeString('incrementId'),
    products: t.expose('products', { type: [SavProductRef] }),
    complaint: t.exposeString('complaint'),
    complaintName: t.exposeString('complaintName'),
    savType: t.exposeString('savType'),
    channel: t.exposeString('channel'),
    status: t.expose('status', { type: SavStatusEnum }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    statusChangedAt: t.expose('statusChangedAt', { type: 'DateTime', description: 'When the status last changed (createdAt until then).' }),
    resolution: t.exposeString('resolution', { nullable: true, description: 'What was done, while resolved or closed.' }),
    resolvedAt: t.expose('resolvedAt', {
      type: 'DateTime',
      nullable: true,
      description: 'When the current resolution was given; null while in progress or cancelled.',
    }),
    closedAt: t.expose('closedAt', { type: 'DateTime', nullable: true, description: 'Set while closed.' }),
    reopenedAt: t.expose('reopenedAt', { type: 'DateTime', nullable: true, description: 'The last reopening.' }),
    cancelledAt: t.expose('cancelledAt', { type: 'DateTime', nullable: true }),
    cancellationReason: t.exposeString('cancellationReason', { nullable: true }),
    statusHistory: t.expose('statusHistory', { type: [SavStatusChangeRef] }),
    appointment: t.expose('appointment', { type: SavAppointmentRef, nullable: true }),
    files: t.field({ type: [SavFileRef], resolve: (sav) => sav.files.map((file) => ({ ...file, savId: sav._id })) }),
  }),
});
