/**
 * A product family of the demo catalog: every product of the family is one model in one option
 * (size, capacity...) and one finish, and its SKU is built from their codes (`CAN-OSLO-3P-GRY`).
 */
export interface ProductOption {
  code: string;
  label: string;
  /** Relative to the family's price range; 1 when absent. */
  priceFactor?: number;
  weightFactor?: number;
}

/** A colour or material, spelled to agree with the family's noun. */
export interface Finish {
  code: string;
  masculine: string;
  feminine: string;
}

export interface ProductFamily {
  prefix: string;
  /** How many products of this family the catalog lists. */
  count: number;
  /** Product name with {model}, {option} and {finish} placeholders. */
  name: string;
  gender: 'm' | 'f';
  models: readonly (readonly [code: string, label: string])[];
  options: readonly ProductOption[];
  finishes: readonly Finish[];
  /** First sentence of every description of the family; a few features follow it. */
  intro: string;
  features: readonly string[];
  /** Tax-included price range of the option with priceFactor 1. */
  price: readonly [number, number];
  weightKg: readonly [number, number];
  packages: readonly [number, number];
  /** Delivered by a freight carrier, on appointment, whatever its weight. */
  bulky: boolean;
}

export const noOption: readonly ProductOption[] = [{ code: '', label: '' }];
export const noFinish: readonly Finish[] = [{ code: '', masculine: '', feminine: '' }];

const finish = (code: string, masculine: string, feminine = masculine): Finish => ({ code, masculine, feminine });

export const fabricFinishes: readonly Finish[] = [
  finish('GRY', 'gris', 'grise'),
  finish('BEI', 'beige'),
  finish('BLU', 'bleu canard'),
  finish('VRT', 'vert sauge'),
  finish('ANT', 'anthracite'),
  finish('TER', 'terracotta'),
  finish('MOU', 'jaune moutarde'),
];

export const woodFinishes: readonly Finish[] = [
  finish('CHN', 'chêne clair'),
  finish('NOY', 'noyer'),
  finish('BLC', 'blanc', 'blanche'),
  finish('NOI', 'noir', 'noire'),
];

/** Colours that stay invariable in the plural, for products sold in lots. */
export const invariableFinishes: readonly Finish[] = [
  finish('CHN', 'chêne clair'),
  finish('NOY', 'noyer'),
  finish('ANT', 'anthracite'),
  finish('TER', 'terracotta'),
  finish('VRT', 'vert sauge'),
  finish('CRM', 'crème'),
];

export const applianceFinishes: readonly Finish[] = [finish('BLC', 'blanc', 'blanche'), finish('INX', 'inox'), finish('NOI', 'noir', 'noire')];

export const lightFinishes: readonly Finish[] = [
  finish('BLK', 'noir', 'noire'),
  finish('LAI', 'laiton'),
  finish('BLC', 'blanc', 'blanche'),
  finish('RTN', 'rotin'),
];
