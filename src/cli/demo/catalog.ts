import { roundToCents } from '../../events/schema/money.ts';
import { applianceFamilies } from './appliance-families.ts';
import type { CatalogItem, SupplierCode } from './contract-types.ts';
import { decorFamilies } from './decor-families.ts';
import { furnitureFamilies } from './furniture-families.ts';
import { gtin14 } from './gtin.ts';
import type { Finish, ProductFamily, ProductOption } from './product-family.ts';
import type { Random } from './random.ts';

const freightCarriers = ['Geodis', 'DB Schenker', 'Kuehne+Nagel'] as const;
const parcelCarriers = ['DPD', 'Colissimo', 'Chronopost'] as const;
// Parcel networks take up to 30 kg a parcel (Colissimo's limit); anything heavier goes by freight.
const parcelLimitKg = 30;

const families: readonly ProductFamily[] = [...furnitureFamilies, ...applianceFamilies, ...decorFamilies];

/** Bulky goods are delivered by a freight carrier on an appointment with the customer. */
export const needsAppointment = (item: Pick<CatalogItem, 'carrier' | 'weight_kg'>): boolean =>
  (freightCarriers as readonly string[]).includes(item.carrier ?? '') || (item.weight_kg ?? 0) >= parcelLimitKg;

interface Product {
  model: readonly [code: string, label: string];
  option: ProductOption;
  finish: Finish;
}

export function buildCatalog(random: Random): CatalogItem[] {
  const total = families.reduce((sum, family) => sum + family.count, 0);
  // A French GS1 company prefix (376) and one item reference per product: the codes cannot collide.
  const companyPrefix = `376${String(random.int(0, 99_999)).padStart(5, '0')}`;
  let itemReference = random.int(0, 9_999 - total);
  return families.flatMap((family) => {
    // A model has one price and one weight; its sizes scale them and its colours do not change them.
    const models = new Map(family.models.map(([code]) => [code, { price: random.between(...family.price), weightKg: random.between(...family.weightKg) }]));
    return pickProducts(random, family).map((product) => {
      const ean14 = gtin14(`0${companyPrefix}${String(itemReference).padStart(4, '0')}`);
      itemReference += 1;
      const model = models.get(product.model[0]) ?? { price: family.price[0], weightKg: family.weightKg[0] };
      return catalogItem(random, family, product, model, ean14);
    });
  });
}

/** `family.count` distinct model/option/finish combinations, in the family's own order. */
function pickProducts(random: Random, family: ProductFamily): Product[] {
  const all = family.models.flatMap((model) => family.options.flatMap((option) => family.finishes.map((finish) => ({ model, option, finish }))));
  if (all.length < family.count) throw new RangeError(`family ${family.prefix} has only ${all.length} products`);
  const chosen = new Set(random.sample(all, family.count));
  return all.filter((product) => chosen.has(product));
}

function catalogItem(
  random: Random,
  family: ProductFamily,
  { model, option, finish }: Product,
  base: { price: number; weightKg: number },
  ean14: string,
): CatalogItem {
  const sku = [family.prefix, model[0], option.code, finish.code].filter((part) => part !== '').join('-');
  const name = family.name
    .replace('{model}', model[1])
    .replace('{option}', option.label)
    .replace('{finish}', family.gender === 'm' ? finish.masculine : finish.feminine)
    .replace(/\s+/g, ' ')
    .trim();
  const price = retailPrice(base.price * (option.priceFactor ?? 1));
  const weightKg = Math.round(base.weightKg * (option.weightFactor ?? 1) * 10) / 10;
  const packageCount = random.int(...family.packages);
  const bulky = family.bulky || weightKg >= parcelLimitKg;
  const availability = random.weighted([
    ['In Stock', 78],
    ['Backorder', 13],
    ['Out of Stock', 9],
  ] as const);
  const stockQty = availability === 'In Stock' ? random.int(1, bulky ? 40 : 150) : 0;
  const supplier = random.weighted<SupplierCode | null>([
    ['supplier-a', 45],
    ['supplier-b', 35],
    [null, 20],
  ]);
  const description = [
    family.intro,
    ...random.sample(family.features, random.int(2, 3)),
    ...(packageCount > 1 ? [`Livré en ${packageCount} colis.`] : []),
    ...(bulky ? ['Livraison sur rendez-vous.'] : []),
  ].join(' ');
  const imageCount = random.int(1, 4);
  return {
    sku,
    ean14,
    name,
    description,
    price,
    wholesale_price: roundToCents(price * random.between(0.55, 0.7)),
    availability,
    stock_qty: stockQty,
    images: Array.from({ length: imageCount }, (_, i) => `https://cdn.example.com/p/${sku.toLowerCase()}-${i + 1}.jpg`),
    supplier,
    carrier: random.pick(bulky ? freightCarriers : parcelCarriers),
    weight_kg: weightKg,
    package_count: packageCount,
  };
}

/** Shop prices end in 9 (649 €) above 200 €, in ,90 below (129,90 €). */
const retailPrice = (raw: number): number => (raw >= 200 ? Math.round(raw / 10) * 10 - 1 : roundToCents(Math.round(raw) - 0.1));
