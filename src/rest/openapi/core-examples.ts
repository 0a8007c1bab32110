/**
 * Examples of the core answers, taken from the demo data (`cli demo seed --orders 60 --seed 7`, as the
 * routes answered it; long lists shortened). A spec checks each against its documented schema.
 */

const tracking = {
  number: 'MC0000000000042',
  carrier: 'Colissimo',
  url: 'https://www.laposte.fr/outils/suivre-vos-envois?code=MC0000000000042',
  by_supplier: false,
};
const address = {
  firstname: 'Zoé',
  lastname: 'Brunet',
  company: null,
  street: ['38 allée des Tilleuls'],
  postcode: '38100',
  city: 'Grenoble',
  country_id: 'FR',
  telephone: '+33631936321',
};

export const saleExample = {
  id: 3,
  increment_id: '100000003',
  status: 'complete',
  source: 'shopping-api',
  created_at: '2026-08-01T20:24:58+02:00',
  order_date: '2026-08-01',
  currency: 'EUR',
  customer: { email: 'zbrunet580@example.org', firstname: 'Zoé', lastname: 'Brunet', phone: '+33631936321' },
  business_customer: null,
  shipping_address: address,
  billing_address: { ...address, company: 'Boulangerie Au Bon Pain' },
  payment: { method: 'card', status: 'paid', amount_paid: 249 },
  shipping_amount: 0,
  grand_total: 249,
  products: [
    {
      sale_product_id: 5,
      sku: 'PLQ-CCH-VITR-NOI',
      name: 'Plaque de cuisson Calora Chef vitrocéramique 4 foyers noire',
      qty: 1,
      price: 249,
      wholesale_price: 153.16,
      state: 'shipped',
      supplier: 'supplier-a',
      service_order_id: '100000003_5',
      carrier: 'Colissimo',
      requires_appointment: false,
      acknowledged_at: '2026-08-02T10:24:58+02:00',
      prepared_at: '2026-08-07T22:24:58+02:00',
      cancelled_at: null,
      tracking,
      refusal: null,
    },
  ],
  refunds: [],
  delivery_appointment: null,
  delivery_service_appointment: null,
  sav_ids: [],
  savs: [],
  imported_at: '2026-08-01T20:25:58+02:00',
  cancelled_at: null,
  updated_at: '2026-08-07T22:24:58+02:00',
};

export const refundsExample = [
  {
    id: 1,
    amount: 359,
    currency: 'EUR',
    reason: 'Annulation demandée par le client',
    sale_product_ids: [14],
    status: 'requested',
    created_at: '2026-08-22T19:34:58+02:00',
  },
];

const slots = (booked: number) =>
  ['08:00', '10:00', '13:00', '15:00', '17:00'].map((time) => ({ time, capacity: 4, booked, free: 4 - booked, full: false, current: false }));

export const rdvConfigExample = {
  sale_id: 3,
  increment_id: '100000003',
  status: 'complete',
  planning_type: 'delivery',
  timezone: 'Europe/Paris',
  requires_appointment: false,
  range: { start: '2026-11-24', end: '2026-12-24' },
  configuration: { slot_times: ['08:00', '10:00', '13:00', '15:00', '17:00'], capacity_per_slot: 4, working_days: [1, 2, 3, 4, 5, 6] },
  holidays: [],
  available_dates: ['2026-11-24', '2026-11-25'],
  dates: [
    { date: '2026-11-24', weekday: 2, available: true, slots: slots(0) },
    { date: '2026-11-25', weekday: 3, available: true, slots: slots(1) },
  ],
  current_appointment: null,
};

export const rdvCheckExample = {
  success: true,
  sale_id: 3,
  increment_id: '100000003',
  status: 'not_schedulable',
  appointment: { date: '2026-12-01', time: '10:00' },
  schedulable: false,
  slot_available: true,
  reason: { code: 'not_schedulable', message: 'The sale has nothing left to deliver: no appointment can be scheduled' },
  current_appointment: null,
  available_dates: ['2026-11-24', '2026-11-25'],
  available_slots: { '2026-11-24': ['08:00', '10:00', '13:00', '15:00', '17:00'], '2026-11-25': ['08:00', '10:00', '13:00', '15:00', '17:00'] },
  range: { start: '2026-11-24', end: '2026-12-24' },
  timezone: 'Europe/Paris',
};

export const productSearchExample = [
  {
    sku: 'ARM-ALPINE-2P-NOI',
    ean14: '03762073304207',
    name: 'Armoire Alpine 2 portes noire',
    description:
      'Armoire de chambre spacieuse. Fixation murale anti-basculement fournie. Montage à deux personnes recommandé. Livré en 5 colis. Livraison sur rendez-vous.',
    price: 409,
    wholesale_price: 267.34,
    availability: 'In Stock',
    stock_qty: 13,
    images: ['https://cdn.example.com/p/arm-alpine-2p-noi-1.jpg'],
    supplier: 'supplier-b',
    carrier: 'Kuehne+Nagel',
    weight_kg: 68.1,
    package_count: 5,
    updated_at: '2026-11-24T09:26:57+01:00',
  },
];

export const occupiedExample = {
  success: true,
  dates: ['2026-11-24', '2026-11-25', '2026-11-26'],
  range: { start: '2026-11-24', end: '2026-11-26' },
  occupied: { '2026-11-24': {}, '2026-11-25': { '10:00': 1 }, '2026-11-26': {} },
  holidays: [],
  timezone: 'Europe/Paris',
};

export const holidaysExample = [
  '2026-01-01',
  '2026-04-06',
  '2026-05-01',
  '2026-05-08',
  '2026-05-14',
  '2026-05-25',
  '2026-07-14',
  '2026-08-15',
  '2026-11-01',
  '2026-11-11',
  '2026-12-25',
];

/** An order as the marketplace sends it, in the demo's style. */
export const orderImportExample = {
  source: 'shopping-api',
  increment_id: '100000061',
  created_at: '2026-11-20T14:12:05+01:00',
  currency: 'EUR',
  customer: { email: 'zbrunet580@example.org', firstname: 'Zoé', lastname: 'Brunet', phone: '+33631936321' },
  shipping_address: {
    firstname: 'Zoé',
    lastname: 'Brunet',
    street: ['38 allée des Tilleuls'],
    postcode: '38100',
    city: 'Grenoble',
    country_id: 'FR',
    telephone: '+33631936321',
  },
  items: [
    {
      sku: 'PLQ-CCH-VITR-NOI',
      name: 'Plaque de cuisson Calora Chef vitrocéramique 4 foyers noire',
      qty_ordered: 1,
      price: 249,
      wholesale_price: 153.16,
      supplier: 'supplier-a',
      carrier: 'Colissimo',
    },
  ],
  payment: { method: 'card', status: 'paid', amount_paid: 249 },
  shipping_amount: 0,
  grand_total: 249,
};

export const orderImportedExample = {
  success: true,
  created: true,
  message: 'Order imported',
  sale_id: 61,
  increment_id: '100000061',
  sale_product_ids: [77],
  supplier_lines: [{ sale_product_id: 77, service_order_id: '100000061_77', supplier: 'supplier-a' }],
};
