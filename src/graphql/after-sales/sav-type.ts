import type { SavDocument, SavFileDocument } from '../../projections/after-sales/sav-document.ts';
import { savFilePaths } from '../../rest/sav-files/sav-file-presenter.ts';
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
    status: t.exposeString('status'),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    appointment: t.expose('appointment', { type: SavAppointmentRef, nullable: true }),
    files: t.field({ type: [SavFileRef], resolve: (sav) => sav.files.map((file) => ({ ...file, savId: sav._id })) }),
  }),
});
